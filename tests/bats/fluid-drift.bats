#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-drift.bats - drift (fluid-diff(1), DRIFT) through a FAKE kubectl
# that answers from files: what the last-applied record may name (only
# the deployment's own objects, in its namespace: a forged record is no
# drift answer, exit 2, and nothing is read elsewhere), fields others
# add to the live spec or ConfigMap (drift, with their manager), and the
# record's format as fluid apply writes it.
#
# The record and the live objects are built here with jq from the plan
# fluid plan writes, following the format fluid-k8s(1) and
# kube_record.h document; the data digest is sha256 over jq -cS's
# canonical JSON.  The real API server is the Kubernetes lane's
# (tests/k8s/checks/30-drift.sh, 35-drift-trust.sh).

load helpers
load fake-kubectl

setup() {
	TOOL=fluid
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	LANDED=shapes/landed/orders-landed.fluid.yaml
	NS=data-products
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=$NS
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink
	export FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=$NS/flink
	export FLUID_FLINK_SECRET_ALLOWLIST=$NS/flink-storage
	"$BIN/fluid" plan --mode amend --out plan.json "$LANDED" >/dev/null ||
	    fail "fluid plan failed"
	jq '.resources[] | select(.resource.kind == "ConfigMap") | .resource' plan.json >cm0.json
	jq '.resources[] | select(.resource.kind == "FlinkDeployment") | .resource' plan.json >fd0.json
	FD=$(jq -r .metadata.name fd0.json)
	CM=$(jq -r .metadata.name cm0.json)
	# The fake logs each call in calls; "get ... -- KIND NAME" prints
	# fake/KIND-NAME.json when it exists (nothing: --ignore-not-found).
	export FAKE_CALLS=$TMP/calls
	fake_kubectl objects
}

teardown() { fluid_teardown; }

# managed MANAGER FIELDSV1: a managedFields entry.
managed() {
	jq -n --arg m "$1" --argjson f "$2" \
	    '{manager: $m, operation: "Apply", apiVersion: "v1", fieldsV1: $f}'
}

# record [JQ-EDIT]: the record of cm0.json and fd0.json, as apply writes
# it (kube_record.h), its resources.json List edited by JQ-EDIT.
record() {
	local digest
	digest=sha256:$(jq -cS .data cm0.json | tr -d '\n' | sha256sum | cut -d' ' -f1)
	jq -n --slurpfile cm cm0.json --slurpfile fd fd0.json --arg d "$digest" \
	    --arg ns "$NS" '{apiVersion: "v1", kind: "ConfigMap",
	    metadata: {name: ($fd[0].metadata.name + "-fluid-last-applied"),
	        namespace: $ns, labels: $fd[0].metadata.labels},
	    data: {mode: "amend", "resources.json": ({apiVersion: "v1", kind: "List",
	        items: [($cm[0] | del(.data) | .dataDigest = $d), $fd[0]]} | '"${1:-.}"' | tojson)}}' \
	    >"fake/configmap-$FD-fluid-last-applied.json"
}

# live [JQ-FD [JQ-CM]]: the live FlinkDeployment and ConfigMap, fluid's
# own (managed by "fluid"), edited by JQ-FD and JQ-CM.
live() {
	local mf
	mf=$(managed fluid '{"f:spec": {"f:job": {"f:parallelism": {}}}}')
	jq --argjson mf "$mf" '.metadata.managedFields = [$mf] | .status = {lifecycleState: "STABLE"} | '"${1:-.}" \
	    fd0.json >"fake/flinkdeployment-$FD.json"
	mf=$(managed fluid '{"f:data": {}}')
	jq --argjson mf "$mf" '.metadata.managedFields = [$mf] | '"${2:-.}" \
	    cm0.json >"fake/configmap-$CM.json"
}

drift() { tool diff --exit-on-drift "$LANDED"; }

