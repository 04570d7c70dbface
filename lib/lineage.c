/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * lineage.c - the column lineage read from the check section's binding
 * (lineage.h), and its text form.
 *
 * Each output's "expr" (fluid-ir(5), Expressions) already says where
 * the column comes from; this file only names it.  A path's operation
 * follows from the path and the output it feeds: read by name when the
 * stream path is the output's own path, a map entry after a key step,
 * an explode when it reads the explode's element, a rename for another
 * column read whole, a lift for a field read from elsewhere; a cast or
 * a widening is added after what it wraps; a struct op is a build.
 */
#include <stdlib.h>
#include <string.h>

#include "lineage.h"
#include "ir.h"
#include "jget.h"

struct lwalk {
	struct diags	*d;
	const json_t	*stream;	/* the build's stream section */
	const json_t	*explode;	/* its explode, or NULL */
	struct lineage_build *b;
	size_t		 cap;
	int		 bad;
};

static void
bad_doc(struct lwalk *w)
{
	if (!w->bad)
		diag_fatal(w->d, "the document's check section is not what "
		    "fluid-check writes");
	w->bad = 1;
}

static void
add_col(struct lwalk *w, const char *out, char *src, char *ops)
{
	struct lineage_col *c;

	if (w->b->ncols == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->b->cols = xreallocarray(w->b->cols, w->cap,
		    sizeof(*w->b->cols));
	}
	c = &w->b->cols[w->b->ncols++];
	c->out = xstrdup(out);
	c->src = src;
	c->ops = ops;
}

/* The stream column named name, or NULL. */
static const json_t *
stream_col(const struct lwalk *w, const char *name)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(w->stream, "columns"), i, c)
		if (jstreq(jstr(c, "name"), name))
			return c;
	return NULL;
}

/*
 * Append expr's steps, spelled as a mapping path is (path.h): ".field"
 * and "['key']" with ' doubled.  Counts the field and key steps.
 */
static void
add_steps(struct lwalk *w, const json_t *expr, struct sb *s, int *fields,
    int *keys)
{
	const json_t *st;
	const char *v, *p;
	size_t i;

	json_array_foreach(json_object_get(expr, "steps"), i, st) {
		if ((v = jstr(st, "field")) != NULL) {
			sb_addc(s, '.');
			sb_adds(s, v);
			(*fields)++;
		} else if ((v = jstr(st, "key")) != NULL) {
			sb_adds(s, "['");
			for (p = v; *p != '\0'; p++) {
				if (*p == '\'')
					sb_addc(s, '\'');
				sb_addc(s, *p);
			}
			sb_adds(s, "']");
			(*keys)++;
		} else
			bad_doc(w);
	}
	if (!json_is_array(json_object_get(expr, "steps")))
		bad_doc(w);
}

/*
 * The source of a path node: its origin and stream path.  A key or
 * metadata column shows the key field or metadata it is read from when
 * that is not its own name: "metadata(partition) kafka_partition".
 * The explode's element is the exploded array's path with "[]".
 */
static char *
path_src(struct lwalk *w, const json_t *expr, int *fields, int *keys)
{
	const char *origin = jstr(expr, "origin"), *root = jstr(expr, "root");
	const char *from;
	struct sb s;
	int f = 0, k = 0;

	sb_init(&s);
	if (origin == NULL || root == NULL) {
		bad_doc(w);
		return sb_steal(&s);
	}
	if (strcmp(origin, "element") == 0) {
		char *arr;

		if (w->explode == NULL) {
			bad_doc(w);
			return sb_steal(&s);
		}
		arr = path_src(w, json_object_get(w->explode, "path"), &f, &k);
		sb_adds(&s, arr);
		sb_adds(&s, "[]");
		free(arr);
	} else {
		sb_adds(&s, origin);
		from = jstr(stream_col(w, root), "from");
		if (strcmp(origin, "value") != 0 && from != NULL &&
		    strcmp(from, root) != 0) {
			sb_addc(&s, '(');
			sb_adds(&s, from);
			sb_addc(&s, ')');
		}
		sb_addc(&s, ' ');
		sb_adds(&s, root);
	}
	add_steps(w, expr, &s, fields, keys);
	return sb_steal(&s);
}

