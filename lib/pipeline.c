/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pipeline.c - the stages in one process (see pipeline.h).
 *
 * run_*() run the stage functions (stage_*.c, which the programs call
 * too) here, each handing its document to the next.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"
#include "pipeline.h"
#include "stage.h"

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
static int strict;	/* pipeline_strict() */

void
pipeline_strict(int on)
{
	strict = on;
}

static void
finish(enum diag_format fmt, struct diags *d, json_t *doc, struct out *o)
{
	if (strict)
		diags_strict(d);
	diag_print(d, stderr, fmt, fl_progname());
	o->status = diag_status(d);
	o->doc = o->status == EXIT_OK && doc != NULL ? json_incref(doc) : NULL;
}

/* fluid-resolve [--fragment=K --schema-version=V] [--] [FILE] */
static void
run_resolve(const struct resolve_opts *ro, enum diag_format fmt,
    struct out *o)
{
	struct diags d;
	json_t *doc = NULL;

	diags_init(&d);
	if (stage_resolve_opts(ro, &d) == 0)
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
	struct diags d;
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
			fl_setprogname(progname);
			diags_init(&d);
			diag_fatal(&d, "%s wrote no pipeline document: %s",
			    names[i], err.text);
			diag_print(&d, stderr, fmt, progname);
			o.status = diag_status(&d);
			diags_release(&d);
			break;
		}
	}
	fl_setprogname(progname);
	if (o.status != 0)
		return o.status;
	if (doc != NULL)
		*doc = o.doc;
	else
		ir_keep_to_end(o.doc);	/* as the program does */
	return 0;
}
