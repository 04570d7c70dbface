/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * scale.h - a checked deployment's sizing with its defaults: the job's
 * parallelism and key groups, the TaskManagers and the JobManager, and
 * the operator's autoscaler (fluid-check(1), SCALING).
 *
 * fluid-check writes into the deployment IR only what the contract
 * sets; the renderers and fluid diff read it here, so that a contract
 * without the fields and one that spells out the defaults render and
 * compare the same.  The IR is not trusted: scale_read() refuses what
 * fluid-check would not have written.
 */
#ifndef FLUID_SCALE_H
#define FLUID_SCALE_H

#include <stdbool.h>
#include <jansson.h>

/* The defaults: one slot of one TaskManager, the key groups Flink
 * derives for a parallelism up to 85 (so that deployments made before
 * the field keep restoring), 2048m and one CPU per pod. */
#define SCALE_PARALLELISM	1
#define SCALE_MAX_PARALLELISM	128
#define SCALE_SLOTS		1
#define SCALE_MEMORY		"2048m"
#define SCALE_CPU		1
#define SCALE_UTILIZATION	0.7
/*
 * A partition silent this long stops holding back the watermark; long
 * enough that a merely slow partition's records are seldom late.
 */
#define SCALE_IDLE_TIMEOUT	"5 min"

struct scale_pod {
	const char	*memory;
	json_t		*cpu;		/* a number (owned) */
};

struct scale {
	json_int_t	 parallelism, max_parallelism, slots;
	struct scale_pod tm, jm;
	bool		 autoscaler;	/* the block is set */
	bool		 as_enabled;
	json_int_t	 as_min, as_max;
	double		 as_target;
};

/*
 * The sizing of the deployment IR dep with defaults filled in.  Returns
 * NULL, or the field's name ("parallelism", "taskManager/memory", ...)
 * when a value is not one fluid-check writes; s is then released.
 */
const char *scale_read(const json_t *dep, struct scale *s);
void	 scale_release(struct scale *);
/*
 * Add to a FlinkDeployment's flinkConfiguration the slots, the pinned
 * pipeline.max-parallelism and, when the autoscaler block is set, the
 * operator's job.autoscaler.* keys (AutoScalerOptions, 1.13).
 */
void	 scale_flink_conf(const struct scale *, json_t *conf);
/*
 * Flink's table.exec.source.idle-timeout for a job that may run wider
 * than one subtask (parallelism above 1, or an autoscaler that may take
 * it there), else NULL.  A Kafka source reader with no partition never
 * marks itself idle (connector 3.4, FLIP-27), so without the timeout it
 * holds back every downstream watermark for good.
 */
const char *scale_idle_timeout(const struct scale *);
/* {"memory": M, "cpu": C}, the operator's spec.*.resource. */
json_t	*scale_resource(const struct scale_pod *);

#endif
