# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/00-lane.sh - the lane's own smoke checks: what the API
# server, the CRD and kubectl do that fluid-k8s will rely on.  No fluid-k8s
# yet; its tests go in further files of this directory as more check_*
# functions (see tests/k8s/README.md, "Adding a check").

# The CRD from the operator's jar is Established and serves v1beta1, with
# v1_20 among its flinkVersion values and a status subresource.
check_crd_established_serves_v1beta1() {
	must "get crd" kc get crd "$CRD_NAME" -o json || return
	cp "$OUT" "$CHECK_DIR/crd.json"
	eq "Established" "$(jq -r '.status.conditions[] | select(.type == "Established") | .status' "$CHECK_DIR/crd.json")" True || return
	eq "v1beta1 served" "$(jq -r '.spec.versions[] | select(.name == "v1beta1") | .served' "$CHECK_DIR/crd.json")" true || return
	eq "v1beta1 stored" "$(jq -r '.spec.versions[] | select(.name == "v1beta1") | .storage' "$CHECK_DIR/crd.json")" true || return
	eq "v1_20 in the flinkVersion enum" "$(jq -r '.spec.versions[] | select(.name == "v1beta1")
		| .schema.openAPIV3Schema.properties.spec.properties.flinkVersion.enum | index("v1_20") != null' \
		"$CHECK_DIR/crd.json")" true || return
	must "discovery" kc get --raw /apis/flink.apache.org/v1beta1 || return
	eq "flinkdeployments/status served" \
		"$(jq -r '[.resources[].name] | index("flinkdeployments/status") != null' "$OUT")" true
}

# Strict field validation refuses a malformed FlinkDeployment: a string for
# an integer, a field the schema does not declare, a value outside an enum.
# The same document without the flaw is accepted (server-side dry run), so
# the refusals are about the flaw; nothing is created.
check_strict_validation_refuses_malformed() {
	local good=$CHECK_DIR/good.yaml
	flinkdeployment bad >"$good"
	must "the well-formed document (dry run)" apply_fluid "$good" --dry-run=server || return
	sed 's/parallelism: 1/parallelism: "two"/' "$good" >"$CHECK_DIR/string.yaml"
	must_refuse "a string for spec.job.parallelism" 'spec\.job\.parallelism.*(expected numeric|integer)' \
		apply_fluid "$CHECK_DIR/string.yaml" || return
	sed 's/^    state: running/&\n    notAField: 1/' "$good" >"$CHECK_DIR/unknown.yaml"
	grep -q notAField "$CHECK_DIR/unknown.yaml" || { fail "test bug: no unknown field written"; return 1; }
	must_refuse "an unknown field spec.job.notAField" 'notAField.*(field not declared in schema|unknown field)' \
		apply_fluid "$CHECK_DIR/unknown.yaml" || return
	# Server-side apply refuses an unknown field whatever the validation
	# level (even --validate=false).  A plain create does so only with strict
	# validation; without it the field is silently dropped.
	must_refuse "create with an unknown field, --validate=strict" 'unknown field "spec\.job\.notAField"' \
		kc -n "$CHECK_NS" create --validate=strict --dry-run=server -f "$CHECK_DIR/unknown.yaml" || return
	must "create with an unknown field, --validate=false" \
		kc -n "$CHECK_NS" create --validate=false --dry-run=server -o json -f "$CHECK_DIR/unknown.yaml" || return
	eq "unknown field dropped without strict validation" "$(jq -r '.spec.job | has("notAField")' "$OUT")" false || return
	sed 's/upgradeMode: savepoint/upgradeMode: whenever/' "$good" >"$CHECK_DIR/enum.yaml"
	must_refuse "upgradeMode outside its enum" 'spec\.job\.upgradeMode: Unsupported value' \
		apply_fluid "$CHECK_DIR/enum.yaml" || return
	must_refuse "nothing was created" 'NotFound|not found' kc -n "$CHECK_NS" get flinkdeployment bad
}

# A valid FlinkDeployment applies server-side as field manager fluid, and
# managedFields says fluid applied the fields it sent.
check_apply_server_side_as_fluid() {
	flinkdeployment job >"$CHECK_DIR/fd.yaml"
	must "apply" apply_fluid "$CHECK_DIR/fd.yaml" || return
	must "get" kc -n "$CHECK_NS" get flinkdeployment job -o json --show-managed-fields || return
	cp "$OUT" "$CHECK_DIR/live.json"
	eq "fluid's operation" "$(jq -r '.metadata.managedFields[] | select(.manager == "fluid") | .operation' "$CHECK_DIR/live.json")" Apply || return
	eq "fluid owns spec.job.parallelism" "$(jq -r '.metadata.managedFields[] | select(.manager == "fluid")
		| .fieldsV1["f:spec"]["f:job"] | has("f:parallelism")' "$CHECK_DIR/live.json")" true || return
	eq "fluid owns spec.flinkVersion" "$(jq -r '.metadata.managedFields[] | select(.manager == "fluid")
		| .fieldsV1["f:spec"] | has("f:flinkVersion")' "$CHECK_DIR/live.json")" true || return
	eq "no other manager" "$(jq -r '[.metadata.managedFields[].manager] | unique | join(",")' "$CHECK_DIR/live.json")" fluid || return
	eq "flinkVersion" "$(jq -r .spec.flinkVersion "$CHECK_DIR/live.json")" v1_20
}

