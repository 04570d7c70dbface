/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * types.c - FLUID column types: names, trees, widening, IR form
 * (see types.h).
 */
#include <stdlib.h>
#include <string.h>

#include "path.h"		/* PATH_MAX_IDENT, not the functions */
#include "types.h"
#include "utf8.h"

/* Indexed by enum ty_kind: the name, without parameters. */
static const char *const kind_names[] = {
	"string",
	"boolean",
	"int",
	"long",
	"float",
	"double",
	"decimal",
	"date",
	"time",
	"timestamp",
	"timestamp_ltz",
	"binary",
	"struct",
	"array",
	"map"
};

#define NKINDS	(sizeof(kind_names) / sizeof(kind_names[0]))
/* struct ty_names keeps a name per kind: a kind added needs one there. */
_Static_assert(NKINDS == TY_MAP + 1, "kind_names and ty_names.plain differ");

/*
 * Parameters are parsed with a cap, so that a long run of digits is
 * refused as out of range instead of overflowing.  Any value above the
 * cap is out of range for every parameter.
 */
#define NUM_CAP		1000

static int
refuse(const char **why, const char *reason)
{
	if (why != NULL)
		*why = reason;
	return -1;
}

static int
is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

static int
is_upper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* ASCII only: the C library's tolower() depends on the locale. */
static int
to_lower(int c)
{
	return is_upper(c) ? c - 'A' + 'a' : c;
}

/* Find the kind spelled by the len bytes at s; -1 if there is none. */
static int
lookup_kind(const char *s, size_t len, int fold, enum ty_kind *out)
{
	size_t i, j;
	const char *n;

	for (i = 0; i < NKINDS; i++) {
		n = kind_names[i];
		/* n ends with a NUL, which no byte of the word matches. */
		for (j = 0; j < len; j++)
			if ((fold ? to_lower((unsigned char)s[j]) : s[j]) !=
			    n[j])
				break;
		if (j == len && n[len] == '\0') {
			*out = (enum ty_kind)i;
			return 0;
		}
	}
	return -1;
}

/*
 * Parse an unsigned decimal number at *sp and advance past it.  Signs
 * and leading zeros are refused, so that every parameter has a single
 * spelling.  Returns 0, or -1 with *why set; syntax is the reason for a
 * missing number.
 */
static int
parse_num(const char **sp, int *out, const char *syntax, const char **why)
{
	const char *s = *sp;
	int v = 0;

	if (*s == '+' || *s == '-')
		return refuse(why,
		    "a type parameter is a number written without a sign");
	if (!is_digit((unsigned char)*s))
		return refuse(why, syntax);
	if (s[0] == '0' && is_digit((unsigned char)s[1]))
		return refuse(why,
		    "a type parameter is written without leading zeros");
	for (; is_digit((unsigned char)*s); s++)
		if (v <= NUM_CAP)
			v = v * 10 + (*s - '0');
	*sp = s;
	*out = v;
	return 0;
}

