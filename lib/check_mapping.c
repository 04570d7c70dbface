/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_mapping.c - where every output column comes from, proven.
 *
 * Each output column of the expose gets an expression tree:
 *
 *	path    a source column and field/map-key steps
 *	cast    binary read as UTF-8 text (cast: string)
 *	widen   a lossless widening the spec allows
 *	struct  a struct built field by field, by name, never by position;
 *	        "nullIf" is the source struct when the whole struct is read
 *	        from one nullable struct (it is null where that one is)
 *
 * and its nullability, which must agree with the output's required.
 * A column comes from its entry in properties.mapping.columns, or, when
 * it has none, from the stream column of the same name (fields of a
 * struct likewise, from the same path).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "jptr.h"
#include "sqllex.h"

static const char *const mapping_keys[] = { "explode", "columns", NULL };
static const char *const explode_keys[] = { "path", "as", NULL };
static const char *const entry_keys[] = { "name", "from", "cast", NULL };

struct entry {
	char		*name;		/* dotted output name */
	struct path	 from;
	bool		 cast;		/* cast: string */
	size_t		 idx;		/* in properties.mapping.columns */
};

/*
 * Path steps of one kind by name, each made once and then shared by
 * every path that takes it: paths into nested structs repeat their
 * steps thousands of times.  The index borrows each name from its step.
 */
struct steps {
	const char	*kind;		/* "field" or "key" */
	struct chk_name_index index;	/* name -> steps[i] */
	json_t		**steps;
	size_t		 n, cap;
};

struct binder {
	struct chk	*c;
	struct chk_stream	*s;
	struct entry	*entries;
	size_t		 nentries;
	struct chk_name_index by_name;	/* entry name -> index */
	json_t		*prefixes;	/* "a" and "a.b" of "a.b.c" -> true */
	json_t		*refused;	/* names of refused entries */
	json_t		*xbad;		/* the expose's refused columns */
	struct ty	*elem;		/* the explode's element, or NULL */
	char		*as;		/* the explode's name for it */
	json_t		*as_json;	/* the same, for the IR to share */
	/*
	 * One mistake, one error: while the explode is refused, paths from
	 * its as name (or, if it has none that could be read, from any name
	 * that is no stream column) are not reported again.
	 */
	json_t		*as_refused;	/* as names of refused explodes */
	bool		 as_unnamed;	/* one refused without a usable as */
	/*
	 * An entry's from, for its messages: properties.mapping.columns
	 * is written once, up to cols, and the index and key after it for
	 * each entry.
	 */
	struct chk_loc	 el;
	struct chk_loc_mark	 cols;
	struct sb	 so_far;	/* path_so_far()'s, kept for the next */
	struct steps	 field_steps;	/* {"field": name} */
	struct steps	 key_steps;	/* {"key": map key} */
	json_t		*no_steps;	/* [], for every path of no steps */
	const char	*xptr;		/* the expose's schema, pointer */
	const char	*xpath;		/* and dotted path */
};

/* What a path reads: its type (borrowed), nullability and why. */
struct typed {
	const struct ty	*type;
	bool		 nullable;
	char		*why;		/* why it can be null, or NULL */
	json_t		*expr;
};

static void
typed_release(struct typed *t)
{
	free(t->why);
	json_decref(t->expr);
	memset(t, 0, sizeof(*t));
}

static char *
type_name(const struct ty *t)
{
	struct sb sb;

	sb_init(&sb);
	ty_name_print(t, &sb);
	return sb_steal(&sb);
}

static void
set_type(struct binder *b, json_t *expr, const struct ty *t, bool nullable)
{
	json_object_set_new_nocheck(expr, "type",
	    ty_name_json(&b->c->names, t));
	json_object_set_new_nocheck(expr, "nullable", json_boolean(nullable));
}

static void
steps_init(struct steps *ss, const char *kind)
{
	memset(ss, 0, sizeof(*ss));
	ss->kind = kind;
	chk_name_index_init(&ss->index, false);
}

static void
steps_release(struct steps *ss)
{
	size_t i;

	chk_name_index_release(&ss->index);
	for (i = 0; i < ss->n; i++)
		json_decref(ss->steps[i]);
	free(ss->steps);
}

/*
 * The step {kind: name}, made on first use.  NULL if name is no JSON
 * string (then the step is left out, as json_pack() would have).
 */
static json_t *
step_json(struct steps *ss, const char *name)
{
	json_t *st, *v;
	size_t i;

	if (chk_name_index_get(&ss->index, name, &i))
		return json_incref(ss->steps[i]);
	if ((v = json_string(name)) == NULL)
		return NULL;
	st = json_object();
	json_object_set_new_nocheck(st, ss->kind, v);
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? 2 * ss->cap : 16;
		ss->steps = xreallocarray(ss->steps, ss->cap,
		    sizeof(*ss->steps));
	}
	ss->steps[ss->n] = st;
	chk_name_index_put(&ss->index, json_string_value(v), ss->n++);
	return json_incref(st);
}

/* The start of a path's expression: what it reads, and from where. */
static json_t *
path_expr(struct binder *b, const struct chk_scol *sc, json_t *steps)
{
	json_t *e = json_object();

	json_object_set_new_nocheck(e, "op", chk_word(b->c, CHK_WORD_PATH));
	json_object_set_new_nocheck(e, "root",
	    json_incref(sc ? sc->jname : b->as_json));
	json_object_set_new_nocheck(e, "origin", chk_word(b->c,
	    sc ? (enum chk_word)sc->origin : CHK_WORD_ELEMENT));
	json_object_set_new_nocheck(e, "steps", steps);
	return e;
}

