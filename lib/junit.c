/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * junit.c - JUnit XML reports (see junit.h).
 */
#include <string.h>

#include "junit.h"
#include "utf8.h"
#include "xalloc.h"

/* The characters XML 1.0 allows (its Char production), past ASCII. */
static int
xml_char(unsigned long cp)
{
	return cp != 0xfffe && cp != 0xffff;
}

void
junit_escape(struct sb *o, const char *s, int attr)
{
	const unsigned char *p;
	unsigned long cp = 0;
	size_t n;

	for (p = (const unsigned char *)s; *p != '\0'; p += n) {
		n = utf8_char(p, &cp);
		if (n == 0) {
			sb_addf(o, "\\x%02x", *p);
			n = 1;
		} else if (*p == '&')
			sb_adds(o, "&amp;");
		else if (*p == '<')
			sb_adds(o, "&lt;");
		else if (*p == '>')
			sb_adds(o, "&gt;");
		else if (*p == '"')
			sb_adds(o, "&quot;");
		else if (*p == '\'')
			sb_adds(o, "&apos;");
		else if (*p == '\n' && !attr)
			sb_addc(o, '\n');
		else if (*p == '\n' || *p == '\t' || *p == '\r')
			/* Kept as characters: attribute values normalize
			 * white space. */
			sb_addf(o, "&#%d;", *p);
		else if (*p < 0x20 || *p == 0x7f)
			sb_addf(o, "\\x%02x", *p);
		else if (!xml_char(cp))
			sb_addf(o, "\\u%04lx", cp);
		else
			sb_addn(o, (const char *)p, n);
	}
}

/* <TAG message="MESSAGE" type="TYPE">TEXT</TAG> */
static void
add_outcome(struct sb *o, const char *tag, const struct junit_case *c)
{
	sb_addf(o, "      <%s message=\"", tag);
	junit_escape(o, c->message != NULL ? c->message : "", 1);
	sb_addf(o, "\" type=\"%s\">", c->result == JUNIT_FAILURE ?
	    "refused" : "error");
	if (c->text != NULL)
		junit_escape(o, c->text, 0);
	sb_addf(o, "</%s>\n", tag);
}

char *
junit_xml(const char *suite, const struct junit_case *cases, size_t n)
{
	size_t i, failures = 0, errors = 0;
	struct sb o;

	for (i = 0; i < n; i++) {
		failures += cases[i].result == JUNIT_FAILURE;
		errors += cases[i].result == JUNIT_ERROR;
	}
	sb_init(&o);
	sb_adds(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_adds(&o, "<testsuites name=\"");
	junit_escape(&o, suite, 1);
	sb_addf(&o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
	    n, failures, errors);
	sb_adds(&o, "  <testsuite name=\"");
	junit_escape(&o, suite, 1);
	sb_addf(&o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
	    "skipped=\"0\">\n", n, failures, errors);
	for (i = 0; i < n; i++) {
		sb_adds(&o, "    <testcase classname=\"");
		junit_escape(&o, suite, 1);
		sb_adds(&o, "\" name=\"");
		junit_escape(&o, cases[i].name, 1);
		sb_adds(&o, "\" file=\"");
		junit_escape(&o, cases[i].name, 1);
		if (cases[i].line > 0)
			sb_addf(&o, "\" line=\"%d", cases[i].line);
		if (cases[i].result == JUNIT_PASS &&
		    (cases[i].text == NULL || *cases[i].text == '\0')) {
			sb_adds(&o, "\"/>\n");
			continue;
		}
		sb_adds(&o, "\">\n");
		if (cases[i].result == JUNIT_FAILURE)
			add_outcome(&o, "failure", &cases[i]);
		else if (cases[i].result == JUNIT_ERROR)
			add_outcome(&o, "error", &cases[i]);
		else {
			sb_adds(&o, "      <system-out>");
			junit_escape(&o, cases[i].text, 0);
			sb_adds(&o, "</system-out>\n");
		}
		sb_adds(&o, "    </testcase>\n");
	}
	sb_adds(&o, "  </testsuite>\n</testsuites>\n");
	return sb_steal(&o);
}
