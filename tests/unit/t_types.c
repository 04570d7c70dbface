/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_types.c - unit tests for lib/types.c.
 */
#include <stdlib.h>
#include <string.h>

#include "types.h"
#include "tap.h"

/* What ty_name_parse() accepts, and the canonical name it stands for. */
static const struct {
	const char	*in;
	enum ty_kind	 kind;
	int		 precision;
	int		 scale;
	const char	*canon;
} good[] = {
	{ "string", TY_STRING, 0, 0, "string" },
	{ "boolean", TY_BOOLEAN, 0, 0, "boolean" },
	{ "int", TY_INT, 0, 0, "int" },
	{ "long", TY_LONG, 0, 0, "long" },
	{ "float", TY_FLOAT, 0, 0, "float" },
	{ "double", TY_DOUBLE, 0, 0, "double" },
	{ "decimal(18,2)", TY_DECIMAL, 18, 2, "decimal(18,2)" },
	{ "decimal(18, 2)", TY_DECIMAL, 18, 2, "decimal(18,2)" },
	{ "decimal(18,   2)", TY_DECIMAL, 18, 2, "decimal(18,2)" },
	{ "decimal(1,0)", TY_DECIMAL, 1, 0, "decimal(1,0)" },
	{ "decimal(1,1)", TY_DECIMAL, 1, 1, "decimal(1,1)" },
	{ "decimal(38,0)", TY_DECIMAL, 38, 0, "decimal(38,0)" },
	{ "decimal(38,38)", TY_DECIMAL, 38, 38, "decimal(38,38)" },
	{ "decimal(10,0)", TY_DECIMAL, 10, 0, "decimal(10,0)" },
	{ "date", TY_DATE, 0, 0, "date" },
	{ "time", TY_TIME, 0, 0, "time" },
	{ "timestamp", TY_TIMESTAMP, 6, 0, "timestamp(6)" },
	{ "timestamp(0)", TY_TIMESTAMP, 0, 0, "timestamp(0)" },
	{ "timestamp(3)", TY_TIMESTAMP, 3, 0, "timestamp(3)" },
	{ "timestamp(6)", TY_TIMESTAMP, 6, 0, "timestamp(6)" },
	{ "timestamp_ltz", TY_TIMESTAMP_LTZ, 6, 0, "timestamp_ltz(6)" },
	{ "timestamp_ltz(0)", TY_TIMESTAMP_LTZ, 0, 0, "timestamp_ltz(0)" },
	{ "timestamp_ltz(3)", TY_TIMESTAMP_LTZ, 3, 0, "timestamp_ltz(3)" },
	{ "timestamp_ltz(6)", TY_TIMESTAMP_LTZ, 6, 0, "timestamp_ltz(6)" },
	{ "binary", TY_BINARY, 0, 0, "binary" },
	{ "struct", TY_STRUCT, 0, 0, "struct" },
	{ "array", TY_ARRAY, 0, 0, "array" },
	{ "map", TY_MAP, 0, 0, "map" }
};

#define R_EMPTY	"type name is empty"
#define R_UNKNOWN "unknown type; the types are string, boolean, int, " \
	"long, float, double, decimal(p,s), date, time, timestamp(p), " \
	"timestamp_ltz(p), binary, struct, array and map"
#define R_CASE	"type names are written in lower case"
#define R_BAREDEC "decimal needs a precision and a scale, as in decimal(18,2)"
#define R_DECSYN "decimal is written as decimal(precision,scale), " \
	"as in decimal(18,2)"
#define R_TSSYN	"a timestamp precision is written in parentheses, " \
	"as in timestamp(3) or timestamp_ltz(3)"
#define R_SIGN	"a type parameter is a number written without a sign"
#define R_ZERO	"a type parameter is written without leading zeros"
#define R_PREC	"decimal precision must be between 1 and 38"
#define R_SCALE	"decimal scale must be between 0 and the precision"
#define R_TSPREC "timestamp precision must be between 0 and 6"
#define R_NOPAR	"only decimal, timestamp and timestamp_ltz take parameters"
#define R_AFTER	"unexpected character after the type name"
#define R_TAIL	"unexpected character after the type's parameters"

