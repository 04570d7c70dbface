/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_cfk_drift.h - drift for a CFK build (management: cfk), which
 * kube_drift.h hands here: its live FlinkComputePool (when fluid renders
 * one) and FlinkStatements against what the contract renders now
 * (fluid-diff(1), The CFK target).  A CFK build has no last-applied
 * record, so what fluid sent is told from what others did by
 * metadata.managedFields (server-side apply, field manager fluid) and by
 * the statements' fluid.dev/bundle-digest annotation.
 *
 * Reads only: one kubectl get per kind, by the build's labels
 * (--selector, --show-managed-fields), in the build's namespace; every
 * object listed is checked again to carry the labels.  A kube module:
 * only the tools and the other kube modules include it.
 */
#ifndef FLUID_KUBE_CFK_DRIFT_H
#define FLUID_KUBE_CFK_DRIFT_H

#include <jansson.h>

#include "allow.h"
#include "diag.h"
#include "kube.h"

/*
 * The allowlists of CFK build entry b of plan as drift checks them
 * (context, namespace, the rendered pool's image: k8s_cfk_plan.h's), each
 * refusal an error in d placed at path.
 */
void	kube_cfk_drift_allow(const json_t *plan, const json_t *b,
	    const struct allow *al, const char *path, struct diags *d);

/*
 * The answer for CFK build entry b of plan (a new reference):
 *
 *	{"build", "namespace", "target": "cfk", "computePool" (or null),
 *	 "statements": [names], "status": "clean" | "pending" | "drift",
 *	 "fields": [{"resource", "field", "applied", "live", "manager",
 *	   "kind": "missing" | "differs" | "left-over" | "stopped"}],
 *	 "changes": [{"resource", "action": "new" | "changed" | "delete"}]}
 *
 * NULL with a fatal diagnostic in d when there is no answer (a read
 * that failed).
 */
/*
 * fields is kube_drift_fields() (kube_drift.h), handed in by its module,
 * which dispatches here: the comparison is that one, and the two
 * modules do not include each other.
 */
typedef void (*kube_cfk_fields_fn)(const char *resource,
	    const json_t *applied, const json_t *live, json_t *out);
json_t	*kube_cfk_drift_build(const struct kube *k, const json_t *plan,
	    const json_t *b, kube_cfk_fields_fn fields, struct diags *d);

/*
 * Shared with fluid verify's CFK pieces (verify_cfk.c).
 *
 * kube_cfk_list(): the objects of kind (flinkstatement,
 * flinkcomputepool) in ns that carry fluid's labels for product and
 * build id, by one kubectl get --selector (with managed, their
 * managedFields): 0 and *items (a new array of the objects that carry
 * the labels, checked again), or -1 and *why (new, one escaped line:
 * kubectl's words or fluid's) when the read failed, its answer is not
 * a list, or an item of it is not an object of kind in ns (labels are
 * anyone's to set; kind and namespace are the API server's).
 */
int	kube_cfk_list(const struct kube *k, const char *kind, const char *ns,
	    const char *product, const char *id, int managed, json_t **items,
	    char **why);
/*
 * s, read from the cluster, as a message may show it (new): printable
 * ASCII, every other byte \xNN, cut at max bytes with "..."; "(none)"
 * for NULL.
 */
char	*kube_cfk_text(const char *s, size_t max);

#endif
