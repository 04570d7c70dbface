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
#include <sys/stat.h>
#include <unistd.h>

#include "fluid.h"
#include "cli.h"
#include "pipeline.h"

static const char usage[] =
"usage: fluid validate [--diagnostics=text|json] FILE...\n"
"       fluid validate --schema-version VERSION --fragment KIND FILE\n"
"       fluid bundle [--diagnostics=text|json] [-o | --out OUTFILE] FILE\n"
"       fluid generate flink [--diagnostics=text|json] --out DIR FILE\n"
"       fluid --help | --version\n"
"\n"
"  validate   check a contract (or one fragment) against every static rule\n"
"  bundle     print the contract with every $ref inlined, as YAML\n"
"  generate flink\n"
"             write DIR/<build>.sql and DIR/<build>.table.json per\n"
"             managed build\n"
"\n"
"Exit status: 0 ok, 1 refused, 2 usage or environment error.\n"
"See fluid(1) and fluid(7).\n";

/*
 * The end of every command: what it printed must have been written.  A
 * full disk or a closed pipe is an error (status 2), and says so.
 */
static int
flush_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fl_warnx("cannot write standard output:");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * Options shared by the commands, as the stages take them.  An option
 * given twice counts once, with its last value, as getopt programs do.
 */
struct args {
	struct resolve_opts ro;	/* FILE, --fragment, --schema-version */
	enum diag_format diag;	/* --diagnostics */
	char	*out;
	char	*file;		/* the first FILE */
	char	**files;	/* every FILE (validate takes several) */
	size_t	 nfiles;
	struct sb y;		/* scratch text */
};

/*
 * The options of a command.  allow_out: --out; allow_fragment:
 * --fragment and --schema-version; many: more than one FILE.
 */
