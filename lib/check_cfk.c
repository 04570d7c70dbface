/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_cfk.c - the CFK target's deployment and its limits (see
 * check_cfk.h; fluid-check(1), CFK TARGET, says why for each rule).
 */
#include <stdio.h>
#include <string.h>

#include "check_cfk.h"
#include "imageref.h"
#include "jget.h"

/* CFK's deployment keys: name, namespace, context and state are both's. */
const char *const chk_cfk_only_keys[] = {
	"flinkEnvironment", "cmfRestClassRef", "computePool", NULL
};
/* The operator target's own: the FlinkDeployment's pod and its state. */
const char *const chk_cfk_operator_keys[] = {
	"serviceAccount", "image", "checkpointUri", "savepointUri", "haUri",
	"stateEndpoint", "secretRefs", "taskManager", "jobManager",
	"autoscaler", NULL
};
static const char *const cfk_keys[] = {
	"name", "namespace", "context", "state", "flinkEnvironment",
	"cmfRestClassRef", "computePool", "parallelism", "maxParallelism",
	NULL
};
static const char *const pool_keys[] = {
	"name", "type", "flinkVersion", "image", "jobManager", "taskManager",
	NULL
};
/* The fields that make fluid render the pool rather than name one. */
static const char *const pool_render_keys[] = {
	"type", "flinkVersion", "image", "jobManager", "taskManager", NULL
};
static const char *const ref_keys[] = { "name", "namespace", NULL };
static const char *const res_keys[] = { "memory", "cpu", NULL };
static const char *const states[] = { "running", "suspended", NULL };
static const char *const pool_types[] = { "DEDICATED", "SHARED", NULL };

/* Why the operator target's key has no place on CFK. */
static const char *
operator_key_why(const char *key)
{
	if (strcmp(key, "serviceAccount") == 0)
		return "CMF runs the statement under its environment's "
		    "service account, and a compute pool's clusterSpec may "
		    "not set one";
	if (strcmp(key, "image") == 0)
		return "a statement runs on its compute pool's image: set "
		    "computePool.image";
	if (strcmp(key, "secretRefs") == 0)
		return "fluid gives a CMF compute pool's pods no Secrets";
	if (strcmp(key, "taskManager") == 0 || strcmp(key, "jobManager") == 0)
		return "a statement runs on its compute pool's JobManager and "
		    "TaskManagers: set computePool.jobManager and "
		    "computePool.taskManager";
	if (strcmp(key, "autoscaler") == 0)
		return "CMF runs no operator autoscaler on a statement";
	return "CMF keeps a statement's checkpoints, savepoints and HA "
	    "state where its environment and compute pool say, which "
	    "fluid does not set on this target";
}

int
chk_cfk_refuse_keys(struct chk *c, struct chk_loc *l, json_t *dep, bool cfk)
{
	const char *const *keys = cfk ? chk_cfk_operator_keys :
	    chk_cfk_only_keys;
	int n = 0;
	size_t i;

	for (i = 0; keys[i] != NULL; i++) {
		if (json_object_get(dep, keys[i]) == NULL)
			continue;
		n++;
		if (cfk)
			chk_err_at(c, l, keys[i], "is a field of management: "
			    "operator (the Apache Flink Kubernetes Operator), "
			    "not of management: cfk: %s",
			    operator_key_why(keys[i]));
		else
			chk_err_at(c, l, keys[i], "is a field of management: "
			    "cfk (Confluent for Kubernetes), not of management: "
			    "operator: set management: cfk to run this build "
			    "through CMF");
	}
	return n;
}