static const struct {
	const char	*in;
	const char	*why;
} bad[] = {
	{ "", R_EMPTY },
	{ "decimal", R_BAREDEC },
	{ "String", R_CASE },
	{ "INT", R_CASE },
	{ "Timestamp(3)", R_CASE },
	{ "DECIMAL(18,2)", R_CASE },
	{ "timestamp_LTZ", R_CASE },
	{ "str", R_UNKNOWN },
	{ "integer", R_UNKNOWN },
	{ "varchar", R_UNKNOWN },
	{ "bigint", R_UNKNOWN },
	{ "int8", R_UNKNOWN },
	{ "float64", R_UNKNOWN },
	{ "timestamp_tz", R_UNKNOWN },
	{ "timestamp_ltz_", R_UNKNOWN },
	{ "structs", R_UNKNOWN },
	{ "row", R_UNKNOWN },
	{ "ROW<a INT>", R_UNKNOWN },
	{ " string", R_UNKNOWN },
	{ "(18,2)", R_UNKNOWN },
	{ "3", R_UNKNOWN },
	{ "\xc3\xa9t\xc3\xa9", R_UNKNOWN },
	{ "string ", R_AFTER },
	{ "string\n", R_AFTER },
	{ "string;", R_AFTER },
	{ "decimal (18,2)", R_AFTER },
	{ "array<int>", R_AFTER },
	{ "int(5)", R_NOPAR },
	{ "string(10)", R_NOPAR },
	{ "time(3)", R_NOPAR },
	{ "map(1)", R_NOPAR },
	{ "decimal(18)", R_DECSYN },
	{ "decimal(18,2", R_DECSYN },
	{ "decimal(18,", R_DECSYN },
	{ "decimal(", R_DECSYN },
	{ "decimal()", R_DECSYN },
	{ "decimal(,2)", R_DECSYN },
	{ "decimal(18,)", R_DECSYN },
	{ "decimal(18 ,2)", R_DECSYN },
	{ "decimal( 18,2)", R_DECSYN },
	{ "decimal(18,2 )", R_DECSYN },
	{ "decimal(18,\t2)", R_DECSYN },
	{ "decimal(18;2)", R_DECSYN },
	{ "decimal(18,2.5)", R_DECSYN },
	{ "decimal(18,2,1)", R_DECSYN },
	{ "decimal(0x12,2)", R_DECSYN },
	{ "decimal(+18,2)", R_SIGN },
	{ "decimal(-1,0)", R_SIGN },
	{ "decimal(18,-2)", R_SIGN },
	{ "decimal(18,+2)", R_SIGN },
	{ "decimal(018,2)", R_ZERO },
	{ "decimal(18,02)", R_ZERO },
	{ "decimal(0,0)", R_PREC },
	{ "decimal(39,2)", R_PREC },
	{ "decimal(2147483648,2)", R_PREC },
	{ "decimal(99999999999999999999999999999999,2)", R_PREC },
	{ "decimal(18,19)", R_SCALE },
	{ "decimal(1,2)", R_SCALE },
	{ "decimal(18,4294967296)", R_SCALE },
	{ "decimal(18,99999999999999999999999999999999)", R_SCALE },
	{ "decimal(18,2)x", R_TAIL },
	{ "decimal(18,2))", R_TAIL },
	{ "decimal(18,2) ", R_TAIL },
	{ "timestamp()", R_TSSYN },
	{ "timestamp(3", R_TSSYN },
	{ "timestamp(", R_TSSYN },
	{ "timestamp(3,1)", R_TSSYN },
	{ "timestamp(1.5)", R_TSSYN },
	{ "timestamp( 3)", R_TSSYN },
	{ "timestamp_ltz(p)", R_TSSYN },
	{ "timestamp(+3)", R_SIGN },
	{ "timestamp(-1)", R_SIGN },
	{ "timestamp_ltz(-0)", R_SIGN },
	{ "timestamp(00)", R_ZERO },
	{ "timestamp_ltz(03)", R_ZERO },
	{ "timestamp(7)", R_TSPREC },
	{ "timestamp(9)", R_TSPREC },
	{ "timestamp_ltz(12)", R_TSPREC },
	{ "timestamp_ltz(99999999999999999999)", R_TSPREC },
	{ "timestamp(3)z", R_TAIL },
	{ "timestamp_ltz(3) AT TIME ZONE 'x'", R_TAIL }
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Not a leak: sb_steal() leaves a fresh buffer behind. */
static char *
steal(struct sb *sb)
{
	char *s = sb_steal(sb);

	sb_release(sb);
	return s;
}

static char *
name_of(const struct ty *t)
{
	struct sb sb;

	sb_init(&sb);
	ty_name_print(t, &sb);
	return steal(&sb);
}

/* A type from its name; the tests only pass names that parse. */
static struct ty *
mk(const char *name, bool required)
{
	struct ty_name n;
	struct ty *t;
	const char *why;

	if (ty_name_parse(name, &n, &why) == -1) {
		printf("# mk: %s\n", why);
		abort();
	}
	t = ty_new(n.kind);
	t->precision = n.precision;
	t->scale = n.scale;
	t->required = required;
	return t;
}

static struct ty *
mk_struct(bool required)
{
	return mk("struct", required);
}

static struct ty *
mk_array(struct ty *element, bool required)
{
	struct ty *t = mk("array", required);

	t->element = element;
	return t;
}

static struct ty *
mk_map(struct ty *key, struct ty *value, bool required)
{
	struct ty *t = mk("map", required);

	t->key = key;
	t->value = value;
	return t;
}

static void
add(struct ty *st, const char *name, struct ty *type)
{
	ty_add_field(st, xstrdup(name), type);
}

/* The record value of the spec's example stream. */
static struct ty *
orders(void)
{
	struct ty *root, *cust, *addr, *item;

	root = mk_struct(false);
	add(root, "event_id", mk("string", true));
	cust = mk_struct(false);
	add(cust, "id", mk("string", false));
	addr = mk_struct(false);
	add(addr, "country", mk("string", false));
	add(cust, "address", addr);
	add(root, "customer", cust);
	item = mk_struct(false);
	add(item, "sku", mk("string", false));
	add(item, "price", mk("decimal(18,2)", false));
	add(root, "items", mk_array(item, false));
	add(root, "attributes",
	    mk_map(mk("string", true), mk("string", false), false));
	add(root, "event_time", mk("timestamp_ltz(3)", false));
	return root;
}

static char *
dump(const struct ty *t, const char *name)
{
	json_t *j = ty_to_json(t, name);
	char *s = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	return s;
}

/* ty_from_json() of a JSON text; NULL for bad JSON as well. */
static struct ty *
load(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);
	struct ty *t;

	if (j == NULL)
		return NULL;
	t = ty_from_json(j);
	json_decref(j);
	return t;
}

