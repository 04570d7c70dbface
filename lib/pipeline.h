/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pipeline.h - the stages run one after another inside one process, for
 * the fluid driver.
 *
 * pipeline_run() calls the same stage_*() (stage.h) as the programs: the same
 * library calls, the same diagnostics
 * under the stage's own name (fluid-resolve: ..., fluid-check: ...),
 * the same exit status.  Between two stages the document travels as a
 * tree: the program would write it (ir_write()) and the next one parse
 * it back (ir_read()) into the same tree, so the driver skips both and
 * behaves as if it ran the programs, without the cost of starting them
 * or of that round trip.
 *
 * A stage that meets an environment error (an unreadable file) prints
 * its one line and pipeline_run() returns EXIT_USAGE, the status the
 * program would have exited with; nothing exits.
 */
#ifndef FLUID_PIPELINE_H
#define FLUID_PIPELINE_H

#include <jansson.h>

#include "diag.h"
#include "resolve.h"

enum pipeline_last {
	PIPELINE_RESOLVE,	/* fluid-resolve */
	PIPELINE_CHECK,		/* fluid-resolve | fluid-check */
	PIPELINE_SQLGEN		/* ... | fluid-sqlgen */
};

/*
 * Run fluid-resolve with ro (and --diagnostics=fmt), then each stage
 * up to last.  Returns the first non-zero status, or 0; on 0, when doc
 * is not NULL, *doc is the document the last stage would have written
 * (a new reference; not written and read back, the driver only reads
 * it).  Sets the program name (see fl_setprogname()) to each stage's
 * while it runs, and back to progname after.
 */
int	pipeline_run(const struct resolve_opts *ro, enum diag_format fmt,
	    enum pipeline_last last, json_t **doc, const char *progname);
/*
 * --strict: from now on every stage's warnings are errors (diags_strict()),
 * so that a run that would warn is refused, status 1.
 */
void	pipeline_strict(int on);

#endif