/*
 * The path expression of field name of the struct that the path
 * expression parent reads: a copy of parent with one step more (its
 * type is the caller's to set).  Only the object and its steps are
 * copied: the strings and steps in them are never changed.
 */
static json_t *
path_child(struct binder *b, json_t *parent, const char *name)
{
	json_t *e = json_copy(parent);
	json_t *steps = json_copy(json_object_get(parent, "steps"));

	json_array_append_new(steps, step_json(&b->field_steps, name));
	json_object_set_new_nocheck(e, "steps", steps);
	return e;
}

/* {"op": op}, for the caller to add the operands to. */
static json_t *
op_expr(struct binder *b, enum chk_word op)
{
	json_t *e = json_object();

	json_object_set_new_nocheck(e, "op", chk_word(b->c, op));
	return e;
}

/* {"name": name, "expr": e}, taking over e; NULL as json_pack gives. */
static json_t *
named_expr(const char *name, json_t *e)
{
	json_t *o, *n = json_string(name);

	if (n == NULL || e == NULL) {
		json_decref(n);
		json_decref(e);
		return NULL;
	}
	o = json_object();
	json_object_set_new_nocheck(o, "name", n);
	json_object_set_new_nocheck(o, "expr", e);
	return o;
}

/*
 * hint: " (did you mean F?)" for a field F of struct st one edit away
 * from name, or "" (also once the contract's suggestions are used up; see
 * chk_suggest()).
 */
static void
field_hint(struct chk *c, const struct ty *st, const char *name, char *hint,
    size_t len)
{
	const char **names;
	size_t i;

	hint[0] = '\0';
	if (!chk_suggest(c))
		return;
	names = xcalloc(st->nfields + 1, sizeof(*names));
	for (i = 0; i < st->nfields; i++)
		names[i] = st->fields[i].name;
	chk_didyoumean(name, names, st->nfields, hint, len);
	free(names);
}

/* Is name a stream column or explode whose declaration was refused? */
static bool
root_refused(const struct binder *b, const char *name)
{
	return chk_stream_unknown(b->s, name) ||
	    json_object_get(b->as_refused, name) != NULL;
}

/*
 * The first n steps of p as messages spell them ("a.b['...']": map
 * keys are never quoted); valid until the next call.  Made only when a
 * message or a reason for null needs it.
 */
static const char *
path_so_far(struct binder *b, const struct path *p, size_t n)
{
	size_t i;

	sb_truncate(&b->so_far, 0);
	sb_adds(&b->so_far, p->steps[0].name);
	for (i = 1; i < n; i++)
		if (p->steps[i].kind == PATH_FIELD) {
			sb_addc(&b->so_far, '.');
			sb_adds(&b->so_far, p->steps[i].name);
		} else
			sb_adds(&b->so_far, "['...']");
	return b->so_far.buf;
}

/*
 * Type the path p.  On failure returns false; unless quiet, an error at
 * l says why (never quoting a step that is not a plain name).
 */
static bool
type_path(struct binder *b, struct chk_loc *l, const struct path *p, bool quiet,
    struct typed *out)
{
	const struct ty *t;
	struct chk_scol *sc = NULL;
	json_t *steps;
	const char **names;
	size_t i;
	char hint[160];
	bool ok = false;

	memset(out, 0, sizeof(*out));
	/* Even a stream column: the refused explode was meant here. */
	if (json_object_get(b->as_refused, p->steps[0].name) != NULL)
		quiet = true;
	if (b->as != NULL && strcmp(p->steps[0].name, b->as) == 0) {
		t = b->elem;
		if (!t->required)
			out->why = chk_str_join(b->as, ", the exploded "
			    "element, can be null");
	} else if ((sc = chk_stream_col(b->s, p->steps[0].name)) != NULL) {
		t = sc->type;
		if (!t->required)
			out->why = chk_str_join(sc->name, sc->origin ==
			    CHK_ORIGIN_KEY ? " is a key column, null for a "
			    "record with no key" : " can be null");
	} else {
		/* Already refused where it is declared: not again here. */
		if (root_refused(b, p->steps[0].name) || b->as_unnamed)
			quiet = true;
		if (!quiet) {
			hint[0] = '\0';
			if (chk_suggest(b->c)) {
				names = xcalloc(b->s->ncols + 2,
				    sizeof(*names));
				for (i = 0; i < b->s->ncols; i++)
					names[i] = b->s->cols[i].name;
				names[i] = b->as;
				chk_didyoumean(p->steps[0].name, names,
				    b->s->ncols + 1, hint, sizeof(hint));
				free(names);
			}
			chk_err(b->c, l, "%s is not a column of "
			    "properties.stream%s", p->steps[0].name, hint);
		}
		goto out;
	}
	/* Nothing adds to a path's steps once made (see path_child()). */
	steps = p->n > 1 ? json_array() : json_incref(b->no_steps);
	out->expr = path_expr(b, sc, steps);
	for (i = 1; i < p->n; i++) {
		const struct path_step *st = &p->steps[i];

		if (st->kind == PATH_FIELD && t->kind == TY_STRUCT) {
			const struct ty_field *f = ty_field(t, st->name);

			if (f == NULL) {
				if (!quiet) {
					field_hint(b->c, t, st->name, hint,
					    sizeof(hint));
					chk_err(b->c, l, "%s has no field %s%s",
					    path_so_far(b, p, i), st->name,
					    hint);
				}
				goto out;
			}
			t = f->type;
			json_array_append_new(steps, step_json(&b->field_steps,
			    st->name));
			if (!t->required && out->why == NULL)
				out->why = chk_str_join(
				    path_so_far(b, p, i + 1), " can be null");
		} else if (st->kind == PATH_FIELD) {
			if (!quiet && t->kind == TY_ARRAY)
				chk_err(b->c, l, "%s is an array: explode it "
				    "in properties.mapping.explode and read "
				    "its element's fields",
				    path_so_far(b, p, i));
			else if (!quiet)
				chk_err(b->c, l, "%s is not a struct, so it "
				    "has no field %s", path_so_far(b, p, i),
				    st->name);
			goto out;
		} else if (t->kind == TY_MAP) {
			t = t->value;
			json_array_append_new(steps, step_json(&b->key_steps,
			    st->name));
			if (out->why == NULL)
				out->why = chk_str_join(path_so_far(b, p, i),
				    "['...'] is a map lookup, null when the "
				    "key is missing");
		} else {
			if (!quiet)
				chk_err(b->c, l, "%s is not a map, so it has "
				    "no ['...'] entries", path_so_far(b, p, i));
			goto out;
		}
	}
	out->type = t;
	out->nullable = out->why != NULL;
	set_type(b, out->expr, t, out->nullable);
	ok = true;
out:
	if (!ok)
		typed_release(out);
	return ok;
}