int
ty_name_parse(const char *s, struct ty_name *out, const char **why)
{
	static const char dec_syntax[] =
	    "decimal is written as decimal(precision,scale), "
	    "as in decimal(18,2)";
	static const char ts_syntax[] =
	    "a timestamp precision is written in parentheses, "
	    "as in timestamp(3) or timestamp_ltz(3)";
	const char *p;
	enum ty_kind kind;
	int prec = 0, scale = 0;

	if (s == NULL || *s == '\0')
		return refuse(why, "type name is empty");

	/*
	 * The word runs up to the first character that cannot be in a
	 * name, so that "int8" is an unknown type.  Upper case is taken
	 * into the word only to give a better reason: names are accepted
	 * exactly as the spec writes them.
	 */
	for (p = s; is_lower((unsigned char)*p) ||
	    is_upper((unsigned char)*p) || is_digit((unsigned char)*p) ||
	    *p == '_'; p++)
		continue;
	if (lookup_kind(s, (size_t)(p - s), 0, &kind) == -1) {
		if (lookup_kind(s, (size_t)(p - s), 1, &kind) == 0)
			return refuse(why, "type names are written in "
			    "lower case");
		return refuse(why, "unknown type; the types are string, "
		    "boolean, int, long, float, double, decimal(p,s), date, "
		    "time, timestamp(p), timestamp_ltz(p), binary, struct, "
		    "array and map");
	}

	if (*p == '\0') {
		if (kind == TY_DECIMAL)
			return refuse(why, "decimal needs a precision and a "
			    "scale, as in decimal(18,2)");
		if (kind == TY_TIMESTAMP || kind == TY_TIMESTAMP_LTZ)
			prec = TY_MAX_TIMESTAMP_PRECISION;
		goto done;
	}
	if (*p != '(')
		return refuse(why, "unexpected character after the type name");
	p++;

	switch (kind) {
	case TY_DECIMAL:
		if (parse_num(&p, &prec, dec_syntax, why) == -1)
			return -1;
		if (*p++ != ',')
			return refuse(why, dec_syntax);
		/* decimal(18, 2) is a common way to write it. */
		while (*p == ' ')
			p++;
		if (parse_num(&p, &scale, dec_syntax, why) == -1)
			return -1;
		if (*p++ != ')')
			return refuse(why, dec_syntax);
		if (prec < 1 || prec > TY_MAX_DECIMAL_PRECISION)
			return refuse(why,
			    "decimal precision must be between 1 and 38");
		if (scale > prec)
			return refuse(why, "decimal scale must be between 0 "
			    "and the precision");
		break;
	case TY_TIMESTAMP:
	case TY_TIMESTAMP_LTZ:
		if (parse_num(&p, &prec, ts_syntax, why) == -1)
			return -1;
		if (*p++ != ')')
			return refuse(why, ts_syntax);
		if (prec > TY_MAX_TIMESTAMP_PRECISION)
			return refuse(why,
			    "timestamp precision must be between 0 and 6");
		break;
	default:
		return refuse(why, "only decimal, timestamp and "
		    "timestamp_ltz take parameters");
	}
	if (*p != '\0')
		return refuse(why,
		    "unexpected character after the type's parameters");

done:
	out->kind = kind;
	out->precision = prec;
	out->scale = scale;
	return 0;
}

void
ty_name_print(const struct ty *t, struct sb *sb)
{
	if ((size_t)t->kind >= NKINDS) {
		/* Not a kind: print something no parser accepts. */
		sb_adds(sb, "?");
		return;
	}
	sb_adds(sb, kind_names[t->kind]);
	switch (t->kind) {
	case TY_DECIMAL:
		sb_addc(sb, '(');
		sb_addi(sb, t->precision);
		sb_addc(sb, ',');
		sb_addi(sb, t->scale);
		sb_addc(sb, ')');
		break;
	case TY_TIMESTAMP:
	case TY_TIMESTAMP_LTZ:
		sb_addc(sb, '(');
		sb_addi(sb, t->precision);
		sb_addc(sb, ')');
		break;
	default:
		break;
	}
}

bool
ty_is_container(enum ty_kind k)
{
	return k == TY_STRUCT || k == TY_ARRAY || k == TY_MAP;
}

struct ty *
ty_new(enum ty_kind kind)
{
	struct ty *t = xcalloc(1, sizeof(*t));

	t->kind = kind;
	return t;
}

struct ty *
ty_copy(const struct ty *t)
{
	struct ty *c;
	size_t i;

	if (t == NULL)
		return NULL;
	c = ty_new(t->kind);
	c->precision = t->precision;
	c->scale = t->scale;
	c->required = t->required;
	c->doc = t->doc != NULL ? xstrdup(t->doc) : NULL;
	if (t->nfields > 0) {
		c->fields = xreallocarray(NULL, t->nfields,
		    sizeof(*c->fields));
		for (i = 0; i < t->nfields; i++) {
			c->fields[i].name = xstrdup(t->fields[i].name);
			c->fields[i].type = ty_copy(t->fields[i].type);
		}
		c->nfields = t->nfields;
	}
	c->element = ty_copy(t->element);
	c->key = ty_copy(t->key);
	c->value = ty_copy(t->value);
	return c;
}

