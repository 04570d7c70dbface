/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_cdc.c - change streams: a record value that is a Debezium or
 * Canal change envelope (properties.stream.format debezium-json or
 * canal-json), how its changes land (properties.landing), the output's
 * primary key (contract.primaryKey) and what a change stream may not
 * do that an append-only one may.
 *
 * Two landings:
 *
 *	upsert          (the default) Flink's change format turns each
 *	                envelope into a changelog of the row; the table is
 *	                Iceberg v2 with the key as its identifier fields and
 *	                write.upsert.enabled, so a key keeps its last row
 *	                and a delete removes it;
 *	append-with-op  every change is a row, and the column named by
 *	                operationColumn says which (insert, update, delete).
 *
 * The IR: the stream's "changes" {format, landing, operationColumn,
 * ignoreParseErrors}, the table's "primaryKey" [names] (upsert only).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "jget.h"

static const char *const landing_keys[] = { "mode", "operationColumn", NULL };
static const char *const modes[] = { "upsert", "append-with-op", NULL };

/*
 * The envelope's own fields that append-with-op declares as columns of
 * its raw table, next to the key's and the metadata's (see
 * sqlgen_cdc.c): a key or metadata column may not share their names.
 */
static const char *const debezium_fields[] = { "before", "after", "op", NULL };
static const char *const canal_fields[] = { "data", "type", NULL };

bool
chk_cdc_format(const char *fmt)
{
	return fmt != NULL && (strcmp(fmt, "debezium-json") == 0 ||
	    strcmp(fmt, "canal-json") == 0);
}

/* Whether o holds key with a value (jget.h). */

/*
 * maxParseErrors at l (the stream): 0 or "unbounded".  Flink 1.20's
 * change formats have one switch, <format>.ignore-parse-errors, which
 * skips every record (or field) that does not parse, and keep no count:
 * a bound of N could not be kept, so only none or all is accepted.
 * *ignore is whether they are skipped.
 */
static bool
parse_errors(struct chk *c, struct chk_loc *l, json_t *stream, bool *ignore)
{
	json_t *v = json_object_get(stream, "maxParseErrors");

	*ignore = false;
	if (v == NULL || json_is_null(v))
		return true;
	if (json_is_integer(v) && json_integer_value(v) == 0)
		return true;
	if (json_is_string(v) && strcmp(json_string_value(v),
	    "unbounded") == 0) {
		*ignore = true;
		return true;
	}
	if (json_is_integer(v) && json_integer_value(v) > 0)
		chk_err_at(c, l, "maxParseErrors", "Flink 1.20's change "
		    "formats skip every malformed record or none "
		    "(ignore-parse-errors) and keep no count, so a bound of "
		    "%lld cannot be kept: write 0 (a malformed record fails "
		    "the job) or unbounded (every one is skipped)",
		    (long long)json_integer_value(v));
	else
		chk_err_at(c, l, "maxParseErrors", "must be 0 (a malformed "
		    "record fails the job) or unbounded (every one is "
		    "skipped)");
	return false;
}

/*
 * In append-with-op, a key or metadata column named like a field of the
 * envelope would be a second column of that name in the raw table.
 */
static bool
envelope_names_free(struct chk *c, struct chk_loc *l,
    const struct chk_stream *s, const char *fmt)
{
	const char *const *env = strcmp(fmt, "canal-json") == 0 ?
	    canal_fields : debezium_fields;
	size_t i, j;
	bool ok = true;

	for (i = 0; i < s->ncols; i++) {
		if (s->cols[i].origin == CHK_ORIGIN_VALUE)
			continue;
		for (j = 0; env[j] != NULL; j++)
			if (strcasecmp(s->cols[i].name, env[j]) == 0) {
				chk_err_at(c, l, "mode", "append-with-op reads "
				    "the %s envelope's field '%s' as a column "
				    "of its own, and '%s' is also a %s column: "
				    "rename it (or set key.prefix)", fmt,
				    env[j], s->cols[i].name,
				    s->cols[i].origin == CHK_ORIGIN_KEY ?
				    "key" : "metadata");
				ok = false;
			}
	}
	return ok;
}

