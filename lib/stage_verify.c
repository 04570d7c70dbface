/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage_verify.c - what fluid-verify does to the pipeline document
 * (verify.h), and fluid verify in the driver: the evidence of every
 * managed build, added as the document's "verify" section.  The same
 * function for both, so that the filter and the driver write the same
 * report.
 */
#include "verify.h"

#include "ir.h"

json_t *
stage_verify(json_t *doc, const struct verify_opts *o, struct diags *d)
{
	json_t *resolve = ir_section(doc, "resolve"), *report;
	struct verify_opts vo = *o;

	diags_set_resolve(d, resolve);
	if (json_array_size(json_object_get(ir_section(doc, "check"),
	    "builds")) == 0) {
		diag_at(d, DIAG_ERROR, "/builds", "no managed build to verify: "
		    "no build sets properties.parameters.flink.management: "
		    "operator; nothing written");
		return NULL;
	}
	/* The contract as the user named it to fluid-resolve. */
	vo.contract = json_string_value(json_array_get(json_object_get(
	    resolve, "files"), 0));
	if ((report = verify_run(doc, &vo, d)) != NULL)
		ir_add_stage(doc, "verify", report);
	return report;
}
