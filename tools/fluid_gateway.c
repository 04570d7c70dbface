/*
 * fluid_gateway.c - apply a build's script through a Flink SQL Gateway
 * (fluid-gateway(1)): the part fluid-gateway apply and fluid apply
 * --target share.  The target and the allowlist are settled, and the
 * script split, before anything is contacted; --dry-run stops there.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fluid.h"
#include "cli.h"
#include "pipeline.h"
#include "plan.h"
#include "target.h"
#include "gw.h"
#include "fluid_gateway.h"

const char gateway_usage[] =
"usage: fluid-gateway apply [--target NAME] [--targets FILE] [--build ID]\n"
"           [--timeout S] [--dry-run] [--diagnostics=text|json] FILE\n"
"       fluid-gateway --help | --version\n"
"\n"
"Apply a build's Flink SQL through a Flink SQL Gateway (REST API v2): open\n"
"a session, run each statement in order, print one ok: line per statement\n"
"(an INSERT's with its job id), close the session.  FILE is a contract\n"
"(its script is generated as fluid generate flink would) or a script\n"
"ending in .sql.  It submits and reports; it does not check delivery\n"
"(fluid verify does).\n"
"\n"
"  --target NAME         the target to apply to (needed when several are\n"
"                        declared)\n"
"  --targets FILE        the file that declares the targets (default: the\n"
"                        nearest fluid.targets.yaml or fluid.workspace.yaml\n"
"                        at or above FILE's directory)\n"
"  --build ID            the managed build (needed when there are several)\n"
"  --timeout S           seconds the whole apply may take: every request,\n"
"                        poll and result page (default 300)\n"
"  --dry-run             print the statements it would send; contact nothing\n"
"  --diagnostics=FORMAT  print diagnostics as text (default) or json lines\n"
"  --help, --version\n"
"\n"
"Exit status: 0 applied, 1 refused (by the allowlist, or a statement by\n"
"Flink), 2 usage or environment error (the gateway unreachable, a timeout,\n"
"interrupted).  See fluid-gateway(1).\n";

static volatile sig_atomic_t gw_stop;

static void
on_signal(int sig)
{
	(void)sig;
	gw_stop = 1;
}

/* SIGINT and SIGTERM stop the run; the session is closed after. */
static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: a sleep ends at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void
print_session(void *arg, const char *handle)
{
	(void)arg;
	printf("session %s\n", handle);
	fflush(stdout);
}

static void
print_ok(void *arg, const char *line)
{
	(void)arg;
	printf("ok: %s\n", line);
	fflush(stdout);
}

static int
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/*
 * path (a new string, freed) relative to the working directory when it
 * lies below it, so that messages name it as the user would.
 */
static char *
shorter(char *path)
{
	char cwd[PATH_MAX], *s;
	size_t n;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return path;
	n = strlen(cwd);
	if (strncmp(path, cwd, n) != 0 || path[n] != '/')
		return path;
	s = xstrdup(path + n + 1);
	free(path);
	return s;
}

/* The directory FILE is in, as a real path (the search starts there). */
static char *
file_dir(const char *file)
{
	char real[PATH_MAX], *slash;

	if (realpath(file, real) == NULL)
		fl_fatal("cannot open '%s':", file);
	slash = strrchr(real, '/');
	if (slash == real)
		return xstrdup("/");
	*slash = '\0';
	return xstrdup(real);
}

/* A contract without a managed build has no script to apply. */
static int
no_managed(json_t *doc, enum diag_format fmt)
{
	struct diags d;
	int st;

	diags_init(&d);
	diags_set_resolve(&d, ir_section(doc, "resolve"));
	diag_at(&d, DIAG_ERROR, "/builds", "no managed build to apply: no "
	    "build sets properties.parameters.flink.management: operator");
	diag_print(&d, stderr, fmt, fl_progname());
	st = diag_status(&d);
	diags_release(&d);
	json_decref(doc);
	return st;
}

/*
 * A CFK build's statements are CMF's, one per FlinkStatement: a SQL
 * Gateway never runs them.  The status, after printing the refusal.
 */
static int
cfk_refused(json_t *doc, const json_t *e, const char *file,
    enum diag_format fmt)
{
	const char *t = json_string_value(json_object_get(e, "target"));
	struct diags d;
	int st;

