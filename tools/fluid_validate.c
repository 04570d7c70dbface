/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_validate.c - fluid validate FILE..., a command of the driver
 * (fluid.c) in a file of its own: options, I/O and the exit status.
 * The work is validate.h's (each contract resolved and checked, its
 * diagnostics kept) and junit.h's (the report).
 *
 * Each FILE is checked as if alone and reported as soon as it is
 * checked, so that a CI log shows every contract's result: a line on
 * standard output (--format text, after its diagnostics on standard
 * error) or a JSON record carrying them (--format json).  A FILE that
 * cannot be read does not stop the run: the others are still checked
 * and the status is 2 at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fluid/fluid.h>	/* FLUID_VERSION, for the SARIF log */

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"
#include "junit.h"
#include "validate.h"

/* --junit or --sarif FILE: the report, whole or not at all.  Errors exit 2. */
static void
write_report(const char *path, char *text)
{
	if (atomic_mkparents(path) == -1)
		fl_fatal("cannot create the directory of '%s':", path);
	if (atomic_write(path, text, strlen(text)) == -1) {
		if (errno == EEXIST || errno == EISDIR)
			fl_fatal("'%s' is not a regular file: not replaced",
			    path);
		fl_fatal("cannot write '%s':", path);
	}
	free(text);
}

/* The first diagnostic that counts (or else any), placed in the contract. */
static int
first_line(const struct validate_result *res)
{
	const struct diag *g;
	int i, pass, line = 0;
	size_t j;

	for (pass = 0; pass < 2 && line == 0; pass++)
		for (i = 0; i < res->nstages && line == 0; i++)
			for (j = 0; j < res->d[i].n && line == 0; j++) {
				g = &res->d[i].v[j];
				if ((pass == 0 && g->level == DIAG_WARNING) ||
				    g->file == NULL ||
				    strcmp(g->file, res->contract) != 0)
					continue;
				line = g->line;
			}
	return line;
}

/* The case of one result; its strings are new (freed by free_case()). */
static void
make_case(struct junit_case *c, const struct validate_result *res)
{
	const struct diag *g = NULL;
	size_t n = validate_nerrors(res);
	int i;

	c->name = xstrdup(res->file);
	c->text = validate_text(res);
	c->line = first_line(res);
	if (res->status == EXIT_OK) {
		c->result = JUNIT_PASS;
		c->message = NULL;
		return;
	}
	c->result = res->status == EXIT_REFUSED ? JUNIT_FAILURE : JUNIT_ERROR;
	for (i = 0; i < res->nstages && g == NULL; i++)
		if (res->d[i].n > 0 && res->d[i].nfatal > 0)
			for (g = res->d[i].v; g->level != DIAG_FATAL; g++)
				;
	if (c->result == JUNIT_ERROR && g != NULL)
		c->message = xstrdup(g->msg);
	else
		c->message = xasprintf("%s (%zu error%s)",
		    validate_status_name(res->status), n, n == 1 ? "" : "s");
}

static void
free_case(struct junit_case *c)
{
	free((char *)c->name);
	free((char *)c->message);
	free((char *)c->text);
}

/* FILE's one line (text) or record (json) on standard output. */
static void
report(const struct validate_result *res, int json)
{
	size_t n = validate_nerrors(res);
	json_t *rec;
	char *s;

	if (json) {
		rec = validate_record(res);
		s = json_dumps(rec, JSON_COMPACT);
		if (s == NULL)
			fl_fatal("cannot write the record of '%s'", res->file);
		printf("%s\n", s);
		free(s);
		json_decref(rec);
		return;
	}
	s = diag_escape(res->file, 0);
	if (res->status == EXIT_REFUSED)
		printf("%s: refused (%zu error%s)\n", s, n, n == 1 ? "" : "s");
	else
		printf("%s: %s\n", s, validate_status_name(res->status));
	free(s);
}

/*
 * validate FILE...: each file on its own, as if validated alone.  The
 * status is the worst: 2 when any file could not be checked, else 1
 * when any is refused.
 */
int
cmd_validate(int argc, char *argv[])
{
	struct validate_result res;
	struct junit_case *cases = NULL;
	json_t *sarif = NULL;
	struct args a;
	char *target;
	size_t i;
	int st, refused = 0, failed = 0;

	parse_args(argc, argv, &a, "validate", 1);
	target = dep_target(&a, "validate");
	if (target != NULL && a.nfiles != 1)
		cli_usage_error(NULL, "validate --depfile takes one FILE");
	if (a.junit != NULL)
		cases = xreallocarray(NULL, a.nfiles, sizeof(*cases));
	if (a.sarif != NULL)
		sarif = sarif_new("fluid", FLUID_VERSION);
	for (i = 0; i < a.nfiles; i++) {
		a.ro.path = input_path(a.files[i]);
		st = validate_file(&a.ro, NULL, a.files[i], target != NULL,
		    "fluid validate", &res);
		/* From the first contract on, a line of the command's own
		   names it: "fluid validate: ...". */
		fl_setprogname("fluid validate");
		if (a.strict)
			st = validate_strict(&res);
		if (!a.json)
			validate_print(&res, stderr, a.diag);
		if (st == EXIT_OK && target != NULL)
			dep_write(a.depfile, target, res.doc);
		report(&res, a.json);
		/* Each result as it comes, in step with standard error. */
		if (cli_flush() != 0) {
			validate_release(&res);
			failed = -1;	/* nothing more can be reported */
			break;
		}
		if (cases != NULL)
			make_case(&cases[i], &res);
		if (sarif != NULL)
			validate_sarif(sarif, &res);
		refused |= st == EXIT_REFUSED;
		failed |= st == EXIT_USAGE;
		validate_release(&res);
	}
	free(target);
	if (a.junit != NULL && failed != -1)
		write_report(a.junit, junit_xml("fluid validate", cases,
		    a.nfiles));
	if (sarif != NULL && failed != -1)
		write_report(a.sarif, sarif_text(sarif));
	json_decref(sarif);
	if (cases != NULL) {
		while (i-- > 0)
			free_case(&cases[i]);
		free(cases);
	}
	return failed ? EXIT_USAGE : refused ? EXIT_REFUSED : EXIT_OK;
}
