/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_schema.c - column lists into struct ty trees.
 *
 * The same column shape serves the stream's value and key schemas and the
 * expose's contract schema: name, type, required (default false), and
 * for containers their children spelled out (struct: fields, array:
 * element, map: key and value).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "jptr.h"

static const char *const column_keys[] = {
	"name", "type", "required", "description", "fields", "element",
	"key", "value", NULL
};
/* The children's keys: column_keys[KIDS_AT + i] is kids[i]. */
#define KIDS_AT	4
/* The keys whose values a walk keeps: column_keys[KEY_NAME] ... */
enum { KEY_NAME, KEY_TYPE, KEY_REQUIRED, KEY_DESCRIPTION, NKEPT };

/* Rules that the managed lane would not enforce are refused, not kept. */
static const char *const unenforced_keys[] = {
	"quality", "policies", "policy", NULL
};

/* What a column's keys are, found in one walk over them. */
struct col_keys {
	unsigned	known;		/* bit i: column_keys[i] is there */
	unsigned	unenforced;	/* bit i: unenforced_keys[i] is */
	bool		other;		/* some key is in neither list */
	json_t		*value[NKEPT];	/* name ... description, or NULL */
};

/*
 * A column has two or three keys, and is asked about a dozen: a walk
 * over what it has answers them all at once.
 */
static struct col_keys
col_keys(json_t *col)
{
	struct col_keys ck = { 0, 0, false, { NULL } };
	const char *k;
	json_t *v;
	int i;

	json_object_foreach(col, k, v) {
		if ((i = chk_word_index(k, column_keys)) >= 0) {
			ck.known |= 1u << i;
			if (i < NKEPT)
				ck.value[i] = v;
		} else if ((i = chk_word_index(k, unenforced_keys)) >= 0)
			ck.unenforced |= 1u << i;
		else
			ck.other = true;
	}
	return ck;
}

static struct ty *column_list(struct chk *, struct chk_loc *, json_t *, int,
    json_t *, bool *, json_t *);

static bool
refuse_unenforced(struct chk *c, struct chk_loc *l, unsigned present)
{
	bool bad = false;
	size_t i;

	for (i = 0; unenforced_keys[i] != NULL; i++) {
		if (!(present & 1u << i))
			continue;
		chk_err_at(c, l, unenforced_keys[i], "nested quality and "
		    "policy rules are not enforced by the managed lane, so "
		    "they are refused rather than advertised; remove them");
		bad = true;
	}
	return bad;
}

/* A child (element, key, value): its own location step. */
static struct ty *
child(struct chk *c, struct chk_loc *l, json_t *col, const char *key, int depth)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *v = chk_get_obj(c, l, col, key, true);
	struct ty *t = NULL;

	if (v != NULL) {
		chk_loc_key(l, key);
		if (json_object_get(v, "name") != NULL)
			chk_err_at(c, l, "name", "an %s has no name", key);
		t = chk_schema_column(c, l, v, depth);
		chk_loc_reset(l, m);
	}
	return t;
}

/*
 * The column's description, copied, or NULL when it has none; *bad is
 * set when it has one that cannot be carried (ty_doc_why()).  The text
 * is never quoted back: it is what is wrong with it.
 */
static char *
description(struct chk *c, struct chk_loc *l, json_t *v, int *bad)
{
	const char *s, *why;

	if (v == NULL || json_is_null(v))
		return NULL;
	if ((s = chk_str_at(c, l, "description", v, false)) == NULL) {
		(*bad)++;
		return NULL;
	}
	if ((why = ty_doc_why(s, json_string_length(v))) != NULL) {
		chk_err_at(c, l, "description", "%s", why);
		(*bad)++;
		return NULL;
	}
	return xstrdup(s);
}