# Every kubectl call read in the deployment's namespace, each argument
# that came from data as --namespace=NS or after "--".
calls_in_namespace() {
	local l
	[ -s calls ] || fail "kubectl was not called"
	while IFS= read -r l; do
		[[ $l =~ ^--context=development\ --request-timeout=[0-9]+s\ get\ --namespace=$NS\ --output=json\ --ignore-not-found\ --show-managed-fields\ --\ (configmap|flinkdeployment)\ [a-z0-9-]+$ ]] ||
		    fail "a kubectl call outside the deployment's own objects" "$l" || return
	done <calls
}

@test "drift: a record and live objects that agree are clean, read by their names in the namespace" {
	record
	live
	drift
	assert_status 0
	assert_jq '.counts == {"clean": 1, "pending": 0, "drift": 0}'
	assert_jq '.builds[0].status == "clean" and .builds[0].fields == []'
	calls_in_namespace
	assert_equal "$(cut -d' ' -f9- calls | tr '\n' ';')" \
	    "configmap $FD-fluid-last-applied;flinkdeployment $FD;configmap $CM;" "reads"
}

@test "drift: a record naming a ConfigMap '--server=...' is no answer: exit 2, no such read" {
	record '.items[0].metadata.name = "--server=http://127.0.0.1:9"'
	live
	drift
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "build 'land-orders': the last-applied record ConfigMap $NS/$FD-fluid-last-applied lists a ConfigMap that has another name than fluid renders for the deployment: it is not fluid's record of this deployment, so nothing of it is read; no drift answer"
	! grep -q -- "--server" calls || fail "the name reached kubectl" "$(cat calls)"
	calls_in_namespace
	assert_equal "$(wc -l <calls)" 2 "reads (the record and the FlinkDeployment only)"
}

@test "drift: a record naming namespace kube-system is no answer: exit 2, kube-system never read" {
	record '.items[0].metadata.namespace = "kube-system"'
	live
	printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"kube-system"},"data":{"token":"secret-value"}}' \
	    "$CM" >"fake/configmap-$CM.json"
	drift
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "lists a ConfigMap that is in another namespace: it is not fluid's record of this deployment"
	! grep -q "kube-system" calls || fail "kube-system was read" "$(cat calls)"
	[[ $stderr != *secret-value* ]] || fail "a value of the other namespace was printed" "$stderr"
	calls_in_namespace
}

@test "drift: a record whose FlinkDeployment is another's, or in another namespace, is no answer" {
	live
	record '.items[1].metadata.name = "someone-else"'
	drift
	assert_status 2
	assert_match "$stderr" "lists a FlinkDeployment that has another name than fluid renders"
	record '.items[1].metadata.namespace = "kube-system"'
	drift
	assert_status 2
	assert_match "$stderr" "lists a FlinkDeployment that is in another namespace"
	# Another ConfigMap of the deployment's own pattern is read, in NS.
	record '.items[0].metadata.name = "'"$FD"'-sql-0123456789ab"'
	drift
	assert_status 1
	assert_jq --arg r "ConfigMap $NS/$FD-sql-0123456789ab" '.builds[0].fields[] | select(.resource == $r) | .field == "" and .live == null'
	calls_in_namespace
}

@test "drift: a record that is not the ConfigMap asked for, or has no digest or a mode fluid never writes, is no answer" {
	live
	record
	jq '.metadata.namespace = "kube-system"' "fake/configmap-$FD-fluid-last-applied.json" >r.json
	mv r.json "fake/configmap-$FD-fluid-last-applied.json"
	drift
	assert_status 2
	assert_match "$stderr" "what was read is not ConfigMap $NS/$FD-fluid-last-applied"
	record '.items[0].dataDigest = "sha256:--kubeconfig=/tmp/x"'
	drift
	assert_status 2
	assert_match "$stderr" "lists a ConfigMap with neither a data digest"
	record
	jq '.data.mode = "reset"' "fake/configmap-$FD-fluid-last-applied.json" >r.json
	mv r.json "fake/configmap-$FD-fluid-last-applied.json"
	drift
	assert_status 2
	assert_match "$stderr" "has a mode that is not one of fluid plan's"
}

