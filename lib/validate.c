/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * validate.c - one contract resolved and checked, the diagnostics kept
 * (see validate.h).  The stages are stage_resolve() and stage_check(),
 * as in pipeline.c, so that fluid validate of many files says of each
 * what it says of one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "stage.h"
#include "sarif.h"
#include "validate.h"
#include "xalloc.h"

int
validate_file(const struct resolve_opts *ro, const struct resolve_source *src,
    const char *file, int keep_doc, const char *progname,
    struct validate_result *res)
{
	struct diags *d;
	json_t *doc;

	memset(res, 0, sizeof(*res));
	res->prog = progname;
	res->file = xstrdup(file);
	/* resolve names standard input "<stdin>" in its diagnostics. */
	res->contract = ro->path == NULL ? xstrdup("<stdin>") : src != NULL ?
	    xasprintf("%s%s", src->label, file) : xstrdup(file);

	res->stage[0] = "fluid-resolve";
	d = &res->d[res->nstages++];
	diags_init(d);
	doc = stage_resolve_opts(ro, res->stage[0], d) == 0 ? stage_resolve_from(ro, src, d) :
	    NULL;
	res->status = diag_status(d);
	if (res->status == EXIT_OK && doc == NULL)
		diag_fatal(d, "fluid-resolve wrote no pipeline document");
	res->status = diag_status(d);
	if (res->status == EXIT_OK) {
		res->stage[1] = "fluid-check";
		d = &res->d[res->nstages++];
		diags_init(d);
		if (stage_check(doc, d) == NULL && diag_status(d) == EXIT_OK)
			diag_fatal(d, "fluid-check wrote no pipeline document");
		res->status = diag_status(d);
	}
	if (res->status == EXIT_OK && keep_doc)
		res->doc = doc;
	else
		json_decref(doc);
	return res->status;
}

void
validate_release(struct validate_result *res)
{
	int i;

	for (i = 0; i < res->nstages; i++)
		diags_release(&res->d[i]);
	json_decref(res->doc);
	free(res->file);
	free(res->contract);
	memset(res, 0, sizeof(*res));
}

size_t
validate_nerrors(const struct validate_result *res)
{
	size_t n = 0;
	int i;

	for (i = 0; i < res->nstages; i++)
		n += res->d[i].nerrors + res->d[i].nfatal;
	return n;
}

void
validate_print(const struct validate_result *res, FILE *fp,
    enum diag_format fmt)
{
	int i;

	for (i = 0; i < res->nstages; i++)
		diag_print_contract(&res->d[i], fp, fmt, res->prog != NULL ?
		    res->prog : res->stage[i], res->contract);
}

char *
validate_text(const struct validate_result *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		xalloc_die("validate_text");
	validate_print(res, fp, DIAG_FORMAT_TEXT);
	if (fclose(fp) != 0 || buf == NULL)
		xalloc_die("validate_text");
	return buf;
}

int
validate_strict(struct validate_result *res)
{
	int i;

	for (i = 0; i < res->nstages; i++) {
		diags_strict(&res->d[i]);
		if (diag_status(&res->d[i]) > res->status)
			res->status = diag_status(&res->d[i]);
	}
	return res->status;
}

void
validate_sarif(json_t *log, const struct validate_result *res)
{
	int i;

	for (i = 0; i < res->nstages; i++)
		sarif_add(log, &res->d[i], res->stage[i], res->contract);
}

const char *
validate_status_name(int status)
{
	return status == EXIT_OK ? "ok" : status == EXIT_REFUSED ?
	    "refused" : "error";
}

json_t *
validate_record(const struct validate_result *res)
{
	json_t *diags = json_array(), *o;
	char *file = diag_escape(res->file, 0), *c;
	size_t j;
	int i;

	c = diag_escape(res->contract, 0);
	for (i = 0; i < res->nstages; i++)
		for (j = 0; j < res->d[i].n; j++)
			if ((o = diag_json(&res->d[i].v[j], c)) != NULL)
				json_array_append_new(diags, o);
	o = json_pack("{s:s, s:s, s:o}", "file", file, "status",
	    validate_status_name(res->status), "diagnostics", diags);
	free(file);
	free(c);
	return o;
}
