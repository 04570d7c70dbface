/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_apply.c - fluid apply PLAN --mode M [--yes] [--wait S], a
 * command of the driver (fluid.c): options, the plan read, and the exit
 * status.  What apply checks and writes is lib/kube_apply.c's (the same
 * as fluid-k8s apply's); --target goes to a SQL Gateway instead
 * (fluid_gateway.c).
 */
#include <stdlib.h>
#include <string.h>

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
	struct cli cli;
	const char *modestr = NULL, *path;
	enum k8s_mode mode;
	FILE *fp;
	size_t i;
	int c, yes = 0, st, wait_s = KUBE_APPLY_WAIT_S;

	/* --target: through a SQL Gateway (fluid-gateway(1)), not kubectl. */
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--target") == 0 ||
		    strncmp(argv[i], "--target=", 9) == 0) {
			if (net_init() == -1)
				fl_fatal("cannot initialise libcurl");
			return gateway_apply(argc, argv, &fluid_spec);
		}
	cli_init(&cli, &fluid_spec, "apply");
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_MODE:
			modestr = optarg;
			break;
		case OPT_YES:
			yes = 1;
			break;
		case OPT_WAIT:
			wait_s = (int)cli_seconds(&cli, c, optarg, 0,
			    KUBE_APPLY_WAIT_MAX_S);
			break;
		default:
			cli_usage_error(&cli, "--%s goes with --target",
			    cli_opt_name(&cli, c));
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
	c = cli_flush();
	return st != 0 ? st : c;
}
