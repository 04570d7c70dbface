/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_diag_ci.c - unit tests for lib/diag_ci.c: GitHub workflow commands,
 * escaped as GitHub's toolkit escapes them, for text that real
 * diagnostics rarely hold (a CR or LF in a message).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "tap.h"

/* diag_print_github() of g, as a new string. */
static char *
gh(const struct diag *g, const char *prog, const char *contract)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (fp == NULL)
		abort();
	diag_print_github(fp, g, prog, contract);
	fclose(fp);
	return buf;
}

int
main(void)
{
	struct diag g = { DIAG_ERROR, "a:b,c%.yaml", 3, 7, NULL,
	    "50% of\r\nit: a, b" };
	char *s;

	s = gh(&g, "fluid validate", "a:b,c%.yaml");
	is_str(s, "::error file=a%3Ab%2Cc%25.yaml,line=3,col=7,"
	    "title=fluid validate::50%25 of%0D%0Ait: a, b\n",
	    "an error: properties escape : and , too; the message only %%, CR, LF");
	free(s);

	g.level = DIAG_WARNING;
	g.file = "frag.yaml";
	g.msg = "w";
	s = gh(&g, "p:q", "c.yaml");
	is_str(s, "::warning file=frag.yaml,line=3,col=7,title=p%3Aq::w "
	    "[contract: c.yaml]\n", "a warning in a fragment names its contract");
	free(s);

	g.level = DIAG_ERROR;
	g.file = NULL;
	g.line = g.col = 0;
	s = gh(&g, "fluid validate", "c.yaml");
	is_str(s, "::error file=c.yaml,title=fluid validate::w\n",
	    "placed nowhere: the contract as a whole");
	free(s);

	g.level = DIAG_FATAL;
	g.msg = "cannot open 'x'";
	s = gh(&g, "fluid validate", "x");
	is_str(s, "::error title=fluid validate::cannot open 'x'\n",
	    "a usage or environment error names no file");
	free(s);
	return done_testing();
}
