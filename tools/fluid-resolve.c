/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-resolve - read a contract and its $ref fragments, write one
 * resolved pipeline document with source positions and a digest.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"

static const struct cli_cmd cmds[] = {
	{ NULL, "[--diagnostics=text|json] [FILE]\n"
	    "--fragment KIND --schema-version VERSION FILE\n",
	    "Resolve a contract (or standard input) and its $ref fragments into one\n"
	    "pipeline document on standard output.\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	{ 'f', "fragment", 0, "KIND", NULL,
	    "resolve a fragment on its own: streamSource,\n"
	    "schema or recordMapping" },
	{ 's', "schema-version", 0, "VERSION", NULL,
	    "the schema version the fragment is read as" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-resolve", cmds, opts,
	"Exit status: 0 resolved, 1 refused, 2 usage or environment error.\n" };

int
main(int argc, char *argv[])
{
	struct cli cli;
	struct resolve_opts ro = { NULL, NULL, NULL };
	struct diags d;
	struct ir *out;
	json_t *doc;
	int c, status;

	cli_start(argv[0]);
	cli_init(&cli, &spec, NULL);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case 'f':
			ro.fragment = optarg;
			break;
		case 's':
			ro.schema_version = optarg;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		cli_usage_error(&cli, "expects at most one FILE");
	ro.path = argc == 1 && strcmp(argv[0], "-") != 0 ? argv[0] : NULL;

	diags_init(&d);
	doc = stage_resolve_opts(&ro, fl_progname(), &d) == 0 ? stage_resolve(&ro, &d) : NULL;
	out = doc != NULL ? ir_wrap(doc) : NULL;
	status = cli_finish(&cli, &d, out);
	if (doc != NULL)
		ir_keep_to_end(json_incref(doc));
	ir_free(out);
	diags_release(&d);
	return status;
}
