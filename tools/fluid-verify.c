/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid-verify - the evidence that each managed build's stream is live,
 * as a filter: the document after fluid-k8s render in, the same
 * document with a "verify" section (the report fluid verify --out
 * writes) out.  The work is lib/stage_verify.c's; this file reads the
 * options, the document and the environment, and picks the exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fluid.h"
#include "cli.h"
#include "ir_prune.h"
#include "net.h"
#include "verify.h"

static const struct cli_cmd cmds[] = {
	{ NULL, "[--strict] [--streaming-timeout SECONDS]\n"
	    "    [--diagnostics=text|json] < RENDERED\n",
	    "Gather the evidence that each managed build of a contract is live (the\n"
	    "output of fluid-k8s render): the Iceberg table's schema and a young\n"
	    "enough snapshot from the REST catalog, the FlinkDeployment's status\n"
	    "from the operator, and a recent checkpoint through the Kubernetes\n"
	    "service proxy.  Writes the document with a \"verify\" section, the\n"
	    "report, pass or fail.\n" },
	{ NULL, NULL, NULL }
};

static const struct cli_opt opts[] = {
	{ 'S', "strict", 0, NULL, NULL,
	    "the deployment and checkpoint are required" },
	{ 't', "streaming-timeout", 0, "S", NULL,
	    "read again until S seconds (default 120;\n"
	    "0: read once)" },
	CLI_OPT_DIAGNOSTICS(NULL),
	CLI_OPT_HELP(NULL),
	CLI_OPT_VERSION(NULL),
	CLI_OPT_END
};

static const struct cli_spec spec = { "fluid-verify", cmds, opts,
	"fluid verify CONTRACT [--out DELIVERY] runs the same stages in one process\n"
	"and writes the report alone.\n"
	"\n"
	"Exit status: 0 every required piece passed, 1 refused or failed,\n"
	"2 usage or environment error.\n" };

int
main(int argc, char *argv[])
{
	static const char *const sections[] = { "resolve", "check", NULL };
	struct cli cli;
	struct verify_opts vo;
	struct net_opts no;
	struct diags d;
	struct ir *in;
	json_t *report;
	int c, status, tty;

	cli_start(argv[0]);
	memset(&vo, 0, sizeof(vo));
	memset(&no, 0, sizeof(no));
	vo.timeout_s = 120;
	cli_init(&cli, &spec, NULL);
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case 'S':
			vo.strict = true;
			break;
		case 't':
			vo.timeout_s = cli_seconds(&cli, c, optarg, 0, 86400);
			break;
		}
	}
	if (optind != argc)
		cli_usage_error(&cli, "reads standard input; no FILE");
	/* Before anything starts OpenSSL (see fluid_verify.c). */
	if (net_init() == -1)
		fl_fatal("cannot initialise libcurl");
	diags_init(&d);
	if ((in = ir_read_pruned(stdin, "k8s", sections,
	    ir_prune_check_bulk, &d)) == NULL) {
		diag_fatal(&d, "fluid-verify reads the output of fluid-k8s "
		    "render: fluid-resolve C | fluid-check | fluid-sqlgen | "
		    "fluid-k8s render | fluid-verify");
		diag_print(&d, stderr, cli.diagfmt, fl_progname());
		status = diag_status(&d);
		diags_release(&d);
		return status;
	}
	if (verify_env(&vo, &no, getenv, &d) == 0) {
		tty = isatty(STDERR_FILENO);
		vo.progress = cli_progress;
		vo.arg = &tty;
		report = stage_verify(ir_doc(in), &vo, &d);
	} else
		report = NULL;
	net_cleanup();
	diag_print(&d, stderr, cli.diagfmt, fl_progname());
	status = diag_status(&d);
	/* The report is written whether the evidence passed or not. */
	if (report != NULL && status != EXIT_USAGE &&
	    ir_write(stdout, in, &d) == -1) {
		fprintf(stderr, "%s: %s\n", fl_progname(), d.v[d.n - 1].msg);
		status = diag_status(&d);
	}
	ir_keep_to_end(json_incref(ir_doc(in)));
	ir_free(in);
	diags_release(&d);
	return status;
}
