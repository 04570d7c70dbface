/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen.c - IR to Flink SQL (see sqlgen.h).
 *
 * The statements, in the order the runner executes them:
 *
 *	SET 'pipeline.name' = '<product>/<build>';
 *	CREATE CATALOG ... WITH (...);          REST catalog, S3FileIO
 *	CREATE DATABASE IF NOT EXISTS ...;
 *	CREATE TABLE IF NOT EXISTS ... ;        the expose's columns
 *	[SET 'table.local-time-zone' = 'UTC';]  only with a conversion:
 *	CREATE TEMPORARY TABLE source_events;   the Kafka source, or
 *	    source_events_avro and a TEMPORARY VIEW source_events, which
 *	    converts what avro-confluent reads (see source())
 *	INSERT INTO ... SELECT ... FROM source_events AS s [CROSS JOIN UNNEST
 *	    [UNION ALL SELECT ... the rows of null struct elements]];
 *
 * Every statement ends with ";" at the end of its last line and no
 * other line ends with ";", because that is how the runner splits them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sqlgen.h"
#include "jget.h"
#include "sqlgen_security.h"
#include "sqlgen_int.h"
#include "sqllex.h"
#include "sqlq.h"
#include "types.h"
#include "xalloc.h"

#define SRC	"`s`"	/* the alias of source_events */
#define ELEM	"`x`"	/* the alias of the exploded element */

/*
 * The writer's helpers live in sqlgen_emit.c, which sqlgen_cdc.c shares
 * (sqlgen_int.h); here they keep the short names the statements use.
 */
#define fail(g, what)			sqlgen_fail(g, what)
#define ident(g, name)			sqlgen_ident(g, name)
#define literal(g, s)			sqlgen_literal(g, s)
#define option(g, key, value, first)	sqlgen_option(g, key, value, first)
#define sql_type(g, t)			sqlgen_sql_type(g, t)
#define column_type(g, col)		sqlgen_column_type(g, col)
#define column(g, col)			sqlgen_column(g, col)

/*
 * fluid-sqlgen reads whatever JSON follows a "check" stage, so a value
 * may be missing or of another type: the shared accessors (jget.h),
 * under this file's short names, read without trusting it.
 */

/* Is the member name k (klen bytes, NUL allowed) exactly name? */
static bool
key_is(const char *k, size_t klen, const char *name)
{
	return klen == strlen(name) && memcmp(k, name, klen) == 0;
}

/* "env:NAME": Iceberg's REST catalog reads NAME from the environment. */
static void
env_option(struct gen *g, const char *key, const char *name, int *first)
{
	char *ref;

	if (name == NULL) {
		fail(g, "a credential reference");
		return;
	}
	ref = xasprintf("env:%s", name);
	option(g, key, ref, first);
	free(ref);
}

static void
set_lines(struct gen *g, const json_t *b)
{
	char *name = xasprintf("%s/%s", jstr(b, "product") ?
	    jstr(b, "product") : "fluid", g->build);

	if (sqlq_set(&g->out, "pipeline.name", name) == -1)
		fail(g, "the pipeline name");
	free(name);
	sb_addc(&g->out, '\n');
}

static void
catalog(struct gen *g, const json_t *table)
{
	const json_t *cat = json_object_get(table, "catalog");
	const json_t *auth = json_object_get(cat, "auth");
	int first = 1;

	sb_adds(&g->out, "CREATE CATALOG ");
	ident(g, SQLGEN_CATALOG);
	sb_adds(&g->out, " WITH (");
	option(g, "type", "iceberg", &first);
	option(g, "catalog-type", "rest", &first);
	sqlgen_catalog_option(g, "uri", jstr(cat, "uri"), &first);
	sqlgen_catalog_option(g, "warehouse", jstr(cat, "warehouse"), &first);
	option(g, "io-impl", "org.apache.iceberg.aws.s3.S3FileIO", &first);
	sqlgen_catalog_properties(g, json_object_get(cat, "properties"), &first);
	/*
	 * Credentials by reference only: Iceberg's REST catalog replaces
	 * env:NAME with the pod's environment variable NAME.
	 */
	if (json_is_object(auth) && jstreq(jstr(auth, "type"), "bearer"))
		env_option(g, "token", jstr(auth, "tokenEnv"), &first);
	else if (json_is_object(auth)) {
		env_option(g, "credential", jstr(auth, "credentialEnv"), &first);
		sqlgen_catalog_option(g, "oauth2-server-uri",
		    jstr(auth, "oauth2ServerUri"), &first);
		if (jstr(auth, "scope") != NULL)
			sqlgen_catalog_option(g, "scope", jstr(auth, "scope"), &first);
	}
	sb_adds(&g->out, "\n);\n\n");
}

