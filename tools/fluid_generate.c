/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_generate.c - fluid generate flink CONTRACT --out DIR, a command
 * of the driver (fluid.c): the stages in this process, then each
 * managed build's files written as one set (outdir.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "jget.h"
#include "cli.h"
#include "fluid_cmd.h"

/* A failed outdir_*() call, as its message says: status 2. */
static void __attribute__((noreturn))
outdir_fatal(const struct outdir *od)
{
	if (od->err != 0) {
		errno = od->err;
		fl_fatal("%s:", od->msg);
	}
	fl_fatal("%s", od->msg);
}

/* Stage one file, or abort the run and exit 2. */
static void
stage_file(struct outdir *od, const char *name, const char *text)
{
	if (text == NULL) {
		outdir_abort(od);
		errno = EINVAL;
		fl_fatal("cannot write '%s/%s':", od->dir, name);
	}
	if (outdir_add(od, name, text, strlen(text)) == -1)
		outdir_fatal(od);
}


/*
 * One build's files, staged in od: <id>.sql, <id>.table.json and
 * <id>.k8s.json, its resources as a kubectl List (what fluid-k8s
 * render --resources prints for it), so that the directory holds
 * everything that would run, for review and for kubectl.
 */
static void
stage_build(struct outdir *od, json_t *b, json_t *doc, json_t *k8s)
{
	const char *id = json_string_value(json_object_get(b, "build"));
	json_t *cb, *one, *kb;
	char *name, *text;
	size_t i;

	/* fluid-check allows no '/' in an id; a second guard. */
	if (id == NULL || *id == '.' || strchr(id, '/') != NULL) {
		outdir_abort(od);
		fl_fatal("fluid-sqlgen wrote a build without a usable id");
	}
	if ((cb = ir_check_build(doc, id)) == NULL) {
		outdir_abort(od);
		fl_fatal("fluid-sqlgen wrote build '%s', which fluid-check "
		    "did not", id);
	}
	name = xasprintf("%s.sql", id);
	stage_file(od, name, json_string_value(json_object_get(b, "sql")));
	free(name);
	name = xasprintf("%s.table.json", id);
	text = k8s_table_text(cb);
	stage_file(od, name, text);
	free(text);
	free(name);
	one = json_pack("{s:[]}", "builds");
	json_array_foreach(json_object_get(k8s, "builds"), i, kb)
		if (json_equal(json_object_get(kb, "build"),
		    json_object_get(b, "build")))
			json_array_append(json_object_get(one, "builds"), kb);
	name = xasprintf("%s.k8s.json", id);
	if (json_array_size(json_object_get(one, "builds")) != 1)
		text = NULL;
	else {
		kb = k8s_list(one);
		text = jtext(kb, 0);
		json_decref(kb);
	}
	json_decref(one);
	stage_file(od, name, text);
	free(text);
	free(name);
}

/*
 * fluid generate flink CONTRACT --out DIR: per managed build, the SQL
 * script, the table the runner expects and the Kubernetes resources
 * that run them, written as one set
 * (outdir.h): whole files, staged in DIR and renamed into place only
 * when all are written, so that a full disk or a failed write leaves
 * DIR as it was, never a new script beside an old table file; the files
 * of builds that are gone removed; one run at a time.  The "wrote"
 * lines come last, so that a closed standard output cannot stop the run
 * half way either.
 */
int
cmd_generate(int argc, char *argv[])
{
	struct cli cli;
	struct args a;
	struct outdir od;
	json_t *doc, *b, *built;
	size_t i;
	int rc;

	cli_init(&cli, &fluid_spec, "generate flink");
	if (argc < 2 || strcmp(argv[1], "flink") != 0)
		cli_usage_error(&cli, "generate expects a target: "
		    "generate flink%s", argc < 2 ? "" :
		    cli_cmd_hint(&fluid_spec, "generate", argv[1]));
	parse_args(argc - 1, argv + 1, &a, "generate flink", 0);
	if (a.out == NULL)
		cli_usage_error(&cli, "generate flink needs --out DIR");
	if (strcmp(a.out, "-") == 0)
		cli_usage_error(&cli, "generate flink writes files: --out "
		    "names a directory, not standard output");
	rc = cli_stages(&a.ro, a.diag, STAGE_K8S, "generate", &doc);
	if (rc != 0)
		return rc;
	built = json_object_get(ir_section(doc, "sqlgen"), "builds");
	if (a.depfile != NULL)
		dep_check(a.out, doc);
	if (outdir_open(&od, a.out, "generate") == -1)
		outdir_fatal(&od);
	json_array_foreach(built, i, b)
		stage_build(&od, b, doc, ir_section(doc, "k8s"));
	if (outdir_commit(&od) == -1)
		outdir_fatal(&od);
	for (i = 0; i < od.n; i++)
		if (!cli_quiet)
			printf("wrote %s/%s\n", a.out, od.names[i]);
	outdir_close(&od);
	/* The rule's target is DIR, whose files a run replaces as a set. */
	if (a.depfile != NULL)
		dep_write(a.depfile, a.out, doc);
	return cli_flush();
}
