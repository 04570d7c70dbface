/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage_check.c - what fluid-check does to the document (see stage.h).
 */
#include "check.h"
#include "ir.h"
#include "stage.h"

json_t *
stage_check(json_t *doc, struct diags *d)
{
	json_t *res = ir_section(doc, "resolve"), *ir;

	diags_set_resolve(d, res);
	if ((ir = check_run(res, d)) != NULL)
		ir_add_stage(doc, "check", ir);
	return ir;
}