static void
test_names(void)
{
	struct ty_name n;
	struct ty *t;
	const char *why;
	char *s;
	size_t i;

	for (i = 0; i < NELEM(good); i++) {
		why = NULL;
		memset(&n, 0xa5, sizeof(n));
		if (!is_int(ty_name_parse(good[i].in, &n, &why), 0,
		    "accepts the type name %s", tap_q(good[i].in))) {
			printf("#   input: '%s', why: %s\n", good[i].in, why);
			continue;
		}
		ok(n.kind == good[i].kind &&
		    n.precision == good[i].precision &&
		    n.scale == good[i].scale, "%s: kind %d (%d,%d)",
		    good[i].in, n.kind, n.precision, n.scale);
		t = mk(good[i].in, false);
		s = name_of(t);
		is_str(s, good[i].canon, "%s: prints as its canonical name",
		    tap_q(good[i].in));
		free(s);
		ty_free(t);

		/* The canonical name reads back as itself. */
		t = mk(good[i].canon, false);
		s = name_of(t);
		is_str(s, good[i].canon, "%s: its canonical name is a fixed point",
		    tap_q(good[i].in));
		free(s);
		ty_free(t);
	}
}

static void
test_refusals(void)
{
	struct ty_name n;
	const char *why, *why2;
	struct sb big;
	size_t i;

	for (i = 0; i < NELEM(bad); i++) {
		why = NULL;
		if (!is_int(ty_name_parse(bad[i].in, &n, &why), -1,
		    "refuses the bad type name %s", tap_q(bad[i].in)))
			printf("#   input: '%s'\n", bad[i].in);
		if (!is_str(why, bad[i].why, "bad type name %s: the expected reason",
		    tap_q(bad[i].in)))
			printf("#   input: '%s'\n", bad[i].in);
		/*
		 * Some reasons give an example, such as decimal(18,2), that
		 * a refused input can be part of; they are fixed strings
		 * all the same.  Every other input must not show up.
		 */
		if (bad[i].in[0] != '\0' && strstr(bad[i].why, bad[i].in) ==
		    NULL)
			ok(why != NULL && strstr(why, bad[i].in) == NULL,
			    "bad type name %s: the reason does not quote it",
			    tap_q(bad[i].in));
	}

	why = NULL;
	ok(ty_name_parse(NULL, &n, &why) == -1 && why != NULL &&
	    strcmp(why, R_EMPTY) == 0, "NULL is an empty name");
	ok(ty_name_parse("bogus", &n, NULL) == -1, "why may be NULL");
	ok(ty_name_parse("decimal(18,2)", &n, NULL) == 0 &&
	    n.precision == 18, "why may be NULL on success");

	/* Reasons are static: the same reason is the same string. */
	ty_name_parse("nope_one", &n, &why);
	ty_name_parse("nope_two_different", &n, &why2);
	ok(why == why2, "reasons are static strings");

	ty_name_parse("string; DROP TABLE x", &n, &why);
	ok(strstr(why, "DROP") == NULL && strstr(why, ";") == NULL,
	    "an injection attempt is not echoed");
	is_str(why, R_AFTER, "...and is refused after the name");
	ty_name_parse("decimal(18,2)' OR 1=1 --", &n, &why);
	ok(strstr(why, "OR 1=1") == NULL, "nor after the parameters");
	is_str(why, R_TAIL, "...which are complete");

	/* A very long number is out of range, not an overflow. */
	sb_init(&big);
	sb_adds(&big, "decimal(");
	for (i = 0; i < 100000; i++)
		sb_addc(&big, '9');
	sb_adds(&big, ",2)");
	ty_name_parse(big.buf, &n, &why);
	is_str(why, R_PREC, "100000 digits of precision are out of range");
	sb_truncate(&big, 0);
	sb_adds(&big, "timestamp(");
	for (i = 0; i < 100000; i++)
		sb_addc(&big, '1');
	sb_adds(&big, ")");
	ty_name_parse(big.buf, &n, &why);
	is_str(why, R_TSPREC, "so are 100000 digits of timestamp precision");
	sb_release(&big);

	/* The numbers at the cap edge: 4294967302 = 2^32 + 6. */
	ty_name_parse("timestamp(4294967302)", &n, &why);
	is_str(why, R_TSPREC, "2^32 + 6 does not wrap round to 6");
	ty_name_parse("decimal(4294967314,2)", &n, &why);
	is_str(why, R_PREC, "2^32 + 18 does not wrap round to 18");
}

static void
test_print(void)
{
	static const struct {
		enum ty_kind	 kind;
		int		 precision, scale;
		const char	*want;
	} p[] = {
		{ TY_STRING, 0, 0, "string" },
		{ TY_STRING, 7, 3, "string" },	/* parameters ignored */
		{ TY_BOOLEAN, 0, 0, "boolean" },
		{ TY_INT, 0, 0, "int" },
		{ TY_LONG, 0, 0, "long" },
		{ TY_FLOAT, 0, 0, "float" },
		{ TY_DOUBLE, 0, 0, "double" },
		{ TY_DECIMAL, 18, 2, "decimal(18,2)" },
		{ TY_DECIMAL, 38, 0, "decimal(38,0)" },
		{ TY_DATE, 0, 0, "date" },
		{ TY_TIME, 0, 0, "time" },
		{ TY_TIMESTAMP, 6, 0, "timestamp(6)" },
		{ TY_TIMESTAMP, 0, 0, "timestamp(0)" },
		{ TY_TIMESTAMP_LTZ, 3, 0, "timestamp_ltz(3)" },
		{ TY_BINARY, 0, 0, "binary" },
		{ TY_STRUCT, 0, 0, "struct" },
		{ TY_ARRAY, 0, 0, "array" },
		{ TY_MAP, 0, 0, "map" }
	};
	struct ty *t;
	struct sb sb;
	size_t i;

	for (i = 0; i < NELEM(p); i++) {
		t = ty_new(p[i].kind);
		t->precision = p[i].precision;
		t->scale = p[i].scale;
		sb_init(&sb);
		ty_name_print(t, &sb);
		is_str(sb.buf, p[i].want, "ty_name_print(%s, %d, %d)",
		    tap_q(p[i].want), p[i].precision, p[i].scale);
		sb_release(&sb);
		ty_free(t);
	}

	/* It appends. */
	t = mk("decimal(10,4)", false);
	sb_init(&sb);
	sb_adds(&sb, "x: ");
	ty_name_print(t, &sb);
	is_str(sb.buf, "x: decimal(10,4)", "ty_name_print appends");
	sb_release(&sb);
	ty_free(t);

	ok(!ty_is_container(TY_STRING) && !ty_is_container(TY_DECIMAL) &&
	    !ty_is_container(TY_TIMESTAMP_LTZ) && !ty_is_container(TY_BINARY),
	    "scalars are not containers");
	ok(ty_is_container(TY_STRUCT) && ty_is_container(TY_ARRAY) &&
	    ty_is_container(TY_MAP), "struct, array and map are");
}

