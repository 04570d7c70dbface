/*
 * fluid-check - every static rule of the managed Flink -> Iceberg lane.
 * Reads fluid-resolve's document, refuses it with diagnostics or adds
 * the typed IR (the "check" section) for the later stages.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>

#include "fluid.h"
#include "cli.h"

static const char usage[] =
"usage: fluid-check [--diagnostics=text|json] < RESOLVED\n"
"\n"
"Check a resolved contract (the output of fluid-resolve) against every\n"
"static rule of the managed Flink lane; on success write the document\n"
"with its typed IR added.  All errors are reported, not only the first.\n"
"\n"
"  --diagnostics=FORMAT  print diagnostics as text (default) or json lines\n"
"  --help, --version\n"
"\n"
"Exit status: 0 accepted, 1 refused, 2 usage or environment error.\n";

int
main(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { usage, DIAG_FORMAT_TEXT };
	struct diags d;
	struct ir *in;
	json_t *ir = NULL;
	int c, status;

	cli_start(argv[0]);
	while ((c = cli_getopt(&cli, argc, argv, opts)) != -1)
		cli_bad_option(&cli, argv, c);	/* it has no option of its own */
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
