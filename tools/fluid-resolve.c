/*
 * fluid-resolve - read a contract and its $ref fragments, write one
 * resolved pipeline document with source positions and a digest.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"

static const char usage[] =
"usage: fluid-resolve [--diagnostics=text|json] [FILE]\n"
"       fluid-resolve --fragment KIND --schema-version VERSION FILE\n"
"\n"
"Resolve a contract (or standard input) and its $ref fragments into one\n"
"pipeline document on standard output.\n"
"\n"
"  --fragment KIND          resolve a fragment on its own: streamSource,\n"
"                           schema or recordMapping\n"
"  --schema-version VERSION the schema version the fragment is read as\n"
"  --diagnostics=FORMAT     print errors as text (default) or json lines\n"
"  --help, --version\n"
"\n"
"Exit status: 0 resolved, 1 refused, 2 usage or environment error.\n";

int
main(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "fragment", required_argument, NULL, 'f' },
		{ "schema-version", required_argument, NULL, 's' },
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { usage, DIAG_FORMAT_TEXT };
	struct resolve_opts ro = { NULL, NULL, NULL };
	struct diags d;
	struct ir *out;
	json_t *doc;
	int c, status;

	cli_start(argv[0]);
	while ((c = cli_getopt(&cli, argc, argv, opts)) != -1) {
		switch (c) {
		case 'f':
			ro.fragment = optarg;
			break;
		case 's':
			ro.schema_version = optarg;
			break;
		default:
			cli_bad_option(&cli, argv, c);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		cli_usage_error(&cli, "expects at most one FILE");
	ro.path = argc == 1 && strcmp(argv[0], "-") != 0 ? argv[0] : NULL;

	diags_init(&d);
	doc = stage_resolve_opts(&ro, &d) == 0 ? stage_resolve(&ro, &d) : NULL;
	out = doc != NULL ? ir_wrap(doc) : NULL;
	status = cli_finish(&cli, &d, out);
	if (doc != NULL)
		ir_keep_to_end(json_incref(doc));
	ir_free(out);
	diags_release(&d);
	return status;
}
