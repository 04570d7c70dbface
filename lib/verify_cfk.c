/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify_cfk.c - the statements and job pieces of a CFK build
 * (verify_cfk.h).  Everything read from the cluster is untrusted: the
 * objects listed are checked again to carry the build's labels, CFK's
 * and CMF's messages are escaped and cut, and the namespace a
 * FlinkEnvironment names must be a namespace name the allowlist admits
 * before it reaches kubectl.
 */
#include <stdlib.h>
#include <string.h>

#include "verify_cfk.h"
#include "allow.h"
#include "ir.h"
#include "jget.h"
#include "kube.h"
#include "kube_cfk_drift.h"
#include "kube_record.h"
#include "xalloc.h"

#define MSG_MAX	300	/* bytes of a message from CFK or CMF shown */

enum { SRC, SNK, INS, NROLE };
static const char *const roles[NROLE] = { "source", "sink", "insert" };

const char *
vfy_cfk_kind(int i)
{
	return i == 0 ? "statements" : "job";
}

static const json_t *
dep_of(const json_t *cb)
{
	return json_object_get(cb, "deployment");
}

char *
vfy_cfk_checked(const json_t *cb, int i)
{
	const json_t *dep = dep_of(cb);

	if (i == 0)
		return xasprintf("the build's FlinkStatements%s in %s (context "
		    "%s), read by its labels: cmfSync.status Created, the "
		    "source and sink statements' phase COMPLETED, the INSERT's "
		    "neither FAILED, FAILING nor STOPPED (stopped only when "
		    "the contract says suspended)", json_object_get(json_object_get(
		    dep, "computePool"), "render") == json_true() ? " and "
		    "FlinkComputePool" : "", jstr(dep, "namespace"),
		    jstr(dep, "context"));
	return xasprintf("the INSERT's job runs: %s; the FlinkDeployment "
	    "named after the statement in FlinkEnvironment %s's "
	    "spec.kubernetesNamespace reports jobStatus.state RUNNING",
	    VFY_CFK_NOTE, jstr(dep, "flinkEnvironment"));
}

json_t *
vfy_cfk_rendered(json_t *doc, const char *id)
{
	json_t *b;
	size_t i;

	json_array_foreach(json_object_get(ir_section(doc, "k8s"), "builds"),
	    i, b)
		if (id != NULL && jstreq(jstr(b, "build"), id))
			return json_object_get(b, "resources");
	return NULL;
}

/* The rendered resource of kind and role (NULL: the pool), borrowed. */
static const json_t *
rendered_of(const json_t *res, const char *kind, const char *role)
{
	const json_t *r;
	size_t i;

	json_array_foreach(res, i, r)
		if (jstreq(jstr(r, "kind"), kind) && (role == NULL ||
		    jstreq(jstr3(r, "metadata", "annotations",
		    "fluid.dev/statement-role"), role)))
			return r;
	return NULL;
}

/*
 * CFK's sync of one object (what), the common part of its status: 1 when
 * CFK synced this generation with CMF, 0 after setting r.
 */
static int
synced(const json_t *live, const char *what, struct vfy_reading *r)
{
	const json_t *st = json_object_get(live, "status");
	const char *sync = jstr2(st, "cmfSync", "status");
	const char *cfk = jstr(st, "cfkInternalState");
	json_int_t gen = json_integer_value(json_object_get(json_object_get(
	    live, "metadata"), "generation"));
	json_int_t seen = json_integer_value(json_object_get(st,
	    "observedGeneration"));
	char *t, *m;

	if ((sync != NULL && strcmp(sync, "Failed") == 0) ||
	    (cfk != NULL && strcmp(cfk, "FAILED") == 0)) {
		m = kube_cfk_text(jstr2(st, "cmfSync", "errorMessage"),
		    MSG_MAX);
		t = kube_cfk_text(cfk, 40);
		vfy_set(r, VFY_FAIL, true, "%s: CFK could not sync it with "
		    "CMF (cmfSync.status Failed, cfkInternalState %s): %s",
		    what, t, m);
		free(t);
		free(m);
		return 0;
	}
	if (gen > seen) {
		vfy_set(r, VFY_FAIL, false, "%s: CFK has not observed "
		    "generation %lld yet (status.observedGeneration %lld)",
		    what, (long long)gen, (long long)seen);
		return 0;
	}
	if (sync == NULL || strcmp(sync, "Created") != 0) {
		t = kube_cfk_text(sync, 40);
		vfy_set(r, VFY_FAIL, sync != NULL && strcmp(sync,
		    "Deleted") == 0, "%s: not synced with CMF (cmfSync.status "
		    "%s, not Created)", what, t);
		free(t);
		return 0;
	}
	return 1;
}

