/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_path.c - the mapping path parser (path.h).
 *
 * Properties: a refused path gives a static reason, never built from
 * the input (a path may be an injection attempt that ends up in a CI
 * log); an accepted one has 1..PATH_MAX_STEPS steps whose names are
 * identifiers or control-free keys, and path_print() spells it so that
 * it parses back to the same steps.  path_is_ident() agrees with the
 * parser.
 */
#include "fuzz.h"

static void
same(const struct path *a, const struct path *b)
{
	size_t i;

	if (a->n != b->n)
		fuzz_fail("a printed path has another number of steps");
	for (i = 0; i < a->n; i++)
		if (a->steps[i].kind != b->steps[i].kind ||
		    strcmp(a->steps[i].name, b->steps[i].name) != 0)
			fuzz_fail("a printed path parses to other steps");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct path p, p2;
	const char *why = NULL, *c;
	struct sb sb;
	char *s;
	size_t i;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	s = fuzz_cstr(data, size);
	if (path_parse(s, &p, &why) == -1) {
		if (why == NULL || *why == '\0')
			fuzz_fail("a path refused without a reason");
		if (why >= s && why <= s + strlen(s))
			fuzz_fail("a reason that points into the input");
		if (p.n != 0 || p.steps != NULL)
			fuzz_fail("a refused path left steps behind");
		if (path_is_ident(s))
			fuzz_fail("an identifier refused as a path");
		free(s);
		return 0;
	}
	if (p.n < 1 || p.n > PATH_MAX_STEPS)
		fuzz_fail("a path with a number of steps out of range");
	for (i = 0; i < p.n; i++) {
		if (p.steps[i].kind == PATH_FIELD &&
		    !path_is_ident(p.steps[i].name))
			fuzz_fail("a field step that is not an identifier");
		for (c = p.steps[i].name; *c != '\0'; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				fuzz_fail("a control character in a step");
	}
	if (path_is_ident(s) != (p.n == 1 && p.steps[0].kind == PATH_FIELD))
		fuzz_fail("path_is_ident() disagrees with the parser");
	sb_init(&sb);
	path_print(&p, &sb);
	if (path_parse(sb.buf, &p2, &why) == -1)
		fuzz_fail("a printed path does not parse");
	same(&p, &p2);
	path_release(&p2);
	sb_release(&sb);
	path_release(&p);
	free(s);
	return 0;
}
