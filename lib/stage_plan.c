/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage_plan.c - what fluid-k8s plan does to a rendered document (see
 * stage.h): the plan (k8s_plan()), sized against the API server's
 * limits before anything could be written.
 */
#include "ir.h"
#include "jget.h"
#include "k8s.h"
#include "plan.h"
#include "stage.h"
#include "xalloc.h"

const json_t *
stage_plan_last_applied(const json_t *v, size_t *bad)
{
	const json_t *items, *r;
	size_t i;

	items = json_is_array(v) ? v : json_object_get(v, "items");
	if (!json_is_array(items)) {
		*bad = (size_t)-1;
		return NULL;
	}
	json_array_foreach(items, i, r)
		if (jstr(r, "kind") == NULL ||
		    jstr2(r, "metadata", "name") == NULL) {
			*bad = i;
			return NULL;
		}
	return items;
}

char *
stage_plan_last_applied_error(const char *path, size_t bad)
{
	if (bad == (size_t)-1)
		return xasprintf("'%s' is not a list of resources (a JSON list, "
		    "or a kubectl List with items)", path);
	return xasprintf("'%s': resource %zu has no kind or no metadata.name",
	    path, bad);
}

json_t *
stage_plan(json_t *doc, enum k8s_mode mode, const json_t *last,
    json_t *(*record)(const json_t *, const json_t *, const json_t *),
    struct diags *d)
{
	json_t *plan;
	size_t n = d->nerrors;

	if (ir_section(doc, "k8s") == NULL || ir_section(doc,
	    "resolve") == NULL || ir_section(doc, "check") == NULL) {
		diag_fatal(d, "the document has no k8s section: fluid-k8s "
		    "plan reads the output of fluid-k8s render");
		return NULL;
	}
	plan = k8s_plan(doc, mode, last);
	plan_sizes(plan, record, NULL, d);
	if (d->nerrors > n) {
		json_decref(plan);
		return NULL;
	}
	return plan;
}
