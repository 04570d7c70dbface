/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_drift.c - a build's live resources against fluid apply's record
 * and the contract's plan (kube_drift.h).  Reads only: every kubectl
 * run here is a get, by names fluid renders (past 8, a LIST of the kind
 * whose other objects are skipped: kube_get_many()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allow.h"
#include "k8s_cfk_plan.h"
#include "jget.h"
#include "ir.h"
#include "k8s.h"
#include "kube_cfk_drift.h"
#include "kube_drift.h"
#include "kube_record.h"
#include "xalloc.h"

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
 * Read the objects of kind named by names (n) in ns with their
 * managedFields (kube_get() leaves them out, as kubectl does without
 * --show-managed-fields), in one kubectl run.  Returns 0 and *found (new:
 * name -> object, for those that exist); -1 with a fatal diagnostic: a
 * read that fails is no answer, whatever it was.
 */
static int
drift_read(const struct kube *k, const char *kind, const char *ns,
    const char *const *names, size_t n, json_t **found, struct diags *d)
{
	struct kube_run r;
	char *msg, *why = NULL, *what;
	int rc;

	rc = kube_get_many(k, kind, ns, names, n, 1, found, &r, &why);
	if (rc == 0) {
		kube_run_release(&r);
		return 0;
	}
	what = n == 1 ? xasprintf("%s %s/%s", kind, ns, names[0]) :
	    xasprintf("%s %s/%s and %zu more", kind, ns, names[0], n - 1);
	if (rc == -2)
		diag_fatal(d, "kubectl --context=%s: read %s: %s", k->context,
		    what, why);
	else if (r.spawn_errno != 0) {
		errno = r.spawn_errno;
		diag_fatal(d, "cannot run '%s' (set KUBECTL to name kubectl) to "
		    "read %s:", k->kubectl, what);
	} else if (r.timed_out)
		diag_fatal(d, "kubectl --context=%s did not finish read %s "
		    "within %d s (fluid's deadline; FLUID_KUBECTL_DEADLINE_S): "
		    "killed; the cluster is not answering, so there is no "
		    "drift answer", k->context, what, k->deadline_s);
	else {
		msg = first_line(&r);
		diag_fatal(d, "kubectl --context=%s cannot read %s: %s: no "
		    "drift answer", k->context, what, msg);
		free(msg);
	}
	kube_run_release(&r);
	free(what);
	free(why);
	return -1;
}

int
kube_drift_answer(const char *buf, size_t len, json_t **obj,
    json_error_t *err)
{
	size_t i;

	*obj = NULL;
	/* --ignore-not-found: nothing at all when it does not exist. */
	for (i = 0; i < len; i++)
		if (strchr(" \t\r\n", buf[i]) == NULL || buf[i] == '\0')
			break;
	if (i == len)
		return 0;
	*obj = json_loadb(buf, len, JSON_REJECT_DUPLICATES, err);
	if (!json_is_object(*obj)) {
		if (*obj != NULL)
			snprintf(err->text, sizeof(err->text), "%s",
			    "not an object");
		json_decref(*obj);
		*obj = NULL;
		return -1;
	}
	return 1;
}

/* path (a JSON array of keys and indexes) as ".spec.job.parallelism". */
static char *
field_name(const json_t *path)
{
	struct sb s;
	const json_t *seg;
	json_t *str;
	const char *k;
	char *q;
	size_t i;

	sb_init(&s);
	json_array_foreach(path, i, seg) {
		if (json_is_integer(seg)) {
			sb_addf(&s, "[%lld]",
			    (long long)json_integer_value(seg));
			continue;
		}
		k = json_string_value(seg);
		/*
		 * Label and annotation keys have dots and slashes; a key
		 * someone else wrote may hold anything: quoted as a JSON
		 * string, in ASCII, so that a name is one unambiguous line.
		 */
		if (*k == '\0' || strspn(k, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(k)) {
			str = json_string(k);
			q = json_dumps(str, JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
			sb_addf(&s, "[%s]", q != NULL ? q : "\"?\"");
			free(q);
			json_decref(str);
		} else
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
		m = jstr2(e, "manager", NULL);
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

struct walk {
	const char	*resource;
	const json_t	*live_obj;	/* for managedFields */
	json_t		*out;
};

/* One field: applied or live is NULL when that side does not have it. */
static int
walk_add(void *arg, const json_t *path, const json_t *applied,
    const json_t *live)
{
	struct walk *w = arg;
	char *name = field_name(path), *mgr = field_manager(w->live_obj,
	    path);

	json_array_append_new(w->out, json_pack("{s:s, s:s, s:O, s:O, s:s?}",
	    "resource", w->resource, "field", name, "applied",
	    applied != NULL ? applied : json_null(), "live",
	    live != NULL ? live : json_null(), "manager", mgr));
	free(name);
	free(mgr);
	return 0;
}

/* A shallow copy of obj without the keys fluid does not compare. */
static json_t *
compared(const json_t *obj)
{
	static const char *const skip[] = { "apiVersion", "kind", "metadata",
	    "status" };
	json_t *c = json_object();
	size_t i;

	if (json_is_object(obj))
		json_object_update(c, (json_t *)obj);
	for (i = 0; i < sizeof(skip) / sizeof(*skip); i++)
		json_object_del(c, skip[i]);
	return c;
}

void
kube_drift_fields(const char *resource, const json_t *applied,
    const json_t *live, json_t *out)
{
	static const char *const meta[] = { "labels", "annotations" };
	struct walk w = { resource, live, out };
	json_t *path = json_array(), *v, *a, *l;
	const json_t *am = json_object_get(applied, "metadata");
	const json_t *lm = json_object_get(live, "metadata");
	size_t i;

	/*
	 * What fluid names the object by is how it was found: not compared.
	 * Others may add labels and annotations (kubectl, the operator).
	 */
	for (i = 0; i < 2; i++) {
		if ((v = json_object_get(am, meta[i])) == NULL)
			continue;
		json_array_append_new(path, json_string("metadata"));
		json_array_append_new(path, json_string(meta[i]));
		kube_cover_walk(v, json_object_get(lm, meta[i]), path, 0,
		    walk_add, &w);
		json_array_clear(path);
	}
	/* The rest both ways: a field someone added is drift too. */
	a = compared(applied);
	l = compared(live);
	kube_cover_walk(a, l, path, 1, walk_add, &w);
	json_decref(a);
	json_decref(l);
	json_decref(path);
}

/* The rendered resource of build id and kind (borrowed), or NULL. */
static const json_t *
rendered(json_t *doc, const char *id, const char *kind)
{
	const json_t *b, *r;
	size_t i, j;

	json_array_foreach(json_object_get(ir_section(doc, "k8s"), "builds"),
	    i, b) {
		if (!json_is_string(json_object_get(b, "build")) ||
		    strcmp(jstr2(b, "build", NULL), id) != 0)
			continue;
		json_array_foreach(json_object_get(b, "resources"), j, r)
			if (jstr2(r, "kind", NULL) != NULL &&
			    strcmp(jstr2(r, "kind", NULL), kind) == 0)
				return r;
	}
	return NULL;
}

/*
 * The resources of build id in plan (k8s_plan() against every build's
 * record at once: an action compares each resource with the recorded
 * one of its own name only, and the mode does not change it) that are
 * not "unchanged", as {"resource", "action"} in out.
 */
static void
plan_changes(const json_t *plan, const char *id, json_t *out)
{
	json_t *e, *r;
	const json_t *labels;
	const char *build, *action;
	char *label;
	size_t i;

	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		labels = json_object_get(json_object_get(r, "metadata"),
		    "labels");
		build = jstr2(labels, K8S_LABEL_BUILD, NULL);
		action = jstr2(e, "action", NULL);
		if (build == NULL || strcmp(build, id) != 0 || action == NULL ||
		    strcmp(action, "unchanged") == 0)
			continue;
		label = xasprintf("%s %s/%s", jstr2(r, "kind", NULL),
		    jstr2(r, "metadata", "namespace"),
		    jstr2(r, "metadata", "name"));
		json_array_append_new(out, json_pack("{s:s, s:s}", "resource",
		    label, "action", action));
		free(label);
	}
}

/* A resource gone: the whole resource is the drifted field. */
static void
gone(const char *label, json_t *fields)
{
	json_array_append_new(fields, json_pack("{s:s, s:s, s:s, s:n, s:n}",
	    "resource", label, "field", "", "applied", "exists", "live",
	    "manager"));
}

/*
 * The live script ConfigMap against the recorded one (applied: with its
 * data when the contract still renders them, else without, and then the
 * data are compared by digest), field by field into fields; live is
 * what was read (NULL: it does not exist).
 */
static void
compare_cm(const json_t *applied, const char *data_digest,
    const json_t *live, json_t *fields)
{
	const char *ns = jstr2(applied, "metadata", "namespace");
	const char *name = jstr2(applied, "metadata", "name");
	char *label, *mgr, live_digest[DIGEST_STRLEN];
	json_t *cmp, *path;

	label = xasprintf("ConfigMap %s/%s", ns, name);
	if (live == NULL) {
		gone(label, fields);
		free(label);
		return;
	}
	cmp = json_deep_copy(live);
	if (json_object_get(applied, "data") == NULL) {
		kube_record_data_digest(live, live_digest);
		if (strcmp(live_digest, data_digest) != 0) {
			/* The data applied are known by digest only. */
			path = json_pack("[s]", "data");
			mgr = field_manager(live, path);
			json_array_append_new(fields, json_pack("{s:s, s:s, "
			    "s:s, s:s, s:s?}", "resource", label, "field",
			    ".data", "applied", data_digest, "live",
			    live_digest, "manager", mgr));
			free(mgr);
			json_decref(path);
		}
		json_object_del(cmp, "data");
	}
	kube_drift_fields(label, applied, cmp, fields);
	json_decref(cmp);
	free(label);
}

/* One build: what it is read by, and its record once read. */
struct dbuild {
	const char	*id, *ns, *deployment, *context;
	char		*recn;
	struct kube	 k;
	size_t		 g;		/* its group */
	bool		 cfk;		/* read by kube_cfk_drift.h instead */
	struct kube_record r;
	json_t		*applied;	/* the record's List, or NULL: new */
};

/*
 * The builds that share a context and a namespace: each kind is read for
 * all of them in one kubectl run.  Names -> objects read (new).
 */
struct dgroup {
	const char	*context, *ns;
	size_t		 first;		/* whose kube runs */
	json_t		*recs, *fds, *cms;
};

/*
 * Check b's record (rec, NULL when there is none) against its
 * deployment (fd, likewise) and keep it in b.  -1 with a fatal
 * diagnostic when there is no answer.
 */
static int
take_record(json_t *doc, struct dbuild *b, const json_t *rec,
    const json_t *fd, struct diags *d)
{
	char *why = NULL;

	if (rec == NULL && fd == NULL)
		return 0;	/* a new deployment */
	if (rec == NULL) {
		diag_fatal(d, "build '%s': FlinkDeployment %s/%s exists and "
		    "has no last-applied record (ConfigMap %s/%s): fluid apply "
		    "did not write it, so there is nothing to compare it with; "
		    "no drift answer", b->id, b->ns, b->deployment, b->ns,
		    b->recn);
		return -1;
	}
	if (kube_record_read(rec, b->ns, b->deployment, &b->r, &why) == -1) {
		diag_fatal(d, "build '%s': the last-applied record ConfigMap "
		    "%s/%s %s: it is not fluid's record of this deployment, so "
		    "nothing of it is read; no drift answer", b->id, b->ns,
		    b->recn, why);
		free(why);
		return -1;
	}
	b->applied = kube_record_applied(&b->r, rendered(doc, b->id,
	    "ConfigMap"));
	return 0;
}

/* The recorded ConfigMap of b (borrowed). */
static const json_t *
applied_cm(const struct dbuild *b)
{
	return json_array_get(json_object_get(b->applied, "items"), 0);
}

/*
 * The answer for b (a new reference; see kube_drift.h) from what was
 * read: fd and cm, NULL when they do not exist; plan is the contract's
 * against every record (plan_changes()).
 */
static json_t *
answer(const json_t *plan, const struct dbuild *b, const json_t *fd,
    const json_t *cm)
{
	json_t *fields = json_array(), *changes = json_array(), *res;
	const char *status;
	char *label;

	if (b->applied == NULL) {
		/* A new deployment: everything the plan has is to come. */
		plan_changes(plan, b->id, changes);
	} else {
		label = xasprintf("FlinkDeployment %s/%s", b->ns,
		    b->deployment);
		if (fd != NULL)
			kube_drift_fields(label, b->r.fd, fd, fields);
		else
			gone(label, fields);
		free(label);
		compare_cm(applied_cm(b), b->r.data_digest, cm, fields);
		plan_changes(plan, b->id, changes);
	}
	status = json_array_size(fields) > 0 ? "drift" :
	    json_array_size(changes) > 0 ? "pending" : "clean";
	res = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "build", b->id,
	    "namespace", b->ns, "flinkDeployment", b->deployment, "status",
	    status, "fields", fields, "changes", changes);
	return res;
}

/*
 * Every build's record and FlinkDeployment, then the ConfigMaps the
 * records name: per group, one kubectl run each, by names fluid renders
 * or a checked record names.  -1 (fatal in d) when there is no answer.
 */
static int
read_all(json_t *doc, struct dbuild *bs, size_t n, struct dgroup *gs,
    size_t ng, struct diags *d)
{
	const char **rn = xcalloc(n + 1, sizeof(*rn));
	const char **fn = xcalloc(n + 1, sizeof(*fn));
	size_t g, i, nr, nf;
	int rc = -1;

	for (g = 0; g < ng; g++) {
		for (i = nr = nf = 0; i < n; i++)
			if (bs[i].g == g) {
				kube_names_add(rn, &nr, bs[i].recn);
				kube_names_add(fn, &nf, bs[i].deployment);
			}
		if (drift_read(&bs[gs[g].first].k, "configmap", gs[g].ns, rn,
		    nr, &gs[g].recs, d) == -1 ||
		    drift_read(&bs[gs[g].first].k, "flinkdeployment",
		    gs[g].ns, fn, nf, &gs[g].fds, d) == -1)
			goto out;
	}
	for (i = 0; i < n; i++)
		if (!bs[i].cfk && take_record(doc, &bs[i],
		    json_object_get(gs[bs[i].g].recs,
		    bs[i].recn), json_object_get(gs[bs[i].g].fds,
		    bs[i].deployment), d) == -1)
			goto out;
	/* kube_record_read() checked the names: the deployment's own. */
	for (g = 0; g < ng; g++) {
		for (i = nr = 0; i < n; i++)
			if (bs[i].g == g && bs[i].applied != NULL)
				kube_names_add(rn, &nr, jstr2(applied_cm(&bs[i]),
				    "metadata", "name"));
		if (nr == 0)
			gs[g].cms = json_object();
		else if (drift_read(&bs[gs[g].first].k, "configmap", gs[g].ns,
		    rn, nr, &gs[g].cms, d) == -1)
			goto out;
	}
	rc = 0;
out:
	free(rn);
	free(fn);
	return rc;
}

/* The plan's FlinkDeployment of build b (borrowed), or NULL. */
static const json_t *
plan_fd(const json_t *plan, const json_t *b)
{
	const char *name = jstr2(b, "flinkDeployment", NULL), *kind, *n;
	json_t *e, *r;
	size_t i;

	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		kind = jstr2(r, "kind", NULL);
		n = jstr2(r, "metadata", "name");
		if (name != NULL && kind != NULL && n != NULL &&
		    strcmp(kind, "FlinkDeployment") == 0 && strcmp(n, name) == 0)
			return r;
	}
	return NULL;
}

/*
 * The deployment-target allowlists (ALLOW_CMD_DIFF: context, namespace,
 * image, service account, Secrets), for every build, before any kubectl
 * run: fluid reads no cluster it would not write to.  Refusals are
 * errors in d, placed at path.
 */
static void
check_allow(const json_t *plan, const char *path, char *(*env)(const char *),
    struct diags *d)
{
	struct allow al;
	struct allow_refusals r;
	struct allow_targets t;
	struct allow_target *sec;
	const json_t *fd, *pod, *b, *v, *spec;
	const char *id;
	size_t i, j, n;

	allow_load(&al, env);
	allow_refusals_init(&r);
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		if (cfk_plan_is(b)) {
			/* A CFK build's resources (kube_cfk_drift.h). */
			kube_cfk_drift_allow(plan, b, &al, path, d);
			continue;
		}
		id = jstr2(b, "build", NULL);
		fd = plan_fd(plan, b);
		spec = json_object_get(fd, "spec");
		memset(&t, 0, sizeof(t));
		t.context = (struct allow_target){ jstr2(b, "context", NULL),
		    "deployment.context" };
		t.ns = (struct allow_target){ jstr2(fd, "metadata",
		    "namespace"), "deployment.namespace" };
		t.image = (struct allow_target){ jstr2(spec, "image", NULL),
		    "deployment.image" };
		t.service_account = (struct allow_target){ jstr2(spec,
		    "serviceAccount", NULL), "deployment.serviceAccount" };
		pod = json_array_get(json_object_get(json_object_get(
		    json_object_get(spec, "podTemplate"), "spec"),
		    "containers"), 0);
		sec = xcalloc(json_array_size(json_object_get(pod,
		    "envFrom")) + 1, sizeof(*sec));
		n = 0;
		json_array_foreach(json_object_get(pod, "envFrom"), j, v)
			sec[n++] = (struct allow_target){ jstr2(v,
			    "secretRef", "name"), "deployment.secretRefs" };
		t.secrets = sec;
		t.nsecrets = n;
		t.product = jstr2(plan, "product", NULL);
		t.build = id;
		allow_check(&al, ALLOW_CMD_DIFF, &t, &r);
		for (j = 0; j < r.n; j++)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s: %s",
			    id ? id : "", r.v[j].where, r.v[j].msg);
		allow_refusals_release(&r);
		allow_refusals_init(&r);
		free(sec);
	}
	allow_refusals_release(&r);
	allow_release(&al);
}

