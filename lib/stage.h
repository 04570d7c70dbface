/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage.h - what each fluid-* program does to the pipeline document,
 * once its options are read.  The programs (tools/fluid-*.c) and the
 * stage chain (pipeline.c's table, which the driver and plan_check.c
 * run) call the same functions, so the two cannot drift apart.  Each
 * stage adds its own section to the document and its diagnostics to d,
 * and returns; none prints or exits.
 *
 * One file per stage (stage_*.c): a program links only its own stage
 * from libfluid.a, and with it only the modules that stage calls
 * (layout.bats checks fluid-verify and fluid-diff with nm).
 */
#ifndef FLUID_STAGE_H
#define FLUID_STAGE_H

#include <jansson.h>

#include "diag.h"
#include "k8s.h"
#include "resolve.h"

/*
 * fluid-resolve's option rules: 0, or -1 after a usage error in d
 * (its message ends with where the usage is: see 'PROG --help').
 */
int	 stage_resolve_opts(const struct resolve_opts *, const char *prog,
	    struct diags *d);
/* A new document with the resolve section, or NULL (errors in d). */
json_t	*stage_resolve(const struct resolve_opts *, struct diags *d);
/* The same, the files read from src (resolve.h; NULL: the file system). */
json_t	*stage_resolve_from(const struct resolve_opts *,
	    const struct resolve_source *src, struct diags *d);
/* Add the resolve section to doc; it (borrowed), or NULL (errors in d). */
json_t	*stage_resolve_into(json_t *doc, const struct resolve_opts *,
	    const struct resolve_source *src, struct diags *d);
/* Add the check section to doc; it (borrowed), or NULL (errors in d). */
json_t	*stage_check(json_t *doc, struct diags *d);
/*
 * The sqlgen section's "builds": {build, digest, sql} for each build of
 * the check section (only the one called want, when not NULL).
 */
json_t	*stage_sqlgen_builds(json_t *doc, const char *want, struct diags *d);
/* Add the sqlgen section, {"builds": every build's}, to doc; it (borrowed). */
json_t	*stage_sqlgen(json_t *doc, struct diags *d);
/*
 * Add the k8s section (k8s.h) to a document after fluid-sqlgen; it
 * (borrowed), or NULL (errors in d).
 */
json_t	*stage_k8s(json_t *doc, struct diags *d);
/*
 * fluid-diff --baseline: add the diff section, the changes from
 * baseline to doc (both after fluid-check, without errors), to doc and
 * return it (borrowed):
 * {"fluidDiff": 1, "contract", "baseline", "counts": {"breaking",
 * "non-breaking", "info"}, "changes": [diff.h's changes]}, the two
 * names as given.
 */
json_t	*stage_diff(json_t *doc, json_t *baseline, const char *contract,
	    const char *baseline_name);
/* The contract a document was resolved from (files[0]), or NULL. */
const char *stage_diff_name(json_t *doc);
/*
 * The plan of a document after fluid-k8s render, for mode, against
 * last (k8s_plan()): a new reference, or NULL after errors in d (an
 * object over the API server's limits, each build's last-applied
 * record as record() makes it included: plan.h, plan_sizes()).
 */
json_t	*stage_plan(json_t *doc, enum k8s_mode mode, const json_t *last,
	    json_t *(*record)(const json_t *, const json_t *, const json_t *),
	    struct diags *d);
/*
 * The resources of a --last-applied document v (a file the user gave):
 * a JSON list of resources, or a kubectl List's items, each with a kind
 * and a metadata.name.  Returns them (borrowed from v), or NULL with
 * *bad set to the index of the first resource without them, or to
 * (size_t)-1 when v is neither kind of list.
 */
const json_t *stage_plan_last_applied(const json_t *v, size_t *bad);
/* What is wrong with the --last-applied file path, given that bad (new). */
char	*stage_plan_last_applied_error(const char *path, size_t bad);

#endif