	if (t == NULL || strcmp(t, "cfk") != 0)
		return 0;
	diags_init(&d);
	diag_pos(&d, DIAG_ERROR, file, 0, 0, "build '%s' targets CFK "
	    "(management: cfk): its statements are CMF's, each run by a "
	    "FlinkStatement, not by a SQL Gateway; apply it with fluid plan "
	    "and fluid apply without --target",
	    json_string_value(json_object_get(e, "build")));
	diag_print(&d, stderr, fmt, fl_progname());
	st = diag_status(&d);
	diags_release(&d);
	json_decref(doc);
	return st;
}

/*
 * Every check fluid apply makes of what the job contacts (plan.h,
 * plan_allow_build()), for build id of doc: the status, after printing
 * the refusals placed at file.
 */
static int
gateway_allow(json_t *doc, const char *id, const char *file,
    enum diag_format fmt)
{
	struct allow al;
	struct diags d;
	int st;

	allow_load(&al, getenv);
	diags_init(&d);
	plan_allow_build(ir_check_build(doc, id ? id : ""),
	    json_string_value(json_object_get(json_object_get(ir_section(doc,
	    "check"), "product"), "id")), &al, file, &d);
	diag_print(&d, stderr, fmt, fl_progname());
	st = diag_status(&d);
	diags_release(&d);
	allow_release(&al);
	return st;
}

/*
 * The script FILE names: the file itself (.sql), or the sql of a managed
 * build of the contract, *where set to the name fluid generate flink
 * gives it.  A new string; exits on failure.
 */
static char *
load_script(const char *file, const char *build, enum diag_format fmt,
    char **where)
{
	struct resolve_opts ro;
	unsigned char *buf;
	json_t *doc, *builds, *b, *one = NULL;
	const char *id;
	size_t len, i;
	FILE *fp;
	char *sql;
	int rc;

	if (ends_with(file, ".sql")) {
		if (build != NULL)
			fl_fatal("--build goes with a contract, not a script");
		if ((fp = fopen(file, "r")) == NULL)
			fl_fatal("cannot open '%s':", file);
		if (slurp(fp, FL_MAX_INPUT_BYTES, &buf, &len) == -1)
			fl_fatal("cannot read '%s':", file);
		fclose(fp);
		if (memchr(buf, '\0', len) != NULL)
			fl_fatal("'%s' holds a NUL byte: not a script", file);
		*where = xstrdup(file);
		/* slurp() does not terminate what it read. */
		sql = xstrndup((char *)buf, len);
		free(buf);
		return sql;
	}
	memset(&ro, 0, sizeof(ro));
	ro.path = file;
	if ((rc = pipeline_run(&ro, fmt, PIPELINE_SQLGEN, &doc,
	    fl_progname())) != 0)
		exit(rc);
	builds = json_object_get(ir_section(doc, "sqlgen"), "builds");
	if (json_array_size(builds) == 0)
		exit(no_managed(doc, fmt));
	json_array_foreach(builds, i, b) {
		id = json_string_value(json_object_get(b, "build"));
		if (build == NULL || (id != NULL && strcmp(id, build) == 0))
			one = b;
		if (build != NULL && one != NULL)
			break;
	}
	if (build == NULL && json_array_size(builds) > 1)
		fl_fatal("the contract has %zu managed builds: name one with "
		    "--build", json_array_size(builds));
	if (one == NULL)
		fl_fatal("no managed build with id '%s'", build);
	id = json_string_value(json_object_get(one, "build"));
	if ((rc = cfk_refused(doc, one, file, fmt)) != 0)
		exit(rc);
	if ((rc = gateway_allow(doc, id, file, fmt)) != 0)
		exit(rc);
	*where = xasprintf("%s.sql", id ? id : "build");
	sql = xstrdup(json_string_value(json_object_get(one, "sql")));
	json_decref(doc);
	return sql;
}

/* Print d and return its status, d empty again. */
static int
report(struct diags *d, enum diag_format fmt)
{
	int st;

	diag_print(d, stderr, fmt, fl_progname());
	st = diag_status(d);
	diags_release(d);
	diags_init(d);
	return st;
}

