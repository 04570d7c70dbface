/*
 * ir.c - reading, extending and writing pipeline documents (see ir.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bounds.h"
#include "diag.h"
#include "ir.h"
#include "yload.h"

json_t *
ir_new(void)
{
	return json_pack("{s:i, s:[]}", "fluidIR", IR_VERSION, "stages");
}

const char *
ir_last_stage(json_t *doc)
{
	json_t *st = json_object_get(doc, "stages");
	size_t n = json_array_size(st);

	return n ? json_string_value(json_array_get(st, n - 1)) : NULL;
}

json_t *
ir_section(json_t *doc, const char *stage)
{
	return json_object_get(doc, stage);
}

void
ir_add_stage(json_t *doc, const char *stage, json_t *section)
{
	json_array_append_new(json_object_get(doc, "stages"),
	    json_string(stage));
	json_object_set_new(doc, stage, section);
}

json_t *
ir_read(FILE *fp, const char *after)
{
	unsigned char *buf;
	size_t len;
	json_error_t err;
	json_t *doc;
	const char *last;

	if (isatty(fileno(fp)))
		fl_fatal("expects a pipeline document on standard input "
		    "(run fluid-resolve first)");
	if (yload_slurp(fp, FL_MAX_INPUT_BYTES, &buf, &len) == -1) {
		if (errno == EFBIG)
			fl_fatal("standard input is larger than %u bytes, the "
			    "limit of a pipeline document", FL_MAX_INPUT_BYTES);
		fl_fatal("cannot read standard input:");
	}
	if (len == 0) {
		free(buf);
		fl_fatal("standard input is empty (did the previous stage "
		    "fail?)");
	}
	doc = json_loadb((const char *)buf, len, JSON_REJECT_DUPLICATES, &err);
	free(buf);
	if (doc == NULL)
		fl_fatal("standard input is not a pipeline document: line %d "
		    "column %d: %s", err.line, err.column, err.text);
	if (!json_is_object(doc) ||
	    json_integer_value(json_object_get(doc, "fluidIR")) != IR_VERSION ||
	    !json_is_array(json_object_get(doc, "stages")))
		fl_fatal("standard input is not a fluid pipeline document "
		    "of version %d", IR_VERSION);
	last = ir_last_stage(doc);
	if (after != NULL && (last == NULL || strcmp(last, after) != 0))
		fl_fatal("expects the output of fluid-%s, got %s%s", after,
		    last ? "the output of fluid-" : "an empty pipeline",
		    last ? last : "");
	return doc;
}

int
ir_write(FILE *fp, const json_t *doc)
{
	if (json_dumpf(doc, fp, JSON_COMPACT) == -1 ||
	    fputc('\n', fp) == EOF || fflush(fp) == EOF || ferror(fp))
		return -1;
	return 0;
}
