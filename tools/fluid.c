/*
 * fluid - the driver users type.  Each subcommand runs a pipeline of
 * fluid-* stages and presents the result.
 *
 * The stages run one after another inside this process (pipeline.h):
 * the same code as the fluid-* programs, the same diagnostics under
 * their names and the same statuses, without starting a program per
 * stage, which cost more than the work on a small contract.  When a
 * stage refuses the contract the driver stops there, so the user sees
 * that stage's diagnostics and not a second complaint about empty input.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fluid.h"
#include "cli.h"
#include "pipeline.h"
#include "fluid_cmd.h"

const char fluid_usage[] =
"usage: fluid validate [--diagnostics=text|json] [--format text|json]\n"
"           [--junit REPORT] [--depfile FILE.d] FILE...\n"
"       fluid validate --schema-version VERSION --fragment KIND FILE\n"
"       fluid bundle [--diagnostics=text|json] [-q] [-o | --out OUTFILE]\n"
"           [--depfile DEPFILE] FILE\n"
"       fluid generate flink [--diagnostics=text|json] [-q] --out DIR\n"
"           [--depfile DEPFILE] FILE\n"
"       fluid plan [--diagnostics=text|json] --mode MODE\n"
"           [--last-applied RESOURCES] [-q] [-o | --out PLAN]\n"
"           [--depfile DEPFILE] FILE\n"
"       fluid apply [--diagnostics=text|json] --mode MODE [--yes] [--wait S]\n"
"           PLAN\n"
"       fluid apply --target NAME [--targets FILE] [--build ID] [--timeout S]\n"
"           [--dry-run] FILE\n"
"       fluid diff [--diagnostics=text|json] --baseline OLD\n"
"           [--exit-on-breaking] [-q] [-o | --out CHANGES] FILE\n"
"       fluid diff [--diagnostics=text|json] --baseline-rev REV\n"
"           [--exit-on-breaking] [-q] [-o | --out CHANGES] FILE\n"
"       fluid diff [--diagnostics=text|json] --exit-on-drift\n"
"           [-q] [-o | --out DRIFT] FILE\n"
"       fluid export odcs [--diagnostics=text|json] [--json]\n"
"           [-q] [-o | --out OUTFILE] FILE\n"
"       fluid verify [--diagnostics=text|json] [--strict]\n"
"           [--streaming-timeout S] [-q] [-o | --out DELIVERY] FILE\n"
"       fluid [COMMAND] --help | -h;  fluid --version\n"
"\n"
"  validate   check a contract (or one fragment) against every static rule;\n"
"             per FILE a line FILE: ok, FILE: refused (N errors) or FILE:\n"
"             error, or with --format json a record {file, status,\n"
"             diagnostics}; --junit REPORT writes a JUnit XML report,\n"
"             a test case per FILE\n"
"  bundle     print the contract with every $ref inlined, as YAML\n"
"  generate flink\n"
"             write DIR/<build>.sql, DIR/<build>.table.json and\n"
"             DIR/<build>.k8s.json per managed build\n"
"  plan       the resources apply would write, bound to the contract by\n"
"             digest; MODE is amend, amend-and-build, create-only or\n"
"             dry-run; --last-applied says which are new, changed or\n"
"             unchanged\n"
"  apply      render the plan again from the contract it carries, refuse\n"
"             any difference, check the allowlists on what it writes, and\n"
"             write it to its cluster through kubectl (--yes; --wait S\n"
"             bounds the wait for the operator, default 60), or show it\n"
"             (dry-run, which contacts nothing);\n"
"             with --target, run a build's script through that target's\n"
"             Flink SQL Gateway (fluid-gateway(1))\n"
"  diff       every change from the baseline contract OLD, or from FILE\n"
"             and its fragments as they are at git revision REV, with its\n"
"             severity, as JSON; or, with --exit-on-drift, each build's\n"
"             live resources against what fluid apply recorded: clean,\n"
"             pending or drift (exit 1)\n"
"  export odcs\n"
"             print the contract as an ODCS v3.2.0 data contract (YAML,\n"
"             or JSON with --json)\n"
"  verify     evidence that each managed build is live: the catalog's\n"
"             schema and a young enough snapshot (fluid-verify(1))\n"
"\n"
"  -q, --quiet  print no 'wrote FILE' line; OUT '-' is the standard output\n"
"  --depfile DEPFILE\n"
"             write a make rule: the output (validate: DEPFILE less .d)\n"
"             depends on every file the contract read\n"
"\n"
"Exit status: 0 ok, 1 refused, 2 usage or environment error.\n"
"See fluid(1) and fluid(7).\n";

/*
 * The end of every command: what it printed must have been written.  A
 * full disk or a closed pipe is an error (status 2), and says so.
 */