/*
 * A column of the job's table: its definition, and the column's
 * description as COMMENT, which Iceberg's Flink catalog keeps as the
 * column's doc.  Flink 1.20's DDL drops a ROW field's description, so
 * the fields' are not written: the runner sets them from the table file.
 */
static void
described_column(struct gen *g, const json_t *col)
{
	const json_t *doc = json_object_get(col, "description");

	column(g, col);
	if (doc == NULL)
		return;
	/* ty_from_json() checked it; again here, where it becomes SQL. */
	if (!json_is_string(doc) || ty_doc_why(json_string_value(doc),
	    json_string_length(doc)) != NULL) {
		fail(g, "a column description");
		return;
	}
	sb_adds(&g->out, " COMMENT ");
	literal(g, json_string_value(doc));
}

static void
table_name(struct gen *g, const json_t *table)
{
	if (g->cfk_sink != NULL) {
		sb_adds(&g->out, g->cfk_sink);
		return;
	}
	ident(g, SQLGEN_CATALOG);
	sb_addc(&g->out, '.');
	ident(g, jstr(table, "namespace"));
	sb_addc(&g->out, '.');
	ident(g, jstr(table, "name"));
}

void
sqlgen_iceberg_body(struct gen *g, const json_t *t,
    void (*col)(struct gen *, const json_t *),
    void (*with)(struct gen *, const json_t *, int *))
{
	const json_t *c, *parts = json_object_get(t, "partitionBy");
	char fv[32];
	size_t i;
	int first = 1;

	sb_adds(&g->out, " (");
	json_array_foreach(json_object_get(t, "columns"), i, c) {
		sb_adds(&g->out, i ? ",\n  " : "\n  ");
		col(g, c);
	}
	/* An upsert's key: Iceberg's identifier fields (sqlgen_cdc.c). */
	sqlgen_cdc_key(g, t);
	sb_adds(&g->out, "\n)");
	if (json_array_size(parts) > 0) {
		sb_adds(&g->out, " PARTITIONED BY (");
		json_array_foreach(parts, i, c) {
			if (i > 0)
				sb_adds(&g->out, ", ");
			ident(g, json_string_value(c));
		}
		sb_addc(&g->out, ')');
	}
	sb_adds(&g->out, " WITH (");
	if (with != NULL)
		with(g, t, &first);
	snprintf(fv, sizeof(fv), "%lld", (long long)json_integer_value(
	    json_object_get(t, "formatVersion")));
	option(g, "format-version", fv, &first);
	option(g, "write.format.default", jstr(t, "fileFormat"), &first);
	/*
	 * The other options become the table's properties,
	 * write.upsert.enabled among them.
	 */
	sqlgen_cdc_table_options(g, t, &first);
	sb_adds(&g->out, "\n)");
}

static void
table(struct gen *g, const json_t *t)
{
	sb_adds(&g->out, "CREATE DATABASE IF NOT EXISTS ");
	ident(g, SQLGEN_CATALOG);
	sb_addc(&g->out, '.');
	ident(g, jstr(t, "namespace"));
	sb_adds(&g->out, ";\n\n");
	sb_adds(&g->out, "CREATE TABLE IF NOT EXISTS ");
	table_name(g, t);
	sqlgen_iceberg_body(g, t, described_column, NULL);
	sb_adds(&g->out, ";\n\n");
}

