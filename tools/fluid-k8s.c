/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-k8s - the Kubernetes side of a managed build.
 *
 * fluid-k8s render is a filter: fluid-sqlgen's document in, the same
 * document with the "k8s" section out (an immutable ConfigMap and a
 * FlinkDeployment per build, lib/k8s_render.c); with --resources, only
 * the resources, as a kubectl List.  It contacts nothing: the resources
 * come from the document alone (lib/k8s.h).  fluid-k8s plan turns that
 * document into the plan fluid plan writes (lib/stage_plan.c), offline;
 * fluid-k8s apply checks a plan and writes it through kubectl
 * (lib/kube_apply.c), as fluid apply does.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "jget.h"
#include "cli.h"
#include "ir_prune.h"
#include "apply_cli.h"
#include "kube_apply.h"
#include "kube_record.h"

enum { OPT_RESOURCES = 0x100, OPT_YAML, OPT_MODE, OPT_YES, OPT_WAIT };

static const struct cli_cmd cmds[] = {
	{ "render", "render [--resources [--yaml]] [--diagnostics=text|json]\n"
	    "    < SQLGEN\n",
	    "the Kubernetes resources of every managed build of a contract\n"
	    "(the output of fluid-sqlgen): an immutable ConfigMap with the\n"
	    "build's SQL script and table file, and a FlinkDeployment that\n"
	    "runs it\n" },
	{ "plan", "plan --mode MODE [--diagnostics=text|json] < RENDERED\n",
	    "the plan of the output of fluid-k8s render (what fluid plan\n"
	    "writes), bound to the contract it carries; offline\n" },
	{ "apply", "apply --mode MODE [--yes] [--wait S]\n"
	    "    [--diagnostics=text|json] < PLAN\n",
	    "render the plan's contract again, refuse any difference, check\n"
	    "the allowlists on the resources it writes, then write them\n"
	    "through kubectl (--yes), or list them (dry-run, which contacts\n"
	    "nothing)\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	{ OPT_RESOURCES, "resources", 0, NULL, "render",
	    "print only the resources, as a kubectl List (JSON)" },
	{ OPT_YAML, "yaml", 0, NULL, "render",
	    "with --resources: print them as YAML" },
	{ OPT_MODE, "mode", 0, "MODE", "plan apply",
	    "amend, amend-and-build, create-only or dry-run" },
	{ OPT_YES, "yes", 0, NULL, "apply", "write to the cluster" },
	{ OPT_WAIT, "wait", 0, "S", "apply",
	    "seconds to wait for the operator to take the\n"
	    "change (default 60; 0: do not wait)" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-k8s", cmds, opts,
	"Exit status: 0 written, 1 refused, 2 usage or environment error.\n" };

/* The List, as JSON or YAML, on standard output. */
static int
print_resources(const json_t *section, int yaml)
{
	json_t *list = k8s_list(section);
	struct sb y;
	char *text;
	int st = EXIT_OK;

	sb_init(&y);
	if (yaml) {
		if (yemit(list, &y) == -1)
			fl_fatal("cannot write the resources as YAML");
	} else {
		if ((text = jtext(list, 0)) == NULL)
			fl_fatal("cannot write the resources as JSON");
		sb_adds(&y, text);
		free(text);
	}
	json_decref(list);
	if (fwrite(y.buf, 1, y.len, stdout) != y.len || fflush(stdout) == EOF ||
	    ferror(stdout)) {
		cli_write_failed();
		st = EXIT_USAGE;
	}
	sb_release(&y);
	return st;
}

/* fluid-k8s plan --mode M < RENDERED: the plan on standard output. */
static int
cmd_plan(const struct cli *cli, enum k8s_mode mode)
{
	static const char *const sections[] = { "resolve", "check", "k8s",
	    NULL };
	struct diags d;
	struct ir *in;
	json_t *plan;
	char *text;
	int status;

	diags_init(&d);
	if ((in = ir_read_pruned(stdin, "k8s", sections,
	    ir_prune_check_bulk, &d)) == NULL) {
		diag_print(&d, stderr, cli->diagfmt, fl_progname());
		status = diag_status(&d);
		diags_release(&d);
		return status;
	}
	plan = stage_plan(ir_doc(in), mode, NULL, kube_record_make, &d);
	diag_print(&d, stderr, cli->diagfmt, fl_progname());
	status = diag_status(&d);
	diags_release(&d);
	if (plan != NULL && status == EXIT_OK) {
		if ((text = jtext(plan, 0)) == NULL)
			fl_fatal("cannot write the plan as JSON");
		if (fputs(text, stdout) == EOF || fflush(stdout) == EOF ||
		    ferror(stdout)) {
			cli_write_failed();
			status = EXIT_USAGE;
		}
		free(text);
	}
	json_decref(plan);
	ir_keep_to_end(json_incref(ir_doc(in)));
	ir_free(in);
	return status;
}

int
main(int argc, char *argv[])
{
	static const char *const sections[] = { "resolve", "check", "sqlgen",
	    NULL };
	struct cli cli;
	struct diags d;
	struct ir *in;
	enum k8s_mode mode;
	const char *modestr = NULL, *cmd;
	json_t *doc, *section;
	int c, status, resources = 0, yaml = 0, yes = 0;
	int wait_s = KUBE_APPLY_WAIT_S, waited = 0;

	cli_start(argv[0]);
	/*
	 * The command is the first operand; --help after it describes it
	 * alone, and its options are checked against the table as read.
	 */
	for (c = 1; c < argc && argv[c][0] == '-'; c++)
		;
	cli_init(&cli, &spec, c < argc && cli_find_cmd(&spec, argc, argv, c) ?
	    argv[c] : NULL);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_RESOURCES:
			resources = 1;
			break;
		case OPT_YAML:
			yaml = 1;
			break;
		case OPT_MODE:
			modestr = optarg;
			break;
		case OPT_YES:
			yes = 1;
			break;
		case OPT_WAIT:
			wait_s = (int)cli_seconds(&cli, c, optarg, 0,
			    KUBE_APPLY_WAIT_MAX_S);
			waited = 1;
			break;
		}
	}
	if (optind == argc)
		cli_usage_error(&cli, "expects a command: render, plan or "
		    "apply");
	cmd = argv[optind];
	if (strcmp(cmd, "render") != 0 && strcmp(cmd, "plan") != 0 &&
	    strcmp(cmd, "apply") != 0)
		cli_usage_error(&cli, "unknown command '%s'%s", cmd,
		    cli_cmd_hint(cli.spec, NULL, cmd));
	if (optind + 1 != argc)
		cli_usage_error(&cli, "%s reads standard input; no FILE", cmd);
	if (yaml && !resources)
		cli_usage_error(&cli, "--yaml goes with --resources");
	/* Options before the command: checked against it now. */
	cli.cmd = cmd;
	if (resources)
		cli_check_for(&cli, OPT_RESOURCES);
	if (modestr != NULL)
		cli_check_for(&cli, OPT_MODE);
	if (yes)
		cli_check_for(&cli, OPT_YES);
	if (waited)
		cli_check_for(&cli, OPT_WAIT);
	if (strcmp(cmd, "render") != 0) {
		if (modestr == NULL)
			cli_usage_error(&cli, "%s needs --mode: amend, "
			    "amend-and-build, create-only or dry-run", cmd);
		if (apply_mode(&cli, modestr, &mode) == -1)
			return EXIT_REFUSED;
		if (strcmp(cmd, "plan") == 0)
			return cmd_plan(&cli, mode);
		status = apply_plan_file(stdin, "<stdin>", mode, yes, wait_s,
		    cli.diagfmt);
		if (fflush(stdout) == EOF || ferror(stdout)) {
			cli_write_failed();
			return status != 0 ? status : EXIT_USAGE;
		}
		return status;
	}

	diags_init(&d);
	if ((in = ir_read_pruned(stdin, "sqlgen", sections,
	    ir_prune_check_bulk, &d)) == NULL) {
		diag_print(&d, stderr, cli.diagfmt, fl_progname());
		status = diag_status(&d);
		diags_release(&d);
		return status;
	}
	doc = ir_doc(in);
	section = stage_k8s(doc, &d);
	if (resources) {
		diag_print(&d, stderr, cli.diagfmt, fl_progname());
		status = diag_status(&d);
		if (status == EXIT_OK)
			status = print_resources(section, yaml);
	} else
		status = cli_finish(&cli, &d, in);
	ir_keep_to_end(json_incref(doc));
	ir_free(in);
	diags_release(&d);
	return status;
}
