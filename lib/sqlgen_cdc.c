/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen_cdc.c - what a change stream changes in the script (see
 * check_cdc.c for the contract's side).
 *
 * upsert: the Kafka table source_events reads the value with Flink's
 * change format (debezium-json or canal-json), which turns each
 * envelope into the row's changelog (+I, -U/+U, -D); the Iceberg table
 * has PRIMARY KEY (...) NOT ENFORCED, which Iceberg takes as its
 * identifier fields, and write.upsert.enabled, so each change of a key
 * replaces its row and a delete removes it.  Everything else is the
 * append-only script's.
 *
 * append-with-op: Flink's change formats give no column for the
 * operation, so the envelope is read as plain JSON into the raw table
 * source_changes, and the view source_events takes the row out of it,
 * with the operation as the declared column:
 *
 *	debezium-json  `before`, `after` ROW<the row>, `op` STRING: the row
 *	               is `before` for a delete ('d'), else `after`; 'c'
 *	               and 'r' (a snapshot read) are inserts, 'u' updates
 *	               (the row after it)
 *	canal-json     `data` ARRAY<ROW<the row>>, `type` STRING: one row
 *	               per element, INSERT, UPDATE (the row after it) or
 *	               DELETE; a DDL event has no rows
 *
 * A tombstone (a record with a null value) and an envelope of another
 * operation give no row.  The mapping then reads source_events as it
 * would an append-only stream.
 */
#include <stdlib.h>
#include <string.h>

#include "sqlgen_int.h"
#include "jget.h"

#define RAW	"source_changes"
#define CH	"`c`"	/* the alias of source_changes */
#define ROWS	"`r`"	/* the alias of a Canal row */

/* The shared accessors (jget.h), under this file's short names. */

/* The stream's "changes" when it lands as landing (NULL: any). */
static const json_t *
changes(const json_t *st, const char *landing)
{
	const json_t *ch = json_object_get(st, "changes");

	if (!json_is_object(ch))
		return NULL;
	if (landing != NULL && !jstreq(jstr(ch, "landing"), landing))
		return NULL;
	return ch;
}

static bool
is_canal(const json_t *ch)
{
	return jstreq(jstr(ch, "format"), "canal-json");
}

void
sqlgen_cdc_key(struct gen *g, const json_t *t)
{
	const json_t *pk = json_object_get(t, "primaryKey"), *c;
	size_t i;

	if (pk == NULL || json_is_null(pk))
		return;
	if (!json_is_array(pk) || json_array_size(pk) == 0) {
		sqlgen_fail(g, "a primary key");
		return;
	}
	sb_adds(&g->out, ",\n  PRIMARY KEY (");
	json_array_foreach(pk, i, c) {
		if (i > 0)
			sb_adds(&g->out, ", ");
		sqlgen_ident(g, json_string_value(c));
	}
	sb_adds(&g->out, ") NOT ENFORCED");
}

void
sqlgen_cdc_table_options(struct gen *g, const json_t *t, int *first)
{
	const json_t *pk = json_object_get(t, "primaryKey");

	/* Iceberg upserts by the identifier fields, in format v2 only. */
	if (json_is_array(pk) && json_array_size(pk) > 0)
		sqlgen_option(g, "write.upsert.enabled", "true", first);
}

const char *
sqlgen_cdc_source_name(const json_t *st, const char *dflt)
{
	return changes(st, "append-with-op") != NULL ? RAW : dflt;
}

/* The value's columns as the fields of one ROW<...> type. */
static void
row_type(struct gen *g, const json_t *cols, const char *opcol)
{
	const json_t *c;
	size_t i, n = 0;

	sb_adds(&g->out, "ROW<");
	json_array_foreach(cols, i, c) {
		if (!jstreq(jstr(c, "origin"), "value") ||
		    jstreq(jstr(c, "name"), opcol))
			continue;
		if (n++ > 0)
			sb_adds(&g->out, ", ");
		sqlgen_column(g, c);
	}
	if (n == 0)
		sqlgen_fail(g, "a change envelope without columns");
	sb_addc(&g->out, '>');
}

bool
sqlgen_cdc_columns(struct gen *g, const json_t *st, bool conv)
{
	const json_t *ch = changes(st, "append-with-op"), *cols, *c;
	const char *opcol;
	size_t i;

	if (ch == NULL)
		return false;
	if (conv || json_is_object(json_object_get(st, "eventTime")))
		sqlgen_fail(g, "an append-with-op stream with a converted "
		    "column or an event time");
	opcol = jstr(ch, "operationColumn");
	if (opcol == NULL)
		sqlgen_fail(g, "an append-with-op stream without its "
		    "operation column");
	cols = json_object_get(st, "columns");
	if (is_canal(ch)) {
		sb_adds(&g->out, "\n  `data` ARRAY<");
		row_type(g, cols, opcol);
		sb_adds(&g->out, ">,\n  `type` STRING");
	} else {
		sb_adds(&g->out, "\n  `before` ");
		row_type(g, cols, opcol);
		sb_adds(&g->out, ",\n  `after` ");
		row_type(g, cols, opcol);
		sb_adds(&g->out, ",\n  `op` STRING");
	}
	/* The key's and the metadata's, as the append-only table has them. */
	json_array_foreach(cols, i, c) {
		if (jstreq(jstr(c, "origin"), "value"))
			continue;
		sb_adds(&g->out, ",\n  ");
		sqlgen_column(g, c);
		if (jstreq(jstr(c, "origin"), "metadata")) {
			sb_adds(&g->out, " METADATA FROM ");
			sqlgen_literal(g, jstr(c, "from"));
			sb_adds(&g->out, " VIRTUAL");
		}
	}
	return true;
}

const char *
sqlgen_cdc_value_format(const json_t *st, const char *fmt)
{
	return changes(st, "append-with-op") != NULL ? "json" : fmt;
}

bool
sqlgen_cdc_value_options(struct gen *g, const json_t *st, int *first)
{
	const json_t *ch = changes(st, NULL);
	const char *ignore;
	char *key;

	if (ch == NULL)
		return false;
	/*
	 * maxParseErrors: none skipped (a malformed record fails the job)
	 * or all of them; the formats keep no count.
	 */
	ignore = json_is_true(json_object_get(ch, "ignoreParseErrors")) ?
	    "true" : "false";
	if (jstreq(jstr(ch, "landing"), "append-with-op")) {
		sqlgen_option(g, "value.json.fail-on-missing-field", "false",
		    first);
		sqlgen_option(g, "value.json.ignore-parse-errors", ignore,
		    first);
		return true;
	}
	if (!jstreq(jstr(ch, "format"), "debezium-json") && !is_canal(ch)) {
		sqlgen_fail(g, "a change format");
		return true;
	}
	key = xasprintf("value.%s.ignore-parse-errors", jstr(ch, "format"));
	sqlgen_option(g, key, ignore, first);
	free(key);
	/* The envelope is the payload alone (schemas.enable=false). */
	if (!is_canal(ch))
		sqlgen_option(g, "value.debezium-json.schema-include", "false",
		    first);
	return true;
}

/* One literal of a list: 'a', 'b' */
static void
literals(struct gen *g, const char *const *words)
{
	size_t i;

	for (i = 0; words[i] != NULL; i++) {
		if (i > 0)
			sb_adds(&g->out, ", ");
		sqlgen_literal(g, words[i]);
	}
}

/* CASE <op> WHEN <wire> THEN <value> ... END, the operation's values. */
static void
operation(struct gen *g, const char *col, const char *const *wire,
    const char *const *value)
{
	size_t i;

	sb_adds(&g->out, "CASE " CH ".");
	sqlgen_ident(g, col);
	for (i = 0; wire[i] != NULL; i++) {
		sb_adds(&g->out, " WHEN ");
		sqlgen_literal(g, wire[i]);
		sb_adds(&g->out, " THEN ");
		sqlgen_literal(g, value[i]);
	}
	sb_adds(&g->out, " END");
}

bool
sqlgen_cdc_view(struct gen *g, const json_t *st)
{
	static const char *const dbz_ops[] = { "c", "r", "u", "d", NULL };
	static const char *const dbz_values[] = { "insert", "insert",
	    "update", "delete", NULL };
	static const char *const canal_ops[] = { "INSERT", "UPDATE",
	    "DELETE", NULL };
	static const char *const canal_values[] = { "insert", "update",
	    "delete", NULL };
	const json_t *ch = changes(st, "append-with-op"), *cols, *c;
	const char *opcol, *name;
	size_t i, n;
	bool canal;

	if (ch == NULL)
		return false;
	canal = is_canal(ch);
	opcol = jstr(ch, "operationColumn");
	cols = json_object_get(st, "columns");
	sb_adds(&g->out, "CREATE TEMPORARY VIEW ");
	sqlgen_ident(g, "source_events");
	sb_adds(&g->out, " AS\nSELECT");
	json_array_foreach(cols, i, c) {
		name = jstr(c, "name");
		sb_adds(&g->out, i ? ",\n  " : "\n  ");
		if (jstreq(name, opcol)) {
			if (canal)
				operation(g, "type", canal_ops, canal_values);
			else
				operation(g, "op", dbz_ops, dbz_values);
		} else if (!jstreq(jstr(c, "origin"), "value")) {
			sb_adds(&g->out, CH ".");
			sqlgen_ident(g, name);
		} else if (canal) {
			sb_adds(&g->out, ROWS ".");
			sqlgen_ident(g, name);
		} else {
			/* A delete's row is its before image. */
			sb_adds(&g->out, "CASE WHEN " CH ".`op` = ");
			sqlgen_literal(g, "d");
			sb_adds(&g->out, " THEN " CH ".`before`.");
			sqlgen_ident(g, name);
			sb_adds(&g->out, " ELSE " CH ".`after`.");
			sqlgen_ident(g, name);
			sb_adds(&g->out, " END");
		}
		sb_adds(&g->out, " AS ");
		sqlgen_ident(g, name);
	}
	sb_adds(&g->out, "\nFROM ");
	sqlgen_ident(g, RAW);
	sb_adds(&g->out, " AS " CH);
	if (canal) {
		/* One row per changed row; no row for a DDL event's null. */
		sb_adds(&g->out, "\nCROSS JOIN UNNEST(" CH ".`data`) AS " ROWS
		    " (");
		n = 0;
		json_array_foreach(cols, i, c) {
			if (!jstreq(jstr(c, "origin"), "value") ||
			    jstreq(jstr(c, "name"), opcol))
				continue;
			if (n++ > 0)
				sb_adds(&g->out, ", ");
			sqlgen_ident(g, jstr(c, "name"));
		}
		sb_adds(&g->out, ")\nWHERE " CH ".`type` IN (");
		literals(g, canal_ops);
	} else {
		sb_adds(&g->out, "\nWHERE " CH ".`op` IN (");
		literals(g, dbz_ops);
	}
	sb_adds(&g->out, ");\n\n");
	return true;
}