/*
 * A stream column that the format reads with another type than the query
 * sees (fluid-check's "physical" type: a timestamp_ltz read with
 * avro-confluent, whose Flink 1.20 format has no Avro type for it, is
 * read as the TIMESTAMP it is on the wire) is declared with its physical
 * type under its own name, which is the Avro field's, and converted by
 * the view source_events (see source()).  The event time is converted by
 * a computed column instead, which carries the watermark, named
 * "<name> ltz": no plain identifier, so no stream column has that name.
 */
#define CONVERTED	" ltz"

static bool
converted(const json_t *col)
{
	return json_is_object(json_object_get(col, "physical"));
}

static void
converted_ident(struct gen *g, const char *name)
{
	char *n;

	if (name == NULL) {
		fail(g, "an identifier");
		return;
	}
	n = xasprintf("%s" CONVERTED, name);
	ident(g, n);
	free(n);
}

/* "`name` TYPE" with the column's physical type. */
static void
physical_column(struct gen *g, const json_t *col)
{
	struct ty *t = ty_from_json(json_object_get(col, "physical"));

	ident(g, jstr(col, "name"));
	sb_addc(&g->out, ' ');
	if (t == NULL) {
		fail(g, "a column's physical type");
		return;
	}
	sql_type(g, t);
	ty_free(t);
}

/*
 * "CAST(`name` AS TYPE)", TYPE the column's own.  Avro's
 * timestamp-millis and -micros are instants, which the format reads as
 * their UTC wall-clock time; CAST of a TIMESTAMP to TIMESTAMP_LTZ takes
 * it as wall-clock time in the session time zone, which the script sets
 * to UTC (see source()), so the cast gives back the instant exactly.
 * A CAST of a ROW, ARRAY or MAP converts the fields, elements and values
 * inside it (by position, so the names and order are the physical
 * type's, which are the column's).
 */
static void
conversion(struct gen *g, const json_t *col)
{
	struct ty *t = column_type(g, col);

	sb_adds(&g->out, "CAST(");
	ident(g, jstr(col, "name"));
	sb_adds(&g->out, " AS ");
	if (t == NULL) {
		fail(g, "a column type");
		return;
	}
	sql_type(g, t);
	ty_free(t);
	sb_addc(&g->out, ')');
}

/*
 * The source table, with its columns as the format reads them.  When
 * none is converted, that is source_events itself.  Otherwise it is
 * source_events_avro, and source_events is a view that converts each
 * converted column under the column's name: the mapping and a build's
 * own SQL ("one SELECT from source_events") see the declared types.  A
 * converted event time is converted by a computed column of the table,
 * "`name ltz` AS CAST(...)", because the watermark must be declared
 * there, on the converted value; the view passes it on as the column's
 * (a column selected as it is stays the rowtime attribute).  Only the
 * event time, a scalar: Flink 1.20 fails a view over a computed column
 * of a ROW type ("Conversion to relational algebra failed to preserve
 * datatypes", the computed column's ROW not being of the kind the
 * validator derives), which the same CAST in the view does not.
 */