# A second field manager changing a field fluid owns gets a conflict naming
# fluid and the field, and the value stays; only --force-conflicts (which
# fluid never passes) takes it, and then fluid's apply gets the conflict.
check_conflict_on_field_fluid_owns() {
	flinkdeployment job 1 >"$CHECK_DIR/fd.yaml"
	must "fluid applies" apply_fluid "$CHECK_DIR/fd.yaml" || return
	flinkdeployment job 3 >"$CHECK_DIR/other.yaml"
	must_refuse "another manager's apply" 'conflict with "fluid".*\.spec\.job\.parallelism' \
		kc -n "$CHECK_NS" apply --server-side --field-manager=someone-else -f "$CHECK_DIR/other.yaml" || return
	eq "parallelism after the conflict" "$(jq_fd job .spec.job.parallelism)" 1 || return
	must "the same apply with --force-conflicts" \
		kc -n "$CHECK_NS" apply --server-side --field-manager=someone-else --force-conflicts -f "$CHECK_DIR/other.yaml" || return
	eq "parallelism once forced" "$(jq_fd job .spec.job.parallelism)" 3 || return
	# Now someone-else owns it, and fluid's own apply (never forcing) gets
	# the conflict.
	must_refuse "fluid's apply of the field someone-else took" 'conflict with "someone-else".*\.spec\.job\.parallelism' \
		apply_fluid "$CHECK_DIR/fd.yaml" || return
	eq "parallelism after fluid's refused apply" "$(jq_fd job .spec.job.parallelism)" 3
}
jq_fd() { kc -n "$CHECK_NS" get flinkdeployment "$1" -o json | jq -r "$2"; }

# An immutable ConfigMap refuses an edit (apply and patch) and keeps its
# data; the same edit of a mutable one is accepted, so the refusal is the
# immutability.
check_immutable_configmap_refuses_edit() {
	local name
	for name in sql-frozen sql-mutable; do
		cat >"$CHECK_DIR/$name.yaml" <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: $name
$( [ "$name" = sql-frozen ] && echo "immutable: true" )
data:
  job.sql: "INSERT INTO t SELECT 1;"
YAML
		must "create $name" apply_fluid "$CHECK_DIR/$name.yaml" || return
		sed 's/SELECT 1/SELECT 2/' "$CHECK_DIR/$name.yaml" >"$CHECK_DIR/$name-2.yaml"
	done
	must_refuse "apply an edit of the immutable ConfigMap" 'field is immutable when .immutable. is set|field is immutable' \
		apply_fluid "$CHECK_DIR/sql-frozen-2.yaml" || return
	must_refuse "patch the immutable ConfigMap" 'field is immutable' \
		kc -n "$CHECK_NS" patch configmap sql-frozen --type=merge -p '{"data":{"job.sql":"DROP TABLE t;"}}' || return
	eq "immutable data" "$(kc -n "$CHECK_NS" get configmap sql-frozen -o 'jsonpath={.data.job\.sql}')" "INSERT INTO t SELECT 1;" || return
	must "apply the same edit of the mutable ConfigMap" apply_fluid "$CHECK_DIR/sql-mutable-2.yaml" || return
	eq "mutable data" "$(kc -n "$CHECK_NS" get configmap sql-mutable -o 'jsonpath={.data.job\.sql}')" "INSERT INTO t SELECT 2;"
}

