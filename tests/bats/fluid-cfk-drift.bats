#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-cfk-drift.bats - fluid diff --exit-on-drift for the CFK target
# (management: cfk) against the FAKE kubectl (tests/bats/fake-kubectl,
# mode store): the objects are written by fluid apply through the fake,
# which records fluid as their field manager as server-side apply does;
# what others change is written here into the store, with their own
# managedFields entry.  No CFK operator and no CMF run here.

load helpers
load fake-kubectl

setup() {
	TOOL=fluid
	fluid_setup
	local f
	f=$(ls "$EXAMPLES"/shapes/landed/*.fluid.yaml)
	"$TOP/tests/cfk/variant" "$f" tree
	C=tree/landed/${f##*/}
	NS=data-products
	S=kube/flinkstatement/$NS
	export FAKE_STORE=$TMP/kube
	fake_kubectl store
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=$NS
	export FLUID_FLINK_IMAGE_ALLOWLIST=confluentinc/cp-flink-sql
	export FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=$NS/flink-env1
	export FLUID_CFK_CMF_REST_CLASS_ALLOWLIST=operator/default
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka
}
teardown() { fluid_teardown; }

# applied [MODE]: fluid plan and apply the contract through the fake,
# then forget the calls.
applied() {
	"$BIN/fluid" plan --mode "${1:-amend-and-build}" --out p.json "$C" >/dev/null ||
	    fail "fluid plan failed" ""
	"$BIN/fluid" apply --mode "${1:-amend-and-build}" --yes p.json >/dev/null 2>&1 ||
	    fail "fluid apply failed" "$(cat kube/calls)"
	rm -f kube/calls kubectl.calls
}
# name ROLE [PLAN]: the plan's FlinkStatement of ROLE (src, snk, ins).
name() { jq -r --arg r "$1" '.builds[0].statements[] | select(test("-" + $r + "-"))' "${2:-p.json}"; }
# edit FILE JQ [MANAGER FIELDSV1]: edit a stored object, as MANAGER did.
edit() {
	local mf='.'
	[ -n "${3:-}" ] && mf=".metadata.managedFields += [{manager: \"$3\", operation: \"Update\", fieldsV1: $4}]"
	jq "$2 | $mf" "$1" >edit.tmp && mv edit.tmp "$1"
}
drift() { tool diff --exit-on-drift "$C"; }
sel="app.kubernetes.io/managed-by=fluid,app.kubernetes.io/name=commerce.orders-landed,fluid.dev/build=land-orders"

@test "cfk drift: just applied is clean: one labelled read per kind, with managedFields, nothing written" {
	applied
	drift
	assert_status 0
	assert_jq '.builds[0].status == "clean" and .builds[0].target == "cfk"'
	assert_jq '.counts == {"clean": 1, "pending": 0, "drift": 0} and .builds[0].fields == [] and .builds[0].changes == []'
	assert_equal "$(cat kube/calls)" "list flinkstatement $sel
list flinkcomputepool $sel" "reads"
	assert_equal "$(grep -c . kubectl.calls)" 2 "kubectl runs"
	grep -q -- "--namespace=$NS --selector=$sel --output=json --show-managed-fields -- flinkstatement$" kubectl.calls ||
	    fail "not one labelled read with managedFields" "$(cat kubectl.calls)"
}

@test "cfk drift: a build never applied is pending, every resource new" {
	"$BIN/fluid" plan --mode amend --out p.json "$C" >/dev/null
	drift
	assert_status 0
	assert_jq '.builds[0].status == "pending" and ([.builds[0].changes[].action] == ["new", "new", "new", "new"])'
	assert_jq '.builds[0].changes[0].resource == "FlinkComputePool data-products/fluid-dedicated"'
}

@test "cfk drift: the allowlists refuse before any kubectl run (exit 1)" {
	applied
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/other
	drift
	assert_status 1
	[[ $stderr =~ "deployment.computePool.image: image 'docker.io/confluentinc/cp-flink-sql' is not allowed" ]] ||
	    fail "no image refusal" "$(show)"
	assert_no_stdout
	[ ! -e kubectl.calls ] || fail "kubectl was called" "$(cat kubectl.calls)"
}

@test "cfk drift: a statement gone is drift (missing), exit 1" {
	applied
	rm "$S/$(name snk).json"
	drift
	assert_status 1
	assert_jq '.builds[0].status == "drift"'
	assert_jq --arg r "FlinkStatement $NS/$(name snk)" '.builds[0].fields == [{"resource": $r, "field": "", "applied": "exists", "live": null, "manager": null, "kind": "missing"}]'
	kubectl_wrote_nothing
}

@test "cfk drift: a spec field another manager changed is drift with its manager; one fluid applied differently is pending" {
	# fluid applies the INSERT's parallelism (1 by default): the edit to 4 is
	# drift from what it applied.
	applied
	edit "$S/$(name ins).json" '.spec.parallelism = 4' kubectl-edit '{"f:spec": {"f:parallelism": {}}}'
	drift
	assert_status 1
	assert_jq --arg r "FlinkStatement $NS/$(name ins)" '.builds[0].fields == [{"resource": $r, "field": ".spec.parallelism", "applied": 1, "live": 4, "manager": "kubectl-edit", "kind": "differs"}]'
	# The pool's memory as fluid applied it, and the contract now says
	# another: a change not yet applied, not drift.
	applied
	sed -i 's/jobManager: {memory: 1024m/jobManager: {memory: 2048m/' "$C"
	grep -q 'memory: 2048m' "$C" || fail "not edited" ""
	drift
	assert_status 0
	# (the statements' bundle digest changed with the contract, too)
	assert_jq '.builds[0].status == "pending" and .builds[0].fields == [] and ([.builds[0].changes[].action] | unique) == ["changed"]'
	assert_jq '.builds[0].changes[0] == {"resource": "FlinkComputePool data-products/fluid-dedicated", "action": "changed"}'
}

