# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/20-verify.sh - fluid verify's deployment evidence
# against the lane's API server: an example applied with fluid apply, then
# fluid verify reads the real FlinkDeployment and fluid apply's
# last-applied record through kubectl.
#
# The status here is written by the check (status_by_check), in a
# namespace the lane's operator does not watch: these are the states the
# operator does not reach within a check of this lane, each judged in
# seconds: a reconciled spec other than the applied one (the operator
# reconciles whatever is applied), a job FAILED with the operator's error
# (a job that exhausts its restarts: minutes of Pods per case), a running
# job where the contract says suspended.  The operator's own statuses of a
# running, upgraded, suspended, restored and failed-savepoint job are
# judged by checks/60-operator-stream.sh, with fluid verify --strict.
#
# The lane has no catalog, and ICEBERG_TOKEN is not set, so the catalog's
# pieces are unavailable (required, so an error: verify exits 1 in every
# case here) without anything being contacted; the checks assert on the
# deployment piece of delivery.json and on verify's diagnostics (the
# checkpoint piece fails too: no JobManager runs here).  Uses
# lane_contract, fluid_env, fluid_plan, fluid_apply and calls_clean of
# 10-apply.sh.

# verify_applied [SED-EXPR...] : the landed example, planned and applied;
# sets VC (the contract) and VNAME (the FlinkDeployment).
verify_applied() {
	VC=$(lane_contract landed/orders-landed.fluid.yaml "$@") || return
	fluid_plan "$VC" amend "$CHECK_DIR/plan.json" || return
	VNAME=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	fluid_apply "$CHECK_DIR/plan.json" amend || { fail "apply: $(head -c 600 "$ERR")"; return 1; }
}

# operator_status LIFECYCLE JOB [JQ] : written by the check (see above), in
# the shape the operator (1.13) writes after reconciling the live spec: its
# lastReconciledSpec is the live spec, as the operator serialises it
# ({"spec": ..., "resource_metadata": ...}), edited by JQ (on .spec).
operator_status() {
	local spec
	spec=$(kc -n "$CHECK_NS" get flinkdeployment "$VNAME" -o json | jq -c "{spec: (.spec | ${3:-.}),
		resource_metadata: {apiVersion: \"flink.apache.org/v1beta1\", metadata: {generation: .metadata.generation}, firstDeployment: true}}") ||
		{ fail "read the live spec"; return 1; }
	must "the status $1/$2, written by the check" status_by_check "flinkdeployment/$VNAME" "$(jq -cn \
		--arg lc "$1" --arg js "$2" --arg spec "$spec" '{
		lifecycleState: $lc,
		jobStatus: {state: $js, jobId: "a5c0ffee00000000a5c0ffee00000000", jobName: "land-orders"},
		reconciliationStatus: {state: "DEPLOYED", lastReconciledSpec: $spec}}')"
}

# fluid_verify : fluid verify --streaming-timeout 0 --out delivery.json
# of VC; its status in RC, the deployment piece in $CHECK_DIR/dep.json.
fluid_verify() {
	rm -f "$CHECK_DIR/delivery.json"
	try fluid_env "$FLUID_BIN/fluid" verify --streaming-timeout 0 --out "$CHECK_DIR/delivery.json" "$VC"
	RC=$?
	[ -s "$CHECK_DIR/delivery.json" ] || { fail "no delivery.json (exit $RC): $(head -c 600 "$ERR")"; return 1; }
	jq '.builds[0].evidence[] | select(.evidence == "deployment")' "$CHECK_DIR/delivery.json" >"$CHECK_DIR/dep.json"
}