bool
chk_cdc_stream(struct chk *c, struct chk_loc *l, json_t *props,
    json_t *stream, const char *fmt, struct chk_stream *s, bool *added)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *landing = props != NULL ? json_object_get(props, "landing") :
	    NULL;
	const char *mode = "upsert", *opcol = NULL;
	bool ok = true, ignore = false;
	struct ty *t;

	*added = false;
	if (!json_is_object(stream))
		return true;	/* stream_value() said so */
	/* l at the stream: a fragment's is l, a build's under it. */
	if (props != NULL) {
		chk_loc_key(l, "properties");
		chk_loc_key(l, "stream");
	}
	if (!chk_cdc_format(fmt)) {
		if (jpresent(stream, "maxParseErrors") && fmt != NULL) {
			chk_err_at(c, l, "maxParseErrors", "applies to the "
			    "change formats (debezium-json, canal-json): with "
			    "%s a malformed record fails the job", fmt);
			ok = false;
		}
		chk_loc_reset(l, m);
		if (props != NULL && jpresent(props, "landing") && fmt != NULL) {
			chk_loc_key(l, "properties");
			chk_err_at(c, l, "landing", "is for change streams "
			    "(format debezium-json or canal-json): a %s record "
			    "is a row, which is appended", fmt);
			ok = false;
		}
		chk_loc_reset(l, m);
		return ok;
	}
	ok &= parse_errors(c, l, stream, &ignore);
	chk_loc_reset(l, m);
	if (landing != NULL && !json_is_null(landing)) {
		chk_loc_key(l, "properties");
		chk_loc_key(l, "landing");
		if (!json_is_object(landing)) {
			chk_err(c, l, "must be a mapping {mode, "
			    "operationColumn}");
			json_object_set_new(s->ir, "changes", json_pack(
			    "{s:s, s:n}", "format", fmt, "landing"));
			chk_loc_reset(l, m);
			return false;
		}
		ok &= chk_only_keys(c, l, landing, landing_keys) == 0;
		mode = chk_get_enum(c, l, landing, "mode", true, modes);
		opcol = chk_get_str(c, l, landing, "operationColumn", false);
		if (mode == NULL) {
			/* Still a change stream: its expose is not judged. */
			json_object_set_new(s->ir, "changes", json_pack(
			    "{s:s, s:n}", "format", fmt, "landing"));
			chk_loc_reset(l, m);
			return false;
		}
		if (opcol != NULL && !path_is_ident(opcol)) {
			chk_err_at(c, l, "operationColumn", "must be a plain "
			    "SQL identifier: the expose column that receives "
			    "the operation");
			opcol = NULL;
			ok = false;
		} else if (strcmp(mode, "upsert") == 0 && opcol != NULL) {
			chk_err_at(c, l, "operationColumn", "is for "
			    "append-with-op: an upsert table holds each key's "
			    "last row, not its changes");
			ok = false;
		} else if (strcmp(mode, "append-with-op") == 0 &&
		    opcol == NULL) {
			if (!jpresent(landing, "operationColumn"))
				chk_err(c, l, "append-with-op needs "
				    "operationColumn: the expose column that "
				    "receives each change's operation (insert, "
				    "update or delete)");
			ok = false;
		}
		if (strcmp(mode, "append-with-op") == 0) {
			ok &= envelope_names_free(c, l, s, fmt);
			if (opcol != NULL) {
				chk_loc_key(l, "operationColumn");
				t = ty_new(TY_STRING);
				t->required = true;
				if (chk_stream_add(c, l, s, opcol, NULL,
				    CHK_ORIGIN_VALUE, "operation", t))
					*added = true;
				else
					ok = false;
			}
		}
		chk_loc_reset(l, m);
	}
	json_object_set_new(s->ir, "changes", json_pack("{s:s, s:s, s:s?, "
	    "s:b}", "format", fmt, "landing", mode, "operationColumn",
	    strcmp(mode, "append-with-op") == 0 ? opcol : NULL,
	    "ignoreParseErrors", ignore));
	return ok;
}