/* A phase CMF gives for a failure: FAILED or FAILING; 0 after r. */
static int
not_failed(const json_t *live, const char *what, struct vfy_reading *r)
{
	const char *phase = jstr2(live, "status", "phase");
	char *m;

	if (phase == NULL || (strcmp(phase, "FAILED") != 0 &&
	    strcmp(phase, "FAILING") != 0))
		return 1;
	m = kube_cfk_text(jstr2(live, "status", "detail"), MSG_MAX);
	vfy_set(r, VFY_FAIL, true, "%s: CMF reports phase %s: %s", what,
	    phase, m);
	free(m);
	return 0;
}

struct cfkb {
	const char	*ctx, *ns, *env, *product, *id, *state;
	const json_t	*pool;		/* rendered, or NULL */
	const json_t	*st[NROLE];	/* rendered */
	bool		 suspended;
};

/* The pool, when fluid renders it; 1 when it is well, 0 after r. */
static int
judge_pool(const struct cfkb *b, const json_t *pools, struct vfy_reading *r)
{
	const char *name = jstr2(b->pool, "metadata", "name"), *phase;
	json_t *lv = kube_item_named(pools, name);
	char *what;
	int ok;

	if (b->pool == NULL)
		return 1;
	what = xasprintf("FlinkComputePool %s/%s", b->ns, name);
	if (lv == NULL) {
		vfy_set(r, VFY_FAIL, true, "%s does not exist with fluid's "
		    "labels for product '%s' build '%s': not applied", what,
		    b->product, b->id);
		free(what);
		return 0;
	}
	ok = synced(lv, what, r) && not_failed(lv, what, r);
	phase = jstr2(lv, "status", "phase");
	if (ok && !b->suspended && jstreq(phase, "SUSPENDED")) {
		vfy_set(r, VFY_FAIL, true, "%s: CMF reports phase SUSPENDED: "
		    "it schedules no statement, and the contract says running",
		    what);
		ok = 0;
	}
	free(what);
	return ok;
}

/* The statements: 1 when all are well (r's detail then says so). */
static int
judge_statements(const struct cfkb *b, const json_t *sts,
    struct vfy_reading *r)
{
	const char *name, *phase;
	json_t *lv;
	char *what, *p;
	int j, stopped;

	for (j = 0; j < NROLE; j++) {
		name = jstr2(b->st[j], "metadata", "name");
		what = xasprintf("FlinkStatement %s/%s (%s)", b->ns, name,
		    roles[j]);
		lv = kube_item_named(sts, name);
		if (lv == NULL) {
			vfy_set(r, VFY_FAIL, true, "%s does not exist with "
			    "fluid's labels for product '%s' build '%s': not "
			    "applied", what, b->product, b->id);
			free(what);
			return 0;
		}
		if (!synced(lv, what, r) || !not_failed(lv, what, r)) {
			free(what);
			return 0;
		}
		phase = jstr2(lv, "status", "phase");
		p = kube_cfk_text(phase, 40);
		if (j != INS && !jstreq(phase, "COMPLETED")) {
			vfy_set(r, VFY_FAIL, false, "%s: phase %s, not "
			    "COMPLETED: the table is not known to exist", what,
			    p);
			free(p);
			free(what);
			return 0;
		}
		stopped = json_object_get(json_object_get(lv, "spec"),
		    "stopped") == json_true();
		if (j == INS && !b->suspended && (stopped ||
		    jstreq(phase, "STOPPED"))) {
			vfy_set(r, VFY_FAIL, true, "%s is stopped (spec.stopped "
			    "%s, phase %s) and the contract says running",
			    what, stopped ? "true" : "not set", p);
			free(p);
			free(what);
			return 0;
		}
		if (j == INS && b->suspended && !stopped) {
			vfy_set(r, VFY_FAIL, true, "%s is not stopped "
			    "(spec.stopped not true, phase %s) and the "
			    "contract says suspended", what, p);
			free(p);
			free(what);
			return 0;
		}
		if (j == INS)
			vfy_set(r, VFY_PASS, true, "CFK synced %sthe three "
			    "statements with CMF (cmfSync.status Created); "
			    "source and sink COMPLETED; the INSERT %s, its "
			    "phase %s, which CFK does not refresh for a running "
			    "streaming statement: the job piece says whether "
			    "it runs", b->pool != NULL ? "the pool and " : "",
			    b->suspended ? "stopped as the contract says" :
			    "not stopped", p);
		free(p);
		free(what);
	}
	return 1;
}

