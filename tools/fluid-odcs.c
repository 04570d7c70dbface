/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-odcs - the contract as an Open Data Contract Standard v3.2.0
 * data contract.
 *
 * A filter: fluid-check's document in, the ODCS document out, as YAML
 * (lib/yemit.c, quoted so that YAML 1.1 and 1.2 readers read the same
 * strings) or, with --json, as JSON.  It contacts nothing: the document
 * comes from the pipeline document alone (lib/odcs.h).
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "jget.h"
#include "cli.h"

static const struct cli_cmd cmds[] = {
	{ NULL, "[--json] [--diagnostics=text|json] < CHECKED\n",
	    "Write the ODCS v3.2.0 data contract of a checked contract (the output\n"
	    "of fluid-check): one schema object and one server per expose, nested\n"
	    "types as object and array properties, each property's FLUID type in\n"
	    "the custom property fluid.recursiveType.\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	{ 'j', "json", 0, NULL, NULL, "write JSON instead of YAML" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-odcs", cmds, opts,
	"Exit status: 0 written, 1 refused, 2 usage or environment error.\n" };

int
main(int argc, char *argv[])
{
	struct cli cli;
	struct diags d;
	struct ir *in;
	struct sb out;
	json_t *odcs = NULL;
	char *text;
	int c, status, json = 0;

	cli_start(argv[0]);
	cli_init(&cli, &spec, NULL);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		}
	}
	if (optind != argc)
		cli_usage_error(&cli, "reads standard input; no FILE");

	diags_init(&d);
	if ((in = cli_read_checked(&d)) != NULL)
		odcs = odcs_render(ir_doc(in), &d);
	sb_init(&out);
	if (odcs != NULL) {
		if (json) {
			if ((text = jtext(odcs, 0)) == NULL)
				fl_fatal("cannot write the contract as JSON");
			sb_adds(&out, text);
			free(text);
		} else if (yemit(odcs, &out) == -1)
			fl_fatal("cannot write the contract as YAML");
	}
	status = cli_filter_finish(&cli, &d, odcs != NULL ? &out : NULL);
	sb_release(&out);
	json_decref(odcs);
	ir_free(in);
	diags_release(&d);
	return status;
}
