/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_plan.c - fluid plan CONTRACT --mode M [--last-applied FILE]
 * [--out PLAN], a command of the driver (fluid.c): the pipeline, then
 * fluid-k8s render and fluid-k8s plan (lib/stage_plan.c) in this
 * process, and the plan written whole or not at all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "jget.h"
#include "kube_record.h"
#include "cli.h"
#include "fluid_cmd.h"

/*
 * fluid-k8s plan, in this process: the plan of doc, or NULL after its
 * diagnostics (fluid-k8s's) were printed.
 */
static json_t *
run_plan(json_t *doc, enum k8s_mode mode, const json_t *last,
    enum diag_format fmt)
{
	struct diags d;
	json_t *plan;

	diags_init(&d);
	fl_setprogname("fluid-k8s");
	plan = stage_plan(doc, mode, last, kube_record_make, &d);
	diag_print(&d, stderr, fmt, "fluid-k8s");
	fl_setprogname("fluid");
	diags_release(&d);
	return plan;
}

/*
 * The resources of --last-applied FILE (a new reference): a JSON list
 * of resources or a kubectl List, each with a kind and a name.  A file
 * that cannot be read or is not that is an environment error.
 */
static json_t *
read_last_applied(const char *path)
{
	json_error_t err;
	json_t *v;
	size_t bad;

	if ((v = json_load_file(path, JSON_REJECT_DUPLICATES, &err)) == NULL)
		fl_fatal("cannot read '%s': %d:%d: %s", path, err.line,
		    err.column, err.text);
	if (stage_plan_last_applied(v, &bad) != NULL)
		return v;
	json_decref(v);
	fl_fatal("%s", stage_plan_last_applied_error(path, bad));
}

/*
 * fluid plan CONTRACT --mode M [--last-applied FILE] [--out PLAN]: the
 * pipeline, fluid-k8s render, and the plan (lib/k8s_plan.c), written
 * whole or not at all (atomic.h).  Offline: nothing here or below it
 * contacts a cluster; apply does, with the plan.
 */
int
cmd_plan(int argc, char *argv[])
{
	struct cli cli;
	struct args a;
	enum k8s_mode mode;
	const char *why;
	json_t *doc, *last = NULL, *plan;
	char *text;
	int rc;

	cli_init(&cli, &fluid_spec, "plan");
	parse_args(argc, argv, &a, "plan", 0);
	free(dep_target(&a, "plan"));	/* usage errors before the work */
	if (a.mode == NULL)
		cli_usage_error(&cli, "plan needs --mode: amend, "
		    "amend-and-build, create-only or dry-run");
	if (k8s_mode_parse(a.mode, &mode, &why) == -1) {
		if (strcmp(a.mode, "replace") != 0 &&
		    strcmp(a.mode, "reset") != 0)
			cli_usage_error(&cli, "--mode %s %s", a.mode, why);
		fl_warnx("--mode %s %s", a.mode, why);
		return EXIT_REFUSED;
	}
	if (a.last_applied != NULL)
		last = read_last_applied(a.last_applied);
	rc = cli_stages(&a.ro, a.diag, STAGE_K8S, "plan", &doc);
	if (rc != 0)
		return rc;
	plan = run_plan(doc, mode, last, a.diag);
	json_decref(last);
	if (plan == NULL)
		return EXIT_REFUSED;
	if ((text = jtext(plan, 0)) == NULL)
		fl_fatal("cannot write the plan as JSON");
	json_decref(plan);
	if (a.depfile != NULL)
		dep_check(a.out, doc);
	rc = cli_write_out(a.out, text, strlen(text));
	free(text);
	if (rc == 0 && a.depfile != NULL)
		dep_write(a.depfile, a.out, doc);
	return rc;
}