void
ty_free(struct ty *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nfields; i++) {
		free(t->fields[i].name);
		ty_free(t->fields[i].type);
	}
	free(t->fields);
	ty_free(t->element);
	ty_free(t->key);
	ty_free(t->value);
	free(t->doc);
	free(t);
}

void
ty_add_field(struct ty *st, char *name, struct ty *type)
{
	/*
	 * One reallocation per field keeps struct ty free of a capacity
	 * that every builder would have to keep in step; structs are small.
	 */
	st->fields = xreallocarray(st->fields, st->nfields + 1,
	    sizeof(*st->fields));
	st->fields[st->nfields].name = name;
	st->fields[st->nfields].type = type;
	st->nfields++;
}

struct ty_field *
ty_field(const struct ty *st, const char *name)
{
	size_t i;

	if (st == NULL || name == NULL)
		return NULL;
	for (i = 0; i < st->nfields; i++)
		if (strcmp(st->fields[i].name, name) == 0)
			return &st->fields[i];
	return NULL;
}

static int
max_int(int a, int b)
{
	return a > b ? a : b;
}

int
ty_depth(const struct ty *t)
{
	int d = 0;
	size_t i;

	if (t == NULL || !ty_is_container(t->kind))
		return 0;
	for (i = 0; i < t->nfields; i++)
		d = max_int(d, ty_depth(t->fields[i].type));
	if (t->element != NULL)
		d = max_int(d, ty_depth(t->element));
	if (t->key != NULL)
		d = max_int(d, ty_depth(t->key));
	if (t->value != NULL)
		d = max_int(d, ty_depth(t->value));
	return 1 + d;
}

/*
 * A description goes into a SQL literal, YAML, JSON and the catalog, and
 * is shown by tools and terminals: one line of text that displays as it
 * reads, so no control, no separator that ends a line, no character
 * that reorders what follows it.
 */
static bool
doc_char_ok(unsigned long cp)
{
	return !(cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	    cp == 0x200e || cp == 0x200f || cp == 0x2028 || cp == 0x2029 ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069));
}

const char *
ty_doc_why(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	unsigned long cp;
	size_t n;

	if (len == 0)
		return "is empty (leave it out instead)";
	if (len > TY_MAX_DOC_BYTES)
		return "is longer than 1024 bytes";
	for (; p < end; p += n) {
		if ((n = utf8_char(p, &cp)) == 0 || p + n > end)
			return "is not UTF-8 text";
		if (!doc_char_ok(cp))
			return "holds a control character, a line separator "
			    "or a bidirectional control (one line of plain "
			    "text only)";
		if (cp == '$' && p + 1 < end && p[1] == '{')
			return "holds '${', which the job's runner reads as a "
			    "variable reference";
	}
	return NULL;
}

/* Kind and the parameters that kind has; nothing else. */
static bool
same_name(const struct ty *a, const struct ty *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case TY_DECIMAL:
		return a->precision == b->precision && a->scale == b->scale;
	case TY_TIMESTAMP:
	case TY_TIMESTAMP_LTZ:
		return a->precision == b->precision;
	default:
		return true;
	}
}

bool
ty_equal(const struct ty *a, const struct ty *b)
{
	size_t i;

	if (a == NULL || b == NULL)
		return a == b;
	if (!same_name(a, b) || a->required != b->required ||
	    a->nfields != b->nfields)
		return false;
	for (i = 0; i < a->nfields; i++)
		if (strcmp(a->fields[i].name, b->fields[i].name) != 0 ||
		    !ty_equal(a->fields[i].type, b->fields[i].type))
			return false;
	return ty_equal(a->element, b->element) &&
	    ty_equal(a->key, b->key) && ty_equal(a->value, b->value);
}

bool
ty_scalar_widens(const struct ty *from, const struct ty *to)
{
	if (from == NULL || to == NULL || ty_is_container(from->kind) ||
	    ty_is_container(to->kind))
		return false;
	switch (from->kind) {
	case TY_INT:
		return to->kind == TY_INT || to->kind == TY_LONG;
	case TY_FLOAT:
		return to->kind == TY_FLOAT || to->kind == TY_DOUBLE;
	case TY_DECIMAL:
		/* More integer digits, never fewer fraction digits. */
		return to->kind == TY_DECIMAL && to->scale == from->scale &&
		    to->precision >= from->precision;
	case TY_TIMESTAMP:
	case TY_TIMESTAMP_LTZ:
		/*
		 * A timestamp and an instant are not interchangeable: the
		 * conversion depends on the session time zone.
		 */
		return to->kind == from->kind &&
		    to->precision >= from->precision;
	default:
		return to->kind == from->kind;
	}
}