static void
test_tree(void)
{
	struct ty *t, *c, *s;
	struct ty_field *f;
	size_t i;

	t = ty_new(TY_STRUCT);
	ok(t->kind == TY_STRUCT && !t->required && t->fields == NULL &&
	    t->nfields == 0 && t->element == NULL && t->key == NULL &&
	    t->value == NULL && t->precision == 0 && t->scale == 0,
	    "ty_new is zeroed and nullable");
	is_int(ty_depth(t), 1, "an empty struct has depth 1");
	ok(ty_field(t, "x") == NULL, "an empty struct has no fields");
	ty_free(t);
	ty_free(NULL);
	ok(ty_copy(NULL) == NULL, "ty_copy(NULL)");

	t = orders();
	is_int(t->nfields, 5, "five columns");
	f = ty_field(t, "customer");
	ok(f != NULL && f == &t->fields[1], "ty_field finds customer");
	ok(ty_field(t, "Customer") == NULL, "ty_field is case sensitive");
	ok(ty_field(t, "nope") == NULL, "ty_field: no such field");
	ok(ty_field(t, NULL) == NULL, "ty_field: NULL name");
	ok(ty_field(NULL, "x") == NULL, "ty_field: NULL struct");
	ok(ty_field(t->fields[0].type, "x") == NULL, "ty_field on a scalar");
	f = ty_field(f->type, "address");
	ok(f != NULL && ty_field(f->type, "country") != NULL,
	    "nested lookup");

	is_int(ty_depth(t), 3, "depth of the orders record");
	is_int(ty_depth(t->fields[0].type), 0, "a scalar has depth 0");
	is_int(ty_depth(ty_field(t, "customer")->type), 2,
	    "customer.address nests twice");
	is_int(ty_depth(ty_field(t, "items")->type), 2,
	    "array of struct of scalars");
	is_int(ty_depth(ty_field(t, "attributes")->type), 1,
	    "map of scalars");
	is_int(ty_depth(NULL), 0, "ty_depth(NULL)");
	s = mk_map(mk("string", true),
	    mk_array(mk_array(mk("int", false), false), false), false);
	is_int(ty_depth(s), 3, "a map counts its value's depth");
	ty_free(s);

	c = ty_copy(t);
	ok(c != t && ty_equal(t, c), "a copy is equal");
	ok(c->fields != t->fields && c->fields[0].name != t->fields[0].name,
	    "a copy is deep");
	ok(ty_equal(t, t), "equal to itself");
	ok(ty_equal(NULL, NULL), "NULL equals NULL");
	ok(!ty_equal(t, NULL) && !ty_equal(NULL, t), "NULL equals no tree");

	/* Each change, made to a fresh copy, makes it different. */
	c->required = true;
	ok(!ty_equal(t, c), "required differs at the top");
	ty_free(c);

	c = ty_copy(t);
	ty_field(c, "event_id")->type->required = false;
	ok(!ty_equal(t, c), "required differs in a field");
	ty_free(c);

	c = ty_copy(t);
	free(c->fields[0].name);
	c->fields[0].name = xstrdup("Event_id");
	ok(!ty_equal(t, c), "a field name differs by case");
	ty_free(c);

	c = ty_copy(t);
	{
		struct ty_field tmp = c->fields[0];

		c->fields[0] = c->fields[1];
		c->fields[1] = tmp;
	}
	ok(!ty_equal(t, c), "field order matters");
	ty_free(c);

	c = ty_copy(t);
	add(c, "extra", mk("int", false));
	ok(!ty_equal(t, c) && !ty_equal(c, t), "an extra field");
	ty_free(c);

	c = ty_copy(t);
	f = ty_field(ty_field(t, "items")->type->element, "price");
	ty_field(ty_field(c, "items")->type->element, "price")->type->
	    precision = 19;
	ok(!ty_equal(t, c), "decimal precision inside an array element");
	ok(f->type->precision == 18, "the original is untouched");
	ty_free(c);

	c = ty_copy(t);
	ty_field(ty_field(c, "items")->type->element, "price")->type->
	    scale = 3;
	ok(!ty_equal(t, c), "decimal scale");
	ty_free(c);

	c = ty_copy(t);
	ty_field(c, "event_time")->type->precision = 6;
	ok(!ty_equal(t, c), "timestamp_ltz precision");
	ty_free(c);

	c = ty_copy(t);
	ty_field(c, "event_time")->type->kind = TY_TIMESTAMP;
	ok(!ty_equal(t, c), "timestamp_ltz is not timestamp");
	ty_free(c);

	c = ty_copy(t);
	ty_field(c, "attributes")->type->value->kind = TY_BINARY;
	ok(!ty_equal(t, c), "map value type");
	ty_free(c);

	c = ty_copy(t);
	ty_field(c, "attributes")->type->key->required = false;
	ok(!ty_equal(t, c), "map key nullability");
	ty_free(c);

	c = ty_copy(t);
	ty_field(c, "items")->type->element->required = true;
	ok(!ty_equal(t, c), "array element nullability");
	ty_free(c);

	c = ty_copy(t);
	ty_field(ty_field(c, "customer")->type, "address")->type->
	    fields[0].type->kind = TY_BINARY;
	ok(!ty_equal(t, c), "a change two structs down");
	ty_free(c);

	/* Parameters a kind does not have do not count. */
	s = mk("string", false);
	c = mk("string", false);
	c->precision = 12;
	c->scale = 4;
	ok(ty_equal(s, c), "string ignores precision and scale");
	ty_free(c);
	c = mk("timestamp(3)", false);
	c->scale = 9;
	ty_free(s);
	s = mk("timestamp(3)", false);
	ok(ty_equal(s, c), "timestamp ignores scale");
	ty_free(c);
	ty_free(s);

	/* ty_add_field keeps order and takes ownership. */
	s = mk_struct(false);
	for (i = 0; i < 100; i++) {
		char *name = xasprintf("f%zu", i);

		ty_add_field(s, name, mk("int", false));
	}
	ok(s->nfields == 100 && strcmp(s->fields[0].name, "f0") == 0 &&
	    strcmp(s->fields[99].name, "f99") == 0 &&
	    ty_field(s, "f57") == &s->fields[57], "100 fields, in order");
	c = ty_copy(s);
	ok(ty_equal(s, c), "copy of a wide struct");
	ty_free(c);
	ty_free(s);

	ty_free(t);
}