# added PATH-JQ VALUE FIELDSV1 FIELD: another manager adds PATH to the
# live spec: drift, exit 1, the one field named FIELD, applied null,
# live VALUE, manager "someone".
added() {
	local mf
	record
	mf=$(managed someone "$3")
	live "$1 = $2 | .metadata.managedFields += [$mf]"
	drift
	assert_status 1
	assert_jq '.builds[0].status == "drift" and .counts.drift == 1'
	assert_jq --arg f "$4" --argjson v "$2" --arg r "FlinkDeployment $NS/$FD" \
	    '.builds[0].fields == [{resource: $r, field: $f, applied: null, live: $v, manager: "someone"}]'
}

@test "drift: job.allowNonRestoredState added by another manager is drift, with its manager" {
	added .spec.job.allowNonRestoredState true \
	    '{"f:spec": {"f:job": {"f:allowNonRestoredState": {}}}}' .spec.job.allowNonRestoredState
}

@test "drift: job.initialSavepointPath added by another manager is drift, with its manager" {
	added .spec.job.initialSavepointPath '"s3://elsewhere/savepoint-1"' \
	    '{"f:spec": {"f:job": {"f:initialSavepointPath": {}}}}' .spec.job.initialSavepointPath
}

@test "drift: restartNonce added by another manager is drift, with its manager" {
	added .spec.restartNonce 7 '{"f:spec": {"f:restartNonce": {}}}' .spec.restartNonce
}

@test "drift: flinkConfiguration kubernetes.secrets added by another manager is drift, with its manager" {
	added '.spec.flinkConfiguration["kubernetes.secrets"]' '"admin-token:/mnt/admin"' \
	    '{"f:spec": {"f:flinkConfiguration": {"f:kubernetes.secrets": {}}}}' \
	    '.spec.flinkConfiguration["kubernetes.secrets"]'
}

@test "drift: status, managedFields, finalizers and others' labels are not drift" {
	record
	live '.metadata.finalizers = ["flinkdeployments.flink.apache.org/finalizer"]
	    | .metadata.labels.team = "x" | .metadata.annotations.note = "y"
	    | .status.jobStatus = {state: "RUNNING"} | .metadata.generation = 3'
	drift
	assert_status 0
	assert_jq '.builds[0].status == "clean"'
}

@test "drift: a key another manager adds to the script's ConfigMap is drift; other data is drift by digest" {
	local mf
	record
	mf=$(managed someone '{"f:data": {"f:extra.sql": {}}}')
	live . '.data["extra.sql"] = "DROP TABLE t;" | .metadata.managedFields += ['"$mf"']'
	drift
	assert_status 1
	assert_jq --arg r "ConfigMap $NS/$CM" \
	    '.builds[0].fields == [{resource: $r, field: ".data[\"extra.sql\"]", applied: null, live: "DROP TABLE t;", manager: "someone"}]'
	# A contract that renders other data than the record's: the record
	# knows them by digest only, and so does the answer.
	record '.items[0].dataDigest = "sha256:'"$(printf '0%.0s' $(seq 64))"'"'
	live
	drift
	assert_status 1
	assert_jq --arg r "ConfigMap $NS/$CM" \
	    '[.builds[0].fields[] | select(.resource == $r) | .field] == [".data"]'
	assert_jq '.builds[0].fields[0].applied | startswith("sha256:0000")'
}

@test "drift: a record written before the data digest (its ConfigMap with data) is read" {
	jq -n --slurpfile cm cm0.json --slurpfile fd fd0.json --arg ns "$NS" '{apiVersion: "v1", kind: "ConfigMap",
	    metadata: {name: ($fd[0].metadata.name + "-fluid-last-applied"), namespace: $ns},
	    data: {mode: "amend", "resources.json": ({apiVersion: "v1", kind: "List",
	        items: [$cm[0], $fd[0]]} | tojson)}}' >"fake/configmap-$FD-fluid-last-applied.json"
	live
	drift
	assert_status 0
	assert_jq '.builds[0].status == "clean" and .builds[0].changes == []'
}