static void
source(struct gen *g, const json_t *st)
{
	const json_t *key = json_object_get(st, "key"), *c, *et, *src, *cols;
	const char *fmt = jstr(st, "format"), *origin, *reg, *etcol = NULL;
	size_t i;
	int first = 1;
	bool conv = false, etconv = false;

	src = json_object_get(st, "source");
	et = json_object_get(st, "eventTime");
	cols = json_object_get(st, "columns");
	if (json_is_object(et))
		etcol = jstr(et, "column");
	json_array_foreach(cols, i, c)
		if (converted(c)) {
			conv = true;
			if (etcol != NULL && jstreq(jstr(c, "name"), etcol))
				etconv = true;
		}
	if (conv) {
		/*
		 * The conversion is exact only in UTC (see conversion()):
		 * in another zone every value would shift by its offset.
		 * Flink 1.20 has no zone-free way to make an instant of a
		 * TIMESTAMP inside a ROW, ARRAY or MAP (UNIX_TIMESTAMP and
		 * TO_TIMESTAMP_LTZ of a string use the session zone too,
		 * TIMESTAMPDIFF overflows an INT), so the session is UTC.
		 */
		if (sqlq_set(&g->out, "table.local-time-zone", "UTC") == -1)
			fail(g, "the session time zone");
		sb_addc(&g->out, '\n');
	}
	sb_adds(&g->out, "CREATE TEMPORARY TABLE ");
	ident(g, sqlgen_cdc_source_name(st, conv ? "source_events_avro" :
	    "source_events"));
	sb_adds(&g->out, " (");
	if (!sqlgen_cdc_columns(g, st, conv))
	    json_array_foreach(cols, i, c) {
		sb_adds(&g->out, i ? ",\n  " : "\n  ");
		if (converted(c))
			physical_column(g, c);
		else
			column(g, c);
		origin = jstr(c, "origin");
		if (origin && strcmp(origin, "metadata") == 0) {
			/* Read-only metadata must be VIRTUAL. */
			sb_adds(&g->out, " METADATA FROM ");
			literal(g, jstr(c, "from"));
			sb_adds(&g->out, " VIRTUAL");
		}
	}
	json_array_foreach(cols, i, c)
		if (etconv && jstreq(jstr(c, "name"), etcol)) {
			sb_adds(&g->out, ",\n  ");
			converted_ident(g, etcol);
			sb_adds(&g->out, " AS ");
			conversion(g, c);
		}
	if (json_is_object(et)) {
		sb_adds(&g->out, ",\n  WATERMARK FOR ");
		if (etconv)
			converted_ident(g, etcol);
		else
			ident(g, etcol);
		sb_adds(&g->out, " AS ");
		if (etconv)
			converted_ident(g, etcol);
		else
			ident(g, etcol);
		sqlgen_interval(g, json_integer_value(json_object_get(et,
		    "delaySeconds")));
	}
	sb_adds(&g->out, "\n) WITH (");
	option(g, "connector", "kafka", &first);
	option(g, "topic", jstr(st, "topic"), &first);
	option(g, "properties.bootstrap.servers", jstr(src,
	    "bootstrapServers"), &first);
	option(g, "properties.group.id", jstr(src, "groupId"), &first);
	/* TLS and SASL, credentials as references: sqlgen_security.c. */
	if (sqlgen_security(&g->out, json_object_get(src, "security"),
	    &first) == -1)
		fail(g, "the Kafka security settings");
	sqlgen_kafka_startup(g, src, &first);
	reg = jstr(src, "schemaRegistryUrl");
	sqlgen_kafka_key(g, key, reg, &first);
	option(g, "value.format", sqlgen_cdc_value_format(st, fmt), &first);
	if (sqlgen_cdc_value_options(g, st, &first))
		;	/* a change stream's (sqlgen_cdc.c) */
	else if (jstreq(fmt, "json")) {
		/*
		 * A declared field the record lacks reads as null; a record
		 * that is not JSON fails the job instead of being dropped.
		 */
		option(g, "value.json.fail-on-missing-field", "false", &first);
		option(g, "value.json.ignore-parse-errors", "false", &first);
	} else
		option(g, "value.avro-confluent.url", reg, &first);
	sb_adds(&g->out, "\n);\n\n");
	if (sqlgen_cdc_view(g, st) || !conv)
		return;
	sb_adds(&g->out, "CREATE TEMPORARY VIEW ");
	ident(g, "source_events");
	sb_adds(&g->out, " AS\nSELECT");
	json_array_foreach(cols, i, c) {
		sb_adds(&g->out, i ? ",\n  " : "\n  ");
		if (etconv && jstreq(jstr(c, "name"), etcol)) {
			converted_ident(g, etcol);
			sb_adds(&g->out, " AS ");
		} else if (converted(c)) {
			conversion(g, c);
			sb_adds(&g->out, " AS ");
		}
		ident(g, jstr(c, "name"));
	}
	sb_adds(&g->out, "\nFROM ");
	ident(g, "source_events_avro");
	sb_adds(&g->out, ";\n\n");
}

static void expr(struct gen *, const json_t *, const struct ty *);

/*
 * "CAST(NULL AS T)": what a read of a null element gives.  T is written
 * nullable at its top; fields inside keep their NOT NULL.
 */