static void
read_statements(const struct cfkb *b, const struct kube *k,
    struct vfy_reading *r)
{
	json_t *sts = NULL, *pools = NULL;
	const char *kind = "flinkstatement";
	char *why = NULL;

	free(r->endpoint);
	r->endpoint = xasprintf("kubectl --context=%s: flinkstatement%s in %s, "
	    "by the build's labels", b->ctx, b->pool != NULL ?
	    ", flinkcomputepool" : "", b->ns);
	if (kube_cfk_list(k, kind, b->ns, b->product, b->id, 0, &sts,
	    &why) == -1 || (b->pool != NULL && kube_cfk_list(k, kind =
	    "flinkcomputepool", b->ns, b->product, b->id, 0, &pools,
	    &why) == -1)) {
		vfy_set(r, VFY_UNAVAILABLE, true, "cannot list the %ss: %s",
		    kind, why);
		goto out;
	}
	if (judge_pool(b, pools, r))
		judge_statements(b, sts, r);
out:
	free(why);
	json_decref(sts);
	json_decref(pools);
}

/* The namespace CMF runs the job in (new), or NULL after r. */
static char *
env_namespace(const struct cfkb *b, const struct kube *k,
    char *(*env)(const char *), struct vfy_reading *r)
{
	json_t *fe = NULL;
	struct diags kd;
	struct allow a;
	const char *kns;
	char *why = NULL, *t, *res = NULL;
	int got;

	diags_init(&kd);
	if ((got = kube_get(k, "flinkenvironment", b->ns, b->env, &fe,
	    &kd)) == -1) {
		vfy_set(r, VFY_UNAVAILABLE, true, "unproven: %s", kd.n > 0 ?
		    kd.v[kd.n - 1].msg : "kubectl failed");
		goto out;
	}
	if (got == 0) {
		vfy_set(r, VFY_UNAVAILABLE, true, "unproven: FlinkEnvironment "
		    "%s/%s does not exist in the build's namespace, so the "
		    "namespace CMF runs the job in (its spec."
		    "kubernetesNamespace) is not known", b->ns, b->env);
		goto out;
	}
	kns = jstr2(fe, "spec", "kubernetesNamespace");
	if (!k8s_dns_label(kns, 63)) {
		t = kube_cfk_text(kns, 80);
		vfy_set(r, VFY_UNAVAILABLE, true, "unproven: FlinkEnvironment "
		    "%s/%s's spec.kubernetesNamespace is not a namespace name "
		    "(%s): not read", b->ns, b->env, t);
		free(t);
		goto out;
	}
	allow_load(&a, env);
	if (!allow_namespace(&a, kns, &why))
		vfy_set(r, VFY_UNAVAILABLE, true, "unproven: the job runs in "
		    "namespace '%s' (FlinkEnvironment %s/%s), which fluid does "
		    "not read: %s", kns, b->ns, b->env, why);
	else
		res = xstrdup(kns);
	free(why);
	allow_release(&a);
out:
	json_decref(fe);
	diags_release(&kd);
	return res;
}

