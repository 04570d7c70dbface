/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_jget.c - unit tests for lib/jget.c and lib/clock.c: members read
 * from JSON of any shape, JSON written as fluid writes it, and the
 * clocks.
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "jget.h"
#include "tap.h"

int
main(void)
{
	json_t *o = json_pack("{s:s, s:i, s:n, s:s#}", "name", "orders",
	    "n", 3, "none", "nul", "a\0b", (size_t)3);
	json_t *arr = json_pack("[s]", "name");
	long long m0, m1;
	char *utc, *text;

	is_str(jstr(o, "name"), "orders", "jstr: a string member");
	ok(jstr(o, "n") == NULL, "jstr: a number is no string");
	ok(jstr(o, "missing") == NULL, "jstr: a missing member");
	ok(jstr(arr, "name") == NULL, "jstr: an array has no members");
	ok(jstr(NULL, "name") == NULL, "jstr: no object at all");
	is_str(jstrz(o, "name"), "orders", "jstrz: a string member");
	is_str(jstrz(o, "n"), "", "jstrz: a number reads as \"\"");
	is_str(jstrz(NULL, "x"), "", "jstrz: no object reads as \"\"");
	ok(jpresent(o, "n"), "jpresent: a number is present");
	ok(!jpresent(o, "none"), "jpresent: null reads as absent");
	ok(!jpresent(o, "missing"), "jpresent: missing");
	ok(!jpresent(NULL, "n"), "jpresent: no object");
	ok(jstreq("amend", "amend"), "jstreq: equal");
	ok(!jstreq("amend", "amend-and-build"), "jstreq: a prefix");
	ok(!jstreq(NULL, "amend"), "jstreq: s unset");
	ok(!jstreq("amend", NULL), "jstreq: word unset");

	m0 = clk_mono_ms();
	clk_sleep_ms(20);
	m1 = clk_mono_ms();
	ok(m1 - m0 >= 20, "clk_sleep_ms(20) sleeps 20 ms of the monotonic clock");
	ok(clk_mono_s() >= m0 / 1000, "clk_mono_s() is the same clock");
	ok(clk_wall_s() > 1700000000LL, "clk_wall_s() is the epoch's seconds");
	utc = clk_utc_now();
	ok(strlen(utc) == 20 && utc[4] == '-' && utc[10] == 'T' &&
	    utc[19] == 'Z', "clk_utc_now(): YYYY-MM-DDTHH:MM:SSZ (%s)", utc);
	free(utc);

	text = jtext(arr, 0);
	is_str(text, "[\n  \"name\"\n]\n", "jtext: two-space indented, "
	    "a newline at the end");
	free(text);
	json_decref(arr);
	arr = json_pack("{s:i, s:{s:[]}, s:i}", "z", 1, "a", "b", "m", 2);
	text = jtext(arr, JSON_SORT_KEYS);
	is_str(text, "{\n  \"a\": {\n    \"b\": []\n  },\n  \"m\": 2,\n"
	    "  \"z\": 1\n}\n", "jtext: the caller's flags (keys sorted)");
	free(text);
	text = jtext(arr, 0);
	is_str(text, "{\n  \"z\": 1,\n  \"a\": {\n    \"b\": []\n  },\n"
	    "  \"m\": 2\n}\n", "jtext: keys in their order without flags");
	free(text);
	json_decref(o);
	o = json_integer(7);
	text = jtext(o, 0);
	ok(text == NULL, "jtext: NULL for what json_dumps() refuses (a bare "
	    "number)");
	json_decref(o);
	json_decref(arr);
	return done_testing();
}
