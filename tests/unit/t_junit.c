/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_junit.c - unit tests for lib/junit.c: the report's shape and its
 * escaping of text that is markup or that XML 1.0 cannot hold.
 */
#include <stdlib.h>
#include <string.h>

#include "junit.h"
#include "xalloc.h"
#include "tap.h"

/* junit_escape() of s, as a new string. */
static char *
esc(const char *s, int attr)
{
	struct sb o;

	sb_init(&o);
	junit_escape(&o, s, attr);
	return o.buf != NULL ? sb_steal(&o) : xstrdup("");
}

static void
escapes(void)
{
	static const struct {
		const char	*in;
		int		 attr;
		const char	*want;
	} cases[] = {
		{ "plain text", 0, "plain text" },
		{ "a&b<c>d\"e'f", 0, "a&amp;b&lt;c&gt;d&quot;e&apos;f" },
		{ "]]>", 0, "]]&gt;" },
		{ "&amp;", 1, "&amp;amp;" },
		{ "two\nlines", 0, "two\nlines" },
		{ "two\nlines\tand\rtab", 1, "two&#10;lines&#9;and&#13;tab" },
		{ "nul-free \x01\x1b\x7f", 0, "nul-free \\x01\\x1b\\x7f" },
		{ "not utf-8 \xff\xc3", 0, "not utf-8 \\xff\\xc3" },
		{ "overlong \xc0\xaf", 0, "overlong \\xc0\\xaf" },
		{ "noncharacters \xef\xbf\xbe\xef\xbf\xbf", 0,
		    "noncharacters \\ufffe\\uffff" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 1,
		    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	};
	size_t i;
	char *got;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		got = esc(cases[i].in, cases[i].attr);
		is_str(got, cases[i].want, "junit_escape #%zu", i);
		free(got);
	}
}

static void
report(void)
{
	const struct junit_case c[] = {
		{ "a.yaml", JUNIT_PASS, NULL, NULL, 0 },
		{ "b.yaml", JUNIT_FAILURE, "refused (1 error)",
		    "f.yaml:1:2: error: x <y> [contract: b.yaml]\n", 0 },
		{ "c.yaml", JUNIT_ERROR, "cannot open 'c.yaml'", "", 0 },
		{ "d.yaml", JUNIT_PASS, NULL, "d.yaml:1:1: warning: w\n", 0 },
		{ "e.yaml", JUNIT_FAILURE, "refused (1 error)",
		    "e.yaml:7:3: error: z\n", 7 },
	};
	char *x = junit_xml("fluid validate", c, 5);

	is_str(x,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"fluid validate\" tests=\"5\" failures=\"2\" "
	    "errors=\"1\">\n"
	    "  <testsuite name=\"fluid validate\" tests=\"5\" failures=\"2\" "
	    "errors=\"1\" skipped=\"0\">\n"
	    "    <testcase classname=\"fluid validate\" name=\"a.yaml\" "
	    "file=\"a.yaml\"/>\n"
	    "    <testcase classname=\"fluid validate\" name=\"b.yaml\" "
	    "file=\"b.yaml\">\n"
	    "      <failure message=\"refused (1 error)\" type=\"refused\">"
	    "f.yaml:1:2: error: x &lt;y&gt; [contract: b.yaml]\n</failure>\n"
	    "    </testcase>\n"
	    "    <testcase classname=\"fluid validate\" name=\"c.yaml\" "
	    "file=\"c.yaml\">\n"
	    "      <error message=\"cannot open &apos;c.yaml&apos;\" "
	    "type=\"error\"></error>\n"
	    "    </testcase>\n"
	    "    <testcase classname=\"fluid validate\" name=\"d.yaml\" "
	    "file=\"d.yaml\">\n"
	    "      <system-out>d.yaml:1:1: warning: w\n</system-out>\n"
	    "    </testcase>\n"
	    "    <testcase classname=\"fluid validate\" name=\"e.yaml\" "
	    "file=\"e.yaml\" line=\"7\">\n"
	    "      <failure message=\"refused (1 error)\" type=\"refused\">"
	    "e.yaml:7:3: error: z\n</failure>\n"
	    "    </testcase>\n"
	    "  </testsuite>\n"
	    "</testsuites>\n", "junit_xml: pass, failure, error, warnings, a line");
	free(x);
	x = junit_xml("s", NULL, 0);
	ok(strstr(x, "<testsuite name=\"s\" tests=\"0\" failures=\"0\" "
	    "errors=\"0\" skipped=\"0\">\n  </testsuite>") != NULL,
	    "junit_xml: an empty suite");
	free(x);
}

int
main(void)
{
	escapes();
	report();
	return done_testing();
}
