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
#include "xalloc.h"

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

/*
 * Standard input for json_load_callback(): read in large blocks, so that
 * the document is parsed while the previous stage is still writing it
 * and is never held whole in memory next to its tree.
 */
struct irin {
	FILE	*fp;
	size_t	 total;		/* bytes handed to the parser */
	size_t	 max;
	int	 toobig;
	int	 error;		/* errno of a failed read, or 0 */
	size_t	 pos, len;
	char	 buf[1 << 16];
};

static size_t
irin_get(void *dst, size_t n, void *arg)
{
	struct irin *in = arg;

	if (in->pos == in->len) {
		in->pos = 0;
		in->len = fread(in->buf, 1, sizeof(in->buf), in->fp);
		if (in->len == 0) {
			if (ferror(in->fp)) {
				in->error = errno ? errno : EIO;
				return (size_t)-1;
			}
			return 0;
		}
	}
	if (n > in->len - in->pos)
		n = in->len - in->pos;
	if (in->total + n > in->max) {
		in->toobig = 1;
		return (size_t)-1;
	}
	memcpy(dst, in->buf + in->pos, n);
	in->pos += n;
	in->total += n;
	return n;
}

static json_t *volatile refusing;	/* volatile: stores a compiler may not drop */

json_t *
ir_read(FILE *fp, const char *after)
{
	struct irin *in;
	json_error_t err;
	json_t *doc;
	const char *last;

	if (isatty(fileno(fp)))
		fl_fatal("expects a pipeline document on standard input "
		    "(run fluid-resolve first)");
	in = xcalloc(1, sizeof(*in));
	in->fp = fp;
	in->max = FL_MAX_IR_BYTES;
	doc = json_load_callback(irin_get, in, JSON_REJECT_DUPLICATES, &err);
	if (doc == NULL) {
		if (in->toobig)
			fl_fatal("standard input is larger than %u bytes, the "
			    "limit of a pipeline document", FL_MAX_IR_BYTES);
		if (in->error) {
			errno = in->error;
			fl_fatal("cannot read standard input:");
		}
		if (in->total == 0)
			fl_fatal("standard input is empty (did the previous "
			    "stage fail?)");
		fl_fatal("standard input is not a pipeline document: line %d "
		    "column %d: %s", err.line, err.column, err.text);
	}
	free(in);
	/*
	 * The refusals below exit with the document in hand: a static
	 * holds it meanwhile, so that a leak checker sees it in use.
	 */
	refusing = doc;
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
	refusing = NULL;
	return doc;
}

/*
 * json_dumpf() writes every token (a quote, a comma, a key) through
 * stdio on its own; gather them into large blocks instead.
 */
struct irout {
	FILE	*fp;
	int	 failed;
	size_t	 len;
	char	 buf[1 << 16];
};

static int
irout_flush(struct irout *o)
{
	if (o->len > 0 && fwrite(o->buf, 1, o->len, o->fp) != o->len)
		o->failed = 1;
	o->len = 0;
	return o->failed ? -1 : 0;
}

static int
irout_put(const char *s, size_t n, void *arg)
{
	struct irout *o = arg;

	if (n > sizeof(o->buf) - o->len) {
		if (irout_flush(o) == -1)
			return -1;
		if (n > sizeof(o->buf))
			return fwrite(s, 1, n, o->fp) == n ? 0 :
			    (o->failed = 1, -1);
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	return 0;
}

int
ir_write(FILE *fp, const json_t *doc)
{
	struct irout *o = xmalloc(sizeof(*o));
	int rc;

	o->fp = fp;
	o->failed = 0;
	o->len = 0;
	rc = json_dump_callback(doc, irout_put, o, JSON_COMPACT) == -1 ||
	    irout_put("\n", 1, o) == -1 || irout_flush(o) == -1 ||
	    fflush(fp) == EOF || ferror(fp) ? -1 : 0;
	free(o);
	return rc;
}

void
ir_keep_until_exit(json_t *doc)
{
	static json_t *volatile kept[4];
	static size_t n;

	if (n < sizeof(kept) / sizeof(*kept))
		kept[n++] = doc;
	else
		json_decref(doc);
}