/* t's canonical name as a new JSON string of its own. */
static json_t *
name_string(const struct ty *t)
{
	struct sb sb;
	json_t *j;

	sb_init(&sb);
	ty_name_print(t, &sb);
	j = json_string(sb.buf);
	sb_release(&sb);
	return j;
}

#define NDECIMAL	(TY_MAX_DECIMAL_PRECISION + 1)

/* Where names keeps t's name, or NULL for a name it does not keep. */
static json_t **
name_slot(struct ty_names *names, const struct ty *t)
{
	switch (t->kind) {
	case TY_DECIMAL:
		if (t->precision < 0 || t->precision >= (int)NDECIMAL ||
		    t->scale < 0 || t->scale >= (int)NDECIMAL)
			return NULL;
		if (names->decimal == NULL)
			names->decimal = xcalloc(NDECIMAL * NDECIMAL,
			    sizeof(*names->decimal));
		return &names->decimal[t->precision * NDECIMAL + t->scale];
	case TY_TIMESTAMP:
	case TY_TIMESTAMP_LTZ:
		if (t->precision < 0 ||
		    t->precision > TY_MAX_TIMESTAMP_PRECISION)
			return NULL;
		return &names->timestamp[t->kind == TY_TIMESTAMP_LTZ]
		    [t->precision];
	default:
		if ((size_t)t->kind >= NKINDS)
			return NULL;
		return &names->plain[t->kind];
	}
}

json_t *
ty_name_json(struct ty_names *names, const struct ty *t)
{
	json_t **slot = name_slot(names, t);

	if (slot == NULL)
		return name_string(t);
	if (*slot == NULL)
		*slot = name_string(t);
	return json_incref(*slot);
}

void
ty_names_release(struct ty_names *names)
{
	size_t i, j;

	for (i = 0; i < sizeof(names->plain) / sizeof(*names->plain); i++)
		json_decref(names->plain[i]);
	for (i = 0; i < 2; i++)
		for (j = 0; j <= TY_MAX_TIMESTAMP_PRECISION; j++)
			json_decref(names->timestamp[i][j]);
	for (i = 0; names->decimal != NULL && i < NDECIMAL * NDECIMAL; i++)
		json_decref(names->decimal[i]);
	free(names->decimal);
	memset(names, 0, sizeof(*names));
}

/*
 * The IR form of t, named name (a reference this takes over, or NULL),
 * with its type names from names, or made afresh when names is NULL.
 */
static json_t *
to_json(const struct ty *t, json_t *name, struct ty_names *names)
{
	json_t *o, *fields;
	size_t i;

	o = json_object();
	if (name != NULL)
		json_object_set_new_nocheck(o, "name", name);
	json_object_set_new_nocheck(o, "type", names != NULL ?
	    ty_name_json(names, t) : name_string(t));
	json_object_set_new_nocheck(o, "required", json_boolean(t->required));
	if (t->doc != NULL)
		json_object_set_new_nocheck(o, "description",
		    json_string(t->doc));
	switch (t->kind) {
	case TY_STRUCT:
		fields = json_array();
		for (i = 0; i < t->nfields; i++)
			json_array_append_new(fields,
			    to_json(t->fields[i].type,
			    json_string(t->fields[i].name), names));
		json_object_set_new_nocheck(o, "fields", fields);
		break;
	case TY_ARRAY:
		if (t->element != NULL)
			json_object_set_new_nocheck(o, "element",
			    to_json(t->element, NULL, names));
		break;
	case TY_MAP:
		if (t->key != NULL)
			json_object_set_new_nocheck(o, "key",
			    to_json(t->key, NULL, names));
		if (t->value != NULL)
			json_object_set_new_nocheck(o, "value",
			    to_json(t->value, NULL, names));
		break;
	default:
		break;
	}
	return o;
}