static void
typed_null(struct gen *g, const struct ty *t)
{
	struct ty top;

	if (t == NULL) {
		fail(g, "a null element");
		return;
	}
	top = *t;
	top.required = false;
	sb_adds(&g->out, "CAST(NULL AS ");
	sql_type(g, &top);
	sb_addc(&g->out, ')');
}

/*
 * A path step, {"field": F} or {"key": K}: *field gets F (NULL if there
 * is none), and if there is none *key gets K's string (NULL if none).
 * A step has one member as a rule: reading its name costs less than
 * looking up both.
 */
static void
step_parts(const json_t *st, const json_t **field, const char **key)
{
	void *it;
	const char *k;
	size_t klen;

	*field = NULL;
	*key = NULL;
	if (json_object_size(st) != 1) {
		if ((*field = json_object_get(st, "field")) == NULL)
			*key = jstr(st, "key");
		return;
	}
	it = json_object_iter((json_t *)(uintptr_t)st);
	k = json_object_iter_key(it);
	klen = json_object_iter_key_len(it);
	if (key_is(k, klen, "field"))
		*field = json_object_iter_value(it);
	else if (key_is(k, klen, "key"))
		*key = json_string_value(json_object_iter_value(it));
}

/* The "field" member of a path's first step, or NULL. */
static const json_t *
first_field(const json_t *steps)
{
	const json_t *field;
	const char *key;

	step_parts(json_array_get(steps, 0), &field, &key);
	return field;
}

/* The type a path into the exploded element reads, or NULL. */
static const struct ty *
elem_type(struct gen *g, const json_t *steps)
{
	const struct ty *t = g->null_elem;
	const struct ty_field *f;
	const json_t *st, *field;
	const char *key;
	size_t i;

	json_array_foreach(steps, i, st) {
		if (t == NULL)
			return NULL;
		step_parts(st, &field, &key);
		/* A field that is no string does not count here. */
		if (field != NULL && !json_is_string(field)) {
			field = NULL;
			key = jstr(st, "key");
		}
		if (field != NULL) {
			if (t->kind != TY_STRUCT || (f = ty_field(t,
			    json_string_value(field))) == NULL)
				return NULL;
			t = f->type;
		} else if (key != NULL && t->kind == TY_MAP)
			t = t->value;
		else
			return NULL;
	}
	return t;
}

/* Does UNNEST name the fields of the element e reads as columns of `x`? */
static bool
element_fields(const struct gen *g, const json_t *e)
{
	if (g->elem_fields >= 0)
		return g->elem_fields == 1;
	return json_object_get(e, "elementFields") == json_true();
}

/*
 * Put the text written to sb since start in parentheses.  A path is a
 * few dozen bytes, so moving it by one is cheaper than writing it to a
 * buffer of its own in case a map lookup comes.
 */
static void
parenthesise(struct sb *sb, size_t start)
{
	sb_addn(sb, "))", 2);	/* one of them makes room for the "(" */
	memmove(sb->buf + start + 1, sb->buf + start, sb->len - 2 - start);
	sb->buf[start] = '(';
}

/* A path: the alias, then .`field` and ['key'] steps. */
static void
path(struct gen *g, const json_t *e)
{
	const json_t *steps = json_object_get(e, "steps"), *field;
	size_t i, nsteps = json_array_size(steps), start = g->out.len;
	bool element = jstreq(jstr(e, "origin"), "element");
	const char *key;

	if (element && g->null_elem != NULL) {
		typed_null(g, elem_type(g, steps));
		return;
	}
	/*
	 * The element of an explode: UNNEST names a struct element's
	 * fields as columns of `x`, and a scalar element as `x`.`<as>`.
	 */
	if (element && nsteps > 0 && element_fields(g, e) &&
	    (field = first_field(steps)) != NULL) {
		sb_adds(&g->out, ELEM ".");
		if (sqlq_ident(&g->out, json_string_value(field)))
			fail(g, "a field name");
		i = 1;
	} else {
		sb_adds(&g->out, element ? ELEM "." : SRC ".");
		if (sqlq_ident(&g->out, jstr(e, "root")))
			fail(g, "a column name");
		i = 0;
	}
	for (; i < nsteps; i++) {
		step_parts(json_array_get(steps, i), &field, &key);
		if (field != NULL) {
			/* Parenthesise after a map lookup: (m['k']).`f` */
			if (g->out.buf[g->out.len - 1] == ']')
				parenthesise(&g->out, start);
			sb_addc(&g->out, '.');
			if (sqlq_ident(&g->out, json_string_value(field)))
				fail(g, "a field name");
		} else if (key != NULL) {
			sb_addc(&g->out, '[');
			sqlq_literal(&g->out, key);
			sb_addc(&g->out, ']');
		} else
			fail(g, "a path step");
	}
}

