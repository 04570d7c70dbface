/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_stream.c - what the records are (properties.stream) and how to
 * reach them (properties.parameters.flink.source and eventTime).
 *
 * The result is the list of columns a mapping path may start from, with
 * their nullability as the query will see it: the value's columns as
 * declared, the key's columns always nullable at the top (a record may
 * have no key), and Kafka metadata with its fixed types.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "url.h"

static const char *const stream_keys[] = {
	"kind", "topic", "format", "schema", "key", "metadata",
	"maxParseErrors", NULL
};
static const char *const key_keys[] = { "format", "schema", "prefix", NULL };
static const char *const meta_keys[] = { "name", "from", NULL };
static const char *const source_keys[] = {
	"bootstrapServers", "groupId", "startupMode", "schemaRegistryUrl",
	"security", NULL
};
static const char *const event_keys[] = { "column", "delaySeconds", NULL };
/* Flink's DAY TO SECOND interval has two digits of days by default. */
#define MAX_DELAY	(100 * 86400)
static const char *const kinds[] = { "kafka", NULL };
static const char *const formats[] = {
	"json", "avro-confluent", "debezium-json", "canal-json", NULL
};
static const char *const key_formats[] = {
	"raw", "json", "avro-confluent", NULL
};
static const char *const startup_modes[] = {
	"group-offsets", "earliest-offset", "latest-offset", NULL
};

/* Kafka's metadata columns and their fixed FLUID types. */
static const struct {
	const char	*from;
	enum ty_kind	 kind;
	int		 precision;
	bool		 nullable;
} metadata[] = {
	{ "topic", TY_STRING, 0, false },
	{ "partition", TY_INT, 0, false },
	{ "offset", TY_LONG, 0, false },
	{ "timestamp", TY_TIMESTAMP_LTZ, 3, false },
	{ "timestamp-type", TY_STRING, 0, false },
	{ "headers", TY_MAP, 0, false },
	{ "leader-epoch", TY_INT, 0, true },
};

static const char *const metadata_names[] = {
	"topic", "partition", "offset", "timestamp", "timestamp-type",
	"headers", "leader-epoch", NULL
};

/* A column that could not be declared: refer to it quietly. */
static void
mark_bad(struct chk_stream *s, const char *prefix, const char *name)
{
	char *n = chk_str_join(prefix ? prefix : "", name), *low;

	low = chk_lower_dup(n);
	json_object_set_new(s->bad, low, json_true());
	free(low);
	free(n);
}

/*
 * Flink 1.20's avro-confluent format derives its Avro reader schema from
 * the column types and has no Avro type for TIMESTAMP_LTZ ("Unsupported
 * to derive Schema for type: TIMESTAMP_LTZ(3)" when Flink plans the
 * job), and no option to map it.  So a column read with avro-confluent
 * that holds a timestamp_ltz, however deeply, is declared to the format
 * as it is on the wire: TIMESTAMP(p), which reads Avro's timestamp-millis
 * (p <= 3: see avro_type_ok()), an instant, as its UTC wall-clock time.
 * The column keeps its timestamp_ltz type for everything that reads it;
 * its "physical" type in the IR is what the format reads, and
 * fluid-sqlgen converts one into the other.
 */
static bool
has_ltz(const struct ty *t)
{
	size_t i;

	switch (t->kind) {
	case TY_TIMESTAMP_LTZ:
		return true;
	case TY_STRUCT:
		for (i = 0; i < t->nfields; i++)
			if (has_ltz(t->fields[i].type))
				return true;
		return false;
	case TY_ARRAY:
		return has_ltz(t->element);
	case TY_MAP:
		/* Map keys are strings. */
		return has_ltz(t->value);
	default:
		return false;
	}
}

/* t, in place, with every timestamp_ltz(p) a timestamp(p). */
static void
ltz_to_timestamp(struct ty *t)
{
	size_t i;

	switch (t->kind) {
	case TY_TIMESTAMP_LTZ:
		t->kind = TY_TIMESTAMP;
		break;
	case TY_STRUCT:
		for (i = 0; i < t->nfields; i++)
			ltz_to_timestamp(t->fields[i].type);
		break;
	case TY_ARRAY:
		ltz_to_timestamp(t->element);
		break;
	case TY_MAP:
		ltz_to_timestamp(t->value);
		break;
	default:
		break;
	}
}