/* The operation of a path node that feeds output out. */
static void
path_ops(struct lwalk *w, const json_t *expr, const char *out, struct sb *ops)
{
	const char *origin = jstrz(expr, "origin");
	const json_t *st;
	struct sb own;
	int fields = 0, keys = 0;
	size_t i;

	free(path_src(w, expr, &fields, &keys));
	if (strcmp(origin, "element") == 0) {
		sb_adds(ops, "explode");
		if (keys > 0)
			sb_adds(ops, ", map entry");
		else if (fields > 0)
			sb_adds(ops, ", lift");
		return;
	}
	if (keys > 0) {
		sb_adds(ops, "map entry");
		return;
	}
	/* By name: the stream's path is the output's own path. */
	sb_init(&own);
	sb_adds(&own, jstrz(expr, "root"));
	json_array_foreach(json_object_get(expr, "steps"), i, st) {
		sb_addc(&own, '.');
		sb_adds(&own, jstrz(st, "field"));
	}
	if (strcmp(own.buf, out) == 0)
		sb_adds(ops, "by name");
	else if (fields == 0)
		sb_adds(ops, "rename");
	else
		sb_adds(ops, "lift");
	sb_release(&own);
}

/*
 * A scalar expression: its source (returned) and its operations, the
 * innermost first, a cast or widening after what it converts.
 */
static char *
leaf(struct lwalk *w, const json_t *expr, const char *out, struct sb *ops)
{
	const char *op = jstr(expr, "op");
	const json_t *arg;
	char *src;
	int f = 0, k = 0;

	if (jstreq(op, "path")) {
		path_ops(w, expr, out, ops);
		return path_src(w, expr, &f, &k);
	}
	if (jstreq(op, "cast") || jstreq(op, "widen")) {
		arg = json_object_get(expr, "arg");
		if (!json_is_object(arg) || jstr(arg, "type") == NULL ||
		    jstr(expr, "type") == NULL) {
			bad_doc(w);
			return NULL;
		}
		src = leaf(w, arg, out, ops);
		sb_adds(ops, jstreq(op, "cast") ? ", cast " : ", widen ");
		sb_adds(ops, jstr(arg, "type"));
		sb_adds(ops, " to ");
		sb_adds(ops, jstr(expr, "type"));
		return src;
	}
	bad_doc(w);
	return NULL;
}

/* Output out, fed by expr, and for a struct each of its fields. */
static void
walk(struct lwalk *w, const char *out, const json_t *expr)
{
	const char *op = jstr(expr, "op");
	const json_t *f, *nullif;
	struct sb ops, sub;
	char *src = NULL;
	int nf = 0, nk = 0;
	size_t i;

	if (w->bad)
		return;
	if (jstreq(op, "sql")) {
		add_col(w, out, xstrdup("own SQL"), xstrdup("opaque"));
		return;
	}
	if (jstreq(op, "struct")) {
		/* Read whole from one struct: null where that struct is. */
		nullif = json_object_get(expr, "nullIf");
		if (json_is_object(nullif))
			src = path_src(w, nullif, &nf, &nk);
		/* The explode's element kept nested: say it is exploded. */
		add_col(w, out, src, xstrdup(jstreq(jstr(nullif, "origin"),
		    "element") ? "explode, build" : "build"));
		sb_init(&sub);
		json_array_foreach(json_object_get(expr, "fields"), i, f) {
			if (jstr(f, "name") == NULL) {
				bad_doc(w);
				break;
			}
			sb_truncate(&sub, 0);
			sb_adds(&sub, out);
			sb_addc(&sub, '.');
			sb_adds(&sub, jstr(f, "name"));
			walk(w, sub.buf, json_object_get(f, "expr"));
		}
		sb_release(&sub);
		return;
	}
	sb_init(&ops);
	src = leaf(w, expr, out, &ops);
	add_col(w, out, src, sb_steal(&ops));
}

static char *
stream_label(const json_t *stream)
{
	struct sb s;

	sb_init(&s);
	sb_adds(&s, jstrz(stream, "kind"));
	sb_adds(&s, " topic ");
	sb_adds(&s, jstrz(stream, "topic"));
	sb_adds(&s, " (");
	sb_adds(&s, jstrz(stream, "format"));
	sb_addc(&s, ')');
	return sb_steal(&s);
}

static char *
explode_label(struct lwalk *w)
{
	struct sb s;
	char *p;
	int f = 0, k = 0;

	sb_init(&s);
	p = path_src(w, json_object_get(w->explode, "path"), &f, &k);
	sb_adds(&s, p);
	free(p);
	sb_adds(&s, " as ");
	sb_adds(&s, jstrz(w->explode, "as"));
	return sb_steal(&s);
}