int
gateway_apply(int argc, char *argv[], const char *usage)
{
	static const struct option opts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "targets", required_argument, NULL, 'T' },
		{ "build", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { usage, DIAG_FORMAT_TEXT };
	const char *name = NULL, *tfile = NULL, *build = NULL, *file;
	const struct target *tg;
	struct gw_opts go;
	struct gw_script sc;
	struct targets ts;
	struct allow al;
	struct diags d;
	char *sql, *where, *dir, *found = NULL, *why, *label, *end, *text;
	char *shown_where, *shown_name, *shown_gw;
	const char *swhy;
	size_t i, line;
	long v;
	int c, dry = 0, st, ok;

	memset(&go, 0, sizeof(go));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			name = optarg;
			break;
		case 'T':
			tfile = optarg;
			break;
		case 'b':
			build = optarg;
			break;
		case 's':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    v < 1 || v > 86400)
				cli_usage_error(&cli, "--timeout expects "
				    "seconds from 1 to 86400");
			go.timeout_ms = v * 1000;
			break;
		case 'n':
			dry = 1;
			break;
		case 'D':
			cli_common(&cli, "diagnostics", optarg);
			break;
		case 'h':
			cli_common(&cli, "help", NULL);
			break;
		default:
			cli_bad_option(&cli, argv, c);
		}
	}
	if (optind != argc - 1)
		cli_usage_error(&cli, "apply expects one FILE: a contract or "
		    "a .sql script");
	file = argv[optind];

	/* The target first: a wrong name is found before any work. */
	diags_init(&d);
	if (tfile == NULL) {
		dir = file_dir(file);
		if ((found = target_find_file(dir)) == NULL)
			fl_fatal("no %s or %s with targets at or above %s: "
			    "declare one, or name it with --targets",
			    TARGET_FILE, RESOLVE_WORKSPACE_FILE, dir);
		free(dir);
		found = shorter(found);
		tfile = found;
	}
	tg = NULL;
	if (target_load(tfile, &ts, &d) == 0)
		tg = target_pick(&ts, name, &d);
	if ((st = report(&d, cli.diagfmt)) != 0 || tg == NULL)
		goto out_targets;
	allow_load(&al, getenv);
	ok = allow_host(&al, tg->gateway, &why);
	allow_release(&al);
	if (!ok) {
		diag_pos(&d, DIAG_ERROR, ts.file, tg->line, tg->col,
		    "targets.%s.flink.gateway: %s", tg->name, why);
		free(why);
		st = report(&d, cli.diagfmt);
		goto out_targets;
	}

	sql = load_script(file, build, cli.diagfmt, &where);
	if (gw_script_split(sql, &sc, &swhy, &line) == -1) {
		diag_pos(&d, DIAG_ERROR, where, (int)line, 1, "%s", swhy);
		st = report(&d, cli.diagfmt);
		goto out_sql;
	}
	/* The targets file's and the script's text, escaped (diag.h). */
	shown_where = diag_escape(where, 0);
	shown_name = diag_escape(tg->name, 0);
	shown_gw = diag_escape(tg->gateway, 0);
	if (dry) {
		printf("-- dry run: %s to target '%s' (%s); nothing is "
		    "contacted\n", shown_where, shown_name, shown_gw);
		for (i = 0; i < sc.n; i++) {
			label = gw_stmt_label(&sc.v[i]);
			text = diag_escape(sc.v[i].text, DIAG_ESCAPE_LINES);
			printf("\n-- %zu: %s\n%s;\n", i + 1, label, text);
			free(text);
			free(label);
		}
		st = 0;
		goto out_script;
	}
	printf("applying %s to target '%s' (%s)\n", shown_where, shown_name,
	    shown_gw);
	fflush(stdout);
	go.stop = &gw_stop;
	catch_signals();
	st = gw_apply(&go, tg->gateway, &sc, where, print_session, print_ok,
	    NULL, &d);
	report(&d, cli.diagfmt);
	if (st == 0)
		printf("ok: applied: every statement submitted; delivery is "
		    "not checked here (fluid verify reads it)\n");
out_script:
	free(shown_where);
	free(shown_name);
	free(shown_gw);
	gw_script_release(&sc);
out_sql:
	free(sql);
	free(where);
out_targets:
	targets_release(&ts);
	free(found);
	diags_release(&d);
	c = fflush(stdout) == EOF || ferror(stdout);
	if (c) {
		cli_write_failed();
		return st != 0 ? st : EXIT_USAGE;
	}
	return st;
}