/* A CMF name: a-z, 0-9 and '-', a letter first, no '-' last. */
static bool
cmf_name(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max || !(s[0] >= 'a' && s[0] <= 'z') ||
	    s[n - 1] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

/* A Kubernetes object name: RFC 1123 subdomain. */
static bool
k8s_name(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max || s[0] == '-' || s[0] == '.' ||
	    s[n - 1] == '-' || s[n - 1] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

/* v<major>_<minor>, as the operator's flinkVersion enum spells them. */
static bool
flink_version(const char *s)
{
	size_t i = 1, d;

	if (s[0] != 'v')
		return false;
	for (d = 0; s[i] >= '0' && s[i] <= '9'; i++, d++)
		;
	if (d == 0 || d > 2 || s[i++] != '_')
		return false;
	for (d = 0; s[i] >= '0' && s[i] <= '9'; i++, d++)
		;
	return d > 0 && d <= 2 && s[i] == '\0';
}

/* A Flink memory size: digits and an optional unit, "1024m", "2g". */
static bool
memory_size(const char *s)
{
	static const char *const units[] = { "", "b", "k", "kb", "m", "mb",
	    "g", "gb", NULL };
	size_t i;

	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == 0 || i > 9)
		return false;
	return chk_word_index(s + i, units) >= 0;
}

/* {memory, cpu} of the JobManager or TaskManager at key. */
static json_t *
resources(struct chk *c, struct chk_loc *l, json_t *pool, const char *key,
    bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *r = chk_get_obj(c, l, pool, key, true), *cpu;
	const char *mem;
	double v;

	if (r == NULL) {
		*ok = false;
		return NULL;
	}
	chk_loc_key(l, key);
	if (chk_only_keys(c, l, r, res_keys) != 0)
		*ok = false;
	mem = chk_get_str(c, l, r, "memory", true);
	if (mem != NULL && !memory_size(mem)) {
		chk_err_at(c, l, "memory", "must be a Flink memory size: "
		    "digits and an optional unit (b, k, m, g, kb, mb, gb), "
		    "e.g. 1024m");
		mem = NULL;
	}
	cpu = json_object_get(r, "cpu");
	v = json_is_number(cpu) ? json_number_value(cpu) : 0;
	if (!json_is_number(cpu) || v <= 0 || v > 1024) {
		chk_err_at(c, l, "cpu", "%s a number of CPUs above 0 and at "
		    "most 1024 (CFK: JobManager and TaskManager resources must "
		    "be set or the pool's deployment fails)", cpu == NULL ?
		    "is required:" : "must be");
		cpu = NULL;
	}
	chk_loc_reset(l, m);
	if (mem == NULL || cpu == NULL) {
		*ok = false;
		return NULL;
	}
	return json_pack("{s:s, s:O}", "memory", mem, "cpu", cpu);
}

/* computePool: an existing pool's name, or the pool fluid renders. */
static json_t *
compute_pool(struct chk *c, struct chk_loc *l, json_t *dep, bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *p = chk_get_obj(c, l, dep, "computePool", true), *ir, *jm, *tm;
	const char *name, *type, *ver, *image;
	bool render = false;
	size_t i;

	if (p == NULL) {
		*ok = false;
		return NULL;
	}
	chk_loc_key(l, "computePool");
	if (chk_only_keys(c, l, p, pool_keys) != 0)
		*ok = false;
	name = chk_get_str(c, l, p, "name", true);
	if (name != NULL && !cmf_name(name, 45)) {
		chk_err_at(c, l, "name", "must be a CMF name: at most 45 of "
		    "a-z, 0-9 and '-', starting with a letter");
		name = NULL;
	}
	for (i = 0; pool_render_keys[i] != NULL; i++)
		if (json_object_get(p, pool_render_keys[i]) != NULL)
			render = true;
	ir = json_pack("{s:s?, s:b}", "name", name, "render", render);
	if (name == NULL)
		*ok = false;
	if (!render) {
		chk_loc_reset(l, m);
		return ir;
	}
	/* A rendered pool: everything CFK needs to start it. */
	type = chk_get_enum(c, l, p, "type", true, pool_types);
	ver = chk_get_str(c, l, p, "flinkVersion", true);
	if (ver != NULL && !flink_version(ver)) {
		chk_err_at(c, l, "flinkVersion", "must be v<major>_<minor>, "
		    "e.g. v1_19, matching the image's Flink");
		ver = NULL;
	}
	image = chk_get_str(c, l, p, "image", true);
	if (image != NULL && !imageref_pinned(image)) {
		chk_err_at(c, l, "image", "must be pinned by digest "
		    "(repository@sha256:<64 hex digits>): Kubernetes pulls by "
		    "digest, so a tag never decides what runs");
		image = NULL;
	}
	jm = resources(c, l, p, "jobManager", ok);
	tm = resources(c, l, p, "taskManager", ok);
	if (type == NULL || ver == NULL || image == NULL)
		*ok = false;
	json_object_set_new(ir, "type", type ? json_string(type) :
	    json_null());
	json_object_set_new(ir, "flinkVersion", ver ? json_string(ver) :
	    json_null());
	json_object_set_new(ir, "image", image ? json_string(image) :
	    json_null());
	json_object_set_new(ir, "jobManager", jm ? jm : json_null());
	json_object_set_new(ir, "taskManager", tm ? tm : json_null());
	chk_loc_reset(l, m);
	return ir;
}

static json_t *
rest_class(struct chk *c, struct chk_loc *l, json_t *dep, bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *r = chk_get_obj(c, l, dep, "cmfRestClassRef", true);
	const char *name, *ns;

	if (r == NULL) {
		*ok = false;
		return NULL;
	}
	chk_loc_key(l, "cmfRestClassRef");
	if (chk_only_keys(c, l, r, ref_keys) != 0)
		*ok = false;
	name = chk_get_str(c, l, r, "name", true);
	ns = chk_get_str(c, l, r, "namespace", false);
	if (name != NULL && !k8s_name(name, 253)) {
		chk_err_at(c, l, "name", "must be the name of a CMFRestClass "
		    "(a Kubernetes object name)");
		name = NULL;
	}
	if (ns != NULL && !k8s_name(ns, 63)) {
		chk_err_at(c, l, "namespace", "must be a Kubernetes namespace "
		    "name (a-z, 0-9, '-', at most 63 characters)");
		ns = NULL;
	}
	chk_loc_reset(l, m);
	if (name == NULL || (ns == NULL && json_object_get(r, "namespace") !=
	    NULL)) {
		*ok = false;
		return NULL;
	}
	return json_pack("{s:s, s:s?}", "name", name, "namespace", ns);
}

json_t *
chk_cfk_deployment(struct chk *c, struct chk_loc *l, json_t *flink, bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *dep = chk_get_obj(c, l, flink, "deployment", true), *pool, *rc;
	json_t *scale, *ir;
	const char *name, *ns, *ctx, *env, *state;
	bool good = true;

	if (dep == NULL) {
		*ok = false;
		return NULL;
	}
	chk_loc_key(l, "deployment");
	if (chk_cfk_refuse_keys(c, l, dep, true) != 0)
		good = false;
	if (chk_only_keys_except(c, l, dep, cfk_keys,
	    chk_cfk_operator_keys) != 0)
		good = false;
	name = chk_get_str(c, l, dep, "name", true);
	ns = chk_get_str(c, l, dep, "namespace", true);
	ctx = chk_get_str(c, l, dep, "context", true);
	env = chk_get_str(c, l, dep, "flinkEnvironment", true);
	state = chk_get_enum(c, l, dep, "state", false, states);
	if (name != NULL && !cmf_name(name, CHK_CFK_NAME_MAX)) {
		chk_err_at(c, l, "name", "must be at most %d of a-z, 0-9 and "
		    "'-', starting with a letter: it prefixes the "
		    "FlinkStatement names <name>-<src|snk|ins>-<12 hex>, "
		    "which CMF allows 45 characters", CHK_CFK_NAME_MAX);
		name = NULL;
	}
	if (ns != NULL && !k8s_name(ns, 63)) {
		chk_err_at(c, l, "namespace", "must be a Kubernetes namespace "
		    "name (a-z, 0-9, '-', at most 63 characters)");
		ns = NULL;
	}
	if (ctx != NULL && chk_has_control(ctx)) {
		chk_err_at(c, l, "context", "must not contain control "
		    "characters");
		ctx = NULL;
	}
	if (env != NULL && !cmf_name(env, 45)) {
		chk_err_at(c, l, "flinkEnvironment", "must be a CMF name: at "
		    "most 45 of a-z, 0-9 and '-', starting with a letter (it "
		    "also names the environment's catalog, _env_<name>)");
		env = NULL;
	}
	rc = rest_class(c, l, dep, &good);
	pool = compute_pool(c, l, dep, &good);
	scale = json_object();
	if (!chk_scale(c, l, dep, scale, true))
		good = false;
	if (name == NULL || ns == NULL || ctx == NULL || env == NULL ||
	    (state == NULL && json_object_get(dep, "state") != NULL))
		good = false;
	chk_loc_reset(l, m);
	if (!good) {
		json_decref(rc);
		json_decref(pool);
		json_decref(scale);
		*ok = false;
		return NULL;
	}
	ir = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s}", "target",
	    CHK_CFK_MANAGEMENT, "name", name, "namespace", ns, "context", ctx,
	    "flinkEnvironment", env, "cmfRestClassRef", rc, "computePool",
	    pool, "state", state ? state : "running");
	json_object_update(ir, scale);
	json_decref(scale);
	return ir;
}

