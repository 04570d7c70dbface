/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen_emit.c - the writer's helpers that sqlgen.c and sqlgen_cdc.c
 * share (sqlgen_int.h): the failure that stops a build's script, every
 * identifier and literal through sqlq.h, a WITH option, and a column
 * with its Flink SQL type.  Both writers call down to this file, which
 * calls neither.
 */
#include <stdint.h>
#include <string.h>

#include "jget.h"
#include "sqlgen_int.h"
#include "sqlq.h"
#include "types.h"
#include "xalloc.h"

/* Is the member name k (klen bytes, NUL allowed) exactly name? */
static bool
key_is(const char *k, size_t klen, const char *name)
{
	return klen == strlen(name) && memcmp(k, name, klen) == 0;
}

void
sqlgen_fail(struct gen *g, const char *what)
{
	if (!g->failed)
		diag_at(g->d, DIAG_ERROR, NULL, "Flink build %s: %s cannot be "
		    "written safely as Flink SQL", g->build, what);
	g->failed = 1;
}

void
sqlgen_ident(struct gen *g, const char *name)
{
	if (name == NULL || sqlq_ident(&g->out, name) == -1)
		sqlgen_fail(g, "an identifier");
}

void
sqlgen_literal(struct gen *g, const char *s)
{
	if (s == NULL) {
		sqlgen_fail(g, "a missing value");
		return;
	}
	sqlq_literal(&g->out, s);
}

void
sqlgen_option(struct gen *g, const char *key, const char *value, int *first)
{
	sb_adds(&g->out, *first ? "\n  " : ",\n  ");
	*first = 0;
	sqlgen_literal(g, key);
	sb_adds(&g->out, " = ");
	sqlgen_literal(g, value);
}

/* Append s, a string constant, without measuring it at run time. */
#define ADD_CONST(sb, s)	sb_addn((sb), (s), sizeof(s) - 1)

/* The Flink SQL spelling of a type tree. */
void
sqlgen_sql_type(struct gen *g, const struct ty *t)
{
	size_t i;

	switch (t->kind) {
	case TY_STRING:		ADD_CONST(&g->out, "STRING"); break;
	case TY_BOOLEAN:	ADD_CONST(&g->out, "BOOLEAN"); break;
	case TY_INT:		ADD_CONST(&g->out, "INT"); break;
	case TY_LONG:		ADD_CONST(&g->out, "BIGINT"); break;
	case TY_FLOAT:		ADD_CONST(&g->out, "FLOAT"); break;
	case TY_DOUBLE:		ADD_CONST(&g->out, "DOUBLE"); break;
	case TY_DECIMAL:
		ADD_CONST(&g->out, "DECIMAL(");
		sb_addi(&g->out, t->precision);
		ADD_CONST(&g->out, ", ");
		sb_addi(&g->out, t->scale);
		sb_addc(&g->out, ')');
		break;
	case TY_DATE:		ADD_CONST(&g->out, "DATE"); break;
	case TY_TIME:		ADD_CONST(&g->out, "TIME"); break;
	case TY_TIMESTAMP:
		ADD_CONST(&g->out, "TIMESTAMP(");
		sb_addi(&g->out, t->precision);
		sb_addc(&g->out, ')');
		break;
	case TY_TIMESTAMP_LTZ:
		ADD_CONST(&g->out, "TIMESTAMP_LTZ(");
		sb_addi(&g->out, t->precision);
		sb_addc(&g->out, ')');
		break;
	case TY_BINARY:		ADD_CONST(&g->out, "BYTES"); break;
	case TY_STRUCT:
		sb_adds(&g->out, "ROW<");
		for (i = 0; i < t->nfields; i++) {
			if (i > 0)
				sb_adds(&g->out, ", ");
			sqlgen_ident(g, t->fields[i].name);
			sb_addc(&g->out, ' ');
			sqlgen_sql_type(g, t->fields[i].type);
		}
		sb_addc(&g->out, '>');
		break;
	case TY_ARRAY:
		sb_adds(&g->out, "ARRAY<");
		sqlgen_sql_type(g, t->element);
		sb_addc(&g->out, '>');
		break;
	case TY_MAP:
		sb_adds(&g->out, "MAP<");
		sqlgen_sql_type(g, t->key);
		sb_adds(&g->out, ", ");
		sqlgen_sql_type(g, t->value);
		sb_addc(&g->out, '>');
		break;
	}
	if (t->required)
		ADD_CONST(&g->out, " NOT NULL");
}

/*
 * The type of a column in its IR form.  Stream columns also say where
 * they come from, and maybe their physical type (see source()), which
 * ty_from_json() would refuse as not part of a type: those keys are
 * left out of a shallow copy.  Table columns have none, and are read as
 * they are.
 */
struct ty *
sqlgen_column_type(struct gen *g, const json_t *col)
{
	json_t *v;
	const char *k;
	size_t klen;
	struct ty *t;

	if (!json_is_object(col) || (json_object_get(col, "origin") == NULL &&
	    json_object_get(col, "from") == NULL))
		return ty_from_json(col);
	if (g->bare == NULL)
		g->bare = json_object();
	json_object_keylen_foreach((json_t *)(uintptr_t)col, k, klen, v)
		if (!key_is(k, klen, "origin") && !key_is(k, klen, "from") &&
		    !key_is(k, klen, "physical"))
			json_object_setn(g->bare, k, klen, v);
	t = ty_from_json(g->bare);
	json_object_clear(g->bare);
	return t;
}

