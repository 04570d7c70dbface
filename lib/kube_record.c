/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_record.c - the last-applied record, made and read back
 * (kube_record.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kube_record.h"
#include "jget.h"
#include "xalloc.h"

/* The ConfigMap name fluid renders: <deployment>-sql-<12 hex>. */
#define RECORD_CM_INFIX	"-sql-"
#define RECORD_CM_HEX	12
#define RECORD_FD_API	"flink.apache.org/v1beta1"

static int
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

char *
kube_record_name(const char *deployment)
{
	return xasprintf("%s%s", deployment, KUBE_RECORD_SUFFIX);
}

void
kube_record_data_digest(const json_t *cm, char out[DIGEST_STRLEN])
{
	const json_t *data = json_object_get(cm, "data");
	json_t *empty = json_object();

	digest_json(data != NULL ? data : empty, out);
	json_decref(empty);
}

json_t *
kube_record_make(const json_t *plan, const json_t *cm, const json_t *fd)
{
	char digest[DIGEST_STRLEN], *text, *name;
	json_t *item = json_copy((json_t *)cm), *list, *rec;

	/*
	 * The script stays in its own immutable ConfigMap: only its digest.
	 * A copy of cm's table, not of its data: the members deleted here
	 * are deleted from the copy only.
	 */
	kube_record_data_digest(cm, digest);
	json_object_del(item, "data");
	json_object_del(item, "binaryData");
	json_object_set_new(item, "dataDigest", json_string(digest));
	list = json_pack("{s:s, s:s, s:[o, O]}", "apiVersion", "v1", "kind",
	    "List", "items", item, fd);
	text = json_dumps(list, JSON_INDENT(2) | JSON_SORT_KEYS);
	name = kube_record_name(jstr2(fd, "metadata", "name"));
	rec = json_pack("{s:s, s:s, s:{s:s, s:s?, s:O?}, s:{s:s, s:s?, s:s?, "
	    "s:s?}}", "apiVersion", "v1", "kind", "ConfigMap",
	    "metadata", "name", name, "namespace",
	    jstr2(fd, "metadata", "namespace"), "labels",
	    json_object_get(json_object_get(fd, "metadata"), "labels"),
	    "data", "resources.json", text, "plan-digest",
	    jstr2(plan, "digest", NULL), "bundle-digest",
	    jstr2(plan, "bundleDigest", NULL), "mode",
	    jstr2(plan, "mode", NULL));
	free(text);
	free(name);
	json_decref(list);
	return rec;
}

/*
 * jansson's reason, which may quote the text it stopped at, as
 * printable ASCII on one line (in place).
 */
static const char *
plain(char *s)
{
	char *p;

	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	return s;
}

/* Whether s is "sha256:" and 64 lower-case hex digits. */
static int
digest_ok(const char *s)
{
	size_t i;

	if (s == NULL || strlen(s) != DIGEST_STRLEN - 1 ||
	    strncmp(s, "sha256:", 7) != 0)
		return 0;
	for (i = 7; s[i] != '\0'; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* Whether name is <deployment>-sql-<12 hex>, as k8s_render() names it. */
static int
cm_name_ok(const char *name, const char *deployment)
{
	size_t n = strlen(deployment), k = strlen(RECORD_CM_INFIX), i;

	if (name == NULL || strlen(name) != n + k + RECORD_CM_HEX ||
	    strncmp(name, deployment, n) != 0 ||
	    strncmp(name + n, RECORD_CM_INFIX, k) != 0)
		return 0;
	for (i = n + k; name[i] != '\0'; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
		    (name[i] >= 'a' && name[i] <= 'f')))
			return 0;
	return 1;
}

/* The only item of kind in items (borrowed), or NULL (none, or two). */
static json_t *
only_item(const json_t *items, const char *kind)
{
	json_t *it, *found = NULL;
	size_t i;

	json_array_foreach(items, i, it)
		if (same(jstr2(it, "kind", NULL), kind)) {
			if (found != NULL)
				return NULL;
			found = it;
		}
	return found;
}

/*
 * The checks of one item: an object of this apiVersion, in ns, with
 * metadata.name as the deployment's own.  NULL, or why not (static).
 */
static const char *
item_why(const json_t *it, const char *api, const char *ns,
    const char *deployment)
{
	const char *name = jstr2(it, "metadata", "name");

	if (!same(jstr2(it, "apiVersion", NULL), api))
		return "has another apiVersion";
	if (!same(jstr2(it, "metadata", "namespace"), ns))
		return "is in another namespace";
	if (same(api, RECORD_FD_API) ? !same(name, deployment) :
	    !cm_name_ok(name, deployment) || !k8s_dns_label(name, 253))
		return "has another name than fluid renders for the deployment";
	return NULL;
}

void
kube_record_release(struct kube_record *r)
{
	json_decref(r->cm);
	json_decref(r->fd);
	r->cm = r->fd = NULL;
}

int
kube_record_read(const json_t *rec, const char *ns, const char *deployment,
    struct kube_record *r, char **why)
{
	char *recn = NULL;
	const char *text, *mode, *w, *dd;
	const json_t *data, *items, *cm, *fd;
	json_t *list = NULL;
	json_error_t err;

	memset(r, 0, sizeof(*r));
	*why = NULL;
	/* What it is read by must itself be a name fluid renders. */
	if (!k8s_dns_label(ns, 63) ||
	    !k8s_dns_label(deployment, 45)) {
		*why = xstrdup("the namespace or the deployment is not a "
		    "DNS-1123 label: no record is read by it");
		return -1;
	}
	recn = kube_record_name(deployment);
	if (!json_is_object(rec) ||
	    !same(jstr2(rec, "kind", NULL), "ConfigMap") ||
	    !same(jstr2(rec, "metadata", "name"), recn) ||
	    !same(jstr2(rec, "metadata", "namespace"), ns)) {
		*why = xasprintf("what was read is not ConfigMap %s/%s", ns,
		    recn);
		goto fail;
	}
	data = json_object_get(rec, "data");
	text = jstr2(data, "resources.json", NULL);
	if (text == NULL || (list = json_loads(text, JSON_REJECT_DUPLICATES,
	    &err)) == NULL || !json_is_array(items = json_object_get(list,
	    "items")) || json_array_size(items) != 2 ||
	    (cm = only_item(items, "ConfigMap")) == NULL ||
	    (fd = only_item(items, "FlinkDeployment")) == NULL) {
		*why = xasprintf("has no resources.json listing a ConfigMap "
		    "and a FlinkDeployment%s%s", text != NULL && list == NULL ?
		    ": " : "", text != NULL && list == NULL ? plain(err.text) :
		    "");
		goto fail;
	}
	if ((w = item_why(fd, RECORD_FD_API, ns, deployment)) != NULL ||
	    !json_is_object(json_object_get(fd, "spec"))) {
		*why = xasprintf("lists a FlinkDeployment that %s", w != NULL ?
		    w : "has no spec");
		goto fail;
	}
	if ((w = item_why(cm, "v1", ns, deployment)) != NULL) {
		*why = xasprintf("lists a ConfigMap that %s", w);
		goto fail;
	}
	dd = jstr2(cm, "dataDigest", NULL);
	if (json_object_get(cm, "dataDigest") != NULL ? !digest_ok(dd) ||
	    json_object_get(cm, "data") != NULL ||
	    json_object_get(cm, "binaryData") != NULL :
	    !json_is_object(json_object_get(cm, "data"))) {
		*why = xstrdup("lists a ConfigMap with neither a data digest "
		    "(sha256:<64 hex>) nor its data");
		goto fail;
	}
	mode = jstr2(data, "mode", NULL);
	r->mode = K8S_AMEND;
	if (mode != NULL && k8s_mode_parse(mode, &r->mode, &w) == -1) {
		*why = xstrdup("has a mode that is not one of fluid plan's");
		goto fail;
	}
	r->fd = json_deep_copy(fd);
	r->cm = json_deep_copy(cm);
	if (dd != NULL) {
		memcpy(r->data_digest, dd, DIGEST_STRLEN);
		json_object_del(r->cm, "dataDigest");
	} else
		kube_record_data_digest(cm, r->data_digest);
	json_decref(list);
	free(recn);
	return 0;
fail:
	json_decref(list);
	free(recn);
	return -1;
}

json_t *
kube_record_applied(const struct kube_record *r, const json_t *rendered)
{
	char digest[DIGEST_STRLEN];
	json_t *cm = json_deep_copy(r->cm);

	if (json_object_get(cm, "data") == NULL && rendered != NULL &&
	    same(jstr2(rendered, "metadata", "name"),
	    jstr2(r->cm, "metadata", "name"))) {
		kube_record_data_digest(rendered, digest);
		if (strcmp(digest, r->data_digest) == 0)
			json_object_set(cm, "data",
			    json_object_get(rendered, "data"));
	}
	return json_pack("{s:s, s:s, s:[o, O]}", "apiVersion", "v1", "kind",
	    "List", "items", cm, r->fd);
}
