/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_cfk.h - the Confluent for Kubernetes (CFK) target of a managed
 * build: parameters.flink.management: cfk (fluid-check(1), CFK TARGET).
 *
 * CMF (Confluent Manager for Apache Flink) runs each SQL statement of
 * the build as its own FlinkStatement on a compute pool.  The checks
 * here are the target's: its deployment fields, the operator target's
 * fields it refuses (and the reverse, for check.c), and what CMF
 * cannot run.  Shared only with check.c; names start with chk_cfk_.
 */
#ifndef FLUID_CHECK_CFK_H
#define FLUID_CHECK_CFK_H

#include <stdbool.h>
#include <jansson.h>

#include "check_int.h"

/* The management value that selects the target. */
#define CHK_CFK_MANAGEMENT	"cfk"
/*
 * The longest deployment name: the statements are named
 * <name>-<kind>-<12 hex> (kind src, snk or ins), and CMF names are at
 * most 45 characters.
 */
#define CHK_CFK_NAME_MAX	28

/*
 * The deployment keys of one target that the other refuses, with the
 * reason, NULL-terminated: check.c's operator target passes over
 * chk_cfk_only_keys in its own key check and reports them with
 * chk_cfk_refuse_keys().
 */
extern const char *const chk_cfk_only_keys[];
extern const char *const chk_cfk_operator_keys[];
/*
 * Refuse each key of dep (l at the deployment) in keys: CFK's on the
 * operator target (cfk false) or the operator's on CFK (cfk true), each
 * with why.  Returns the number refused.
 */
int	 chk_cfk_refuse_keys(struct chk *, struct chk_loc *, json_t *dep,
	    bool cfk);

/*
 * deployment of a cfk build (l at parameters.flink): the deployment IR
 * with "target": "cfk", or NULL (*ok false) after errors.
 */
json_t	*chk_cfk_deployment(struct chk *, struct chk_loc *, json_t *flink,
	    bool *ok);
/*
 * What CMF cannot run, in the checked build ir (l at the build, xi the
 * expose it writes): each refused with the reason.  False after errors.
 */
bool	 chk_cfk_build(struct chk *, struct chk_loc *, json_t *ir, int xi);

#endif