json_t *
ty_to_json(const struct ty *t, const char *name)
{
	return to_json(t, name != NULL ? json_string(name) : NULL, NULL);
}

json_t *
ty_to_json_shared(const struct ty *t, json_t *name, struct ty_names *names)
{
	return to_json(t, json_incref(name), names);
}

/* What a column object may or must say about its name. */
enum name_rule {
	NAME_NONE,	/* element, key, value */
	NAME_OPTIONAL,	/* the top of the tree */
	NAME_REQUIRED	/* struct fields */
};

/*
 * A JSON string without an embedded NUL, which a C string would
 * silently cut short; NULL otherwise.
 */
static const char *
json_cstr(const json_t *j)
{
	const char *s;

	if (!json_is_string(j))
		return NULL;
	s = json_string_value(j);
	if (strlen(s) != json_string_length(j))
		return NULL;
	return s;
}

/*
 * Field names go into SQL as identifiers, so the IR reader holds them
 * to the spec's rule for column names: plain SQL identifiers.  This is
 * path_is_ident(), repeated so that types.c links without path.c.
 */
static bool
plain_ident(const char *s)
{
	size_t n;

	if (!is_lower((unsigned char)*s) && !is_upper((unsigned char)*s) &&
	    *s != '_')
		return false;
	for (n = 0; is_lower((unsigned char)s[n]) ||
	    is_upper((unsigned char)s[n]) || is_digit((unsigned char)s[n]) ||
	    s[n] == '_'; n++)
		continue;
	return s[n] == '\0' && n <= PATH_MAX_IDENT;
}

static int
casecmp(const char *a, const char *b)
{
	int ca, cb;

	do {
		ca = to_lower((unsigned char)*a++);
		cb = to_lower((unsigned char)*b++);
	} while (ca == cb && ca != '\0');
	return ca - cb;
}