/*
 * The primary key at l (contract.primaryKey): a list of top-level
 * columns of schema, each once, required and a plain scalar that
 * Iceberg takes as an identifier field.  Returns the names (a new
 * reference) or NULL after errors.
 */
static json_t *
primary_key(struct chk *c, struct chk_loc *l, json_t *pk,
    const struct ty *schema, json_t *xbad)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *out = json_array(), *e;
	const struct ty_field *f;
	const char *name;
	size_t i, j;
	bool ok = true;

	if (!json_is_array(pk) || json_array_size(pk) == 0) {
		chk_err(c, l, "must be a list of one or more column names of "
		    "contract.schema");
		json_decref(out);
		return NULL;
	}
	json_array_foreach(pk, i, e) {
		chk_loc_idx(l, i);
		name = json_string_value(e);
		if (name == NULL || !path_is_ident(name)) {
			chk_err(c, l, "must name a top-level column of "
			    "contract.schema (a plain SQL identifier)");
			ok = false;
		} else if ((f = ty_field((struct ty *)schema, name)) == NULL) {
			if (!chk_name_in(xbad, name))
				chk_err(c, l, "'%s' is not a top-level column "
				    "of contract.schema", name);
			ok = false;
		} else if (ty_is_container(f->type->kind)) {
			chk_err(c, l, "'%s' is a struct, array or map: a key "
			    "column is a plain scalar (Iceberg's identifier "
			    "fields are primitive)", name);
			ok = false;
		} else if (f->type->kind == TY_FLOAT ||
		    f->type->kind == TY_DOUBLE) {
			chk_err(c, l, "'%s' is a float or double: Iceberg "
			    "refuses them as identifier fields, because equal "
			    "values need not compare equal (NaN, -0.0)", name);
			ok = false;
		} else if (!f->type->required) {
			chk_err(c, l, "'%s' is nullable: a key column must be "
			    "required: true (Iceberg's identifier fields are "
			    "required, and a null key could not be deleted)",
			    name);
			ok = false;
		} else {
			for (j = 0; j < json_array_size(out); j++)
				if (strcmp(json_string_value(json_array_get(
				    out, j)), name) == 0)
					break;
			if (j < json_array_size(out)) {
				chk_err(c, l, "'%s' is listed twice", name);
				ok = false;
			} else
				json_array_append_new(out, json_string(name));
		}
		chk_loc_reset(l, m);
	}
	if (!ok) {
		json_decref(out);
		return NULL;
	}
	return out;
}

static bool
in_list(json_t *list, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(list, i, e)
		if (json_is_string(e) && strcmp(json_string_value(e),
		    name) == 0)
			return true;
	return false;
}

/*
 * Iceberg's upsert writes a key's new row with an equality delete of
 * the key in the partition the new row goes to; an old row of the same
 * key in another partition would stay.  So Iceberg requires the
 * partition source columns among the identifier fields (a key's rows
 * then share a partition), and so does fluid, before the job starts.
 */
static bool
partitions_in_key(struct chk *c, struct chk_loc *l, json_t *x, json_t *pk)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *spec = json_object_get(json_object_get(json_object_get(x,
	    "binding"), "icebergConfig"), "partitionSpec"), *e;
	const char *col;
	size_t i;
	bool ok = true;

	json_array_foreach(spec, i, e) {
		col = json_string_value(json_object_get(e, "column"));
		if (col == NULL || !path_is_ident(col) || in_list(pk, col))
			continue;
		chk_loc_key(l, "binding");
		chk_loc_key(l, "icebergConfig");
		chk_loc_key(l, "partitionSpec");
		chk_loc_idx(l, i);
		chk_err_at(c, l, "column", "'%s' is not in contract."
		    "primaryKey: an upsert deletes a key's old row in the "
		    "partition of its new row, so a key whose row changed "
		    "partition would keep both (Iceberg requires partition "
		    "columns among the identifier fields)", col);
		ok = false;
		chk_loc_reset(l, m);
	}
	return ok;
}