@test "cfk drift: an INSERT stopped by someone else is drift (stopped); one CMF reports STOPPED too" {
	applied
	edit "$S/$(name ins).json" '.spec.stopped = true' kubectl-patch '{"f:spec": {"f:stopped": {}}}'
	drift
	assert_status 1
	assert_jq --arg r "FlinkStatement $NS/$(name ins)" '.builds[0].fields == [{"resource": $r, "field": ".spec.stopped", "applied": null, "live": true, "manager": "kubectl-patch", "kind": "stopped"}]'
	applied
	edit "$S/$(name ins).json" '.status.phase = "STOPPED"'
	drift
	assert_status 1
	assert_jq '.builds[0].fields[0].field == ".status.phase" and .builds[0].fields[0].live == "STOPPED" and .builds[0].fields[0].kind == "stopped"'
}

@test "cfk drift: a changed script not yet applied is pending (new and delete); an old statement left beside the new is drift" {
	applied
	cp p.json old.json
	sed -i 's/groupId: .*/groupId: forge-commerce-orders-v2/' "$C"
	"$BIN/fluid" plan --mode amend --out p.json "$C" >/dev/null
	drift
	assert_status 0
	assert_jq '.builds[0].status == "pending" and .builds[0].fields == []'
	assert_jq --arg n "FlinkStatement $NS/$(name src)" --arg o "FlinkStatement $NS/$(name src old.json)" \
	    '[.builds[0].changes[] | select(.resource == $n or .resource == $o) | .action] == ["new", "delete"]'
	# Applied, but an old INSERT's delete did not happen.
	cp "$S/$(name ins old.json).json" keep.json
	applied
	cp keep.json "$S/$(name ins old.json).json"
	drift
	assert_status 1
	assert_jq --arg r "FlinkStatement $NS/$(name ins old.json)" '.builds[0].fields == [{"resource": $r, "field": "", "applied": null, "live": "exists", "manager": null, "kind": "left-over"}]'
	kubectl_wrote_nothing
}

@test "cfk drift: a cluster that cannot be read is no answer (exit 2), nothing on stdout" {
	applied
	fake_kubectl refused
	drift
	assert_status 2
	assert_no_stdout
	[[ $stderr =~ "cannot list the flinkstatements of build 'land-orders' in data-products: The connection to the server 127.0.0.1:1 was refused: no drift answer" ]] ||
	    fail "no environment error" "$(show)"
}

@test "cfk drift: a document whose product is not a label value reaches no kubectl selector (fluid-diff --live, exit 2)" {
	applied
	(cd tree && "$BIN/fluid-resolve" "${C#tree/}" | "$BIN/fluid-check" | "$BIN/fluid-sqlgen" |
	    "$BIN/fluid-k8s" render) >doc.json || fail "the pipeline failed" ""
	TOOL=fluid-diff tool --live <doc.json
	assert_status 0
	assert_jq '.drift.builds[0].status == "clean"'
	rm -f kube/calls kubectl.calls
	jq '.check.product.id = "x,fluid.dev/build=other"' doc.json >bad.json
	TOOL=fluid-diff tool --live <bad.json
	assert_status 2
	assert_no_stdout
	[[ $stderr =~ "the namespace, product or build id is not a label value: nothing read: no drift answer" ]] ||
	    fail "no refusal" "$(show)"
	[ ! -e kubectl.calls ] || fail "kubectl was called" "$(cat kubectl.calls)"
}

@test "cfk drift: a List item that is not a FlinkStatement of the build's namespace is not taken on its labels: no answer (exit 2)" {
	applied
	edit "$S/$(name ins).json" '.metadata.namespace = "other"'
	drift
	assert_status 2
	assert_no_stdout
	[[ $stderr =~ "cannot list the flinkstatements of build 'land-orders' in data-products: the List's item 0 is not a flinkstatement in data-products: nothing taken from it" ]] ||
	    fail "no List refusal" "$(show)"
	edit "$S/$(name ins).json" '.metadata.namespace = "data-products" | .kind = "FlinkComputePool"'
	drift
	assert_status 2
	[[ $stderr =~ "the List's item 0 is not a flinkstatement in data-products" ]] ||
	    fail "no List refusal (kind)" "$(show)"
	kubectl_wrote_nothing
}

@test "cfk drift: the FlinkEnvironment and CMFRestClass need entries of their own lists before any kubectl" {
	applied
	unset FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST FLUID_CFK_CMF_REST_CLASS_ALLOWLIST
	drift
	assert_status 1
	[[ $stderr =~ "deployment.flinkEnvironment: FlinkEnvironment 'data-products/flink-env1' is not allowed" ]] ||
	    fail "no FlinkEnvironment refusal" "$(show)"
	[[ $stderr =~ "deployment.cmfRestClassRef: CMFRestClass 'operator/default' is not allowed" ]] ||
	    fail "no CMFRestClass refusal" "$(show)"
	[ ! -s kube/calls ] || fail "kubectl was called" "$(cat kube/calls)"
}
