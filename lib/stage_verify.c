/*
 * stage_verify.c - what fluid-verify does to the pipeline document
 * (verify.h), and fluid verify in the driver: the evidence of every
 * managed build, added as the document's "verify" section.  The same
 * function for both, so that the filter and the driver write the same
 * report.
 */
#include <errno.h>
#include <stdlib.h>

#include "verify.h"

#include "ir.h"
#include "net.h"

int
verify_env(struct verify_opts *o, struct net_opts *no,
    char *(*env)(const char *), struct diags *d)
{
	const char *text;
	char *end;
	long v;

	/* The CA bundle of a private catalog; libcurl's otherwise. */
	no->ca_bundle = env("FLUID_CA_BUNDLE");
	/* Each request's own bound, in seconds (fluid-verify(1)). */
	if ((text = env("FLUID_HTTP_TIMEOUT")) != NULL && *text != '\0') {
		errno = 0;
		v = strtol(text, &end, 10);
		if (errno != 0 || *end != '\0' || v < 1 || v > 600) {
			diag_fatal(d, "FLUID_HTTP_TIMEOUT expects seconds from "
			    "1 to 600");
			return -1;
		}
		no->total_ms = v * 1000;
	}
	o->net = no;
	o->env = env;
	return 0;
}

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
