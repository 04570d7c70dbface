/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_types.c - the type parser and the IR form of types (types.h).
 *
 * The input is tried twice: as a type name for ty_name_parse(), and,
 * when it is JSON, as an IR column for ty_from_json().
 *
 * Properties: a refusal gives a static reason, not the input; an
 * accepted name is within the spec's ranges and prints as a canonical
 * name that parses back to the same type; an IR column that is
 * accepted is within TY_MAX_DEPTH, and ty_to_json(), ty_copy() and
 * ty_from_json() give back an equal tree.
 */
#include "fuzz.h"

static void
name(const char *s)
{
	struct ty_name tn, tn2;
	const char *why = NULL;
	struct ty t;
	struct sb sb;

	if (ty_name_parse(s, &tn, &why) == -1) {
		if (why == NULL || *why == '\0')
			fuzz_fail("a type refused without a reason");
		if (why >= s && why <= s + strlen(s))
			fuzz_fail("a reason that points into the input");
		return;
	}
	if ((tn.kind == TY_DECIMAL && (tn.precision < 1 ||
	    tn.precision > TY_MAX_DECIMAL_PRECISION || tn.scale < 0 ||
	    tn.scale > tn.precision)) || ((tn.kind == TY_TIMESTAMP ||
	    tn.kind == TY_TIMESTAMP_LTZ) && (tn.precision < 0 ||
	    tn.precision > TY_MAX_TIMESTAMP_PRECISION)))
		fuzz_fail("a type parameter out of range");
	memset(&t, 0, sizeof(t));
	t.kind = tn.kind;
	t.precision = tn.precision;
	t.scale = tn.scale;
	sb_init(&sb);
	ty_name_print(&t, &sb);
	if (ty_name_parse(sb.buf, &tn2, &why) == -1 || tn2.kind != tn.kind ||
	    tn2.precision != tn.precision || tn2.scale != tn.scale)
		fuzz_fail("a canonical name that does not parse back");
	sb_release(&sb);
}

static void
column(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *j, *back;
	struct ty *t, *t2, *c;

	if ((j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err)) == NULL)
		return;
	if ((t = ty_from_json(j)) != NULL) {
		if (ty_depth(t) > TY_MAX_DEPTH)
			fuzz_fail("an IR type deeper than TY_MAX_DEPTH");
		back = ty_to_json(t, json_string_value(json_object_get(j,
		    "name")));
		if ((t2 = ty_from_json(back)) == NULL || !ty_equal(t, t2))
			fuzz_fail("ty_to_json() does not read back");
		if (!json_equal(j, back))
			fuzz_fail("an accepted IR column is not canonical");
		c = ty_copy(t);
		if (!ty_equal(t, c))
			fuzz_fail("ty_copy() is not equal");
		if (!ty_is_container(t->kind) && !ty_scalar_widens(t, c))
			fuzz_fail("a scalar type does not widen to itself");
		ty_free(c);
		ty_free(t2);
		json_decref(back);
		ty_free(t);
	}
	json_decref(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	s = fuzz_cstr(data, size);
	name(s);
	free(s);
	column(data, size);
	return 0;
}
