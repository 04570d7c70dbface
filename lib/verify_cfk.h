/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify_cfk.h - fluid verify's pieces for a CFK build (management:
 * cfk), in the place of the operator's deployment and checkpoint
 * (fluid-verify(1), The CFK target).  For verify.c only.
 *
 *	statements	the build's FlinkStatements and rendered pool, by one
 *			kubectl get per kind with the build's labels:
 *			cmfSync.status Created, the DDL's phase COMPLETED,
 *			the INSERT's neither FAILED, FAILING nor STOPPED
 *			(stopped only when the contract says suspended)
 *	job		CFK does not refresh status.phase for a running
 *			streaming statement, so the INSERT's job is read
 *			where CMF runs it: the FlinkDeployment named after
 *			the statement in the FlinkEnvironment's
 *			spec.kubernetesNamespace, its jobStatus.state
 *			RUNNING.  When that namespace or deployment cannot
 *			be found the piece is unavailable: unproven, never
 *			passed.
 */
#ifndef FLUID_VERIFY_CFK_H
#define FLUID_VERIFY_CFK_H

#include <stdbool.h>
#include <jansson.h>

#include "verify_int.h"

/* What CFK does not report, said in each CFK build's report. */
#define VFY_CFK_NOTE "CFK does not refresh status.phase of a running " \
	"streaming FlinkStatement (it can read PENDING while the job runs): " \
	"the job piece reads the job's FlinkDeployment, which CMF keeps " \
	"current, in the FlinkEnvironment's kubernetesNamespace"

/* The name of CFK piece i (0 statements, 1 job). */
const char *vfy_cfk_kind(int i);
/* What CFK piece i of checked build cb checks, in words (new). */
char	*vfy_cfk_checked(const json_t *cb, int i);
/* The rendered resources of build id in doc's k8s section (borrowed). */
json_t	*vfy_cfk_rendered(json_t *doc, const char *id);

/*
 * Read the pieces of checked build cb (rendered: its resources) that
 * are asked for, into st (statements) and job.  env is verify_opts.env
 * (KUBECTL, the deadline, the namespace allowlist).
 */
void	vfy_cfk_read(const json_t *cb, const json_t *rendered,
	    char *(*env)(const char *), bool want_st, struct vfy_reading *st,
	    bool want_job, struct vfy_reading *job);

#endif
