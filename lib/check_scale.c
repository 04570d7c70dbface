/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_scale.c - a deployment's sizing: parallelism, maxParallelism,
 * the TaskManagers and the JobManager, and the operator's autoscaler
 * (fluid-check(1), SCALING, says why for each bound).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"

/* Flink's key groups: at most 2^15 (KeyGroupRangeAssignment). */
#define MAX_KEY_GROUPS		32768
/*
 * A process below 1 GiB leaves the TaskManager no task heap: its fixed
 * parts (metaspace 256m, overhead at least 192m, framework heap and
 * off-heap 128m each, network at least 64m) take 768m before managed
 * memory.  Above 1 TiB no node holds the pod: a typo.
 */
#define MEM_MIN			(1024LL << 20)
#define MEM_MAX			(1024LL << 30)
#define CPU_MAX			1024

static const char *const tm_keys[] = { "slots", "memory", "cpu", NULL };
static const char *const jm_keys[] = { "memory", "cpu", NULL };
static const char *const as_keys[] = {
	"enabled", "minParallelism", "maxParallelism", "targetUtilization",
	NULL
};

/*
 * Bytes of a Flink MemorySize as fluid accepts it: digits and an
 * optional unit b, k, kb, m, mb, g, gb, t or tb (any case), or -1.
 */
static long long
mem_bytes(const char *s)
{
	static const char *const units[] = { "", "b", "k", "kb", "m", "mb",
	    "g", "gb", "t", "tb", NULL };
	static const int shift[] = { 0, 0, 10, 10, 20, 20, 30, 30, 40, 40 };
	long long n = 0;
	size_t i;
	int u;

	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++) {
		if (i >= 9)
			return -1;
		n = n * 10 + (s[i] - '0');
	}
	if (i == 0)
		return -1;
	for (u = 0; units[u] != NULL; u++)
		if (strcasecmp(s + i, units[u]) == 0)
			return n << shift[u];
	return -1;
}

/* A whole number at key, at least min; 1 absent, 0 set, -1 refused. */
static int
whole(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    json_int_t min, json_int_t max, json_int_t *v)
{
	int r = chk_get_int(c, l, o, key, v);

	if (r != 0)
		return r;
	if (*v < min || *v > max) {
		chk_err_at(c, l, key, "must be a whole number from %lld to "
		    "%lld, not %lld", (long long)min, (long long)max,
		    (long long)*v);
		return -1;
	}
	return 0;
}

/* {memory, cpu[, slots]} at key into ir; false after errors. */
static bool
pod(struct chk *c, struct chk_loc *l, json_t *dep, const char *key,
    json_t *ir)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *r = chk_get_obj(c, l, dep, key, false), *out, *cpu;
	bool tm = strcmp(key, "taskManager") == 0, ok = true;
	const char *mem;
	json_int_t slots;
	long long b;
	double v;
	int got;

	if (r == NULL)
		return json_object_get(dep, key) == NULL;
	chk_loc_key(l, key);
	out = json_object();
	if (chk_only_keys(c, l, r, tm ? tm_keys : jm_keys) != 0)
		ok = false;
	if (tm && (got = whole(c, l, r, "slots", 1, MAX_KEY_GROUPS,
	    &slots)) == 0)
		json_object_set_new(out, "slots", json_integer(slots));
	else if (tm && got < 0)
		ok = false;
	if ((mem = chk_get_str(c, l, r, "memory", false)) != NULL) {
		b = mem_bytes(mem);
		if (b < 0) {
			chk_err_at(c, l, "memory", "must be a Flink memory "
			    "size: digits and an optional unit (b, k, kb, m, "
			    "mb, g, gb, t, tb), e.g. 2048m");
			ok = false;
		} else if (b < MEM_MIN) {
			chk_err_at(c, l, "memory", "%s is below 1024m: Flink's "
			    "fixed memory (metaspace, overhead, framework and "
			    "network) takes 768m and leaves the process no "
			    "task heap", mem);
			ok = false;
		} else if (b > MEM_MAX) {
			chk_err_at(c, l, "memory", "%s is above 1t: no node "
			    "holds a pod that large", mem);
			ok = false;
		} else
			json_object_set_new(out, "memory", json_string(mem));
	} else if (json_object_get(r, "memory") != NULL)
		ok = false;
	if ((cpu = json_object_get(r, "cpu")) != NULL) {
		v = json_is_number(cpu) ? json_number_value(cpu) : 0;
		if (!json_is_number(cpu) || v <= 0 || v > CPU_MAX) {
			chk_err_at(c, l, "cpu", "must be a number of CPUs "
			    "above 0 and at most %d", CPU_MAX);
			ok = false;
		} else
			json_object_set(out, "cpu", cpu);
	}
	chk_loc_reset(l, m);
	json_object_set_new(ir, key, out);
	return ok;
}

