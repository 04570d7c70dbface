/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_ir.c - pipeline document handles (ir.h): each read keeps its own
 * bytes, and a broken document comes back as a diagnostic, not an exit.
 */
#include <stdlib.h>

#include "fluid.h"
#include "tap.h"

/* ir_read() of text, with only the sections in only parsed. */
static struct ir *
read_text(const char *text, const char *after, const char *const only[],
    struct diags *d)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct ir *in;

	if (fp == NULL)
		return NULL;
	in = ir_read(fp, after, only, d);
	fclose(fp);
	return in;
}

/* What ir_write() writes of in, as a new string. */
static char *
write_text(const struct ir *in, struct diags *d)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	if (fp == NULL)
		return NULL;
	if (ir_write(fp, in, d) == -1) {
		fclose(fp);
		free(out);
		return NULL;
	}
	fclose(fp);
	return out;
}

static void
two_documents(void)
{
	static const char *const only[] = { "check", NULL };
	static const char a[] = "{\"fluidIR\":1,\"stages\":[\"resolve\","
	    "\"check\"],\"resolve\":{\"doc\":\"A\"},\"check\":{\"builds\":[]}}";
	static const char b[] = "{\"fluidIR\":1,\"stages\":[\"resolve\","
	    "\"check\"],\"resolve\":{\"doc\":\"B\"},\"check\":{\"builds\":[1]}}";
	struct diags d;
	struct ir *ia, *ib;
	char *out;

	diags_init(&d);
	ia = read_text(a, "check", only, &d);
	ib = read_text(b, "check", only, &d);
	ok(ia != NULL && ib != NULL, "two documents read in one process");
	if (ia == NULL || ib == NULL)
		return;
	ok(json_object_get(ir_doc(ia), "resolve") == NULL,
	    "the section not asked for is not parsed");
	ir_add_stage(ir_doc(ia), "sqlgen", json_pack("{s:[]}", "builds"));
	out = write_text(ia, &d);
	ok(out != NULL && strcmp(out, "{\"fluidIR\":1,\"stages\":[\"resolve\","
	    "\"check\",\"sqlgen\"],\"resolve\":{\"doc\":\"A\"},\"check\":"
	    "{\"builds\":[]},\"sqlgen\":{\"builds\":[]}}\n") == 0,
	    "the first document, written after a second was read, keeps its "
	    "own unparsed section");
	if (out != NULL)
		printf("# wrote %s", out);
	free(out);
	ir_add_stage(ir_doc(ib), "sqlgen", json_pack("{s:[]}", "builds"));
	out = write_text(ib, &d);
	ok(out != NULL && strstr(out, "\"resolve\":{\"doc\":\"B\"}") != NULL,
	    "and the second keeps its own");
	free(out);
	ok(diag_status(&d) == EXIT_OK, "no diagnostic on the way");
	ir_free(ia);
	ir_free(ib);
	diags_release(&d);
}

static void
refused(const char *text, const char *after, const char *want,
    const char *what)
{
	struct diags d;
	struct ir *in;

	diags_init(&d);
	in = read_text(text, after, NULL, &d);
	ok(in == NULL && diag_status(&d) == EXIT_USAGE && d.n == 1 &&
	    d.v[0].level == DIAG_FATAL && strstr(d.v[0].msg, want) != NULL,
	    "%s: status 2, one fatal diagnostic naming it (%s)", what,
	    d.n ? d.v[0].msg : "no diagnostic");
	ir_free(in);
	diags_release(&d);
}

int
main(void)
{
	two_documents();
	refused("", NULL, "standard input is empty", "an empty input");
	refused("{\"fluidIR\":1,", NULL, "is not a pipeline document: line 1",
	    "broken JSON");
	refused("[1]", NULL, "not a fluid pipeline document of version 1",
	    "not an object");
	refused("{\"fluidIR\":1,\"stages\":[\"resolve\"],\"resolve\":{}}",
	    "check", "expects the output of fluid-check, got the output of "
	    "fluid-resolve", "the wrong stage");
	return done_testing();
}