static int
cmp_field_name(const void *a, const void *b)
{
	return casecmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Do two fields have names that differ only by case (or not at all)?
 * Sorted, so that a struct with very many fields is not quadratic.
 */
static bool
has_duplicate(const struct ty *st)
{
	const char **names;
	size_t i;
	bool dup = false;

	if (st->nfields < 2)
		return false;
	names = xreallocarray(NULL, st->nfields, sizeof(*names));
	for (i = 0; i < st->nfields; i++)
		names[i] = st->fields[i].name;
	qsort(names, st->nfields, sizeof(*names), cmp_field_name);
	for (i = 1; i < st->nfields && !dup; i++)
		dup = casecmp(names[i - 1], names[i]) == 0;
	free(names);
	return dup;
}

static struct ty *from_json(const json_t *, int, enum name_rule,
    const char **);

static int
fields_from_json(struct ty *t, const json_t *a, int level)
{
	const char *name;
	size_t i, n;

	if (!json_is_array(a))
		return -1;
	n = json_array_size(a);
	if (n == 0)
		return 0;
	/* Filled in place; ty_free() copes with a part-filled array. */
	t->fields = xcalloc(n, sizeof(*t->fields));
	for (i = 0; i < n; i++) {
		t->fields[i].type = from_json(json_array_get(a, i), level,
		    NAME_REQUIRED, &name);
		if (t->fields[i].type == NULL)
			return -1;
		t->fields[i].name = xstrdup(name);
		t->nfields++;
	}
	return has_duplicate(t) ? -1 : 0;
}

/* The child kid (element, key or value) of the column o at level. */
static struct ty *
child_from_json(const json_t *o, const char *kid, int level)
{
	const json_t *c = json_object_get(o, kid);

	if (c == NULL)
		return NULL;
	return from_json(c, level + 1, NAME_NONE, NULL);
}

/*
 * One column at nesting level level (1 at the top).  *namep, when
 * namep is not NULL, gets the column's name, borrowed from j.
 */
static struct ty *
from_json(const json_t *j, int level, enum name_rule rule,
    const char **namep)
{
	const json_t *jname, *jreq, *jdoc;
	const char *name = NULL, *type;
	struct ty_name tn;
	struct ty *t = NULL;
	struct sb sb;
	size_t known = 2;	/* type, required */
	bool canonical;

	/*
	 * Level TY_MAX_DEPTH + 1 holds the scalars under the deepest
	 * container allowed (ty_depth() TY_MAX_DEPTH); a container there
	 * is refused for want of a level for its children.  This also
	 * bounds the recursion, whatever the JSON.
	 */
	if (level > TY_MAX_DEPTH + 1 || !json_is_object(j))
		return NULL;

	jname = json_object_get(j, "name");
	if (jname != NULL) {
		if (rule == NAME_NONE || (name = json_cstr(jname)) == NULL ||
		    !plain_ident(name))
			return NULL;
		known++;
	} else if (rule == NAME_REQUIRED)
		return NULL;

	if ((type = json_cstr(json_object_get(j, "type"))) == NULL ||
	    ty_name_parse(type, &tn, NULL) == -1)
		return NULL;
	jreq = json_object_get(j, "required");
	if (!json_is_boolean(jreq))
		return NULL;

	t = ty_new(tn.kind);
	t->precision = tn.precision;
	t->scale = tn.scale;
	t->required = json_is_true(jreq);
	/* Untrusted text that the SQL and the exports will carry. */
	if ((jdoc = json_object_get(j, "description")) != NULL) {
		if (!json_is_string(jdoc) || ty_doc_why(json_string_value(jdoc),
		    json_string_length(jdoc)) != NULL)
			goto fail;
		t->doc = xstrdup(json_string_value(jdoc));
		known++;
	}

	/* The IR holds canonical names only: one type, one spelling. */
	sb_init(&sb);
	ty_name_print(t, &sb);
	canonical = strcmp(sb.buf, type) == 0;
	sb_release(&sb);
	if (!canonical)
		goto fail;

	switch (t->kind) {
	case TY_STRUCT:
		if (fields_from_json(t, json_object_get(j, "fields"),
		    level + 1) == -1)
			goto fail;
		known++;
		break;
	case TY_ARRAY:
		if ((t->element = child_from_json(j, "element", level)) ==
		    NULL)
			goto fail;
		known++;
		break;
	case TY_MAP:
		if ((t->key = child_from_json(j, "key", level)) == NULL ||
		    (t->value = child_from_json(j, "value", level)) == NULL)
			goto fail;
		known += 2;
		break;
	default:
		break;
	}
	/* Anything else (a misspelt key, fields on a string) is refused. */
	if (json_object_size(j) != known)
		goto fail;
	if (namep != NULL)
		*namep = name;
	return t;

fail:
	ty_free(t);
	return NULL;
}

struct ty *
ty_from_json(const json_t *j)
{
	return from_json(j, 1, NAME_OPTIONAL, NULL);
}

/*
 * The full type as one string (types.h): the name, then the children in
 * angle brackets, then " not null" for a required value.  One spelling
 * per tree, so that parsing it back is exact and the text can be
 * compared as it is.
 */
void
ty_print(const struct ty *t, struct sb *sb)
{
	size_t i;

	ty_name_print(t, sb);
	switch (t->kind) {
	case TY_STRUCT:
		sb_addc(sb, '<');
		for (i = 0; i < t->nfields; i++) {
			if (i > 0)
				sb_adds(sb, ", ");
			sb_adds(sb, t->fields[i].name);
			sb_adds(sb, ": ");
			ty_print(t->fields[i].type, sb);
		}
		sb_addc(sb, '>');
		break;
	case TY_ARRAY:
		sb_addc(sb, '<');
		ty_print(t->element, sb);
		sb_addc(sb, '>');
		break;
	case TY_MAP:
		sb_addc(sb, '<');
		ty_print(t->key, sb);
		sb_adds(sb, ", ");
		ty_print(t->value, sb);
		sb_addc(sb, '>');
		break;
	default:
		break;
	}
	if (t->required)
		sb_adds(sb, " not null");
}

/* Consume the literal lit at *sp: 0, or -1 with nothing consumed. */
static int
take(const char **sp, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*sp, lit, n) != 0)
		return -1;
	*sp += n;
	return 0;
}

