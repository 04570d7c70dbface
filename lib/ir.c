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
 * The bytes of the document ir_read() read, kept so that ir_write() can
 * pass the sections it was given through as they came instead of
 * writing them again: dumping a large tree costs more than parsing it,
 * and fluid-sqlgen would dump the resolve and check sections only to
 * give back the bytes it read.
 */
static struct {
	const json_t	*doc;		/* the tree parsed from them */
	char		*buf;
	size_t		 len;
	size_t		 members;	/* of doc, as read */
	size_t		 stages;	/* names in its "stages", as read */
} in;

/* All of fp into in.buf; exits 2 on a read error or a document too big. */
static void
read_all(FILE *fp)
{
	size_t cap = 1 << 16, n;

	in.buf = xmalloc(cap);
	in.len = 0;
	do {
		if (in.len == cap) {
			/* One byte over the bound is enough to refuse. */
			cap = cap > (FL_MAX_IR_BYTES + (size_t)1) / 2 ?
			    FL_MAX_IR_BYTES + (size_t)1 : cap * 2;
			in.buf = xreallocarray(in.buf, cap, 1);
		}
		n = fread(in.buf + in.len, 1, cap - in.len, fp);
		in.len += n;
	} while (n > 0 && in.len <= FL_MAX_IR_BYTES);
	if (in.len > FL_MAX_IR_BYTES)
		fl_fatal("standard input is larger than %u bytes, the limit "
		    "of a pipeline document", FL_MAX_IR_BYTES);
	if (ferror(fp))
		fl_fatal("cannot read standard input:");
}

static json_t *volatile refusing;	/* volatile: stores a compiler may not drop */

json_t *
ir_read(FILE *fp, const char *after)
{
	json_error_t err;
	json_t *doc;
	const char *last;

	if (isatty(fileno(fp)))
		fl_fatal("expects a pipeline document on standard input "
		    "(run fluid-resolve first)");
	free(in.buf);
	memset(&in, 0, sizeof(in));
	read_all(fp);
	if (in.len == 0)
		fl_fatal("standard input is empty (did the previous stage "
		    "fail?)");
	doc = json_loadb(in.buf, in.len, JSON_REJECT_DUPLICATES, &err);
	if (doc == NULL)
		fl_fatal("standard input is not a pipeline document: line %d "
		    "column %d: %s", err.line, err.column, err.text);
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
	in.doc = doc;
	in.members = json_object_size(doc);
	in.stages = json_array_size(json_object_get(doc, "stages"));
	return doc;
}

/*
 * json_dumpf() writes every token (a quote, a comma, a key) through
 * stdio on its own; gather them into large blocks instead.
 */
struct irout {
	FILE	*fp;
	int	 failed;
	size_t	 skip;		/* bytes of the dump still to drop */
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
	size_t k = o->skip < n ? o->skip : n;

	s += k;
	n -= k;
	o->skip -= k;
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

/*
 * {"fluidIR":N,"stages":[the first nstages names], compact, without its
 * closing brace: how every stage's output begins.
 */
static char *
header(const json_t *doc, size_t nstages)
{
	json_t *h, *names = json_array();
	const json_t *st = json_object_get(doc, "stages");
	char *s;
	size_t i;

	for (i = 0; i < nstages; i++)
		json_array_append(names, json_array_get(st, i));
	h = json_pack("{s:O, s:o}", "fluidIR", json_object_get(doc,
	    "fluidIR"), "stages", names);
	s = json_dumps(h, JSON_COMPACT);
	json_decref(h);
	if (s != NULL)
		s[strlen(s) - 1] = '\0';
	return s;
}

/*
 * Where the sections read begin and end in in.buf, when doc is the
 * document read with one stage added (ir_add_stage()) and the bytes
 * read are the compact form a stage writes: {"fluidIR":N,"stages":[...]
 * then ,"resolve":{...}... and the closing brace.  Otherwise 0, and the
 * document is written whole.
 */
static int
passable(const json_t *doc, size_t *from, size_t *to)
{
	char *old;
	size_t n, end = in.len;

	if (doc != in.doc || doc == NULL ||
	    json_object_size(doc) != in.members + 1 ||
	    json_array_size(json_object_get(doc, "stages")) != in.stages + 1)
		return 0;
	if ((old = header(doc, in.stages)) == NULL)
		return 0;
	n = strlen(old);
	if (n >= in.len || memcmp(in.buf, old, n) != 0 || in.buf[n] != ',') {
		free(old);
		return 0;
	}
	free(old);
	while (end > n && strchr(" \t\r\n", in.buf[end - 1]) != NULL)
		end--;
	if (end <= n + 1 || in.buf[end - 1] != '}')
		return 0;
	*from = n;
	*to = end - 1;
	return 1;
}

int
ir_write(FILE *fp, const json_t *doc)
{
	struct irout *o = xmalloc(sizeof(*o));
	json_t *added;
	const char *stage;
	char *head = NULL;
	size_t from, to;
	int rc;

	o->fp = fp;
	o->failed = 0;
	o->skip = 0;
	o->len = 0;
	if (passable(doc, &from, &to) &&
	    (head = header(doc, in.stages + 1)) != NULL) {
		/* The new header, the sections as read, the new section. */
		stage = ir_last_stage((json_t *)doc);
		added = json_pack("{s:O}", stage,
		    json_object_get(doc, stage));
		rc = irout_put(head, strlen(head), o) == -1 ||
		    irout_put(in.buf + from, to - from, o) == -1 ||
		    irout_put(",", 1, o) == -1;
		o->skip = 1;	/* {"stage":{...}} without its opening brace */
		rc = rc || json_dump_callback(added, irout_put, o,
		    JSON_COMPACT) == -1;
		json_decref(added);
		free(head);
	} else
		rc = json_dump_callback(doc, irout_put, o, JSON_COMPACT) == -1;
	rc = rc || irout_put("\n", 1, o) == -1 || irout_flush(o) == -1 ||
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