static void
test_widens(void)
{
	static const struct {
		const char	*from, *to;
		bool		 widens;
	} w[] = {
		{ "int", "int", true },
		{ "int", "long", true },
		{ "long", "long", true },
		{ "float", "float", true },
		{ "float", "double", true },
		{ "double", "double", true },
		{ "string", "string", true },
		{ "boolean", "boolean", true },
		{ "date", "date", true },
		{ "time", "time", true },
		{ "binary", "binary", true },
		{ "decimal(18,2)", "decimal(18,2)", true },
		{ "decimal(10,2)", "decimal(18,2)", true },
		{ "decimal(1,0)", "decimal(38,0)", true },
		{ "timestamp(3)", "timestamp(3)", true },
		{ "timestamp(3)", "timestamp(6)", true },
		{ "timestamp(0)", "timestamp", true },
		{ "timestamp_ltz(3)", "timestamp_ltz(6)", true },
		{ "timestamp_ltz(0)", "timestamp_ltz(1)", true },
		{ "timestamp_ltz", "timestamp_ltz(6)", true },

		{ "long", "int", false },
		{ "double", "float", false },
		{ "int", "float", false },
		{ "int", "double", false },
		{ "long", "double", false },
		{ "int", "decimal(38,0)", false },
		{ "float", "decimal(38,10)", false },
		{ "decimal(18,2)", "double", false },
		{ "decimal(18,2)", "decimal(10,2)", false },
		{ "decimal(10,2)", "decimal(12,4)", false },
		{ "decimal(18,2)", "decimal(18,3)", false },
		{ "decimal(18,3)", "decimal(18,2)", false },
		{ "decimal(18,3)", "decimal(38,2)", false },
		{ "timestamp(6)", "timestamp(3)", false },
		{ "timestamp_ltz(6)", "timestamp_ltz(3)", false },
		{ "timestamp(3)", "timestamp_ltz(3)", false },
		{ "timestamp(3)", "timestamp_ltz(6)", false },
		{ "timestamp_ltz(3)", "timestamp(3)", false },
		{ "timestamp_ltz(3)", "timestamp(6)", false },
		{ "date", "timestamp", false },
		{ "time", "timestamp", false },
		{ "string", "binary", false },
		{ "binary", "string", false },
		{ "boolean", "int", false },
		{ "int", "string", false },
		{ "struct", "struct", false },
		{ "array", "array", false },
		{ "map", "map", false },
		{ "string", "struct", false },
		{ "struct", "string", false }
	};
	struct ty *a, *b;
	size_t i;

	for (i = 0; i < NELEM(w); i++) {
		a = mk(w[i].from, false);
		b = mk(w[i].to, false);
		ok(ty_scalar_widens(a, b) == w[i].widens, "%s %s %s",
		    w[i].from, w[i].widens ? "widens to" : "does not widen to",
		    w[i].to);
		ty_free(a);
		ty_free(b);
	}

	/* Nullability is not considered. */
	a = mk("int", true);
	b = mk("long", false);
	ok(ty_scalar_widens(a, b) && ty_scalar_widens(b, b),
	    "required int to nullable long");
	a->required = false;
	b->required = true;
	ok(ty_scalar_widens(a, b), "nullable int to required long");
	ok(!ty_scalar_widens(NULL, b) && !ty_scalar_widens(a, NULL),
	    "NULL widens to nothing");
	ty_free(a);
	ty_free(b);
}

