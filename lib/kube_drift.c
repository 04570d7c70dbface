/*
 * kube_drift.c - a build's live resources against fluid apply's record
 * and the contract's plan (kube_drift.h).  Reads only: every kubectl
 * run here is a get.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kube_drift.h"
#include "k8s.h"
#include "xalloc.h"

/* A string inside v, by two keys (b may be NULL), or NULL. */
static const char *
str_at(const json_t *v, const char *a, const char *b)
{
	v = json_object_get(v, a);
	return json_string_value(b != NULL ? json_object_get(v, b) : v);
}

/* The first line kubectl wrote on stderr, or why there is none. */
static char *
first_line(const struct kube_run *r)
{
	size_t n;

	if (r->err.len == 0)
		return xasprintf("kubectl exited %d and said nothing",
		    r->status);
	n = strcspn(r->err.buf, "\n");
	return xasprintf("%.*s", (int)n, r->err.buf);
}

/*
 * Read one object with its managedFields (kube_get() leaves them out,
 * as kubectl does without --show-managed-fields).  Returns 1 and *obj,
 * 0 when the API server says it does not exist, -1 with a fatal
 * diagnostic: a read that fails is no answer, whatever it was.
 */
static int
drift_get(const struct kube *k, const char *kind, const char *ns,
    const char *name, json_t **obj, struct diags *d)
{
	const char *args[] = { "get", kind, name, "--namespace", ns,
	    "--output=json", "--ignore-not-found", "--show-managed-fields",
	    NULL };
	struct kube_run r;
	json_error_t err;
	char *msg;
	int rc = -1;

	*obj = NULL;
	if (kube_exec(k, args, NULL, 0, &r) == -1) {
		if (r.spawn_errno != 0) {
			errno = r.spawn_errno;
			diag_fatal(d, "cannot run '%s' (set KUBECTL to name "
			    "kubectl) to read %s %s/%s:", k->kubectl, kind, ns,
			    name);
		} else if (r.timed_out)
			diag_fatal(d, "kubectl --context=%s did not finish "
			    "read %s %s/%s within %d s (fluid's deadline; "
			    "FLUID_KUBECTL_DEADLINE_S): killed; the cluster "
			    "is not answering, so there is no drift answer",
			    k->context, kind, ns, name, k->deadline_s);
		else {
			msg = first_line(&r);
			diag_fatal(d, "kubectl --context=%s cannot read %s "
			    "%s/%s: %s: no drift answer", k->context, kind, ns,
			    name, msg);
			free(msg);
		}
		goto out;
	}
	if (strspn(r.out.buf, " \t\r\n") == r.out.len) {
		rc = 0;
		goto out;
	}
	*obj = json_loadb(r.out.buf, r.out.len, 0, &err);
	if (!json_is_object(*obj)) {
		json_decref(*obj);
		*obj = NULL;
		diag_fatal(d, "kubectl --context=%s: read %s %s/%s: not a "
		    "JSON object: %s", k->context, kind, ns, name, err.text);
		goto out;
	}
	rc = 1;
out:
	kube_run_release(&r);
	return rc;
}

/* path (a JSON array of keys and indexes) as ".spec.job.parallelism". */
static char *
field_name(const json_t *path)
{
	struct sb s;
	const json_t *seg;
	const char *k;
	size_t i;

	sb_init(&s);
	json_array_foreach(path, i, seg) {
		if (json_is_integer(seg)) {
			sb_addf(&s, "[%lld]",
			    (long long)json_integer_value(seg));
			continue;
		}
		k = json_string_value(seg);
		/* Label and annotation keys have dots and slashes. */
		if (strpbrk(k, "./") != NULL)
			sb_addf(&s, "[\"%s\"]", k);
		else
			sb_addf(&s, ".%s", k);
	}
	return sb_steal(&s);
}

/*
 * How deep fieldsV1 owns path: the number of leading keys found as
 * "f:KEY" (an index ends the walk: lists are keyed in many ways, and
 * the owner of the list is who wrote it).
 */
static size_t
owned_depth(const json_t *fields, const json_t *path)
{
	const json_t *seg;
	char *key;
	size_t i;

	json_array_foreach(path, i, seg) {
		if (!json_is_string(seg))
			return i;
		key = xasprintf("f:%s", json_string_value(seg));
		fields = json_object_get(fields, key);
		free(key);
		if (fields == NULL)
			return i;
	}
	return i;
}

/*
 * The manager that owns path in live (a new string), or NULL: the
 * deepest owner, another manager before fluid when both own as deep,
 * the names joined with ", " when several others do.
 */
