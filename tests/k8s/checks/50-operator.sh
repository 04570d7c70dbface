# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/50-operator.sh - fluid's resources on the real Flink
# Kubernetes operator (1.13.0, built from its source, running out of the
# cluster against the lane's API server; lib/cluster.sh start_operator).
# Nothing here writes the operator's status: every status, event, object
# and finalizer judged below is the operator's own.
#
# The checks of this file name themselves in "# operator check_NAME" lines:
# lane.sh makes the operator watch their namespaces (and only those, so
# that the checks that write a status themselves are left alone).
#
# It uses lane_contract, fluid_env, fluid_plan, fluid_apply, calls_clean
# (10-apply.sh), drift and applied (30-drift.sh) and jq_fd (00-lane.sh).

# operator check_operator_deploys_example
# operator check_operator_status_is_not_drift

# op_prereqs : what fluid's FlinkDeployment names and a cluster admin
# provides: the service account flink with the Role the operator's Helm
# chart gives its JobManagers (pods and ConfigMaps, the JobManager's
# Deployment; not the aggregated "edit" role: the lane runs no
# clusterrole-aggregation controller), the Secret flink-storage.
op_prereqs() {
	must "service account flink" kc -n "$CHECK_NS" create serviceaccount flink || return
	must "the JobManagers' role" kc -n "$CHECK_NS" apply -f - <<'YAML' || return
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: flink}
rules:
- apiGroups: [""]
  resources: [pods, configmaps]
  verbs: ["*"]
- apiGroups: [apps]
  resources: [deployments, deployments/finalizers]
  verbs: ["*"]
YAML
	must "flink has it" kc -n "$CHECK_NS" create rolebinding flink \
		--role=flink --serviceaccount="$CHECK_NS:flink" || return
	must "Secret flink-storage" kc -n "$CHECK_NS" create secret generic flink-storage \
		--from-literal=AWS_ACCESS_KEY_ID=lane --from-literal=AWS_SECRET_ACCESS_KEY=lane-secret \
		--from-literal=AWS_REGION=us-east-1 || return
}

# op_wait WHAT SECONDS JQ : poll the FlinkDeployment $NAME until JQ (on its
# JSON) is true, the deadline passes (fail, with the status) or never.
op_wait() {
	local what=$1 secs=$2 filter=$3 deadline
	deadline=$(( $(date +%s) + secs ))
	while [ "$(date +%s)" -lt "$deadline" ]; do
		kc -n "$CHECK_NS" get flinkdeployment "$NAME" -o json >"$CHECK_DIR/fd.json" 2>/dev/null &&
			jq -e "$filter" "$CHECK_DIR/fd.json" >/dev/null 2>&1 && return 0
		sleep 1
	done
	fail "$what: not within $secs s; the operator's status: $(jq -c .status "$CHECK_DIR/fd.json" 2>/dev/null | head -c 600)"
}

# op_done : the FlinkDeployment deleted (the operator tears its JobManager
# down), so that its Pods do not run on through the later checks.
op_done() {
	[ -n "${NAME:-}" ] && kc -n "$CHECK_NS" delete flinkdeployment "$NAME" --wait=false >/dev/null 2>&1
	return 0
}

# op_applied : the landed example applied by fluid ($NAME, $PLAN).
op_applied() {
	local c
	op_prereqs || return
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	CONTRACT=$c
	PLAN=$CHECK_DIR/plan.json
	fluid_plan "$c" amend "$PLAN" || return
	# The operator watches this namespace: apply waits (bounded) for it to
	# take the FlinkDeployment (status.observedGeneration).
	APPLY_WAIT=90 fluid_apply "$PLAN" amend || { fail "fluid apply: exit $?: $(head -c 600 "$ERR")"; return 1; }
	NAME=$(jq -r '.builds[0].flinkDeployment' "$PLAN")
	grep -q "FlinkDeployment $CHECK_NS/$NAME: the operator took generation 1" "$OUT" "$ERR" ||
		{ fail "apply did not see the operator take the FlinkDeployment: $(head -c 600 "$OUT") $(head -c 600 "$ERR")"; return 1; }
}