static void
cast_to(struct gen *g, const json_t *e, const char *type)
{
	struct ty_name tn;
	struct ty t;
	const char *why;

	sb_adds(&g->out, "CAST(");
	expr(g, json_object_get(e, "arg"), NULL);
	sb_adds(&g->out, " AS ");
	if (ty_name_parse(type, &tn, &why) == -1) {
		fail(g, "a cast");
		return;
	}
	memset(&t, 0, sizeof(t));
	t.kind = tn.kind;
	t.precision = tn.precision;
	t.scale = tn.scale;
	sql_type(g, &t);
	sb_addc(&g->out, ')');
}

/*
 * An expression tree.  want is the type it must have when the table says
 * so (an output column or a field of one), else NULL.
 */
static void
expr(struct gen *g, const json_t *e, const struct ty *want)
{
	const char *op = jstr(e, "op");
	const json_t *f, *fields, *nullif;
	const struct ty_field *wf;
	size_t i;

	if (op == NULL) {
		fail(g, "an expression");
		return;
	}
	if (strcmp(op, "path") == 0)
		path(g, e);
	else if (strcmp(op, "cast") == 0)
		cast_to(g, e, "string");	/* binary as UTF-8 text */
	else if (strcmp(op, "widen") == 0)
		cast_to(g, e, jstr(e, "type"));
	else if (strcmp(op, "struct") == 0) {
		nullif = json_object_get(e, "nullIf");
		/*
		 * A struct built from the element itself: UNNEST gives rows
		 * for elements that are there, so there is nothing to test
		 * (build the row); the rows of null elements get a NULL.
		 */
		if (json_is_object(nullif) &&
		    jstreq(jstr(nullif, "origin"), "element") &&
		    json_array_size(json_object_get(nullif, "steps")) == 0) {
			if (g->null_elem == NULL)
				nullif = NULL;
			else if (want != NULL) {
				typed_null(g, want);
				return;
			}
		}
		if (json_is_object(nullif)) {
			sb_adds(&g->out, "CASE WHEN ");
			expr(g, nullif, NULL);
			sb_adds(&g->out, " IS NULL THEN NULL ELSE ");
		}
		/* Built in the output's field order: never by position of
		 * the source, so reordered or narrower structs bind right. */
		sb_adds(&g->out, "ROW(");
		fields = json_object_get(e, "fields");
		json_array_foreach(fields, i, f) {
			if (i > 0)
				sb_adds(&g->out, ", ");
			wf = want != NULL && want->kind == TY_STRUCT ?
			    ty_field(want, jstr(f, "name")) : NULL;
			expr(g, json_object_get(f, "expr"),
			    wf != NULL ? wf->type : NULL);
		}
		sb_addc(&g->out, ')');
		if (json_is_object(nullif))
			sb_adds(&g->out, " END");
	} else
		fail(g, "an expression");
}

/*
 * The table's column for output i, called name (borrowed), or NULL.
 * fluid-check writes the outputs in the table's column order, so the
 * column is at i; the scan is for a document that says otherwise, and
 * keeps the common case linear in the number of columns.
 */
static const json_t *
table_column(const json_t *b, size_t i, const char *name)
{
	const json_t *cols = json_object_get(json_object_get(b, "table"),
	    "columns"), *c;
	size_t j;

	if (jstreq(jstr(json_array_get(cols, i), "name"), name))
		return json_array_get(cols, i);
	json_array_foreach(cols, j, c)
		if (jstreq(jstr(c, "name"), name))
			return c;
	return NULL;
}

