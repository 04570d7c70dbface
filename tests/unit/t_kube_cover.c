/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_kube_cover.c - unit tests for lib/kube_cover.c: whether what a
 * cluster holds covers what fluid applied, and the places where it
 * does not.
 */
#include <stdlib.h>
#include <string.h>

#include "kube.h"
#include "tap.h"
#include "xalloc.h"

/* Each place as "PATH applied=A live=L;", PATH the keys and indexes. */
static int
note(void *arg, const json_t *path, const json_t *applied,
    const json_t *live)
{
	struct sb *s = arg;
	const json_t *seg;
	char *a, *l;
	size_t i;

	json_array_foreach(path, i, seg)
		if (json_is_integer(seg))
			sb_addf(s, "[%lld]",
			    (long long)json_integer_value(seg));
		else
			sb_addf(s, ".%s", json_string_value(seg));
	a = applied ? json_dumps(applied, JSON_ENCODE_ANY | JSON_COMPACT) :
	    NULL;
	l = live ? json_dumps(live, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	sb_addf(s, " applied=%s live=%s;", a ? a : "-", l ? l : "-");
	free(a);
	free(l);
	return 0;
}

/* The places of applied against live (both: live's own members too). */
static char *
places(const char *applied, const char *live, int both)
{
	json_t *a = json_loads(applied, JSON_DECODE_ANY, NULL);
	json_t *l = json_loads(live, JSON_DECODE_ANY, NULL);
	json_t *path = json_array();
	struct sb s;

	sb_init(&s);
	kube_cover_walk(a, l, path, both, note, &s);
	ok(json_array_size(path) == 0, "the path is empty again after %s",
	    applied);
	json_decref(path);
	json_decref(a);
	json_decref(l);
	return sb_steal(&s);
}

static int
covers(const char *live, const char *applied)
{
	json_t *a = json_loads(applied, JSON_DECODE_ANY, NULL);
	json_t *l = json_loads(live, JSON_DECODE_ANY, NULL);
	int c = kube_covers(l, a);

	json_decref(a);
	json_decref(l);
	return c;
}

/* Stops at the first place. */
static int
stop(void *arg, const json_t *path, const json_t *applied,
    const json_t *live)
{
	(void)path;
	(void)applied;
	(void)live;
	(*(int *)arg)++;
	return 1;
}

int
main(void)
{
	char *p;
	json_t *v, *a, *l;
	int i, n = 0;

	ok(covers("{\"a\": 1, \"b\": {\"c\": \"x\", \"d\": 2}, \"e\": 3}",
	    "{\"a\": 1, \"b\": {\"c\": \"x\"}}"), "covers: members live adds");
	ok(covers("{\"n\": 1.0}", "{\"n\": 1}"), "covers: 1.0 is 1");
	ok(!covers("{\"n\": 2}", "{\"n\": 1}"), "covers: another number");
	ok(!covers("{\"a\": 1}", "{\"a\": 1, \"b\": 2}"),
	    "covers: a member live lacks");
	ok(!covers("{\"a\": \"1\"}", "{\"a\": 1}"), "covers: a string for 1");
	ok(covers("[{\"a\": 1, \"x\": 0}]", "[{\"a\": 1}]"),
	    "covers: array elements that cover");
	ok(!covers("[1, 2, 3]", "[1, 2]"), "covers: a longer array");
	ok(!covers("{\"a\": {}}", "{\"a\": []}"), "covers: another type");
	ok(!covers("{\"a\": 1}", "{\"a\": null}"), "covers: null is a value");
	ok(!covers(NULL, "{}"), "covers: nothing live");

	p = places("{\"a\": 1, \"b\": [1, {\"c\": 2}], \"d\": \"x\"}",
	    "{\"a\": 1.0, \"b\": [1, {\"c\": 3}], \"e\": 4}", 0);
	is_str(p, ".b[1].c applied=2 live=3;.d applied=\"x\" live=-;",
	    "walk: every place, one way");
	free(p);
	p = places("{\"a\": 1, \"b\": [1, {\"c\": 2}], \"d\": \"x\"}",
	    "{\"a\": 1.0, \"b\": [1, {\"c\": 3}], \"e\": {\"f\": 4}}", 1);
	is_str(p, ".b[1].c applied=2 live=3;.d applied=\"x\" live=-;"
	    ".e applied=- live={\"f\":4};",
	    "walk: both ways, live's own member as one place");
	free(p);
	p = places("{\"b\": [1, 2]}", "{\"b\": [1]}", 0);
	is_str(p, ".b applied=[1,2] live=[1];",
	    "walk: an array of another length is one place");
	free(p);
	p = places("{\"a\": 1}", "{\"a\": 1, \"z\": 2}", 0);
	is_str(p, "", "walk: none where live covers applied");
	free(p);

	a = json_pack("{s:i, s:i, s:i}", "x", 1, "y", 2, "z", 3);
	l = json_object();
	ok(kube_cover_walk(a, l, NULL, 0, stop, &n) != 0 && n == 1,
	    "walk: f's nonzero stops the walk at its first place");
	json_decref(a);
	json_decref(l);

	/*
	 * Below KUBE_COVER_DEPTH levels a value is compared whole: a member
	 * live adds there is a difference, as it is not higher up.
	 */
	for (i = 0; i < 2; i++) {
		int levels = i == 0 ? 3 : KUBE_COVER_DEPTH + 2, k;

		a = json_pack("{s:i}", "k", 1);
		l = json_pack("{s:i, s:i}", "k", 1, "extra", 2);
		for (k = 0; k < levels; k++) {
			v = json_object();
			json_object_set_new(v, "k", a);
			a = v;
			v = json_object();
			json_object_set_new(v, "k", l);
			l = v;
		}
		is_int(kube_covers(l, a), i == 0, "covers: a member added "
		    "%d levels down", levels);
		json_decref(a);
		json_decref(l);
	}
	return done_testing();
}
