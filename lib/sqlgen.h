/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen.h - one Flink 1.20 SQL script per managed build, from the IR.
 *
 * The script is what the in-pod runner, Flink's SQL client or a SQL
 * Gateway executes: SET lines for the job, the Iceberg REST catalog, the
 * namespace and table (CREATE ... IF NOT EXISTS), the Kafka source as the
 * temporary table source_events, and one INSERT INTO the table that
 * reads nothing but source_events.  Every identifier and literal goes
 * through sqlq.h.  The same IR gives the same bytes.
 */
#ifndef FLUID_SQLGEN_H
#define FLUID_SQLGEN_H

#include <jansson.h>

#include "diag.h"

/* The catalog name the script registers the REST catalog under. */
#define SQLGEN_CATALOG	"fluid_iceberg"

/*
 * Write the script for one build of the check section.  Returns the
 * script (caller frees), or NULL after adding an error to d: the IR
 * holds something no quoting can make safe, which fluid-check should
 * have refused.
 */
char	*sqlgen_build(const json_t *build, struct diags *d);

#endif
