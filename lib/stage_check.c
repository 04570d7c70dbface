/*
 * stage_check.c - what fluid-check does to the document (see pipeline.h).
 *
 * One file per stage: a program links only its own stage from
 * libfluid.a, and so only the libraries that stage needs (fluid-check's
 * URL checks bring libcurl and, through its static closure, Kerberos,
 * whose start costs a millisecond in every process).
 */
#include "check.h"
#include "ir.h"
#include "pipeline.h"

json_t *
stage_check(json_t *doc, struct diags *d)
{
	json_t *res = ir_section(doc, "resolve"), *ir;

	diags_set_resolve(d, res);
	if ((ir = check_run(res, d)) != NULL)
		ir_add_stage(doc, "check", ir);
	return ir;
}
