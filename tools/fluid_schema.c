/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_schema.c - fluid schema: the JSON Schema of the contract format.
 * The schema is tools/fluid.schema.json, built in as a string (the
 * Makefile makes schema.inc from it), so that the file a test checks
 * against the checker's key tables is the text fluid prints.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fluid_cmd.h"

const char fluid_schema_text[] =
#include "schema.inc"
;

int
cmd_schema(int argc, char *argv[])
{
	struct cli cli;
	int c;

	cli_init(&cli, &fluid_spec, "schema");
	while ((c = cli_next(&cli, argc, argv)) != -1)
		cli_usage_error(&cli, "schema takes no --%s",
		    cli_opt_name(&cli, c));
	if (optind != argc)
		cli_usage_error(&cli, "schema takes no operand");
	fwrite(fluid_schema_text, 1, strlen(fluid_schema_text), stdout);
	return cli_flush();
}
