/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jget.c - JSON members read without trusting their type, and JSON
 * written as fluid writes it (jget.h).
 */
#include <stdlib.h>
#include <string.h>

#include "jget.h"
#include "xalloc.h"

const char *
jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

const char *
jstr2(const json_t *v, const char *a, const char *b)
{
	return jstr3(v, a, b, NULL);
}

const char *
jstr3(const json_t *v, const char *a, const char *b, const char *c)
{
	v = json_object_get(v, a);
	if (b != NULL)
		v = json_object_get(v, b);
	if (c != NULL)
		v = json_object_get(v, c);
	return json_string_value(v);
}

const char *
jstrz(const json_t *o, const char *key)
{
	const char *s = jstr(o, key);

	return s != NULL ? s : "";
}

bool
jpresent(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return v != NULL && !json_is_null(v);
}

bool
jstreq(const char *s, const char *word)
{
	return s != NULL && word != NULL && strcmp(s, word) == 0;
}

char *
jtext(const json_t *v, size_t flags)
{
	char *text = json_dumps(v, JSON_INDENT(2) | flags), *out;
	size_t n;

	if (text == NULL)
		return NULL;
	/* Not xasprintf("%s\n"): vsnprintf of megabytes was a tenth of
	   generate at 100,000 columns. */
	n = strlen(text);
	out = xmalloc(n + 2);
	memcpy(out, text, n);
	out[n] = '\n';
	out[n + 1] = '\0';
	free(text);
	return out;
}
