/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ir.c - reading, extending and writing pipeline documents (see ir.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bounds.h"
#include "diag.h"
#include "ir.h"
#include "ir_prune.h"
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

json_t *
ir_check_build(json_t *doc, const char *id)
{
	json_t *b;
	size_t i;

	json_array_foreach(json_object_get(ir_section(doc, "check"),
	    "builds"), i, b)
		if (id != NULL && json_is_string(json_object_get(b, "id")) &&
		    strcmp(id, json_string_value(json_object_get(b, "id"))) == 0)
			return b;
	return NULL;
}

void
ir_add_stage(json_t *doc, const char *stage, json_t *section)
{
	json_array_append_new(json_object_get(doc, "stages"),
	    json_string(stage));
	json_object_set_new(doc, stage, section);
}

/*
 * A document and the bytes ir_read() read it from, kept so that
 * ir_write() can pass the sections it was given through as they came
 * instead of writing them again: dumping a large tree costs more than
 * parsing it, and fluid-sqlgen would dump the resolve and check
 * sections only to give back the bytes it read.  A handle from
 * ir_wrap() has no bytes.
 */
#define IR_MAX_MEMBERS	64	/* of a document read in parts */

struct ir {
	json_t		*doc;		/* the tree (a reference held) */
	unsigned char	*buf;
	size_t		 len;
	size_t		 members;	/* of doc, as read */
	size_t		 stages;	/* names in its "stages", as read */
	/*
	 * When the bytes are in the form a stage writes: the length of
	 * the header, {"fluidIR":N,"stages":[...], and where the closing
	 * brace is.  The sections are what lies between.  0 otherwise.
	 */
	size_t		 headlen, close;
	size_t		 unparsed;	/* members read but not parsed */
	struct {
		const char	*key;	/* in buf, without its quotes */
		size_t		 len;
	}		 skipped[IR_MAX_MEMBERS];	/* their keys */
	size_t		 pruned;	/* sections parsed without some members */
	struct {
		const char	*key;
		size_t		 len;
	}		 prunedkeys[IR_MAX_MEMBERS];
};

/*
 * JSON's blank space.  Not strchr(" \t\r\n", c), which finds the
 * terminating NUL too.
 */
static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
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

/* Whether [p, end) has no blank space outside its strings. */
static int
compact(const char *p, const char *end)
{
	while (p < end) {
		if (*p == '"') {
			if ((p = ir_prune_string_end(p, end)) == NULL)
				return 0;
		} else if (is_blank(*p++))
			return 0;
	}
	return 1;
}

/*
 * Record in in->headlen and in->close whether the bytes read are the
 * document doc in the form the stages write: its compact header, then
 * the sections with no blank space outside their strings, then the
 * closing brace, blank space allowed only after it.
 */
static void
find_sections(struct ir *in, const json_t *doc, int known_compact)
{
	const char *buf = (const char *)in->buf;
	char *head;
	size_t hl, end = in->len;

	in->headlen = in->close = 0;
	if ((head = header(doc, json_array_size(json_object_get(doc,
	    "stages")))) == NULL)
		return;
	hl = strlen(head);
	while (end > hl && is_blank(buf[end - 1]))
		end--;
	if (end > hl + 1 && memcmp(buf, head, hl) == 0 && buf[hl] == ',' &&
	    buf[end - 1] == '}' &&
	    (known_compact || compact(buf + hl, buf + end - 1))) {
		in->headlen = hl;
		in->close = end - 1;
	}
	free(head);
}

/*
 * Reading only some sections.  The sections a stage does not use are
 * copied to its output as they were read (see ir_write()), so they need
 * not be parsed at all: all that must be known of one is where it ends,
 * which its brackets and strings tell.  Anything unexpected, and the
 * whole document is parsed instead, which also says what is wrong.
 */
struct member {
	const char	*key, *val;	/* the key without its quotes */
	size_t		 keylen, vallen;
};

/*
 * The members of the top-level object in->buf into m; their number, or 0
 * when in->buf is not such an object without blank space between members.
 * *blank is set when a value has some inside.
 */
static size_t
members(const struct ir *in, struct member m[IR_MAX_MEMBERS], int *blank)
{
	const char *p = (const char *)in->buf, *end = p + in->len, *k;
	size_t n = 0;

	while (end > p && is_blank(end[-1]))
		end--;
	while (p < end && is_blank(*p))
		p++;
	if (p == end || *p++ != '{')
		return 0;
	for (;;) {
		if (n == IR_MAX_MEMBERS || p == end || *p != '"' ||
		    (k = ir_prune_string_end(p, end)) == NULL ||
		    memchr(p, '\\', (size_t)(k - p)) != NULL ||
		    k == end || *k != ':')
			return 0;
		m[n].key = p + 1;
		m[n].keylen = (size_t)(k - p) - 2;
		m[n].val = k + 1;
		if ((p = ir_prune_value_end(k + 1, end, blank)) == NULL ||
		    p == m[n].val)
			return 0;
		m[n].vallen = (size_t)(p - m[n].val);
		n++;
		if (p == end)
			return 0;
		if (*p == '}')
			return p + 1 == end ? n : 0;
		if (*p++ != ',')
			return 0;
	}
}

static int
wanted(const struct member *m, const char *const only[])
{
	static const char *const header_keys[] = { "fluidIR", "stages", NULL };
	const char *const *w;

	for (w = header_keys; *w != NULL; w++)
		if (strlen(*w) == m->keylen && memcmp(*w, m->key, m->keylen) == 0)
			return 1;
	for (w = only; *w != NULL; w++)
		if (strlen(*w) == m->keylen && memcmp(*w, m->key, m->keylen) == 0)
			return 1;
	return 0;
}

/*
 * The document with only the sections in only[] (and the header)
 * parsed, or NULL when it must be parsed whole: the rest can be copied
 * only from bytes in the form a stage writes.
 */
/*
 * Section m's value parsed; without the members prune[] names (patterns
 * "section/path", see ir_prune.h) when there are some to drop.
 */
static json_t *
parse_member(struct ir *in, const struct member *m,
    const char *const prune[], json_error_t *err)
{
	const char *pats[9];
	struct sb sb;
	json_t *v;
	size_t np = 0;
	int rc;

	for (; prune != NULL && *prune != NULL && np < 8; prune++)
		if (strncmp(*prune, m->key, m->keylen) == 0 &&
		    (*prune)[m->keylen] == '/')
			pats[np++] = *prune + m->keylen + 1;
	pats[np] = NULL;
	if (np == 0)
		return json_loadb(m->val, m->vallen,
		    JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, err);
	sb_init(&sb);
	rc = ir_prune(m->val, m->vallen, pats, &sb);
	if (rc > 0) {
		v = json_loadb(sb.buf, sb.len,
		    JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, err);
		in->prunedkeys[in->pruned].key = m->key;
		in->prunedkeys[in->pruned].len = m->keylen;
		in->pruned++;
	} else
		v = json_loadb(m->val, m->vallen,
		    JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, err);
	sb_release(&sb);
	return v;
}

static json_t *
parse_parts(struct ir *in, const char *const only[],
    const char *const prune[])
{
	struct member m[IR_MAX_MEMBERS];
	json_error_t err;
	json_t *doc, *v;
	size_t n, i, j, unparsed = 0;
	int blank = 0;

	if ((n = members(in, m, &blank)) == 0)
		return NULL;
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (m[i].keylen == m[j].keylen &&
			    memcmp(m[i].key, m[j].key, m[i].keylen) == 0)
				return NULL;	/* a duplicate: say so */
	doc = json_object();
	for (i = 0; i < n; i++) {
		if (!wanted(&m[i], only)) {
			in->skipped[unparsed].key = m[i].key;
			in->skipped[unparsed].len = m[i].keylen;
			unparsed++;
			continue;
		}
		v = parse_member(in, &m[i], prune, &err);
		if (v == NULL ||
		    json_object_setn_new(doc, m[i].key, m[i].keylen, v) == -1) {
			json_decref(doc);
			in->pruned = 0;
			return NULL;
		}
	}
	if (json_is_array(json_object_get(doc, "stages")))
		find_sections(in, doc, !blank);
	if (in->headlen == 0) {
		json_decref(doc);
		in->pruned = 0;
		return NULL;
	}
	in->unparsed = unparsed;
	return doc;
}

struct ir *
ir_wrap(json_t *doc)
{
	struct ir *in = xmalloc(sizeof(*in));

	memset(in, 0, sizeof(*in));
	in->doc = doc;
	return in;
}

json_t *
ir_doc(const struct ir *in)
{
	return in->doc;
}

void
ir_free(struct ir *in)
{
	if (in == NULL)
		return;
	json_decref(in->doc);
	free(in->buf);
	free(in);
}

/* The checks of ir_read() on the tree: -1 after a fatal diagnostic. */
static int
header_ok(json_t *doc, const char *after, struct diags *d)
{
	const char *last;

	if (!json_is_object(doc) ||
	    json_integer_value(json_object_get(doc, "fluidIR")) != IR_VERSION ||
	    !json_is_array(json_object_get(doc, "stages"))) {
		diag_fatal(d, "standard input is not a fluid pipeline document "
		    "of version %d%s%s%s", IR_VERSION, after ? ": expects the "
		    "output of fluid-" : "", after ? after : "",
		    json_is_integer(json_object_get(doc, "fluidPlan")) ?
		    ", got a plan" : "");
		return -1;
	}
	last = ir_last_stage(doc);
	if (after != NULL && (last == NULL || strcmp(last, after) != 0)) {
		diag_fatal(d, "expects the output of fluid-%s, got %s%s", after,
		    last ? "the output of fluid-" : "an empty pipeline",
		    last ? last : "");
		return -1;
	}
	return 0;
}

struct ir *
ir_read(FILE *fp, const char *after, const char *const only[],
    struct diags *d)
{
	return ir_read_pruned(fp, after, only, NULL, d);
}

struct ir *
ir_read_pruned(FILE *fp, const char *after, const char *const only[],
    const char *const prune[], struct diags *d)
{
	json_error_t err;
	struct ir *in;
	json_t *doc = NULL;

	if (isatty(fileno(fp))) {
		diag_fatal(d, "expects a pipeline document on standard input "
		    "(run fluid-resolve first)");
		return NULL;
	}
	in = ir_wrap(NULL);
	if (slurp(fp, FL_MAX_IR_BYTES, &in->buf, &in->len) == -1) {
		if (errno == EFBIG)
			diag_fatal(d, "standard input is larger than %u bytes, "
			    "the limit of a pipeline document", FL_MAX_IR_BYTES);
		else
			diag_fatal(d, "cannot read standard input:");
		goto fail;
	}
	if (in->len == 0) {
		diag_fatal(d, "standard input is empty (did the previous stage "
		    "fail?)");
		goto fail;
	}
	if (only != NULL)
		doc = parse_parts(in, only, prune);
	if (doc == NULL)
		doc = json_loadb((const char *)in->buf, in->len,
		    JSON_REJECT_DUPLICATES, &err);
	if (doc == NULL) {
		diag_fatal(d, "standard input is not a pipeline document: line "
		    "%d column %d: %s", err.line, err.column, err.text);
		goto fail;
	}
	in->doc = doc;
	if (header_ok(doc, after, d) == -1)
		goto fail;
	if (in->headlen == 0)	/* parsed whole: is it copyable? */
		find_sections(in, doc, 0);
	in->members = json_object_size(doc);
	in->stages = json_array_size(json_object_get(doc, "stages"));
	return in;
fail:
	ir_free(in);
	return NULL;
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
 * Whether ir_write() may copy the sections read: doc is the document
 * read with one stage added (ir_add_stage()), the bytes read are in the
 * form a stage writes, and no section left unparsed has the new
 * stage's name.  Otherwise the document is written whole.
 */
static int
passable(const struct ir *in)
{
	const char *stage;
	size_t i;

	const json_t *doc = in->doc;

	if (doc == NULL || in->headlen == 0 ||
	    json_object_size(doc) != in->members + 1 ||
	    json_array_size(json_object_get(doc, "stages")) != in->stages + 1 ||
	    (stage = ir_last_stage((json_t *)doc)) == NULL ||
	    json_object_get(doc, stage) == NULL)
		return 0;
	for (i = 0; i < in->unparsed; i++)
		if (strlen(stage) == in->skipped[i].len &&
		    memcmp(stage, in->skipped[i].key, in->skipped[i].len) == 0)
			return 0;	/* a stale section of that name */
	return 1;
}

/*
 * The members of in's tree into whole, the document parsed again from
 * the bytes read, but for the sections parsed pruned: whole has them
 * entire.
 */
static void
update_unpruned(const struct ir *in, json_t *whole)
{
	const char *k;
	json_t *v;
	size_t i;

	json_object_foreach(in->doc, k, v) {
		for (i = 0; i < in->pruned; i++)
			if (strlen(k) == in->prunedkeys[i].len &&
			    memcmp(k, in->prunedkeys[i].key, in->prunedkeys[i].len)
			    == 0)
				break;
		if (i == in->pruned)
			json_object_set(whole, k, v);
	}
}

int
ir_write(FILE *fp, const struct ir *in, struct diags *d)
{
	const json_t *doc = in->doc;
	struct irout *o = xmalloc(sizeof(*o));
	json_error_t err;
	json_t *added, *whole;
	const char *stage;
	char *head = NULL;
	int rc;

	o->fp = fp;
	o->failed = 0;
	o->skip = 0;
	o->len = 0;
	if (passable(in) && (head = header(doc, in->stages + 1)) != NULL) {
		/* The new header, the sections as read, the new section. */
		stage = ir_last_stage((json_t *)doc);
		added = json_pack("{s:O}", stage,
		    json_object_get(doc, stage));
		/* Made before a byte is written: a failure writes nothing. */
		rc = added == NULL ||
		    irout_put(head, strlen(head), o) == -1 ||
		    irout_put((const char *)in->buf + in->headlen,
		    in->close - in->headlen, o) == -1 ||
		    irout_put(",", 1, o) == -1;
		o->skip = 1;	/* {"stage":{...}} without its opening brace */
		rc = rc || json_dump_callback(added, irout_put, o,
		    JSON_COMPACT) == -1;
		json_decref(added);
		free(head);
	} else if (in->unparsed > 0 || in->pruned > 0) {
		/* Sections were left unparsed: parse them to write it all. */
		whole = json_loadb((const char *)in->buf, in->len,
		    JSON_REJECT_DUPLICATES, &err);
		if (whole == NULL) {
			diag_fatal(d, "standard input is not a pipeline "
			    "document: line %d column %d: %s", err.line,
			    err.column, err.text);
			free(o);
			return -1;
		}
		update_unpruned(in, whole);
		rc = json_dump_callback(whole, irout_put, o,
		    JSON_COMPACT) == -1;
		json_decref(whole);
	} else
		rc = json_dump_callback(doc, irout_put, o, JSON_COMPACT) == -1;
	rc = rc || irout_put("\n", 1, o) == -1 || irout_flush(o) == -1 ||
	    fflush(fp) == EOF || ferror(fp) ? -1 : 0;
	free(o);
	if (rc == -1) {
		int e = errno;	/* EPIPE tells the tool the reader left */

		diag_fatal(d, "cannot write standard output:");
		errno = e;
	}
	return rc;
}

void
ir_keep_to_end(json_t *doc)
{
	static json_t *volatile kept[4];
	static size_t n;

	if (n < sizeof(kept) / sizeof(*kept))
		kept[n++] = doc;
	else
		json_decref(doc);
}
