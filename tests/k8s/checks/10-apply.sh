# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/10-apply.sh - fluid apply against the lane's API server:
# the examples' resources through strict validation, the order of writes,
# ownership, conflicts, the modes, suspension, a new script and fluid's
# own deadline.  (A failed savepoint blocking a change is judged on the
# real operator, with the savepoint made to fail: checks/60-operator-stream.sh.)
#
# fluid runs with KUBECTL naming tests/k8s/kubectl-record, so every
# kubectl call it makes is in $CHECK_DIR/calls.log, and each check ends
# with calls_all_bounded on it (every call has --context and
# --request-timeout) and with no call carrying --force-conflicts.

EXAMPLES_DIR=$(cd "$K8S_HERE/../../examples" && pwd)

# lane_contract SRC [SED-EXPR...] : the example contract SRC (a path under
# examples/shapes) copied with the examples' fragments, its deployment in
# the lane's context and this check's namespace, then each sed expression
# applied; prints the copy's path.
lane_contract() {
	local src=$1 dst e; shift
	[ -d "$CHECK_DIR/shapes" ] || cp -R "$EXAMPLES_DIR/shapes" "$CHECK_DIR/shapes"
	dst=$CHECK_DIR/shapes/${src%.fluid.yaml}.lane.fluid.yaml
	sed -e "s/^\( *\)context: development$/\1context: $K8S_CONTEXT/" \
		-e "s/^\( *\)namespace: data-products$/\1namespace: $CHECK_NS/" \
		"$EXAMPLES_DIR/shapes/$src" >"$dst"
	for e in "$@"; do sed -i -e "$e" "$dst"; done
	grep -q "context: $K8S_CONTEXT" "$dst" || { fail "test bug: no context in $dst"; return 1; }
	echo "$dst"
}

# fluid_env CMD... : CMD with the lane's kubeconfig, the recording kubectl
# and allowlists that admit the examples in this check's namespace.
fluid_env() {
	env KUBECONFIG="$KUBECONFIG_FILE" KUBECTL="$K8S_HERE/kubectl-record" \
		KUBECTL_RECORD_LOG="$CHECK_DIR/calls.log" KUBECTL_REAL="$K8S_BIN/kubectl" \
		FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST="$K8S_CONTEXT" \
		FLUID_FLINK_NAMESPACE_ALLOWLIST="$CHECK_NS" \
		FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink \
		FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST="$CHECK_NS/flink" \
		FLUID_FLINK_SECRET_ALLOWLIST="$CHECK_NS/flink-storage" \
		FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=example.com,kafka \
		FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com \
		"$@"
}

# fluid_plan CONTRACT MODE OUT
fluid_plan() { must "fluid plan --mode $2" "$FLUID_BIN/fluid" plan --mode "$2" --out "$3" "$1"; }
# fluid_apply PLAN MODE [ARGS...] : fluid apply --yes, through try, with
# --wait $APPLY_WAIT: 0 (no waiting for status.observedGeneration) unless a
# check the real operator watches sets it (no operator writes a status in
# the other checks' namespaces: each apply would wait out its default).
fluid_apply() {
	local plan=$1 mode=$2; shift 2
	try fluid_env "$FLUID_BIN/fluid" apply --mode "$mode" --yes --wait "${APPLY_WAIT:-0}" "$@" "$plan"
}

# Every kubectl call fluid made was bounded and none forced a conflict.
calls_clean() {
	calls_all_bounded "$CHECK_DIR/calls.log" || return
	if grep -q -- '--force-conflicts' "$CHECK_DIR/calls.log"; then
		fail "fluid passed --force-conflicts: $(grep -m1 -- --force-conflicts "$CHECK_DIR/calls.log")"
		return 1
	fi
}

# redigest IN OUT JQ : the plan IN edited by JQ, its digests made to match
# again (computed here in Python, not with fluid's code), so that only the
# API server can refuse it.
redigest() {
	jq "$3" "$1" >"$CHECK_DIR/edited.json" || return
	python3 - "$CHECK_DIR/edited.json" "$2" <<'PYEOF'
import hashlib, json, sys
p = json.load(open(sys.argv[1]))
c = json.loads(json.dumps(p))
del c["digest"]
for e in c["resources"]:
    e["resource"]["metadata"].get("annotations", {}).pop("fluid.dev/plan-digest", None)
d = "sha256:" + hashlib.sha256(json.dumps(c, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False).encode()).hexdigest()
p["digest"] = d
for e in p["resources"]:
    if e["resource"]["kind"] == "FlinkDeployment":
        e["resource"]["metadata"]["annotations"]["fluid.dev/plan-digest"] = d
json.dump(p, open(sys.argv[2], "w"), indent=2)
PYEOF
}

