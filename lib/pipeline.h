/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pipeline.h - the stage chain, resolve -> check -> sqlgen -> k8s, as
 * one table run in one process: the driver's commands (through
 * tools/cli_stages.c, which fluid-gateway's contract load shares) and
 * apply's re-render of a plan's bundle (plan_check.c) run any stretch of
 * it with pipeline_run().  fluid validate calls the resolve and check
 * stages itself (validate.c), to keep each contract's diagnostics.
 *
 * Each stage is the function its program calls (stage.h), adds its own
 * section to the document and its diagnostics to its own list: the same
 * library calls and the same diagnostics, under the stage's name
 * (fluid-resolve: ..., fluid-check: ...), as when the programs run one
 * after another.  Between two stages the document travels as a tree:
 * the program would write it (ir_write()) and the next parse it back
 * (ir_read()) into the same tree, so the chain skips both, which at
 * 10,000 columns was more than half of what fluid spent.
 *
 * Nothing here prints or exits: pipeline_run() returns what each stage
 * said, and the caller prints it (or reads it, as plan_check.c does).
 */
#ifndef FLUID_PIPELINE_H
#define FLUID_PIPELINE_H

#include <jansson.h>

#include "diag.h"
#include "resolve.h"

/* The stages, in the order they run. */
enum stage {
	STAGE_RESOLVE,		/* fluid-resolve: a new document */
	STAGE_CHECK,		/* fluid-check: the check section */
	STAGE_SQLGEN,		/* fluid-sqlgen: the sqlgen section */
	STAGE_K8S		/* fluid-k8s render: the k8s section */
};
#define STAGE_COUNT	4

/* What one stage said, under the name of its program. */
struct pipeline_step {
	const char	*prog;	/* "fluid-check"; NULL: the caller's own name */
	struct diags	 d;
};

/* A run of the chain: what it was asked, then what each stage said. */
struct pipeline {
	const struct resolve_opts *ro;	/* FILE, --fragment, ... (resolve) */
	/*
	 * Not NULL: before the k8s stage, a contract with no managed build
	 * is refused, "no managed build to VERB", under the caller's name.
	 */
	const char	*verb;
	int		 strict;	/* every stage's warnings are errors */
	/* Filled by pipeline_run(): the stages run, in order. */
	struct pipeline_step step[STAGE_COUNT + 1];
	int		 nsteps;
};

/*
 * Run the stages from .. to on *doc: from STAGE_RESOLVE, *doc is set to
 * a new document (NULL unless the status is 0); from a later stage,
 * *doc is the caller's and each stage adds its section to it.  Stops
 * at the first stage whose status is not 0.  Returns the status
 * (diag.h's enum fl_exit); p->step holds each stage's diagnostics until
 * pipeline_release().
 */
int	pipeline_run(struct pipeline *p, enum stage from, enum stage to,
	    json_t **doc);
void	pipeline_release(struct pipeline *p);

#endif