static struct ty *parse_type(const char **, int, const char **);

/* "name: type" of a struct; the field is added to st. */
static int
parse_field(const char **sp, struct ty *st, int level, const char **why)
{
	const char *s = *sp;
	struct ty *ft;
	char *name;
	size_t n;

	for (n = 0; is_lower((unsigned char)s[n]) ||
	    is_upper((unsigned char)s[n]) || is_digit((unsigned char)s[n]) ||
	    s[n] == '_'; n++)
		continue;
	name = xstrndup(s, n);
	if (n == 0 || !plain_ident(name)) {
		free(name);
		return refuse(why, "a struct field needs a plain name");
	}
	*sp = s + n;
	if (take(sp, ": ") == -1) {
		free(name);
		return refuse(why, "a field name is followed by ': '");
	}
	if ((ft = parse_type(sp, level + 1, why)) == NULL) {
		free(name);
		return -1;
	}
	ty_add_field(st, name, ft);
	return 0;
}

/* One type at nesting level level (1 at the top), as ty_print() writes. */
static struct ty *
parse_type(const char **sp, int level, const char **why)
{
	const char *s = *sp, *e;
	struct ty_name tn;
	struct ty *t;
	char *word;
	int rc;

	if (level > TY_MAX_DEPTH + 1) {
		refuse(why, "types nest at most 32 deep");
		return NULL;
	}
	/* The name runs to '(' ... ')' or to the first other character. */
	for (e = s; is_lower((unsigned char)*e) || is_digit((unsigned char)*e)
	    || *e == '_'; e++)
		continue;
	if (*e == '(')
		while (*e != '\0' && *e++ != ')')
			continue;
	word = xstrndup(s, (size_t)(e - s));
	rc = ty_name_parse(word, &tn, why);
	free(word);
	if (rc == -1)
		return NULL;
	t = ty_new(tn.kind);
	t->precision = tn.precision;
	t->scale = tn.scale;
	*sp = e;
	if (ty_is_container(t->kind)) {
		if (take(sp, "<") == -1) {
			refuse(why, "struct, array and map are followed by "
			    "their children in '<' '>'");
			goto fail;
		}
		switch (t->kind) {
		case TY_STRUCT:
			if (**sp == '>')
				break;
			do {
				if (parse_field(sp, t, level, why) == -1)
					goto fail;
			} while (take(sp, ", ") == 0);
			if (has_duplicate(t)) {
				refuse(why, "two fields of a struct have the "
				    "same name");
				goto fail;
			}
			break;
		case TY_ARRAY:
			if ((t->element = parse_type(sp, level + 1, why)) ==
			    NULL)
				goto fail;
			break;
		default:
			if ((t->key = parse_type(sp, level + 1, why)) == NULL)
				goto fail;
			if (take(sp, ", ") == -1) {
				refuse(why, "a map's key and value are "
				    "separated by ', '");
				goto fail;
			}
			if ((t->value = parse_type(sp, level + 1, why)) ==
			    NULL)
				goto fail;
			break;
		}
		if (take(sp, ">") == -1) {
			refuse(why, "expected '>' after the children");
			goto fail;
		}
	}
	t->required = take(sp, " not null") == 0;
	return t;

fail:
	ty_free(t);
	return NULL;
}

struct ty *
ty_parse(const char *s, const char **why)
{
	const char *p = s;
	struct ty *t;
	struct sb back;
	bool same;

	if (s == NULL) {
		refuse(why, "no type");
		return NULL;
	}
	if ((t = parse_type(&p, 1, why)) == NULL)
		return NULL;
	if (*p != '\0') {
		ty_free(t);
		refuse(why, "unexpected text after the type");
		return NULL;
	}
	/*
	 * One spelling per tree: "decimal(18, 2)" and "timestamp" are
	 * names ty_name_parse() takes, but not what ty_print() writes.
	 */
	sb_init(&back);
	ty_print(t, &back);
	same = strcmp(back.buf, s) == 0;
	sb_release(&back);
	if (!same) {
		ty_free(t);
		refuse(why, "not the canonical spelling of the type");
		return NULL;
	}
	return t;
}