/*
 * Same shape, for arrays and maps, which are copied as they are: same
 * kinds and parameters, same field names in the same order, and nothing
 * that may be null where the output requires it.
 */
static bool
same_shape(const struct ty *src, const struct ty *dst)
{
	size_t i;

	if (src->kind != dst->kind || src->precision != dst->precision ||
	    src->scale != dst->scale || (dst->required && !src->required))
		return false;
	switch (src->kind) {
	case TY_STRUCT:
		if (src->nfields != dst->nfields)
			return false;
		for (i = 0; i < src->nfields; i++)
			if (strcmp(src->fields[i].name, dst->fields[i].name) ||
			    !same_shape(src->fields[i].type,
			    dst->fields[i].type))
				return false;
		return true;
	case TY_ARRAY:
		return same_shape(src->element, dst->element);
	case TY_MAP:
		return same_shape(src->key, dst->key) &&
		    same_shape(src->value, dst->value);
	default:
		return true;
	}
}

/*
 * Say where and how src and dst, for which same_shape() is false, first
 * differ, for a message: at is the place so far, spelt as paths are
 * with "[]" for an array's element, "['...']" for a map's value and
 * "{key}" for its key ("items[].price is decimal(18,2) in the source
 * and decimal(20,2) in the output").  Returns false if they agree.
 */
static bool
shape_diff(const struct ty *src, const struct ty *dst, struct sb *at,
    struct sb *why)
{
	size_t i, n = at->len;
	char *sn, *dn;

	if (src->kind != dst->kind || src->precision != dst->precision ||
	    src->scale != dst->scale) {
		sn = type_name(src);
		dn = type_name(dst);
		sb_addf(why, "%s is %s in the source and %s in the output",
		    at->buf, sn, dn);
		free(sn);
		free(dn);
		return true;
	}
	if (dst->required && !src->required) {
		sb_addf(why, "%s can be null in the source but is required in "
		    "the output", at->buf);
		return true;
	}
	switch (src->kind) {
	case TY_STRUCT:
		for (i = 0; i < src->nfields && i < dst->nfields; i++) {
			if (strcmp(src->fields[i].name, dst->fields[i].name)) {
				sb_addf(why, "field %zu of %s is %s in the "
				    "source and %s in the output", i + 1,
				    at->buf, src->fields[i].name,
				    dst->fields[i].name);
				return true;
			}
			sb_addf(at, ".%s", src->fields[i].name);
			if (shape_diff(src->fields[i].type,
			    dst->fields[i].type, at, why))
				return true;
			sb_truncate(at, n);
		}
		if (src->nfields != dst->nfields) {
			sb_addf(why, "%s has %zu fields in the source and %zu "
			    "in the output", at->buf, src->nfields,
			    dst->nfields);
			return true;
		}
		return false;
	case TY_ARRAY:
		sb_adds(at, "[]");
		if (shape_diff(src->element, dst->element, at, why))
			return true;
		break;
	case TY_MAP:
		sb_adds(at, "{key}");
		if (shape_diff(src->key, dst->key, at, why))
			return true;
		sb_truncate(at, n);
		sb_adds(at, "['...']");
		if (shape_diff(src->value, dst->value, at, why))
			return true;
		break;
	default:
		break;
	}
	sb_truncate(at, n);
	return false;
}

/* Where an output column (or field) is, for messages about it. */
struct oloc {
	struct chk_loc	*l;	/* the output column in the expose */
	struct chk_loc	*el;	/* the entry's from, or NULL (by name) */
	const char	*name;	/* dotted output name */
};

/* Report at the entry if there is one, else at the output column. */
static void __attribute__((format(printf, 3, 4)))
oerr(struct binder *b, const struct oloc *o, const char *fmt, ...)
{
	va_list ap;
	char *msg, *save;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (o->el != NULL)
		chk_err(b->c, o->el, "%s", msg);
	else {
		save = b->c->build;
		b->c->build = "";
		chk_err(b->c, o->l, "%s", msg);
		b->c->build = save;
	}
	free(msg);
}