/* The expose's part: contract.primaryKey and the operation column. */
static bool
expose_part(struct chk *c, json_t *x, int xi, const char *landing,
    const char *opcol, const struct ty *schema, json_t *xbad,
    json_t *table)
{
	struct chk_loc l;
	json_t *ct = json_object_get(x, "contract"), *pk, *key;
	bool ok = true;

	chk_loc_init(&l);
	chk_loc_key(&l, "exposes");
	chk_loc_idx(&l, (size_t)xi);
	pk = json_object_get(ct, "primaryKey");
	if (landing == NULL) {
		if (pk != NULL && !json_is_null(pk)) {
			chk_loc_key(&l, "contract");
			chk_err_at(c, &l, "primaryKey", "is for change streams "
			    "landed as upsert: the build that writes this "
			    "expose appends rows, which a key would not make "
			    "unique");
			ok = false;
		}
	} else if (strcmp(landing, "append-with-op") == 0) {
		chk_loc_key(&l, "contract");
		if (pk != NULL && !json_is_null(pk)) {
			chk_err_at(c, &l, "primaryKey", "append-with-op keeps "
			    "every change as a row, so a key repeats: leave "
			    "primaryKey out, or land the changes as upsert");
			ok = false;
		}
		if (opcol != NULL && schema != NULL &&
		    ty_field((struct ty *)schema, opcol) == NULL &&
		    !chk_name_in(xbad, opcol)) {
			chk_err_at(c, &l, "schema", "append-with-op writes each "
			    "change's operation into column '%s', which "
			    "contract.schema does not declare: add it (type "
			    "string, required)", opcol);
			ok = false;
		}
	} else if (pk == NULL || json_is_null(pk)) {
		chk_err_at(c, &l, "contract", "needs primaryKey: the build "
		    "lands a change stream as upsert (the default), which "
		    "keys each row by it (the Iceberg table's identifier "
		    "fields)");
		ok = false;
	} else if (schema != NULL) {
		chk_loc_key(&l, "contract");
		chk_loc_key(&l, "primaryKey");
		key = primary_key(c, &l, pk, schema, xbad);
		chk_loc_set(&l, "", "");
		chk_loc_key(&l, "exposes");
		chk_loc_idx(&l, (size_t)xi);
		if (key == NULL)
			ok = false;
		else {
			ok &= partitions_in_key(c, &l, x, key);
			if (table != NULL)
				json_object_set(table, "primaryKey", key);
			json_decref(key);
		}
	}
	chk_loc_release(&l);
	return ok;
}

/*
 * append-with-op's operation column is filled by fluid from each
 * change's envelope (see sqlgen_cdc.c); a mapping entry of that name
 * would be written in its place, and the operation lost.  Entries at l
 * (the build's properties).
 */
static bool
operation_unmapped(struct chk *c, struct chk_loc *l, json_t *props,
    const char *opcol)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *cols = json_object_get(json_object_get(props, "mapping"),
	    "columns"), *e;
	const char *name;
	size_t i;
	bool ok = true;

	json_array_foreach(cols, i, e) {
		name = json_string_value(json_object_get(e, "name"));
		if (name == NULL || strcasecmp(name, opcol) != 0)
			continue;
		chk_loc_key(l, "mapping");
		chk_loc_key(l, "columns");
		chk_loc_idx(l, i);
		chk_err_at(c, l, "name", "is the operation column "
		    "(properties.landing.operationColumn): append-with-op "
		    "writes each change's operation into it, and a mapping "
		    "of its own would write another value in its place, the "
		    "operation lost: drop this entry, or name another column "
		    "as operationColumn");
		ok = false;
		chk_loc_reset(l, m);
	}
	return ok;
}

/*
 * A column that avro-confluent reads with another type than the query
 * sees (a timestamp_ltz, read as timestamp: its IR "physical") is
 * converted by a view of its own (see sqlgen.c's source()), and
 * append-with-op takes its rows out of the envelope in another view,
 * which fluid-sqlgen does not stack on the first.  A change stream's
 * value is JSON, so only the key's columns can be such; each at its
 * declaration under l (the build's properties).
 */