# The reconciled spec is the applied one, the lifecycle STABLE and the job
# RUNNING: the deployment piece passes, read from the lane's context; the
# catalog's pieces (no catalog here) make the exit status 1.
check_verify_deployment_passes() {
	verify_applied || return
	operator_status STABLE RUNNING || return
	fluid_verify || return
	eq "exit status (the catalog is unavailable)" "$RC" 1 || return
	eq "deployment outcome" "$(jq -r .outcome "$CHECK_DIR/dep.json")" pass || return
	grep -q "^land-orders: deployment: pass$" "$OUT" || { fail "no deployment line: $(cat "$OUT")"; return 1; }
	grep -q "lifecycleState STABLE, jobStatus.state RUNNING" "$CHECK_DIR/dep.json" ||
		{ fail "the detail does not say the state: $(cat "$CHECK_DIR/dep.json")"; return 1; }
	eq "endpoint" "$(jq -r .endpoint "$CHECK_DIR/dep.json")" \
		"kubectl --context=$K8S_CONTEXT: flinkdeployment $CHECK_NS/$VNAME, configmap $CHECK_NS/$VNAME-fluid-last-applied" || return
	eq "catalog-schema outcome" \
		"$(jq -r '.builds[0].evidence[] | select(.evidence == "catalog-schema") | .outcome' "$CHECK_DIR/delivery.json")" unavailable || return
	if grep -q "land-orders: deployment:" "$ERR"; then fail "a diagnostic about the deployment: $(grep "land-orders: deployment:" "$ERR")"; return 1; fi
	calls_clean
}

# Before the operator has written any status, and when the operator's
# reconciled spec has another parallelism than fluid applied, the piece
# fails and says where the specs differ.
check_verify_reconciled_spec_differs() {
	verify_applied || return
	fluid_verify || return
	eq "exit status (not reconciled)" "$RC" 1 || return
	eq "outcome (not reconciled)" "$(jq -r .outcome "$CHECK_DIR/dep.json")" fail || return
	grep -q "error: Flink build land-orders: deployment: the operator has not reconciled the deployment" "$ERR" ||
		{ fail "not the unreconciled reason: $(head -c 600 "$ERR")"; return 1; }
	operator_status STABLE RUNNING '.job.parallelism = 7' || return
	fluid_verify || return
	eq "exit status" "$RC" 1 || return
	eq "outcome" "$(jq -r .outcome "$CHECK_DIR/dep.json")" fail || return
	grep -q "error: Flink build land-orders: deployment: the operator's reconciled spec is not the applied one: spec.job.parallelism is 7 reconciled, 1 applied" "$ERR" ||
		{ fail "not the spec's difference: $(head -c 600 "$ERR")"; return 1; }
	calls_clean
}

# A FAILED job fails the piece, with the operator's error; suspended in
# the contract wants SUSPENDED, so a RUNNING job then fails, and a
# SUSPENDED one passes.
check_verify_job_state() {
	verify_applied || return
	operator_status STABLE FAILED || return
	must "the error, written by the check" status_by_check "flinkdeployment/$VNAME" \
		'{"error": "org.apache.flink.runtime.JobException: Recovery is suppressed"}' || return
	fluid_verify || return
	eq "exit status (FAILED)" "$RC" 1 || return
	eq "outcome (FAILED)" "$(jq -r .outcome "$CHECK_DIR/dep.json")" fail || return
	grep -q "error: Flink build land-orders: deployment: the job failed (lifecycleState STABLE, jobStatus.state FAILED); the operator's status.error: org.apache.flink.runtime.JobException: Recovery is suppressed" "$ERR" ||
		{ fail "not the failed job: $(head -c 600 "$ERR")"; return 1; }
	verify_applied "s/^\( *\)context: $K8S_CONTEXT$/&\n\1state: suspended/" || return
	operator_status STABLE RUNNING || return
	fluid_verify || return
	eq "outcome (suspended, RUNNING)" "$(jq -r .outcome "$CHECK_DIR/dep.json")" fail || return
	grep -q "deployment: lifecycleState STABLE, jobStatus.state RUNNING: want SUSPENDED" "$ERR" ||
		{ fail "not the unsuspended job: $(head -c 600 "$ERR")"; return 1; }
	operator_status SUSPENDED SUSPENDED || return
	fluid_verify || return
	eq "outcome (suspended, SUSPENDED)" "$(jq -r .outcome "$CHECK_DIR/dep.json")" pass || return
	calls_clean
}
