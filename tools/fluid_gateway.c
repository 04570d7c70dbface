/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_gateway.c - apply a build's script through a Flink SQL Gateway
 * (fluid-gateway(1)): the part fluid-gateway apply and fluid apply
 * --target share.  The target and the allowlist are settled, and the
 * script split, before anything is contacted; --dry-run stops there.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fluid.h"
#include "cli.h"
#include "plan.h"
#include "target.h"
#include "gw.h"
#include "fluid_cmd.h"
#include "fluid_gateway.h"

static const struct cli_cmd gateway_cmds[] = {
	{ "apply", "apply [--target NAME] [--targets FILE] [--build ID]\n"
	    "    [--timeout S] [--dry-run] [--diagnostics=text|json] FILE\n",
	    "Apply a build's Flink SQL through a Flink SQL Gateway (REST API\n"
	    "v2): open a session, run each statement in order, print one ok:\n"
	    "line per statement (an INSERT's with its job id), close the\n"
	    "session.  FILE is a contract (its script is generated as fluid\n"
	    "generate flink would) or a script ending in .sql.  It submits and\n"
	    "reports; it does not check delivery (fluid verify does).\n" },
	{ NULL, "--help | --version\n", NULL },
	{ NULL, NULL, NULL }
};

static const struct cli_opt gateway_opts[] = {
	{ OPT_TARGET, "target", 0, "NAME", NULL,
	    "the target to apply to (needed when several are\n"
	    "declared)" },
	{ OPT_TARGETS, "targets", 0, "FILE", NULL,
	    "the file that declares the targets (default: the\n"
	    "nearest fluid.targets.yaml or fluid.workspace.yaml\n"
	    "at or above FILE's directory)" },
	{ OPT_BUILD, "build", 0, "ID", NULL,
	    "the managed build (needed when there are several)" },
	{ OPT_TIMEOUT, "timeout", 0, "S", NULL,
	    "seconds the whole apply may take: every request,\n"
	    "poll and result page (default 300)" },
	{ OPT_DRY_RUN, "dry-run", 0, NULL, NULL,
	    "print the statements it would send; contact nothing" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(""),
	CLI_OPT_END
};

const struct cli_spec gateway_spec = {
	"fluid-gateway", gateway_cmds, gateway_opts,
	"Exit status: 0 applied, 1 refused (by the allowlist, or a\n"
	"statement by Flink), 2 usage or environment error (the gateway\n"
	"unreachable, a timeout, interrupted).  See fluid-gateway(1).\n"
};

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
gateway_apply(int argc, char *argv[], const struct cli_spec *spec)
{
	struct cli cli;
	const char *name = NULL, *tfile = NULL, *build = NULL, *file;
	const struct target *tg;
	struct gw_opts go;
	struct gw_script sc;
	struct targets ts;
	struct allow al;
	struct diags d;
	char *sql, *where, *dir, *found = NULL, *why, *label, *text;
	char *shown_where, *shown_name, *shown_gw;
	const char *swhy;
	size_t i, line;
	int c, dry = 0, st, ok;

	memset(&go, 0, sizeof(go));
	cli_init(&cli, spec, "apply");
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_TARGET:
			name = optarg;
			break;
		case OPT_TARGETS:
			tfile = optarg;
			break;
		case OPT_BUILD:
			build = optarg;
			break;
		case OPT_TIMEOUT:
			go.timeout_ms = cli_seconds(&cli, c, optarg, 1,
			    86400) * 1000;
			break;
		case OPT_DRY_RUN:
			dry = 1;
			break;
		default:
			cli_usage_error(&cli, "--%s does not go with --target",
			    cli_opt_name(&cli, c));
		}
	}
	if (optind != argc - 1)
		cli_usage_error(&cli, "apply expects one FILE: a contract or "
		    "a .sql script");
	file = argv[optind];

	/* The target first: a wrong name is found before any work. */
	diags_init(&d);
	if (tfile == NULL) {
		dir = gateway_file_dir(file);
		if ((found = target_find_file(dir)) == NULL)
			fl_fatal("no %s or %s with targets at or above %s: "
			    "declare one, or name it with --targets",
			    TARGET_FILE, RESOLVE_WORKSPACE_FILE, dir);
		free(dir);
		found = gateway_shorter(found);
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

	sql = gateway_load_script(file, build, cli.diagfmt, &where);
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
