/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen_cfk.c - a build's statements in CMF's dialect (sqlgen_cfk.h).
 *
 * The INSERT is sqlgen.c's, with two hooks (struct gen's cfk_ fields):
 * the sink's name and a WITH clause that names the source table
 * source_events, which the mapping's query and a build's own SQL read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "digest.h"
#include "jget.h"
#include "sqlgen.h"
#include "sqlgen_cfk.h"
#include "sqlgen_int.h"
#include "sqlq.h"
#include "xalloc.h"

bool
sqlgen_cfk_target(const json_t *b)
{
	const char *t = jstr(json_object_get(b, "deployment"), "target");

	return t != NULL && strcmp(t, "cfk") == 0;
}

/*
 * "`cat`.`default`.`<build>__<role>_<hex>`" for the definition def
 * (what follows the name), quoted into a new string.
 */
static char *
table_ident(struct gen *g, const char *cat, const char *role,
    const char *def)
{
	char d[DIGEST_STRLEN], *name;
	struct sb sb;

	digest_bytes(def, strlen(def), d);
	name = xasprintf("%s__%s_%.*s", g->build, role, SQLGEN_CFK_HEX, d + 7);
	sb_init(&sb);
	if (sqlq_ident(&sb, cat) == -1)
		sqlgen_fail(g, "the environment's catalog name");
	sb_addc(&sb, '.');
	sqlq_ident(&sb, "default");
	sb_addc(&sb, '.');
	if (sqlq_ident(&sb, name) == -1)
		sqlgen_fail(g, "a table name");
	free(name);
	return sb_steal(&sb);
}

/* The Kafka source's definition: " (columns) WITH (options);\n". */
static void
source_def(struct gen *g, const json_t *st)
{
	const json_t *key = json_object_get(st, "key"), *c, *et, *src;
	const char *fmt = jstr(st, "format"), *origin;
	size_t i;
	int first = 1;

	src = json_object_get(st, "source");
	et = json_object_get(st, "eventTime");
	sb_adds(&g->out, " (");
	/* An append-with-op envelope's (refused before: unsupported()). */
	if (!sqlgen_cdc_columns(g, st, false))
		json_array_foreach(json_object_get(st, "columns"), i, c) {
			sb_adds(&g->out, i ? ",\n  " : "\n  ");
			sqlgen_column(g, c);
			origin = jstr(c, "origin");
			if (origin != NULL && strcmp(origin, "metadata") == 0) {
				sb_adds(&g->out, " METADATA FROM ");
				sqlgen_literal(g, jstr(c, "from"));
				sb_adds(&g->out, " VIRTUAL");
			}
		}
	if (json_is_object(et)) {
		sb_adds(&g->out, ",\n  WATERMARK FOR ");
		sqlgen_ident(g, jstr(et, "column"));
		sb_adds(&g->out, " AS ");
		sqlgen_ident(g, jstr(et, "column"));
		sqlgen_interval(g, json_integer_value(json_object_get(et,
		    "delaySeconds")));
	}
	sb_adds(&g->out, "\n) WITH (");
	sqlgen_option(g, "connector", "kafka", &first);
	sqlgen_option(g, "topic", jstr(st, "topic"), &first);
	sqlgen_option(g, "properties.bootstrap.servers", jstr(src,
	    "bootstrapServers"), &first);
	sqlgen_option(g, "properties.group.id", jstr(src, "groupId"), &first);
	sqlgen_kafka_startup(g, src, &first);
	sqlgen_kafka_key(g, key, jstr(src, "schemaRegistryUrl"), &first);
	sqlgen_option(g, "value.format", sqlgen_cdc_value_format(st, fmt),
	    &first);
	if (sqlgen_cdc_value_options(g, st, &first))
		;	/* a change stream's (sqlgen_cdc.c) */
	else if (fmt != NULL && strcmp(fmt, "json") == 0) {
		sqlgen_option(g, "value.json.fail-on-missing-field", "false",
		    &first);
		sqlgen_option(g, "value.json.ignore-parse-errors", "false",
		    &first);
	} else
		sqlgen_option(g, "value.avro-confluent.url", jstr(src,
		    "schemaRegistryUrl"), &first);
	sb_adds(&g->out, "\n);\n");
}

