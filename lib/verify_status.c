/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify_status.c - what the Flink Kubernetes operator (1.13) writes,
 * read for fluid verify's deployment piece (verify_int.h): the
 * FlinkDeployment's status, judged against the spec fluid apply
 * applied, its status.error, and the Events it records for the
 * deployment.  Everything here is the cluster's text: it is parsed, never
 * trusted to be well formed, and only ever quoted (bounded) in a detail.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kube.h"
#include "kube_operr.h"
#include "verify_int.h"

#include "xalloc.h"

/* How much of the operator's words a detail quotes. */
#define QUOTE_MAX	400

static const char *
str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static bool
is(const char *s, const char *want)
{
	return s != NULL && strcmp(s, want) == 0;
}

void
vfy_set(struct vfy_reading *r, enum vfy_outcome o, bool final,
    const char *fmt, ...)
{
	va_list ap;

	free(r->detail);
	va_start(ap, fmt);
	r->detail = xvasprintf(fmt, ap);
	va_end(ap);
	r->outcome = o;
	r->final = final;
}


/* s cut to at most max bytes, at a character boundary, with "..." (new). */
static char *
cut(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return xstrdup(s);
	n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return xasprintf("%.*s...", (int)n, s);
}

/* s, at most QUOTE_MAX bytes of it (new). */
static char *
cut_q(const char *s)
{
	return cut(s, QUOTE_MAX);
}

/* v as compact JSON, at most about 80 bytes of it (new). */
static char *
brief(json_t *v)
{
	char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	char *r;

	if (s == NULL)
		return xstrdup("(absent)");
	r = cut(s, 77);
	free(s);
	return r;
}

/* Where the reconciled spec first does not cover the applied one. */
struct miss {
	char	*where;	/* its path, "spec.job.parallelism" (new) */
	char	*what;	/* the two values there (new) */
};

static int
first_miss(void *arg, const json_t *path, const json_t *applied,
    const json_t *live)
{
	struct miss *m = arg;
	struct sb p;
	const json_t *seg;
	char *a, *b;
	size_t i;

	sb_init(&p);
	sb_adds(&p, "spec");
	json_array_foreach(path, i, seg)
		if (json_is_integer(seg))
			sb_addf(&p, "[%lld]",
			    (long long)json_integer_value(seg));
		else
			sb_addf(&p, ".%s", json_string_value(seg));
	m->where = sb_steal(&p);
	a = brief((json_t *)live);
	b = brief((json_t *)applied);
	m->what = xasprintf("%s reconciled, %s applied", a, b);
	free(a);
	free(b);
	return 1;
}

/*
 * The reconciled spec to compare (a new reference), from the parsed
 * lastReconciledSpec rs.  The operator (1.13) writes {"spec": ...,
 * "resource_metadata": {"apiVersion", "firstDeployment"}}; before 1.3 it
 * wrote the spec alone.  Its job.upgradeMode is the mode the operator
 * last deployed with, not the spec's: before the first upgrade it
 * records "stateless" (savepoint with an initialSavepointPath), with
 * firstDeployment true.  That one case is taken as the applied mode,
 * and *first says so.
 */
static json_t *
reconciled_spec(json_t *rs, json_t *applied, bool *first)
{
	json_t *spec = json_object_get(rs, "spec"), *meta, *job, *copy;
	const char *want = str(json_object_get(applied, "job"), "upgradeMode");

	*first = false;
	meta = json_object_get(rs, "resource_metadata");
	if (!json_is_object(spec) || meta == NULL)
		return json_incref(rs);
	job = json_object_get(spec, "job");
	if (!json_is_true(json_object_get(meta, "firstDeployment")) ||
	    !is(str(job, "upgradeMode"), "stateless") || want == NULL ||
	    is(want, "stateless") || (json_object_get(job,
	    "initialSavepointPath") != NULL && !json_is_null(
	    json_object_get(job, "initialSavepointPath"))))
		return json_incref(spec);
	*first = true;
	copy = json_copy(spec);
	job = json_copy(job);
	json_object_set_new(job, "upgradeMode", json_string(want));
	json_object_set_new(copy, "job", job);
	return copy;
}

/* ", the operator's error: MSG" when there is one (new). */
static char *
with_error(const char *msg)
{
	return msg != NULL ? xasprintf("; the operator's status.error: %s",
	    msg) : xstrdup("");
}

void
vfy_judge_status(json_t *live, json_t *applied, const char *want_state,
    struct vfy_reading *r)
{
	json_t *st = json_object_get(live, "status"), *rs, *spec;
	json_t *js = json_object_get(st, "jobStatus");
	json_t *recon = json_object_get(st, "reconciliationStatus");
	json_t *gen = json_object_get(json_object_get(live, "metadata"),
	    "generation"), *obs = json_object_get(st, "observedGeneration");
	const char *text = str(recon, "lastReconciledSpec"),
	    *lc = str(st, "lifecycleState"), *job = str(js, "state"),
	    *rstate = str(recon, "state"), *applied_state;
	/* Named only when it is a job id: it goes into the report. */
	const char *jid = str(js, "jobId") != NULL &&
	    vfy_job_id(str(js, "jobId")) ? str(js, "jobId") : NULL;
	struct miss m = { NULL, NULL };
	json_t *path;
	char *msg, *err;
	int missed;
	bool suspended = is(want_state, "suspended"), first = false;
	json_error_t e;

