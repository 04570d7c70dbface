/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_diff.c - fluid diff, a command of the driver (fluid.c) in a file
 * of its own: options, I/O and the exit status.  The work is the
 * library's: the change review is stage_diff() (lib/stage_diff.c), the
 * drift kube_drift_run() (lib/kube_drift.c), the same functions
 * fluid-diff(1) calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fluid.h"
#include "jget.h"
#include "git.h"
#include "kube_drift.h"
#include "cli.h"
#include "fluid_cmd.h"

/* The answer (stolen) as JSON on standard output, or FILE written whole. */
static int
diff_write(json_t *res, const char *out)
{
	char *text;
	int st;

	if (res == NULL || (text = jtext(res, 0)) == NULL)
		fl_fatal("cannot write the answer as JSON");
	json_decref(res);
	st = cli_write_out(out, text, strlen(text));
	free(text);
	return st;
}

/* fluid diff CONTRACT --exit-on-drift [--out FILE]: the status. */
static int
diff_drift(const char *contract, const char *out, enum diag_format fmt)
{
	struct resolve_opts ro;
	struct diags d;
	json_t *doc, *res;
	int st, drift;

	memset(&ro, 0, sizeof(ro));
	ro.path = input_path(contract);
	if ((st = cli_stages(&ro, fmt, STAGE_K8S, "diff --exit-on-drift",
	    &doc)) != 0)
		return st;
	warn_dotenv(".env");
	diags_init(&d);
	res = kube_drift_run(doc, contract, contract, getenv, &d);
	diag_print(&d, stderr, fmt, "fluid");
	st = diag_status(&d);
	diags_release(&d);
	/* One build without an answer is no answer: nothing printed. */
	if (res == NULL)
		return st != 0 ? st : EXIT_USAGE;
	drift = json_integer_value(json_object_get(json_object_get(res,
	    "counts"), "drift")) > 0;
	st = diff_write(res, out);
	return st == 0 && drift ? EXIT_REFUSED : st;
}

/*
 * --baseline-rev REV: the checked document of contract as it is at git
 * revision REV, its fragments and workspace file too (git.h), or NULL
 * after printing why; *name (new) is what the answer calls it, left
 * NULL when git gave no revision to read.
 */
static json_t *
baseline_at(const char *contract, const char *rev, enum diag_format fmt,
    char **name)
{
	struct validate_result res;
	struct resolve_opts ro;
	struct git_rev g;
	struct diags d;
	json_t *old = NULL;

	diags_init(&d);
	if (git_rev_open(&g, rev, &d) == -1) {
		diag_print(&d, stderr, fmt, "fluid");
		diags_release(&d);
		return NULL;
	}
	diags_release(&d);
	memset(&ro, 0, sizeof(ro));
	ro.path = contract;
	*name = xasprintf("%s%s", g.label, contract);
	if (validate_file(&ro, &g.src, contract, 1, "fluid", &res) == 0)
		ir_keep_to_end(old = json_incref(res.doc));	/* as cli_stages() */
	validate_print(&res, stderr, fmt);
	validate_release(&res);
	git_rev_close(&g);
	return old;
}

/*
 * fluid diff CONTRACT --baseline OLD | --baseline-rev REV
 * [--exit-on-breaking] [--out FILE].
 */
