/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pipeline.c - the stage chain in one process (see pipeline.h): one
 * table, one loop.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "pipeline.h"
#include "stage.h"

/*
 * Each entry adds its section to doc and returns it (borrowed), or
 * NULL after errors in d; ro is for the resolve stage alone.
 */
typedef json_t *stage_fn(json_t *doc, const struct resolve_opts *ro,
    struct diags *d);

static json_t *
run_resolve(json_t *doc, const struct resolve_opts *ro, struct diags *d)
{
	if (stage_resolve_opts(ro, "fluid-resolve", d) != 0)
		return NULL;
	return stage_resolve_into(doc, ro, NULL, d);
}

static json_t *
run_check(json_t *doc, const struct resolve_opts *ro, struct diags *d)
{
	(void)ro;
	return stage_check(doc, d);
}

static json_t *
run_sqlgen(json_t *doc, const struct resolve_opts *ro, struct diags *d)
{
	(void)ro;
	return stage_sqlgen(doc, d);
}

static json_t *
run_k8s(json_t *doc, const struct resolve_opts *ro, struct diags *d)
{
	(void)ro;
	return stage_k8s(doc, d);
}

static const struct {
	const char	*prog;	/* the program that runs the stage alone */
	stage_fn	*run;
	int		 hands_on;	/* the next stage reads its document */
} stages[STAGE_COUNT] = {
	[STAGE_RESOLVE] = { "fluid-resolve", run_resolve, 1 },
	[STAGE_CHECK] = { "fluid-check", run_check, 1 },
	[STAGE_SQLGEN] = { "fluid-sqlgen", run_sqlgen, 0 },
	[STAGE_K8S] = { "fluid-k8s", run_k8s, 0 },
};

/* A new step of p, under prog. */
static struct diags *
step(struct pipeline *p, const char *prog)
{
	struct pipeline_step *s = &p->step[p->nsteps++];

	s->prog = prog;
	diags_init(&s->d);
	return &s->d;
}

/*
 * A contract with no managed build has nothing to render: refused for
 * p->verb, so that a Makefile recipe sees it, and placed at its builds
 * like the stages' diagnostics.
 */
static int
no_managed_build(struct pipeline *p, json_t *doc)
{
	struct diags *d;

	if (json_array_size(json_object_get(ir_section(doc, "check"),
	    "builds")) > 0)
		return 0;
	d = step(p, NULL);
	diags_set_resolve(d, ir_section(doc, "resolve"));
	diag_at(d, DIAG_ERROR, "/builds", "no managed build to %s: "
	    "no build sets properties.parameters.flink.management: "
	    "operator; nothing written", p->verb);
	return diag_status(d);
}

int
pipeline_run(struct pipeline *p, enum stage from, enum stage to,
    json_t **doc)
{
	json_t *section;
	json_error_t err;
	struct diags *d;
	int s, st = 0;

	p->nsteps = 0;
	if (from == STAGE_RESOLVE)
		*doc = ir_new();
	for (s = from; s <= (int)to; s++) {
		if (s == STAGE_K8S && p->verb != NULL &&
		    (st = no_managed_build(p, *doc)) != 0)
			break;
		d = step(p, stages[s].prog);
		section = stages[s].run(*doc, p->ro, d);
		if (p->strict)
			diags_strict(d);
		if ((st = diag_status(d)) != 0)
			break;
		if (section == NULL && stages[s].hands_on) {
			/* What the next stage's reader says of nothing. */
			json_decref(json_loadb("", 0, 0, &err));
			d = step(p, NULL);
			diag_fatal(d, "%s wrote no pipeline document: %s",
			    stages[s].prog, err.text);
			st = diag_status(d);
			break;
		}
	}
	if (st != 0 && from == STAGE_RESOLVE) {
		json_decref(*doc);
		*doc = NULL;
	}
	return st;
}

void
pipeline_release(struct pipeline *p)
{
	int i;

	for (i = 0; i < p->nsteps; i++)
		diags_release(&p->step[i].d);
	p->nsteps = 0;
}