static int
same_s(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

json_t *
kube_drift_run(json_t *doc, const char *contract, const char *path,
    char *(*env)(const char *), struct diags *d)
{
	json_t *plan, *builds = NULL, *b, *e, *res = NULL, *last = NULL;
	json_t *against = NULL;
	size_t i, g, n, ng = 0, counts[3] = { 0, 0, 0 };
	struct dbuild *bs = NULL;
	struct dgroup *gs = NULL;
	const char *st;

	/* The plan says each build's context, namespace and deployment. */
	plan = k8s_plan(doc, K8S_DRY_RUN, NULL);
	check_allow(plan, path, env, d);
	if (diag_status(d) != 0)
		goto out;
	n = json_array_size(json_object_get(plan, "builds"));
	bs = xcalloc(n + 1, sizeof(*bs));
	gs = xcalloc(n + 1, sizeof(*gs));
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		bs[i].id = jstr2(b, "build", NULL);
		bs[i].ns = jstr2(b, "namespace", NULL);
		bs[i].deployment = jstr2(b, "flinkDeployment", NULL);
		bs[i].context = jstr2(b, "context", NULL);
		if ((bs[i].cfk = cfk_plan_is(b))) {
			/* Its own reads, by label (kube_cfk_drift.h). */
			bs[i].g = SIZE_MAX;
			if (kube_init(&bs[i].k, bs[i].context, env, d) == -1)
				goto out;
			continue;
		}
		/* Read by names fluid renders, or not at all. */
		if (!k8s_dns_label(bs[i].ns, 63) ||
		    !k8s_dns_label(bs[i].deployment, 45)) {
			diag_fatal(d, "build '%s': namespace '%s' or deployment "
			    "'%s' is not a DNS-1123 label: nothing read, no "
			    "drift answer", bs[i].id, bs[i].ns ? bs[i].ns : "",
			    bs[i].deployment ? bs[i].deployment : "");
			goto out;
		}
		bs[i].recn = kube_record_name(bs[i].deployment);
		if (kube_init(&bs[i].k, bs[i].context, env, d) == -1)
			goto out;
		for (g = 0; g < ng; g++)
			if (same_s(gs[g].context, bs[i].context) &&
			    same_s(gs[g].ns, bs[i].ns))
				break;
		if (g == ng)
			gs[ng++] = (struct dgroup){ bs[i].context, bs[i].ns, i,
			    NULL, NULL, NULL };
		bs[i].g = g;
	}
	if (read_all(doc, bs, n, gs, ng, d) == -1)
		goto out;
	/* One plan against every record, not one a build. */
	last = json_array();
	for (i = 0; i < n; i++)
		json_array_extend(last, json_object_get(bs[i].applied,
		    "items"));
	against = k8s_plan(doc, K8S_AMEND, last);
	builds = json_array();
	for (i = 0; i < n; i++) {
		g = bs[i].g;
		if (bs[i].cfk) {
			e = kube_cfk_drift_build(&bs[i].k, plan,
			    json_array_get(json_object_get(plan, "builds"), i),
			    kube_drift_fields, d);
			if (e == NULL)
				goto out;
		} else
			e = answer(against, &bs[i], json_object_get(gs[g].fds,
			    bs[i].deployment), bs[i].applied == NULL ? NULL :
			    json_object_get(gs[g].cms,
			    jstr2(applied_cm(&bs[i]), "metadata", "name")));
		st = jstr2(e, "status", NULL);
		counts[strcmp(st, "clean") == 0 ? 0 :
		    strcmp(st, "pending") == 0 ? 1 : 2]++;
		json_array_append_new(builds, e);
	}
	res = json_pack("{s:i, s:s, s:{s:I, s:I, s:I}, s:O}", "fluidDrift", 1,
	    "contract", contract, "counts", "clean", (json_int_t)counts[0],
	    "pending", (json_int_t)counts[1], "drift", (json_int_t)counts[2],
	    "builds", builds);
out:
	for (g = 0; g < ng; g++) {
		json_decref(gs[g].recs);
		json_decref(gs[g].fds);
		json_decref(gs[g].cms);
	}
	for (i = 0; bs != NULL && i < n; i++) {
		kube_record_release(&bs[i].r);
		json_decref(bs[i].applied);
		free(bs[i].recn);
	}
	free(bs);
	free(gs);
	json_decref(builds);
	json_decref(last);
	json_decref(against);
	json_decref(plan);
	return res;
}