/*
 * Flink 1.20's Avro format maps TIMESTAMP(p) to timestamp-millis and
 * refuses a finer precision when it derives the reader schema ("Avro does
 * not support TIMESTAMP type with precision: 6, it only supports
 * precision less than 3"), and a timestamp_ltz is read as a TIMESTAMP:
 * refuse either above 3 here, wherever it is nested, at the node that
 * declares it (l is at the column's schema entry).
 */
static bool
avro_type_ok(struct chk *c, struct chk_loc *l, const struct ty *t)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	struct sb name;
	size_t i;
	bool ok = true;

	switch (t->kind) {
	case TY_TIMESTAMP:
	case TY_TIMESTAMP_LTZ:
		if (t->precision <= 3)
			break;
		sb_init(&name);
		ty_name_print(t, &name);
		chk_err_at(c, l, "type", "%s cannot be read with "
		    "avro-confluent: Flink 1.20's Avro format reads timestamps "
		    "of precision 3 or less (Avro timestamp-millis); declare "
		    "%s(3)", name.buf, t->kind == TY_TIMESTAMP ? "timestamp" :
		    "timestamp_ltz");
		sb_release(&name);
		ok = false;
		break;
	case TY_STRUCT:
		for (i = 0; i < t->nfields; i++) {
			chk_loc_key(l, "fields");
			chk_loc_named(l, i, t->fields[i].name);
			ok &= avro_type_ok(c, l, t->fields[i].type);
			chk_loc_reset(l, m);
		}
		break;
	case TY_ARRAY:
		chk_loc_key(l, "element");
		ok = avro_type_ok(c, l, t->element);
		break;
	case TY_MAP:
		chk_loc_key(l, "value");
		ok = avro_type_ok(c, l, t->value);
		break;
	default:
		break;
	}
	chk_loc_reset(l, m);
	return ok;
}

/* Every column of st (at l, the schema list) is readable with avro. */
static bool
avro_columns_ok(struct chk *c, struct chk_loc *l, const struct ty *st)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	size_t i;
	bool ok = true;

	for (i = 0; st != NULL && i < st->nfields; i++) {
		chk_loc_named(l, i, st->fields[i].name);
		ok &= avro_type_ok(c, l, st->fields[i].type);
		chk_loc_reset(l, m);
	}
	return ok;
}

static bool
is_avro(const char *fmt)
{
	return fmt != NULL && strcmp(fmt, "avro-confluent") == 0;
}

static bool
topic_ok(struct chk *c, struct chk_loc *l, json_t *stream)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *v = json_object_get(stream, "topic");
	const char *t, *p;

	if (json_is_array(v)) {
		chk_err_at(c, l, "topic", "is one Kafka topic name: no list");
		return false;
	}
	if ((t = chk_get_str(c, l, stream, "topic", true)) == NULL)
		return false;
	chk_loc_key(l, "topic");
	for (p = t; *p != '\0'; p++)
		if (strchr("*?[]()|^$+{}\\", *p) != NULL) {
			chk_err(c, l, "is one Kafka topic name: no pattern");
			return chk_loc_reset(l, m), false;
		}
	for (p = t; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		    *p == '-')) {
			chk_err(c, l, "is not a Kafka topic name (letters, "
			    "digits, '.', '_' and '-')");
			return chk_loc_reset(l, m), false;
		}
	if (strlen(t) > 249 || strcmp(t, ".") == 0 || strcmp(t, "..") == 0) {
		chk_err(c, l, "is not a Kafka topic name");
		return chk_loc_reset(l, m), false;
	}
	chk_loc_reset(l, m);
	return true;
}

