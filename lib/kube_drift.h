/*
 * kube_drift.h - fluid diff --exit-on-drift: what a build's live
 * FlinkDeployment and ConfigMap are, against what fluid apply recorded
 * and what the contract renders now.
 *
 * A kube module: it reads the cluster through kube.h, and only the tool
 * (tools/fluid_diff.c) includes it (lib/fluid.h, tests/bats/layout.bats).
 * It writes nothing.
 *
 * Per build, three reads (kubectl get --show-managed-fields):
 *
 *	ConfigMap	<deployment>-fluid-last-applied, fluid apply's record:
 *			data["resources.json"], a kubectl List of the
 *			ConfigMap and the FlinkDeployment it applied, and
 *			data.mode
 *	FlinkDeployment	<deployment>, live
 *	ConfigMap	the one the record names, live
 *
 * and one of three answers:
 *
 *	drift	a field fluid applied has another value live (or is gone,
 *		or the resource is): someone else wrote it.  Only fields
 *		fluid sent are compared, never those the API server or the
 *		operator add (defaults, status, managedFields).  Each field
 *		is listed with both values and the manager that owns it now
 *		(metadata.managedFields).
 *	pending	the live spec is what was applied, and the contract's plan
 *		(k8s_plan() against the record) is not: an intentional
 *		change, not yet applied; or the deployment is new (neither
 *		it nor a record exists).
 *	clean	the live spec is what was applied, and the contract still
 *		renders it.
 *
 * A record that is missing while the deployment exists, one that cannot
 * be read, or a cluster that cannot be reached, is a fatal diagnostic
 * (EXIT_USAGE): never a clean answer.
 */
#ifndef FLUID_KUBE_DRIFT_H
#define FLUID_KUBE_DRIFT_H

#include <jansson.h>

#include "diag.h"
#include "kube.h"

#define KUBE_RECORD_SUFFIX	"-fluid-last-applied"

/*
 * The answer for build id (deployment in ns, through k), against the
 * k8s section of doc (the pipeline document after fluid-k8s render):
 * a new reference,
 *
 *	{"build", "namespace", "flinkDeployment", "status": "clean" |
 *	 "pending" | "drift", "fields": [{"resource", "field", "applied",
 *	 "live", "manager"}], "changes": [{"resource", "action"}]}
 *
 * where "changes" are the plan's resources of this build that are not
 * "unchanged" against the record.  NULL with a fatal diagnostic in d
 * when there is no answer (see above).
 */
json_t	*kube_drift_build(const struct kube *k, json_t *doc, const char *id,
	    const char *ns, const char *deployment, struct diags *d);

/*
 * The fields of applied whose value live does not have, appended to out
 * as {"resource", "field", "applied", "live", "manager"} (resource is a
 * label such as "FlinkDeployment ns/name").  Compared: metadata.labels,
 * metadata.annotations and everything outside metadata, numbers as
 * numbers (the API server writes 1 for 1.0); an array of another length
 * is one field.  The manager is the one metadata.managedFields of live
 * gives the deepest ownership of the field, another manager's before
 * fluid's, or null.
 */
void	kube_drift_fields(const char *resource, const json_t *applied,
	    const json_t *live, json_t *out);

#endif
