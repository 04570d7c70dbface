/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-lineage - the column lineage of a checked contract: each output
 * column, nested fields included, back to its stream, key or metadata
 * path, with the operations on the way.
 *
 * A filter, as fluid-odcs is: fluid-check's document in, the lineage
 * out as text, Graphviz DOT or mermaid (lib/lineage.h).  It reads the
 * binding fluid-check wrote and nothing else, so it can follow any
 * stage that keeps the check section, and it contacts nothing.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"

static const struct cli_cmd cmds[] = {
	{ NULL, "[--format text|dot|mermaid] [--diagnostics=text|json] "
	    "< CHECKED\n",
	    "Write the column lineage of a checked contract (the output of\n"
	    "fluid-check): per build, each output column and nested field,\n"
	    "the stream, key or metadata path it is read from and the\n"
	    "operations (by name, rename, lift, map entry, explode, cast,\n"
	    "widen, build; own SQL is opaque).\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	{ 'f', "format", 0, "FORMAT", NULL,
	    "text (default), dot (Graphviz) or mermaid" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-lineage", cmds, opts,
	"Exit status: 0 written, 1 refused, 2 usage or environment error.\n" };

int
main(int argc, char *argv[])
{
	struct cli cli;
	struct diags d;
	struct ir *in;
	struct lineage l;
	struct sb out;
	int c, status, fmt = LINEAGE_TEXT, made = 0;

	cli_start(argv[0]);
	cli_init(&cli, &spec, NULL);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case 'f':
			if ((fmt = lineage_format_parse(optarg)) == -1)
				cli_usage_error(&cli, "--format takes text, "
				    "dot or mermaid");
			break;
		}
	}
	if (optind != argc)
		cli_usage_error(&cli, "reads standard input; no FILE");

	diags_init(&d);
	if ((in = cli_read_checked(&d)) != NULL)
		made = lineage_make(ir_doc(in), &l, &d) == 0;
	sb_init(&out);
	if (made) {
		lineage_write(&l, (enum lineage_format)fmt, &out);
		lineage_release(&l);
	}
	status = cli_filter_finish(&cli, &d, made ? &out : NULL);
	sb_release(&out);
	ir_free(in);
	diags_release(&d);
	return status;
}