int
flush_stdout(void)
{
	return cli_flush();
}

/* Standard input was closed when fluid started (see main()). */
static int stdin_closed;

/*
 * The path fluid-resolve reads FILE from: NULL for "-", standard input,
 * as a filter does.  With standard input closed that is an environment
 * error, not a contract that cannot be read.
 */
const char *
input_path(const char *file)
{
	if (strcmp(file, "-") != 0)
		return file;
	if (stdin_closed)
		fl_fatal("standard input is closed");
	return NULL;
}

/*
 * The options of a command.  allow_out: --out; allow_fragment:
 * --fragment and --schema-version; many: more than one FILE; plan:
 * --mode and --last-applied.
 */
void
parse_args(int argc, char *argv[], struct args *a, int allow_out,
    int allow_fragment, int many, int plan)
{
	static const struct option opts[] = {
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "fragment", required_argument, NULL, 'f' },
		{ "schema-version", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "mode", required_argument, NULL, 'm' },
		{ "last-applied", required_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "depfile", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { fluid_usage, DIAG_FORMAT_TEXT };
	int c, idx;

	memset(a, 0, sizeof(*a));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hqo:", opts, &idx)) != -1) {
		switch (c) {
		case 'D':
			cli_common(&cli, "diagnostics", optarg);
			break;
		case 'f':
		case 's':
			if (!allow_fragment)
				cli_usage_error(&cli, "--%s is for validate",
				    opts[idx].name);
			if (c == 'f')
				a->ro.fragment = optarg;
			else
				a->ro.schema_version = optarg;
			break;
		case 'o':
			if (!allow_out)
				cli_usage_error(&cli, "--out is for bundle, "
				    "generate and plan");
			a->out = optarg;
			break;
		case 'm':
		case 'l':
			if (!plan)
				cli_usage_error(&cli, "--%s is for plan",
				    opts[idx].name);
			if (c == 'm')
				a->mode = optarg;
			else
				a->last_applied = optarg;
			break;
		case 'q':
			cli_quiet = 1;
			break;
		case 'd':
			a->depfile = optarg;
			break;
		case 'h':
			cli_common(&cli, "help", NULL);
			break;
		default:
			cli_bad_option(&cli, argv, c);
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

static int
cmd_bundle(int argc, char *argv[])
{
	struct args a;
	json_t *doc;
	struct sb y;
	int st;

	parse_args(argc, argv, &a, 1, 0, 0, 0);
	free(dep_target(&a, "bundle"));	/* usage errors before the work */
	st = pipeline_run(&a.ro, a.diag, PIPELINE_RESOLVE, &doc, "fluid");
	if (st != 0)
		return st;
	sb_init(&y);
	sb_adds(&y, "# fluid bundle: every $ref inlined; digest ");
	sb_adds(&y, json_string_value(json_object_get(
	    ir_section(doc, "resolve"), "digest")));
	sb_addc(&y, '\n');
	if (yemit(json_object_get(ir_section(doc, "resolve"), "document"),
	    &y) == -1)
		fl_fatal("cannot write the bundle as YAML");
	ir_keep_to_end(doc);	/* fluid exits after this */
	st = cli_write_out(a.out, y.buf, y.len);
	if (st == 0 && a.depfile != NULL)
		dep_write(a.depfile, a.out, doc);
	sb_release(&y);
	return st;
}

/* A failed outdir_*() call, as its message says: status 2. */
static void __attribute__((noreturn))
outdir_fatal(const struct outdir *od)
{
	if (od->err != 0) {
		errno = od->err;
		fl_fatal("%s:", od->msg);
	}
	fl_fatal("%s", od->msg);
}

/*
 * A contract with no managed build has nothing to generate or plan:
 * refused, so that a Makefile recipe sees it, and placed at its builds
 * like the stages' diagnostics.
 */
int
no_managed_build(json_t *doc, enum diag_format fmt, const char *verb)
{
	struct diags d;
	int st;

	diags_init(&d);
	diags_set_resolve(&d, ir_section(doc, "resolve"));
	diag_at(&d, DIAG_ERROR, "/builds", "no managed build to %s: "
	    "no build sets properties.parameters.flink.management: "
	    "operator; nothing written", verb);
	diag_print(&d, stderr, fmt, "fluid");
	st = diag_status(&d);
	diags_release(&d);
	return st;
}

/* Stage one file, or abort the run and exit 2. */
static void
stage_file(struct outdir *od, const char *name, const char *text)
{
	if (text == NULL) {
		outdir_abort(od);
		errno = EINVAL;
		fl_fatal("cannot write '%s/%s':", od->dir, name);
	}
	if (outdir_add(od, name, text, strlen(text)) == -1)
		outdir_fatal(od);
}


/*
 * One build's files, staged in od: <id>.sql, <id>.table.json and
 * <id>.k8s.json, its resources as a kubectl List (what fluid-k8s
 * render --resources prints for it), so that the directory holds
 * everything that would run, for review and for kubectl.
 */
static void
stage_build(struct outdir *od, json_t *b, json_t *doc, json_t *k8s)
{
	const char *id = json_string_value(json_object_get(b, "build"));
	json_t *cb, *one, *kb;
	char *name, *text;
	size_t i;

	/* fluid-check allows no '/' in an id; a second guard. */
	if (id == NULL || *id == '.' || strchr(id, '/') != NULL) {
		outdir_abort(od);
		fl_fatal("fluid-sqlgen wrote a build without a usable id");
	}
	if ((cb = ir_check_build(doc, id)) == NULL) {
		outdir_abort(od);
		fl_fatal("fluid-sqlgen wrote build '%s', which fluid-check "
		    "did not", id);
	}
	name = xasprintf("%s.sql", id);
	stage_file(od, name, json_string_value(json_object_get(b, "sql")));
	free(name);
	name = xasprintf("%s.table.json", id);
	text = k8s_table_text(cb);
	stage_file(od, name, text);
	free(text);
	free(name);
	one = json_pack("{s:[]}", "builds");
	json_array_foreach(json_object_get(k8s, "builds"), i, kb)
		if (json_equal(json_object_get(kb, "build"),
		    json_object_get(b, "build")))
			json_array_append(json_object_get(one, "builds"), kb);
	name = xasprintf("%s.k8s.json", id);
	if (json_array_size(json_object_get(one, "builds")) != 1)
		text = NULL;
	else {
		kb = k8s_list(one);
		text = k8s_json_text(kb);
		json_decref(kb);
	}
	json_decref(one);
	stage_file(od, name, text);
	free(text);
	free(name);
}

/*
 * fluid-k8s render, in this process: the k8s section added to doc.
 * Its diagnostics are fluid-k8s's, as pipeline.h does for the stages.
 */
int
run_k8s(json_t *doc, enum diag_format fmt)
{
	struct diags d;
	int st;

	diags_init(&d);
	stage_k8s(doc, &d);
	diag_print(&d, stderr, fmt, "fluid-k8s");
	st = diag_status(&d);
	diags_release(&d);
	return st;
}

/*
 * fluid generate flink CONTRACT --out DIR: per managed build, the SQL
 * script, the table the runner expects and the Kubernetes resources
 * that run them, written as one set
 * (outdir.h): whole files, staged in DIR and renamed into place only
 * when all are written, so that a full disk or a failed write leaves
 * DIR as it was, never a new script beside an old table file; the files
 * of builds that are gone removed; one run at a time.  The "wrote"
 * lines come last, so that a closed standard output cannot stop the run
 * half way either.
 */
static int
cmd_generate(int argc, char *argv[])
{
	struct cli cli = { fluid_usage, DIAG_FORMAT_TEXT };
	struct args a;
	struct outdir od;
	json_t *doc, *b, *built;
	size_t i;
	int rc;

	if (argc < 2 || strcmp(argv[1], "flink") != 0)
		cli_usage_error(&cli, "generate expects a target: "
		    "generate flink");
	parse_args(argc - 1, argv + 1, &a, 1, 0, 0, 0);
	if (a.out == NULL)
		cli_usage_error(&cli, "generate flink needs --out DIR");
	if (strcmp(a.out, "-") == 0)
		cli_usage_error(&cli, "generate flink writes files: --out "
		    "names a directory, not standard output");
	rc = pipeline_run(&a.ro, a.diag, PIPELINE_SQLGEN, &doc, "fluid");
	if (rc != 0)
		return rc;
	ir_keep_to_end(doc);	/* fluid exits after this */
	built = json_object_get(ir_section(doc, "sqlgen"), "builds");
	if (json_array_size(built) == 0)
		return no_managed_build(doc, a.diag, "generate");
	if ((rc = run_k8s(doc, a.diag)) != 0)
		return rc;
	if (outdir_open(&od, a.out, "generate") == -1)
		outdir_fatal(&od);
	json_array_foreach(built, i, b)
		stage_build(&od, b, doc, ir_section(doc, "k8s"));
	if (outdir_commit(&od) == -1)
		outdir_fatal(&od);
	for (i = 0; i < od.n; i++)
		if (!cli_quiet)
			printf("wrote %s/%s\n", a.out, od.names[i]);
	outdir_close(&od);
	/* The rule's target is DIR, whose files a run replaces as a set. */
	if (a.depfile != NULL)
		dep_write(a.depfile, a.out, doc);
	return flush_stdout();
}

/* Adding a subcommand is one line here and one function above. */
static const struct {
	const char	*name;
	int		(*run)(int, char *[]);
} commands[] = {
	{ "validate", cmd_validate },
	{ "bundle", cmd_bundle },
	{ "generate", cmd_generate },
	{ "plan", cmd_plan },
	{ "apply", cmd_apply },
	{ "export", cmd_export },
	{ "verify", cmd_verify },
	{ "diff", cmd_diff },
};

int
main(int argc, char *argv[])
{
	struct cli cli = { fluid_usage, DIAG_FORMAT_TEXT };
	size_t i;

	fl_setprogname("fluid");
	/*
	 * A closed pipe is a failed write (status 2 and one line), not a
	 * silent death by signal.
	 */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * With standard output closed, the next file opened would take its
	 * descriptor and receive what we print: refuse to start instead.
	 */
	if (fcntl(STDOUT_FILENO, F_GETFD) == -1)
		fl_fatal("standard output is closed");
	/*
	 * Standard input is read only for "-": remember that it is closed,
	 * and give its descriptor to /dev/null, so that no contract file
	 * opened later is taken for it.
	 */
	if (fcntl(STDIN_FILENO, F_GETFD) == -1) {
		stdin_closed = 1;
		if (open("/dev/null", O_RDONLY) != STDIN_FILENO)
			fl_fatal("standard input is closed");
	}
	if (argc < 2)
		cli_usage_error(&cli, "expects a command");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)
		cli_common(&cli, "help", NULL);
	if (strcmp(argv[1], "--version") == 0)
		cli_common(&cli, "version", NULL);
	/* "fluid CMD --help" (or -h) describes CMD alone. */
	cli_help_for("fluid", argv[1]);
	if (argc > 2 && (strcmp(argv[2], "--help") == 0 ||
	    strcmp(argv[2], "-h") == 0))
		cli_common(&cli, "help", NULL);
	for (i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	cli_usage_error(&cli, "unknown command '%s'", argv[1]);
}
