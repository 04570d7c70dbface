/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * cli_stages.c - the stage chain (lib/pipeline.h) run for a program
 * that prints: what the driver's commands and fluid-gateway share.
 * Each stage's diagnostics go to standard error under its program's
 * name, as when the programs run one after another.
 */
#include <string.h>

#include "fluid.h"
#include "cli.h"
#include "pipeline.h"

int cli_stages_strict;

int
cli_stages(const struct resolve_opts *ro, enum diag_format fmt,
    enum stage to, const char *verb, json_t **doc)
{
	struct pipeline p;
	int i, st;

	memset(&p, 0, sizeof(p));
	p.ro = ro;
	p.verb = verb;
	p.strict = cli_stages_strict;
	st = pipeline_run(&p, STAGE_RESOLVE, to, doc);
	for (i = 0; i < p.nsteps; i++)
		diag_print(&p.step[i].d, stderr, fmt, p.step[i].prog != NULL ?
		    p.step[i].prog : fl_progname());
	pipeline_release(&p);
	if (st == 0)
		ir_keep_to_end(*doc);	/* the program exits after this */
	return st;
}
