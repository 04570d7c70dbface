/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage_resolve.c - what fluid-resolve does to the document (see stage.h).
 */
#include "ir.h"
#include "stage.h"

int
stage_resolve_opts(const struct resolve_opts *ro, const char *prog,
    struct diags *d)
{
	const char *why = NULL;

	if (ro->fragment != NULL && !resolve_fragment_kind_ok(ro->fragment)) {
		diag_fatal(d, "unknown fragment kind '%s' (use streamSource, "
		    "schema or recordMapping) (see '%s --help')", ro->fragment,
		    prog);
		return -1;
	}
	if (ro->fragment != NULL && ro->schema_version == NULL)
		why = "--fragment needs --schema-version: a fragment does not "
		    "say which schema it follows";
	if (ro->fragment == NULL && ro->schema_version != NULL)
		why = "--schema-version goes with --fragment; a contract "
		    "names its own fluidVersion";
	if (why == NULL)
		return 0;
	diag_fatal(d, "%s (see '%s --help')", why, prog);
	return -1;
}

json_t *
stage_resolve(const struct resolve_opts *ro, struct diags *d)
{
	return stage_resolve_from(ro, NULL, d);
}

json_t *
stage_resolve_from(const struct resolve_opts *ro,
    const struct resolve_source *src, struct diags *d)
{
	json_t *doc = ir_new();

	if (stage_resolve_into(doc, ro, src, d) == NULL) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

json_t *
stage_resolve_into(json_t *doc, const struct resolve_opts *ro,
    const struct resolve_source *src, struct diags *d)
{
	json_t *section;

	if ((section = resolve_run_from(ro, src, d)) != NULL)
		ir_add_stage(doc, "resolve", section);
	return section;
}
