/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * path.c - parsing and printing mapping paths (see path.h).
 *
 * Every reason below is a static string.  None may ever be built from
 * the input: a refused path may be an injection attempt, and reasons
 * end up in CI logs.
 */
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "utf8.h"

static const char R_CONTROL[] = "control character in map key";
static const char R_UTF8[] = "map key is not valid UTF-8";

static bool
ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
ident_char(int c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

bool
path_is_ident(const char *s)
{
	size_t n;

	if (s == NULL || !ident_start((unsigned char)*s))
		return false;
	for (n = 1; ident_char((unsigned char)s[n]); n++)
		continue;
	return s[n] == '\0' && n <= PATH_MAX_IDENT;
}

/* Read an identifier at *sp into *out; NULL, or the reason it is not. */
static const char *
parse_ident(const char **sp, char **out)
{
	const char *s = *sp;
	size_t n;

	if (!ident_start((unsigned char)*s))
		return "a name must start with a letter or '_'";
	for (n = 1; ident_char((unsigned char)s[n]); n++)
		continue;
	if (n > PATH_MAX_IDENT)
		return "name is longer than 128 bytes";
	*out = xstrndup(s, n);
	*sp = s + n;
	return NULL;
}

/*
 * Check one character of a map key at s, UTF-8 encoded, and set *len
 * to its length in bytes.  The characters refused are the C0 and C1
 * controls and DEL, and anything that is not well-formed UTF-8
 * (overlong forms, surrogates, beyond U+10FFFF, cut short): a key goes
 * into SQL as a string literal, where none of them is safe to carry.
 */
static const char *
key_char(const unsigned char *s, size_t *len)
{
	unsigned long cp;
	size_t n;

	if (s[0] < 0x20 || s[0] == 0x7f)
		return R_CONTROL;
	if ((n = utf8_char(s, &cp)) == 0)
		return R_UTF8;
	if (cp >= 0x80 && cp <= 0x9f)
		return R_CONTROL;	/* C1 controls */
	*len = n;
	return NULL;
}

/*
 * Read a map key, *sp just past its '[', into *out: "'" literal "']"
 * with '' standing for '.  NULL, or the reason it is not one.
 */
static const char *
parse_key(const char **sp, char **out)
{
	const char *s = *sp;
	const char *why = NULL;
	struct sb sb;
	size_t len;

	if (*s != '\'')
		return "a map key is written as ['literal']";
	s++;
	sb_init(&sb);
	for (;;) {
		if (*s == '\0') {
			why = "unterminated map key";
			break;
		}
		if (*s == '\'') {
			if (s[1] != '\'')
				break;
			sb_addc(&sb, '\'');
			s += 2;
			continue;
		}
		if ((why = key_char((const unsigned char *)s, &len)) != NULL)
			break;
		sb_addn(&sb, s, len);
		s += len;
	}
	if (why == NULL && s[1] != ']')
		why = "a map key must be followed by ']'";
	if (why != NULL) {
		sb_release(&sb);
		return why;
	}
	*out = xstrndup(sb.buf, sb.len);
	sb_release(&sb);
	*sp = s + 2;
	return NULL;
}

int
path_parse(const char *s, struct path *p, const char **why)
{
	const char *reason = NULL;
	enum path_step_kind kind;
	char *name = NULL;

	p->steps = NULL;
	p->n = 0;
	if (s == NULL || *s == '\0') {
		reason = "path is empty";
		goto fail;
	}
	if (!ident_start((unsigned char)*s)) {
		reason = "path must start with a name";
		goto fail;
	}
	/* At most PATH_MAX_STEPS steps, so the array never grows. */
	p->steps = xreallocarray(NULL, PATH_MAX_STEPS, sizeof(*p->steps));
	if ((reason = parse_ident(&s, &name)) != NULL)
		goto fail;
	kind = PATH_FIELD;
	for (;;) {
		p->steps[p->n].kind = kind;
		p->steps[p->n].name = name;
		p->n++;
		if (*s == '\0')
			break;
		if (*s != '.' && *s != '[') {
			reason = "unexpected character after a step";
			goto fail;
		}
		if (p->n == PATH_MAX_STEPS) {
			reason = "path has more than 64 steps";
			goto fail;
		}
		if (*s++ == '.') {
			kind = PATH_FIELD;
			reason = parse_ident(&s, &name);
		} else {
			kind = PATH_KEY;
			reason = parse_key(&s, &name);
		}
		if (reason != NULL)
			goto fail;
	}
	/* Kept paths hold room for their own steps only. */
	p->steps = xreallocarray(p->steps, p->n, sizeof(*p->steps));
	return 0;

fail:
	path_release(p);
	if (why != NULL)
		*why = reason;
	return -1;
}

void
path_release(struct path *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->steps[i].name);
	free(p->steps);
	p->steps = NULL;
	p->n = 0;
}

void
path_print(const struct path *p, struct sb *sb)
{
	const char *c;
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (p->steps[i].kind == PATH_FIELD) {
			if (i > 0)
				sb_addc(sb, '.');
			sb_adds(sb, p->steps[i].name);
			continue;
		}
		sb_adds(sb, "['");
		for (c = p->steps[i].name; *c != '\0'; c++) {
			if (*c == '\'')
				sb_addc(sb, '\'');
			sb_addc(sb, *c);
		}
		sb_adds(sb, "']");
	}
}

bool
path_pod_ok(const char *s)
{
	const char *p, *seg;
	size_t n;

	if (s == NULL || s[0] != '/' || strlen(s) > 1024)
		return false;
	for (p = s; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("._-/", *p) != NULL))
			return false;
	for (seg = s + 1;; seg = p + 1) {
		p = strchr(seg, '/');
		n = p != NULL ? (size_t)(p - seg) : strlen(seg);
		if (n == 0 || (n == 1 && seg[0] == '.') ||
		    (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return false;
		if (p == NULL)
			return true;
	}
}
