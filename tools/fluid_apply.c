/*
 * fluid_apply.c - fluid apply PLAN --mode M [--yes] [--wait S], a
 * command of the driver (fluid.c): options, the plan read, and the exit
 * status.  What apply checks and writes is lib/kube_apply.c's (the same
 * as fluid-k8s apply's); --target goes to a SQL Gateway instead
 * (fluid_gateway.c).
 */
#include <stdlib.h>
#include <string.h>
#include <getopt.h>

#include "fluid.h"
#include "kube_apply.h"
#include "net.h"
#include "cli.h"
#include "apply_cli.h"
#include "fluid_cmd.h"
#include "fluid_gateway.h"

int
cmd_apply(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "mode", required_argument, NULL, 'm' },
		{ "yes", no_argument, NULL, 'y' },
		{ "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { fluid_usage, DIAG_FORMAT_TEXT };
	const char *modestr = NULL, *path;
	enum k8s_mode mode;
	FILE *fp;
	size_t i;
	int c, idx, yes = 0, st, wait_s = KUBE_APPLY_WAIT_S;

	/* --target: through a SQL Gateway (fluid-gateway(1)), not kubectl. */
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--target") == 0 ||
		    strncmp(argv[i], "--target=", 9) == 0) {
			if (net_init() == -1)
				fl_fatal("cannot initialise libcurl");
			return gateway_apply(argc, argv, fluid_usage);
		}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		switch (c) {
		case 'D':
			cli_common(&cli, "diagnostics", optarg);
			break;
		case 'm':
			modestr = optarg;
			break;
		case 'y':
			yes = 1;
			break;
		case 'w':
			wait_s = apply_wait(&cli, optarg);
			break;
		case 'h':
			cli_common(&cli, "help", NULL);
			break;
		default:
			cli_bad_option(&cli, argv, c);
		}
	}
	if (optind != argc - 1)
		cli_usage_error(&cli, "apply expects one PLAN");
	path = argv[optind];
	if (apply_mode(&cli, modestr, &mode) == -1)
		return EXIT_REFUSED;
	if ((fp = fopen(path, "r")) == NULL)
		fl_fatal("cannot read '%s':", path);
	st = apply_plan_file(fp, path, mode, yes, wait_s, cli.diagfmt);
	fclose(fp);
	c = flush_stdout();
	return st != 0 ? st : c;
}
