/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_cfk_render.h - the Confluent for Kubernetes resources of a build
 * whose deployment targets CFK (management: cfk), made offline as
 * k8s.h's renderer makes the FlinkDeployment's, and dispatched from it:
 *
 *	FlinkComputePool  <computePool.name>, only when the contract
 *			  describes the pool (computePool.type and the rest)
 *	FlinkStatement	  <name>-<src|snk|ins>-<12 hex of the statement's
 *			  digest>, one per statement of sqlgen_cfk.h, in
 *			  the order they are applied
 *
 * platform.confluent.io/v1beta1, CFK 3.3.0's schemas.  The statement's
 * SQL is immutable in CFK once it runs, so a changed statement is a
 * FlinkStatement of another name.  Nothing here reads the environment
 * or contacts a cluster (k8s.h's rule for renderers).
 */
#ifndef FLUID_K8S_CFK_RENDER_H
#define FLUID_K8S_CFK_RENDER_H

#include <stdbool.h>
#include <jansson.h>

#include "diag.h"

#define CFK_API_VERSION	"platform.confluent.io/v1beta1"
/* Hex digits of the statement's digest in a FlinkStatement's name. */
#define CFK_NAME_HEX	12
/* CMF's limit on the names of its objects (and so of the CRs). */
#define CFK_NAME_MAX	45
/* The interval set on the INSERT, the operator target's (k8s_render.c). */
#define CFK_CHECKPOINT_INTERVAL	"60s"

/* Whether checked build cb's deployment targets CFK (in cfk_plan.c). */
bool	 cfk_render_target(const json_t *cb);
/*
 * The resources of sqlgen entry e of checked build cb (a new array), or
 * NULL after an error in d; ptr is the contract's pointer to the
 * build's deployment (NULL: none known), bundle the bundle digest.
 */
json_t	*cfk_render(const json_t *e, const json_t *cb, const char *bundle,
	    const char *ptr, struct diags *d);

#endif
