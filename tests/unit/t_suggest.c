/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_suggest.c - unit tests for lib/suggest.c, the one closeness test of
 * "did you mean": one insertion, deletion, substitution or swap of
 * neighbours, and nothing further.  The checker's contract keys and the
 * tools' commands and options both rely on it.
 */
#include <stddef.h>
#include <string.h>

#include "suggest.h"
#include "tap.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

int
main(void)
{
	static const char *const opts[] = { "format", "junit", "fragment",
	    NULL, "mode", "depfile" };
	static const struct {
		const char	*name;
		const char	*want;	/* NULL: nothing near */
	} cases[] = {
		{ "jnuit", "junit" },		/* neighbours swapped */
		{ "junt", "junit" },		/* a letter dropped */
		{ "juniit", "junit" },		/* a letter added */
		{ "junix", "junit" },		/* a letter changed */
		{ "xjunit", "junit" },		/* added in front */
		{ "unit", "junit" },		/* dropped in front */
		{ "mdoe", "mode" },
		{ "fromat", "format" },
		{ "junit", NULL },		/* the same is not a typo */
		{ "nujit", NULL },		/* two apart */
		{ "jitun", NULL },
		{ "ju", NULL },
		{ "", NULL },
		{ "formatting", NULL },
		{ "depfiles", "depfile" },
		{ "MODE", NULL },		/* case is an edit per letter */
	};
	const char *got;
	size_t i;

	for (i = 0; i < NELEM(cases); i++) {
		got = suggest_near(cases[i].name, opts, NELEM(opts));
		if (cases[i].want == NULL)
			ok(got == NULL, "'%s': nothing near (got '%s')",
			    cases[i].name, got ? got : "");
		else
			is_str(got ? got : "(none)", cases[i].want,
			    "'%s' is near '%s'", cases[i].name, cases[i].want);
	}
	/* The first near candidate, in the table's order. */
	{
		static const char *const two[] = { "plan", "plat", "flan" };

		is_str(suggest_near("plam", two, 3), "plan", "the first of two");
		ok(suggest_near("plan", two, 0) == NULL, "no candidates");
	}
	return done_testing();
}
