/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid - the driver users type.  Each subcommand runs a pipeline of
 * fluid-* stages and presents the result.
 *
 * The stages run one after another inside this process (pipeline.h):
 * the same code as the fluid-* programs, the same diagnostics under
 * their names and the same statuses, without starting a program per
 * stage, which cost more than the work on a small contract.  When a
 * stage refuses the contract the driver stops there, so the user sees
 * that stage's diagnostics and not a second complaint about empty input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

static int
cmd_bundle(int argc, char *argv[])
{
	struct args a;
	json_t *doc;
	struct sb y;
	int st;

	parse_args(argc, argv, &a, "bundle", 0);
	free(dep_target(&a, "bundle"));	/* usage errors before the work */
	st = cli_stages(&a.ro, a.diag, STAGE_RESOLVE, NULL, &doc);
	if (st != 0)
		return st;
	sb_init(&y);
	sb_adds(&y, "# fluid bundle: every $ref inlined; digest ");
	sb_adds(&y, json_string_value(json_object_get(
	    ir_section(doc, "resolve"), "digest")));
	sb_addc(&y, '\n');
	if (yemit(json_object_get(ir_section(doc, "resolve"), "document"),
	    &y) == -1)
		fl_fatal("cannot write the bundle as YAML");
	if (a.depfile != NULL)
		dep_check(a.out, doc);
	st = cli_write_out(a.out, y.buf, y.len);
	if (st == 0 && a.depfile != NULL)
		dep_write(a.depfile, a.out, doc);
	sb_release(&y);
	return st;
}

/* Adding a subcommand is one line here and one function above. */
static const struct {
	const char	*name;
	int		(*run)(int, char *[]);
} commands[] = {
	{ "validate", cmd_validate },
	{ "bundle", cmd_bundle },
	{ "generate", cmd_generate },
	{ "plan", cmd_plan },
	{ "apply", cmd_apply },
	{ "export", cmd_export },
	{ "verify", cmd_verify },
	{ "diff", cmd_diff },
	{ "lineage", cmd_lineage },
	{ "schema", cmd_schema },
	{ "completion", cmd_completion },
	{ "init", cmd_init },
};

/* The table's command argv[1] starts, for "fluid CMD --help". */
static const char *
help_cmd(const char *word)
{
	const struct cli_cmd *c;
	size_t n = strlen(word);

	for (c = fluid_spec.cmds; c->synopsis != NULL; c++)
		if (c->name != NULL && strncmp(c->name, word, n) == 0 &&
		    (c->name[n] == '\0' || c->name[n] == ' '))
			return c->name;
	return NULL;
}

int
main(int argc, char *argv[])
{
	struct cli cli;
	size_t i;

	cli_start("fluid");
	cli_init(&cli, &fluid_spec, NULL);
	/*
	 * With standard output closed, the next file opened would take its
	 * descriptor and receive what we print: refuse to start instead.
	 */
	if (fcntl(STDOUT_FILENO, F_GETFD) == -1)
		fl_fatal("standard output is closed");
	/*
	 * Standard input is read only for "-": remember that it is closed,
	 * and give its descriptor to /dev/null, so that no contract file
	 * opened later is taken for it.
	 */
	if (fcntl(STDIN_FILENO, F_GETFD) == -1) {
		stdin_closed = 1;
		if (open("/dev/null", O_RDONLY) != STDIN_FILENO)
			fl_fatal("standard input is closed");
	}
	if (argc < 2)
		cli_usage_error(&cli, "expects a command");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0)
		cli_help_exit(&cli);
	if (strcmp(argv[1], "--version") == 0)
		cli_version_exit();
	/* "fluid CMD --help" (or -h) describes CMD alone. */
	if (argc > 2 && (strcmp(argv[2], "--help") == 0 ||
	    strcmp(argv[2], "-h") == 0) && help_cmd(argv[1]) != NULL) {
		cli.cmd = help_cmd(argv[1]);
		cli_help_exit(&cli);
	}
	for (i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	cli_usage_error(&cli, "unknown command '%s'%s", argv[1],
	    cli_cmd_hint(&fluid_spec, NULL, argv[1]));
}