/* A column (an object) whose keys ck tells. */
static struct ty *
column_of(struct chk *c, struct chk_loc *l, json_t *col,
    const struct col_keys *ck, int depth)
{
	const char *const *kids = column_keys + KIDS_AT;
	struct chk_loc_mark m = chk_loc_mark(l);
	struct ty_name tn;
	struct ty *t, *k, *v;
	const char *type, *why;
	json_t *fields;
	size_t i;
	int req, bad = 0;
	bool fok = true;

	if (ck->unenforced != 0)
		bad += refuse_unenforced(c, l, ck->unenforced);
	/* The unenforced keys were reported above: not again as unknown. */
	if (ck->other)
		bad += chk_only_keys_except(c, l, col, column_keys,
		    unenforced_keys);
	req = chk_bool_at(c, l, "required", ck->value[KEY_REQUIRED]);
	if ((type = chk_str_at(c, l, "type", ck->value[KEY_TYPE], true)) ==
	    NULL)
		return NULL;
	if (ty_name_parse(type, &tn, &why) == -1) {
		if (chk_has_control(type) || strlen(type) > 64)
			chk_err_at(c, l, "type", "unknown type: %s", why);
		else
			chk_err_at(c, l, "type", "'%s' is not a FLUID type: %s",
			    type, why);
		return NULL;
	}
	for (i = 0; i < 4; i++) {
		bool wanted = (tn.kind == TY_STRUCT && i == 0) ||
		    (tn.kind == TY_ARRAY && i == 1) ||
		    (tn.kind == TY_MAP && (i == 2 || i == 3));

		if (!wanted && (ck->known & 1u << (KIDS_AT + i))) {
			chk_err_at(c, l, kids[i], "a %s column has no %s", type,
			    kids[i]);
			bad++;
		}
	}
	if (ty_is_container(tn.kind) && depth >= TY_MAX_DEPTH) {
		chk_err_at(c, l, "type", "nested deeper than %d levels",
		    TY_MAX_DEPTH);
		return NULL;
	}
	t = ty_new(tn.kind);
	t->precision = tn.precision;
	t->scale = tn.scale;
	t->required = req == 1;
	t->doc = description(c, l, ck->value[KEY_DESCRIPTION], &bad);
	switch (tn.kind) {
	case TY_STRUCT:
		fields = chk_get_arr(c, l, col, "fields", true);
		if (fields == NULL) {
			bad++;
			break;
		}
		jptr_push_key(&l->ptr, "fields");
		k = column_list(c, l, fields, depth + 1, NULL, &fok, NULL);
		chk_loc_reset(l, m);
		/* A struct with a refused field is refused as a whole. */
		if (k == NULL || !fok) {
			ty_free(k);
			bad++;
			break;
		}
		t->fields = k->fields;
		t->nfields = k->nfields;
		k->fields = NULL;
		k->nfields = 0;
		ty_free(k);
		break;
	case TY_ARRAY:
		if ((t->element = child(c, l, col, "element", depth + 1)) ==
		    NULL)
			bad++;
		break;
	case TY_MAP:
		k = child(c, l, col, "key", depth + 1);
		v = child(c, l, col, "value", depth + 1);
		if (k != NULL && (k->kind != TY_STRING || !k->required)) {
			chk_err_at(c, l, "key", "map keys must be required "
			    "strings (type: string, required: true)");
			bad++;
		}
		t->key = k;
		t->value = v;
		if (k == NULL || v == NULL)
			bad++;
		break;
	default:
		break;
	}
	if (bad || req == -1) {
		ty_free(t);
		return NULL;
	}
	return t;
}

struct ty *
chk_schema_column(struct chk *c, struct chk_loc *l, json_t *col, int depth)
{
	struct col_keys ck;

	if (!json_is_object(col)) {
		chk_err(c, l, "a column must be a mapping with name and type");
		return NULL;
	}
	ck = col_keys(col);
	return column_of(c, l, col, &ck, depth);
}

/*
 * Columns or struct fields: names plain, distinct even ignoring case.
 * The columns without errors, or NULL for an empty list; see
 * chk_schema_columns() for bad, ok and names.
 */
static struct ty *
column_list(struct chk *c, struct chk_loc *l, json_t *list, int depth,
    json_t *bad, bool *ok, json_t *names)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	struct ty *st = ty_new(TY_STRUCT), *t;
	const char *name, *low;
	json_t *col;
	struct col_keys ck;
	struct chk_name_index index;	/* name, any case -> list index */
	size_t i, seen;
	bool good;
	char buf[CHK_LOWER_BUF], *to_free;

	if (json_array_size(list) == 0) {
		chk_err(c, l, "must list at least one column");
		ty_free(st);
		*ok = false;
		return NULL;
	}
	chk_name_index_init(&index, true);
	chk_name_index_reserve(&index, json_array_size(list));
	/* One allocation for the fields, not one per field. */
	st->fields = xreallocarray(NULL, json_array_size(list),
	    sizeof(*st->fields));
	json_array_foreach(list, i, col) {
		if (json_is_object(col)) {
			ck = col_keys(col);
			name = json_string_value(ck.value[KEY_NAME]);
		} else
			name = NULL;
		if (name != NULL && (chk_has_control(name) ||
		    strlen(name) > 128))
			name = NULL;
		chk_loc_named(l, i, name);
		if (name == NULL) {
			if (json_is_object(col))
				chk_err(c, l, "a column needs a name that is a "
				    "plain SQL identifier");
			else
				chk_err(c, l, "a column must be a mapping with "
				    "name and type");
			chk_loc_reset(l, m);
			*ok = false;
			continue;
		}
		good = true;
		if (!path_is_ident(name)) {
			chk_err(c, l, "'%s' is not a plain SQL identifier "
			    "(letters, digits and '_', not starting with a "
			    "digit)", name);
			good = false;
		}
		if (chk_name_index_get(&index, name, &seen)) {
			const char *other = json_string_value(json_object_get(
			    json_array_get(list, seen), "name"));

			if (strcmp(other, name) != 0)
				chk_err(c, l, "'%s' differs from '%s' only by "
				    "case", name, other);
			else
				chk_err(c, l, "'%s' is declared twice", name);
			good = false;
		} else	/* the contract's own string, borrowed */
			chk_name_index_put(&index, name, i);
		t = column_of(c, l, col, &ck, depth);
		chk_loc_reset(l, m);
		if (t == NULL || !good) {
			if (bad != NULL) {
				low = chk_lower_in(name, buf, &to_free);
				json_object_set_new(bad, low, json_true());
				free(to_free);
			}
			ty_free(t);
			*ok = false;
			continue;
		}
		st->fields[st->nfields].name = xstrdup(name);
		st->fields[st->nfields].type = t;
		st->nfields++;
		if (names != NULL)
			json_array_append(names, ck.value[KEY_NAME]);
	}
	chk_name_index_release(&index);
	return st;
}

struct ty *
chk_schema_columns(struct chk *c, struct chk_loc *l, json_t *list, json_t *bad,
    bool *ok, json_t *names)
{
	if (!json_is_array(list)) {
		chk_err(c, l, "must be a list of columns");
		*ok = false;
		return NULL;
	}
	return column_list(c, l, list, 0, bad, ok, names);
}
