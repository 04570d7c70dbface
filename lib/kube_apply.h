/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_apply.h - writing a checked plan to its cluster through kubectl
 * (fluid-k8s(1), APPLYING): every build's objects read before any is
 * written (one kubectl run per kind for the builds of a context and
 * namespace), ownership and the mode checked against what is live, then
 * per context one apply per kind, every build's in one List: the
 * ConfigMaps, the FlinkDeployments and the last-applied records
 * (kube_record.h) in that order, and a bounded wait for the operator
 * to take the change.  So the kubectl runs do not grow with the builds.  A CFK build (management: cfk) is kube_cfk.h's,
 * read with the others before any write.  The plan must be one
 * plan_remake() returned and plan_allow() admitted (plan.h): nothing
 * here checks it again.
 */
#ifndef FLUID_KUBE_APPLY_H
#define FLUID_KUBE_APPLY_H

#include <jansson.h>

#include "allow.h"
#include "diag.h"
#include "k8s.h"

#define KUBE_APPLY_WAIT_S	60	/* default bound of the wait */
#define KUBE_APPLY_WAIT_MAX_S	3600
#define KUBE_APPLY_POLL_S	2	/* between two reads of the status */

struct kube_apply_opts {
	enum k8s_mode	  mode;
	int		  wait_s;	/* 0: do not wait for the operator */
	char		*(*env)(const char *);	/* getenv-like */
	const char	 *path;		/* where errors are placed */
	/* Each line of what was done ("FlinkDeployment ns/name: ..."). */
	void		(*say)(void *arg, const char *line);
	void		 *arg;
	/*
	 * While it waits for the operator, a line per re-read of the
	 * status (verify.h's progress), then NULL when the wait ends; may
	 * be NULL: say nothing.
	 */
	void		(*progress)(void *parg, const char *line);
	void		 *parg;
};

/*
 * Apply plan.  Errors in d: a refusal (an object that is not fluid's,
 * a mode that does not allow the change, a failed savepoint, a write
 * the API server refuses) or a fatal one (the cluster not reached).
 * Nothing is written when a read or check of any build fails; the
 * writes stop at the first kind whose apply is refused (kubectl has
 * applied that kind's other objects).  An operator that
 * has not taken the change within wait_s is a warning.
 */
void	kube_apply_plan(const json_t *plan, const struct kube_apply_opts *o,
	    struct diags *d);

/*
 * Everything apply does with a plan it read (fluid-k8s(1), APPLYING),
 * plan_remake() (the plan is what fluid renders from its bundle, for
 * o->mode), and, whatever it found, the API server's size limits
 * (plan_sizes(), the records included) and plan_allow() on the plan's
 * resources as given; then, only when none found an error, a dry run says what
 * it would apply and contacts nothing, a write without yes is refused,
 * and a write is kube_apply_plan() of the plan made again.  Errors in
 * d placed at o->path.
 */
void	kube_apply_run(const json_t *plan, const struct allow *al, int yes,
	    const struct kube_apply_opts *o, struct diags *d);

#endif
