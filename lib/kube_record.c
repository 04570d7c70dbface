/*
 * kube_record.c - the last-applied record's format (kube_record.h).
 * Pure JSON: nothing here runs kubectl.
 */
#include <stdlib.h>

#include "kube_record.h"
#include "xalloc.h"

static const char *
str2(const json_t *v, const char *a, const char *b)
{
	v = json_object_get(v, a);
	return json_string_value(b != NULL ? json_object_get(v, b) : v);
}

json_t *
kube_record_make(const json_t *plan, const json_t *cm, const json_t *fd)
{
	json_t *list = json_pack("{s:s, s:s, s:[O, O]}", "apiVersion", "v1",
	    "kind", "List", "items", cm, fd), *rec;
	char *text = json_dumps(list, JSON_INDENT(2) | JSON_SORT_KEYS);
	const char *fdn = str2(fd, "metadata", "name");
	char *name = xasprintf("%s-fluid-last-applied", fdn ? fdn : "");

	rec = json_pack("{s:s, s:s, s:{s:s, s:s?, s:O?}, s:{s:s?, s:s?, "
	    "s:s?, s:s?}}", "apiVersion", "v1", "kind", "ConfigMap",
	    "metadata", "name", name, "namespace", str2(fd, "metadata",
	    "namespace"), "labels", json_object_get(json_object_get(fd,
	    "metadata"), "labels"), "data", "resources.json", text,
	    "plan-digest", str2(plan, "digest", NULL), "bundle-digest",
	    str2(plan, "bundleDigest", NULL), "mode", str2(plan, "mode",
	    NULL));
	free(text);
	free(name);
	json_decref(list);
	return rec;
}