static void
test_json(void)
{
	struct ty *t, *u;
	json_t *j;
	char *s, *s2;

	t = mk("decimal(18,2)", false);
	s = dump(t, "price");
	is_str(s, "{\"name\":\"price\",\"type\":\"decimal(18,2)\","
	    "\"required\":false}", "a scalar column");
	free(s);
	s = dump(t, NULL);
	is_str(s, "{\"type\":\"decimal(18,2)\",\"required\":false}",
	    "without a name");
	free(s);
	ty_free(t);

	t = mk("timestamp", true);
	s = dump(t, "ts");
	is_str(s, "{\"name\":\"ts\",\"type\":\"timestamp(6)\","
	    "\"required\":true}", "timestamp is written timestamp(6)");
	free(s);
	ty_free(t);

	t = orders();
	s = dump(t, "value");
	is_str(s, "{\"name\":\"value\",\"type\":\"struct\",\"required\":false,"
	    "\"fields\":["
	    "{\"name\":\"event_id\",\"type\":\"string\",\"required\":true},"
	    "{\"name\":\"customer\",\"type\":\"struct\",\"required\":false,"
	    "\"fields\":["
	    "{\"name\":\"id\",\"type\":\"string\",\"required\":false},"
	    "{\"name\":\"address\",\"type\":\"struct\",\"required\":false,"
	    "\"fields\":["
	    "{\"name\":\"country\",\"type\":\"string\","
	    "\"required\":false}]}]},"
	    "{\"name\":\"items\",\"type\":\"array\",\"required\":false,"
	    "\"element\":{\"type\":\"struct\",\"required\":false,\"fields\":["
	    "{\"name\":\"sku\",\"type\":\"string\",\"required\":false},"
	    "{\"name\":\"price\",\"type\":\"decimal(18,2)\","
	    "\"required\":false}]}},"
	    "{\"name\":\"attributes\",\"type\":\"map\",\"required\":false,"
	    "\"key\":{\"type\":\"string\",\"required\":true},"
	    "\"value\":{\"type\":\"string\",\"required\":false}},"
	    "{\"name\":\"event_time\",\"type\":\"timestamp_ltz(3)\","
	    "\"required\":false}]}", "the orders record, keys in order");

	u = load(s);
	ok(u != NULL && ty_equal(t, u), "reads back equal");
	s2 = u != NULL ? dump(u, "value") : NULL;
	is_str(s2, s, "and writes out the same");
	free(s2);
	ty_free(u);
	free(s);

	/* Children without names, and a top without one. */
	s = dump(t, NULL);
	u = load(s);
	ok(u != NULL && ty_equal(t, u), "reads back without a top name");
	ty_free(u);
	free(s);
	ty_free(t);

	/* Every kind, nested inside array and map. */
	t = mk_struct(true);
	add(t, "a", mk_array(mk_map(mk("string", true),
	    mk_array(mk("timestamp_ltz(0)", true), false), true), true));
	add(t, "b", mk_map(mk("string", true), mk_struct(false), false));
	add(t, "c", mk("binary", true));
	add(t, "d", mk("boolean", false));
	add(t, "e", mk("int", false));
	add(t, "f", mk("long", false));
	add(t, "g", mk("float", false));
	add(t, "h", mk("double", false));
	add(t, "i", mk("date", false));
	add(t, "j", mk("time", true));
	add(t, "k", mk("timestamp(0)", true));
	add(t, "l", mk("decimal(38,38)", true));
	s = dump(t, "all");
	u = load(s);
	ok(u != NULL && ty_equal(t, u), "every kind reads back equal");
	ty_free(u);
	free(s);

	/* ty_from_json does not keep pointers into the JSON. */
	j = ty_to_json(t, "all");
	u = ty_from_json(j);
	json_decref(j);
	ok(u != NULL && ty_equal(t, u) &&
	    strcmp(ty_field(u, "l")->name, "l") == 0,
	    "the tree outlives its JSON");
	ty_free(u);
	ty_free(t);

	/* An empty struct is well formed. */
	t = mk_struct(false);
	s = dump(t, NULL);
	is_str(s, "{\"type\":\"struct\",\"required\":false,\"fields\":[]}",
	    "an empty struct");
	u = load(s);
	ok(u != NULL && ty_equal(t, u), "reads back");
	ty_free(u);
	free(s);
	ty_free(t);

	/* Key order in the input does not matter. */
	u = load("{\"required\":true,\"element\":{\"required\":false,"
	    "\"type\":\"int\"},\"type\":\"array\"}");
	ok(u != NULL && u->kind == TY_ARRAY && u->required &&
	    u->element->kind == TY_INT && !u->element->required,
	    "keys in any order");
	ty_free(u);
}

/* A chain of n arrays around an int: ty_depth() n. */
static struct ty *
nest(int n, enum ty_kind kind)
{
	struct ty *t = mk("int", false), *c;

	while (n-- > 0) {
		c = ty_new(kind);
		if (kind == TY_ARRAY)
			c->element = t;
		else if (kind == TY_MAP) {
			c->key = mk("string", true);
			c->value = t;
		} else
			ty_add_field(c, xstrdup("x"), t);
		t = c;
	}
	return t;
}

static void
test_depth_limit(void)
{
	static const enum ty_kind kinds[] = { TY_ARRAY, TY_MAP, TY_STRUCT };
	static const char *const kname[] = { "arrays", "maps", "structs" };
	struct ty *t, *u;
	json_t *j, *c, *top;
	size_t k;
	int i;

	for (k = 0; k < NELEM(kinds); k++) {
		t = nest(TY_MAX_DEPTH, kinds[k]);
		is_int(ty_depth(t), TY_MAX_DEPTH, "%s nested to the limit",
		    kname[k]);
		j = ty_to_json(t, NULL);
		u = ty_from_json(j);
		ok(u != NULL && ty_equal(t, u), "%s accepted at the limit",
		    kname[k]);
		ty_free(u);
		json_decref(j);
		ty_free(t);

		t = nest(TY_MAX_DEPTH + 1, kinds[k]);
		j = ty_to_json(t, NULL);
		ok(ty_from_json(j) == NULL, "%s refused one level deeper",
		    kname[k]);
		json_decref(j);
		ty_free(t);
	}

	/* Far deeper than any parser of ours would go. */
	top = json_pack("{s:s,s:b}", "type", "int", "required", 0);
	for (i = 0; i < 5000; i++) {
		c = json_pack("{s:s,s:b,s:o}", "type", "array", "required", 0,
		    "element", top);
		top = c;
	}
	ok(ty_from_json(top) == NULL, "5000 levels are refused");
	json_decref(top);
}