static json_t *convert(struct binder *, const struct oloc *,
    const struct ty *dst, struct typed *src);

/* A struct read from one source struct: field by field, by name. */
static json_t *
convert_struct(struct binder *b, const struct oloc *o, const struct ty *dst,
    struct typed *src)
{
	json_t *fields = json_array(), *e, *fe;
	const struct ty_field *sf;
	struct typed child;
	struct oloc co = *o;
	size_t i;
	bool ok = true;
	char hint[160];

	for (i = 0; i < dst->nfields; i++) {
		const char *fname = dst->fields[i].name;

		co.name = NULL;
		sf = ty_field(src->type, fname);
		char *cname = xasprintf("%s.%s", o->name, fname);

		co.name = cname;
		if (sf == NULL) {
			field_hint(b->c, src->type, fname, hint, sizeof(hint));
			oerr(b, &co, "%s: the source struct has no field %s%s",
			    cname, fname, hint);
			free(cname);
			ok = false;
			continue;
		}
		memset(&child, 0, sizeof(child));
		child.type = sf->type;
		/* Relative to a present struct: its own required stands. */
		child.nullable = !sf->type->required;
		child.why = child.nullable ?
		    chk_str_join(cname, " can be null") : NULL;
		child.expr = path_child(b, src->expr, fname);
		set_type(b, child.expr, sf->type, child.nullable);
		fe = convert(b, &co, dst->fields[i].type, &child);
		typed_release(&child);
		free(cname);
		if (fe == NULL) {
			ok = false;
			continue;
		}
		json_array_append_new(fields, named_expr(fname, fe));
	}
	if (!ok) {
		json_decref(fields);
		return NULL;
	}
	e = op_expr(b, CHK_WORD_STRUCT);
	json_object_set_new_nocheck(e, "fields", fields);
	json_object_set_nocheck(e, "nullIf", src->nullable ? src->expr :
	    json_null());
	set_type(b, e, dst, src->nullable);
	return e;
}

/* Make src fit dst: equal, widened, or built field by field. */
static json_t *
convert(struct binder *b, const struct oloc *o, const struct ty *dst,
    struct typed *src)
{
	char *sn, *dn;
	json_t *e = NULL;

	if (dst->required && src->nullable) {
		oerr(b, o, "%s is required, but its source can be null (%s)%s",
		    o->name, src->why ? src->why : "nullable", dst->kind ==
		    TY_STRUCT ? "; a struct read from a nullable struct "
		    "may not be declared required" : "");
		return NULL;
	}
	if (dst->kind == TY_STRUCT && src->type->kind == TY_STRUCT)
		return convert_struct(b, o, dst, src);
	if ((dst->kind == TY_ARRAY || dst->kind == TY_MAP) &&
	    src->type->kind == dst->kind) {
		struct ty *s2 = ty_copy(src->type), *d2 = ty_copy(dst);

		/* The top level's nullability was checked above. */
		s2->required = d2->required = true;
		if (same_shape(s2, d2))
			e = json_incref(src->expr);
		ty_free(s2);
		ty_free(d2);
		if (e != NULL)
			return e;
		{
			struct sb at, why;

			sb_init(&at);
			sb_init(&why);
			sb_adds(&at, o->name);
			s2 = ty_copy(src->type);
			d2 = ty_copy(dst);
			s2->required = d2->required = true;
			if (!shape_diff(s2, d2, &at, &why))
				sb_adds(&why, "they differ");
			ty_free(s2);
			ty_free(d2);
			sn = type_name(src->type);
			oerr(b, o, "%s: arrays and maps are copied as they "
			    "are: the output's %s must match the source's "
			    "exactly, with no widening or reordering inside "
			    "it, and required only where the source is; %s",
			    o->name, sn, why.buf);
			free(sn);
			sb_release(&at);
			sb_release(&why);
		}
		return NULL;
	}
	if (!ty_is_container(dst->kind) && !ty_is_container(src->type->kind)) {
		if (ty_scalar_widens(src->type, dst)) {
			if (src->type->kind == dst->kind &&
			    src->type->precision == dst->precision &&
			    src->type->scale == dst->scale)
				return json_incref(src->expr);
			e = op_expr(b, CHK_WORD_WIDEN);
			json_object_set_nocheck(e, "arg", src->expr);
			set_type(b, e, dst, src->nullable);
			return e;
		}
	}
	sn = type_name(src->type);
	dn = type_name(dst);
	if (src->type->kind == TY_BINARY && dst->kind == TY_STRING)
		oerr(b, o, "%s: the source is binary and the output a string; "
		    "read it as text with cast: string", o->name);
	else
		oerr(b, o, "%s: the source is %s and the output %s; only "
		    "widenings are converted (int to long, float to double, "
		    "a decimal with more precision at the same scale, a "
		    "finer timestamp)", o->name, sn, dn);
	free(sn);
	free(dn);
	return NULL;
}

static struct ty string_type = { .kind = TY_STRING };