# Every example applies with strict validation: the ConfigMap and the
# FlinkDeployment exist as planned, fluid owns them (managedFields), the
# report is the job's state, and the last-applied record holds the plan's
# resources (the script's ConfigMap by the digest of its data).
check_apply_every_example() {
	local src c plan name cm n=0
	for src in landed/orders-landed.fluid.yaml inlined/orders-landed.fluid.yaml \
		flattened/orders-items.fluid.yaml reshaped/orders-reshaped.fluid.yaml; do
		c=$(lane_contract "$src") || return
		plan=$CHECK_DIR/plan-$n.json
		n=$((n + 1))
		fluid_plan "$c" amend "$plan" || return
		name=$(jq -r '.builds[0].flinkDeployment' "$plan")
		cm=$(jq -r '.builds[0].configMap' "$plan")
		fluid_apply "$plan" amend ||
			{ fail "apply $src: exit $?: $(head -c 600 "$ERR")"; return 1; }
		eq "$src: report" "$(cat "$OUT")" "FlinkDeployment $CHECK_NS/$name: running" || return
		must "get the FlinkDeployment" kc -n "$CHECK_NS" get flinkdeployment "$name" -o json --show-managed-fields || return
		eq "$src: fluid applied the spec" \
			"$(jq -r '[.metadata.managedFields[] | select(.manager == "fluid") | .operation] | unique | join(",")' "$OUT")" Apply || return
		eq "$src: the spec as planned" "$(jq -S .spec "$OUT")" \
			"$(jq -S '.resources[] | select(.resource.kind == "FlinkDeployment") | .resource.spec' "$plan")" || return
		eq "$src: the ConfigMap's script" \
			"$(kc -n "$CHECK_NS" get configmap "$cm" -o json | jq -S .data)" \
			"$(jq -S '.resources[0].resource.data' "$plan")" || return
		# The script's ConfigMap recorded without its data: their digest.
		eq "$src: the last-applied record" \
			"$(kc -n "$CHECK_NS" get configmap "$name-fluid-last-applied" -o json |
				jq -S '.data["resources.json"] | fromjson | .items')" \
			"$(jq -S --arg d "sha256:$(jq -cS '.resources[0].resource.data' "$plan" |
				tr -d '\n' | sha256sum | cut -d' ' -f1)" \
				'[.resources[].resource | if .kind == "ConfigMap"
				    then del(.data) + {dataDigest: $d} else . end]' "$plan")" || return
	done
	calls_clean
}

# The ConfigMap is written before the FlinkDeployment: when the ConfigMap's
# write is refused (an immutable one of that name, fluid's, with other
# data), no FlinkDeployment is created; when both are written, the
# ConfigMap's resourceVersion (etcd's revision) is the lower.
check_apply_configmap_before_flinkdeployment() {
	local c plan cm name
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	fluid_plan "$c" amend "$CHECK_DIR/plan.json" || return
	plan=$CHECK_DIR/plan.json
	cm=$(jq -r '.builds[0].configMap' "$plan")
	name=$(jq -r '.builds[0].flinkDeployment' "$plan")
	jq '.resources[0].resource | .data["land-orders.sql"] = "-- other\n"' "$plan" >"$CHECK_DIR/squat.json"
	must "an immutable ConfigMap of that name, other data" apply_fluid "$CHECK_DIR/squat.json" || return
	if fluid_apply "$plan" amend; then fail "apply over the other ConfigMap succeeded"; return 1; fi
	grep -Eq 'ConfigMap .*refused by the API server: .*field is immutable' "$ERR" ||
		{ fail "not the ConfigMap's refusal: $(head -c 600 "$ERR")"; return 1; }
	must_refuse "no FlinkDeployment after the ConfigMap was refused" 'NotFound|not found' \
		kc -n "$CHECK_NS" get flinkdeployment "$name" || return
	must "remove the other ConfigMap" kc -n "$CHECK_NS" delete configmap "$cm" || return
	fluid_apply "$plan" amend || { fail "apply: $(head -c 600 "$ERR")"; return 1; }
	local rv_cm rv_fd
	rv_cm=$(kc -n "$CHECK_NS" get configmap "$cm" -o 'jsonpath={.metadata.resourceVersion}')
	rv_fd=$(kc -n "$CHECK_NS" get flinkdeployment "$name" -o 'jsonpath={.metadata.resourceVersion}')
	[ -n "$rv_cm" ] && [ -n "$rv_fd" ] && [ "$rv_cm" -lt "$rv_fd" ] ||
		{ fail "ConfigMap resourceVersion $rv_cm is not before the FlinkDeployment's $rv_fd"; return 1; }
	calls_clean
}