@test "apply: the record holds the ConfigMap's metadata and the digest of its data, not the script" {
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com
	# The fake: nothing exists (no fake/ files); an apply answers what
	# it was given and keeps it in applied.N.json.
	rm -f fake/*.json
	run --separate-stderr "$BIN/fluid" apply --mode amend --yes plan.json
	assert_status 0
	jq -e '.kind == "ConfigMap" and .metadata.name == "'"$FD"'-fluid-last-applied"
	    and .metadata.namespace == "'"$NS"'"' applied.2.json >/dev/null ||
	    fail "the third write is not the record" "$(cat applied.2.json)"
	jq -r '.data["resources.json"]' applied.2.json >list.json
	# The FlinkDeployment whole; the ConfigMap without data, its digest.
	jq -e --slurpfile fd fd0.json '.items[1] == $fd[0]' list.json >/dev/null ||
	    fail "not the FlinkDeployment applied" "$(cat list.json)"
	jq -e --slurpfile cm cm0.json --arg d "sha256:$(jq -cS .data cm0.json | tr -d '\n' | sha256sum | cut -d' ' -f1)" \
	    '.items[0] == ($cm[0] | del(.data) | .dataDigest = $d)' list.json >/dev/null ||
	    fail "not the ConfigMap's metadata and data digest" "$(jq .items[0] list.json)"
	! grep -q "INSERT INTO" applied.2.json || fail "the record repeats the script"
	jq -e '.data | .mode == "amend" and (."plan-digest" | startswith("sha256:"))' applied.2.json >/dev/null ||
	    fail "no mode or plan digest" "$(jq .data applied.2.json)"
}

# rendered: the document after fluid-k8s render, in rendered.json.
rendered() {
	"$BIN/fluid-resolve" "$LANDED" | "$BIN/fluid-check" | "$BIN/fluid-sqlgen" |
	    "$BIN/fluid-k8s" render >rendered.json || fail "the pipeline failed"
}

@test "fluid-diff --live: the drift section is what fluid diff --exit-on-drift prints; --exit-on-drift exits 1" {
	local mf
	record
	mf=$(managed someone '{"f:spec": {"f:restartNonce": {}}}')
	live ".spec.restartNonce = 3 | .metadata.managedFields += [$mf]"
	rendered
	TOOL=fluid-diff tool --live --report <rendered.json
	assert_status 0
	printf '%s\n' "$output" >pipe.json
	run --separate-stderr "$BIN/fluid" diff --exit-on-drift "$LANDED"
	assert_status 1
	printf '%s\n' "$output" >driver.json
	cmp pipe.json driver.json || fail "the bytes differ" "$(diff pipe.json driver.json)"
	TOOL=fluid-diff tool --live --exit-on-drift <rendered.json
	assert_status 1
	assert_jq --slurpfile d driver.json '.drift == $d[0] and .stages[-1] == "drift" and has("k8s")'
	assert_jq '.drift.builds[0].fields[0] | .field == ".spec.restartNonce" and .manager == "someone"'
	# A forged record: no answer, no document.
	record '.items[0].metadata.namespace = "kube-system"'
	TOOL=fluid-diff tool --live <rendered.json
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "^fluid-diff: build 'land-orders': the last-applied record ConfigMap"
	calls_in_namespace
}

@test "fluid-diff --live: the allowlists first, as JSON diagnostics too: exit 1, no kubectl" {
	rendered
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=other
	TOOL=fluid-diff tool --live --diagnostics=json <rendered.json
	assert_status 1
	assert_no_stdout
	jq -se 'length == 1 and (.[0] | .level == "error" and (.message |
	    test("build .land-orders.: deployment.namespace: namespace .data-products. is not allowed")))' \
	    <<<"$stderr" >/dev/null || fail "not the refusal as JSON" "$stderr"
	[ ! -e calls ] || fail "kubectl was called" "$(cat calls)"
}