/* Bind the output column (or field) named name, of type dst. */
static json_t *
bind(struct binder *b, struct chk_loc *l, const struct ty *dst,
    const char *name, struct path *defsrc)
{
	struct oloc o = { l, NULL, name };
	json_t *e = NULL, *fields;
	struct entry *en;
	struct typed t;
	struct chk_loc *el = &b->el;
	size_t i;
	bool ok = true, listed = chk_name_index_get(&b->by_name, name, &i);

	if (!listed && json_object_size(b->refused) > 0 &&
	    json_object_get(b->refused, name) != NULL)
		return NULL;	/* its entry was refused: said there */
	if (listed) {
		/* Never while another bind() uses el: this one calls none. */
		en = &b->entries[i];
		chk_loc_reset(el, b->cols);
		chk_loc_idx(el, en->idx);
		chk_loc_key(el, "from");
		o.el = el;
		if (type_path(b, el, &en->from, false, &t)) {
			if (en->cast && t.type->kind != TY_BINARY) {
				char *tn = type_name(t.type);

				chk_err(b->c, el, "%s: cast: string reads "
				    "binary as UTF-8 text, and this path is %s",
				    name, tn);
				free(tn);
			} else {
				if (en->cast) {
					json_t *c = op_expr(b, CHK_WORD_CAST);

					json_object_set_new_nocheck(c, "arg",
					    t.expr);
					set_type(b, c, &string_type,
					    t.nullable);
					t.expr = c;
					t.type = &string_type;
				}
				e = convert(b, &o, dst, &t);
			}
			typed_release(&t);
		}
		return e;
	}
	if (dst->kind == TY_STRUCT && json_object_get(b->prefixes, name)) {
		/* Built here, field by field; unlisted fields by name. */
		fields = json_array();
		for (i = 0; i < dst->nfields; i++) {
			const char *f = dst->fields[i].name;
			char *cname = xasprintf("%s.%s", name, f);
			struct path sub = { NULL, 0 };
			json_t *fe;

			if (defsrc != NULL) {
				sub.n = defsrc->n + 1;
				sub.steps = xcalloc(sub.n, sizeof(*sub.steps));
				memcpy(sub.steps, defsrc->steps, defsrc->n *
				    sizeof(*sub.steps));
				sub.steps[defsrc->n].kind = PATH_FIELD;
				sub.steps[defsrc->n].name =
				    (char *)(uintptr_t)f;
			}
			fe = bind(b, l, dst->fields[i].type, cname,
			    defsrc ? &sub : NULL);
			free(sub.steps);
			free(cname);
			if (fe == NULL) {
				ok = false;
				continue;
			}
			json_array_append_new(fields, named_expr(f, fe));
		}
		if (!ok)
			return json_decref(fields), NULL;
		e = op_expr(b, CHK_WORD_STRUCT);
		json_object_set_new_nocheck(e, "fields", fields);
		json_object_set_new_nocheck(e, "nullIf", json_null());
		set_type(b, e, dst, false);
		return e;
	}
	if (defsrc == NULL || !type_path(b, l, defsrc, true, &t)) {
		if (defsrc == NULL || !root_refused(b, defsrc->steps[0].name))
			oerr(b, &o, "%s is not a column of "
			    "properties.stream; map %s in "
			    "properties.mapping.columns", name, name);
		return NULL;
	}
	e = convert(b, &o, dst, &t);
	typed_release(&t);
	return e;
}

/* An entry's output name: dotted names down through output structs. */
static bool
entry_name_ok(struct binder *b, struct chk_loc *l, const char *name,
    const struct ty *schema, const struct chk_name_index *top)
{
	struct path p;
	struct path_step plain = { PATH_FIELD, NULL };
	const struct ty *t = schema;
	const struct ty_field *f;
	const char *why;
	size_t i, k;
	char hint[160];
	bool ok;

	/* Most names are plain: what path_parse() would make of them. */
	if (path_is_ident(name)) {
		plain.name = (char *)(uintptr_t)name;
		p.steps = &plain;
		p.n = 1;
	} else if (path_parse(name, &p, &why) == -1) {
		chk_err(b->c, l, "is not an output column name: %s", why);
		return false;
	}
	for (i = 0; i < p.n; i++) {
		if (p.steps[i].kind != PATH_FIELD) {
			chk_err(b->c, l, "names an output column or a field of "
			    "one, without map keys");
			break;
		}
		if (t->kind != TY_STRUCT) {
			chk_err(b->c, l, "%s: only struct fields can be built "
			    "field by field", name);
			break;
		}
		if (i == 0)
			f = chk_name_index_get(top, p.steps[0].name, &k) ?
			    &t->fields[k] : NULL;
		else
			f = ty_field(t, p.steps[i].name);
		if (f == NULL && i == 0 &&
		    chk_name_in(b->xbad, p.steps[0].name))
			break;	/* its declaration was refused */
		if (f == NULL) {
			field_hint(b->c, t, p.steps[i].name, hint,
			    sizeof(hint));
			chk_err(b->c, l, "%s is not a column of %s%s", name,
			    b->xpath, hint);
			break;
		}
		t = f->type;
	}
	ok = i == p.n;
	if (p.steps != &plain)
		path_release(&p);
	return ok;
}

/* Record the dotted prefixes of name: those structs are built here. */
static void
add_prefixes(struct binder *b, const char *name)
{
	char *pre = xstrdup(name), *dot;

	while ((dot = strrchr(pre, '.')) != NULL) {
		*dot = '\0';
		json_object_set_new(b->prefixes, pre, json_true());
	}
	free(pre);
}