# A malformed FlinkDeployment (an upgradeMode outside the schema, a field
# it does not declare), in a plan whose digests match again, is what the
# API server's strict validation would refuse; fluid's apply refuses it
# first (exit 1): the FlinkDeployment is not what fluid renders from the
# plan's bundle.  No kubectl call is made and nothing is created.  (Edits
# that the server would accept are 12-apply-trust.sh's.)
check_apply_malformed_refused_before_server() {
	local c name f
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	fluid_plan "$c" amend "$CHECK_DIR/plan.json" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	redigest "$CHECK_DIR/plan.json" "$CHECK_DIR/bad.json" \
		'(.resources[1].resource.spec.job.upgradeMode) = "whenever"' || { fail "redigest"; return 1; }
	redigest "$CHECK_DIR/plan.json" "$CHECK_DIR/unknown.json" \
		'(.resources[1].resource.spec.job.notAField) = 1' || { fail "redigest"; return 1; }
	for f in bad unknown; do
		rm -f "$CHECK_DIR/calls.log"
		fluid_apply "$CHECK_DIR/$f.json" amend
		eq "$f: exit status" "$?" 1 || return
		grep -q "is not what fluid renders from the plan's bundle" "$ERR" ||
			{ fail "$f: not the re-render's refusal: $(head -c 600 "$ERR")"; return 1; }
		[ ! -s "$CHECK_DIR/calls.log" ] ||
			{ fail "$f: kubectl was called: $(head -c 300 "$CHECK_DIR/calls.log")"; return 1; }
	done
	must_refuse "nothing was created" 'NotFound|not found' kc -n "$CHECK_NS" get flinkdeployment "$name" || return
	# The unedited plan applies: the refusals were the edits'.
	fluid_apply "$CHECK_DIR/plan.json" amend || { fail "the unedited plan: $(head -c 600 "$ERR")"; return 1; }
	calls_clean
}

# A FlinkDeployment of that name without fluid's labels for this product
# and build is refused before any write (exit 1) and left as it was.
check_apply_ownership_refused() {
	local c name cm
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	fluid_plan "$c" amend "$CHECK_DIR/plan.json" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	cm=$(jq -r '.builds[0].configMap' "$CHECK_DIR/plan.json")
	flinkdeployment "$name" 2 >"$CHECK_DIR/theirs.yaml"
	must "someone's FlinkDeployment" kc -n "$CHECK_NS" apply --server-side --field-manager=someone-else \
		-f "$CHECK_DIR/theirs.yaml" || return
	fluid_apply "$CHECK_DIR/plan.json" amend
	eq "exit status" "$?" 1 || return
	grep -q "FlinkDeployment $CHECK_NS/$name exists and is not fluid's for product 'commerce.orders-landed' build 'land-orders'" "$ERR" ||
		{ fail "not the ownership refusal: $(head -c 600 "$ERR")"; return 1; }
	eq "their image" "$(jq_fd "$name" .spec.image)" flink:1.20 || return
	eq "their parallelism" "$(jq_fd "$name" .spec.job.parallelism)" 2 || return
	must_refuse "no ConfigMap written" 'NotFound|not found' kc -n "$CHECK_NS" get configmap "$cm" || return
	calls_clean
}

# A field fluid applied that another manager took (with --force-conflicts,
# which fluid never passes) gives fluid a conflict: reported, exit 1, the
# other manager's value kept.
check_apply_conflict_reported_never_forced() {
	local c name
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	fluid_plan "$c" amend "$CHECK_DIR/plan.json" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	fluid_apply "$CHECK_DIR/plan.json" amend || { fail "first apply: $(head -c 600 "$ERR")"; return 1; }
	must "someone else takes parallelism" kc -n "$CHECK_NS" patch flinkdeployment "$name" --type=merge \
		--field-manager=someone-else -p '{"spec":{"job":{"parallelism":3}}}' || return
	fluid_apply "$CHECK_DIR/plan.json" amend
	eq "exit status" "$?" 1 || return
	grep -Eq "refused by the API server: .*conflict with \"someone-else\".*\.spec\.job\.parallelism" "$ERR" ||
		{ fail "no conflict reported: $(head -c 600 "$ERR")"; return 1; }
	eq "parallelism kept" "$(jq_fd "$name" .spec.job.parallelism)" 3 || return
	calls_clean
}

# create-only creates a deployment and refuses one that exists (exit 1).
check_apply_create_only_on_existing() {
	local c name
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	fluid_plan "$c" create-only "$CHECK_DIR/plan.json" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	fluid_apply "$CHECK_DIR/plan.json" create-only || { fail "create: $(head -c 600 "$ERR")"; return 1; }
	eq "created" "$(jq_fd "$name" .spec.job.state)" running || return
	fluid_apply "$CHECK_DIR/plan.json" create-only
	eq "exit status on the existing deployment" "$?" 1 || return
	grep -q "FlinkDeployment $CHECK_NS/$name exists: create-only creates, never changes" "$ERR" ||
		{ fail "not create-only's refusal: $(head -c 600 "$ERR")"; return 1; }
	calls_clean
}