# The operator takes fluid's FlinkDeployment: its validator accepts it (no
# status.error), it reconciles it (lastReconciledSpec is the applied spec,
# with the first deployment's upgradeMode stateless, as 1.13.0 records it),
# and it creates the JobManager's Deployment, the NAME-rest Service (port
# rest, 8081) and its ConfigMaps, owned by the FlinkDeployment; it puts its
# finalizer on it and emits a Submit event.
check_operator_deploys_example() {
	trap op_done EXIT
	op_applied || return
	# The operator first records the spec with job.state suspended, then
	# deploys and records it running.
	op_wait "the operator reconciles $NAME" 240 \
		'(.status.reconciliationStatus.lastReconciledSpec // "") as $s | $s != "" and
		 ($s | fromjson | .spec.job.state) == "running"' || return
	eq "status.error" "$(jq -r '.status.error // ""' "$CHECK_DIR/fd.json")" "" || return
	jq -r .status.reconciliationStatus.lastReconciledSpec "$CHECK_DIR/fd.json" >"$CHECK_DIR/reconciled.json"
	eq "the reconciled job (args, parallelism, state)" \
		"$(jq -c '.spec.job | {args, parallelism, state, jarURI, entryClass}' "$CHECK_DIR/reconciled.json")" \
		"$(jq -c '.resources[] | .resource | select(.kind == "FlinkDeployment") | .spec.job | {args, parallelism, state, jarURI, entryClass}' "$PLAN")" || return
	eq "the first deployment's reconciled upgradeMode" \
		"$(jq -r '[.spec.job.upgradeMode, .resource_metadata.firstDeployment] | join(" ")' "$CHECK_DIR/reconciled.json")" \
		"stateless true" || return
	eq "reconciled flinkConfiguration" \
		"$(jq -cS '.spec.flinkConfiguration' "$CHECK_DIR/reconciled.json")" \
		"$(jq -cS '.resources[] | .resource | select(.kind == "FlinkDeployment") | .spec.flinkConfiguration' "$PLAN")" || return
	case $(jq -r .status.lifecycleState "$CHECK_DIR/fd.json") in
	DEPLOYED|STABLE) ;;
	*) fail "lifecycleState: $(jq -c .status "$CHECK_DIR/fd.json" | head -c 600)"; return 1 ;;
	esac
	jq -e '.metadata.finalizers | index("flinkdeployments.flink.apache.org/finalizer")' "$CHECK_DIR/fd.json" >/dev/null ||
		{ fail "no operator finalizer: $(jq -c .metadata.finalizers "$CHECK_DIR/fd.json")"; return 1; }
	local uid
	uid=$(jq -r .metadata.uid "$CHECK_DIR/fd.json")
	must "the JobManager's Deployment" kc -n "$CHECK_NS" get deployment "$NAME" -o json || return
	eq "the Deployment's owner" "$(jq -r '.metadata.ownerReferences[0] | "\(.kind) \(.uid)"' "$OUT")" "FlinkDeployment $uid" || return
	eq "the JobManager's service account" "$(jq -r .spec.template.spec.serviceAccountName "$OUT")" flink || return
	must "the rest Service" kc -n "$CHECK_NS" get service "$NAME-rest" -o json || return
	eq "the rest port" "$(jq -r '.spec.ports[] | select(.name == "rest") | .port' "$OUT")" 8081 || return
	must "the operator's ConfigMaps" kc -n "$CHECK_NS" get configmap "flink-config-$NAME" "pod-template-$NAME" -o name || return
	local n
	for (( n=0; n<30; n++ )); do
		kc -n "$CHECK_NS" get events -o json >"$CHECK_DIR/events.json" &&
			jq -e --arg n "$NAME" '.items[] | select(.involvedObject.kind == "FlinkDeployment" and
				.involvedObject.name == $n and .reason == "Submit")' "$CHECK_DIR/events.json" >/dev/null && break
		sleep 1
	done
	[ "$n" -lt 30 ] || { fail "no Submit event from the operator: $(jq -c '[.items[] | .reason]' "$CHECK_DIR/events.json")"; return 1; }
	calls_clean
}

# What the operator writes is not drift: its status, its finalizer and the
# objects it creates leave fluid diff --exit-on-drift clean (exit 0); a
# field another manager changes on the live resource is drift (exit 1),
# named with that manager.
check_operator_status_is_not_drift() {
	trap op_done EXIT
	local rc
	op_applied || return
	op_wait "the operator's status and finalizer on $NAME" 240 \
		'(.status.reconciliationStatus.lastReconciledSpec // "" | length > 0) and
		 ((.metadata.finalizers // []) | length > 0)' || return
	drift "$CONTRACT"
	rc=$?
	eq "fluid diff after the operator's writes: exit (stdout: $(head -c 400 "$OUT"); stderr: $(head -c 400 "$ERR"))" "$rc" 0 || return
	eq "clean" "$(jq -r '.builds[0].status' "$OUT")" clean || return
	must "another manager sets the parallelism" kc -n "$CHECK_NS" patch flinkdeployment "$NAME" \
		--type=merge --field-manager=other -p '{"spec":{"job":{"parallelism":3}}}' || return
	drift "$CONTRACT"
	eq "fluid diff after another manager's change: exit" "$?" 1 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
	eq "the drifted field" "$(jq -c '[.builds[0].fields[] | {field, live, manager}]' "$OUT")" \
		'[{"field":".spec.job.parallelism","live":3,"manager":"other"}]' || return
	calls_clean
}