static bool
entries_parse(struct binder *b, struct chk_loc *l, json_t *cols,
    const struct ty *schema, const struct chk_name_index *top)
{
	struct chk_loc_mark m = chk_loc_mark(l), mc, m2;
	const char *name, *from, *cast, *why;
	struct entry *en;
	json_t *e;
	size_t i, n;
	bool ok = true, good, named;

	chk_loc_key(l, "columns");
	mc = chk_loc_mark(l);	/* each entry is reset to here */
	if (!json_is_array(cols)) {
		chk_err(b->c, l, "must be a list of {name, from}");
		chk_loc_reset(l, m);
		return false;
	}
	b->entries = xcalloc(json_array_size(cols) + 1, sizeof(*b->entries));
	chk_name_index_reserve(&b->by_name, json_array_size(cols));
	json_array_foreach(cols, i, e) {
		chk_loc_idx(l, i);
		m2 = chk_loc_mark(l);
		if (!json_is_object(e)) {
			chk_err(b->c, l, "must be a mapping {name, from}");
			ok = false;
			chk_loc_reset(l, mc);
			continue;
		}
		good = chk_only_keys(b->c, l, e, entry_keys) == 0;
		name = chk_get_str(b->c, l, e, "name", true);
		from = chk_get_str(b->c, l, e, "from", true);
		cast = chk_get_str(b->c, l, e, "cast", false);
		en = &b->entries[b->nentries];
		memset(en, 0, sizeof(*en));
		if (cast != NULL && strcmp(cast, "string") != 0) {
			chk_err_at(b->c, l, "cast", "only cast: string is "
			    "supported (binary read as UTF-8 text); a widening "
			    "needs no cast, and every other conversion is "
			    "refused");
			good = false;
		}
		/*
		 * The name is checked before it is compared with the
		 * others, so that only a name that parses is ever echoed.
		 */
		named = false;
		if (name != NULL) {
			chk_loc_key(l, "name");
			if (!entry_name_ok(b, l, name, schema, top))
				good = false;
			else if (chk_name_index_get(&b->by_name, name, &n) ||
			    json_object_get(b->refused, name) != NULL) {
				chk_err(b->c, l, "%s is mapped twice", name);
				good = false;
			} else
				named = true;
			chk_loc_reset(l, m2);
		} else
			good = false;
		if (from != NULL) {
			chk_loc_key(l, "from");
			if (path_parse(from, &en->from, &why) == -1) {
				/* A path is never echoed: it may be SQL. */
				chk_err(b->c, l, "is not a path: %s", why);
				good = false;
			}
			chk_loc_reset(l, m2);
		} else
			good = false;
		if (named)
			add_prefixes(b, name);
		chk_loc_reset(l, mc);
		if (!good) {
			/* Its output is not bound by name instead: quiet. */
			if (named)
				json_object_set_new(b->refused, name,
				    json_true());
			path_release(&en->from);
			ok = false;
			continue;
		}
		en->name = xstrdup(name);
		en->cast = cast != NULL;
		en->idx = i;
		chk_name_index_put(&b->by_name, en->name, b->nentries);
		b->nentries++;
	}
	/* "a" mapped whole and "a.b" mapped too: which one wins? Neither. */
	for (i = 0; i < b->nentries; i++)
		if (json_object_get(b->prefixes, b->entries[i].name)) {
			chk_loc_idx(l, b->entries[i].idx);
			chk_loc_key(l, "name");
			chk_err(b->c, l, "%s is mapped whole, so its fields "
			    "cannot be mapped too", b->entries[i].name);
			chk_loc_reset(l, mc);
			ok = false;
		}
	chk_loc_reset(l, m);
	return ok;
}

static json_t *
explode_parse(struct binder *b, struct chk_loc *l, json_t *ex)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *ps, *as, *why;
	struct path p;
	struct typed t;
	json_t *ir = NULL;
	size_t i;
	bool ok;

	chk_loc_key(l, "explode");
	if (json_is_array(ex)) {
		json_t *e;

		chk_err(b->c, l, "one explode per build: exploding more than "
		    "one array is not supported");
		json_array_foreach(ex, i, e) {
			as = json_string_value(json_object_get(e, "as"));
			if (as != NULL && path_is_ident(as))
				json_object_set_new(b->as_refused, as,
				    json_true());
			else
				b->as_unnamed = true;
		}
		return chk_loc_reset(l, m), NULL;
	}
	if (!json_is_object(ex)) {
		chk_err(b->c, l, "must be a mapping {path, as}");
		b->as_unnamed = true;
		return chk_loc_reset(l, m), NULL;
	}
	ok = chk_only_keys(b->c, l, ex, explode_keys) == 0;
	ps = chk_get_str(b->c, l, ex, "path", true);
	as = chk_get_str(b->c, l, ex, "as", true);
	if (as != NULL) {
		chk_loc_key(l, "as");
		if (!path_is_ident(as)) {
			chk_err(b->c, l, "must be a plain SQL identifier");
			ok = false;
		} else if (chk_name_index_get(&b->s->index, as, &i)) {
			chk_err(b->c, l, "%s is already a column of "
			    "properties.stream: choose another name", as);
			ok = false;
		}
		chk_loc_reset(l, m);
		chk_loc_key(l, "explode");
	}
	/* Until the explode is accepted, paths from as are not reported. */
	if (as != NULL && path_is_ident(as))
		json_object_set_new(b->as_refused, as, json_true());
	else
		b->as_unnamed = true;
	if (ps == NULL || as == NULL) {
		chk_loc_reset(l, m);
		return NULL;
	}
	chk_loc_key(l, "path");
	if (path_parse(ps, &p, &why) == -1) {
		chk_err(b->c, l, "is not a path: %s", why);
		chk_loc_reset(l, m);
		return NULL;
	}
	for (i = 0; i < p.n; i++)
		if (p.steps[i].kind != PATH_FIELD) {
			chk_err(b->c, l, "exploding a map entry is not "
			    "supported: the path is a dotted name of an "
			    "array");
			ok = false;
			break;
		}
	if (i == p.n && type_path(b, l, &p, false, &t)) {
		if (t.type->kind == TY_MAP)
			chk_err(b->c, l, "%s is a map: exploding a map is not "
			    "supported", ps);
		else if (t.type->kind != TY_ARRAY)
			chk_err(b->c, l, "%s is not an array", ps);
		else if (ok) {
			b->elem = ty_copy(t.type->element);
			b->as = xstrdup(as);
			b->as_json = json_string(as);
			json_object_del(b->as_refused, as);
			ir = json_pack("{s:O, s:O, s:o}", "path", t.expr,
			    "as", b->as_json, "element", ty_to_json_shared(
			    b->elem, NULL, &b->c->names));
		}
		typed_release(&t);
	}
	path_release(&p);
	chk_loc_reset(l, m);
	return ir;
}

