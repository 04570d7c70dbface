/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * junit.h - JUnit XML, the test report that CI servers (Jenkins,
 * GitLab, GitHub's test reporters) show test case by test case, for
 * fluid validate --junit: one case per contract.
 *
 * The text comes from outside (file names, messages quoting the
 * contract): it is written as XML 1.0 allows, the five markup
 * characters as entities, and what XML cannot hold at all (control
 * characters, bytes that are not UTF-8, U+FFFE, U+FFFF) as the \xNN and
 * \uNNNN escapes diagnostics use, so that any input gives a document a
 * CI server parses.
 */
#ifndef FLUID_JUNIT_H
#define FLUID_JUNIT_H

#include <stddef.h>

enum junit_result {
	JUNIT_PASS,
	JUNIT_FAILURE,		/* refused: a <failure> */
	JUNIT_ERROR		/* could not be checked: an <error> */
};

struct junit_case {
	const char		*name;		/* the contract */
	enum junit_result	 result;
	const char		*message;	/* the failure's one line */
	const char		*text;		/* its diagnostics, or for a
						   pass its warnings; may be
						   NULL */
	int			 line;		/* its first error's line in
						   the contract, or 0 */
};

/*
 * The report of suite: a <testsuites> with one <testsuite> of n cases,
 * each a <testcase classname="suite" name="NAME" file="NAME"> (and
 * line="LINE" when known), with <failure> or
 * <error> (message, then text) or, for a pass with text, <system-out>.
 * A new string.
 */
char	*junit_xml(const char *suite, const struct junit_case *cases,
	    size_t n);

/* Add s to o as XML text (attr: as an attribute value, in quotes). */
struct sb;
void	junit_escape(struct sb *o, const char *s, int attr);

#endif