/*
 * The type the table gives output i, which only a struct built in the
 * rows of null elements needs (see expr()), or NULL.  A shallow copy is
 * enough to leave the name out: ty_from_json() only reads.
 */
static struct ty *
output_type(const json_t *b, size_t i, const json_t *o)
{
	json_t *col = json_copy((json_t *)(uintptr_t)table_column(b, i,
	    jstr(o, "name")));
	struct ty *t;

	if (col == NULL)
		return NULL;
	json_object_del(col, "name");
	t = ty_from_json(col);
	json_decref(col);
	return t;
}

/*
 * "SELECT expr AS `col`, ..." in the expose's order.  struct_elem: the
 * exploded element is a struct, whose fields UNNEST makes columns.
 */
static void
select_list(struct gen *g, const json_t *b, bool struct_elem)
{
	const json_t *outs = json_object_get(b, "outputs"), *o, *e;
	size_t i;
	struct ty *want;

	g->elem_fields = struct_elem;
	sb_adds(&g->out, "SELECT");
	json_array_foreach(outs, i, o) {
		e = json_object_get(o, "expr");
		want = g->null_elem != NULL && jstreq(jstr(e, "op"), "struct") ?
		    output_type(b, i, o) : NULL;
		sb_adds(&g->out, i ? ",\n  " : "\n  ");
		expr(g, e, want);
		ty_free(want);
		sb_adds(&g->out, " AS ");
		ident(g, jstr(o, "name"));
	}
	g->elem_fields = -1;
}

/*
 * The spec: a null element becomes a row whose element fields are null.
 * Flink 1.20's UNNEST gives no row at all for a null element of an
 * ARRAY<ROW<...>> (a null scalar element does get its row), so the rows
 * of null elements are a second SELECT, UNION ALL'd to the first: one row
 * per null element, every read of the element a typed NULL.  Its
 * generator is an array of as many strings as the array has null
 * elements: SPLIT('x,x,...', ',').  They are counted in a derived table,
 * because Flink 1.20 cannot infer ARRAY_REMOVE's type inside a query with
 * a lateral UNNEST when the element holds a MAP ("convertTypeToSpec:
 * MAP"); the column's name is no plain identifier, so it cannot clash
 * with a stream column.  Both SELECTs read the same columns of
 * source_events, which Flink's planner scans once (source reuse).
 */
#define NULLS	"`null elements`"

static void
null_rows(struct gen *g, const json_t *b, const json_t *ex, const json_t *el)
{
	struct sb arr;

	g->null_elem = ty_from_json(el);
	if (g->null_elem == NULL)
		fail(g, "the element type");
	sb_adds(&g->out, "\nUNION ALL\n");
	select_list(g, b, true);
	/* The array's path, written once and used twice. */
	arr = g->out;
	sb_init(&g->out);
	expr(g, json_object_get(ex, "path"), NULL);
	sb_addf(&arr, "\nFROM (\n  SELECT *, CARDINALITY(%s) - "
	    "CARDINALITY(ARRAY_REMOVE(%s, NULL)) AS " NULLS "\n  FROM ",
	    g->out.buf, g->out.buf);
	sb_release(&g->out);
	g->out = arr;
	ident(g, "source_events");
	sb_adds(&g->out, " AS " SRC "\n) AS " SRC
	    "\nCROSS JOIN UNNEST(SPLIT(CONCAT(");
	literal(g, "x");
	sb_adds(&g->out, ", REPEAT(");
	literal(g, ",x");
	sb_adds(&g->out, ", " SRC "." NULLS " - 1)), ");
	literal(g, ",");
	sb_adds(&g->out, ")) AS ");
	ident(g, "n");
	sb_adds(&g->out, " (");
	ident(g, "e");
	sb_adds(&g->out, ")\nWHERE " SRC "." NULLS " > 0");
	ty_free((struct ty *)(uintptr_t)g->null_elem);
	g->null_elem = NULL;
}

