/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_cfk_plan.c - a CFK build's plan entry (k8s_cfk_plan.h).
 */
#include <string.h>

#include "k8s_cfk_plan.h"
#include "k8s_cfk_render.h"
#include "jget.h"

json_t *
cfk_plan_build(const char *id, const json_t *dep, const json_t *res)
{
	const json_t *r, *md;
	json_t *sts = json_array(), *pool = NULL;
	const char *kind;
	size_t i;

	json_array_foreach(res, i, r) {
		kind = jstr(r, "kind");
		md = json_object_get(r, "metadata");
		if (kind != NULL && strcmp(kind, "FlinkComputePool") == 0)
			pool = json_object_get(md, "name");
		else if (kind != NULL && strcmp(kind, "FlinkStatement") == 0)
			json_array_append(sts, json_object_get(md, "name"));
	}
	return json_pack("{s:s?, s:s, s:O?, s:O?, s:O?, s:O?, s:o, s:O?}",
	    "build", id, "target", "cfk",
	    "context", json_object_get(dep, "context"),
	    "namespace", json_object_get(dep, "namespace"),
	    "flinkEnvironment", json_object_get(dep, "flinkEnvironment"),
	    "computePool", pool, "statements", sts,
	    "state", json_object_get(dep, "state"));
}

int
cfk_plan_is(const json_t *b)
{
	const char *t = jstr(b, "target");

	return t != NULL && strcmp(t, "cfk") == 0;
}

int
cfk_plan_names(const json_t *b, const json_t *r)
{
	const char *kind = jstr(r, "kind");
	const char *name = jstr(json_object_get(r, "metadata"), "name");
	const json_t *n;
	size_t i;

	if (kind == NULL || name == NULL)
		return 0;
	if (strcmp(kind, "FlinkComputePool") == 0)
		return jstr(b, "computePool") != NULL &&
		    strcmp(jstr(b, "computePool"), name) == 0;
	if (strcmp(kind, "FlinkStatement") != 0)
		return 0;
	json_array_foreach(json_object_get(b, "statements"), i, n)
		if (json_is_string(n) && strcmp(json_string_value(n),
		    name) == 0)
			return 1;
	return 0;
}

/* cfk_render.h; here, so that reading a plan does not link the renderer. */
bool
cfk_render_target(const json_t *cb)
{
	const char *t = jstr(json_object_get(cb, "deployment"), "target");

	return t != NULL && strcmp(t, "cfk") == 0;
}
