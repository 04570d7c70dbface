/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_cfk_drift.c - a CFK build's live pool and statements against the
 * contract's render (kube_cfk_drift.h).  Everything read is untrusted:
 * labels are checked again on every object listed, a role must be one
 * fluid writes, and text from the cluster is escaped and cut.  The
 * field comparison is kube_drift.h's, handed in.
 */
#include <stdlib.h>
#include <string.h>

#include "kube_cfk_drift.h"
#include "k8s_cfk_plan.h"
#include "jget.h"
#include "k8s.h"
#include "kube_record.h"
#include "plan.h"
#include "xalloc.h"

#define WHY_MAX	300	/* bytes of kubectl's words shown */

enum { SRC, SNK, INS, NROLE };
static const char *const roles[NROLE] = { "source", "sink", "insert" };

char *
kube_cfk_text(const char *s, size_t max)
{
	struct sb b;

	sb_init(&b);
	sb_adds(&b, "");
	if (s == NULL) {
		sb_adds(&b, "(none)");
		return sb_steal(&b);
	}
	for (; *s != '\0' && b.len < max; s++)
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)
			sb_addc(&b, *s);
		else
			sb_addf(&b, "\\x%02x", (unsigned char)*s);
	if (*s != '\0')
		sb_adds(&b, "...");
	return sb_steal(&b);
}

/* Why a kubectl run failed, one escaped line (new). */
static char *
run_why(const struct kube *k, const struct kube_run *r)
{
	char *line, *t;

	if (r->spawn_errno != 0)
		return xasprintf("cannot run '%s' (set KUBECTL to name "
		    "kubectl): %s", k->kubectl, strerror(r->spawn_errno));
	if (r->timed_out)
		return xasprintf("kubectl did not finish within %d s (fluid's "
		    "deadline; FLUID_KUBECTL_DEADLINE_S): killed",
		    k->deadline_s);
	if (r->err.len == 0)
		return xasprintf("kubectl exited %d and said nothing",
		    r->status);
	line = xstrndup(r->err.buf, strcspn(r->err.buf, "\n"));
	t = kube_cfk_text(line, WHY_MAX);
	free(line);
	return t;
}

int
kube_cfk_list(const struct kube *k, const char *kind, const char *ns,
    const char *product, const char *id, int managed, json_t **items,
    char **why)
{
	/* Data only as --flag=value or after "--": never a flag. */
	char *nsf = xasprintf("--namespace=%s", ns);
	char *sel = xasprintf("--selector=%s=%s,%s=%s,%s=%s",
	    K8S_LABEL_MANAGED_BY, K8S_MANAGER, K8S_LABEL_NAME, product,
	    K8S_LABEL_BUILD, id);
	const char *args[] = { "get", nsf, sel, "--output=json",
	    managed ? "--show-managed-fields" : "--", managed ? "--" : kind,
	    managed ? kind : NULL, NULL };
	struct kube_run r;
	json_error_t err;
	json_t *list = NULL, *it;
	size_t i;
	int rc = -1;

	*items = NULL;
	*why = NULL;
	memset(&r, 0, sizeof(r));
	/* The document is untrusted: nothing but a label in the selector. */
	if (!k8s_dns_label(ns, 63) || !k8s_label_value(product) ||
	    !k8s_label_value(id)) {
		*why = xstrdup("the namespace, product or build id is not a "
		    "label value: nothing read");
		goto out;
	}
	if (kube_exec(k, args, NULL, 0, &r) == -1) {
		*why = run_why(k, &r);
		goto out;
	}
	list = json_loadb(r.out.buf, r.out.len, JSON_REJECT_DUPLICATES, &err);
	if (!json_is_array(json_object_get(list, "items"))) {
		*why = xstrdup("its answer is not a JSON list");
		goto out;
	}
	/* Taken on kind and namespace first, as kube_get_many() takes them. */
	json_array_foreach(json_object_get(list, "items"), i, it)
		if (!kube_item_is(it, kind, ns)) {
			*why = xasprintf("the List's item %zu is not a %s in "
			    "%s: nothing taken from it", i, kind, ns);
			goto out;
		}
	*items = json_array();
	json_array_foreach(json_object_get(list, "items"), i, it)
		if (json_is_string(json_object_get(json_object_get(it,
		    "metadata"), "name")) && k8s_owned(it, product, id))
			json_array_append(*items, it);
	rc = 0;
out:
	json_decref(list);
	kube_run_release(&r);
	free(nsf);
	free(sel);
	return rc;
}

