/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * plan_resource.c - a plan's resource by kind and name (plan.h), in a
 * file of its own: fluid-verify, fluid-diff and the apply code look
 * resources up in a plan without linking plan_check.c, which makes a
 * plan again from its bundle through every stage.
 */
#include <string.h>

#include "jget.h"
#include "plan.h"

json_t *
plan_resource(const json_t *plan, const char *kind, const char *name)
{
	json_t *e, *r;
	const char *k, *n;
	size_t i;

	if (kind == NULL || name == NULL)
		return NULL;
	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		k = jstr2(r, "kind", NULL);
		n = jstr2(r, "metadata", "name");
		if (k != NULL && n != NULL && strcmp(k, kind) == 0 &&
		    strcmp(n, name) == 0)
			return r;
	}
	return NULL;
}
