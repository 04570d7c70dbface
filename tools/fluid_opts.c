/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_opts.c - the driver's commands and options, as one table
 * (cli.h): what each command takes, its --help and its usage errors are
 * all made from it.  Also what the commands share when they read their
 * operands: parse_args() and input_path().  The commands call this
 * file; it calls none of them.
 */
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

static const struct cli_cmd fluid_cmds[] = {
	{ "validate", "validate [--diagnostics=text|json|github] [--strict]\n"
	    "    [--format text|json] [--junit REPORT] [--sarif LOG]\n"
	    "    [--depfile FILE.d] FILE...\n"
	    "validate --schema-version VERSION --fragment KIND FILE\n",
	    "check a contract (or one fragment) against every static rule;\n"
	    "per FILE a line FILE: ok, FILE: refused (N errors) or FILE:\n"
	    "error, or with --format json a record {file, status,\n"
	    "diagnostics}; --junit REPORT writes a JUnit XML report,\n"
	    "a test case per FILE, --sarif LOG a SARIF 2.1.0 log, a\n"
	    "result per diagnostic; --strict refuses warnings\n" },
	{ "bundle", "bundle [--diagnostics=text|json] [-q] [-o | --out "
	    "OUTFILE]\n"
	    "    [--depfile DEPFILE] FILE\n",
	    "print the contract with every $ref inlined, as YAML\n" },
	{ "generate flink", "generate flink [--diagnostics=text|json] [-q] "
	    "--out DIR\n"
	    "    [--depfile DEPFILE] FILE\n",
	    "write DIR/<build>.sql, DIR/<build>.table.json and\n"
	    "DIR/<build>.k8s.json per managed build\n" },
	{ "plan", "plan [--diagnostics=text|json] --mode MODE\n"
	    "    [--last-applied RESOURCES] [-q] [-o | --out PLAN]\n"
	    "    [--depfile DEPFILE] FILE\n",
	    "the resources apply would write, bound to the contract by\n"
	    "digest; MODE is amend, amend-and-build, create-only or\n"
	    "dry-run; --last-applied says which are new, changed or\n"
	    "unchanged\n" },
	{ "apply", "apply [--diagnostics=text|json] --mode MODE [--yes] "
	    "[--wait S]\n"
	    "    PLAN\n"
	    "apply --target NAME [--targets FILE] [--build ID] [--timeout S]\n"
	    "    [--dry-run] FILE\n",
	    "render the plan again from the contract it carries, refuse\n"
	    "any difference, check the allowlists on what it writes, and\n"
	    "write it to its cluster through kubectl (--yes; --wait S\n"
	    "bounds the wait for the operator, default 60), or show it\n"
	    "(dry-run, which contacts nothing);\n"
	    "with --target, run a build's script through that target's\n"
	    "Flink SQL Gateway (fluid-gateway(1))\n" },
	{ "diff", "diff [--diagnostics=text|json] --baseline OLD\n"
	    "    [--exit-on-breaking] [--report] [-q] [-o | --out CHANGES] FILE\n"
	    "diff [--diagnostics=text|json] --baseline-rev REV\n"
	    "    [--exit-on-breaking] [--report] [-q] [-o | --out CHANGES] FILE\n"
	    "diff [--diagnostics=text|json] --exit-on-drift\n"
	    "    [-q] [-o | --out DRIFT] FILE\n",
	    "every change from the baseline contract OLD, or from FILE\n"
	    "and its fragments as they are at git revision REV, with its\n"
	    "severity, as JSON; or, with --exit-on-drift, each build's\n"
	    "live resources against what fluid apply recorded: clean,\n"
	    "pending or drift (exit 1)\n" },
	{ "export odcs", "export odcs [--diagnostics=text|json] [--json]\n"
	    "    [-q] [-o | --out OUTFILE] FILE\n",
	    "print the contract as an ODCS v3.2.0 data contract (YAML,\n"
	    "or JSON with --json); offline: nothing is contacted\n" },
	{ "lineage", "lineage [--diagnostics=text|json] [--format FORMAT]\n"
	    "    [-q] [-o | --out OUTFILE] FILE\n",
	    "print each output column, nested fields included, back to\n"
	    "its stream, key or metadata path, with the operations on\n"
	    "the way; FORMAT is text (default), dot (Graphviz) or\n"
	    "mermaid; offline: nothing is contacted\n" },
	{ "verify", "verify [--diagnostics=text|json] [--strict]\n"
	    "    [--streaming-timeout S] [-q] [-o | --out DELIVERY] FILE\n",
	    "evidence that each managed build is live: the catalog's\n"
	    "schema and a young enough snapshot (fluid-verify(1))\n" },
	{ "schema", "schema\n",
	    "print the JSON Schema (draft 2020-12) of the contract format,\n"
	    "for editors; structural only: fluid validate judges the rest\n" },
	{ "completion", "completion bash|zsh|fish\n",
	    "print the shell's completion script, made from this table\n"
	    "of commands and options\n" },
	{ "init", "init [DIR]\n",
	    "write a commented starter contract, fluid.workspace.yaml and\n"
	    "fluid.schema.json into DIR (default .); never over a file\n" },
	{ NULL, "[COMMAND] --help | -h;  fluid --version\n", NULL },
	{ NULL, NULL, NULL }
};