# The CRD's status subresource, which the operator writes through: a status
# written there sticks, the CRD's schema applies to it, and a normal apply
# or patch of the object never changes it (so fluid's applies cannot touch
# what the operator reports).
check_status_subresource_holds() {
	local spec
	flinkdeployment job >"$CHECK_DIR/fd.yaml"
	must "apply" apply_fluid "$CHECK_DIR/fd.yaml" || return
	spec=$(jq_fd job '.spec | tojson')
	must "a status through the subresource" status_by_check flinkdeployment/job "$(jq -cn --arg spec "$spec" '{
		lifecycleState: "STABLE",
		jobStatus: {state: "RUNNING", jobId: "0123456789abcdef0123456789abcdef"},
		reconciliationStatus: {state: "DEPLOYED", lastReconciledSpec: $spec}}')" || return
	eq "lifecycleState" "$(jq_fd job .status.lifecycleState)" STABLE || return
	eq "jobStatus.state" "$(jq_fd job .status.jobStatus.state)" RUNNING || return
	eq "lastReconciledSpec is the spec" "$(jq_fd job '.status.reconciliationStatus.lastReconciledSpec | fromjson | .job.upgradeMode')" savepoint || return
	must_refuse "a lifecycleState outside the schema" 'status\.lifecycleState: Unsupported value' \
		status_by_check flinkdeployment/job '{"lifecycleState":"HAPPY"}' || return
	must "a normal patch carrying status" \
		kc -n "$CHECK_NS" patch flinkdeployment job --type=merge -p '{"status":{"lifecycleState":"FAILED"}}' || return
	eq "lifecycleState after a normal patch" "$(jq_fd job .status.lifecycleState)" STABLE || return
	flinkdeployment job 2 >"$CHECK_DIR/fd2.yaml"
	must "fluid applies a new parallelism" apply_fluid "$CHECK_DIR/fd2.yaml" || return
	eq "parallelism" "$(jq_fd job .spec.job.parallelism)" 2 || return
	eq "jobStatus.state after fluid's apply" "$(jq_fd job .status.jobStatus.state)" RUNNING
}

# The kubeconfig has no current-context: kubectl without --context does not
# reach the lane's server, and a context not in the kubeconfig is refused at
# once.  So a fluid call that forgot --context fails instead of reaching
# whatever cluster happens to be current.
check_context_must_be_named() {
	must_refuse "kubectl without --context" 'localhost:8080' \
		timeout 30 "$K8S_BIN/kubectl" --kubeconfig="$KUBECONFIG_FILE" --request-timeout=5s \
		--cache-dir="$KUBE_CACHE" get namespace "$CHECK_NS" || return
	must_refuse "a context not in the kubeconfig" 'context was not found' \
		timeout 30 "$K8S_BIN/kubectl" --kubeconfig="$KUBECONFIG_FILE" --context=not-the-lane \
		--request-timeout=5s --cache-dir="$KUBE_CACHE" get namespace "$CHECK_NS" || return
	must "the same call with --context=$K8S_CONTEXT" kc get namespace "$CHECK_NS"
}

# tests/k8s/kubectl-record logs each call's argv (exactly: spaces, quotes,
# empty arguments) and is otherwise the real kubectl: its output and exit
# status.  calls_all_bounded, what later tests assert with, accepts that log
# and refuses one with a call lacking --context or --request-timeout.
check_kubectl_record_wrapper() {
	local log=$CHECK_DIR/calls.log line
	local -a got
	local -a argv=(--kubeconfig="$KUBECONFIG_FILE" --context "$K8S_CONTEXT" --request-timeout=10s
		--cache-dir="$KUBE_CACHE" -n "$CHECK_NS" get configmap "no such 'map'" "")
	must "a recorded get namespace" env KUBECTL_RECORD_LOG="$log" KUBECTL_REAL="$K8S_BIN/kubectl" \
		"$K8S_HERE/kubectl-record" --kubeconfig="$KUBECONFIG_FILE" --context="$K8S_CONTEXT" \
		--request-timeout=10s --cache-dir="$KUBE_CACHE" get namespace "$CHECK_NS" -o name || return
	eq "the real kubectl's output" "$(cat "$OUT")" "namespace/$CHECK_NS" || return
	try env KUBECTL_RECORD_LOG="$log" KUBECTL_REAL="$K8S_BIN/kubectl" "$K8S_HERE/kubectl-record" "${argv[@]}"
	eq "the real kubectl's exit status" "$?" 1 || return
	eq "calls recorded" "$(wc -l <"$log")" 2 || return
	line=$(sed -n 2p "$log")
	eval "got=($line)"
	eq "argv count" "${#got[@]}" "${#argv[@]}" || return
	eq "argv" "$(printf '<%s>' "${got[@]}")" "$(printf '<%s>' "${argv[@]}")" || return
	calls_all_bounded "$log" || return
	printf '%s\n' "--context=$K8S_CONTEXT get ns" >"$CHECK_DIR/no-timeout.log"
	printf '%s\n' "--request-timeout=5s get ns" >"$CHECK_DIR/no-context.log"
	local why=$CHECK_WHY
	CHECK_WHY=$CHECK_DIR/expected-why
	if calls_all_bounded "$CHECK_DIR/no-timeout.log" 2>/dev/null; then
		CHECK_WHY=$why; fail "calls_all_bounded accepted a call without --request-timeout"; return 1
	fi
	if calls_all_bounded "$CHECK_DIR/no-context.log" 2>/dev/null; then
		CHECK_WHY=$why; fail "calls_all_bounded accepted a call without --context"; return 1
	fi
	CHECK_WHY=$why
}