static char *
field_manager(const json_t *live, const json_t *path)
{
	const json_t *mf = json_object_get(json_object_get(live, "metadata"),
	    "managedFields"), *e;
	json_t *names, *n;
	const char *m;
	size_t i, j, depth, best = 0;
	struct sb s;
	int fluid = 0;

	json_array_foreach(mf, i, e) {
		depth = owned_depth(json_object_get(e, "fieldsV1"), path);
		if (depth > best)
			best = depth;
	}
	if (best == 0)
		return NULL;
	names = json_array();
	json_array_foreach(mf, i, e) {
		m = str_at(e, "manager", NULL);
		if (m == NULL ||
		    owned_depth(json_object_get(e, "fieldsV1"), path) != best)
			continue;
		if (strcmp(m, K8S_MANAGER) == 0) {
			fluid = 1;
			continue;
		}
		/* One manager may both Apply and Update: named once. */
		json_array_foreach(names, j, n)
			if (strcmp(json_string_value(n), m) == 0)
				break;
		if (j == json_array_size(names))
			json_array_append_new(names, json_string(m));
	}
	if (json_array_size(names) == 0 && fluid)
		json_array_append_new(names, json_string(K8S_MANAGER));
	sb_init(&s);
	json_array_foreach(names, j, n)
		sb_addf(&s, "%s%s", j > 0 ? ", " : "", json_string_value(n));
	json_decref(names);
	if (s.len == 0) {
		sb_release(&s);
		return NULL;
	}
	return sb_steal(&s);
}

/* Whether a leaf of applied is what live holds. */
static int
same_value(const json_t *applied, const json_t *live)
{
	if (json_is_number(applied) && json_is_number(live))
		return json_number_value(applied) == json_number_value(live);
	return json_equal(applied, live);
}

struct walk {
	const char	*resource;
	const json_t	*live_obj;	/* for managedFields */
	json_t		*out;
};

static void
walk_add(struct walk *w, const json_t *path, const json_t *applied,
    const json_t *live)
{
	char *name = field_name(path), *mgr = field_manager(w->live_obj,
	    path);

	json_array_append_new(w->out, json_pack("{s:s, s:s, s:O, s:O, s:s?}",
	    "resource", w->resource, "field", name, "applied", applied,
	    "live", live != NULL ? live : json_null(), "manager", mgr));
	free(name);
	free(mgr);
}

/* Every field under applied (at path) that live does not hold. */
static void
walk(struct walk *w, json_t *path, const json_t *applied, const json_t *live)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_object(applied) && json_is_object(live)) {
		json_object_foreach((json_t *)applied, k, v) {
			json_array_append_new(path, json_string(k));
			walk(w, path, v, json_object_get(live, k));
			json_array_remove(path, json_array_size(path) - 1);
		}
		return;
	}
	if (json_is_array(applied) && json_is_array(live) &&
	    json_array_size(applied) == json_array_size(live)) {
		json_array_foreach(applied, i, v) {
			json_array_append_new(path, json_integer((json_int_t)i));
			walk(w, path, v, json_array_get(live, i));
			json_array_remove(path, json_array_size(path) - 1);
		}
		return;
	}
	if (live == NULL || !same_value(applied, live))
		walk_add(w, path, applied, live);
}

void
kube_drift_fields(const char *resource, const json_t *applied,
    const json_t *live, json_t *out)
{
	static const char *const meta[] = { "labels", "annotations" };
	struct walk w = { resource, live, out };
	json_t *path = json_array(), *v;
	const json_t *am = json_object_get(applied, "metadata");
	const json_t *lm = json_object_get(live, "metadata");
	const char *k;
	size_t i;

	/* What fluid names the object by is how it was found: not compared. */
	for (i = 0; i < 2; i++) {
		if ((v = json_object_get(am, meta[i])) == NULL)
			continue;
		json_array_append_new(path, json_string("metadata"));
		json_array_append_new(path, json_string(meta[i]));
		walk(&w, path, v, json_object_get(lm, meta[i]));
		json_array_clear(path);
	}
	json_object_foreach((json_t *)applied, k, v) {
		if (strcmp(k, "metadata") == 0 || strcmp(k, "apiVersion") == 0 ||
		    strcmp(k, "kind") == 0)
			continue;
		json_array_append_new(path, json_string(k));
		walk(&w, path, v, json_object_get(live, k));
		json_array_clear(path);
	}
	json_decref(path);
}

/* The record's resource of kind (borrowed), or NULL. */
static json_t *
record_item(const json_t *list, const char *kind)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(list, "items"), i, r) {
		if (str_at(r, "kind", NULL) != NULL &&
		    str_at(r, "metadata", "name") != NULL &&
		    strcmp(str_at(r, "kind", NULL), kind) == 0)
			return r;
	}
	return NULL;
}

/*
 * The plan's resources of build id that are not "unchanged" against
 * last (NULL: every one is new), as {"resource", "action"} in out.
 */
