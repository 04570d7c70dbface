/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify_checkpoint.c - fluid verify's checkpoint piece (verify_int.h):
 * the job's latest completed checkpoint, from the JobManager REST API
 * read through the Kubernetes API server's service proxy, as a user's
 * own kubectl reaches it: no port-forward, no address of the pod, the
 * contract's context and its credentials only.
 *
 * A checkpoint is evidence independent of the catalog's: the Iceberg
 * sink commits only when a checkpoint completes, so a job that has
 * stopped checkpointing stops committing, and the JobManager says so
 * before the table's snapshots grow old.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify_int.h"
#include "clock.h"

#include "diag.h"
#include "kube.h"
#include "xalloc.h"

/* The operator's JobManager service port name (Flink's REST_PORT_NAME). */
#define REST_PORT_NAME	"rest"

static json_int_t
num(json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

void
vfy_checkpoint_judge(json_t *st, const char *job, long long max_age_s,
    struct vfy_reading *r)
{
	json_t *counts = json_object_get(st, "counts");
	json_t *latest = json_object_get(st, "latest");
	json_t *done = json_object_get(latest, "completed");
	json_t *failed = json_object_get(latest, "failed");
	const char *why = json_string_value(json_object_get(failed,
	    "failure_message"));
	long long age, ack;

	if (!json_is_object(counts)) {
		vfy_set(r, VFY_UNAVAILABLE, false, "the JobManager's answer for "
		    "job %s has no checkpoint counts", job);
		return;
	}
	if (!json_is_object(done)) {
		/* A checkpoint may still complete: not final. */
		vfy_set(r, VFY_FAIL, false, "no checkpoint completed: job %s "
		    "has %lld completed, %lld in progress, %lld failed%s%s",
		    job, (long long)num(counts, "completed"),
		    (long long)num(counts, "in_progress"),
		    (long long)num(counts, "failed"),
		    why != NULL ? "; the latest failed one: " : "",
		    why != NULL ? why : "");
		return;
	}
	ack = (long long)num(done, "latest_ack_timestamp");
	age = clk_wall_s() - ack / 1000;
	if (age < 0)
		age = 0;
	if (max_age_s >= 0 && age > max_age_s) {
		vfy_set(r, VFY_FAIL, false, "no checkpoint is young enough: the "
		    "latest completed one, %lld of job %s, was acknowledged "
		    "%lld s ago, maxSnapshotAgeSeconds is %lld",
		    (long long)num(done, "id"), job, age, max_age_s);
		return;
	}
	vfy_set(r, VFY_PASS, true, "checkpoint %lld of job %s completed %lld s "
	    "ago (%lld completed, %lld failed)%s",
	    (long long)num(done, "id"), job, age,
	    (long long)num(counts, "completed"),
	    (long long)num(counts, "failed"), max_age_s >= 0 ?
	    ", within maxSnapshotAgeSeconds" :
	    " (no maxSnapshotAgeSeconds: any completed checkpoint counts)");
}

/*
 * /jobs/JOB/checkpoints was NotFound.  Flink answers 404 both for a job
 * it does not know and for one without checkpointing ("Checkpointing
 * has not been enabled."), and kubectl passes on neither body, only
 * "the server could not find the requested resource".  So ask the same
 * JobManager, through the same proxy, for /jobs/JOB: a job it knows has
 * checkpointing off, which no retry changes.
 */
static void
not_found(const struct kube *k, const char *ns, const char *name,
    const char *job, const char *why, struct vfy_reading *r)
{
	json_t *jd = NULL;
	char *path, *why2 = NULL;
	int rc, unreached = 0;

	path = xasprintf("/api/v1/namespaces/%s/services/%s-rest:%s/proxy/"
	    "jobs/%s", ns, name, REST_PORT_NAME, job);
	rc = kube_get_raw(k, path, &jd, &why2, &unreached);
	if (rc == 1)
		vfy_set(r, VFY_FAIL, true, "checkpointing is not enabled for "
		    "job %s: the Iceberg sink commits only on checkpoints (the "
		    "JobManager knows the job, and has no checkpoint "
		    "statistics for it)", job);
	else if (rc == 0)
		vfy_set(r, VFY_FAIL, false, "the JobManager behind service "
		    "%s/%s-rest does not know job %s: %s", ns, name, job, why);
	else
		vfy_set(r, VFY_UNAVAILABLE, unreached != 0 || rc == -2, "%s%s",
		    unreached ? "" : "the JobManager REST API through the "
		    "service proxy: ", why2);
	free(why2);
	free(path);
	json_decref(jd);
}

/*
 * The proxy said services "NAME-rest" not found.  The API server says
 * that both when the Service does not exist and when it has no endpoint
 * to send the request to (no ready JobManager pod, or no endpoints
 * controller): read the Service itself to tell which.
 */
static void
no_service(const struct kube *k, const char *ns, const char *name,
    const char *why, struct vfy_reading *r)
{
	struct diags kd;
	json_t *svc = NULL;
	char *svcname = xasprintf("%s-rest", name);
	int rc;

	diags_init(&kd);
	rc = kube_get(k, "service", ns, svcname, &svc, &kd);
	if (rc == 1)
		vfy_set(r, VFY_UNAVAILABLE, false, "service %s/%s exists, but "
		    "the API server's proxy has no endpoint for it: no "
		    "JobManager pod of FlinkDeployment %s is ready (%s)", ns,
		    svcname, name, why);
	else if (rc == 0)
		vfy_set(r, VFY_FAIL, false, "service %s/%s does not exist: no "
		    "JobManager runs for FlinkDeployment %s (%s)", ns, svcname,
		    name, why);
	else
		vfy_set(r, VFY_UNAVAILABLE, false, "%s", kd.n > 0 ?
		    kd.v[kd.n - 1].msg : "kubectl failed");
	json_decref(svc);
	diags_release(&kd);
	free(svcname);
}

void
vfy_checkpoint(json_t *dep, const char *job, long long max_age_s,
    char *(*env)(const char *), struct vfy_reading *r)
{
	const char *ns = json_string_value(json_object_get(dep, "namespace"));
	const char *name = json_string_value(json_object_get(dep, "name"));
	const char *ctx = json_string_value(json_object_get(dep, "context"));
	const char *state = json_string_value(json_object_get(dep, "state"));
	struct diags kd;
	struct kube k;
	json_t *st = NULL;
	char *path, *why = NULL;
	int rc, unreached = 0;

	free(r->endpoint);
	r->endpoint = xasprintf("kubectl --context=%s get --raw /api/v1/"
	    "namespaces/%s/services/%s-rest:%s/proxy/jobs/%s/checkpoints",
	    ctx, ns, name, REST_PORT_NAME, job != NULL && vfy_job_id(job) ?
	    job : "JOB");
	if (state != NULL && strcmp(state, "suspended") == 0) {
		vfy_set(r, VFY_UNAVAILABLE, true, "the contract says suspended: "
		    "the job is stopped, so it takes no checkpoint to read");
		return;
	}
	if (job == NULL || *job == '\0') {
		/* The operator writes the job id once the job is submitted. */
		vfy_set(r, VFY_UNAVAILABLE, false, "the FlinkDeployment's status "
		    "names no job yet (status.jobStatus.jobId)");
		return;
	}
	if (!vfy_job_id(job)) {
		vfy_set(r, VFY_UNAVAILABLE, true, "status.jobStatus.jobId is "
		    "not a Flink job id (32 lowercase hex digits): no "
		    "JobManager is asked about it");
		return;
	}
	diags_init(&kd);
	if (kube_init(&k, ctx, env, &kd) == -1) {
		vfy_set(r, VFY_UNAVAILABLE, true, "%s", kd.v[kd.n - 1].msg);
		diags_release(&kd);
		return;
	}
	diags_release(&kd);
	path = xasprintf("/api/v1/namespaces/%s/services/%s-rest:%s/proxy/"
	    "jobs/%s/checkpoints", ns, name, REST_PORT_NAME, job);
	rc = kube_get_raw(&k, path, &st, &why, &unreached);
	if (rc == 1)
		vfy_checkpoint_judge(st, job, max_age_s, r);
	else if (rc == 0 && strstr(why, "services ") != NULL &&
	    strstr(why, " not found") != NULL)
		no_service(&k, ns, name, why, r);
	else if (rc == 0)
		not_found(&k, ns, name, job, why, r);
	else
		vfy_set(r, VFY_UNAVAILABLE, unreached != 0 || rc == -2, "%s%s",
		    unreached ? "" :
		    "the JobManager REST API through the service proxy: ", why);
	free(why);
	free(path);
	json_decref(st);
}