static bool
key_check(struct chk *c, struct chk_loc *l, json_t *key, struct chk_stream *s,
    json_t *ir, const char **fmt_out)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *fmt, *prefix;
	struct ty *st;
	json_t *fields, *list, *badk, *v;
	size_t i;
	bool ok = true, pok = true;
	const char *k;
	char *name;

	chk_loc_key(l, "key");
	if (!json_is_object(key)) {
		chk_err(c, l, "must be a mapping with format and schema");
		return chk_loc_reset(l, m), false;
	}
	ok = chk_only_keys(c, l, key, key_keys) == 0;
	fmt = chk_get_enum(c, l, key, "format", true, key_formats);
	prefix = chk_get_str(c, l, key, "prefix", false);
	if (prefix != NULL && (*prefix == '\0' || chk_has_control(prefix) ||
	    !path_is_ident(prefix))) {
		chk_err_at(c, l, "prefix", "must be the start of a plain SQL "
		    "identifier, such as key_");
		ok = pok = false;
	}
	chk_loc_key(l, "schema");
	badk = json_object();
	if ((list = json_object_get(key, "schema")) == NULL) {
		chk_err(c, l, "is required: the key's columns");
		ok = false;
		st = NULL;
	} else
		st = chk_schema_columns(c, l, list, badk, &ok, NULL);
	if (is_avro(fmt))
		ok &= avro_columns_ok(c, l, st);
	chk_loc_reset(l, m);
	chk_loc_key(l, "key");
	/* Refused key columns, and all of them under a refused prefix. */
	json_object_foreach(badk, k, v)
		mark_bad(s, prefix, k);
	json_decref(badk);
	for (i = 0; st != NULL && !pok && i < st->nfields; i++)
		mark_bad(s, prefix, st->fields[i].name);
	if (st == NULL || !pok) {
		ty_free(st);
		return chk_loc_reset(l, m), false;
	}
	/*
	 * A raw key that is not one string or binary column is refused,
	 * but its columns are still declared: what reads them is right.
	 */
	if (fmt != NULL && strcmp(fmt, "raw") == 0 && ok &&
	    (st->nfields != 1 || (st->fields[0].type->kind != TY_STRING &&
	    st->fields[0].type->kind != TY_BINARY))) {
		chk_err_at(c, l, "schema", "a raw key is exactly one string "
		    "or binary column");
		ok = false;
	}
	fields = json_array();
	for (i = 0; i < st->nfields; i++) {
		struct ty *t = st->fields[i].type;

		st->fields[i].type = NULL;
		name = chk_str_join(prefix ? prefix : "", st->fields[i].name);
		chk_loc_key(l, "schema");
		chk_loc_named(l, i, st->fields[i].name);
		/* A record with no key reads every key column as null. */
		t->required = false;
		if (!chk_stream_add(c, l, s, name, NULL, CHK_ORIGIN_KEY,
		    st->fields[i].name, t))
			ok = false;
		json_array_append_new(fields, json_string(name));
		free(name);
		chk_loc_reset(l, m);
		chk_loc_key(l, "key");
	}
	ty_free(st);
	json_object_set_new(ir, "key", json_pack("{s:s?, s:s?, s:o}",
	    "format", fmt, "prefix", prefix, "fields", fields));
	*fmt_out = fmt;
	chk_loc_reset(l, m);
	return ok && fmt != NULL;
}

static struct ty *
metadata_type(size_t i)
{
	struct ty *t = ty_new(metadata[i].kind);

	t->precision = metadata[i].precision;
	t->required = !metadata[i].nullable;
	if (metadata[i].kind == TY_MAP) {
		t->key = ty_new(TY_STRING);
		t->key->required = true;
		t->value = ty_new(TY_BINARY);
	}
	return t;
}

static bool
metadata_check(struct chk *c, struct chk_loc *l, json_t *list,
    struct chk_stream *s)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *name, *from;
	json_t *e;
	size_t i, k;
	bool ok = true;

	chk_loc_key(l, "metadata");
	if (!json_is_array(list)) {
		chk_err(c, l, "must be a list of {name, from}");
		return chk_loc_reset(l, m), false;
	}
	json_array_foreach(list, i, e) {
		chk_loc_idx(l, i);
		if (!json_is_object(e)) {
			chk_err(c, l, "must be a mapping {name, from}");
			ok = false;
			chk_loc_reset(l, m);
			chk_loc_key(l, "metadata");
			continue;
		}
		ok &= chk_only_keys(c, l, e, meta_keys) == 0;
		name = chk_get_str(c, l, e, "name", true);
		from = chk_get_enum(c, l, e, "from", true, metadata_names);
		if (name != NULL && !path_is_ident(name)) {
			chk_err_at(c, l, "name", "is not a plain SQL "
			    "identifier");
			ok = false;
		} else if (name != NULL && from != NULL) {
			for (k = 0; strcmp(metadata[k].from, from) != 0; k++)
				;
			ok &= chk_stream_add(c, l, s, name, NULL, CHK_ORIGIN_METADATA,
			    from, metadata_type(k));
		} else {
			if (name != NULL)
				mark_bad(s, NULL, name);
			ok = false;
		}
		chk_loc_reset(l, m);
		chk_loc_key(l, "metadata");
	}
	chk_loc_reset(l, m);
	return ok;
}

