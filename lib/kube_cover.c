/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_cover.c - whether what a cluster holds covers what fluid applied
 * (kube.h): the one answer for apply's check before a write, drift's
 * fields and verify's reconciled spec.  Pure JSON: no kubectl.
 */
#include "kube.h"

/* Whether a leaf of applied is what live holds. */
static int
same_leaf(const json_t *applied, const json_t *live)
{
	if (json_is_number(applied) && json_is_number(live))
		return json_number_value(applied) == json_number_value(live);
	return json_equal(applied, live);
}

/* One step down: key (or index i when key is NULL) pushed on path. */
static int	step(const json_t *, const json_t *, json_t *, const char *,
		    size_t, int, int, kube_cover_fn, void *);

static int
walk(const json_t *applied, const json_t *live, json_t *path, int both,
    int depth, kube_cover_fn f, void *arg)
{
	const char *k;
	json_t *v;
	size_t i;

	if (depth < KUBE_COVER_DEPTH && json_is_object(applied) &&
	    json_is_object(live)) {
		json_object_foreach((json_t *)applied, k, v)
			if (step(v, json_object_get(live, k), path, k, 0, both,
			    depth, f, arg) != 0)
				return 1;
		if (!both)
			return 0;
		json_object_foreach((json_t *)live, k, v)
			if (json_object_get(applied, k) == NULL &&
			    step(NULL, v, path, k, 0, both, depth, f, arg) != 0)
				return 1;
		return 0;
	}
	if (depth < KUBE_COVER_DEPTH && json_is_array(applied) &&
	    json_is_array(live) &&
	    json_array_size(applied) == json_array_size(live)) {
		json_array_foreach(applied, i, v)
			if (step(v, json_array_get(live, i), path, NULL, i,
			    both, depth, f, arg) != 0)
				return 1;
		return 0;
	}
	if (applied != NULL && live != NULL && same_leaf(applied, live))
		return 0;
	return f(arg, path, applied, live) != 0;
}

static int
step(const json_t *applied, const json_t *live, json_t *path, const char *k,
    size_t i, int both, int depth, kube_cover_fn f, void *arg)
{
	int stop;

	if (path != NULL)
		json_array_append_new(path, k != NULL ? json_string(k) :
		    json_integer((json_int_t)i));
	/* A member only live has is one place: not walked into. */
	stop = applied == NULL ? f(arg, path, NULL, live) != 0 :
	    walk(applied, live, path, both, depth + 1, f, arg);
	if (path != NULL)
		json_array_remove(path, json_array_size(path) - 1);
	return stop;
}

int
kube_cover_walk(const json_t *applied, const json_t *live, json_t *path,
    int both, kube_cover_fn f, void *arg)
{
	return walk(applied, live, path, both, 0, f, arg);
}

static int
first_miss(void *arg, const json_t *path, const json_t *applied,
    const json_t *live)
{
	(void)arg;
	(void)path;
	(void)applied;
	(void)live;
	return 1;
}

int
kube_covers(const json_t *live, const json_t *applied)
{
	return kube_cover_walk(applied, live, NULL, 0, first_miss, NULL) == 0;
}