/* The target entry of build id in plan (borrowed), or NULL. */
static const json_t *
targets_of(const json_t *plan, const char *id)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(plan, "targets"), i, t)
		if (id != NULL && jstreq(jstr(t, "build"), id))
			return t;
	return NULL;
}

void
kube_cfk_drift_allow(const json_t *plan, const json_t *b,
    const struct allow *al, const char *path, struct diags *d)
{
	struct allow_target *hosts;
	size_t n;

	/* Drift contacts no host the statements name: only the cluster. */
	n = cfk_allow_build(plan, b, targets_of(plan, jstr(b, "build")), al,
	    path, d, &hosts);
	cfk_allow_hosts_free(hosts, n);
}

struct answer {
	const char		*ns;
	json_t			*fields, *changes;
	kube_cfk_fields_fn	 compare;
};

static char *
label(const char *kind, const char *ns, const char *name)
{
	return xasprintf("%s %s/%s", kind, ns, name);
}

/* A whole resource as one field: missing, or left over. */
static void
whole(struct answer *a, const char *lab, const char *kind)
{
	int missing = strcmp(kind, "missing") == 0;

	json_array_append_new(a->fields, json_pack("{s:s, s:s, s:s?, s:s?, "
	    "s:n, s:s}", "resource", lab, "field", "", "applied", missing ?
	    "exists" : NULL, "live", missing ? NULL : "exists", "manager",
	    "kind", kind));
}

static void
change(struct answer *a, const char *lab, const char *action)
{
	json_array_append_new(a->changes, json_pack("{s:s, s:s}", "resource",
	    lab, "action", action));
}

/*
 * The rendered resource r against its live object, field by field
 * (kube_drift_fields(), a->compare): a field fluid owns with another value, or one
 * no manager owns while the contract changed since it was applied, is a
 * change not yet applied; any other is drift.
 */
static void
compare(struct answer *a, const char *lab, const json_t *r,
    const json_t *live)
{
	const char *rb = jstr3(r, "metadata", "annotations", K8S_ANN_BUNDLE);
	const char *lb = jstr3(live, "metadata", "annotations",
	    K8S_ANN_BUNDLE);
	/* The pool carries no bundle digest: unowned is drift there. */
	int changed = rb != NULL && (lb == NULL || strcmp(rb, lb) != 0);
	json_t *all = json_array(), *e;
	const char *mgr, *field;
	int pending = 0;
	size_t i;

	a->compare(lab, r, live, all);
	json_array_foreach(all, i, e) {
		mgr = jstr(e, "manager");
		field = jstr(e, "field");
		if ((mgr != NULL && strcmp(mgr, K8S_MANAGER) == 0) ||
		    (mgr == NULL && changed)) {
			pending = 1;
			continue;
		}
		json_object_set_new(e, "kind", json_string(field != NULL &&
		    strcmp(field, ".spec.stopped") == 0 && json_object_get(e,
		    "live") == json_true() ? "stopped" : "differs"));
		json_array_append(a->fields, e);
	}
	if (pending)
		change(a, lab, "changed");
	json_decref(all);
}

/* The role a live statement's annotation names, or -1. */
static int
role_of(const json_t *it)
{
	const char *r = jstr3(it, "metadata", "annotations", CFK_ANN_ROLE);
	int i;

	for (i = 0; r != NULL && i < NROLE; i++)
		if (strcmp(r, roles[i]) == 0)
			return i;
	return -1;
}

/* Whether name is one of b's planned statements. */
static int
planned(const json_t *b, const char *name)
{
	const json_t *n;
	size_t i;

	json_array_foreach(json_object_get(b, "statements"), i, n)
		if (jstreq(json_string_value(n), name))
			return 1;
	return 0;
}

/*
 * The INSERT CMF reports STOPPED while its spec does not say so: it was
 * stopped outside its resource (through CMF's REST API), and the
 * contract wants it running.
 */
static void
stopped_outside(struct answer *a, const char *lab, const json_t *r,
    const json_t *live)
{
	const char *phase = jstr2(live, "status", "phase");
	char *t;

	if (phase == NULL || strcmp(phase, "STOPPED") != 0 ||
	    json_object_get(json_object_get(r, "spec"), "stopped") ==
	    json_true() || json_object_get(json_object_get(live, "spec"),
	    "stopped") == json_true())
		return;
	t = kube_cfk_text(phase, 40);
	json_array_append_new(a->fields, json_pack("{s:s, s:s, s:n, s:s, s:n, "
	    "s:s}", "resource", lab, "field", ".status.phase", "applied",
	    "live", t, "manager", "kind", "stopped"));
	free(t);
}

