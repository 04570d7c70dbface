/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jptr.c - building and following JSON pointers (see jptr.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jptr.h"

void
jptr_push_key(struct sb *sb, const char *key)
{
	size_t n;

	sb_addc(sb, '/');
	while (*key != '\0') {
		/* Copy the run up to the next character to escape at once. */
		n = strcspn(key, "~/");
		sb_addn(sb, key, n);
		key += n;
		if (*key == '~')
			sb_addn(sb, "~0", 2);
		else if (*key == '/')
			sb_addn(sb, "~1", 2);
		else
			break;
		key++;
	}
}

void
jptr_push_index(struct sb *sb, size_t index)
{
	sb_addc(sb, '/');
	sb_addu(sb, index);
}

int
jptr_walk(json_t *node, struct sb *ptr,
    int (*visit)(json_t *node, const struct sb *ptr, void *arg), void *arg)
{
	size_t len = ptr->len, i;
	const char *k;
	json_t *v;
	int rc;

	if ((rc = visit(node, ptr, arg)) != 0)
		return rc == 1 ? 0 : -1;
	if (json_is_object(node)) {
		json_object_foreach(node, k, v) {
			jptr_push_key(ptr, k);
			rc = jptr_walk(v, ptr, visit, arg);
			sb_truncate(ptr, len);
			if (rc == -1)
				return -1;
		}
	} else if (json_is_array(node)) {
		json_array_foreach(node, i, v) {
			jptr_push_index(ptr, i);
			rc = jptr_walk(v, ptr, visit, arg);
			sb_truncate(ptr, len);
			if (rc == -1)
				return -1;
		}
	}
	return 0;
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

struct jpent {
	size_t		off;		/* of the pointer in keys */
	uint32_t	hash;
	int		v[3];
};

struct jptab {
	struct sb	 keys;		/* the pointers, each NUL-terminated */
	struct jpent	*ents;		/* in the order they were put */
	size_t		 n, cap;
	uint32_t	*slots;		/* 0: free; else entry index + 1 */
	size_t		 nslots;	/* a power of two, at least 2 n */
};

/* FNV-1a: pointers are short and the table is only read by them. */
static uint32_t
jp_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

struct jptab *
jptab_new(void)
{
	struct jptab *t = xcalloc(1, sizeof(*t));

	sb_init(&t->keys);
	t->nslots = 64;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
	return t;
}

void
jptab_free(struct jptab *t)
{
	if (t == NULL)
		return;
	sb_release(&t->keys);
	free(t->ents);
	free(t->slots);
	free(t);
}

/* The slot of ptr: its entry's, or the free one it would take. */
static uint32_t *
jp_slot(const struct jptab *t, const char *ptr, size_t len, uint32_t h)
{
	size_t i, mask = t->nslots - 1;
	const struct jpent *e;
	const char *k;

	for (i = h & mask;; i = (i + 1) & mask) {
		if (t->slots[i] == 0)
			return &t->slots[i];
		e = &t->ents[t->slots[i] - 1];
		k = t->keys.buf + e->off;
		if (e->hash == h && strncmp(k, ptr, len) == 0 &&
		    k[len] == '\0')
			return &t->slots[i];
	}
}

void
jptab_put(struct jptab *t, const char *ptr, size_t len, int a, int b, int c)
{
	uint32_t h = jp_hash(ptr, len), *slot;
	struct jpent *e;
	size_t i, j, mask;

	slot = jp_slot(t, ptr, len, h);
	if (*slot == 0) {
		if (2 * (t->n + 1) > t->nslots) {
			free(t->slots);
			t->nslots *= 2;
			t->slots = xcalloc(t->nslots, sizeof(*t->slots));
			mask = t->nslots - 1;
			for (i = 0; i < t->n; i++) {
				for (j = t->ents[i].hash & mask;
				    t->slots[j] != 0; j = (j + 1) & mask)
					;
				t->slots[j] = (uint32_t)i + 1;
			}
			slot = jp_slot(t, ptr, len, h);
		}
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->ents = xreallocarray(t->ents, t->cap,
			    sizeof(*t->ents));
		}
		e = &t->ents[t->n];
		e->off = t->keys.len;
		e->hash = h;
		sb_addn(&t->keys, ptr, len);
		sb_addc(&t->keys, '\0');
		*slot = (uint32_t)++t->n;
	} else
		e = &t->ents[*slot - 1];
	e->v[0] = a;
	e->v[1] = b;
	e->v[2] = c;
}

const int *
jptab_get(const struct jptab *t, const char *ptr, size_t len)
{
	uint32_t *slot = jp_slot(t, ptr, len, jp_hash(ptr, len));

	return *slot ? t->ents[*slot - 1].v : NULL;
}
