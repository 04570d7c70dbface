/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * cli_opt.c - the option tables of the tools (cli.h): getopt_long()'s
 * arguments, the --help text and the usage errors, all made from one
 * table per program, so that none of them names an option the others
 * do not know.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "xalloc.h"

/* A command's words in list ("generate-flink" is "generate flink"). */
static void
add_cmd_name(struct sb *o, const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sb_addc(o, w[i] == '-' ? ' ' : w[i]);
}

/* "a", "a and b", "a, b and c": the commands of list. */
static char *
cmd_list(const char *list)
{
	struct sb o;
	const char *w, *sp;
	size_t n = 0, i = 0;

	for (w = list; w != NULL; w = (sp = strchr(w, ' ')) ? sp + 1 : NULL)
		n++;
	sb_init(&o);
	for (w = list; w != NULL; w = sp != NULL ? sp + 1 : NULL, i++) {
		sp = strchr(w, ' ');
		if (i > 0)
			sb_adds(&o, i + 1 == n ? " and " : ", ");
		add_cmd_name(&o, w, sp != NULL ? (size_t)(sp - w) :
		    strlen(w));
	}
	return o.buf;
}

void
cli_init(struct cli *c, const struct cli_spec *spec, const char *cmd)
{
	c->spec = spec;
	c->cmd = cmd;
	c->diagfmt = DIAG_FORMAT_TEXT;
	optind = 1;
	opterr = 0;
}

/* An option that getopt_long() refused, or one of another command. */
static void __attribute__((noreturn))
bad_option(const struct cli *c, char *const argv[], int ch,
    const struct cli_opt *o)
{
	const char *arg = argv[optind - 1];
	char *list;

	if (o != NULL && o->cmds[0] != '\0') {
		list = cmd_list(o->cmds);
		cli_usage_error(c, "--%s is for %s", o->name, list);
	}
	if (ch == ':')
		cli_usage_error(c, "option '%s' needs an argument", arg);
	if (optopt != 0 && o == NULL)
		cli_usage_error(c, "unknown option '-%c'", optopt);
	cli_usage_error(c, "unknown option '%s'%s", arg, cli_opt_hint(c, arg));
}

int
cli_next(struct cli *c, int argc, char *argv[])
{
	const struct cli_opt *t = c->spec->opts, *o;
	struct option lo[64];
	char sopt[130];
	size_t n, k = 0, j = 0;
	int ch, idx, f;

	sopt[j++] = ':';
	for (n = 0; t[n].name != NULL; n++) {
		if (n >= sizeof(lo) / sizeof(*lo) - 1)
			fl_fatal("too many options in %s's table",
			    c->spec->prog);
		lo[k].name = t[n].name;
		lo[k].has_arg = t[n].arg != NULL ? required_argument :
		    no_argument;
		lo[k].flag = NULL;
		lo[k].val = 0x2000 + (int)n;
		k++;
		if (t[n].letter != 0 && j < sizeof(sopt) - 3) {
			sopt[j++] = t[n].letter;
			if (t[n].arg != NULL)
				sopt[j++] = ':';
		}
	}
	memset(&lo[k], 0, sizeof(lo[k]));
	sopt[j] = '\0';
	for (;;) {
		idx = -1;
		if ((ch = getopt_long(argc, argv, sopt, lo, &idx)) == -1)
			return -1;
		o = NULL;
		if (ch >= 0x2000 && ch < 0x2000 + (int)n)
			o = &t[ch - 0x2000];
		else
			for (n = 0; ch > 0 && t[n].name != NULL; n++)
				if (t[n].letter == ch)
					o = &t[n];
		if (o == NULL)
			bad_option(c, argv, ch, NULL);
		if (!cli_opt_for(c, o))
			bad_option(c, argv, ch, o);
		switch (o->id) {
		case CLI_HELP:
			cli_help_exit(c);
		case CLI_VERSION:
			cli_version_exit();
		case CLI_DIAGNOSTICS:
			if ((f = diag_format_parse(optarg)) == -1)
				cli_usage_error(c, "--diagnostics takes text, "
				    "json or github");
			c->diagfmt = (enum diag_format)f;
			continue;
		default:
			return o->id;
		}
	}
}

long
cli_seconds(const struct cli *c, int id, const char *arg, long min,
    long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < min || v > max)
		cli_usage_error(c, "--%s expects seconds from %ld to %ld",
		    cli_opt_name(c, id), min, max);
	return v;
}

void
cli_check_for(const struct cli *c, int id)
{
	const struct cli_opt *o;
	char *list;

	for (o = c->spec->opts; o->name != NULL; o++)
		if (o->id == id && !cli_opt_for(c, o)) {
			list = cmd_list(o->cmds);
			cli_usage_error(c, "--%s is for %s", o->name, list);
		}
}

const char *
cli_opt_name(const struct cli *c, int id)
{
	const struct cli_opt *o;

	for (o = c->spec->opts; o->name != NULL; o++)
		if (o->id == id)
			return o->name;
	return "?";
}

const struct cli_cmd *
cli_find_cmd(const struct cli_spec *s, int argc, char *argv[], int i)
{
	const struct cli_cmd *cmd;
	size_t n;

	if (i >= argc)
		return NULL;
	for (cmd = s->cmds; cmd->synopsis != NULL; cmd++) {
		if (cmd->name == NULL)
			continue;
		n = strlen(argv[i]);
		if (strcmp(cmd->name, argv[i]) == 0 ||
		    (strncmp(cmd->name, argv[i], n) == 0 &&
		    cmd->name[n] == ' ' && i + 1 < argc &&
		    strcmp(cmd->name + n + 1, argv[i + 1]) == 0))
			return cmd;
	}
	return NULL;
}
