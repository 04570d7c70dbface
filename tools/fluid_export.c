/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_export.c - fluid export odcs CONTRACT [--json] [-o FILE], a
 * command of the driver (fluid.c) in a file of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "jget.h"
#include "cli.h"
#include "fluid_cmd.h"

/*
 * fluid export odcs CONTRACT [--json] [-o FILE]: fluid-resolve and
 * fluid-check in this process, then fluid-odcs's renderer (odcs.h),
 * written whole or not at all (atomic.h).  Its options are its own, so
 * that --json is no option of the other commands.
 */
int
cmd_export(int argc, char *argv[])
{
	struct cli cli;
	struct diags d;
	struct sb y;
	json_t *doc, *odcs;
	const char *out = NULL;
	char *text;
	int c, json = 0, st;

	cli_init(&cli, &fluid_spec, "export odcs");
	if (argc < 2 || strcmp(argv[1], "odcs") != 0)
		cli_usage_error(&cli, "export expects a format: export odcs%s",
		    argc < 2 ? "" :
		    cli_cmd_hint(&fluid_spec, "export", argv[1]));
	argc--;
	argv++;
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_JSON:
			json = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'q':
			cli_quiet = 1;
			break;
		}
	}
	if ((st = checked_file(&cli, argc, argv, "export odcs", &doc)) != 0)
		return st;
	diags_init(&d);
	odcs = odcs_render(doc, &d);
	diag_print(&d, stderr, cli.diagfmt, "fluid-odcs");
	st = diag_status(&d);
	diags_release(&d);
	if (st != 0)
		return st;
	sb_init(&y);
	if (json) {
		if ((text = jtext(odcs, 0)) == NULL)
			fl_fatal("cannot write the contract as JSON");
		sb_adds(&y, text);
		free(text);
	} else if (yemit(odcs, &y) == -1)
		fl_fatal("cannot write the contract as YAML");
	json_decref(odcs);
	st = cli_write_out(out, y.buf, y.len);
	sb_release(&y);
	return st;
}
