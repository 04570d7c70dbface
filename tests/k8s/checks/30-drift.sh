# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/30-drift.sh - fluid diff --exit-on-drift against the
# lane's API server: clean after an apply, pending after a contract change
# not yet applied (and for a deployment never applied), drift when another
# field manager writes a field fluid applied, a missing last-applied record
# and a cluster that cannot be read (exit 2, in bounded time).
#
# It uses lane_contract, fluid_env, fluid_plan, fluid_apply and calls_clean
# of 10-apply.sh (every checks/*.sh is sourced into each check's process).
# The expected values come from the plan fluid wrote and from what the
# check itself wrote to the cluster, never from fluid diff's own code.

# drift CONTRACT [ARGS...] : fluid diff --exit-on-drift through try.
drift() {
	local c=$1; shift
	try fluid_env "$FLUID_BIN/fluid" diff --exit-on-drift "$@" "$c"
}

# applied CONTRACT : plan (amend) and apply CONTRACT; $CHECK_DIR/plan.json.
applied() {
	fluid_plan "$1" amend "$CHECK_DIR/plan.json" || return
	fluid_apply "$CHECK_DIR/plan.json" amend ||
		{ fail "apply: exit $?: $(head -c 600 "$ERR")"; return 1; }
}

# Right after fluid apply, the live resources are what was applied and the
# contract still renders them: clean, exit 0, no field and no change; the
# same answer written whole to --out.
check_drift_clean_after_apply() {
	local c
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	applied "$c" || return
	drift "$c"
	eq "exit status" "$?" 0 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
	eq "one build, clean" "$(jq -c '[.builds[] | {build, status, flinkDeployment, namespace}]' "$OUT")" \
		"[{\"build\":\"land-orders\",\"status\":\"clean\",\"flinkDeployment\":\"$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")\",\"namespace\":\"$CHECK_NS\"}]" || return
	eq "no drifted field, no change" "$(jq -c '[.builds[0].fields, .builds[0].changes]' "$OUT")" '[[],[]]' || return
	eq "counts" "$(jq -c .counts "$OUT")" '{"clean":1,"pending":0,"drift":0}' || return
	drift "$c" --out "$CHECK_DIR/drift.json"
	eq "exit status (--out)" "$?" 0 || return
	eq "--out report" "$(cat "$OUT")" "wrote $CHECK_DIR/drift.json" || return
	eq "--out holds the answer" "$(jq -r '.builds[0].status' "$CHECK_DIR/drift.json")" clean || return
	calls_clean
}

# A contract changed after the apply (the job suspended) is pending, not
# drift: exit 0, the FlinkDeployment "changed" in the plan, the ConfigMap
# (same script) not listed.  A deployment that was never applied (no
# FlinkDeployment, no record) is pending too, every resource "new".
check_drift_pending_after_contract_change() {
	local c1 c2 c3 name
	c1=$(lane_contract landed/orders-landed.fluid.yaml) || return
	applied "$c1" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	c2=$(lane_contract landed/orders-landed.fluid.yaml \
		"s/^\( *\)context: $K8S_CONTEXT$/&\n\1state: suspended/") || return
	drift "$c2"
	eq "exit status" "$?" 0 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
	eq "pending" "$(jq -r '.builds[0].status' "$OUT")" pending || return
	eq "the FlinkDeployment changes" "$(jq -c '.builds[0].changes' "$OUT")" \
		"[{\"resource\":\"FlinkDeployment $CHECK_NS/$name\",\"action\":\"changed\"}]" || return
	eq "nothing drifted" "$(jq -c '.builds[0].fields' "$OUT")" '[]' || return
	eq "the cluster still runs the job" "$(jq_fd "$name" .spec.job.state)" running || return
	# Another deployment name: nothing of it exists.
	c3=$(lane_contract inlined/orders-landed.fluid.yaml \
		"s/name: commerce-orders-landed$/name: commerce-orders-never/") || return
	grep -q 'name: commerce-orders-never$' "$c3" || { fail "test bug: name not changed in $c3"; return 1; }
	drift "$c3"
	eq "exit status (new deployment)" "$?" 0 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
	eq "new: pending" "$(jq -r '.builds[0].status' "$OUT")" pending || return
	eq "new: every resource new" "$(jq -r '[.builds[0].changes[].action] | unique | join(",")' "$OUT")" new || return
	eq "new: two resources" "$(jq -r '.builds[0].changes | length' "$OUT")" 2 || return
	calls_clean
}

