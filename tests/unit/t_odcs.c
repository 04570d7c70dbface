/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_odcs.c - the ODCS export's fluid.recursiveType round trip: every
 * property's string, of every example and of the live lane's nested
 * contract (depth 8, maps of arrays of structs), parses back with
 * ty_parse() to the very type fluid-check gave that column or field;
 * and ty_parse() takes one spelling only.
 */
#include <stdlib.h>

#include "fluid.h"
#include "tap.h"

static const char *const contracts[] = {
	"examples/shapes/flattened/orders-items.fluid.yaml",
	"examples/shapes/inlined/orders-landed.fluid.yaml",
	"examples/shapes/landed/orders-landed.fluid.yaml",
	"examples/shapes/reshaped/orders-reshaped.fluid.yaml",
	"tests/live/contracts/deep/nested-landed.fluid.yaml",
};

static int nchecked, deepest;

/* The fluid.recursiveType of an ODCS property, or NULL. */
static const char *
recursive_type(const json_t *p)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(p, "customProperties"), i, c)
		if (strcmp(json_string_value(json_object_get(c, "property")),
		    ODCS_RECURSIVE_TYPE) == 0)
			return json_string_value(json_object_get(c, "value"));
	return NULL;
}

/* p against t, the type fluid-check gave it; then its children. */
static void
walk(const json_t *p, const struct ty *t, const char *where)
{
	const char *s = recursive_type(p), *why = NULL;
	struct ty *back;
	struct sb sb;
	char *kid;
	size_t i;

	back = ty_parse(s, &why);
	nchecked++;
	if (ty_depth(t) > deepest)
		deepest = ty_depth(t);
	if (back == NULL || !ty_equal(back, t)) {
		ok(0, "%s: '%s' parses back to the contract's type (%s)",
		    where, s ? s : "(none)", why ? why : "a different type");
		ty_free(back);
		return;
	}
	sb_init(&sb);
	ty_print(back, &sb);
	if (strcmp(sb.buf, s) != 0)
		ok(0, "%s: '%s' prints back as '%s'", where, s, sb.buf);
	sb_release(&sb);
	ty_free(back);
	if (t->kind == TY_STRUCT) {
		for (i = 0; i < t->nfields; i++) {
			kid = xasprintf("%s.%s", where, t->fields[i].name);
			walk(json_array_get(json_object_get(p, "properties"),
			    i), t->fields[i].type, kid);
			free(kid);
		}
	} else if (t->kind == TY_ARRAY) {
		kid = xasprintf("%s[]", where);
		walk(json_object_get(p, "items"), t->element, kid);
		free(kid);
	}
}

static void
round_trip(const char *path)
{
	struct resolve_opts ro = { path, NULL, NULL };
	struct diags d;
	json_t *doc, *odcs, *b, *c, *props;
	struct ty *t;
	size_t i, j;
	int before = nchecked, failed = tap_failed;

	diags_init(&d);
	doc = stage_resolve(&ro, &d);
	if (doc == NULL || stage_check(doc, &d) == NULL ||
	    (odcs = odcs_render(doc, &d)) == NULL) {
		ok(0, "%s: exported", path);
		diag_print(&d, stdout, DIAG_FORMAT_TEXT, "# t_odcs");
		json_decref(doc);
		diags_release(&d);
		return;
	}
	json_array_foreach(json_object_get(ir_section(doc, "check"),
	    "builds"), i, b) {
		props = json_object_get(json_array_get(json_object_get(odcs,
		    "schema"), i), "properties");
		is_int(json_array_size(props), json_array_size(json_object_get(
		    json_object_get(b, "table"), "columns")),
		    "%s: a property per column", path);
		json_array_foreach(json_object_get(json_object_get(b,
		    "table"), "columns"), j, c) {
			t = ty_from_json(c);
			walk(json_array_get(props, j), t, json_string_value(
			    json_object_get(c, "name")));
			ty_free(t);
		}
	}
	ok(tap_failed == failed && nchecked > before,
	    "%s: %d fluid.recursiveType strings parse back exactly", path,
	    nchecked - before);
	json_decref(odcs);
	json_decref(doc);
	diags_release(&d);
}

/* ty_parse() refuses s. */
static void
refused(const char *s, const char *what)
{
	const char *why = NULL;
	struct ty *t = ty_parse(s, &why);

	ok(t == NULL && why != NULL, "ty_parse refuses %s: '%s'", what, s);
	ty_free(t);
}

int
main(void)
{
	struct sb deep;
	struct ty *t;
	size_t i;
	int n;

	for (i = 0; i < sizeof(contracts) / sizeof(*contracts); i++)
		round_trip(contracts[i]);
	/* The live lane's contract is the one that is nested 8 deep. */
	ok(deepest >= 8, "the round trip met a type nested %d deep", deepest);

	t = ty_parse("map<string not null, array<struct<sku: string not "
	    "null, qty: int>>> not null", NULL);
	ok(t != NULL && t->kind == TY_MAP && t->required && t->key->required &&
	    t->value->kind == TY_ARRAY && !t->value->required &&
	    t->value->element->kind == TY_STRUCT &&
	    t->value->element->nfields == 2 &&
	    strcmp(t->value->element->fields[1].name, "qty") == 0 &&
	    !t->value->element->fields[1].type->required,
	    "ty_parse reads a map of arrays of structs");
	ty_free(t);

	refused("decimal(18, 2)", "a parameter spelt otherwise");
	refused("timestamp", "a timestamp without its precision");
	refused("struct", "a container without children");
	refused("array<int", "an unclosed '<'");
	refused("struct<a: int, A: long>", "fields that differ by case");
	refused("struct<a-b: int>", "a field name that is no identifier");
	refused("map<string>", "a map without a value");
	refused("int not null not null", "trailing text");
	refused("STRING", "upper case");
	refused("", "nothing");

	/* 32 containers are allowed, 33 are not, as for the IR. */
	for (n = 32; n <= 33; n++) {
		sb_init(&deep);
		for (i = 0; i < (size_t)n; i++)
			sb_adds(&deep, "array<");
		sb_adds(&deep, "int");
		for (i = 0; i < (size_t)n; i++)
			sb_addc(&deep, '>');
		t = ty_parse(deep.buf, NULL);
		ok((t != NULL) == (n == 32), "ty_parse: %d arrays deep is %s",
		    n, n == 32 ? "read" : "refused");
		ty_free(t);
		sb_release(&deep);
	}
	return done_testing();
}