static void
statements(struct answer *a, const json_t *plan, const json_t *b,
    const json_t *live)
{
	const json_t *r, *lv, *it;
	const char *name;
	char *lab;
	size_t i;
	int j, olds;

	for (j = 0; j < NROLE; j++) {
		name = json_string_value(json_array_get(json_object_get(b,
		    "statements"), j));
		r = plan_resource(plan, "FlinkStatement", name);
		lv = kube_item_named(live, name);
		lab = label("FlinkStatement", a->ns, name ? name : "");
		olds = 0;
		json_array_foreach(live, i, it)
			if (!planned(b, jstr2(it, "metadata", "name")) &&
			    role_of(it) == j)
				olds++;
		if (lv != NULL) {
			compare(a, lab, r, lv);
			if (j == INS)
				stopped_outside(a, lab, r, lv);
		} else if (olds > 0)
			change(a, lab, "new");	/* the script changed */
		else
			whole(a, lab, "missing");
		free(lab);
		json_array_foreach(live, i, it) {
			if (planned(b, jstr2(it, "metadata", "name")) ||
			    role_of(it) != j)
				continue;
			lab = label("FlinkStatement", a->ns, jstr2(it,
			    "metadata", "name"));
			/* Replaced by apply, or left behind by one. */
			if (lv != NULL)
				whole(a, lab, "left-over");
			else
				change(a, lab, "delete");
			free(lab);
		}
	}
	/* Labelled as the build's, of no role fluid writes. */
	json_array_foreach(live, i, it)
		if (!planned(b, jstr2(it, "metadata", "name")) &&
		    role_of(it) < 0) {
			lab = label("FlinkStatement", a->ns, jstr2(it,
			    "metadata", "name"));
			whole(a, lab, "left-over");
			free(lab);
		}
}

json_t *
kube_cfk_drift_build(const struct kube *k, const json_t *plan,
    const json_t *b, kube_cfk_fields_fn fields, struct diags *d)
{
	const char *id = jstr(b, "build"), *ns = jstr(b, "namespace");
	const char *product = jstr(plan, "product"), *pool = jstr(b,
	    "computePool");
	json_t *sts = NULL, *pools = NULL, *res = NULL, *n;
	struct answer a = { ns, NULL, NULL, fields };
	const char *status, *kind = "flinkstatement";
	char *why = NULL, *lab;
	size_t i;

	if (id == NULL || product == NULL || !k8s_dns_label(ns, 63) ||
	    json_array_size(json_object_get(b, "statements")) != NROLE) {
		diag_fatal(d, "a CFK build of the plan lacks its namespace, "
		    "product or statements: nothing read, no drift answer");
		return NULL;
	}
	if (kube_cfk_list(k, kind, ns, product, id, 1, &sts, &why) == -1 ||
	    (pool != NULL && kube_cfk_list(k, kind = "flinkcomputepool", ns,
	    product, id, 1, &pools, &why) == -1)) {
		diag_fatal(d, "kubectl --context=%s cannot list the %ss of "
		    "build '%s' in %s: %s: no drift answer", k->context, kind,
		    id, ns, why);
		goto out;
	}
	a.fields = json_array();
	a.changes = json_array();
	if (json_array_size(sts) + json_array_size(pools) == 0) {
		/* A new build: everything the render has is to come. */
		if (pool != NULL) {
			lab = label("FlinkComputePool", ns, pool);
			change(&a, lab, "new");
			free(lab);
		}
		json_array_foreach(json_object_get(b, "statements"), i, n) {
			lab = label("FlinkStatement", ns, json_string_value(n));
			change(&a, lab, "new");
			free(lab);
		}
		goto answer;
	}
	if (pool != NULL) {
		lab = label("FlinkComputePool", ns, pool);
		if (kube_item_named(pools, pool) != NULL)
			compare(&a, lab, plan_resource(plan,
			    "FlinkComputePool", pool), kube_item_named(pools, pool));
		else
			whole(&a, lab, "missing");
		free(lab);
	}
	statements(&a, plan, b, sts);
answer:
	status = json_array_size(a.fields) > 0 ? "drift" :
	    json_array_size(a.changes) > 0 ? "pending" : "clean";
	res = json_pack("{s:s, s:s, s:s, s:s?, s:O, s:s, s:O, s:O}", "build",
	    id, "namespace", ns, "target", "cfk", "computePool", pool,
	    "statements", json_object_get(b, "statements"), "status", status,
	    "fields", a.fields, "changes", a.changes);
out:
	json_decref(a.fields);
	json_decref(a.changes);
	json_decref(sts);
	json_decref(pools);
	free(why);
	return res;
}
