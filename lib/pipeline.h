/*
 * pipeline.h - the stages: what each fluid-* program does to the
 * document (stage_*(), which the programs call), and the stages run one
 * after another inside one process, for the fluid driver.
 *
 * pipeline_run() calls the same stage_*() as the programs: the same
 * library calls, the same diagnostics
 * under the stage's own name (fluid-resolve: ..., fluid-check: ...),
 * the same exit status.  Between two stages the document travels as a
 * tree: the program would write it (ir_write()) and the next one parse
 * it back (ir_read()) into the same tree, so the driver skips both and
 * behaves as if it ran the programs, without the cost of starting them
 * or of that round trip.
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

struct cli;

/*
 * What each stage does to the document, once its options are read: the
 * stage programs (tools/fluid-*.c) and pipeline_run() both call these,
 * so the two cannot drift apart.
 */
/* fluid-resolve's option rules: a usage error (exit 2) if broken. */
void	 stage_resolve_opts(struct cli *, const struct resolve_opts *);
/* A new document with the resolve section, or NULL (errors in d). */
json_t	*stage_resolve(const struct resolve_opts *, struct diags *d);
/* Add the check section to doc; it (borrowed), or NULL (errors in d). */
json_t	*stage_check(json_t *doc, struct diags *d);
/*
 * The sqlgen section's "builds": {build, digest, sql} for each build of
 * the check section (only the one called want, when not NULL).
 */
json_t	*stage_sqlgen_builds(json_t *doc, const char *want, struct diags *d);

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
