#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-cfk-verify.bats - fluid verify for the CFK target (management:
# cfk): the catalog from the FAKE Iceberg REST catalog
# (tests/net/fake_catalog.py --no-auth: a CFK build has no catalog
# credential), the cluster from the FAKE kubectl (tests/bats/fake-kubectl,
# mode store).  The status in the store is written here, as CFK and CMF
# would write it, by a stand-in: no CFK operator, no CMF and no Flink run
# here, so what CFK really reports is not proven by these tests.

load helpers
load fake-kubectl

FAKE_PID=

setup() {
	TOOL=fluid
	fluid_setup
	make_test_ca
	local f
	f=$(ls "$EXAMPLES"/shapes/landed/*.fluid.yaml)
	"$TOP/tests/cfk/variant" "$f" tree
	C=tree/landed/${f##*/}
	NS=data-products
	JOBS=flink-jobs
	export FAKE_STORE=$TMP/kube
	fake_kubectl store
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=$NS,$JOBS
	export FLUID_FLINK_IMAGE_ALLOWLIST=confluentinc/cp-flink-sql
	export FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=$NS/flink-env1
	export FLUID_CFK_CMF_REST_CLASS_ALLOWLIST=operator/default
	export FLUID_CA_BUNDLE=$TMP/ca.pem
	catalog
}

teardown() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	fluid_teardown
}

# catalog: start the fake catalog and point the contract at it.
catalog() {
	start_fake fake_catalog.py --no-auth --age 10 || return
	sed -i "s|https://catalog.example.com/api/catalog|https://127.0.0.1:$PORT/api/catalog|" "$C"
}

# seed [STATE]: the rendered resources in the store, each at generation
# 1 with the status CFK writes on success (a stand-in's: cmfSync Created,
# the DDL COMPLETED, the INSERT PENDING as CFK leaves it), the
# FlinkEnvironment naming $JOBS, and the INSERT's FlinkDeployment there,
# RUNNING.
seed() {
	"$BIN/fluid" plan --mode amend --out p.json "$C" >/dev/null || fail "fluid plan failed" ""
	local i n kind name role
	n=$(jq '.resources | length' p.json)
	for (( i=0; i<n; i++ )); do
		kind=$(jq -r ".resources[$i].resource.kind | ascii_downcase" p.json)
		name=$(jq -r ".resources[$i].resource.metadata.name" p.json)
		role=$(jq -r ".resources[$i].resource.metadata.annotations[\"fluid.dev/statement-role\"] // \"\"" p.json)
		mkdir -p "kube/$kind/$NS"
		jq --arg role "$role" ".resources[$i].resource | .metadata.generation = 1 |
		    .status = {cfkInternalState: \"CREATED\", cmfSync: {status: \"Created\"},
		    observedGeneration: 1, phase: (if \$role == \"insert\" then \"PENDING\"
		    elif \$role == \"\" then \"DEDICATED\" else \"COMPLETED\" end)}" p.json \
		    >"kube/$kind/$NS/$name.json"
	done
	INS=$(jq -r '.builds[0].statements[2]' p.json)
	mkdir -p kube/flinkenvironment/$NS kube/flinkdeployment/$JOBS
	jq -n --arg ns "$JOBS" '{kind: "FlinkEnvironment", metadata: {name: "flink-env1"},
	    spec: {kubernetesNamespace: $ns}}' >kube/flinkenvironment/$NS/flink-env1.json
	jq -n --arg n "$INS" '{kind: "FlinkDeployment", metadata: {name: $n},
	    status: {lifecycleState: "STABLE", jobStatus: {state: "RUNNING"}}}' \
	    >kube/flinkdeployment/$JOBS/$INS.json
}
# set FILE JQ: edit a stored object.
set_() { jq "$2" "$1" >set.tmp && mv set.tmp "$1"; }
st() { echo "kube/flinkstatement/$NS/$(jq -r --arg r "$1" '.builds[0].statements[] | select(test("-" + $r + "-"))' p.json).json"; }

verify() {
	run --separate-stderr "$BIN/fluid" verify "$C" --streaming-timeout 0 "$@"
}
sel="app.kubernetes.io/managed-by=fluid,app.kubernetes.io/name=commerce.orders-landed,fluid.dev/build=land-orders"

