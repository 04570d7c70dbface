/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * diag_ci.c - diagnostics as a CI server reads them: GitHub Actions
 * workflow commands (see diag.h, diag_print_github()).
 */
#include <stdio.h>
#include <string.h>

#include "diag.h"

/*
 * s as GitHub's toolkit escapes a command's data (issueCommand() in
 * @actions/core): '%', CR and LF always, and in a property also ':' and
 * ',', which would end the property.  Anything else is taken as it is:
 * the runner reads UTF-8, and diagnostics are already one line.
 */
static void
put_escaped(FILE *fp, const char *s, int property)
{
	for (; *s != '\0'; s++)
		if (*s == '%')
			fputs("%25", fp);
		else if (*s == '\r')
			fputs("%0D", fp);
		else if (*s == '\n')
			fputs("%0A", fp);
		else if (property && *s == ':')
			fputs("%3A", fp);
		else if (property && *s == ',')
			fputs("%2C", fp);
		else
			fputc(*s, fp);
}

void
diag_print_github(FILE *fp, const struct diag *g, const char *prog,
    const char *contract)
{
	fprintf(fp, "::%s ", g->level == DIAG_WARNING ? "warning" : "error");
	if (g->file != NULL) {
		fputs("file=", fp);
		put_escaped(fp, g->file, 1);
		if (g->line > 0)
			fprintf(fp, ",line=%d", g->line);
		if (g->col > 0)
			fprintf(fp, ",col=%d", g->col);
		fputc(',', fp);
	} else if (contract != NULL && g->level != DIAG_FATAL) {
		/* Placed nowhere inside it: the contract as a whole. */
		fputs("file=", fp);
		put_escaped(fp, contract, 1);
		fputc(',', fp);
	}
	fputs("title=", fp);
	put_escaped(fp, prog, 1);
	fputs("::", fp);
	put_escaped(fp, g->msg, 0);
	if (contract != NULL && g->file != NULL && strcmp(g->file,
	    contract) != 0) {
		fputs(" [contract: ", fp);
		put_escaped(fp, contract, 0);
		fputc(']', fp);
	}
	fputc('\n', fp);
}