/*
 * host:port[,host:port...]; *why says what is wrong (a host is read as
 * url.h reads hosts: url_host_literal_ok()).
 */
static bool
servers_ok(const char *s, const char **why)
{
	const char *p = s, *colon, *end;
	long port;
	char *e;

	for (;;) {
		while (*p == ' ')
			p++;
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		colon = NULL;
		for (const char *q = p; q < end; q++)
			if (*q == ':')
				colon = q;
		*why = "must be host:port[,host:port...]";
		if (colon == NULL || colon == p)
			return false;
		for (const char *q = p; q < colon; q++)
			if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' &&
			    *q <= 'Z') || (*q >= '0' && *q <= '9') ||
			    strchr(".-_[]:", *q) != NULL))
				return false;
		if (!url_host_literal_ok(p, (size_t)(colon - p), why))
			return false;
		port = strtol(colon + 1, &e, 10);
		while (*e == ' ')
			e++;
		if (e != end || port < 1 || port > 65535 || colon + 1 == e)
			return false;
		if (*end == '\0')
			return true;
		p = end + 1;
	}
}

static bool
source_check(struct chk *c, struct chk_loc *l, json_t *flink,
    bool need_registry, json_t *ir)
{
	static const char *const moved[] = { "topic", "format", "schema",
	    "key", "metadata" };
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *servers, *group, *mode, *reg, *why;
	json_t *src = chk_get_obj(c, l, flink, "source", true), *copy;
	struct url u;
	size_t i;
	bool ok = true;

	if (src == NULL)
		return false;
	chk_loc_key(l, "source");
	copy = json_copy(src);
	for (i = 0; i < sizeof(moved) / sizeof(*moved); i++) {
		if (json_object_get(src, moved[i]) == NULL)
			continue;
		chk_err_at(c, l, moved[i], "parameters.flink.source holds the "
		    "connection only: declare %s in properties.stream",
		    moved[i]);
		json_object_del(copy, moved[i]);
		ok = false;
	}
	ok &= chk_only_keys(c, l, copy, source_keys) == 0;
	json_decref(copy);
	servers = chk_get_str(c, l, src, "bootstrapServers", true);
	if (servers != NULL && !servers_ok(servers, &why)) {
		chk_err_at(c, l, "bootstrapServers", "%s", why);
		ok = false;
	}
	group = chk_get_str(c, l, src, "groupId", true);
	mode = chk_get_enum(c, l, src, "startupMode", false, startup_modes);
	if (mode == NULL && json_object_get(src, "startupMode") != NULL)
		ok = false;
	reg = chk_get_str(c, l, src, "schemaRegistryUrl", need_registry);
	if (reg != NULL) {
		struct chk_loc_mark m2 = chk_loc_mark(l);

		chk_loc_key(l, "schemaRegistryUrl");
		if (url_parse(reg, &u, &why) == -1) {
			chk_err(c, l, "%s", why);
			ok = false;
		} else {
			if (strcmp(u.scheme, "http") != 0 &&
			    strcmp(u.scheme, "https") != 0) {
				chk_err(c, l, "must be an http or https URL");
				ok = false;
			}
			if (u.userinfo) {
				chk_err(c, l, "must not carry credentials");
				ok = false;
			}
			url_release(&u);
		}
		chk_loc_reset(l, m2);
	}
	if (servers == NULL || group == NULL || (need_registry && !reg))
		ok = false;
	copy = json_pack("{s:s?, s:s?, s:s, s:s?}", "bootstrapServers",
	    servers, "groupId", group, "startupMode", mode ? mode :
	    "group-offsets", "schemaRegistryUrl", reg);
	/* TLS and SASL: check_security.c. */
	ok &= chk_security_check(c, l, flink, src, servers != NULL &&
	    servers_ok(servers, &why) ? servers : NULL, copy);
	json_object_set_new(ir, "source", copy);
	chk_loc_reset(l, m);
	return ok;
}