/* autoscaler into ir; p and maxp the job's (0: refused). */
static bool
autoscaler(struct chk *c, struct chk_loc *l, json_t *dep, json_int_t p,
    json_int_t maxp, json_t *ir)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *a = chk_get_obj(c, l, dep, "autoscaler", false), *out, *t;
	json_int_t lo = 1, hi = maxp;
	bool ok = true;
	double v = 0.7;
	int en, r1, r2;

	if (a == NULL)
		return json_object_get(dep, "autoscaler") == NULL;
	chk_loc_key(l, "autoscaler");
	if (chk_only_keys(c, l, a, as_keys) != 0)
		ok = false;
	if ((en = chk_get_bool(c, l, a, "enabled")) < 0)
		ok = false;
	r1 = whole(c, l, a, "minParallelism", 1, MAX_KEY_GROUPS, &lo);
	r2 = whole(c, l, a, "maxParallelism", 1, MAX_KEY_GROUPS, &hi);
	if (r1 < 0 || r2 < 0)
		ok = false;
	if (r1 >= 0 && p > 0 && lo > p) {
		chk_err_at(c, l, "minParallelism", "%lld is above the "
		    "deployment's parallelism %lld: the autoscaler's bounds "
		    "must hold it", (long long)lo, (long long)p);
		ok = false;
	}
	if (r2 == 0 && p > 0 && hi < p) {
		chk_err_at(c, l, "maxParallelism", "%lld is below the "
		    "deployment's parallelism %lld: the autoscaler's bounds "
		    "must hold it", (long long)hi, (long long)p);
		ok = false;
	} else if (r2 == 0 && maxp > 0 && hi > maxp) {
		chk_err_at(c, l, "maxParallelism", "%lld is above the "
		    "deployment's maxParallelism %lld (its key groups): no "
		    "vertex can run wider", (long long)hi, (long long)maxp);
		ok = false;
	}
	if (r1 == 0 && r2 == 0 && lo > hi) {
		chk_err_at(c, l, "minParallelism", "%lld is above "
		    "maxParallelism %lld", (long long)lo, (long long)hi);
		ok = false;
	}
	if ((t = json_object_get(a, "targetUtilization")) != NULL) {
		v = json_is_number(t) ? json_number_value(t) : 0;
		if (!json_is_number(t) || v <= 0 || v > 1) {
			chk_err_at(c, l, "targetUtilization", "must be a "
			    "number above 0 and at most 1 (the share of "
			    "each vertex's time spent busy)");
			ok = false;
		}
	}
	chk_loc_reset(l, m);
	out = json_pack("{s:b, s:I, s:I, s:f}", "enabled", en == 1,
	    "minParallelism", (json_int_t)lo, "maxParallelism",
	    (json_int_t)(hi > 0 ? hi : 1), "targetUtilization", v);
	json_object_set_new(ir, "autoscaler", out);
	return ok;
}

bool
chk_scale(struct chk *c, struct chk_loc *l, json_t *dep, json_t *ir,
    bool cfk)
{
	json_int_t p = 1, maxp = 128;
	bool ok = true;
	int rp, rm;

	rm = whole(c, l, dep, "maxParallelism", 1, MAX_KEY_GROUPS, &maxp);
	rp = whole(c, l, dep, "parallelism", 1, MAX_KEY_GROUPS, &p);
	if (rm < 0 || rp < 0)
		ok = false;
	if (rm == 0)
		json_object_set_new(ir, "maxParallelism", json_integer(maxp));
	if (rp == 0)
		json_object_set_new(ir, "parallelism", json_integer(p));
	if (rp >= 0 && rm >= 0 && p > maxp) {
		chk_err_at(c, l, "parallelism", "%lld is above maxParallelism "
		    "%lld%s: Flink runs no vertex wider than its key groups",
		    (long long)p, (long long)maxp, rm == 1 ?
		    " (the default)" : "");
		ok = false;
	}
	if (cfk)
		return ok;
	ok &= pod(c, l, dep, "taskManager", ir);
	ok &= pod(c, l, dep, "jobManager", ir);
	ok &= autoscaler(c, l, dep, rp < 0 ? 0 : p, rm < 0 ? 0 : maxp, ir);
	return ok;
}
