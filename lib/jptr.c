/*
 * jptr.c - building and following JSON pointers (see jptr.h).
 */
#include <stdlib.h>
#include <string.h>

#include "jptr.h"

void
jptr_push_key(struct sb *sb, const char *key)
{
	sb_addc(sb, '/');
	for (; *key != '\0'; key++) {
		if (*key == '~')
			sb_adds(sb, "~0");
		else if (*key == '/')
			sb_adds(sb, "~1");
		else
			sb_addc(sb, *key);
	}
}

void
jptr_push_index(struct sb *sb, size_t index)
{
	sb_addf(sb, "/%zu", index);
}

/* Unescape one token in place; returns -1 on a bad '~' escape. */
static int
unescape(char *tok)
{
	char *r, *w;

	for (r = w = tok; *r != '\0'; r++) {
		if (*r != '~') {
			*w++ = *r;
			continue;
		}
		if (r[1] == '0')
			*w++ = '~';
		else if (r[1] == '1')
			*w++ = '/';
		else
			return -1;
		r++;
	}
	*w = '\0';
	return 0;
}

static int
parse_index(const char *tok, size_t *out)
{
	char *end;
	unsigned long long v;

	if (tok[0] < '0' || tok[0] > '9' || (tok[0] == '0' && tok[1] != '\0'))
		return -1;
	v = strtoull(tok, &end, 10);
	if (*end != '\0')
		return -1;
	*out = (size_t)v;
	return 0;
}

json_t *
jptr_get(json_t *root, const char *ptr)
{
	char *copy, *tok, *next;
	json_t *cur = root;
	size_t idx;

	if (*ptr == '\0')
		return root;
	if (*ptr != '/')
		return NULL;
	copy = xstrdup(ptr + 1);
	for (tok = copy; cur != NULL; tok = next + 1) {
		next = strchr(tok, '/');
		if (next != NULL)
			*next = '\0';
		if (unescape(tok) == -1)
			cur = NULL;
		else if (json_is_object(cur))
			cur = json_object_get(cur, tok);
		else if (json_is_array(cur) && parse_index(tok, &idx) == 0)
			cur = json_array_get(cur, idx);
		else
			cur = NULL;
		if (next == NULL)
			break;
	}
	free(copy);
	return cur;
}
