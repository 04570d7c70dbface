/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * suggest.c - the closeness test of "did you mean" (suggest.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "suggest.h"

/*
 * One insertion, deletion, substitution or swap of neighbours, between a
 * and b of known lengths.
 */
static bool
one_edit_n(const char *a, size_t la, const char *b, size_t lb)
{
	size_t i = 0;

	if (la > lb + 1 || lb > la + 1)
		return false;
	while (i < la && i < lb && a[i] == b[i])
		i++;
	if (la == lb) {
		if (i == la)
			return false;	/* the same */
		if (memcmp(a + i + 1, b + i + 1, la - i - 1) == 0)
			return true;
		return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i] &&
		    memcmp(a + i + 2, b + i + 2, la - i - 2) == 0;
	}
	if (la > lb)
		return memcmp(a + i + 1, b + i, la - i - 1) == 0;
	return memcmp(a + i, b + i + 1, lb - i - 1) == 0;
}

/* The bytes of s as a set of 64 (a bag of letters, folded). */
static uint64_t
letters(const char *s, size_t *len)
{
	const char *p;
	uint64_t m = 0;

	for (p = s; *p != '\0'; p++)
		m |= (uint64_t)1 << ((unsigned char)*p & 63);
	*len = (size_t)(p - s);
	return m;
}

/*
 * A report names one candidate, so this runs once per error, over every
 * candidate: it looks at each candidate once, and only a candidate whose
 * length and letters allow it gets the full comparison.  One edit
 * changes the set of letters by at most two: a letter gone, a letter new.
 */
const char *
suggest_near(const char *name, const char *const *cands, size_t n)
{
	size_t i, ln, lc;
	uint64_t mn, mc;

	mn = letters(name, &ln);
	for (i = 0; i < n; i++) {
		if (cands[i] == NULL)
			continue;
		mc = letters(cands[i], &lc);
		if (__builtin_popcountll(mn ^ mc) > 2 ||
		    !one_edit_n(name, ln, cands[i], lc))
			continue;
		return cands[i];
	}
	return NULL;
}
