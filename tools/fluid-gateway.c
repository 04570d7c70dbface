/*
 * fluid-gateway - apply a build's Flink SQL through a Flink SQL
 * Gateway (fluid-gateway(1)).  main() only starts and dispatches: the
 * work is gateway_apply() (fluid_gateway.c), which fluid apply --target
 * runs too.
 */
#include <stdio.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"
#include "net.h"
#include "fluid_gateway.h"

int
main(int argc, char *argv[])
{
	struct cli cli = { gateway_usage, DIAG_FORMAT_TEXT };
	int st;

	cli_start(argv[0]);
	/* Before anything starts OpenSSL (net.h). */
	if (net_init() == -1)
		fl_fatal("cannot initialise libcurl");
	if (argc >= 2 && argv[1][0] == '-' && argv[1][1] == '-' &&
	    (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "--version") == 0))
		cli_common(&cli, argv[1] + 2, NULL);
	if (argc < 2 || strcmp(argv[1], "apply") != 0)
		cli_usage_error(&cli, "expects a command: apply");
	cli_help_for("fluid-gateway", "apply");
	st = gateway_apply(argc - 1, argv + 1, gateway_usage);
	net_cleanup();
	return st;
}