/* The commands that write a result (--out, -q). */
#define WRITERS	"bundle generate-flink plan diff export-odcs verify lineage"

static const struct cli_opt fluid_opts[] = {
	CLI_OPT_DIAGNOSTICS(NULL),
	{ OPT_FRAGMENT, "fragment", 0, "KIND", "validate",
	    "validate one fragment: streamSource, schema or\n"
	    "recordMapping" },
	{ OPT_SCHEMA_VERSION, "schema-version", 0, "VERSION", "validate",
	    "the schema version the fragment is read as" },
	{ OPT_MODE, "mode", 0, "MODE", "plan apply",
	    "amend, amend-and-build, create-only or dry-run" },
	{ OPT_LAST_APPLIED, "last-applied", 0, "RESOURCES", "plan",
	    "the resources last applied (a JSON list, or a\n"
	    "kubectl List)" },
	{ OPT_YES, "yes", 0, NULL, "apply", "write to the cluster" },
	{ OPT_WAIT, "wait", 0, "S", "apply",
	    "seconds to wait for the operator (default 60;\n"
	    "0: do not wait)" },
	{ OPT_TARGET, "target", 0, "NAME", "apply",
	    "apply through this target's Flink SQL Gateway" },
	{ OPT_TARGETS, "targets", 0, "FILE", "apply",
	    "with --target: the file that declares the targets" },
	{ OPT_BUILD, "build", 0, "ID", "apply",
	    "with --target: the managed build" },
	{ OPT_TIMEOUT, "timeout", 0, "S", "apply",
	    "with --target: seconds the whole apply may take" },
	{ OPT_DRY_RUN, "dry-run", 0, NULL, "apply",
	    "with --target: print the statements; contact nothing" },
	{ OPT_BASELINE, "baseline", 0, "OLD", "diff",
	    "the contract to compare with" },
	{ OPT_BASELINE_REV, "baseline-rev", 0, "REV", "diff",
	    "the baseline: FILE and its fragments at git revision\nREV" },
	{ OPT_EXIT_ON_BREAKING, "exit-on-breaking", 0, NULL, "diff",
	    "with a baseline: exit 1 when a change is breaking" },
	{ OPT_REPORT, "report", 0, NULL, "diff",
	    "with a baseline: print the summary for a person,\n"
	    "not the JSON (which goes to --out only)" },
	{ OPT_EXIT_ON_DRIFT, "exit-on-drift", 0, NULL, "diff",
	    "the cluster against the record; exit 1 on drift" },
	{ OPT_JSON, "json", 0, NULL, "export-odcs", "write JSON, not YAML" },
	{ OPT_STRICT, "strict", 0, NULL,
	    "validate bundle generate-flink plan verify",
	    "a warning is an error (exit 1); verify: the\n"
	    "deployment and checkpoint are required" },
	{ OPT_STREAMING_TIMEOUT, "streaming-timeout", 0, "S", "verify",
	    "read again until S seconds (default 120; 0: read\n"
	    "once)" },
	{ 'o', "out", 'o', "OUT", WRITERS,
	    "write OUT whole or not at all (its directory made);\n"
	    "'-' is the standard output" },
	{ 'q', "quiet", 'q', NULL, "validate " WRITERS,
	    "print no 'wrote FILE' line" },
	{ OPT_FORMAT, "format", 0, "FORMAT", "validate lineage",
	    "validate: text (a line per FILE) or json (a record\n"
	    "per FILE); lineage: text, dot or mermaid" },
	{ OPT_JUNIT, "junit", 0, "REPORT", "validate",
	    "also write a JUnit XML report, a test case per FILE" },
	{ OPT_SARIF, "sarif", 0, "LOG", "validate",
	    "also write a SARIF 2.1.0 log, a result per diagnostic" },
	{ OPT_DEPFILE, "depfile", 0, "DEPFILE",
	    "validate bundle generate-flink plan",
	    "write a make rule: the output (validate: DEPFILE\n"
	    "less .d) depends on every file the contract read" },
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(""),
	CLI_OPT_END
};