static bool
event_time_check(struct chk *c, struct chk_loc *l, json_t *flink,
    struct chk_stream *s, json_t *ir)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *et = chk_get_obj(c, l, flink, "eventTime", false);
	const char *col;
	json_int_t delay = 0;
	struct chk_scol *sc;
	bool ok = true;

	if (et == NULL)
		return json_object_get(flink, "eventTime") == NULL ||
		    json_is_null(json_object_get(flink, "eventTime"));
	chk_loc_key(l, "eventTime");
	ok = chk_only_keys(c, l, et, event_keys) == 0;
	col = chk_get_str(c, l, et, "column", true);
	if (chk_get_int(c, l, et, "delaySeconds", &delay) == -1)
		ok = false;
	else if (delay < 0 || delay >= MAX_DELAY) {
		if (delay < 0)
			chk_err_at(c, l, "delaySeconds", "must not be "
			    "negative");
		else
			chk_err_at(c, l, "delaySeconds", "must be less than %d "
			    "(100 days): the watermark's interval holds no "
			    "more", MAX_DELAY);
		ok = false;
	}
	if (col != NULL) {
		struct chk_loc_mark m2 = chk_loc_mark(l);

		chk_loc_key(l, "column");
		if (!path_is_ident(col)) {
			/* Not echoed: it is no column name, maybe SQL. */
			chk_err(c, l, "must name a top-level column of "
			    "properties.stream (a plain SQL identifier)");
			ok = false;
		} else if ((sc = chk_stream_col(s, col)) == NULL) {
			if (!chk_stream_unknown(s, col))
				chk_err(c, l, "'%s' is not a top-level column "
				    "of properties.stream", col);
			ok = false;
		} else if ((sc->type->kind != TY_TIMESTAMP &&
		    sc->type->kind != TY_TIMESTAMP_LTZ) ||
		    sc->type->precision > 3) {
			struct sb tn;

			sb_init(&tn);
			ty_name_print(sc->type, &tn);
			chk_err(c, l, "'%s' is %s: event time needs a "
			    "timestamp or timestamp_ltz of precision 3 or less "
			    "(Flink takes no finer precision)", col, tn.buf);
			sb_release(&tn);
			ok = false;
		}
		chk_loc_reset(l, m2);
	} else
		ok = false;
	if (ok)
		json_object_set_new(ir, "eventTime", json_pack("{s:s, s:I}",
		    "column", col, "delaySeconds", delay));
	chk_loc_reset(l, m);
	return ok;
}

/*
 * The columns' IR.  fmt and keyfmt are the value's and the key's
 * formats: a column read with avro-confluent that holds a timestamp_ltz
 * also gets the "physical" type the format reads (see has_ltz()).
 */
static json_t *
columns_ir(struct chk *c, const struct chk_stream *s, const char *fmt,
    const char *keyfmt)
{
	const struct chk_scol *sc;
	json_t *a = json_array(), *o;
	struct ty *phys;
	size_t i;

	for (i = 0; i < s->ncols; i++) {
		sc = &s->cols[i];
		o = ty_to_json_shared(sc->type, sc->jname, &c->names);
		json_object_set_new_nocheck(o, "origin",
		    chk_word(c, (enum chk_word)sc->origin));
		if (sc->from != NULL)
			json_object_set_new(o, "from", json_string(sc->from));
		if (((sc->origin == CHK_ORIGIN_VALUE && is_avro(fmt)) ||
		    (sc->origin == CHK_ORIGIN_KEY && is_avro(keyfmt))) &&
		    has_ltz(sc->type)) {
			phys = ty_copy(sc->type);
			ltz_to_timestamp(phys);
			json_object_set_new_nocheck(o, "physical",
			    ty_to_json_shared(phys, NULL, &c->names));
			ty_free(phys);
		}
		json_array_append_new(a, o);
	}
	return a;
}

