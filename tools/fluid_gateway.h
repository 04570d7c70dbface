/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_gateway.h - apply through a Flink SQL Gateway, shared by
 * fluid-gateway(1) (its main) and fluid apply --target (fluid_apply.c).
 */
#ifndef FLUID_FLUID_GATEWAY_H
#define FLUID_FLUID_GATEWAY_H

#include "cli.h"

/* fluid-gateway's command and options (fluid apply --target: fluid's). */
extern const struct cli_spec gateway_spec;

/*
 * The options and FILE of an apply (argv[0] is the command's name, as
 * getopt expects), as spec's command "apply" takes them, then
 * everything it does; returns the exit status.  net_init() must have
 * run.
 */
int	gateway_apply(int argc, char *argv[], const struct cli_spec *spec);

/*
 * gateway_load.c: the directory FILE is in, as a real path (the search
 * for the targets file starts there); path (freed) relative to the
 * working directory when below it; the script FILE names (a new
 * string, *where its name in messages).  Failures exit.
 */
char	*gateway_file_dir(const char *file);
char	*gateway_shorter(char *path);
char	*gateway_load_script(const char *file, const char *build,
	    enum diag_format fmt, char **where);

#endif
