/*
 * pipeline.c - the stages in one process (see pipeline.h).
 *
 * The stage_*() functions are what each program's main()
 * (tools/fluid-*.c) does once its options are read; run_*() run them
 * here with standard input and output in memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "digest.h"
#include "ir.h"
#include "pipeline.h"
#include "sqlgen.h"
#include "check.h"
#include "xalloc.h"

/* What a stage handed on, and how it ended. */
struct out {
	json_t	*doc;		/* its document, when it ended with status 0 */
	int	 status;
};

/*
 * cli_finish(), in memory: print the diagnostics, then hand doc on as
 * it is.  The programs write it (ir_write()) and the next one parses it
 * again (ir_read()); here the next stage takes the tree itself.  That
 * round trip gives back the same tree for every document a stage makes
 * (strings, integers, booleans, null, arrays and objects in their
 * order), so it would only cost time: at 10,000 columns it was more
 * than half of what fluid spent.
 */
static void
finish(enum diag_format fmt, struct diags *d, json_t *doc, struct out *o)
{
	diag_print(d, stderr, fmt, fl_progname());
	o->status = diag_status(d);
	o->doc = o->status == EXIT_OK && doc != NULL ? json_incref(doc) : NULL;
}

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

json_t *
stage_check(json_t *doc, struct diags *d)
{
	json_t *res = ir_section(doc, "resolve"), *ir;

	diags_set_resolve(d, res);
	if ((ir = check_run(res, d)) != NULL)
		ir_add_stage(doc, "check", ir);
	return ir;
}

json_t *
stage_sqlgen_builds(json_t *doc, const char *want, struct diags *d)
{
	json_t *builds = json_object_get(ir_section(doc, "check"), "builds");
	json_t *out = json_array(), *b;
	const char *id;
	char *sql, digest[DIGEST_STRLEN];
	size_t i;

	json_array_foreach(builds, i, b) {
		id = json_string_value(json_object_get(b, "id"));
		if (want != NULL && (id == NULL || strcmp(id, want) != 0))
			continue;
		if ((sql = sqlgen_build(b, d)) == NULL)
			continue;
		digest_bytes(sql, strlen(sql), digest);
		json_array_append_new(out, json_pack("{s:s, s:s, s:s}", "build",
		    id, "digest", digest, "sql", sql));
		free(sql);
	}
	return out;
}

/* fluid-resolve [--fragment=K --schema-version=V] [--] [FILE] */
static void
run_resolve(const struct resolve_opts *ro, enum diag_format fmt,
    struct out *o)
{
	struct cli cli = { NULL, fmt };
	struct diags d;
	json_t *doc;

	stage_resolve_opts(&cli, ro);
	diags_init(&d);
	doc = stage_resolve(ro, &d);
	finish(fmt, &d, doc, o);
	json_decref(doc);
	diags_release(&d);
}

/* fluid-check < RESOLVED: doc is the resolve stage's, now check's. */
static void
run_check(json_t *doc, enum diag_format fmt, struct out *o)
{
	struct diags d;
	json_t *ir;

	diags_init(&d);
	ir = stage_check(doc, &d);
	finish(fmt, &d, ir ? doc : NULL, o);
	json_decref(doc);	/* the resolve stage's reference */
	diags_release(&d);
}

/* fluid-sqlgen < CHECKED (without --sql) */
static void
run_sqlgen(json_t *doc, enum diag_format fmt, struct out *o)
{
	struct diags d;

	diags_init(&d);
	ir_add_stage(doc, "sqlgen", json_pack("{s:o}", "builds",
	    stage_sqlgen_builds(doc, NULL, &d)));
	finish(fmt, &d, doc, o);
	json_decref(doc);	/* the check stage's reference */
	diags_release(&d);
}

int
pipeline_run(const struct resolve_opts *ro, enum diag_format fmt,
    enum pipeline_last last, json_t **doc, const char *progname)
{
	static const char *const names[] = {
		"fluid-resolve", "fluid-check", "fluid-sqlgen"
	};
	struct out o = { NULL, 0 };
	json_error_t err;
	int i;

	if (doc != NULL)
		*doc = NULL;
	for (i = 0; i <= (int)last; i++) {
		fl_setprogname(names[i]);
		if (i == PIPELINE_RESOLVE)
			run_resolve(ro, fmt, &o);
		else if (i == PIPELINE_CHECK)
			run_check(o.doc, fmt, &o);
		else
			run_sqlgen(o.doc, fmt, &o);
		if (o.status != 0)
			break;
		if (o.doc == NULL) {
			/* What the next stage's reader says of nothing. */
			json_decref(json_loadb("", 0, 0, &err));
			fl_fatal("wrote no pipeline document: %s", err.text);
		}
	}
	fl_setprogname(progname);
	if (o.status != 0)
		return o.status;
	if (doc != NULL)
		*doc = o.doc;
	else
		ir_keep_until_exit(o.doc);	/* as the program does */
	return 0;
}
