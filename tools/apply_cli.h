/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * apply_cli.h - the apply commands' shared tool code (apply_cli.c).
 */
#ifndef FLUID_APPLY_CLI_H
#define FLUID_APPLY_CLI_H

#include <stdio.h>

#include "cli.h"
#include "k8s.h"

/*
 * --mode: 0 and *mode, or -1 after saying that replace and reset are
 * refused (the caller exits 1); anything else is a usage error (exit).
 */
int	apply_mode(const struct cli *, const char *modestr, enum k8s_mode *);
/*
 * Read the plan from fp (named path in messages) and apply it
 * (kube_apply_run()) with the operator's allowlists; diagnostics
 * printed in fmt.  Returns the exit status.
 */
int	apply_plan_file(FILE *fp, const char *path, enum k8s_mode mode,
	    int yes, int wait_s, enum diag_format fmt);
/*
 * A project's .env at path may not set the operator allowlists: warn of
 * each line that tries to (they are read from the environment only).
 */
void	warn_dotenv(const char *path);

#endif