static void
parse_args(int argc, char *argv[], struct args *a, int allow_out,
    int allow_fragment, int many)
{
	static const struct option opts[] = {
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "fragment", required_argument, NULL, 'f' },
		{ "schema-version", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { usage, DIAG_FORMAT_TEXT };
	int c, idx;

	memset(a, 0, sizeof(*a));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", opts, &idx)) != -1) {
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
				cli_usage_error(&cli, "--out is for bundle and generate");
			a->out = optarg;
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
	/* fluid-resolve reads standard input for "-", as a filter does. */
	a->ro.path = strcmp(a->file, "-") != 0 ? a->file : NULL;
	a->diag = cli.diagfmt;
}

/*
 * validate FILE...: each file on its own, as if validated alone, so that
 * a CI job checks a whole tree in one process.  The status is the worst:
 * 1 when any file is refused; an environment error (an unreadable file)
 * ends the run there with status 2, as it does for one file.
 */
static int
cmd_validate(int argc, char *argv[])
{
	struct args a;
	size_t i;
	int st, worst = 0;

	parse_args(argc, argv, &a, 0, 1, 1);
	for (i = 0; i < a.nfiles; i++) {
		a.file = a.files[i];
		a.ro.path = strcmp(a.file, "-") != 0 ? a.file : NULL;
		st = pipeline_run(&a.ro, a.diag, PIPELINE_CHECK, NULL,
		    "fluid");
		if (st == 0)
			printf("%s: ok\n", a.file);
		if (st > worst)
			worst = st;
		if (st == EXIT_USAGE)
			break;
	}
	st = flush_stdout();
	return st != 0 ? st : worst;
}

static int
cmd_bundle(int argc, char *argv[])
{
	struct args a;
	json_t *doc;
	struct sb y;
	int st;

	parse_args(argc, argv, &a, 1, 0, 0);
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
	ir_keep_until_exit(doc);	/* fluid exits after this */
	if (a.out != NULL) {
		if (atomic_write(a.out, y.buf, y.len) == -1)
			fl_fatal("cannot write '%s':", a.out);
		printf("wrote %s\n", a.out);
	} else
		fwrite(y.buf, 1, y.len, stdout);
	sb_release(&y);
	return flush_stdout();
}

/* The table the runner compares an existing one with: no catalog. */
static json_t *
table_spec(json_t *build)
{
	json_t *t = json_object_get(build, "table");

	return json_pack("{s:O, s:O, s:O, s:O, s:O, s:O}", "namespace",
	    json_object_get(t, "namespace"), "name", json_object_get(t,
	    "name"), "columns", json_object_get(t, "columns"), "partitionBy",
	    json_object_get(t, "partitionBy"), "formatVersion",
	    json_object_get(t, "formatVersion"), "fileFormat",
	    json_object_get(t, "fileFormat"));
}

/*
 * The files of one generate run, staged in a directory of their own
 * inside DIR before any of them replaces a file in DIR.
 */
struct stage {
	char	*dir;		/* DIR/.fluid-generate.XXXXXX */
	char	**names;	/* file names, in the order they are written */
	size_t	 n;
};

/* Remove the staging directory and whatever is still in it. */
static void
stage_discard(struct stage *sg)
{
	char *p;
	size_t i;

	for (i = 0; i < sg->n; i++) {
		p = xasprintf("%s/%s", sg->dir, sg->names[i]);
		unlink(p);
		free(p);
	}
	rmdir(sg->dir);
}

/* Stage one file, or exit 2; on failure nothing in DIR has changed. */
static void
stage_file(struct stage *sg, const char *out, const char *name,
    const char *text)
{
	char *p = xasprintf("%s/%s", sg->dir, name);
	int e;

	if (text == NULL || atomic_write(p, text, strlen(text)) == -1) {
		e = text == NULL ? EINVAL : errno;
		stage_discard(sg);
		free(p);
		p = xasprintf("%s/%s", out, name);
		errno = e;
		fl_fatal("cannot write '%s':", p);
	}
	free(p);
	sg->names = xreallocarray(sg->names, sg->n + 1, sizeof(*sg->names));
	sg->names[sg->n++] = xstrdup(name);
}

/*
 * fluid generate flink CONTRACT --out DIR: per managed build, the SQL
 * script and the table the runner expects.  Every file is written
 * whole (atomic_write()) into a staging directory inside DIR first, and
 * only when all of them are written are they renamed into place, so a
 * full disk or a failed write leaves DIR as it was: never a new script
 * beside an old table file.  The "wrote" lines come last, so that a
 * closed standard output cannot stop the run half way either.
 */
static int
cmd_generate(int argc, char *argv[])
{
	struct cli cli = { usage, DIAG_FORMAT_TEXT };
	struct args a;
	json_t *doc, *b, *checked, *spec;
	struct stage sg = { NULL, NULL, 0 };
	struct stat st;
	size_t i;
	char *name, *text, *from, *to;
	const char *id;
	int rc;

	if (argc < 2 || strcmp(argv[1], "flink") != 0)
		cli_usage_error(&cli, "generate expects a target: "
		    "generate flink");
	parse_args(argc - 1, argv + 1, &a, 1, 0, 0);
	if (a.out == NULL)
		cli_usage_error(&cli, "generate flink needs --out DIR");
	rc = pipeline_run(&a.ro, a.diag, PIPELINE_SQLGEN, &doc, "fluid");
	if (rc != 0)
		return rc;
	if (mkdir(a.out, 0777) == -1 && errno != EEXIST)
		fl_fatal("cannot create '%s':", a.out);
	if (stat(a.out, &st) == -1 || !S_ISDIR(st.st_mode))
		fl_fatal("'%s' is not a directory", a.out);
	checked = json_object_get(ir_section(doc, "check"), "builds");
	sg.dir = xasprintf("%s/.fluid-generate.XXXXXX", a.out);
	if (mkdtemp(sg.dir) == NULL)
		fl_fatal("cannot write into '%s':", a.out);
	json_array_foreach(json_object_get(ir_section(doc, "sqlgen"),
	    "builds"), i, b) {
		/* fluid-check allows no '/' in an id; a second guard. */
		id = json_string_value(json_object_get(b, "build"));
		if (id == NULL || *id == '.' || strchr(id, '/') != NULL) {
			stage_discard(&sg);
			fl_fatal("fluid-sqlgen wrote a build without a usable "
			    "id");
		}
		name = xasprintf("%s.sql", id);
		stage_file(&sg, a.out, name, json_string_value(
		    json_object_get(b, "sql")));
		free(name);
		spec = table_spec(json_array_get(checked, i));
		text = json_dumps(spec, JSON_INDENT(2));
		name = xasprintf("%s.table.json", id);
		sb_init(&a.y);
		sb_adds(&a.y, text ? text : "");
		sb_addc(&a.y, '\n');
		stage_file(&sg, a.out, name, text ? a.y.buf : NULL);
		sb_release(&a.y);
		free(name);
		free(text);
		json_decref(spec);
	}
	/* All written: into place, by rename() within one file system. */
	for (i = 0; i < sg.n; i++) {
		from = xasprintf("%s/%s", sg.dir, sg.names[i]);
		to = xasprintf("%s/%s", a.out, sg.names[i]);
		if (rename(from, to) == -1) {
			rc = errno;
			stage_discard(&sg);
			errno = rc;
			fl_fatal("cannot write '%s':", to);
		}
		free(from);
		free(to);
	}
	rmdir(sg.dir);
	for (i = 0; i < sg.n; i++) {
		printf("wrote %s/%s\n", a.out, sg.names[i]);
		free(sg.names[i]);
	}
	free(sg.names);
	free(sg.dir);
	if (json_array_size(checked) == 0)
		fprintf(stderr, "fluid: %s has no managed build: nothing "
		    "written\n", a.file);
	ir_keep_until_exit(doc);	/* fluid exits after this */
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
};

int
main(int argc, char *argv[])
{
	struct cli cli = { usage, DIAG_FORMAT_TEXT };
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
	if (argc < 2)
		cli_usage_error(&cli, "expects a command");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)
		cli_common(&cli, "help", NULL);
	if (strcmp(argv[1], "--version") == 0)
		cli_common(&cli, "version", NULL);
	for (i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	cli_usage_error(&cli, "unknown command '%s'", argv[1]);
}