static int
diff_baseline(const char *contract, const char *baseline, const char *rev,
    int on_breaking, int report, const char *out, enum diag_format fmt)
{
	struct resolve_opts ro;
	json_t *old, *cur, *res;
	char *name = NULL;
	struct sb sum;
	int st, wst;

	memset(&ro, 0, sizeof(ro));
	/* The baseline goes first: one that does not validate is no answer. */
	if (rev != NULL)
		old = baseline_at(contract, rev, fmt, &name);
	else {
		ro.path = input_path(baseline);
		if (cli_stages(&ro, fmt, STAGE_CHECK, NULL, &old) != 0)
			old = NULL;
	}
	if (old == NULL && rev != NULL && name == NULL)
		return EXIT_USAGE;	/* no revision: said why */
	if (old == NULL) {
		fl_warnx("baseline '%s' does not validate: nothing compared",
		    name != NULL ? name : baseline != NULL ? baseline :
		    contract);
		free(name);
		return EXIT_USAGE;
	}
	if (name != NULL)
		baseline = name;	/* freed once the answer is made */
	ro.path = input_path(contract);
	if ((st = cli_stages(&ro, fmt, STAGE_CHECK, NULL, &cur)) != 0) {
		free(name);
		return st;
	}
	res = json_incref(stage_diff(cur, old, contract, baseline));
	free(name);	/* the answer holds its copy */
	/*
	 * --report: the summary is the output, on a terminal or not (a CI
	 * log, a pull-request comment); the JSON answer only to --out.
	 */
	if (report || isatty(STDERR_FILENO)) {
		sb_init(&sum);
		diff_summary(json_object_get(res, "changes"), &sum);
		fputs(sum.buf, report ? stdout : stderr);
		sb_release(&sum);
	}
	st = on_breaking && json_integer_value(json_object_get(
	    json_object_get(res, "counts"), "breaking")) > 0 ?
	    EXIT_REFUSED : EXIT_OK;
	if (report && out == NULL) {
		json_decref(res);
		wst = cli_flush();
	} else
		wst = diff_write(res, out);
	return wst != 0 ? wst : st;
}

/*
 * fluid diff: both contracts resolved and checked here, one after the
 * other, and compared; or, with --exit-on-drift, the cluster against
 * the record.  The two modes do not mix.
 */
int
cmd_diff(int argc, char *argv[])
{
	struct cli cli;
	const char *baseline = NULL, *rev = NULL, *out = NULL;
	int c, on_breaking = 0, on_drift = 0, report = 0;

	cli_init(&cli, &fluid_spec, "diff");
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_BASELINE:
			baseline = optarg;
			break;
		case OPT_BASELINE_REV:
			rev = optarg;
			break;
		case OPT_EXIT_ON_BREAKING:
			on_breaking = 1;
			break;
		case OPT_EXIT_ON_DRIFT:
			on_drift = 1;
			break;
		case OPT_REPORT:
			report = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'q':
			cli_quiet = 1;
			break;
		}
	}
	if (optind != argc - 1)
		cli_usage_error(&cli, "diff expects one FILE");
	if (on_drift && (baseline != NULL || rev != NULL || on_breaking))
		cli_usage_error(&cli, "--exit-on-drift compares the cluster "
		    "with the contract: not with --baseline or "
		    "--exit-on-breaking");
	if (on_drift && report)
		cli_usage_error(&cli, "--report summarizes the changes from a "
		    "baseline: not with --exit-on-drift");
	if (on_drift)
		return diff_drift(argv[optind], out, cli.diagfmt);
	if (baseline != NULL && rev != NULL)
		cli_usage_error(&cli, "--baseline OLD and --baseline-rev REV "
		    "both name the baseline: give one");
	if (rev != NULL && strcmp(argv[optind], "-") == 0)
		cli_usage_error(&cli, "--baseline-rev reads FILE at REV by "
		    "its path: not standard input");
	if (rev != NULL)
		return diff_baseline(argv[optind], NULL, rev, on_breaking,
		    report, out, cli.diagfmt);
	if (baseline == NULL)
		cli_usage_error(&cli, "diff needs --baseline OLD or "
		    "--baseline-rev REV, the contract to compare with");
	if (strcmp(baseline, "-") == 0 && strcmp(argv[optind], "-") == 0)
		cli_usage_error(&cli, "standard input can be read once: give "
		    "the baseline or the contract as a file");
	return diff_baseline(argv[optind], baseline, NULL, on_breaking, report,
	    out, cli.diagfmt);
}