@test "cfk verify: synced statements and a RUNNING FlinkDeployment pass, one read per kind, and the report says what CFK does not refresh" {
	seed
	verify --strict --out delivery.json
	assert_status 0
	assert_equal "$output" "land-orders: catalog-schema: pass
land-orders: catalog-snapshot: pass
land-orders: statements: pass
land-orders: job: pass
wrote delivery.json"
	assert_equal "$(cat kube/calls)" "list flinkstatement $sel
list flinkcomputepool $sel
get flinkenvironment flink-env1
get flinkdeployment $INS" "reads"
	grep -q -- "--namespace=$JOBS --output=json --ignore-not-found -- flinkdeployment $INS$" kubectl.calls ||
	    fail "the FlinkDeployment not read in the environment's namespace" "$(cat kubectl.calls)"
	kubectl_wrote_nothing
	jq -e '.builds[0].note | test("CFK does not refresh status.phase of a running streaming FlinkStatement")' delivery.json >/dev/null ||
	    fail "no note on phase" "$(cat delivery.json)"
	jq -e '.builds[0].evidence[2].detail | test("its phase PENDING, which CFK does not refresh for a running streaming statement")' delivery.json >/dev/null ||
	    fail "the statements piece does not say phase is not refreshed" "$(cat delivery.json)"
}

@test "cfk verify: cmfSync.status Failed is refused with CFK's message, escaped and cut" {
	seed
	local long
	long=$(printf 'x%.0s' {1..400})
	set_ "$(st snk)" ".status.cmfSync = {status: \"Failed\", errorMessage: \"catalog missing\u001b[31m $long\"}"
	verify
	assert_status 1
	[[ $output == *"land-orders: statements: fail"* ]] || fail "not fail" "$(show)"
	[[ $stderr == *"statements: FlinkStatement $NS/$(basename "$(st snk)" .json) (sink): CFK could not sync it with CMF (cmfSync.status Failed, cfkInternalState CREATED): catalog missing\\x1b[31m xxx"*"..."* ]] ||
	    fail "no escaped cmfSync refusal" "$(show)"
	[[ $stderr != *$'\e'* ]] || fail "a raw escape reached the terminal" "$(show)"
	[[ $stderr != *"$long"* ]] || fail "the message was not cut" ""
}

@test "cfk verify: a DDL statement not COMPLETED, a FAILED INSERT, a FAILED pool each fail" {
	seed
	set_ "$(st src)" '.status.phase = "PENDING"'
	verify
	assert_status 1
	[[ $stderr == *"(source): phase PENDING, not COMPLETED"* ]] || fail "no DDL refusal" "$(show)"
	seed
	set_ "$(st ins)" '.status.phase = "FAILED" | .status.detail = "Job failed: NoSuchTopic"'
	verify
	assert_status 1
	[[ $stderr == *"(insert): CMF reports phase FAILED: Job failed: NoSuchTopic"* ]] || fail "no INSERT refusal" "$(show)"
	seed
	set_ kube/flinkcomputepool/$NS/fluid-dedicated.json '.status.phase = "FAILING" | .status.detail = "no TaskManager"'
	verify
	assert_status 1
	[[ $stderr == *"FlinkComputePool $NS/fluid-dedicated: CMF reports phase FAILING: no TaskManager"* ]] ||
	    fail "no pool refusal" "$(show)"
}

@test "cfk verify: a stopped INSERT is refused while the contract says running, and accepted when it says suspended" {
	seed
	set_ "$(st ins)" '.spec.stopped = true'
	verify
	assert_status 1
	[[ $stderr == *"(insert) is stopped (spec.stopped true, phase PENDING) and the contract says running"* ]] ||
	    fail "no stopped refusal" "$(show)"
	sed -i 's/^\(  *\)flinkEnvironment: flink-env1$/&\n\1state: suspended/' "$C"
	grep -q '^ *state: suspended$' "$C" || fail "not suspended" ""
	rm -rf kube
	seed
	jq -e '.spec.stopped == true' "$(st ins)" >/dev/null || fail "the suspended render does not stop" ""
	verify
	assert_status 0
	[[ $output == *"land-orders: statements: pass"*"land-orders: job: unavailable"* ]] || fail "not pass/unavailable" "$(show)"
	[[ $stderr == *"warning: Flink build land-orders: job: unavailable: the contract says suspended"* ]] ||
	    fail "no warning" "$(show)"
	! grep -q "flinkdeployment" kube/calls || fail "read a job of a suspended build" "$(cat kube/calls)"
}

