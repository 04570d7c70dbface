/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-diff - the change review and drift, as filters.
 *
 * fluid-diff --baseline BASELINE < CHECKED: both documents after
 * fluid-check; writes the document with the "diff" section,
 * stage_diff() (lib/stage_diff.c).  fluid-diff --live < RENDERED: the
 * document after fluid-k8s render; reads the cluster through kubectl
 * (lib/kube_drift.c) and writes the document with the "drift" section.
 * With --report, only the section, as fluid diff prints it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fluid.h"
#include "jget.h"
#include "kube_drift.h"
#include "cli.h"

enum { OPT_BASELINE = 0x100, OPT_EXIT_ON_BREAKING, OPT_LIVE,
    OPT_EXIT_ON_DRIFT, OPT_REPORT, OPT_SUMMARY };

static const struct cli_cmd cmds[] = {
	{ NULL, "--baseline BASELINE [--exit-on-breaking] [--report | --summary]\n"
	    "    [--diagnostics=text|json] < CHECKED\n"
	    "--live [--exit-on-drift] [--report]\n"
	    "    [--diagnostics=text|json] < RENDERED\n",
	    "With --baseline, every change from the contract of BASELINE (a file the\n"
	    "output of fluid-check wrote, or <(...)) to the contract on standard input\n"
	    "(the output of fluid-check), with its severity: writes the document with\n"
	    "a \"diff\" section.  With --live, each build's live FlinkDeployment and\n"
	    "ConfigMap against what fluid apply recorded, through kubectl (the output\n"
	    "of fluid-k8s render in): clean, pending or drift; writes the document\n"
	    "with a \"drift\" section.\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	{ OPT_BASELINE, "baseline", 0, "BASELINE", NULL,
	    "the checked document to compare with" },
	{ OPT_EXIT_ON_BREAKING, "exit-on-breaking", 0, NULL, NULL,
	    "with --baseline: exit 1 when a change is breaking" },
	{ OPT_LIVE, "live", 0, NULL, NULL,
	    "compare the cluster with the last-applied record" },
	{ OPT_EXIT_ON_DRIFT, "exit-on-drift", 0, NULL, NULL,
	    "with --live: exit 1 when a build drifted" },
	{ OPT_REPORT, "report", 0, NULL, NULL,
	    "print only the section, as fluid diff prints it" },
	{ OPT_SUMMARY, "summary", 0, NULL, NULL,
	    "with --baseline: print the summary for a person,\n"
	    "as fluid diff --report does" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-diff", cmds, opts,
	"Exit status: 0 written, 1 refused (a breaking change or drift, with\n"
	"--exit-on-breaking or --exit-on-drift; a deployment target not allowed),\n"
	"2 usage or environment error (no drift answer).\n" };

/* The baseline document, read from path, or NULL (fatal in d). */
static struct ir *
read_baseline(const char *path, struct diags *d)
{
	struct diags bd;
	struct ir *base;
	FILE *fp;
	size_t i;

	if ((fp = fopen(path, "r")) == NULL) {
		diag_fatal(d, "cannot read baseline '%s':", path);
		return NULL;
	}
	diags_init(&bd);
	/* ir_read() speaks of standard input: say which file it was. */
	if ((base = ir_read(fp, "check", NULL, &bd)) == NULL)
		for (i = 0; i < bd.n; i++)
			diag_fatal(d, "baseline '%s': %s", path, bd.v[i].msg);
	diags_release(&bd);
	fclose(fp);
	return base;
}

/* The section alone on standard output, as fluid diff prints it. */
static int
report(const json_t *section)
{
	char *text = jtext(section, 0);

	if (text == NULL)
		fl_fatal("cannot write the answer as JSON");
	fputs(text, stdout);
	free(text);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		cli_write_failed();
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int
main(int argc, char *argv[])
{
	struct cli cli;
	const char *baseline = NULL, *count, *name;
	int c, live = 0, on_breaking = 0, on_drift = 0, rep = 0, st, summ = 0;
	struct ir *in = NULL, *base = NULL;
	json_t *section = NULL;
	struct diags d;
	struct sb sum;

	cli_start(argv[0]);
	cli_init(&cli, &spec, NULL);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_BASELINE:
			baseline = optarg;
			break;
		case OPT_EXIT_ON_BREAKING:
			on_breaking = 1;
			break;
		case OPT_LIVE:
			live = 1;
			break;
		case OPT_EXIT_ON_DRIFT:
			on_drift = 1;
			break;
		case OPT_REPORT:
			rep = 1;
			break;
		case OPT_SUMMARY:
			summ = 1;
			break;
		}
	}
	if (optind != argc)
		cli_usage_error(&cli, "reads standard input; no FILE");
	if (live == (baseline != NULL))
		cli_usage_error(&cli, "needs --baseline BASELINE or --live, "
		    "not both");
	if (summ && (live || rep))
		cli_usage_error(&cli, "--summary goes with --baseline, "
		    "without --report");
	if ((on_breaking && live) || (on_drift && !live))
		cli_usage_error(&cli, "--exit-on-breaking goes with "
		    "--baseline, --exit-on-drift with --live");

	diags_init(&d);
	if (live) {
		if ((in = ir_read(stdin, "k8s", NULL, &d)) != NULL) {
			name = stage_diff_name(ir_doc(in));
			section = kube_drift_run(ir_doc(in), name ? name : "-",
			    name, getenv, &d);
		}
	} else if ((base = read_baseline(baseline, &d)) != NULL &&
	    (in = ir_read(stdin, "check", NULL, &d)) != NULL) {
		name = stage_diff_name(ir_doc(in));
		/* It adds the diff section; a reference for the report. */
		section = json_incref(stage_diff(ir_doc(in), ir_doc(base),
		    name ? name : "-", stage_diff_name(ir_doc(base)) ?
		    stage_diff_name(ir_doc(base)) : baseline));
		/* --summary: it is the output, on a terminal or not. */
		if (section != NULL && (summ || isatty(STDERR_FILENO))) {
			sb_init(&sum);
			diff_summary(json_object_get(section, "changes"), &sum);
			fputs(sum.buf, summ ? stdout : stderr);
			sb_release(&sum);
		}
	}
	count = live ? "drift" : "breaking";
	c = json_integer_value(json_object_get(json_object_get(section,
	    "counts"), count)) > 0 && (on_breaking || on_drift);
	if (section == NULL || rep || summ) {
		diag_print(&d, stderr, cli.diagfmt, fl_progname());
		st = diag_status(&d);
		if (st == EXIT_OK && section != NULL)
			st = summ ? cli_flush() : report(section);
		json_decref(section);
	} else {
		if (live)
			ir_add_stage(ir_doc(in), "drift", section);
		else
			json_decref(section);	/* stage_diff() added it */
		st = cli_finish(&cli, &d, in);
	}
	if (in != NULL)
		ir_keep_to_end(json_incref(ir_doc(in)));
	if (base != NULL)
		ir_keep_to_end(json_incref(ir_doc(base)));
	ir_free(in);
	ir_free(base);
	diags_release(&d);
	return st == EXIT_OK && c ? EXIT_REFUSED : st;
}
