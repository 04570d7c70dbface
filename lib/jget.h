/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jget.h - reading a member of a JSON object that another stage, a file
 * or a server wrote: any member may be missing or of another type, so
 * each accessor answers NULL, "" or false rather than trusting the
 * shape.  The one place for what was a static str() in many modules.
 * And jtext(), the one writer of JSON as fluid's files and standard
 * output hold it.
 */
#ifndef FLUID_JGET_H
#define FLUID_JGET_H

#include <stdbool.h>
#include <jansson.h>

/* o's member key as a string; NULL when o is no object or key no string. */
const char	*jstr(const json_t *o, const char *key);
/*
 * A string two or three members down: v's member a, then its member b,
 * then c (b and c skipped when NULL), or NULL where the path breaks.
 */
const char	*jstr2(const json_t *v, const char *a, const char *b);
const char	*jstr3(const json_t *v, const char *a, const char *b,
		    const char *c);
/* The same as jstr(), but "" instead of NULL: for comparing and printing. */
const char	*jstrz(const json_t *o, const char *key);
/* Whether o has member key with a value other than null. */
bool		 jpresent(const json_t *o, const char *key);
/* Whether s and word are both set and equal. */
bool		 jstreq(const char *s, const char *word);

/*
 * v as fluid writes JSON for people and files: two-space indented
 * (json_dumps() with JSON_INDENT(2) | flags, e.g. JSON_SORT_KEYS),
 * ending in a newline.  A new string, or NULL when jansson cannot
 * dump v.
 */
char		*jtext(const json_t *v, size_t flags);

#endif
