/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * plan_bounds.c - a plan's bundle measured against the limits a contract
 * meets (bounds.h, plan.h) before anything renders it.
 *
 * fluid validate refuses a contract past a limit while it reads the
 * YAML (yload.c, resolve.c); a plan's bundle is that contract already
 * resolved, as JSON, and is data from whoever wrote the plan: the same
 * limits, counted the same way, so that apply does no work on a bundle
 * that no contract could have given.
 */
#include <string.h>

#include "bounds.h"
#include "plan.h"
#include "xalloc.h"

struct measure {
	size_t		 nodes;
	size_t		 bytes;		/* of strings and keys */
	char		*why;		/* the first limit passed (new) */
};

/* Record the first limit passed; always -1. */
static int
over(struct measure *m, char *why)
{
	if (m->why == NULL)
		m->why = why;
	else
		free(why);
	return -1;
}

static int
walk(const json_t *v, struct measure *m)
{
	const char *k;
	json_t *e;
	size_t i, n;

	if (++m->nodes > FL_MAX_NODES)
		return over(m, xasprintf("it has more than %u nodes",
		    FL_MAX_NODES));
	switch (json_typeof(v)) {
	case JSON_STRING:
		n = json_string_length(v);
		if (n > FL_MAX_STRING_BYTES)
			return over(m, xasprintf("a string is longer than %u "
			    "bytes", FL_MAX_STRING_BYTES));
		if ((m->bytes += n) > FL_MAX_EXPANDED_BYTES)
			goto expanded;
		return 0;
	case JSON_OBJECT:
	case JSON_ARRAY:
		break;
	default:
		return 0;
	}
	/* Nesting: jansson reads no JSON deeper than 2048 levels. */
	if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			if (walk(e, m) == -1)
				return -1;
		return 0;
	}
	json_object_foreach((json_t *)v, k, e) {
		n = strlen(k);
		if (n > FL_MAX_KEY_BYTES)
			return over(m, xasprintf("a mapping key is longer "
			    "than %u bytes", FL_MAX_KEY_BYTES));
		if ((m->bytes += n) > FL_MAX_EXPANDED_BYTES)
			goto expanded;
		if (walk(e, m) == -1)
			return -1;
	}
	return 0;
expanded:
	return over(m, xasprintf("it holds more than %u MiB of strings and "
	    "keys", FL_MAX_EXPANDED_BYTES >> 20));
}

char *
plan_bundle_unbounded(const json_t *document)
{
	struct measure m = { 0, 0, NULL };

	(void)walk(document, &m);
	return m.why;
}