static void
test_garbage(void)
{
	static const char *const g[] = {
		"null", "true", "0", "\"string\"", "[]",
		"[{\"type\":\"int\",\"required\":true}]",
		"{}",
		"{\"type\":\"int\"}",
		"{\"required\":true}",
		"{\"type\":null,\"required\":true}",
		"{\"type\":7,\"required\":true}",
		"{\"type\":\"int\",\"required\":\"true\"}",
		"{\"type\":\"int\",\"required\":1}",
		"{\"type\":\"int\",\"required\":null}",
		"{\"type\":\"integer\",\"required\":true}",
		"{\"type\":\"Int\",\"required\":true}",
		"{\"type\":\"decimal\",\"required\":true}",
		"{\"type\":\"decimal(18, 2)\",\"required\":true}",
		"{\"type\":\"decimal(39,2)\",\"required\":true}",
		"{\"type\":\"timestamp\",\"required\":true}",
		"{\"type\":\"timestamp_ltz\",\"required\":true}",
		"{\"type\":\"timestamp(7)\",\"required\":true}",
		"{\"type\":\"string\\u0000x\",\"required\":true}",
		"{\"type\":\"int\",\"required\":true,\"extra\":1}",
		"{\"type\":\"int\",\"required\":true,\"Name\":\"a\"}",
		"{\"type\":\"int\",\"required\":true,\"fields\":[]}",
		"{\"type\":\"int\",\"required\":true,\"element\":"
		    "{\"type\":\"int\",\"required\":true}}",
		"{\"type\":\"int\",\"required\":true,\"name\":7}",
		"{\"type\":\"int\",\"required\":true,\"name\":\"\"}",
		"{\"type\":\"int\",\"required\":true,\"name\":\"a b\"}",
		"{\"type\":\"int\",\"required\":true,\"name\":\"1a\"}",
		"{\"type\":\"int\",\"required\":true,\"name\":\"a\\u0000b\"}",
		"{\"type\":\"int\",\"required\":true,\"name\":\"a;DROP\"}",
		"{\"type\":\"int\",\"required\":true,\"name\":\"a.b\"}",
		"{\"type\":\"int\",\"required\":true,\"name\":\"\\u00e9\"}",
		"{\"type\":\"struct\",\"required\":true}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":null}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":{}}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":[1]}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":[null]}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":"
		    "[{\"type\":\"int\",\"required\":true}]}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":"
		    "[{\"name\":\"a\",\"type\":\"int\",\"required\":true},"
		    "{\"name\":\"a\",\"type\":\"long\",\"required\":true}]}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":"
		    "[{\"name\":\"id\",\"type\":\"int\",\"required\":true},"
		    "{\"name\":\"x\",\"type\":\"int\",\"required\":true},"
		    "{\"name\":\"ID\",\"type\":\"long\",\"required\":true}]}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":"
		    "[{\"name\":\"a\",\"type\":\"int\",\"required\":true},"
		    "{\"name\":\"b\",\"type\":\"bad\",\"required\":true}]}",
		"{\"type\":\"struct\",\"required\":true,\"fields\":[],"
		    "\"element\":{\"type\":\"int\",\"required\":true}}",
		"{\"type\":\"array\",\"required\":true}",
		"{\"type\":\"array\",\"required\":true,\"element\":null}",
		"{\"type\":\"array\",\"required\":true,\"element\":\"int\"}",
		"{\"type\":\"array\",\"required\":true,\"element\":"
		    "{\"name\":\"e\",\"type\":\"int\",\"required\":true}}",
		"{\"type\":\"array\",\"required\":true,\"element\":"
		    "{\"type\":\"int\"}}",
		"{\"type\":\"array\",\"required\":true,\"fields\":[]}",
		"{\"type\":\"map\",\"required\":true}",
		"{\"type\":\"map\",\"required\":true,"
		    "\"key\":{\"type\":\"string\",\"required\":true}}",
		"{\"type\":\"map\",\"required\":true,"
		    "\"value\":{\"type\":\"string\",\"required\":true}}",
		"{\"type\":\"map\",\"required\":true,"
		    "\"key\":{\"type\":\"string\",\"required\":true},"
		    "\"value\":{\"type\":\"string\",\"required\":true},"
		    "\"element\":{\"type\":\"string\",\"required\":true}}",
		"{\"type\":\"map\",\"required\":true,"
		    "\"key\":{\"name\":\"k\",\"type\":\"string\","
		    "\"required\":true},"
		    "\"value\":{\"type\":\"string\",\"required\":true}}",
		"{\"type\":\"map\",\"required\":true,"
		    "\"key\":{\"type\":\"string\",\"required\":true},"
		    "\"value\":[]}"
	};
	char *name;
	struct ty *u;
	size_t i;
	const char *s;
	char buf[512];

	ok(ty_from_json(NULL) == NULL, "NULL is refused");
	for (i = 0; i < NELEM(g); i++) {
		u = load(g[i]);
		ok(u == NULL, "malformed IR %zu is refused", i);
		if (u != NULL)
			printf("#   input: %s\n", g[i]);
		ty_free(u);
	}

	/* Names up to 128 bytes. */
	name = xmalloc(130);
	memset(name, 'n', 129);
	name[129] = '\0';
	snprintf(buf, sizeof(buf), "{\"type\":\"struct\",\"required\":true,"
	    "\"fields\":[{\"name\":\"%s\",\"type\":\"int\","
	    "\"required\":true}]}", name);
	u = load(buf);
	ok(u == NULL, "a 129-byte field name is refused");
	ty_free(u);
	name[128] = '\0';
	snprintf(buf, sizeof(buf), "{\"type\":\"struct\",\"required\":true,"
	    "\"fields\":[{\"name\":\"%s\",\"type\":\"int\","
	    "\"required\":true}]}", name);
	u = load(buf);
	ok(u != NULL && u->nfields == 1 && strcmp(u->fields[0].name,
	    name) == 0, "a 128-byte one is accepted");
	ty_free(u);
	free(name);

	s = "{\"name\":\"_A_1\",\"type\":\"int\",\"required\":true}";
	u = load(s);
	ok(u != NULL && u->kind == TY_INT && u->required,
	    "a top-level name is allowed");
	ty_free(u);
}

