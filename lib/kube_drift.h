/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_drift.h - drift: what each build's live FlinkDeployment and
 * ConfigMap are, against what fluid apply recorded and what the
 * contract renders now.  fluid-diff --live and fluid diff
 * --exit-on-drift (fluid-diff(1)).
 *
 * A kube module: it reads the cluster through kube.h, so only the tools
 * and the other kube modules include it (lib/fluid.h,
 * tests/bats/layout.bats).  It writes nothing.
 *
 * Before any kubectl run, every build's deployment targets are checked
 * against the operator allowlists (allow.h, ALLOW_CMD_DIFF: context,
 * namespace, image, service account, Secrets): fluid reads no cluster
 * it would not write to.  Then three reads (kubectl get
 * --show-managed-fields), by names fluid renders only (past 8 names, a
 * LIST of the kind whose other objects are skipped), each one kubectl
 * run for every build in a context and namespace (so as many runs for
 * one build as for twenty), in this order:
 *
 *	ConfigMap	<deployment>-fluid-last-applied, fluid apply's
 *			record (kube_record.h), checked to be the
 *			deployment's own before anything of it is used
 *	FlinkDeployment	<deployment>, live
 *	ConfigMap	<deployment>-sql-<12 hex>, the one the record names,
 *			live (read once every record is checked)
 *
 * and one of three answers:
 *
 *	drift	a field of the live spec (everything outside metadata and
 *		status), or of the ConfigMap, is not the one fluid applied:
 *		another value, gone, or added by someone else; or a label
 *		or annotation fluid set has another value; or a resource
 *		is gone.  Each field is listed with both values and the
 *		manager that owns it now (metadata.managedFields).  The
 *		operator writes no field of the spec (fluid-diff(1) says
 *		what it writes instead), so no field of the spec is
 *		ignored.
 *	pending	the live resources are what was applied, and the
 *		contract's plan (k8s_plan() against the record) is not:
 *		an intentional change, not yet applied; or the deployment
 *		is new (neither it nor a record exists).
 *	clean	the live resources are what was applied, and the contract
 *		still renders them.
 *
 * A CFK build (management: cfk) has neither record nor FlinkDeployment:
 * its allowlists and reads are kube_cfk_drift.h's, and its answer has
 * that header's shape.
 *
 * A record that is missing while the deployment exists, one that is not
 * the deployment's own, one that cannot be read, or a cluster that
 * cannot be reached, is a fatal diagnostic (EXIT_USAGE): never an
 * answer, and never a read elsewhere.
 */
#ifndef FLUID_KUBE_DRIFT_H
#define FLUID_KUBE_DRIFT_H

#include <jansson.h>

#include "diag.h"
#include "kube.h"

/*
 * The drift answer for every build of doc (the pipeline document after
 * fluid-k8s render), a new reference:
 *
 *	{"fluidDrift": 1, "contract": contract,
 *	 "counts": {"clean": N, "pending": N, "drift": N},
 *	 "builds": [{"build", "namespace", "flinkDeployment", "status":
 *	   "clean" | "pending" | "drift", "fields": [{"resource", "field",
 *	   "applied", "live", "manager"}], "changes": [{"resource",
 *	   "action"}]}, one per build]}
 *
 * where "changes" are the plan's resources of the build that are not
 * "unchanged" against the record. *
 * env is getenv-like (KUBECTL, FLUID_KUBECTL_DEADLINE_S, the
 * allowlists).  path places the allowlist refusals (errors: EXIT_REFUSED,
 * no kubectl run).  NULL with diagnostics in d when there is no answer:
 * one build without an answer is no answer.
 */
json_t	*kube_drift_run(json_t *doc, const char *contract, const char *path,
	    char *(*env)(const char *), struct diags *d);

/*
 * kubectl get --output=json --ignore-not-found's standard output (len
 * bytes, not NUL-terminated): 1 and *obj (a new reference) when it is
 * one JSON object, 0 when it is only blanks (the object does not
 * exist), -1 with err's text otherwise.  Duplicate keys are refused.
 */
int	kube_drift_answer(const char *buf, size_t len, json_t **obj,
	    json_error_t *err);

/*
 * The fields where live is not applied, appended to out as
 * {"resource", "field", "applied", "live", "manager"} (resource is a
 * label such as "FlinkDeployment ns/name"; a side that has no such
 * field is null).  Compared both ways: everything outside metadata,
 * status, apiVersion and kind, numbers as numbers (the API server
 * writes 1 for 1.0), an array of another length as one field, a field
 * only one side has as one field (its topmost key); and one way the
 * labels and annotations applied (others may add their own).  The
 * manager is the one metadata.managedFields of live gives the deepest
 * ownership of the field, another manager's before fluid's, or null.
 */
void	kube_drift_fields(const char *resource, const json_t *applied,
	    const json_t *live, json_t *out);

#endif
