/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-check - every static rule of the managed Flink -> Iceberg lane.
 * Reads fluid-resolve's document, refuses it with diagnostics or adds
 * the typed IR (the "check" section) for the later stages.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>

#include "fluid.h"
#include "cli.h"

static const struct cli_cmd cmds[] = {
	{ NULL, "[--diagnostics=text|json] < RESOLVED\n",
	    "Check a resolved contract (the output of fluid-resolve) against every\n"
	    "static rule of the managed Flink lane; on success write the document\n"
	    "with its typed IR added.  All errors are reported, not only the first.\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-check", cmds, opts,
	"Exit status: 0 accepted, 1 refused, 2 usage or environment error.\n" };

int
main(int argc, char *argv[])
{
	struct cli cli;
	struct diags d;
	struct ir *in;
	json_t *ir = NULL;
	int status;

	cli_start(argv[0]);
	cli_init(&cli, &spec, NULL);
	while (cli_next(&cli, argc, argv) != -1)
		;	/* it has no option of its own */
	if (optind != argc)
		cli_usage_error(&cli, "reads standard input; no FILE");

	diags_init(&d);
	if ((in = ir_read(stdin, "resolve", NULL, &d)) != NULL)
		ir = stage_check(ir_doc(in), &d);
	status = cli_finish(&cli, &d, ir ? in : NULL);
	if (in != NULL)
		ir_keep_to_end(json_incref(ir_doc(in)));
	ir_free(in);
	diags_release(&d);
	return status;
}