# deployment.state suspended suspends the job, running resumes it; the
# report says which, and the spec keeps upgradeMode savepoint.
check_apply_suspend_then_resume() {
	local c name st
	for st in running suspended running; do
		c=$(lane_contract landed/orders-landed.fluid.yaml \
			"s/^\( *\)context: $K8S_CONTEXT$/&\n\1state: $st/") || return
		fluid_plan "$c" amend "$CHECK_DIR/plan-$st.json" || return
		name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan-$st.json")
		fluid_apply "$CHECK_DIR/plan-$st.json" amend || { fail "apply $st: $(head -c 600 "$ERR")"; return 1; }
		eq "report ($st)" "$(cat "$OUT")" "FlinkDeployment $CHECK_NS/$name: $st" || return
		eq "spec.job.state" "$(jq_fd "$name" .spec.job.state)" "$st" || return
		eq "upgradeMode ($st)" "$(jq_fd "$name" .spec.job.upgradeMode)" savepoint || return
	done
	calls_clean
}

# A changed script: amend refuses it (it keeps the running script);
# amend-and-build writes a new ConfigMap, points the FlinkDeployment at it
# (a savepoint upgrade) and leaves the old ConfigMap as it was.
check_apply_changed_sql_new_configmap() {
	local c1 c2 name old new olddata
	c1=$(lane_contract landed/orders-landed.fluid.yaml) || return
	fluid_plan "$c1" amend-and-build "$CHECK_DIR/plan1.json" || return
	fluid_apply "$CHECK_DIR/plan1.json" amend-and-build || { fail "first apply: $(head -c 600 "$ERR")"; return 1; }
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan1.json")
	old=$(jq -r '.builds[0].configMap' "$CHECK_DIR/plan1.json")
	olddata=$(kc -n "$CHECK_NS" get configmap "$old" -o json | jq -S '{data, immutable}')
	c2=$(lane_contract landed/orders-landed.fluid.yaml 's/forge-commerce-orders-landed-v1/forge-commerce-orders-landed-v2/') || return
	fluid_plan "$c2" amend "$CHECK_DIR/plan2a.json" || return
	fluid_plan "$c2" amend-and-build "$CHECK_DIR/plan2.json" || return
	new=$(jq -r '.builds[0].configMap' "$CHECK_DIR/plan2.json")
	[ "$new" != "$old" ] || { fail "test bug: the script did not change ($new)"; return 1; }
	fluid_apply "$CHECK_DIR/plan2a.json" amend
	eq "amend's exit status on a new script" "$?" 1 || return
	grep -q "the script changed .*amend keeps the running script" "$ERR" ||
		{ fail "not amend's refusal: $(head -c 600 "$ERR")"; return 1; }
	must_refuse "amend wrote no new ConfigMap" 'NotFound|not found' kc -n "$CHECK_NS" get configmap "$new" || return
	fluid_apply "$CHECK_DIR/plan2.json" amend-and-build || { fail "amend-and-build: $(head -c 600 "$ERR")"; return 1; }
	eq "the FlinkDeployment mounts the new ConfigMap" \
		"$(jq_fd "$name" '.spec.podTemplate.spec.volumes[0].configMap.name')" "$new" || return
	eq "upgradeMode" "$(jq_fd "$name" .spec.job.upgradeMode)" savepoint || return
	eq "the new script" "$(kc -n "$CHECK_NS" get configmap "$new" -o json | jq -S .data)" \
		"$(jq -S '.resources[0].resource.data' "$CHECK_DIR/plan2.json")" || return
	eq "the old ConfigMap untouched" "$(kc -n "$CHECK_NS" get configmap "$old" -o json | jq -S '{data, immutable}')" \
		"$olddata" || return
	calls_clean
}

# A server that accepts TCP and never answers: fluid kills kubectl at its
# own deadline and exits 2 in bounded time (--request-timeout alone bounds
# each request, not the command).
check_apply_silent_server_hits_deadline() {
	local c port lpid t0 secs rc
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	fluid_plan "$c" amend "$CHECK_DIR/plan.json" || return
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
		"$FLUID_BIN/fluid" apply --mode amend --yes --wait 0 "$CHECK_DIR/plan.json"
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	kill "$lpid" 2>/dev/null; wait "$lpid" 2>/dev/null
	eq "exit status" "$rc" 2 || return
	[ "$secs" -le 12 ] || { fail "apply took $secs s with a 4 s deadline"; return 1; }
	grep -q "did not finish read flinkdeployment $CHECK_NS/.* within 4 s (fluid's deadline" "$ERR" ||
		{ fail "not the deadline: $(head -c 600 "$ERR")"; return 1; }
	calls_clean
}
