/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_stage.c - what the driver's commands share when they run the
 * stages in this process: the refusal of a contract without a managed
 * build, and fluid-k8s render.  The commands call this file; it calls
 * none of them.
 */
#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

/*
 * A contract with no managed build has nothing to generate or plan:
 * refused, so that a Makefile recipe sees it, and placed at its builds
 * like the stages' diagnostics.
 */
int
no_managed_build(json_t *doc, enum diag_format fmt, const char *verb)
{
	struct diags d;
	int st;

	diags_init(&d);
	diags_set_resolve(&d, ir_section(doc, "resolve"));
	diag_at(&d, DIAG_ERROR, "/builds", "no managed build to %s: "
	    "no build sets properties.parameters.flink.management: "
	    "operator; nothing written", verb);
	diag_print(&d, stderr, fmt, "fluid");
	st = diag_status(&d);
	diags_release(&d);
	return st;
}

/*
 * fluid-k8s render, in this process: the k8s section added to doc.
 * Its diagnostics are fluid-k8s's, as pipeline.h does for the stages.
 */
int
run_k8s(json_t *doc, enum diag_format fmt)
{
	struct diags d;
	int st;

	diags_init(&d);
	stage_k8s(doc, &d);
	diag_print(&d, stderr, fmt, "fluid-k8s");
	st = diag_status(&d);
	diags_release(&d);
	return st;
}
