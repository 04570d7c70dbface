/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_cfk.h - a checked plan's CFK builds written through kubectl
 * (fluid-k8s(1), CFK TARGET): kube_apply_plan() (kube_apply.h) hands
 * them here.  Per build, before any write: the rendered compute pool,
 * each FlinkStatement and every FlinkStatement carrying the build's
 * labels are read, ownership and the mode checked.  Then, in order:
 * the pool; the source and sink statements, each waited for until CMF
 * reports status.phase COMPLETED (a DDL not COMPLETED stops the apply
 * before the INSERT); every old INSERT of the build stopped
 * (spec.stopped: true); the INSERT; the old statements deleted, INSERT
 * first, then sink, then source.  cmfSync.status Failed, or phase
 * FAILED or FAILING, is an error with CMF's message.
 */
#ifndef FLUID_KUBE_CFK_H
#define FLUID_KUBE_CFK_H

#include <jansson.h>

#include "diag.h"
#include "kube_apply.h"

struct kube_cfk;

/* Read every CFK build of plan; errors in d.  Free with kube_cfk_free(). */
struct kube_cfk *kube_cfk_read(const json_t *plan,
	    const struct kube_apply_opts *o, struct diags *d);
/* The writes, build by build; stops at the first error.  0 or -1. */
int	kube_cfk_write(struct kube_cfk *, const struct kube_apply_opts *o,
	    struct diags *d);
void	kube_cfk_free(struct kube_cfk *);

#endif