/* The stream itself, at l; *fmt and *keyfmt name its formats. */
static bool
stream_value(struct chk *c, struct chk_loc *l, json_t *stream,
    struct chk_stream *s, const char **fmt_out, const char **keyfmt_out)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *kind, *fmt, *keyfmt = NULL;
	struct ty *st;
	json_t *v, *names;
	size_t i;
	bool ok;

	if (!json_is_object(stream)) {
		chk_err(c, l, "must be a mapping with kind, topic, format and "
		    "schema");
		s->broken = true;
		return false;
	}
	names = json_array();
	ok = chk_only_keys(c, l, stream, stream_keys) == 0;
	kind = chk_get_enum(c, l, stream, "kind", true, kinds);
	ok &= topic_ok(c, l, stream);
	fmt = chk_get_enum(c, l, stream, "format", true, formats);
	ok &= kind != NULL && fmt != NULL;
	chk_loc_key(l, "schema");
	if ((v = json_object_get(stream, "schema")) == NULL) {
		chk_err(c, l, "is required: the record value's columns");
		st = NULL;
	} else
		st = chk_schema_columns(c, l, v, s->bad, &ok, names);
	if (is_avro(fmt))
		ok &= avro_columns_ok(c, l, st);
	chk_loc_reset(l, m);
	/* Without the value's columns, nothing can be bound: say so once. */
	s->broken = st == NULL;
	if (st != NULL) {
		struct chk_loc_mark ms;

		chk_name_index_reserve(&s->index, st->nfields);
		chk_loc_key(l, "schema");
		ms = chk_loc_mark(l);
		for (i = 0; i < st->nfields; i++) {
			chk_loc_named(l, i, st->fields[i].name);
			ok &= chk_stream_add(c, l, s, st->fields[i].name,
			    json_array_get(names, i), CHK_ORIGIN_VALUE, NULL,
			    st->fields[i].type);
			st->fields[i].type = NULL;
			chk_loc_reset(l, ms);
		}
		chk_loc_reset(l, m);
		ty_free(st);
	} else
		ok = false;
	json_decref(names);
	if ((v = json_object_get(stream, "key")) != NULL && !json_is_null(v))
		ok &= key_check(c, l, v, s, s->ir, &keyfmt);
	if ((v = json_object_get(stream, "metadata")) != NULL &&
	    !json_is_null(v))
		ok &= metadata_check(c, l, v, s);
	json_object_set_new(s->ir, "kind", json_string(kind ? kind : ""));
	json_object_set_new(s->ir, "topic", json_incref(
	    json_object_get(stream, "topic")));
	json_object_set_new(s->ir, "format", json_string(fmt ? fmt : ""));
	json_object_set_new(s->ir, "columns", columns_ir(c, s, fmt, keyfmt));
	*fmt_out = fmt;
	*keyfmt_out = keyfmt;
	return ok;
}

bool
chk_stream_check(struct chk *c, struct chk_loc *l, json_t *props, json_t *flink,
    struct chk_stream *s)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *fmt = NULL, *keyfmt = NULL;
	json_t *stream;
	bool ok, added = false;

	memset(s, 0, sizeof(*s));
	s->ir = json_object();
	chk_name_index_init(&s->index, true);
	s->bad = json_object();
	if (props == NULL) {
		/* A streamSource fragment: l is the stream itself. */
		ok = stream_value(c, l, flink, s, &fmt, &keyfmt);
		return chk_cdc_stream(c, l, NULL, flink, fmt, s, &added) &&
		    ok;
	}
	/* l is the build: everything here is under its properties. */
	chk_loc_key(l, "properties");
	if ((stream = chk_get_obj(c, l, props, "stream", true)) == NULL) {
		s->broken = true;
		ok = false;
	} else {
		chk_loc_key(l, "stream");
		ok = stream_value(c, l, stream, s, &fmt, &keyfmt);
	}
	chk_loc_reset(l, m);
	/* A change stream's landing may add the operation column. */
	ok &= chk_cdc_stream(c, l, props, stream, fmt, s, &added);
	if (added)
		json_object_set_new(s->ir, "columns", columns_ir(c, s, fmt,
		    keyfmt));
	chk_loc_key(l, "properties");
	chk_loc_key(l, "parameters");
	chk_loc_key(l, "flink");
	ok &= source_check(c, l, flink, is_avro(fmt) || is_avro(keyfmt),
	    s->ir);
	ok &= event_time_check(c, l, flink, s, s->ir);
	chk_loc_reset(l, m);
	return ok;
}