	applied_state = str(json_object_get(applied, "job"), "state");
	if (want_state != NULL && !is(applied_state, want_state)) {
		vfy_set(r, VFY_FAIL, true, "the contract says state %s, fluid "
		    "apply applied %s: apply the contract's plan", want_state,
		    applied_state ? applied_state : "no state");
		return;
	}
	msg = kube_operator_error(str(st, "error"));
	err = with_error(msg);
	/*
	 * The operator sets observedGeneration when it records a spec as
	 * reconciled; until then the spec the API server holds is pending
	 * (an upgrade waiting for an upgradeable state, or refused).
	 */
	if (json_is_integer(gen) && json_is_integer(obs) &&
	    json_integer_value(obs) < json_integer_value(gen)) {
		vfy_set(r, VFY_FAIL, false, "the change is pending: the "
		    "operator has not reconciled generation %lld yet "
		    "(status.observedGeneration %lld; lifecycleState %s)%s",
		    (long long)json_integer_value(gen),
		    (long long)json_integer_value(obs), lc ? lc : "(none)",
		    err);
		goto out;
	}
	if (text == NULL || *text == '\0') {
		vfy_set(r, VFY_FAIL, false, "the operator has not reconciled "
		    "the deployment (no status.reconciliationStatus."
		    "lastReconciledSpec)%s", err);
		goto out;
	}
	/* json_is_object() is a macro that reads its argument twice. */
	rs = json_loads(text, 0, &e);
	if (!json_is_object(rs)) {
		vfy_set(r, VFY_FAIL, true, "status.reconciliationStatus."
		    "lastReconciledSpec is not a JSON object: %s", e.text);
		json_decref(rs);
		goto out;
	}
	spec = reconciled_spec(rs, applied, &first);
	json_decref(rs);
	path = json_array();
	missed = kube_cover_walk(applied, spec, path, 0, first_miss, &m);
	json_decref(path);
	if (missed) {
		vfy_set(r, VFY_FAIL, false, "the operator's reconciled spec is "
		    "not the applied one: %s is %s%s", m.where, m.what, err);
		free(m.where);
		free(m.what);
		json_decref(spec);
		goto out;
	}
	json_decref(spec);
	if (is(job, "FAILED") || is(lc, "FAILED")) {
		vfy_set(r, VFY_FAIL, true, "the job failed (lifecycleState %s, "
		    "jobStatus.state %s)%s", lc ? lc : "(none)",
		    job ? job : "(none)", err);
		goto out;
	}
	if (is(rstate, "ROLLED_BACK")) {
		vfy_set(r, VFY_FAIL, true, "the operator rolled the deployment "
		    "back (reconciliationStatus.state ROLLED_BACK)%s", err);
		goto out;
	}
	/*
	 * Suspended, the operator stops the job (with a savepoint:
	 * FINISHED; cancelled: CANCELED) and marks the resource SUSPENDED.
	 */
	if (suspended ? is(lc, "SUSPENDED") && (is(job, "FINISHED") ||
	    is(job, "CANCELED") || is(job, "SUSPENDED")) :
	    (is(lc, "STABLE") || is(lc, "DEPLOYED")) && is(job, "RUNNING")) {
		vfy_set(r, VFY_PASS, true, "the reconciled spec is the applied "
		    "one%s; lifecycleState %s, jobStatus.state %s%s%s",
		    first ? " (first deployment: the operator records "
		    "upgradeMode stateless until the first upgrade)" : "",
		    lc, job, jid != NULL ? ", job " : "", jid != NULL ? jid :
		    "");
		goto out;
	}
	vfy_set(r, VFY_FAIL, false, "lifecycleState %s, jobStatus.state %s: "
	    "want %s%s", lc ? lc : "(none)", job ? job : "(none)", suspended ?
	    "SUSPENDED, and FINISHED or CANCELED (the contract says "
	    "suspended)" : "STABLE or DEPLOYED, and RUNNING", err);
out:
	free(msg);
	free(err);
}

/* When an event last happened, as the API server writes it, or "". */
static const char *
event_time(json_t *ev)
{
	const char *t = str(ev, "lastTimestamp");

	if (t == NULL)
		t = str(ev, "eventTime");
	if (t == NULL)
		t = str(json_object_get(ev, "metadata"), "creationTimestamp");
	return t != NULL ? t : "";
}

char *
vfy_events_reason(json_t *list, const char *name)
{
	json_t *ev, *obj, *best = NULL;
	bool best_warn = false, warn;
	const char *reason, *message;
	char *a, *b, *c, *r;
	size_t i;

	json_array_foreach(json_object_get(list, "items"), i, ev) {
		obj = json_object_get(ev, "involvedObject");
		if (!is(str(obj, "kind"), "FlinkDeployment") ||
		    !is(str(obj, "name"), name) || str(ev, "reason") == NULL)
			continue;
		/* The newest Warning, else the newest event. */
		warn = is(str(ev, "type"), "Warning");
		if (best == NULL || (warn && !best_warn) || (warn == best_warn &&
		    strcmp(event_time(ev), event_time(best)) >= 0)) {
			best = ev;
			best_warn = warn;
		}
	}
	if (best == NULL)
		return NULL;
	reason = str(best, "reason");
	message = str(best, "message");
	a = cut_q(reason);
	b = cut_q(message != NULL ? message : "(no message)");
	c = cut_q(event_time(best));
	r = xasprintf("the operator's %s event %s%s%s: %s", best_warn ?
	    "latest Warning" : "latest", a, *c ? " at " : "", c, b);
	free(a);
	free(b);
	free(c);
	return r;
}