@test "cfk verify: no FlinkEnvironment: the job is unproven, a warning, an error with --strict; never a pass" {
	seed
	rm kube/flinkenvironment/$NS/flink-env1.json
	verify
	assert_status 0
	[[ $output == *"land-orders: job: unavailable"* ]] || fail "not unavailable" "$(show)"
	[[ $stderr == *"warning: Flink build land-orders: job: unavailable: unproven: FlinkEnvironment $NS/flink-env1 does not exist in the build's namespace"* ]] ||
	    fail "no unproven warning" "$(show)"
	verify --strict
	assert_status 1
	[[ $stderr == *"error: Flink build land-orders: job: unavailable: unproven"* ]] || fail "not an error" "$(show)"
	! grep -q "get flinkdeployment" kube/calls || fail "read a FlinkDeployment without a namespace" "$(cat kube/calls)"
}

@test "cfk verify: the environment's namespace from the cluster is checked before kubectl reads there" {
	seed
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=$NS
	verify --strict
	assert_status 1
	[[ $stderr == *"unproven: the job runs in namespace '$JOBS' (FlinkEnvironment $NS/flink-env1), which fluid does not read: namespace '$JOBS' is not allowed: export FLUID_FLINK_NAMESPACE_ALLOWLIST="* ]] ||
	    fail "no allowlist refusal" "$(show)"
	! grep -q "get flinkdeployment" kube/calls || fail "read in a namespace not allowed" "$(cat kube/calls)"
	rm kube/calls
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=$NS,$JOBS
	set_ kube/flinkenvironment/$NS/flink-env1.json '.spec.kubernetesNamespace = "--all-namespaces"'
	verify --strict
	assert_status 1
	[[ $stderr == *"spec.kubernetesNamespace is not a namespace name (--all-namespaces): not read"* ]] ||
	    fail "no namespace refusal" "$(show)"
	! grep -q "get flinkdeployment" kube/calls || fail "read with a namespace from the cluster" "$(cat kube/calls)"
}

@test "cfk verify: a FAILED job fails with its error; a missing FlinkDeployment is unproven" {
	seed
	set_ kube/flinkdeployment/$JOBS/$INS.json '.status.jobStatus.state = "FAILED" | .status.error = "Topic orders\n not found"'
	verify
	assert_status 1
	[[ $stderr == *"job: FlinkDeployment $JOBS/$INS reports jobStatus.state FAILED, not RUNNING (status.error: Topic orders\\x0a not found)"* ]] ||
	    fail "no job refusal" "$(show)"
	rm kube/flinkdeployment/$JOBS/$INS.json
	verify
	assert_status 0
	[[ $stderr == *"job: unavailable: unproven: no FlinkDeployment $JOBS/$INS (CMF names the job's after the statement)"* ]] ||
	    fail "no unproven warning" "$(show)"
}

@test "cfk verify: a statement not applied fails; a cluster that cannot be read is unavailable" {
	seed
	rm "$(st ins)"
	verify
	assert_status 1
	[[ $stderr == *"(insert) does not exist with fluid's labels for product 'commerce.orders-landed' build 'land-orders': not applied"* ]] ||
	    fail "no missing refusal" "$(show)"
	fake_kubectl refused
	verify --strict
	assert_status 1
	[[ $stderr == *"statements: unavailable: cannot list the flinkstatements: The connection to the server 127.0.0.1:1 was refused"* ]] ||
	    fail "not unavailable" "$(show)"
}

@test "cfk verify: the FlinkEnvironment and CMFRestClass need entries of their own lists before anything is contacted" {
	seed
	unset FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST FLUID_CFK_CMF_REST_CLASS_ALLOWLIST
	rm -f kube/calls
	verify --strict
	assert_status 1
	[[ $stderr == *"FlinkEnvironment 'data-products/flink-env1' is not allowed: export FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=data-products/flink-env1; nothing was contacted"* ]] ||
	    fail "no FlinkEnvironment refusal" "$(show)"
	[[ $stderr == *"CMFRestClass 'operator/default' is not allowed"* ]] || fail "no CMFRestClass refusal" "$(show)"
	[ ! -s kube/calls ] || fail "kubectl was called" "$(cat kube/calls)"
}
