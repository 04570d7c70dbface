/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_plan.c - fluid plan's document (see k8s.h and fluid(1), PLAN).
 *
 * A plan is everything apply will write, bound to the contract it came
 * from (the bundle digest) and to itself (its own digest): apply
 * refuses a plan whose content no longer gives its digest, so a plan
 * edited after review is not applied.  It is made from the k8s section
 * alone, with no clock, host or environment in it, so the same contract
 * and mode give the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "k8s_cfk_plan.h"
#include "k8s_cfk_render.h"
#include "digest.h"
#include "jget.h"
#include "ir.h"
#include "k8s.h"
#include "xalloc.h"

#define PLAN_VERSION	1

int
k8s_mode_parse(const char *s, enum k8s_mode *m, const char **why)
{
	static const char *const names[] = { "amend", "amend-and-build",
	    "create-only", "dry-run" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strcmp(s, names[i]) == 0) {
			*m = (enum k8s_mode)i;
			return 0;
		}
	if (strcmp(s, "replace") == 0 || strcmp(s, "reset") == 0)
		*why = "is refused: replace and reset would start the job "
		    "without its state, and fluid never sets anything that "
		    "drops state (a failed savepoint is never replaced with "
		    "a fresh start)";
	else
		*why = "is not a mode: amend, amend-and-build, create-only "
		    "or dry-run";
	return -1;
}

const char *
k8s_mode_name(enum k8s_mode m)
{
	switch (m) {
	case K8S_AMEND:
		return "amend";
	case K8S_AMEND_AND_BUILD:
		return "amend-and-build";
	case K8S_CREATE_ONLY:
		return "create-only";
	case K8S_DRY_RUN:
		return "dry-run";
	}
	return "amend";
}

/* Whether two resources are the same one: kind, namespace and name. */
static int
same_object(const json_t *a, const json_t *b)
{
	static const char *const keys[][2] = { { "apiVersion", NULL },
	    { "kind", NULL }, { "metadata", "namespace" },
	    { "metadata", "name" } };
	const char *x, *y;
	size_t i;

	for (i = 0; i < 4; i++) {
		x = jstr2(a, keys[i][0], keys[i][1]);
		y = jstr2(b, keys[i][0], keys[i][1]);
		if (x == NULL || y == NULL || strcmp(x, y) != 0)
			return 0;
	}
	return 1;
}

/* A copy of r without the plan digest, which every plan changes. */
static json_t *
without_plan(const json_t *r)
{
	json_t *c = json_deep_copy(r);

	json_object_del(json_object_get(json_object_get(c, "metadata"),
	    "annotations"), K8S_ANN_PLAN);
	return c;
}

/* new, changed or unchanged, against the last-applied resources. */
static const char *
action(const json_t *r, const json_t *last)
{
	const json_t *items = json_is_array(last) ? last :
	    json_object_get(last, "items");
	json_t *l, *a, *b;
	size_t i;
	int eq;

	json_array_foreach(items, i, l)
		if (same_object(r, l)) {
			a = without_plan(r);
			b = without_plan(l);
			/*
			 * A last-applied record holds the script's ConfigMap
			 * by the digest of its data (lib/kube_record.c):
			 * compare the rendered one the same way.
			 */
			if (json_is_string(json_object_get(l, "dataDigest")) &&
			    json_object_get(l, "data") == NULL) {
				char dd[DIGEST_STRLEN];
				json_t *empty = json_object(),
				    *data = json_object_get(a, "data");

				digest_json(data != NULL ? data : empty, dd);
				json_decref(empty);
				json_object_del(a, "data");
				json_object_del(a, "binaryData");
				json_object_set_new(a, "dataDigest",
				    json_string(dd));
			}
			eq = json_equal(a, b);
			json_decref(a);
			json_decref(b);
			return eq ? "unchanged" : "changed";
		}
	return "new";
}

/*
 * A copy of o's member key (an object) in the copy o, replacing it there,
 * or NULL.  json_copy() copies one object's table, not its values.
 */
static json_t *
copy_member(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key), *c;

	if (!json_is_object(v) || (c = json_copy(v)) == NULL)
		return NULL;
	json_object_set_new(o, key, c);
	return c;
}

/*
 * The plan without its digest and each resource's plan annotation.  Only
 * the path to what is left out is copied; the rest (the SQL, the bundle:
 * megabytes for a large contract) is shared with plan, which is never
 * changed.
 */
json_t *
k8s_plan_content(const json_t *plan)
{
	json_t *c = json_copy((json_t *)plan), *res, *e, *r, *m, *a;
	size_t i;

	if (c == NULL)
		return NULL;
	json_object_del(c, "digest");
	res = json_object_get(c, "resources");
	if (!json_is_array(res) || (res = json_copy(res)) == NULL)
		return c;
	json_object_set_new(c, "resources", res);
	for (i = 0; i < json_array_size(res); i++) {
		e = json_array_get(res, i);
		if (!json_is_object(e) || (e = json_copy(e)) == NULL)
			continue;
		json_array_set_new(res, i, e);
		if ((r = copy_member(e, "resource")) != NULL &&
		    (m = copy_member(r, "metadata")) != NULL &&
		    (a = copy_member(m, "annotations")) != NULL)
			json_object_del(a, K8S_ANN_PLAN);
	}
	return c;
}

