/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gateway_load.c - what fluid-gateway apply reads before it contacts
 * anything (fluid_gateway.h): where the targets file is, and the script
 * to run, a .sql file or a managed build of a contract generated here,
 * with every allowlist check fluid apply makes of what the job reaches.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fluid.h"
#include "jget.h"
#include "cli.h"
#include "plan.h"
#include "fluid_gateway.h"

static int
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/*
 * path (a new string, freed) relative to the working directory when it
 * lies below it, so that messages name it as the user would.
 */
char *
gateway_shorter(char *path)
{
	char cwd[PATH_MAX], *s;
	size_t n;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return path;
	n = strlen(cwd);
	if (strncmp(path, cwd, n) != 0 || path[n] != '/')
		return path;
	s = xstrdup(path + n + 1);
	free(path);
	return s;
}

/* The directory FILE is in, as a real path (the search starts there). */
char *
gateway_file_dir(const char *file)
{
	char real[PATH_MAX], *slash;

	if (realpath(file, real) == NULL)
		fl_fatal("cannot open '%s':", file);
	slash = strrchr(real, '/');
	if (slash == real)
		return xstrdup("/");
	*slash = '\0';
	return xstrdup(real);
}

/* A contract without a managed build has no script to apply. */
static int
no_managed(json_t *doc, enum diag_format fmt)
{
	struct diags d;
	int st;

	diags_init(&d);
	diags_set_resolve(&d, ir_section(doc, "resolve"));
	diag_at(&d, DIAG_ERROR, "/builds", "no managed build to apply: no "
	    "build sets properties.parameters.flink.management: operator");
	diag_print(&d, stderr, fmt, fl_progname());
	st = diag_status(&d);
	diags_release(&d);
	json_decref(doc);
	return st;
}

/*
 * A CFK build's statements are CMF's, one per FlinkStatement: a SQL
 * Gateway never runs them.  The status, after printing the refusal.
 */
static int
cfk_refused(json_t *doc, const json_t *e, const char *file,
    enum diag_format fmt)
{
	const char *t = jstr(e, "target");
	struct diags d;
	int st;

	if (t == NULL || strcmp(t, "cfk") != 0)
		return 0;
	diags_init(&d);
	diag_pos(&d, DIAG_ERROR, file, 0, 0, "build '%s' targets CFK "
	    "(management: cfk): its statements are CMF's, each run by a "
	    "FlinkStatement, not by a SQL Gateway; apply it with fluid plan "
	    "and fluid apply without --target",
	    json_string_value(json_object_get(e, "build")));
	diag_print(&d, stderr, fmt, fl_progname());
	st = diag_status(&d);
	diags_release(&d);
	json_decref(doc);
	return st;
}

/*
 * Every check fluid apply makes of what the job contacts (plan.h,
 * plan_allow_build()), for build id of doc: the status, after printing
 * the refusals placed at file.
 */
static int
gateway_allow(json_t *doc, const char *id, const char *file,
    enum diag_format fmt)
{
	struct allow al;
	struct diags d;
	int st;

	allow_load(&al, getenv);
	diags_init(&d);
	plan_allow_build(ir_check_build(doc, id ? id : ""),
	    json_string_value(json_object_get(json_object_get(ir_section(doc,
	    "check"), "product"), "id")), &al, file, &d);
	diag_print(&d, stderr, fmt, fl_progname());
	st = diag_status(&d);
	diags_release(&d);
	allow_release(&al);
	return st;
}

/*
 * The script FILE names: the file itself (.sql), or the sql of a managed
 * build of the contract, *where set to the name fluid generate flink
 * gives it.  A new string; exits on failure.
 */
char *
gateway_load_script(const char *file, const char *build, enum diag_format fmt,
    char **where)
{
	struct resolve_opts ro;
	unsigned char *buf;
	json_t *doc, *builds, *b, *one = NULL;
	const char *id;
	size_t len, i;
	FILE *fp;
	char *sql;
	int rc;

	if (ends_with(file, ".sql")) {
		if (build != NULL)
			fl_fatal("--build goes with a contract, not a script");
		if ((fp = fopen(file, "r")) == NULL)
			fl_fatal("cannot open '%s':", file);
		if (slurp(fp, FL_MAX_INPUT_BYTES, &buf, &len) == -1)
			fl_fatal("cannot read '%s':", file);
		fclose(fp);
		if (memchr(buf, '\0', len) != NULL)
			fl_fatal("'%s' holds a NUL byte: not a script", file);
		*where = xstrdup(file);
		/* slurp() does not terminate what it read. */
		sql = xstrndup((char *)buf, len);
		free(buf);
		return sql;
	}
	memset(&ro, 0, sizeof(ro));
	ro.path = file;
	if ((rc = cli_stages(&ro, fmt, STAGE_SQLGEN, NULL, &doc)) != 0)
		exit(rc);
	builds = json_object_get(ir_section(doc, "sqlgen"), "builds");
	if (json_array_size(builds) == 0)
		exit(no_managed(doc, fmt));
	json_array_foreach(builds, i, b) {
		id = json_string_value(json_object_get(b, "build"));
		if (build == NULL || (id != NULL && strcmp(id, build) == 0))
			one = b;
		if (build != NULL && one != NULL)
			break;
	}
	if (build == NULL && json_array_size(builds) > 1)
		fl_fatal("the contract has %zu managed builds: name one with "
		    "--build", json_array_size(builds));
	if (one == NULL)
		fl_fatal("no managed build with id '%s'", build);
	id = json_string_value(json_object_get(one, "build"));
	if ((rc = cfk_refused(doc, one, file, fmt)) != 0 ||
	    (rc = gateway_allow(doc, id, file, fmt)) != 0)
		exit(rc);
	*where = xasprintf("%s.sql", id ? id : "build");
	sql = xstrdup(json_string_value(json_object_get(one, "sql")));
	json_decref(doc);
	return sql;
}