/* The Iceberg sink's connector: the REST catalog's options. */
static void
sink_with(struct gen *g, const json_t *t, int *first)
{
	const json_t *cat = json_object_get(t, "catalog");

	sqlgen_option(g, "connector", "iceberg", first);
	sqlgen_option(g, "catalog-name", SQLGEN_CATALOG, first);
	sqlgen_option(g, "catalog-type", "rest", first);
	sqlgen_catalog_option(g, "uri", jstr(cat, "uri"), first);
	sqlgen_catalog_option(g, "warehouse", jstr(cat, "warehouse"), first);
	sqlgen_option(g, "io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
	    first);
	sqlgen_catalog_properties(g, json_object_get(cat, "properties"), first);
	sqlgen_option(g, "catalog-database", jstr(t, "namespace"), first);
	sqlgen_option(g, "catalog-table", jstr(t, "name"), first);
}

/* The Iceberg sink's definition, the REST catalog's options on it. */
static void
sink_def(struct gen *g, const json_t *t)
{
	sqlgen_iceberg_body(g, t, sqlgen_column, sink_with);
	sb_adds(&g->out, ";\n");
}

/*
 * What fluid-check refuses on this target (fluid-check(1), CFK
 * TARGET), refused again here: the document is not trusted.
 */
/* A member with a value: the IR writes some absent ones as null. */
static bool
present(const json_t *v)
{
	return v != NULL && !json_is_null(v);
}

static const char *
unsupported(const json_t *b)
{
	const json_t *st = json_object_get(b, "stream"), *c;
	size_t i;

	if (present(json_object_get(json_object_get(st, "source"),
	    "security")))
		return "Kafka security";
	/* A changelog (upsert) stream is two tables and an INSERT. */
	if (jstreq(jstr(json_object_get(st, "changes"), "landing"),
	    "append-with-op"))
		return "an append-with-op change stream";
	json_array_foreach(json_object_get(st, "columns"), i, c)
		if (present(json_object_get(c, "physical")))
			return "a converted stream column";
	if (present(json_object_get(json_object_get(json_object_get(b,
	    "table"), "catalog"), "auth")))
		return "catalog credentials";
	return NULL;
}

/* The sink's column named name, or NULL. */
static const json_t *
sink_column(const json_t *b, const char *name)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(b, "table"),
	    "columns"), i, c)
		if (name != NULL && jstr(c, "name") != NULL &&
		    strcmp(jstr(c, "name"), name) == 0)
			return c;
	return NULL;
}

/*
 * "`fluid_query`.`c`", or "CAST(`fluid_query`.`c` AS TYPE)" for a
 * timestamp column.  The cast ends the event time's rowtime attribute
 * before the sink: the sink table here declares the event time's own
 * type, so without it Flink 1.20 adds a StreamRecordTimestampInserter
 * that fails the job on a record whose event time is null (Iceberg's
 * catalog table of the operator target is TIMESTAMP_LTZ(6): its
 * INSERT's widening cast does the same).  TYPE without NOT NULL: the
 * cast keeps the column's nullability.
 */
static void
output(struct gen *g, const json_t *b, const char *name)
{
	const json_t *col = sink_column(b, name);
	struct ty *t = col != NULL ? sqlgen_column_type(g, col) : NULL;
	bool cast = t != NULL && (t->kind == TY_TIMESTAMP ||
	    t->kind == TY_TIMESTAMP_LTZ);

	if (cast)
		sb_adds(&g->out, "CAST(");
	sb_adds(&g->out, "`fluid_query`.");
	if (name == NULL || sqlq_ident(&g->out, name) == -1)
		sqlgen_fail(g, "an identifier");
	if (cast) {
		t->required = false;
		sb_adds(&g->out, " AS ");
		sqlgen_sql_type(g, t);
		sb_addc(&g->out, ')');
	}
	ty_free(t);
}