# Another field manager takes spec.job.parallelism (server-side apply with
# --force-conflicts, as a person would) and kubectl patch edits an
# annotation fluid set: drift, exit 1, each field with the value fluid
# applied, the live one and the manager that owns it now.  Without drift
# the same contract was clean, so the answer is about the change.
check_drift_second_manager() {
	local c name par cm
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	applied "$c" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	par=$(jq -r '.resources[] | select(.resource.kind == "FlinkDeployment") | .resource.spec.job.parallelism' "$CHECK_DIR/plan.json")
	drift "$c"
	eq "clean before" "$?:$(jq -r '.builds[0].status' "$OUT")" 0:clean || return
	cat >"$CHECK_DIR/other.yaml" <<YAML
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: $name
  namespace: $CHECK_NS
spec:
  job:
    parallelism: $((par + 4))
YAML
	must "another manager takes parallelism" kc -n "$CHECK_NS" apply --server-side \
		--field-manager=other --force-conflicts -f "$CHECK_DIR/other.yaml" || return
	eq "the cluster has it" "$(jq_fd "$name" .spec.job.parallelism)" $((par + 4)) || return
	drift "$c"
	eq "exit status" "$?" 1 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
	eq "drift" "$(jq -r '.builds[0].status' "$OUT")" drift || return
	eq "the drifted field" "$(jq -c '.builds[0].fields' "$OUT")" \
		"[{\"resource\":\"FlinkDeployment $CHECK_NS/$name\",\"field\":\".spec.job.parallelism\",\"applied\":$par,\"live\":$((par + 4)),\"manager\":\"other\"}]" || return
	must "kubectl patch an annotation fluid set" kc -n "$CHECK_NS" patch flinkdeployment "$name" \
		--type=merge --field-manager=hand-edit -p '{"metadata":{"annotations":{"fluid.dev/sql-digest":"sha256:edited"}}}' || return
	drift "$c"
	eq "exit status (two fields)" "$?" 1 || return
	eq "both fields and managers" "$(jq -r '[.builds[0].fields[] | "\(.field)=\(.live) by \(.manager)"] | sort | join(";")' "$OUT")" \
		".metadata.annotations[\"fluid.dev/sql-digest\"]=sha256:edited by hand-edit;.spec.job.parallelism=$((par + 4)) by other" || return
	eq "the applied annotation" "$(jq -r '.builds[0].fields[] | select(.field | test("sql-digest")) | .applied' "$OUT")" \
		"$(jq -r '.resources[] | select(.resource.kind == "FlinkDeployment") | .resource.metadata.annotations["fluid.dev/sql-digest"]' "$CHECK_DIR/plan.json")" || return
	# What the operator writes (status, finalizer) is not drift: shown on the
	# real operator by checks/50-operator.sh, check_operator_status_is_not_drift.
	# The script's ConfigMap deleted: the whole resource is drift.
	cm=$(jq -r '.builds[0].configMap' "$CHECK_DIR/plan.json")
	must "delete the script's ConfigMap" kc -n "$CHECK_NS" delete configmap "$cm" || return
	drift "$c"
	eq "exit status (ConfigMap gone)" "$?" 1 || return
	eq "the ConfigMap gone" "$(jq -c --arg r "ConfigMap $CHECK_NS/$cm" '[.builds[0].fields[] | select(.resource == $r) | {field, live}]' "$OUT")" \
		'[{"field":"","live":null}]' || return
	calls_clean
}

