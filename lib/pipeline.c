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

/* What a stage wrote on its standard output, and how it ended. */
struct out {
	char	*buf;
	size_t	 len;
	json_t	*doc;		/* what it wrote, kept when it is the last */
	int	 status;
};

/*
 * cli_finish(), with standard output a memory buffer: print the
 * diagnostics, then write doc as the program would.  The last stage's
 * document is kept as it is instead; what a reader would make of it is
 * decided by pipeline_run().
 */
static void
finish(enum diag_format fmt, struct diags *d, json_t *doc, int last,
    struct out *o)
{
	FILE *fp;

	diag_print(d, stderr, fmt, fl_progname());
	o->status = diag_status(d);
	o->buf = NULL;
	o->len = 0;
	o->doc = NULL;
	if (o->status != EXIT_OK || doc == NULL)
		return;
	if (last) {
		o->doc = json_incref(doc);
		return;
	}
	if ((fp = open_memstream(&o->buf, &o->len)) == NULL)
		fl_fatal("cannot write standard output:");
	if (ir_write(fp, doc) == -1) {
		fl_warnx("cannot write standard output:");
		o->status = EXIT_USAGE;
	}
	if (fclose(fp) == EOF && o->status == EXIT_OK) {
		fl_warnx("cannot write standard output:");
		o->status = EXIT_USAGE;
	}
}

/* The previous stage's output as the next one's standard input. */
static json_t *
read_prev(const struct out *prev, const char *after)
{
	static char empty[1];
	json_t *doc;
	FILE *fp;

	fp = fmemopen(prev->buf ? prev->buf : empty, prev->len, "r");
	if (fp == NULL)
		fl_fatal("cannot read standard input:");
	doc = ir_read(fp, after);
	fclose(fp);
	return doc;
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
run_resolve(const struct resolve_opts *ro, enum diag_format fmt, int last,
    struct out *o)
{
	struct cli cli = { NULL, fmt };
	struct diags d;
	json_t *doc;

	stage_resolve_opts(&cli, ro);
	diags_init(&d);
	doc = stage_resolve(ro, &d);
	finish(fmt, &d, doc, last, o);
	json_decref(doc);
	diags_release(&d);
}

/* fluid-check < RESOLVED */
static void
run_check(const struct out *prev, enum diag_format fmt, int last,
    struct out *o)
{
	struct diags d;
	json_t *doc, *ir;

	doc = read_prev(prev, "resolve");
	diags_init(&d);
	ir = stage_check(doc, &d);
	finish(fmt, &d, ir ? doc : NULL, last, o);
	json_decref(doc);
	diags_release(&d);
}

/* fluid-sqlgen < CHECKED (without --sql) */
static void
run_sqlgen(const struct out *prev, enum diag_format fmt, int last,
    struct out *o)
{
	struct diags d;
	json_t *doc;

	doc = read_prev(prev, "check");
	diags_init(&d);
	ir_add_stage(doc, "sqlgen", json_pack("{s:o}", "builds",
	    stage_sqlgen_builds(doc, NULL, &d)));
	finish(fmt, &d, doc, last, o);
	json_decref(doc);
	diags_release(&d);
}

int
pipeline_run(const struct resolve_opts *ro, enum diag_format fmt,
    enum pipeline_last last, json_t **doc, const char *progname)
{
	static const char *const names[] = {
		"fluid-resolve", "fluid-check", "fluid-sqlgen"
	};
	struct out prev, cur;
	json_error_t err;
	int i;

	if (doc != NULL)
		*doc = NULL;
	memset(&prev, 0, sizeof(prev));
	for (i = 0; i <= (int)last; i++) {
		fl_setprogname(names[i]);
		if (i == PIPELINE_RESOLVE)
			run_resolve(ro, fmt, i == (int)last, &cur);
		else if (i == PIPELINE_CHECK)
			run_check(&prev, fmt, i == (int)last, &cur);
		else
			run_sqlgen(&prev, fmt, i == (int)last, &cur);
		free(prev.buf);
		prev = cur;
		if (cur.status != 0)
			break;
	}
	fl_setprogname(progname);
	free(prev.buf);
	if (prev.status != 0)
		return prev.status;
	if (prev.doc == NULL) {
		/* What the driver's reader says of an empty output. */
		json_decref(json_loadb("", 0, 0, &err));
		fl_fatal("%s wrote no pipeline document: %s", names[last],
		    err.text);
	}
	if (doc != NULL)
		*doc = prev.doc;
	else
		ir_keep_until_exit(prev.doc);	/* as the program does */
	return 0;
}