/*
 * "SELECT `fluid_query`.`c`, ... FROM (\nWITH `source_events` AS
 * (SELECT * FROM src)\n", the head of the INSERT's query: each output
 * by name, for Flink 1.20 refuses "SELECT *" of a derived table after a
 * column list ("Number of columns must match number of query columns").
 * Written to g->out, which is empty here, and taken from it.
 */
static char *
outer_select(struct gen *g, const json_t *b, const char *src)
{
	const json_t *o;
	size_t i;

	sb_init(&g->out);
	sb_adds(&g->out, "SELECT");
	json_array_foreach(json_object_get(b, "outputs"), i, o) {
		sb_adds(&g->out, i ? ", " : " ");
		output(g, b, jstr(o, "name"));
	}
	sb_addf(&g->out, "\nFROM (\nWITH `source_events` AS (SELECT * FROM "
	    "%s)\n", src);
	return sb_steal(&g->out);
}

/* Add "CREATE TABLE IF NOT EXISTS <name><def>" as role to out. */
static char *
create(struct gen *g, json_t *out, const char *cat, const char *role,
    const char *def)
{
	char *name = table_ident(g, cat, role, def), *sql;

	sql = xasprintf("CREATE TABLE IF NOT EXISTS %s%s", name, def);
	json_array_append_new(out, json_pack("{s:s, s:s}", "role", role,
	    "sql", sql));
	free(sql);
	return name;
}

json_t *
sqlgen_cfk_build(const json_t *b, struct diags *d)
{
	struct gen g;
	json_t *out = json_array();
	const char *env = jstr(json_object_get(b, "deployment"),
	    "flinkEnvironment"), *why;
	char *cat = NULL, *src = NULL, *sink = NULL, *def, *with;

	memset(&g, 0, sizeof(g));
	g.d = d;
	g.elem_fields = -1;
	g.build = jstr(b, "id") ? jstr(b, "id") : "?";
	if ((why = unsupported(b)) != NULL || env == NULL) {
		diag_at(d, DIAG_ERROR, NULL, "Flink build %s: %s cannot be run "
		    "by CMF (management: cfk): fluid-check refuses it",
		    g.build, why ? why : "a deployment without a "
		    "flinkEnvironment");
		json_decref(out);
		return NULL;
	}
	cat = xasprintf("_env_%s", env);
	sb_init(&g.out);
	source_def(&g, json_object_get(b, "stream"));
	def = sb_steal(&g.out);
	src = create(&g, out, cat, "source", def);
	free(def);
	sb_init(&g.out);
	sink_def(&g, json_object_get(b, "table"));
	def = sb_steal(&g.out);
	sink = create(&g, out, cat, "sink", def);
	free(def);
	/*
	 * Flink 1.20 refuses a WITH right after INSERT INTO's column list
	 * ("only support SELECT, VALUES, SET_QUERY AND ORDER BY"), so the
	 * query with its WITH is a derived table (outer_select()).
	 * insert() ends every INSERT with ";\n", which the derived table's
	 * end replaces.
	 */
	with = outer_select(&g, b, src);
	g.cfk_sink = sink;
	g.cfk_with = with;
	sb_init(&g.out);
	sqlgen_insert(&g, b);
	if (g.out.len < 2 || strcmp(g.out.buf + g.out.len - 2, ";\n") != 0)
		sqlgen_fail(&g, "the INSERT");
	else {
		g.out.len -= 2;
		g.out.buf[g.out.len] = '\0';
		sb_adds(&g.out, "\n) AS `fluid_query`;\n");
	}
	json_array_append_new(out, json_pack("{s:s, s:s}", "role", "insert",
	    "sql", g.out.buf));
	sb_release(&g.out);
	json_decref(g.bare);
	free(with);
	free(cat);
	free(src);
	free(sink);
	if (g.failed) {
		json_decref(out);
		return NULL;
	}
	return out;
}