static void
binder_release(struct binder *b)
{
	size_t i;

	for (i = 0; i < b->nentries; i++) {
		free(b->entries[i].name);
		path_release(&b->entries[i].from);
	}
	free(b->entries);
	chk_name_index_release(&b->by_name);
	json_decref(b->prefixes);
	json_decref(b->refused);
	steps_release(&b->field_steps);
	steps_release(&b->key_steps);
	json_decref(b->no_steps);
	ty_free(b->elem);
	free(b->as);
	json_decref(b->as_json);
	json_decref(b->as_refused);
	chk_loc_release(&b->el);
	sb_release(&b->so_far);
}

/*
 * {"name", "required", "expr"} of the output column schema's field i,
 * taking over e.
 */
static json_t *
output_json(const struct ty *schema, json_t *names, size_t i, json_t *e)
{
	const struct ty_field *f = &schema->fields[i];
	json_t *o, *n = chk_field_name_json(names, schema, i);

	if (n == NULL) {
		json_decref(e);
		return NULL;
	}
	o = json_object();
	json_object_set_new_nocheck(o, "name", n);
	json_object_set_new_nocheck(o, "required",
	    json_boolean(f->type->required));
	json_object_set_new_nocheck(o, "expr", e);
	return o;
}

bool
chk_mapping_check(struct chk *c, struct chk_loc *build, json_t *props,
    struct chk_stream *s, struct ty *schema, json_t *names, json_t *xbad,
    const char *xptr, const char *xpath, json_t *ir)
{
	struct binder b;
	struct chk_loc l, ol;
	struct chk_loc_mark om;
	json_t *mapping, *ex, *outputs, *e;
	struct chk_name_index top;
	struct path def;
	struct path_step step;
	size_t i;
	bool ok = true;

	memset(&b, 0, sizeof(b));
	b.c = c;
	b.s = s;
	chk_name_index_init(&b.by_name, false);
	b.prefixes = json_object();
	b.refused = json_object();
	b.as_refused = json_object();
	steps_init(&b.field_steps, "field");
	steps_init(&b.key_steps, "key");
	b.no_steps = json_array();
	b.xbad = xbad;
	b.xptr = xptr;
	b.xpath = xpath;
	chk_loc_init(&b.el);
	chk_loc_set(&b.el, build->ptr.buf, build->path.buf);
	chk_loc_key(&b.el, "properties");
	chk_loc_key(&b.el, "mapping");
	chk_loc_key(&b.el, "columns");
	b.cols = chk_loc_mark(&b.el);
	sb_init(&b.so_far);
	chk_loc_init(&l);
	chk_loc_set(&l, build->ptr.buf, build->path.buf);
	chk_loc_key(&l, "properties");
	chk_name_index_init(&top, false);
	chk_name_index_reserve(&top, schema->nfields);
	for (i = 0; i < schema->nfields; i++)
		chk_name_index_put(&top, schema->fields[i].name, i);
	mapping = chk_get_obj(c, &l, props, "mapping", false);
	if (mapping == NULL && json_object_get(props, "mapping") != NULL &&
	    !json_is_null(json_object_get(props, "mapping")))
		ok = false;
	if (mapping != NULL) {
		chk_loc_key(&l, "mapping");
		ok &= chk_only_keys(c, &l, mapping, mapping_keys) == 0;
		if ((ex = json_object_get(mapping, "explode")) != NULL &&
		    !json_is_null(ex)) {
			e = explode_parse(&b, &l, ex);
			if (e == NULL)
				ok = false;
			else
				json_object_set_new(ir, "explode", e);
		}
		if (json_object_get(mapping, "columns") != NULL)
			ok &= entries_parse(&b, &l, json_object_get(mapping,
			    "columns"), schema, &top);
	}
	if (json_object_get(ir, "explode") == NULL)
		json_object_set_new(ir, "explode", json_null());
	outputs = json_array();
	chk_loc_init(&ol);
	chk_loc_set(&ol, xptr, xpath);
	om = chk_loc_mark(&ol);
	for (i = 0; i < schema->nfields; i++) {
		const struct ty_field *f = &schema->fields[i];

		chk_loc_reset(&ol, om);
		chk_loc_named(&ol, i, f->name);
		step.kind = PATH_FIELD;
		step.name = f->name;
		def.steps = &step;
		def.n = 1;
		e = bind(&b, &ol, f->type, f->name, &def);
		if (e == NULL) {
			ok = false;
			continue;
		}
		json_array_append_new(outputs, output_json(schema, names, i,
		    e));
	}
	json_object_set_new(ir, "outputs", outputs);
	chk_name_index_release(&top);
	chk_loc_release(&ol);
	chk_loc_release(&l);
	binder_release(&b);
	return ok;
}

