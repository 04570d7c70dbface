/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_cfk_plan.h - a CFK build (management: cfk) in fluid plan's document
 * and apply's allowlists (fluid-k8s(1), CFK TARGET).
 *
 * A CFK build's entry in the plan's "builds" names what apply writes,
 * in order: {build, target: "cfk", context, namespace, flinkEnvironment,
 * computePool (rendered only), statements [names, source, sink, insert],
 * state}.  Its resources are the k8s section's (k8s_cfk_render.h); apply
 * re-renders them from the plan's bundle as for the operator target
 * (plan.h).
 */
#ifndef FLUID_K8S_CFK_PLAN_H
#define FLUID_K8S_CFK_PLAN_H

#include <jansson.h>

#include "allow.h"
#include "diag.h"

/* The annotation on a FlinkStatement that says its role. */
#define CFK_ANN_ROLE	"fluid.dev/statement-role"

/*
 * The plan's "builds" entry of CFK build id (a new reference): dep the
 * checked build's deployment, res the build's rendered resources.
 */
json_t	*cfk_plan_build(const char *id, const json_t *dep, const json_t *res);

/* Whether the plan's build entry b is a CFK build's. */
int	 cfk_plan_is(const json_t *b);

/*
 * Whether r, a resource of the plan, is one CFK build entry b names
 * (its compute pool or one of its statements).
 */
int	 cfk_plan_names(const json_t *b, const json_t *r);

/*
 * The allowlists on CFK build entry b of plan (tg: the plan's targets
 * entry of the build) that read its resources: each one's kind, API
 * version and namespace; the context, the namespace and the rendered
 * pool's image (by digest); the FlinkEnvironment, the CMFRestClass and
 * an existing pool (one the build does not render) each resource names,
 * against lists of their own (allow_cfk()).  Each refusal an error in d
 * placed at path.
 * Returns the hosts named in the statements' WITH options
 * (properties.bootstrap.servers, uri, *.url, *.endpoint) that tg does
 * not already name, in *hosts (free with cfk_allow_hosts_free()): the
 * caller checks them with the build's targets (plan.h).
 */
size_t	 cfk_allow_build(const json_t *plan, const json_t *b,
	    const json_t *tg, const struct allow *al, const char *path,
	    struct diags *d, struct allow_target **hosts);
void	 cfk_allow_hosts_free(struct allow_target *hosts, size_t n);

#endif