bool
chk_cfk_build(struct chk *c, struct chk_loc *l, json_t *ir, int xi)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *st = json_object_get(ir, "stream"), *col;
	json_t *table = json_object_get(ir, "table");
	bool ok = true;
	size_t i;

	if (json_is_object(json_object_get(json_object_get(st, "source"),
	    "security"))) {
		chk_loc_key(l, "properties");
		chk_loc_key(l, "parameters");
		chk_loc_key(l, "flink");
		chk_loc_key(l, "source");
		chk_err(c, l, "security is not supported with management: "
		    "cfk: its credentials are read from the job pod's "
		    "variables and files, which the operator target fills "
		    "from deployment.secretRefs, and fluid gives a CMF "
		    "compute pool's pods no Secrets");
		chk_loc_reset(l, m);
		ok = false;
	}
	/*
	 * An upsert's changelog is the Kafka table's own (its change
	 * format); append-with-op's rows are a view's (sqlgen_cdc.c).
	 */
	if (jstreq(jstr(json_object_get(st, "changes"), "landing"),
	    "append-with-op")) {
		chk_loc_key(l, "properties");
		chk_loc_key(l, "landing");
		chk_err_at(c, l, "mode", "append-with-op is not supported with "
		    "management: cfk: its rows are taken out of the change "
		    "envelopes by a temporary view in the job's SQL session, "
		    "and CMF runs each statement on its own, with no session "
		    "between them: land the changes as upsert");
		chk_loc_reset(l, m);
		ok = false;
	}
	json_array_foreach(json_object_get(st, "columns"), i, col)
		if (json_is_object(json_object_get(col, "physical"))) {
			chk_loc_key(l, "properties");
			chk_err(c, l, "stream: column %s is read with another "
			    "type than it is declared (an Avro timestamp "
			    "read as timestamp_ltz), which is converted by "
			    "a temporary view in a UTC session: not "
			    "supported with management: cfk, where each "
			    "statement runs on its own",
			    json_string_value(json_object_get(col, "name")));
			chk_loc_reset(l, m);
			ok = false;
			break;
		}
	if (json_is_object(json_object_get(json_object_get(table, "catalog"),
	    "auth"))) {
		struct chk_loc xl;

		chk_loc_init(&xl);
		chk_loc_key(&xl, "exposes");
		chk_loc_idx(&xl, (size_t)xi);
		chk_loc_key(&xl, "binding");
		chk_loc_key(&xl, "catalogAuth");
		chk_err(c, &xl, "is not supported with management: cfk: the "
		    "catalog credential is read from the environment "
		    "(env:NAME) of whatever opens the catalog, and with CMF "
		    "that is CMF's statement compiler and the compute pool's "
		    "pods, to neither of which fluid gives the variable: use "
		    "a catalog the job reaches without a credential");
		chk_loc_release(&xl);
		ok = false;
	}
	return ok;
}