/* Is the token t of sql the word (or `word`) w, in any case? */
static bool
tok_is(const char *sql, const struct sqllex_tok *t, const char *w)
{
	size_t n = strlen(w);

	if (t->kind == SQLLEX_QUOTED && sql[t->off] == '`')
		return t->len == n + 2 && strncmp(sql + t->off + 1, w, n) == 0;
	return t->kind == SQLLEX_WORD && t->len == n &&
	    strncasecmp(sql + t->off, w, n) == 0;
}

/* The 1-based character (not byte) of sql at byte off, for messages. */
static size_t
char_at(const char *sql, size_t off)
{
	size_t i, n = 1;

	for (i = 0; i < off && sql[i] != '\0'; i++)
		n += ((unsigned char)sql[i] & 0xc0) != 0x80;
	return n;
}

/*
 * The lexical rules are sqllex_query()'s, which fluid-sqlgen applies
 * again; one reason is reported, the first, and the SQL is never echoed.
 */
bool
chk_sql_check(struct chk *c, struct chk_loc *l, const char *sql)
{
	struct sqllex_tok t;
	enum sqllex_err err;
	size_t off = 0, pos;

	if ((err = sqllex_query(sql, &off)) != SQLLEX_OK) {
		if (err == SQLLEX_CONTROL || err == SQLLEX_SEMICOLON ||
		    err == SQLLEX_HINTED || err == SQLLEX_DASHES ||
		    err == SQLLEX_COMMENTED)
			chk_err(c, l, "%s", sqllex_why(err));
		else
			chk_err(c, l, "%s (at character %zu of the SQL)",
			    sqllex_why(err), char_at(sql, off));
		return false;
	}
	sqllex_next(sql, 0, &t);
	if (!tok_is(sql, &t, "select")) {
		chk_err(c, l, "must be one SELECT from source_events");
		return false;
	}
	for (pos = t.off + t.len;; pos = t.off + t.len) {
		sqllex_next(sql, pos, &t);
		if (t.kind == SQLLEX_END)
			break;
		if (tok_is(sql, &t, "source_events"))
			return true;
	}
	chk_err(c, l, "must be one SELECT from source_events");
	return false;
}

/* A path at o[key] that parses, with only field steps unless keys. */
static bool
shape_path(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool keys)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *s = chk_get_str(c, l, o, key, true), *why;
	struct path p;
	size_t i;
	bool ok = true;

	if (s == NULL)
		return false;
	chk_loc_key(l, key);
	if (path_parse(s, &p, &why) == -1) {
		/* A path is never echoed: it may be SQL. */
		chk_err(c, l, "is not a path: %s", why);
		ok = false;
	} else {
		for (i = 0; !keys && i < p.n; i++)
			if (p.steps[i].kind != PATH_FIELD) {
				chk_err(c, l, "is a dotted name, without map "
				    "keys");
				ok = false;
				break;
			}
		path_release(&p);
	}
	chk_loc_reset(l, m);
	return ok;
}

bool
chk_mapping_shape_check(struct chk *c, struct chk_loc *l, json_t *mapping)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *cols, *ex, *e;
	const char *cast, *as;
	size_t i;
	bool ok;

	if (!json_is_object(mapping)) {
		chk_err(c, l, "a recordMapping is a mapping with explode and "
		    "columns");
		return false;
	}
	ok = chk_only_keys(c, l, mapping, mapping_keys) == 0;
	if ((ex = json_object_get(mapping, "explode")) != NULL) {
		chk_loc_key(l, "explode");
		if (!json_is_object(ex)) {
			chk_err(c, l, "one explode per build, a mapping "
			    "{path, as}");
			ok = false;
		} else {
			ok &= chk_only_keys(c, l, ex, explode_keys) == 0;
			ok &= shape_path(c, l, ex, "path", false);
			if ((as = chk_get_str(c, l, ex, "as", true)) == NULL)
				ok = false;
			else if (!path_is_ident(as)) {
				chk_err_at(c, l, "as", "must be a plain SQL "
				    "identifier");
				ok = false;
			}
		}
		chk_loc_reset(l, m);
	}
	cols = chk_get_arr(c, l, mapping, "columns", false);
	if (cols == NULL && json_object_get(mapping, "columns") != NULL)
		ok = false;
	chk_loc_key(l, "columns");
	json_array_foreach(cols, i, e) {
		struct chk_loc_mark m2 = chk_loc_mark(l);

		chk_loc_idx(l, i);
		if (!json_is_object(e)) {
			chk_err(c, l, "must be a mapping {name, from}");
			ok = false;
		} else {
			ok &= chk_only_keys(c, l, e, entry_keys) == 0;
			ok &= shape_path(c, l, e, "name", false);
			ok &= shape_path(c, l, e, "from", true);
			cast = chk_get_str(c, l, e, "cast", false);
			if (cast != NULL && strcmp(cast, "string") != 0) {
				chk_err_at(c, l, "cast", "only cast: string "
				    "is supported (binary read as UTF-8 "
				    "text); a widening needs no cast, and "
				    "every other conversion is refused");
				ok = false;
			}
		}
		chk_loc_reset(l, m2);
	}
	chk_loc_reset(l, m);
	return ok;
}