/* A column definition "`name` TYPE" from its IR form. */
void
sqlgen_column(struct gen *g, const json_t *col)
{
	struct ty *t = sqlgen_column_type(g, col);

	sqlgen_ident(g, jstr(col, "name"));
	sb_addc(&g->out, ' ');
	if (t == NULL) {
		sqlgen_fail(g, "a column type");
		return;
	}
	sqlgen_sql_type(g, t);
	ty_free(t);
}

/* A catalog property from the IR: its name (klen bytes) and value. */
struct cprop {
	const char	*key;
	size_t		 klen;
	const char	*value;
};

/* Bytewise, as memcmp() orders them; a prefix sorts first. */
static int
cprop_cmp(const void *a, const void *b)
{
	const struct cprop *x = a, *y = b;
	int r = memcmp(x->key, y->key, x->klen < y->klen ? x->klen : y->klen);

	return r != 0 ? r : (x->klen > y->klen) - (x->klen < y->klen);
}

/*
 * Catalog text from the IR, which fluid-check refuses when it would
 * make Iceberg read the job's environment (env:NAME, ${...}) or holds a
 * control character: refused here too, not trusted.
 */
static bool
catalog_text_ok(const char *s)
{
	const char *p;

	if (s == NULL)
		return true;	/* sqlgen_option() reports it missing */
	if (strncasecmp(s, "env:", 4) == 0 || strstr(s, "${") != NULL)
		return false;
	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f ||
		    ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] >= 0x80
		    && (unsigned char)p[1] <= 0x9f))
			return false;	/* C0, DEL and C1 (U+0080-U+009F) */
	return true;
}

void
sqlgen_catalog_option(struct gen *g, const char *key, const char *value,
    int *first)
{
	if (!catalog_text_ok(key) || !catalog_text_ok(value))
		sqlgen_fail(g, "a catalog option that reads the job's environment");
	else
		sqlgen_option(g, key, value, first);
}

/*
 * The contract's properties, sorted by name, bytewise: the SQL then
 * depends on the properties, not on the order a contract wrote them in,
 * which its digest does not see.
 */
void
sqlgen_catalog_properties(struct gen *g, const json_t *props, int *first)
{
	struct cprop *v;
	const char *k;
	json_t *val;
	size_t klen, i, n = 0;

	if (!json_is_object(props))
		return;
	v = xcalloc(json_object_size(props) + 1, sizeof(*v));
	json_object_keylen_foreach((json_t *)(uintptr_t)props, k, klen, val) {
		v[n].key = k;
		v[n].klen = klen;
		v[n++].value = json_string_value(val);
	}
	qsort(v, n, sizeof(*v), cprop_cmp);
	for (i = 0; i < n; i++) {
		if (memchr(v[i].key, '\0', v[i].klen) != NULL) {
			sqlgen_fail(g, "a catalog property name");
			break;
		}
		sqlgen_catalog_option(g, v[i].key, v[i].value, first);
	}
	free(v);
}

/*
 * " - INTERVAL ...": an interval's leading field has precision 2 by
 * default, so SECOND holds at most 99; larger delays are written DAY TO
 * SECOND, which holds up to 99 days.
 */
void
sqlgen_interval(struct gen *g, json_int_t secs)
{
	char buf[64];

	if (secs < 0 || secs >= 100LL * 86400) {
		sqlgen_fail(g, "an event-time delay of 100 days or more");
		return;
	}
	if (secs < 100)
		snprintf(buf, sizeof(buf), "%lld", (long long)secs);
	else
		snprintf(buf, sizeof(buf), "%lld %02lld:%02lld:%02lld",
		    (long long)secs / 86400, (long long)secs % 86400 / 3600,
		    (long long)secs % 3600 / 60, (long long)secs % 60);
	sb_adds(&g->out, " - INTERVAL ");
	sqlgen_literal(g, buf);
	sb_adds(&g->out, secs < 100 ? " SECOND" : " DAY TO SECOND");
}

void
sqlgen_kafka_startup(struct gen *g, const json_t *src, int *first)
{
	sqlgen_option(g, "scan.startup.mode", jstr(src, "startupMode"), first);
	if (jstreq(jstr(src, "startupMode"), "group-offsets"))
		/* A new group has no committed offsets: start at the
		 * beginning instead of failing the first start. */
		sqlgen_option(g, "properties.auto.offset.reset", "earliest",
		    first);
}

void
sqlgen_kafka_key(struct gen *g, const json_t *key, const char *reg,
    int *first)
{
	const json_t *c;
	struct sb fields;
	size_t i;

	if (!json_is_object(key))
		return;
	sqlgen_option(g, "key.format", jstr(key, "format"), first);
	sb_init(&fields);
	json_array_foreach(json_object_get(key, "fields"), i, c) {
		if (i > 0)
			sb_addc(&fields, ';');
		if (json_is_string(c))
			sb_adds(&fields, json_string_value(c));
		else
			sqlgen_fail(g, "a key field");
	}
	sqlgen_option(g, "key.fields", fields.buf, first);
	sb_release(&fields);
	if (jstr(key, "prefix") != NULL)
		sqlgen_option(g, "key.fields-prefix", jstr(key, "prefix"),
		    first);
	if (jstreq(jstr(key, "format"), "avro-confluent"))
		sqlgen_option(g, "key.avro-confluent.url", reg, first);
	/* Key columns are not read from the value. */
	sqlgen_option(g, "value.fields-include", "EXCEPT_KEY", first);
}
