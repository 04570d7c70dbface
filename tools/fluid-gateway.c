/*
 * SPDX-License-Identifier: Apache-2.0
 *
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
	struct cli cli;
	int st;

	cli_start(argv[0]);
	cli_init(&cli, &gateway_spec, NULL);
	/* Before anything starts OpenSSL (net.h). */
	if (net_init() == -1)
		fl_fatal("cannot initialise libcurl");
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0))
		cli_help_exit(&cli);
	if (argc >= 2 && strcmp(argv[1], "--version") == 0)
		cli_version_exit();
	if (argc < 2 || strcmp(argv[1], "apply") != 0)
		cli_usage_error(&cli, "expects a command: apply%s", argc < 2 ?
		    "" : cli_cmd_hint(&gateway_spec, NULL, argv[1]));
	st = gateway_apply(argc - 1, argv + 1, &gateway_spec);
	net_cleanup();
	return st;
}