void
k8s_plan_digest(const json_t *plan, char out[DIGEST_STRLEN])
{
	json_t *c = k8s_plan_content(plan);

	digest_json(c, out);
	json_decref(c);
}

/*
 * What apply checks against the allowlists that the resources do not
 * say (a new reference): where the job sends its records, its catalog
 * credential and its own SQL.  The image, service account, Secrets,
 * namespace and context are read from the resources and "builds", the
 * very values that are written.
 */
json_t *
k8s_targets(const char *id, const json_t *cb)
{
	const json_t *cat = json_object_get(json_object_get(cb, "table"),
	    "catalog");
	const json_t *auth = json_object_get(cat, "auth");
	const json_t *src = json_object_get(json_object_get(cb, "stream"),
	    "source");
	const char *type = json_string_value(json_object_get(auth, "type"));
	const json_t *var = json_object_get(auth, type != NULL &&
	    strcmp(type, "oauth2") == 0 ? "credentialEnv" : "tokenEnv");

	return json_pack("{s:s?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, "
	    "s:O*}", "build", id,
	    "catalog", json_object_get(cat, "uri"),
	    "tokenEndpoint", json_object_get(auth, "oauth2ServerUri"),
	    "catalogAuth", var,
	    "hosts", json_object_get(cat, "hosts"),
	    "bootstrapServers", json_object_get(src, "bootstrapServers"),
	    "schemaRegistryUrl", json_object_get(src, "schemaRegistryUrl"),
	    "sql", json_object_get(cb, "sql"),
	    /* The Kafka credential variables (source.security). */
	    "sourceSecretRefs", json_object_get(json_object_get(src,
	    "security"), "variables"));
}

json_t *
k8s_plan_body(json_t *doc, enum k8s_mode mode, const json_t *last)
{
	json_t *builds = json_array(), *resources = json_array(), *plan;
	json_t *tg = json_array(), *b, *r, *dep, *res;
	const char *id;
	size_t i, j;
	bool cfk;

	json_array_foreach(json_object_get(ir_section(doc, "k8s"), "builds"),
	    i, b) {
		id = json_string_value(json_object_get(b, "build"));
		dep = ir_check_build(doc, id ? id : "");
		json_array_append_new(tg, k8s_targets(id, dep));
		r = json_object_get(b, "resources");
		cfk = cfk_render_target(dep);
		dep = json_object_get(dep, "deployment");
		if (cfk)
			json_array_append_new(builds, cfk_plan_build(id, dep,
			    r));
		else
			json_array_append_new(builds, json_pack("{s:s?, s:O?, s:O?, "
		    "s:O?, s:O?, s:O?}", "build", id, "context",
		    json_object_get(dep, "context"), "namespace",
		    json_object_get(dep, "namespace"), "flinkDeployment",
		    json_object_get(dep, "name"), "configMap",
		    json_object_get(json_object_get(json_array_get(r, 0),
		    "metadata"), "name"), "state", json_object_get(dep,
		    "state")));
		json_array_foreach(r, j, dep)
			json_array_append_new(resources, json_pack("{s:s, s:O}",
			    "action", action(dep, last), "resource", dep));
	}
	/*
	 * The resources are copies: the plan digest goes on the plan's,
	 * not on the k8s section's.  "digest" is set by k8s_plan_seal(),
	 * in its place.  The bundle is what apply renders again.
	 */
	res = ir_section(doc, "resolve");
	plan = json_pack("{s:i, s:O?, s:s, s:O?, s:s, s:o, s:o, s:o, "
	    "s:{s:O?, s:O?, s:O?}}", "fluidPlan",
	    PLAN_VERSION, "product", json_object_get(json_object_get(ir_section(doc,
	    "check"), "product"), "id"), "mode", k8s_mode_name(mode), "bundleDigest",
	    json_object_get(res, "digest"), "digest",
	    "", "builds", builds, "targets", tg, "resources",
	    json_deep_copy(resources), "bundle", "kind", json_object_get(res,
	    "kind"), "schemaVersion", json_object_get(res, "schemaVersion"),
	    "document", json_object_get(res, "document"));
	json_decref(resources);
	return plan;
}

void
k8s_plan_seal(json_t *plan)
{
	char digest[DIGEST_STRLEN];
	json_t *b, *r;
	const char *kind;
	size_t i;

	k8s_plan_digest(plan, digest);
	json_array_foreach(json_object_get(plan, "resources"), i, b) {
		r = json_object_get(b, "resource");
		kind = jstr2(r, "kind", NULL);
		if (kind != NULL && strcmp(kind, "FlinkDeployment") == 0)
			json_object_set_new(json_object_get(json_object_get(r,
			    "metadata"), "annotations"), K8S_ANN_PLAN,
			    json_string(digest));
	}
	json_object_set_new(plan, "digest", json_string(digest));
}

json_t *
k8s_plan(json_t *doc, enum k8s_mode mode, const json_t *last)
{
	json_t *plan = k8s_plan_body(doc, mode, last);

	k8s_plan_seal(plan);
	return plan;
}