int
lineage_make(json_t *doc, struct lineage *l, struct diags *d)
{
	const json_t *builds = json_object_get(ir_section(doc, "check"),
	    "builds"), *b, *o, *table;
	struct lwalk w;
	size_t i, j;

	memset(l, 0, sizeof(*l));
	memset(&w, 0, sizeof(w));
	w.d = d;
	if (!json_is_array(builds)) {
		bad_doc(&w);
		return -1;
	}
	diags_set_resolve(d, ir_section(doc, "resolve"));
	if (json_array_size(builds) == 0) {
		diag_at(d, DIAG_ERROR, "/builds", "no managed build to trace: "
		    "no build sets properties.parameters.flink.management, "
		    "so no column is written");
		return -1;
	}
	l->b = xcalloc(json_array_size(builds), sizeof(*l->b));
	json_array_foreach(builds, i, b) {
		w.b = &l->b[l->n++];
		w.cap = 0;
		w.stream = json_object_get(b, "stream");
		w.explode = json_object_get(b, "explode");
		if (json_is_null(w.explode))
			w.explode = NULL;
		table = json_object_get(b, "table");
		if (jstr(b, "id") == NULL || jstr(w.stream, "topic") == NULL ||
		    jstr(table, "name") == NULL ||
		    !json_is_array(json_object_get(b, "outputs"))) {
			bad_doc(&w);
			break;
		}
		w.b->id = xstrdup(jstr(b, "id"));
		w.b->stream = stream_label(w.stream);
		w.b->table = xasprintf("%s%s%s", jstrz(table, "namespace"),
		    *jstrz(table, "namespace") != '\0' ? "." : "",
		    jstr(table, "name"));
		if (w.explode != NULL)
			w.b->explode = explode_label(&w);
		json_array_foreach(json_object_get(b, "outputs"), j, o) {
			if (jstr(o, "name") == NULL) {
				bad_doc(&w);
				break;
			}
			walk(&w, jstr(o, "name"), json_object_get(o, "expr"));
		}
		if (w.bad)
			break;
	}
	if (w.bad) {
		lineage_release(l);
		return -1;
	}
	return 0;
}

void
lineage_release(struct lineage *l)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		for (j = 0; j < l->b[i].ncols; j++) {
			free(l->b[i].cols[j].out);
			free(l->b[i].cols[j].src);
			free(l->b[i].cols[j].ops);
		}
		free(l->b[i].cols);
		free(l->b[i].id);
		free(l->b[i].stream);
		free(l->b[i].table);
		free(l->b[i].explode);
	}
	free(l->b);
	memset(l, 0, sizeof(*l));
}

/*
 * Text for a terminal: a control character (only a crafted document
 * has one) as \xNN, so that each column stays one line.
 */
static void
add_text(struct sb *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			sb_adds(out, "\\x");
			sb_addc(out, hex[(unsigned char)*s >> 4]);
			sb_addc(out, hex[*s & 0xf]);
		} else
			sb_addc(out, *s);
	}
}

static void
lineage_text(const struct lineage *l, struct sb *out)
{
	const struct lineage_build *b;
	const struct lineage_col *c;
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		b = &l->b[i];
		if (i > 0)
			sb_addc(out, '\n');
		sb_adds(out, "build ");
		add_text(out, b->id);
		sb_adds(out, "\n  stream: ");
		add_text(out, b->stream);
		sb_adds(out, "\n  table: ");
		add_text(out, b->table);
		sb_addc(out, '\n');
		if (b->explode != NULL) {
			sb_adds(out, "  explode: ");
			add_text(out, b->explode);
			sb_addc(out, '\n');
		}
		for (j = 0; j < b->ncols; j++) {
			c = &b->cols[j];
			sb_adds(out, "  ");
			add_text(out, c->out);
			if (c->src != NULL) {
				sb_adds(out, " <- ");
				add_text(out, c->src);
			}
			sb_adds(out, " (");
			add_text(out, c->ops);
			sb_adds(out, ")\n");
		}
	}
}

void
lineage_write(const struct lineage *l, enum lineage_format f,
    struct sb *out)
{
	switch (f) {
	case LINEAGE_DOT:
		lineage_dot(l, out);
		break;
	case LINEAGE_MERMAID:
		lineage_mermaid(l, out);
		break;
	default:
		lineage_text(l, out);
	}
}

int
lineage_format_parse(const char *word)
{
	if (strcmp(word, "text") == 0)
		return LINEAGE_TEXT;
	if (strcmp(word, "dot") == 0)
		return LINEAGE_DOT;
	if (strcmp(word, "mermaid") == 0)
		return LINEAGE_MERMAID;
	return -1;
}
