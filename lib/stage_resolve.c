/*
 * stage_resolve.c - what fluid-resolve does to the document (see pipeline.h).
 *
 * One file per stage: a program links only its own stage from
 * libfluid.a, and so only the libraries that stage needs (fluid-check's
 * URL checks bring libcurl and, through its static closure, Kerberos,
 * whose start costs a millisecond in every process).
 */
#include "cli.h"
#include "ir.h"
#include "pipeline.h"

void
stage_resolve_opts(struct cli *cli, const struct resolve_opts *ro)
{
	if (ro->fragment != NULL && !resolve_fragment_kind_ok(ro->fragment))
		cli_usage_error(cli, "unknown fragment kind '%s' (use "
		    "streamSource, schema or recordMapping)", ro->fragment);
	if (ro->fragment != NULL && ro->schema_version == NULL)
		cli_usage_error(cli, "--fragment needs --schema-version: a "
		    "fragment does not say which schema it follows");
	if (ro->fragment == NULL && ro->schema_version != NULL)
		cli_usage_error(cli, "--schema-version goes with --fragment; "
		    "a contract names its own fluidVersion");
}

json_t *
stage_resolve(const struct resolve_opts *ro, struct diags *d)
{
	json_t *doc, *section;

	if ((section = resolve_run(ro, d)) == NULL)
		return NULL;
	doc = ir_new();
	ir_add_stage(doc, "resolve", section);
	return doc;
}