# The last-applied record deleted: no answer, exit 2, nothing on stdout,
# the reason on stderr (never "clean").
check_drift_missing_record() {
	local c name
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	applied "$c" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	must "delete the record" kc -n "$CHECK_NS" delete configmap "$name-fluid-last-applied" || return
	drift "$c"
	eq "exit status" "$?" 2 || return
	[ ! -s "$OUT" ] || { fail "an answer without a record: $(head -c 300 "$OUT")"; return 1; }
	grep -q "FlinkDeployment $CHECK_NS/$name exists and has no last-applied record (ConfigMap $CHECK_NS/$name-fluid-last-applied)" "$ERR" ||
		{ fail "not the missing record: $(head -c 600 "$ERR")"; return 1; }
	# A record without its resources is no answer either.
	must "an empty record" kc -n "$CHECK_NS" create configmap "$name-fluid-last-applied" --from-literal=mode=amend || return
	drift "$c"
	eq "exit status (empty record)" "$?" 2 || return
	grep -q "has no resources.json listing a ConfigMap and a FlinkDeployment" "$ERR" ||
		{ fail "not the empty record: $(head -c 600 "$ERR")"; return 1; }
	calls_clean
}

# A cluster that cannot be read: a server that accepts and never answers
# (fluid's deadline kills kubectl: exit 2 in bounded time) and a port where
# nothing listens (exit 2 at once); nothing on stdout either time.
check_drift_unreachable_server() {
	local c port lpid t0 secs rc
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	applied "$c" || return
	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True); time.sleep(300)' >"$CHECK_DIR/port" &
	lpid=$!
	for _ in $(seq 1 40); do [ -s "$CHECK_DIR/port" ] && break; sleep 0.1; done
	port=$(cat "$CHECK_DIR/port")
	[ -n "$port" ] || { kill "$lpid"; fail "the silent listener did not start"; return 1; }
	sed "s#server: https://127.0.0.1:6443#server: https://127.0.0.1:$port#" "$KUBECONFIG_FILE" >"$CHECK_DIR/silent.kubeconfig"
	grep -q "127.0.0.1:$port" "$CHECK_DIR/silent.kubeconfig" || { kill "$lpid"; fail "test bug: kubeconfig not redirected"; return 1; }
	t0=$(date +%s)
	try fluid_env KUBECONFIG="$CHECK_DIR/silent.kubeconfig" FLUID_KUBECTL_DEADLINE_S=4 \
		"$FLUID_BIN/fluid" diff --exit-on-drift "$c"
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	kill "$lpid" 2>/dev/null; wait "$lpid" 2>/dev/null
	eq "exit status (silent)" "$rc" 2 || return
	[ "$secs" -le 12 ] || { fail "diff took $secs s with a 4 s deadline"; return 1; }
	[ ! -s "$OUT" ] || { fail "an answer from a silent server: $(head -c 300 "$OUT")"; return 1; }
	grep -q "did not finish read configmap $CHECK_NS/.* within 4 s (fluid's deadline" "$ERR" ||
		{ fail "not the deadline: $(head -c 600 "$ERR")"; return 1; }
	# The listener is gone: its port refuses connections now.
	sed "s#server: https://127.0.0.1:6443#server: https://127.0.0.1:$port#" "$KUBECONFIG_FILE" >"$CHECK_DIR/closed.kubeconfig"
	t0=$(date +%s)
	try fluid_env KUBECONFIG="$CHECK_DIR/closed.kubeconfig" "$FLUID_BIN/fluid" diff --exit-on-drift "$c"
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	eq "exit status (refused)" "$rc" 2 || return
	[ "$secs" -le 20 ] || { fail "diff took $secs s against a closed port"; return 1; }
	[ ! -s "$OUT" ] || { fail "an answer from a closed port: $(head -c 300 "$OUT")"; return 1; }
	grep -Eq "cannot read configmap $CHECK_NS/.*(refused|connect)" "$ERR" ||
		{ fail "not the refused connection: $(head -c 600 "$ERR")"; return 1; }
	calls_clean
}
