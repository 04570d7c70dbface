/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ir_prune.c - leaving out of a section the members a stage does not
 * read (see ir_prune.h).  fluid-k8s and fluid-verify read the check
 * section for a build's table and deployment, not for its outputs and
 * stream columns, which are most of its bytes on a wide contract.
 */
#include <string.h>

#include "ir_prune.h"

#define PRUNE_MAX	8	/* patterns: a mask of them is an unsigned */

const char *
ir_prune_string_end(const char *p, const char *end)
{
	const char *q;
	size_t n;

	/* memchr() to each quote; an odd run of backslashes escapes it. */
	for (p++; p < end; p = q + 1) {
		if ((q = memchr(p, '"', (size_t)(end - p))) == NULL)
			return NULL;
		for (n = 0; q - n > p && q[-1 - (ptrdiff_t)n] == '\\'; n++)
			;
		if (n % 2 == 0)
			return q + 1;
	}
	return NULL;
}

const char *
ir_prune_value_end(const char *p, const char *end, int *blank)
{
	size_t depth = 0;

	while (p < end) {
		switch (*p) {
		case '"':
			if ((p = ir_prune_string_end(p, end)) == NULL)
				return NULL;
			if (depth == 0)
				return p;
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (depth == 0)
				return p;	/* the end of a scalar */
			if (--depth == 0)
				return p + 1;
			break;
		case ',':
			if (depth == 0)
				return p;
			break;
		case ' ':
		case '\t':
		case '\r':
		case '\n':
			if (blank != NULL)
				*blank = 1;
			break;
		}
		p++;
	}
	return depth == 0 ? p : NULL;
}

/*
 * Segment i of pattern pat, its length in *n; NULL when pat has fewer.
 * *last says whether it is pat's last segment.
 */
static const char *
segment(const char *pat, size_t i, size_t *n, int *last)
{
	const char *e;

	for (; i > 0; i--)
		if ((pat = strchr(pat, '/')) == NULL)
			return NULL;
		else
			pat++;
	e = strchr(pat, '/');
	*last = e == NULL;
	*n = e ? (size_t)(e - pat) : strlen(pat);
	return pat;
}

struct prune {
	const char *const	*pats;
	const char		*end;
	struct sb		*out;
	int			 dropped;
};

static const char *value(struct prune *, const char *, unsigned, size_t);

static const char *
object(struct prune *pr, const char *p, unsigned live, size_t depth)
{
	const char *k, *seg;
	unsigned sub, i;
	size_t n;
	int last, drop, first = 1;

	sb_addc(pr->out, '{');
	if (++p < pr->end && *p == '}') {
		sb_addc(pr->out, '}');
		return p + 1;
	}
	for (;;) {
		if (p >= pr->end || *p != '"' ||
		    (k = ir_prune_string_end(p, pr->end)) == NULL ||
		    k >= pr->end || *k != ':' ||
		    memchr(p, '\\', (size_t)(k - p)) != NULL)
			return NULL;
		sub = 0;
		drop = 0;
		for (i = 0; pr->pats[i] != NULL; i++) {
			if (!(live & 1u << i) ||
			    (seg = segment(pr->pats[i], depth, &n, &last)) ==
			    NULL || n != (size_t)(k - p) - 2 ||
			    memcmp(seg, p + 1, n) != 0)
				continue;
			if (last)
				drop = 1;
			else
				sub |= 1u << i;
		}
		if (drop) {
			p = ir_prune_value_end(k + 1, pr->end, NULL);
			if (p == NULL)
				return NULL;
			pr->dropped++;
		} else {
			if (!first)
				sb_addc(pr->out, ',');
			first = 0;
			sb_addn(pr->out, p, (size_t)(k + 1 - p));
			if ((p = value(pr, k + 1, sub, depth + 1)) == NULL)
				return NULL;
		}
		if (p >= pr->end)
			return NULL;
		if (*p == '}') {
			sb_addc(pr->out, '}');
			return p + 1;
		}
		if (*p++ != ',')
			return NULL;
	}
}

static const char *
array(struct prune *pr, const char *p, unsigned live, size_t depth)
{
	const char *seg;
	unsigned sub = 0, i;
	size_t n;
	int last;

	/* Every element goes on with the patterns that name none (x/). */
	for (i = 0; pr->pats[i] != NULL; i++)
		if ((live & 1u << i) &&
		    (seg = segment(pr->pats[i], depth, &n, &last)) != NULL &&
		    !last)
			sub |= 1u << i;
	sb_addc(pr->out, '[');
	if (++p < pr->end && *p == ']') {
		sb_addc(pr->out, ']');
		return p + 1;
	}
	for (;;) {
		if ((p = value(pr, p, sub, depth + 1)) == NULL ||
		    p >= pr->end)
			return NULL;
		if (*p == ']') {
			sb_addc(pr->out, ']');
			return p + 1;
		}
		if (*p++ != ',')
			return NULL;
		sb_addc(pr->out, ',');
	}
}

/* Copy the value at p, pruned where a live pattern leads; past it. */
static const char *
value(struct prune *pr, const char *p, unsigned live, size_t depth)
{
	const char *e;

	if (p >= pr->end)
		return NULL;
	if (live != 0 && *p == '{')
		return object(pr, p, live, depth);
	if (live != 0 && *p == '[')
		return array(pr, p, live, depth);
	if ((e = ir_prune_value_end(p, pr->end, NULL)) == NULL || e == p)
		return NULL;
	sb_addn(pr->out, p, (size_t)(e - p));
	return e;
}

int
ir_prune(const char *p, size_t len, const char *const pats[],
    struct sb *out)
{
	struct prune pr = { pats, p + len, out, 0 };
	unsigned live = 0, i;

	for (i = 0; pats[i] != NULL; i++)
		if (i == PRUNE_MAX)
			return -1;
		else
			live |= 1u << i;
	if ((p = value(&pr, p, live, 0)) == NULL || p != pr.end)
		return -1;
	return pr.dropped;
}

/*
 * What fluid-k8s render and plan and fluid-verify never read of the
 * check section: each build's outputs and its stream's columns (the
 * table's columns they do read).
 */
const char *const ir_prune_check_bulk[] = {
	"check/builds/*/outputs",
	"check/builds/*/stream/columns",
	NULL
};