static bool
none_converted(struct chk *c, struct chk_loc *l, json_t *props,
    const struct chk_stream *s)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *key = json_object_get(json_object_get(props, "stream"), "key");
	json_t *kcols = json_object_get(key, "schema"), *col, *e;
	const char *from;
	size_t i, j;
	bool ok = true;

	json_array_foreach(json_object_get(s->ir, "columns"), i, col) {
		if (!json_is_object(json_object_get(col, "physical")))
			continue;
		from = json_string_value(json_object_get(col, "from"));
		json_array_foreach(kcols, j, e)
			if (from != NULL && json_is_string(json_object_get(e,
			    "name")) && strcmp(json_string_value(
			    json_object_get(e, "name")), from) == 0)
				break;
		chk_loc_key(l, "stream");
		chk_loc_key(l, "key");
		if (j < json_array_size(kcols)) {
			chk_loc_key(l, "schema");
			chk_loc_idx(l, j);
			chk_loc_key(l, "type");
		} else
			chk_loc_key(l, "format");
		chk_err(c, l, "append-with-op reads each row out of its "
		    "change envelope in a view, and a timestamp_ltz that "
		    "avro-confluent reads as timestamp is converted in a view "
		    "of its own, which fluid does not stack on the first: "
		    "declare the key column as timestamp, read the key as "
		    "json or raw, or land the changes as upsert");
		ok = false;
		chk_loc_reset(l, m);
	}
	return ok;
}

bool
chk_cdc_build(struct chk *c, struct chk_loc *l, json_t *props,
    const struct chk_stream *s, json_t *x, int xi, const struct ty *schema,
    json_t *xbad, json_t *table)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *ch = json_object_get(s->ir, "changes");
	const char *landing = json_string_value(json_object_get(ch,
	    "landing"));
	const char *fmt = json_string_value(json_object_get(ch, "format"));
	const char *opcol = json_string_value(json_object_get(ch,
	    "operationColumn"));
	char *save = c->build;
	bool ok = true;

	/* A refused landing (reported) says nothing about the expose. */
	if (ch != NULL && landing == NULL)
		return false;
	c->build = "";
	ok = expose_part(c, x, xi, landing, opcol, schema, xbad, table);
	c->build = save;
	if (landing == NULL)
		return ok;
	chk_loc_key(l, "properties");
	if (strcmp(landing, "append-with-op") == 0) {
		if (opcol != NULL)
			ok &= operation_unmapped(c, l, props, opcol);
		ok &= none_converted(c, l, props, s);
	}
	if (jpresent(json_object_get(props, "mapping"), "explode")) {
		chk_loc_key(l, "mapping");
		chk_err_at(c, l, "explode", "a %s record is one row's change, "
		    "and an explode would make it many rows, which the row's "
		    "later update or delete (one row image, keyed once) "
		    "cannot find again: read a change stream without "
		    "explode", fmt);
		ok = false;
		chk_loc_reset(l, m);
		chk_loc_key(l, "properties");
	}
	if (jpresent(props, "sql")) {
		chk_err_at(c, l, "sql", "a change stream's query is written "
		    "by fluid: a query of its own could filter, join or "
		    "aggregate changes into rows that no key or operation "
		    "describes; use properties.mapping");
		ok = false;
	}
	if (strcmp(landing, "append-with-op") == 0 &&
	    jpresent(json_object_get(json_object_get(props, "parameters"),
	    "flink"), "eventTime")) {
		chk_loc_key(l, "parameters");
		chk_loc_key(l, "flink");
		chk_err_at(c, l, "eventTime", "append-with-op reads each row "
		    "out of its change envelope in a view, and Flink declares "
		    "a watermark only on a table's own column: land the "
		    "changes as upsert, or leave eventTime out");
		ok = false;
	}
	chk_loc_reset(l, m);
	return ok;
}