const struct cli_spec fluid_spec = {
	"fluid", fluid_cmds, fluid_opts,
	"Exit status: 0 ok, 1 refused, 2 usage or environment error.\n"
	"See fluid(1) and fluid(7).\n"
};

/* Standard input was closed when fluid started (see main()). */
int stdin_closed;

const char *
input_path(const char *file)
{
	if (strcmp(file, "-") != 0)
		return file;
	if (stdin_closed)
		fl_fatal("standard input is closed");
	return NULL;
}

void
parse_args(int argc, char *argv[], struct args *a, const char *cmd,
    int many)
{
	struct cli cli;
	int c;

	memset(a, 0, sizeof(*a));
	cli_init(&cli, &fluid_spec, cmd);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_FRAGMENT:
			a->ro.fragment = optarg;
			break;
		case OPT_SCHEMA_VERSION:
			a->ro.schema_version = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case OPT_MODE:
			a->mode = optarg;
			break;
		case OPT_LAST_APPLIED:
			a->last_applied = optarg;
			break;
		case 'q':
			cli_quiet = 1;
			break;
		case OPT_DEPFILE:
			a->depfile = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") != 0 &&
			    strcmp(optarg, "json") != 0)
				cli_usage_error(&cli, "--format takes text or "
				    "json");
			a->json = strcmp(optarg, "json") == 0;
			break;
		case OPT_JUNIT:
			if (strcmp(optarg, "-") == 0 || *optarg == '\0')
				cli_usage_error(&cli, "--junit names the file "
				    "to write the report to");
			a->junit = optarg;
			break;
		case OPT_SARIF:
			if (strcmp(optarg, "-") == 0 || *optarg == '\0')
				cli_usage_error(&cli, "--sarif names the file "
				    "to write the log to");
			a->sarif = optarg;
			break;
		case OPT_STRICT:
			a->strict = 1;
			cli_stages_strict = 1;
			break;
		default:
			cli_usage_error(&cli, "%s takes no --%s", cmd,
			    cli_opt_name(&cli, c));
		}
	}
	if (optind == argc || (optind != argc - 1 && !many))
		cli_usage_error(&cli, "%s expects %s FILE", argv[0],
		    many ? "a" : "one");
	a->file = argv[optind];
	a->files = argv + optind;
	a->nfiles = (size_t)(argc - optind);
	a->ro.path = input_path(a->file);
	a->diag = cli.diagfmt;
}

int
checked_file(const struct cli *cli, int argc, char *argv[], const char *cmd,
    json_t **doc)
{
	struct resolve_opts ro;

	if (optind != argc - 1)
		cli_usage_error(cli, "%s expects one FILE", cmd);
	memset(&ro, 0, sizeof(ro));
	ro.path = input_path(argv[optind]);
	return cli_stages(&ro, cli->diagfmt, STAGE_CHECK, NULL, doc);
}