static void
insert(struct gen *g, const json_t *b)
{
	const json_t *outs = json_object_get(b, "outputs"), *o, *ex, *el, *f;
	const char *sql = jstr(b, "sql");
	size_t i;
	bool struct_elem;

	ex = json_object_get(b, "explode");
	el = json_object_get(ex, "element");
	struct_elem = json_is_object(el) && jstreq(jstr(el, "type"), "struct");
	sb_adds(&g->out, "INSERT INTO ");
	table_name(g, json_object_get(b, "table"));
	sb_adds(&g->out, " (");
	json_array_foreach(outs, i, o) {
		if (i > 0)
			sb_adds(&g->out, ", ");
		ident(g, jstr(o, "name"));
	}
	sb_adds(&g->out, ")\n");
	if (g->cfk_with != NULL)
		sb_adds(&g->out, g->cfk_with);
	if (sql != NULL) {
		/*
		 * The build's own SQL, bound by name: the one text written
		 * unquoted, so it is judged again here, with fluid-check's
		 * own rules, whatever document said it was checked.
		 */
		enum sqllex_err err;
		size_t off;

		if ((err = sqllex_query(sql, &off)) != SQLLEX_OK) {
			if (!g->failed)
				diag_at(g->d, DIAG_ERROR, NULL, "Flink build "
				    "%s: its own SQL (properties.sql) cannot "
				    "be written safely as Flink SQL: %s",
				    g->build, sqllex_why(err));
			g->failed = 1;
			return;
		}
		sb_adds(&g->out, "SELECT");
		json_array_foreach(outs, i, o) {
			sb_adds(&g->out, i ? ",\n  " : "\n  ");
			sb_adds(&g->out, "`q`.");
			ident(g, jstr(o, "name"));
			sb_adds(&g->out, " AS ");
			ident(g, jstr(o, "name"));
		}
		sb_adds(&g->out, "\nFROM (\n");
		sb_adds(&g->out, sql);
		sb_adds(&g->out, "\n) AS `q`;\n");
		return;
	}
	select_list(g, b, struct_elem);
	sb_adds(&g->out, "\nFROM ");
	ident(g, "source_events");
	sb_adds(&g->out, " AS " SRC);
	if (json_is_object(ex)) {
		const json_t *fields = json_object_get(el, "fields");

		/*
		 * One output row per element; a record whose array is null
		 * or empty gives no row (an inner CROSS JOIN).
		 */
		sb_adds(&g->out, "\nCROSS JOIN UNNEST(");
		expr(g, json_object_get(ex, "path"), NULL);
		sb_adds(&g->out, ") AS " ELEM " (");
		if (struct_elem)
			json_array_foreach(fields, i, f) {
				if (i > 0)
					sb_adds(&g->out, ", ");
				ident(g, jstr(f, "name"));
			}
		else
			ident(g, jstr(ex, "as"));
		sb_addc(&g->out, ')');
		if (struct_elem &&
		    json_object_get(el, "required") != json_true())
			null_rows(g, b, ex, el);
	}
	sb_adds(&g->out, ";\n");
}

/* The helpers sqlgen_cdc.c writes with (sqlgen_int.h). */
void
sqlgen_insert(struct gen *g, const json_t *b)
{
	insert(g, b);
}

char *
sqlgen_build(const json_t *b, struct diags *d)
{
	struct gen g;

	memset(&g, 0, sizeof(g));
	g.d = d;
	g.elem_fields = -1;
	g.build = jstr(b, "id") ? jstr(b, "id") : "?";
	sb_init(&g.out);
	sb_adds(&g.out, "-- Generated by fluid-sqlgen from the contract's "
	    "checked IR: do not edit.\n\n");
	set_lines(&g, b);
	catalog(&g, json_object_get(b, "table"));
	table(&g, json_object_get(b, "table"));
	source(&g, json_object_get(b, "stream"));
	insert(&g, b);
	json_decref(g.bare);
	if (g.failed) {
		sb_release(&g.out);
		return NULL;
	}
	return sb_steal(&g.out);
}
