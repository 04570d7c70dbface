/*
 * pipeline.h - the stages of a pipeline run one after another inside one
 * process, for the fluid driver.
 *
 * Each stage here is what the main() of its fluid-* program does once
 * the options are read: the same library calls, the same diagnostics
 * under the stage's own name (fluid-resolve: ..., fluid-check: ...),
 * the same exit status.  Between two stages the document travels as
 * the bytes the program would have written to its standard output
 * (ir_write()) and the next one would have read (ir_read()), only in
 * memory: so the driver behaves as if it ran the programs, without the
 * cost of starting them (loading their libraries took most of a stage's
 * time on a small contract).
 *
 * A stage that meets an environment error (an unreadable file, no
 * memory) exits the process with status 2, as the program would have,
 * after printing its one line.
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

#endif
