/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_lineage.c - fluid lineage [--format text|dot|mermaid] FILE, a
 * command of the driver (fluid.c) in a file of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

/*
 * fluid lineage FILE: fluid-resolve and fluid-check in this process,
 * then fluid-lineage's writer (lineage.h), so that the command and
 * "fluid-resolve FILE | fluid-check | fluid-lineage" print the same
 * bytes.  Its options are its own: --format takes other words here
 * than validate's.
 */
int
cmd_lineage(int argc, char *argv[])
{
	struct cli cli;
	struct diags d;
	struct lineage l;
	struct sb y;
	json_t *doc;
	const char *out = NULL;
	int c, fmt = LINEAGE_TEXT, st;

	cli_init(&cli, &fluid_spec, "lineage");
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if ((fmt = lineage_format_parse(optarg)) == -1)
				cli_usage_error(&cli, "--format takes text, "
				    "dot or mermaid");
			break;
		case 'o':
			out = optarg;
			break;
		case 'q':
			cli_quiet = 1;
			break;
		default:
			cli_usage_error(&cli, "lineage takes no --%s",
			    cli_opt_name(&cli, c));
		}
	}
	if ((st = checked_file(&cli, argc, argv, "lineage", &doc)) != 0)
		return st;
	diags_init(&d);
	if (lineage_make(doc, &l, &d) == -1) {
		diag_print(&d, stderr, cli.diagfmt, "fluid-lineage");
		st = diag_status(&d);
		diags_release(&d);
		return st;
	}
	diags_release(&d);
	sb_init(&y);
	lineage_write(&l, (enum lineage_format)fmt, &y);
	lineage_release(&l);
	st = cli_write_out(out, y.buf, y.len);
	sb_release(&y);
	return st;
}
