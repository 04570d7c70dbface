/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * cli_help.c - a program's --help, made from its option table (cli.h),
 * and which command takes an option.  cli_opt.c parses with it; it
 * calls nothing of cli_opt.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fluid/fluid.h>

#include "cli.h"
#include "commit.h"	/* FLUID_COMMIT, written by the Makefile */
#include "xalloc.h"

/* Whether cmd is one of the blank-separated words of list (NULL: all). */
static int
takes(const char *list, const char *cmd)
{
	size_t n;

	if (list == NULL || cmd == NULL)
		return 1;
	n = strlen(cmd);
	for (;;) {
		if (strncmp(list, cmd, n) == 0 && (list[n] == ' ' ||
		    list[n] == '\0'))
			return 1;
		if ((list = strchr(list, ' ')) == NULL)
			return 0;
		list++;
	}
}

/* The command's name as its table writes it: blanks become '-'. */
static char *
cmd_key(const char *cmd)
{
	char *k = xstrdup(cmd), *p;

	for (p = k; *p != '\0'; p++)
		if (*p == ' ')
			*p = '-';
	return k;
}

int
cli_opt_for(const struct cli *c, const struct cli_opt *o)
{
	char *k;
	int r;

	if (c->cmd == NULL)
		return 1;
	k = cmd_key(c->cmd);
	r = takes(o->cmds, k);
	free(k);
	return r;
}

/* text, each line after the first indented to col. */
static void
put_indented(FILE *fp, const char *text, int col)
{
	const char *nl;

	for (;;) {
		nl = strchr(text, '\n');
		fprintf(fp, "%.*s\n", nl ? (int)(nl - text) : (int)strlen(text),
		    text);
		if (nl == NULL || nl[1] == '\0')
			return;
		text = nl + 1;
		fprintf(fp, "%*s", col, "");
	}
}

/* The synopsis lines of cmd ("usage: " first, then aligned). */
static void
put_synopsis(FILE *fp, const char *prog, const struct cli_cmd *cmd,
    int *first)
{
	const char *l = cmd->synopsis, *nl;

	while (*l != '\0') {
		nl = strchr(l, '\n');
		if (nl == NULL)
			nl = l + strlen(l);
		if (strncmp(l, "    ", 4) == 0)	/* a continued line */
			fprintf(fp, "       %.*s\n", (int)(nl - l), l);
		else {
			fprintf(fp, "%s%s%s%.*s\n", *first ? "usage: " :
			    "       ", prog, nl > l ? " " : "", (int)(nl - l),
			    l);
			*first = 0;
		}
		l = *nl != '\0' ? nl + 1 : nl;
	}
}

/* "  -o, --out FILE" and its help, from col 24 (or the next line). */
static void
put_option(FILE *fp, const struct cli_opt *o)
{
	char head[64];
	int n;

	n = snprintf(head, sizeof(head), "  %s%c%s--%s%s%s", o->letter ?
	    "-" : "", o->letter ? o->letter : ' ', o->letter ? ", " : "",
	    o->name, o->arg ? (o->id == CLI_DIAGNOSTICS ? "=" : " ") : "",
	    o->arg ? o->arg : "");
	if (!o->letter)
		n = snprintf(head, sizeof(head), "  --%s%s%s", o->name,
		    o->arg ? (o->id == CLI_DIAGNOSTICS ? "=" : " ") : "",
		    o->arg ? o->arg : "");
	if (n <= 22)
		fprintf(fp, "%-24s", head);
	else
		fprintf(fp, "%s\n%24s", head, "");
	put_indented(fp, o->help, 24);
}

void
cli_help(FILE *fp, const struct cli *c)
{
	const struct cli_spec *s = c->spec;
	const struct cli_cmd *cmd;
	const struct cli_opt *o;
	int first = 1;

	for (cmd = s->cmds; cmd->synopsis != NULL; cmd++)
		if (c->cmd == NULL || (cmd->name != NULL &&
		    strcmp(cmd->name, c->cmd) == 0))
			put_synopsis(fp, s->prog, cmd, &first);
	for (cmd = s->cmds; cmd->synopsis != NULL; cmd++) {
		if (cmd->about == NULL || (c->cmd != NULL &&
		    (cmd->name == NULL || strcmp(cmd->name, c->cmd) != 0)))
			continue;
		if (cmd->name == NULL || c->cmd != NULL)
			fprintf(fp, "\n%s", cmd->about);
		else {
			fprintf(fp, "%s  %s", cmd == s->cmds ||
			    cmd[-1].about == NULL ? "\n" : "", cmd->name);
			if (strlen(cmd->name) > 10)
				fprintf(fp, "\n%13s", "");
			else
				fprintf(fp, "%*s", 11 - (int)strlen(cmd->name),
				    "");
			put_indented(fp, cmd->about, 13);
		}
	}
	fputc('\n', fp);
	for (o = s->opts; o->name != NULL; o++)
		if (cli_opt_for(c, o))
			put_option(fp, o);
	if (s->tail != NULL)
		fprintf(fp, "\n%s", s->tail);
}

void
cli_help_exit(const struct cli *c)
{
	cli_help(stdout, c);
	exit(fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE);
}

void
cli_version_exit(void)
{
	printf("%s %s (commit %s)\n", fl_progname(), FLUID_VERSION,
	    FLUID_COMMIT);
	exit(fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE);
}
