/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_last_applied.c - unit tests for stage_plan_last_applied()
 * (lib/stage_plan.c): what fluid plan --last-applied accepts.
 */
#include <stdint.h>

#include "fluid.h"
#include "tap.h"

static const json_t *
items(const char *text, size_t *bad)
{
	static json_t *v;

	json_decref(v);
	v = json_loads(text, 0, NULL);
	*bad = 42;
	return stage_plan_last_applied(v, bad);
}

int
main(void)
{
	size_t bad;

	ok(items("[{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
	    &bad) != NULL, "a JSON list of resources");
	ok(items("{\"kind\":\"List\",\"items\":[{\"kind\":\"ConfigMap\","
	    "\"metadata\":{\"name\":\"a\"}}]}", &bad) != NULL,
	    "a kubectl List");
	ok(items("[]", &bad) != NULL, "an empty list");
	ok(items("{\"kind\":\"ConfigMap\"}", &bad) == NULL &&
	    bad == SIZE_MAX, "one resource is no list");
	ok(items("\"x\"", &bad) == NULL && bad == SIZE_MAX, "a string");
	ok(items("[{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},"
	    "{\"kind\":\"ConfigMap\",\"metadata\":{}}]", &bad) == NULL &&
	    bad == 1, "the second resource has no metadata.name");
	ok(items("[{\"kind\":7,\"metadata\":{\"name\":\"a\"}}]", &bad) ==
	    NULL && bad == 0, "a kind that is no string");
	ok(items("{\"items\":{\"kind\":\"x\"}}", &bad) == NULL &&
	    bad == SIZE_MAX, "items that are no list");
	return done_testing();
}