static void
plan_changes(json_t *doc, const char *id, const json_t *last,
    enum k8s_mode mode, json_t *out)
{
	json_t *plan = k8s_plan(doc, mode, last), *e, *r;
	const json_t *labels;
	const char *build, *action;
	char *label;
	size_t i;

	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		labels = json_object_get(json_object_get(r, "metadata"),
		    "labels");
		build = str_at(labels, K8S_LABEL_BUILD, NULL);
		action = str_at(e, "action", NULL);
		if (build == NULL || strcmp(build, id) != 0 || action == NULL ||
		    strcmp(action, "unchanged") == 0)
			continue;
		label = xasprintf("%s %s/%s", str_at(r, "kind", NULL),
		    str_at(r, "metadata", "namespace"),
		    str_at(r, "metadata", "name"));
		json_array_append_new(out, json_pack("{s:s, s:s}", "resource",
		    label, "action", action));
		free(label);
	}
	json_decref(plan);
}

/*
 * The live counterpart of the recorded resource applied, compared field
 * by field into fields; -1 (fatal in d) when it cannot be read.
 */
static int
compare_live(const struct kube *k, const json_t *applied, const char *kind,
    json_t *fields, struct diags *d)
{
	const char *ns = str_at(applied, "metadata", "namespace");
	const char *name = str_at(applied, "metadata", "name");
	char *label;
	json_t *live;
	int has;

	if (ns == NULL)
		ns = "";
	if ((has = drift_get(k, kind, ns, name, &live, d)) == -1)
		return -1;
	label = xasprintf("%s %s/%s", str_at(applied, "kind", NULL), ns, name);
	if (has)
		kube_drift_fields(label, applied, live, fields);
	else
		/* Deleted: the whole resource is the drifted field. */
		json_array_append_new(fields, json_pack("{s:s, s:s, s:s, s:n, "
		    "s:n}", "resource", label, "field", "", "applied",
		    "exists", "live", "manager"));
	free(label);
	json_decref(live);
	return 0;
}

json_t *
kube_drift_build(const struct kube *k, json_t *doc, const char *id,
    const char *ns, const char *deployment, struct diags *d)
{
	char *recn = xasprintf("%s%s", deployment, KUBE_RECORD_SUFFIX);
	json_t *rec = NULL, *fd = NULL, *list = NULL, *fields = NULL;
	json_t *changes = NULL, *res = NULL, *afd, *acm;
	const char *text, *status, *mode_s, *why;
	char *label;
	enum k8s_mode mode = K8S_AMEND;
	json_error_t err;
	int has_rec, has_fd;

	if ((has_rec = drift_get(k, "configmap", ns, recn, &rec, d)) == -1 ||
	    (has_fd = drift_get(k, "flinkdeployment", ns, deployment, &fd,
	    d)) == -1)
		goto out;
	fields = json_array();
	changes = json_array();
	if (!has_rec && !has_fd) {
		/* A new deployment: everything the plan has is to come. */
		plan_changes(doc, id, NULL, K8S_AMEND, changes);
		goto answer;
	}
	if (!has_rec) {
		diag_fatal(d, "build '%s': FlinkDeployment %s/%s exists and "
		    "has no last-applied record (ConfigMap %s/%s): fluid apply "
		    "did not write it, so there is nothing to compare it with; "
		    "no drift answer", id, ns, deployment, ns, recn);
		goto out;
	}
	text = str_at(rec, "data", "resources.json");
	if (text == NULL || (list = json_loads(text, 0, &err)) == NULL ||
	    (afd = record_item(list, "FlinkDeployment")) == NULL ||
	    (acm = record_item(list, "ConfigMap")) == NULL) {
		diag_fatal(d, "build '%s': the last-applied record ConfigMap "
		    "%s/%s has no resources.json listing a ConfigMap and a "
		    "FlinkDeployment%s%s: no drift answer", id, ns, recn,
		    text != NULL && list == NULL ? ": " : "",
		    text != NULL && list == NULL ? err.text : "");
		goto out;
	}
	if ((mode_s = str_at(rec, "data", "mode")) != NULL &&
	    k8s_mode_parse(mode_s, &mode, &why) == -1)
		mode = K8S_AMEND;
	label = xasprintf("FlinkDeployment %s/%s", ns, deployment);
	if (has_fd)
		kube_drift_fields(label, afd, fd, fields);
	else
		/* Deleted: the whole resource is the drifted field. */
		json_array_append_new(fields, json_pack("{s:s, s:s, s:s, s:n, "
		    "s:n}", "resource", label, "field", "", "applied", "exists",
		    "live", "manager"));
	free(label);
	if (compare_live(k, acm, "configmap", fields, d) == -1)
		goto out;
	plan_changes(doc, id, list, mode, changes);
answer:
	status = json_array_size(fields) > 0 ? "drift" :
	    json_array_size(changes) > 0 ? "pending" : "clean";
	res = json_pack("{s:s, s:s, s:s, s:s, s:O, s:O}", "build", id,
	    "namespace", ns, "flinkDeployment", deployment, "status", status,
	    "fields", fields, "changes", changes);
out:
	json_decref(rec);
	json_decref(fd);
	json_decref(list);
	json_decref(fields);
	json_decref(changes);
	free(recn);
	return res;
}
