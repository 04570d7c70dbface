/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_ir_prune.c - unit tests for lib/ir_prune.c's byte scanners: where a
 * JSON string ends (an odd run of backslashes escapes a quote, an even
 * one does not), and where a value ends.
 */
#include <string.h>

#include "ir_prune.h"
#include "tap.h"

/* The end of the string at s as a byte-by-byte walk finds it, or -1. */
static long
walk(const char *s, size_t len)
{
	size_t i;

	for (i = 1; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return (long)i + 1;
	}
	return -1;
}

int
main(void)
{
	static const char *const cases[] = {
		"\"abc\"", "\"\"", "\"a\\\"b\"", "\"a\\\\\"x\"",
		"\"a\\\\\\\"b\"", "\"\\\\\\\\\"", "\"\\\\\"\"", "\"abc",
		"\"abc\\\"", "\"\\\"", "\"\\", "\"a\\\\\\\\\\\"\\\"c\"tail",
		"\"\\u0022\\\"\" ,",
	};
	const char *e, *v = "{\"a\":[1,\"]}\\\"\",{}],\"b\":2}";
	size_t i, cut, len;
	long want, got;
	int good = 1;
	int blank = 0;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		len = strlen(cases[i]);
		for (cut = 1; cut <= len; cut++) {
			want = walk(cases[i], cut);
			e = ir_prune_string_end(cases[i], cases[i] + cut);
			got = e == NULL ? -1 : (long)(e - cases[i]);
			if (got != want) {
				good = 0;
				printf("# case %zu cut at %zu: %ld, want %ld\n", i,
				    cut, got, want);
			}
		}
	}
	ok(good, "ir_prune_string_end: every case, cut at every byte, as a "
	    "byte-by-byte walk finds it");
	e = ir_prune_value_end(v + 5, v + strlen(v), &blank);
	is_str(e, ",\"b\":2}", "ir_prune_value_end: an array with a quoted "
	    "bracket and an escaped quote");
	ok(!blank, "no blank space seen");
	return done_testing();
}
