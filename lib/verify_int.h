/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify_int.h - between verify.c and the files of its pieces: what one
 * piece of evidence is while it is being gathered.  Only verify*.c
 * include it.
 */
#ifndef FLUID_VERIFY_INT_H
#define FLUID_VERIFY_INT_H

#include <stdbool.h>
#include <jansson.h>

/* How one reading of a piece came out (verify.h). */
enum vfy_outcome { VFY_PASS, VFY_FAIL, VFY_UNAVAILABLE };

/* One reading: the outcome, whether asking again can change it, why. */
struct vfy_reading {
	enum vfy_outcome outcome;
	bool		 final;
	char		*detail;	/* one line (new) */
	char		*endpoint;	/* what was read, for the report (new) */
};

/* Set r's outcome, finality and detail (printf-like). */
void	vfy_set(struct vfy_reading *r, enum vfy_outcome o, bool final,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * The operator's side (verify_status.c).  vfy_judge_status() judges the
 * FlinkDeployment live (as kubectl get returned it) against applied, the
 * spec fluid apply recorded, and want_state, the contract's state (NULL:
 * running): the pending generation, the reconciled spec, the lifecycle
 * and job state, with the operator's status.error quoted.
 */
void	vfy_judge_status(json_t *live, json_t *applied,
	    const char *want_state, struct vfy_reading *r);
/*
 * The reason an EventList (GET .../events) gives for FlinkDeployment
 * name: its newest Warning event, else its newest event, as one bounded
 * line (new), or NULL when it has none.
 */
char	*vfy_events_reason(json_t *list, const char *name);

/*
 * The checkpoint piece (verify_checkpoint.c): the JobManager REST API's
 * GET /jobs/JOB/checkpoints, read through the Kubernetes API server's
 * service proxy (kubectl get --raw, the deployment's context) at the
 * JobManager's rest service, which the operator names NAME-rest with the
 * port named rest.  dep is the checked build's deployment; job the job id
 * of the FlinkDeployment's status (NULL: none yet); max_age_s the
 * contract's maxSnapshotAgeSeconds (-1: none), which a completed
 * checkpoint must be younger than too.  env is verify_opts.env.
 */
void	vfy_checkpoint(json_t *dep, const char *job, long long max_age_s,
	    char *(*env)(const char *), struct vfy_reading *r);

/*
 * verify_jobid.c: whether s is a Flink JobID as the REST API writes it: 32 lowercase hex
 * digits.  The status is the cluster's, not fluid's: anything else could
 * walk the proxy path elsewhere, so it is neither asked about nor echoed.
 */
bool	vfy_job_id(const char *s);

/*
 * Judge the JobManager's GET /jobs/JOB/checkpoints answer st (Flink's
 * CheckpointingStatistics) for job, against max_age_s (-1: none).
 */
void	vfy_checkpoint_judge(json_t *st, const char *job, long long max_age_s,
	    struct vfy_reading *r);

#endif