static void
read_job(const struct cfkb *b, const struct kube *k,
    char *(*env)(const char *), struct vfy_reading *r)
{
	const char *name = jstr2(b->st[INS], "metadata", "name"), *state;
	json_t *fd = NULL;
	struct diags kd;
	char *kns, *t, *m;
	int got;

	free(r->endpoint);
	r->endpoint = xasprintf("kubectl --context=%s: flinkenvironment %s/%s",
	    b->ctx, b->ns, b->env);
	if (b->suspended) {
		vfy_set(r, VFY_UNAVAILABLE, true, "the contract says "
		    "suspended: the job is stopped, there is no running job to "
		    "read");
		return;
	}
	if ((kns = env_namespace(b, k, env, r)) == NULL)
		return;
	free(r->endpoint);
	r->endpoint = xasprintf("kubectl --context=%s: flinkenvironment %s/%s, "
	    "flinkdeployment %s/%s", b->ctx, b->ns, b->env, kns, name);
	diags_init(&kd);
	if ((got = kube_get(k, "flinkdeployment", kns, name, &fd, &kd)) ==
	    -1)
		vfy_set(r, VFY_UNAVAILABLE, true, "unproven: %s", kd.n > 0 ?
		    kd.v[kd.n - 1].msg : "kubectl failed");
	else if (got == 0)
		vfy_set(r, VFY_UNAVAILABLE, false, "unproven: no FlinkDeployment "
		    "%s/%s (CMF names the job's after the statement): the job "
		    "is not known to run", kns, name);
	else if ((state = jstr3(fd, "status", "jobStatus", "state")) == NULL)
		vfy_set(r, VFY_UNAVAILABLE, false, "unproven: FlinkDeployment "
		    "%s/%s reports no status.jobStatus.state yet", kns, name);
	else if (strcmp(state, "RUNNING") == 0)
		vfy_set(r, VFY_PASS, true, "FlinkDeployment %s/%s (CMF's) "
		    "reports jobStatus.state RUNNING", kns, name);
	else {
		t = kube_cfk_text(state, 40);
		m = kube_cfk_text(jstr2(fd, "status", "error"), MSG_MAX);
		vfy_set(r, VFY_FAIL, strcmp(state, "FAILED") == 0,
		    "FlinkDeployment %s/%s reports jobStatus.state %s, not "
		    "RUNNING (status.error: %s)", kns, name, t, m);
		free(t);
		free(m);
	}
	json_decref(fd);
	diags_release(&kd);
	free(kns);
}

void
vfy_cfk_read(const json_t *cb, const json_t *rendered,
    char *(*env)(const char *), bool want_st, struct vfy_reading *st,
    bool want_job, struct vfy_reading *job)
{
	const json_t *dep = dep_of(cb);
	struct cfkb b;
	struct diags kd;
	struct kube k;
	int j;

	memset(&b, 0, sizeof(b));
	b.ctx = jstr(dep, "context");
	b.ns = jstr(dep, "namespace");
	b.env = jstr(dep, "flinkEnvironment");
	b.product = jstr(cb, "product");
	b.id = jstr(cb, "id");
	b.state = jstr(dep, "state");
	b.suspended = jstreq(b.state, "suspended");
	b.pool = rendered_of(rendered, "FlinkComputePool", NULL);
	for (j = 0; j < NROLE; j++)
		b.st[j] = rendered_of(rendered, "FlinkStatement", roles[j]);
	/* The document is untrusted: names, or nothing reaches kubectl. */
	if (b.st[SRC] == NULL || b.st[SNK] == NULL || b.st[INS] == NULL ||
	    !k8s_dns_label(b.ns, 63) ||
	    !k8s_dns_label(b.env, 63) ||
	    !k8s_dns_label(jstr2(b.st[INS], "metadata", "name"), 63) ||
	    b.product == NULL || b.id == NULL) {
		if (want_st)
			vfy_set(st, VFY_UNAVAILABLE, true, "the document holds "
			    "no rendered FlinkStatements of this build, or "
			    "names that are not Kubernetes names: run "
			    "fluid-k8s render first");
		if (want_job)
			vfy_set(job, VFY_UNAVAILABLE, true, "unproven: no "
			    "rendered INSERT statement to look for");
		return;
	}
	diags_init(&kd);
	if (kube_init(&k, b.ctx, env, &kd) == -1) {
		if (want_st)
			vfy_set(st, VFY_UNAVAILABLE, true, "%s", kd.v[0].msg);
		if (want_job)
			vfy_set(job, VFY_UNAVAILABLE, true, "%s", kd.v[0].msg);
		diags_release(&kd);
		return;
	}
	diags_release(&kd);
	if (want_st)
		read_statements(&b, &k, st);
	if (want_job)
		read_job(&b, &k, env, job);
}
