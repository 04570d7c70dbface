/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage_diff.c - what fluid-diff --baseline does (see stage.h): the
 * change review of two checked documents (lib/diff.c), as fluid diff
 * --baseline prints it.
 */
#include "diff.h"
#include "ir.h"
#include "stage.h"

json_t *
stage_diff(json_t *doc, json_t *baseline, const char *contract,
    const char *baseline_name)
{
	json_t *changes = diff_contracts(ir_section(baseline, "check"),
	    ir_section(baseline, "resolve"), ir_section(doc, "check"),
	    ir_section(doc, "resolve"));

	json_t *section = json_pack("{s:i, s:s, s:s, s:{s:I, s:I, s:I}, s:o}",
	    "fluidDiff", 1, "contract", contract, "baseline", baseline_name,
	    "counts", "breaking", (json_int_t)diff_count(changes,
	    DIFF_BREAKING), "non-breaking", (json_int_t)diff_count(changes,
	    DIFF_NON_BREAKING), "info", (json_int_t)diff_count(changes,
	    DIFF_INFO), "changes", changes);

	ir_add_stage(doc, "diff", section);
	return section;
}

const char *
stage_diff_name(json_t *doc)
{
	return json_string_value(json_array_get(json_object_get(
	    ir_section(doc, "resolve"), "files"), 0));
}
