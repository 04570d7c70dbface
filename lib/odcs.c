/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * odcs.c - the ODCS v3.2.0 data contract of a checked contract (see
 * odcs.h and fluid-odcs(1)).
 *
 * Everything comes from fluid-check's section, which holds each table
 * as the job creates it and each output column's source as typed
 * expressions, and from the resolved contract for what the checker
 * does not carry (the owner, the exposes' descriptions; the columns'
 * descriptions are in the check section's types).  Keys are set
 * in a fixed order and lists follow the contract's, so the same
 * document always gives the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "jget.h"
#include "odcs.h"
#include "types.h"

struct odcs {
	struct diags	*d;
	const char	*topic;		/* the build's Kafka topic */
	const json_t	*explode;	/* the build's explode, or NULL */
	int		 bad;		/* a section was not as written */
};

/* The shared accessor (jget.h), under this file's short name. */

/* {"property": name, "value": value (stolen)} */
static json_t *
custom(const char *name, json_t *value)
{
	return json_pack("{s:s, s:o}", "property", name, "value", value);
}

/* Append a string, or set key to it when it is not NULL. */
static void
set_str(json_t *o, const char *key, const char *s)
{
	if (s != NULL)
		json_object_set_new(o, key, json_string(s));
}

/*
 * physicalType: the column's type in the Iceberg table (the physical
 * one: what the job writes and what every engine reading the table
 * sees), spelt as datacontract-cli 1.2.8 maps it to each consumer's own
 * type.  Its exporters read the base name and a decimal's parameters
 * and nothing else: a nested type spelt whole (Flink's ROW<...>, or
 * Iceberg's struct<...>) was copied verbatim into Snowflake and Trino
 * DDL, so a container is its bare name and its levels are its
 * properties, items and map.  An Iceberg timestamp, which has no zone,
 * is timestamp_ntz, and a timestamptz timestamp_tz: datacontract-cli
 * reads a bare "timestamp" as one with a zone, and knows no
 * "timestamptz".  A decimal keeps Iceberg's decimal(P,S), which its
 * SQL and Spark exporters read; precision and scale are also custom
 * properties (decimal_props()).  Iceberg stores a timestamp or a time
 * in microseconds whatever the contract's precision, so there is none.
 */
static const char *
physical_type(const struct ty *t, struct sb *sb)
{
	static const char *const names[] = {
		[TY_STRING] = "string", [TY_BOOLEAN] = "boolean",
		[TY_INT] = "int", [TY_LONG] = "long", [TY_FLOAT] = "float",
		[TY_DOUBLE] = "double", [TY_DATE] = "date", [TY_TIME] = "time",
		[TY_BINARY] = "binary", [TY_TIMESTAMP] = "timestamp_ntz",
		[TY_TIMESTAMP_LTZ] = "timestamp_tz", [TY_STRUCT] = "struct",
		[TY_ARRAY] = "array", [TY_MAP] = "map"
	};

	if (t->kind != TY_DECIMAL)
		return names[t->kind];
	sb_addf(sb, "decimal(%d,%d)", t->precision, t->scale);
	return sb->buf;
}

/*
 * A decimal's precision and scale, which ODCS v3.2.0 has no field for
 * (a number's logicalTypeOptions allow neither): the custom properties
 * precision and scale, which datacontract-cli's Iceberg, Avro, SQL and
 * Spark exporters read.  Its Avro exporter makes a decimal only of a
 * physicalType "decimal" exactly, or of an avroType, so the Avro type
 * is one too: bytes of logicalType decimal.
 */
static void
decimal_props(json_t *cps, const struct ty *t)
{
	json_array_append_new(cps, custom("precision",
	    json_integer(t->precision)));
	json_array_append_new(cps, custom("scale", json_integer(t->scale)));
	json_array_append_new(cps, custom("avroType", json_pack(
	    "{s:s, s:s, s:i, s:i}", "type", "bytes", "logicalType", "decimal",
	    "precision", t->precision, "scale", t->scale)));
}

/*
 * The Trino type of the table's column, as Trino's Iceberg connector
 * shows it: a struct a row of quoted names, an array an array, a time
 * or a timestamp in Iceberg's microseconds.  datacontract-cli's Trino
 * SQL takes a trinoType custom property before anything else, and of
 * itself writes json for a struct or an array and timestamp(3).
 */
static void
trino_type(const struct ty *t, struct sb *sb)
{
	static const char *const names[] = {
		[TY_STRING] = "varchar", [TY_BOOLEAN] = "boolean",
		[TY_INT] = "integer", [TY_LONG] = "bigint", [TY_FLOAT] = "real",
		[TY_DOUBLE] = "double", [TY_DATE] = "date",
		[TY_TIME] = "time(6)", [TY_BINARY] = "varbinary",
		[TY_TIMESTAMP] = "timestamp(6)",
		[TY_TIMESTAMP_LTZ] = "timestamp(6) with time zone"
	};
	const char *c;
	size_t i;

	switch (t->kind) {
	case TY_DECIMAL:
		sb_addf(sb, "decimal(%d,%d)", t->precision, t->scale);
		break;
	case TY_STRUCT:
		sb_adds(sb, "row(");
		for (i = 0; i < t->nfields; i++) {
			sb_adds(sb, i ? ", \"" : "\"");
			for (c = t->fields[i].name; *c != '\0'; c++) {
				if (*c == '"')
					sb_addc(sb, '"');
				sb_addc(sb, *c);
			}
			sb_adds(sb, "\" ");
			trino_type(t->fields[i].type, sb);
		}
		sb_addc(sb, ')');
		break;
	case TY_ARRAY:
		sb_adds(sb, "array(");
		trino_type(t->element, sb);
		sb_addc(sb, ')');
		break;
	case TY_MAP:
		sb_adds(sb, "map(");
		trino_type(t->key, sb);
		sb_adds(sb, ", ");
		trino_type(t->value, sb);
		sb_addc(sb, ')');
		break;
	default:
		sb_adds(sb, names[t->kind]);
	}
}

/*
 * The Avro type of a column datacontract-cli's Avro export would get
 * wrong by itself: binary as bytes (it writes a string of format binary
 * as an Avro string), and a time or a timestamp in Iceberg's
 * microseconds (it writes a plain long, and timestamp-millis).
 */
static void
avro_props(json_t *cps, const struct ty *t)
{
	const char *lt = NULL;

	switch (t->kind) {
	case TY_BINARY:
		json_array_append_new(cps, custom("avroType",
		    json_string("bytes")));
		return;
	case TY_TIME:
		lt = "time-micros";
		break;
	case TY_TIMESTAMP:
		lt = "local-timestamp-micros";
		break;
	case TY_TIMESTAMP_LTZ:
		lt = "timestamp-micros";
		break;
	default:
		return;
	}
	json_array_append_new(cps, custom("avroLogicalType", json_string(lt)));
}

/* Where datacontract-cli's own Trino type is not the table's. */
static bool
needs_trino_type(enum ty_kind k)
{
	return k == TY_STRUCT || k == TY_ARRAY || k == TY_TIME ||
	    k == TY_TIMESTAMP || k == TY_TIMESTAMP_LTZ;
}

/*
 * logicalType, and the logicalTypeOptions ODCS has for it: the width
 * of a number, binary as a string format, and whether a timestamp is
 * an instant.  A map is ODCS v3.2.0's map (RFC 0030).
 */
static void
logical_type(json_t *p, const struct ty *t)
{
	const char *lt = "string";
	json_t *opt = NULL;

	switch (t->kind) {
	case TY_STRING:
		break;
	case TY_BINARY:
		opt = json_pack("{s:s}", "format", "binary");
		break;
	case TY_BOOLEAN:
		lt = "boolean";
		break;
	case TY_INT:
	case TY_LONG:
		lt = "integer";
		opt = json_pack("{s:s}", "format",
		    t->kind == TY_INT ? "i32" : "i64");
		break;
	case TY_FLOAT:
	case TY_DOUBLE:
		lt = "number";
		opt = json_pack("{s:s}", "format",
		    t->kind == TY_FLOAT ? "f32" : "f64");
		break;
	case TY_DECIMAL:
		lt = "number";
		break;
	case TY_DATE:
		lt = "date";
		break;
	case TY_TIME:
		lt = "time";
		break;
	case TY_TIMESTAMP:
	case TY_TIMESTAMP_LTZ:
		lt = "timestamp";
		opt = json_pack("{s:b}", "timezone",
		    t->kind == TY_TIMESTAMP_LTZ);
		break;
	case TY_STRUCT:
		lt = "object";
		break;
	case TY_MAP:
		lt = "map";
		break;
	case TY_ARRAY:
		lt = "array";
		break;
	}
	json_object_set_new(p, "logicalType", json_string(lt));
	if (opt != NULL)
		json_object_set_new(p, "logicalTypeOptions", opt);
}

/* The steps of a path expression, in the mapping's syntax (path.h). */
static void
steps_text(const json_t *e, struct sb *sb)
{
	const json_t *s;
	const char *k;
	size_t i;

	json_array_foreach(json_object_get(e, "steps"), i, s) {
		if ((k = jstr(s, "field")) != NULL) {
			sb_addf(sb, ".%s", k);
			continue;
		}
		sb_adds(sb, "['");
		for (k = jstr(s, "key"); k != NULL && *k != '\0'; k++) {
			if (*k == '\'')
				sb_addc(sb, '\'');
			sb_addc(sb, *k);
		}
		sb_adds(sb, "']");
	}
}

/* What a column reads, in the mapping's syntax: "customer.id". */
static void
logic_text(struct odcs *o, const json_t *e, struct sb *sb)
{
	const char *op = jstr(e, "op");
	const json_t *f;
	size_t i;

	if (op == NULL) {
		o->bad = 1;
		return;
	}
	if (strcmp(op, "path") == 0) {
		sb_adds(sb, jstr(e, "root") ? jstr(e, "root") : "?");
		steps_text(e, sb);
	} else if (strcmp(op, "cast") == 0 || strcmp(op, "widen") == 0) {
		sb_adds(sb, "CAST(");
		logic_text(o, json_object_get(e, "arg"), sb);
		sb_addf(sb, " AS %s)", jstr(e, "type") ? jstr(e, "type") : "?");
		if (strcmp(op, "widen") == 0)
			sb_adds(sb, ", a widening");
	} else if (strcmp(op, "struct") == 0) {
		sb_adds(sb, "struct(");
		json_array_foreach(json_object_get(e, "fields"), i, f) {
			sb_addf(sb, "%s%s: ", i > 0 ? ", " : "",
			    jstr(f, "name") ? jstr(f, "name") : "?");
			logic_text(o, json_object_get(f, "expr"), sb);
		}
		sb_addc(sb, ')');
		f = json_object_get(e, "nullIf");
		if (f != NULL && !json_is_null(f)) {
			sb_adds(sb, ", null when ");
			logic_text(o, f, sb);
			sb_adds(sb, " is null");
		}
	} else
		o->bad = 1;
}

/*
 * The stream paths a column reads, each named by topic as
 * "orders.customer.address.country"; an exploded element's as
 * "orders.items[*].sku".  In the order read, each once.
 */
static void
sources(struct odcs *o, const json_t *e, json_t *list)
{
	const char *op = jstr(e, "op");
	const json_t *f, *x;
	struct sb sb;
	size_t i;

	if (op == NULL)
		return;
	if (strcmp(op, "cast") == 0 || strcmp(op, "widen") == 0) {
		sources(o, json_object_get(e, "arg"), list);
		return;
	}
	if (strcmp(op, "struct") == 0) {
		json_array_foreach(json_object_get(e, "fields"), i, f)
			sources(o, json_object_get(f, "expr"), list);
		f = json_object_get(e, "nullIf");
		if (f != NULL && !json_is_null(f))
			sources(o, f, list);
		return;
	}
	if (strcmp(op, "path") != 0)
		return;
	sb_init(&sb);
	sb_addf(&sb, "%s.", o->topic);
	if (o->explode != NULL && jstr(e, "origin") != NULL &&
	    strcmp(jstr(e, "origin"), "element") == 0) {
		x = json_object_get(o->explode, "path");
		sb_adds(&sb, jstr(x, "root") ? jstr(x, "root") : "?");
		steps_text(x, &sb);
		sb_adds(&sb, "[*]");
	} else
		sb_adds(&sb, jstr(e, "root") ? jstr(e, "root") : "?");
	steps_text(e, &sb);
	json_array_foreach(list, i, x)
		if (strcmp(json_string_value(x), sb.buf) == 0)
			break;
	if (i == json_array_size(list))
		json_array_append_new(list, json_string(sb.buf));
	sb_release(&sb);
}

/* The expression of the field called name of a struct expression. */
static const json_t *
field_expr(const json_t *e, const char *name)
{
	const json_t *f;
	size_t i;

	if (e == NULL || jstr(e, "op") == NULL ||
	    strcmp(jstr(e, "op"), "struct") != 0)
		return NULL;
	json_array_foreach(json_object_get(e, "fields"), i, f)
		if (jstr(f, "name") != NULL && strcmp(jstr(f, "name"), name) == 0)
			return json_object_get(f, "expr");
	return NULL;
}

/*
 * One ODCS property for type t called name, the expression that fills
 * it (NULL: none of its own, as for the fields of a struct read whole),
 * sql (the build's own SQL, or NULL), its position in the partition
 * spec and in the table's primary key (0: none).
 */
static json_t *
property(struct odcs *o, const struct ty *t, const char *name,
    const json_t *expr, const char *sql, int partition, int key)
{
	json_t *p = json_object(), *list, *kids, *cps;
	struct sb sb;
	char *kid;
	size_t i;

	set_str(p, "name", name);
	/* The contract's own text, checked by fluid-check; nothing of ours. */
	set_str(p, "description", t->doc);
	logical_type(p, t);
	sb_init(&sb);
	json_object_set_new(p, "physicalType",
	    json_string(physical_type(t, &sb)));
	sb_release(&sb);
	json_object_set_new(p, "required", json_boolean(t->required));
	if (key > 0) {
		json_object_set_new(p, "primaryKey", json_true());
		json_object_set_new(p, "primaryKeyPosition",
		    json_integer(key));
	}
	if (partition > 0) {
		json_object_set_new(p, "partitioned", json_true());
		json_object_set_new(p, "partitionKeyPosition",
		    json_integer(partition));
	}
	if (sql != NULL) {
		json_object_set_new(p, "transformSourceObjects",
		    json_pack("[s]", o->topic));
		set_str(p, "transformLogic", sql);
	} else if (expr != NULL) {
		list = json_array();
		sources(o, expr, list);
		json_object_set_new(p, "transformSourceObjects", list);
		sb_init(&sb);
		logic_text(o, expr, &sb);
		set_str(p, "transformLogic", sb.buf);
		sb_release(&sb);
	}
	/*
	 * An array's element and a map's key and value are named after
	 * their container (NAME_element, NAME_key, NAME_value, as
	 * datacontract-cli names a map's value): Avro names every record.
	 */
	if (t->kind == TY_STRUCT) {
		kids = json_array();
		for (i = 0; i < t->nfields; i++)
			json_array_append_new(kids, property(o,
			    t->fields[i].type, t->fields[i].name,
			    field_expr(expr, t->fields[i].name), NULL, 0, 0));
		json_object_set_new(p, "properties", kids);
	} else if (t->kind == TY_ARRAY) {
		kid = xasprintf("%s_element", name);
		json_object_set_new(p, "items", property(o, t->element, kid,
		    NULL, NULL, 0, 0));
		free(kid);
	} else if (t->kind == TY_MAP) {
		kids = json_object();
		kid = xasprintf("%s_key", name);
		json_object_set_new(kids, "key", property(o, t->key, kid,
		    NULL, NULL, 0, 0));
		free(kid);
		kid = xasprintf("%s_value", name);
		json_object_set_new(kids, "value", property(o, t->value, kid,
		    NULL, NULL, 0, 0));
		free(kid);
		json_object_set_new(p, "map", kids);
	}
	sb_init(&sb);
	ty_print(t, &sb);
	cps = json_pack("[o]", custom(ODCS_RECURSIVE_TYPE,
	    json_string(sb.buf)));
	sb_release(&sb);
	if (t->kind == TY_DECIMAL)
		decimal_props(cps, t);
	avro_props(cps, t);
	if (needs_trino_type(t->kind)) {
		sb_init(&sb);
		trino_type(t, &sb);
		json_array_append_new(cps, custom("trinoType",
		    json_string(sb.buf)));
		sb_release(&sb);
	}
	json_object_set_new(p, "customProperties", cps);
	return p;
}

/*
 * Build b's outputs by name, and the table's partition and primary key
 * columns by name (1 + their place in the list): each made once, so that a column finds
 * its own in constant time (a search per column made the export
 * quadratic: 81 s at 32,000 columns).  The first of a repeated name
 * wins, as a search from the start found it.
 */
static json_t *
outputs_by_name(const json_t *b)
{
	json_t *idx = json_object();
	const json_t *out;
	const char *name;
	size_t i;

	json_array_foreach(json_object_get(b, "outputs"), i, out)
		if ((name = jstr(out, "name")) != NULL &&
		    json_object_get(idx, name) == NULL)
			json_object_set(idx, name, (json_t *)out);
	return idx;
}

static json_t *
positions_by_name(const json_t *list)
{
	json_t *idx = json_object();
	const json_t *c;
	size_t i;

	json_array_foreach(list, i, c)
		if (json_is_string(c) && json_object_get(idx,
		    json_string_value(c)) == NULL)
			json_object_set_new(idx, json_string_value(c),
			    json_integer((json_int_t)i + 1));
	return idx;
}

/* What one row of the table is: dataGranularityDescription. */
static char *
granularity(struct odcs *o, const json_t *b)
{
	const json_t *x = o->explode;
	struct sb sb;

	const json_t *ch = json_object_get(json_object_get(b, "stream"),
	    "changes"), *k;
	const char *land = jstr(ch, "landing");
	size_t i;

	sb_init(&sb);
	if (land != NULL && strcmp(land, "upsert") == 0) {
		/* The table holds each key's latest state, not each record. */
		sb_adds(&sb, "One row per key (");
		json_array_foreach(json_object_get(json_object_get(b,
		    "table"), "primaryKey"), i, k)
			sb_addf(&sb, "%s%s", i > 0 ? ", " : "",
			    json_string_value(k) ? json_string_value(k) : "?");
		sb_addf(&sb, "): the latest state of that key in the change "
		    "stream on Kafka topic %s (%s, landed as upsert); a delete "
		    "removes its row.", o->topic, jstr(ch, "format") ?
		    jstr(ch, "format") : "?");
	} else if (land != NULL)
		sb_addf(&sb, "One row per change in the change stream on "
		    "Kafka topic %s (%s, landed as %s: each change appended, "
		    "its operation in column %s).", o->topic,
		    jstr(ch, "format") ? jstr(ch, "format") : "?", land,
		    jstr(ch, "operationColumn") ? jstr(ch, "operationColumn") :
		    "?");
	else if (json_is_string(json_object_get(b, "sql")))
		sb_addf(&sb, "The rows of the build's own SQL query over the "
		    "records of Kafka topic %s.", o->topic);
	else if (x == NULL)
		sb_addf(&sb, "One row per record of Kafka topic %s.",
		    o->topic);
	else {
		sb_adds(&sb, "One row per element of the array ");
		sb_adds(&sb, jstr(json_object_get(x, "path"), "root") ?
		    jstr(json_object_get(x, "path"), "root") : "?");
		steps_text(json_object_get(x, "path"), &sb);
		sb_addf(&sb, " of each record of Kafka topic %s (the "
		    "explode; the element is read as %s). A record whose "
		    "array is null or empty gives no row; a null element "
		    "gives a row whose element columns are null.", o->topic,
		    jstr(x, "as") ? jstr(x, "as") : "?");
	}
	return sb_steal(&sb);
}

/* The expose of the contract called id (borrowed), or NULL. */
static const json_t *
expose(const json_t *contract, const char *id)
{
	const json_t *x;
	size_t i;

	json_array_foreach(json_object_get(contract, "exposes"), i, x)
		if (id != NULL && jstr(x, "exposeId") != NULL &&
		    strcmp(jstr(x, "exposeId"), id) == 0)
			return x;
	return NULL;
}

/*
 * The schema object of build b's table.  Its columns come from the
 * table fluid-check made, which is the expose's schema as the job
 * creates it.
 */
static json_t *
schema_object(struct odcs *o, const json_t *b, const json_t *x)
{
	const json_t *table = json_object_get(b, "table"), *c, *out;
	json_t *so, *props, *outs, *parts, *keys;
	const char *sql = jstr(b, "sql");
	struct ty *t;
	char *text;
	size_t i;

	so = json_object();
	set_str(so, "name", jstr(table, "name"));
	text = xasprintf("%s.%s", jstr(table, "namespace"),
	    jstr(table, "name"));
	set_str(so, "physicalName", text);
	free(text);
	set_str(so, "physicalType", "table");
	set_str(so, "businessName", jstr(x, "name"));
	set_str(so, "description", jstr(x, "description"));
	json_object_set_new(so, "logicalType", json_string("object"));
	text = granularity(o, b);
	set_str(so, "dataGranularityDescription", text);
	free(text);
	props = json_array();
	outs = outputs_by_name(b);
	parts = positions_by_name(json_object_get(table, "partitionBy"));
	keys = positions_by_name(json_object_get(table, "primaryKey"));
	json_array_foreach(json_object_get(table, "columns"), i, c) {
		if ((t = ty_from_json(c)) == NULL || jstr(c, "name") == NULL) {
			o->bad = 1;
			ty_free(t);
			continue;
		}
		out = json_object_get(outs, jstr(c, "name"));
		if (out == NULL)
			o->bad = 1;
		json_array_append_new(props, property(o, t, jstr(c, "name"),
		    json_object_get(out, "expr"), sql,
		    (int)json_integer_value(json_object_get(parts,
		    jstr(c, "name"))), (int)json_integer_value(
		    json_object_get(keys, jstr(c, "name")))));
		ty_free(t);
	}
	json_decref(outs);
	json_decref(parts);
	json_decref(keys);
	json_object_set_new(so, "properties", props);
	json_object_set_new(so, "customProperties", json_pack("[o, o]",
	    custom("fluid.expose", json_string(jstr(x, "exposeId") ?
	    jstr(x, "exposeId") : "")),
	    custom("fluid.build", json_string(jstr(b, "id")))));
	return so;
}

/*
 * The server of build b's table: ODCS v3.2.0's iceberg server, the REST
 * catalog's URI as catalogUrl and its warehouse, which names the
 * catalog to a REST catalog service (a client selects a catalog by
 * warehouse), as catalog too; the namespace, and the table as a custom
 * property (the server type has no field for it).  Of the binding only
 * these: never catalogAuth, whose variable names are no credentials
 * but say which secret the job holds, nor the catalog properties,
 * which configure the job's client, not the data.
 */
static json_t *
server(const json_t *b)
{
	const json_t *table = json_object_get(b, "table");
	const json_t *cat = json_object_get(table, "catalog");
	json_t *s;

	s = json_object();
	set_str(s, "server", jstr(b, "expose"));
	json_object_set_new(s, "type", json_string("iceberg"));
	json_object_set_new(s, "description", json_string("Apache Iceberg "
	    "table in a REST catalog"));
	set_str(s, "catalog", jstr(cat, "warehouse"));
	set_str(s, "catalogUrl", jstr(cat, "uri"));
	set_str(s, "namespace", jstr(table, "namespace"));
	set_str(s, "warehouse", jstr(cat, "warehouse"));
	json_object_set_new(s, "customProperties", json_pack("[o, o]",
	    custom("icebergCatalogType", json_string(jstr(cat, "type") ?
	    jstr(cat, "type") : "rest")),
	    custom("icebergTable", json_string(jstr(table, "name")))));
	return s;
}

/*
 * team: the contract's owner.  metadata.owner.team names it; the
 * owner's other text fields (an email, a channel) are kept as custom
 * properties, in the contract's order.
 */
static json_t *
team(const json_t *contract)
{
	const json_t *owner = json_object_get(json_object_get(contract,
	    "metadata"), "owner"), *v;
	json_t *t, *cps;
	const char *k;
	char *name;

	if (!json_is_object(owner))
		return NULL;
	t = json_object();
	set_str(t, "name", jstr(owner, "team"));
	cps = json_array();
	json_object_foreach((json_t *)owner, k, v) {
		if (strcmp(k, "team") == 0 || !json_is_string(v))
			continue;
		name = xasprintf("owner.%s", k);
		json_array_append_new(cps, custom(name, json_incref(
		    (json_t *)v)));
		free(name);
	}
	if (json_array_size(cps) > 0)
		json_object_set_new(t, "customProperties", cps);
	else
		json_decref(cps);
	return t;
}

json_t *
odcs_render(json_t *doc, struct diags *d)
{
	json_t *resolve = ir_section(doc, "resolve");
	json_t *check = ir_section(doc, "check");
	const json_t *contract = json_object_get(resolve, "document");
	const json_t *product = json_object_get(check, "product");
	const json_t *builds = json_object_get(check, "builds"), *b;
	json_t *out, *schema, *servers, *tm;
	struct odcs o = { d, NULL, NULL, 0 };
	size_t i;

	if (!json_is_object(contract) || !json_is_array(builds) ||
	    jstr(product, "id") == NULL ||
	    jstr(resolve, "digest") == NULL) {
		diag_fatal(d, "the document's resolve and check sections are "
		    "not what fluid-resolve and fluid-check write");
		return NULL;
	}
	diags_set_resolve(d, resolve);
	if (json_array_size(builds) == 0) {
		diag_at(d, DIAG_ERROR, "/builds", "no managed build to "
		    "export: no build sets properties.parameters.flink."
		    "management: operator, so no table is described; "
		    "nothing written");
		return NULL;
	}
	schema = json_array();
	servers = json_array();
	json_array_foreach(builds, i, b) {
		if (!json_is_object(json_object_get(b, "table")) ||
		    (o.topic = jstr(json_object_get(b, "stream"),
		    "topic")) == NULL) {
			o.bad = 1;
			break;
		}
		o.explode = json_object_get(b, "explode");
		if (json_is_null(o.explode))
			o.explode = NULL;
		json_array_append_new(servers, server(b));
		json_array_append_new(schema, schema_object(&o, b,
		    expose(contract, jstr(b, "expose"))));
	}
	if (o.bad) {
		json_decref(schema);
		json_decref(servers);
		diag_fatal(d, "the check section holds a build, table or "
		    "expression fluid-odcs does not know: run the "
		    "fluid-check of this version");
		return NULL;
	}
	out = json_object();
	json_object_set_new(out, "apiVersion", json_string(ODCS_API_VERSION));
	json_object_set_new(out, "kind", json_string("DataContract"));
	set_str(out, "id", jstr(product, "id"));
	set_str(out, "name", jstr(product, "name"));
	/*
	 * A FLUID contract has no version of its own: the digest of the
	 * resolved contract names this one exactly, and changes with it.
	 */
	set_str(out, "version", jstr(resolve, "digest"));
	json_object_set_new(out, "status", json_string("active"));
	set_str(out, "dataProduct", jstr(product, "id"));
	if ((tm = team(contract)) != NULL)
		json_object_set_new(out, "team", tm);
	json_object_set_new(out, "servers", servers);
	json_object_set_new(out, "schema", schema);
	json_object_set_new(out, "customProperties", json_pack("[o]",
	    custom("fluid.schemaVersion", json_string(jstr(check,
	    "schemaVersion") ? jstr(check, "schemaVersion") : ""))));
	return out;
}
