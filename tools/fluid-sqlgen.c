/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-sqlgen - write the Flink SQL job of each managed build.
 * Reads fluid-check's document and adds the "sqlgen" section: per build
 * the script and its sha256 digest (fluid-k8s names the immutable
 * ConfigMap by it).  With --sql, prints one build's script instead.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"

static const struct cli_cmd cmds[] = {
	{ NULL, "[--diagnostics=text|json] < CHECKED\n"
	    "--sql [--build ID] < CHECKED\n",
	    "Write the Flink SQL script of every managed build of a checked contract\n"
	    "(the output of fluid-check) into the pipeline document.\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	{ 'S', "sql", 0, NULL, NULL, "print the script of one build instead" },
	{ 'b', "build", 0, "ID", NULL,
	    "the build for --sql (needed when there are several)" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-sqlgen", cmds, opts,
	"Exit status: 0 written, 1 refused, 2 usage or environment error.\n" };

/* --sql: print the script of build want (or of the one build). */
static int
print_sql(const struct cli *cli, json_t *doc, const char *want,
    struct diags *d)
{
	json_t *out = stage_sqlgen_builds(doc, want, d), *one;
	int status;

	one = json_array_get(out, 0);
	if (want != NULL && one == NULL && diag_status(d) == 0)
		fl_fatal("no managed build with id '%s'", want);
	diag_print(d, stderr, cli->diagfmt, fl_progname());
	status = diag_status(d);
	if (status == 0 && one != NULL) {
		fputs(json_string_value(json_object_get(one, "sql")), stdout);
		if (fflush(stdout) == EOF || ferror(stdout)) {
			cli_write_failed();
			status = EXIT_USAGE;
		}
	}
	json_decref(out);
	return status;
}

int
main(int argc, char *argv[])
{
	static const char *const check_only[] = { "check", NULL };
	struct cli cli;
	const char *want = NULL;
	struct diags d;
	struct ir *in;
	json_t *doc, *builds;
	int c, status, sql_only = 0;

	cli_start(argv[0]);
	cli_init(&cli, &spec, NULL);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case 'S':
			sql_only = 1;
			break;
		case 'b':
			want = optarg;
			break;
		}
	}
	if (optind != argc)
		cli_usage_error(&cli, "reads standard input; no FILE");
	if (want != NULL && !sql_only)
		cli_usage_error(&cli, "--build goes with --sql");

	/* The SQL is made from the check section alone. */
	diags_init(&d);
	if ((in = ir_read(stdin, "check", check_only, &d)) == NULL) {
		diag_print(&d, stderr, cli.diagfmt, fl_progname());
		status = diag_status(&d);
		diags_release(&d);
		return status;
	}
	doc = ir_doc(in);
	builds = json_object_get(ir_section(doc, "check"), "builds");
	if (sql_only && want == NULL && json_array_size(builds) != 1)
		cli_usage_error(&cli, "the contract has %zu managed builds: "
		    "name one with --build", json_array_size(builds));
	if (sql_only)
		status = print_sql(&cli, doc, want, &d);
	else {
		stage_sqlgen(doc, &d);	/* adds the sqlgen section */
		status = cli_finish(&cli, &d, in);
	}
	ir_keep_to_end(json_incref(doc));
	ir_free(in);
	diags_release(&d);
	return status;
}
