/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check.h - every static rule of the managed Flink -> Iceberg lane.
 *
 * check_run() reads the resolve section of a pipeline document and
 * returns the check section: the typed IR that later stages consume
 * without deriving anything again (see fluid-ir(5)).  Every refusal is
 * added to the diagnostics, all of them in one run; the IR is returned
 * only when there is no error.
 */
#ifndef FLUID_CHECK_H
#define FLUID_CHECK_H

#include <jansson.h>

#include "diag.h"

/* The one schema version of the managed lane, and the stable one. */
#define CHECK_MANAGED_VERSION	"0.7.7"
#define CHECK_STABLE_VERSION	"0.7.6"

/* Returns the new check section, or NULL when an error was added. */
json_t	*check_run(json_t *resolve_section, struct diags *);

#endif