/*
 * Mutate the IR of the orders record at random (a fixed seed, so
 * failures repeat) and feed what still parses as JSON to ty_from_json.
 * Nothing may crash or leak, and anything accepted must round-trip.
 */
static void
test_fuzz(void)
{
	static const char alphabet[] =
	    "{}[]\":,0123456789 abcdefghijklmnopqrstuvwxyz_()\\";
	unsigned long seed = 12345;
	struct ty *t, *u, *v;
	json_t *j;
	char *s, *m, *again;
	size_t len, i, k, n;
	int parsed = 0, accepted = 0, broken = 0;

	t = orders();
	s = dump(t, "value");
	len = strlen(s);
	m = xmalloc(len + 1);
	for (i = 0; i < 20000; i++) {
		memcpy(m, s, len + 1);
		n = 1 + (i % 3);
		for (k = 0; k < n; k++) {
			seed = seed * 1103515245 + 12345;
			m[(seed >> 8) % len] =
			    alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
		}
		if ((j = json_loads(m, 0, NULL)) == NULL)
			continue;
		parsed++;
		u = ty_from_json(j);
		json_decref(j);
		if (u == NULL)
			continue;
		accepted++;
		again = dump(u, NULL);
		v = load(again);
		if (v == NULL || !ty_equal(u, v))
			broken++;
		ty_free(v);
		free(again);
		ty_free(u);
	}
	printf("# fuzz: %d parsed as JSON, %d accepted\n", parsed, accepted);
	ok(parsed > 0 && broken == 0,
	    "fuzzed IR never crashes, and what is accepted round-trips");
	free(m);
	free(s);
	ty_free(t);
}

/*
 * A column's description: kept by to_json, from_json and ty_copy, not
 * compared by ty_equal, and held by the IR reader to ty_doc_why()'s rule.
 */
static void
test_doc(void)
{
	static const struct {
		const char	*text;	/* a JSON string's body */
		int		 good;
	} docs[] = {
		{ "plain text", 1 },
		{ "it's a \\\\ path -- /* x */ ``", 1 },
		{ "\u00fc\u00e9\u6ce8\u6587 and $ and { and }", 1 },
		{ "\u00a0no-break space", 1 },
		{ "", 0 },
		{ "tab\\there", 0 },
		{ "new\\nline", 0 },
		{ "del\x7f", 0 },
		{ "nel\xc2\x85", 0 },
		{ "csi\xc2\x9b", 0 },
		{ "ls\u2028", 0 },
		{ "ps\u2029", 0 },
		{ "lrm\u200e", 0 },
		{ "rlo\u202e", 0 },
		{ "fsi\u2068", 0 },
		{ "costs ${X}", 0 },
	};
	struct ty *t, *u;
	char buf[1200], *s;
	size_t i;

	for (i = 0; i < NELEM(docs); i++) {
		snprintf(buf, sizeof(buf), "{\"name\":\"a\",\"type\":\"string\","
		    "\"required\":false,\"description\":\"%s\"}", docs[i].text);
		t = load(buf);
		ok((t != NULL) == docs[i].good, "description %s is %s",
		    tap_q(docs[i].text), docs[i].good ? "kept" : "refused");
		ty_free(t);
	}
	memset(buf, 'x', 1024);
	buf[1024] = '\0';
	ok(ty_doc_why(buf, 1024) == NULL, "1024 bytes are a description");
	buf[1024] = 'x';
	buf[1025] = '\0';
	ok(ty_doc_why(buf, 1025) != NULL, "1025 bytes are not");
	ok(ty_doc_why("a\xc3", 2) != NULL, "a cut UTF-8 character is not");

	t = load("{\"name\":\"s\",\"type\":\"struct\",\"required\":true,"
	    "\"description\":\"the struct\",\"fields\":[{\"name\":\"f\","
	    "\"type\":\"array\",\"required\":false,\"description\":\"the f\","
	    "\"element\":{\"type\":\"int\",\"required\":true,"
	    "\"description\":\"each\"}}]}");
	ok(t != NULL && t->doc != NULL && strcmp(t->doc, "the struct") == 0 &&
	    strcmp(t->fields[0].type->doc, "the f") == 0 &&
	    strcmp(t->fields[0].type->element->doc, "each") == 0,
	    "descriptions are read at every level");
	s = dump(t, "s");
	is_str(s, "{\"name\":\"s\",\"type\":\"struct\",\"required\":true,"
	    "\"description\":\"the struct\",\"fields\":[{\"name\":\"f\","
	    "\"type\":\"array\",\"required\":false,\"description\":\"the f\","
	    "\"element\":{\"type\":\"int\",\"required\":true,"
	    "\"description\":\"each\"}}]}", "and written back, after required");
	free(s);
	u = ty_copy(t);
	ok(u->doc != t->doc && strcmp(u->fields[0].type->element->doc,
	    "each") == 0, "ty_copy copies them");
	free(u->fields[0].type->doc);
	u->fields[0].type->doc = NULL;
	ok(ty_equal(t, u), "ty_equal does not compare them");
	s = dump(u, "s");
	ok(strstr(s, "the f") == NULL, "a column without one has no key");
	free(s);
	ty_free(u);
	ty_free(t);
	ok(load("{\"type\":\"int\",\"required\":true,\"description\":7}") ==
	    NULL, "a description that is not a string is refused");
}

int
main(void)
{
	test_names();
	test_refusals();
	test_print();
	test_tree();
	test_widens();
	test_json();
	test_depth_limit();
	test_garbage();
	test_fuzz();
	test_doc();
	return done_testing();
}
