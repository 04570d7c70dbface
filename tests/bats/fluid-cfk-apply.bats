#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-cfk-apply.bats - fluid plan and fluid apply for the CFK target
# (management: cfk) against the FAKE kubectl (tests/bats/fake-kubectl, mode
# store), which stores the objects, logs every call and writes the status CFK
# would write as a stand-in: no CFK operator and no CMF run here.  Each
# refusal checks the exit status, the message and the fake's log.

load helpers
load fake-kubectl

setup() {
	TOOL=fluid
	fluid_setup
	command -v python3 >/dev/null || skip "python3 is not installed"
	local f
	f=$(ls "$EXAMPLES"/shapes/landed/*.fluid.yaml)
	"$TOP/tests/cfk/variant" "$f" tree
	C=tree/landed/${f##*/}
	mkdir kube
	export FAKE_STORE=$TMP/kube
	fake_kubectl store
}
teardown() { fluid_teardown; }

# What the landed example's CFK variant needs, each list exactly.
allow_cfk() {
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=data-products
	export FLUID_FLINK_IMAGE_ALLOWLIST=confluentinc/cp-flink-sql
	export FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=data-products/flink-env1
	export FLUID_CFK_CMF_REST_CLASS_ALLOWLIST=operator/default
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka
}

plan() { "$BIN/fluid" plan --mode "$1" --out "${2:-p.json}" "$C" >/dev/null ||
	fail "fluid plan failed" ""; }
calls() { cat kube/calls 2>/dev/null; }
no_kubectl() { [ ! -e kube/calls ] || fail "kubectl was called" "$(calls)"; }
# name ROLE [PLAN]: the plan's FlinkStatement of ROLE (src, snk, ins).
name() { jq -r --arg r "$1" '.builds[0].statements[] | select(test("-" + $r + "-"))' "${2:-p.json}"; }

@test "cfk apply: fluid plan plans a CFK build: the pool and the statements in order, the build entry names them" {
	plan dry-run
	run jq -c '[.resources[].resource.kind], .builds[0].target, (.builds[0].statements | length), .builds[0].computePool' p.json
	assert_equal "$output" '["FlinkComputePool","FlinkStatement","FlinkStatement","FlinkStatement"]
"cfk"
3
"fluid-dedicated"'
	[[ $(name src) == commerce-orders-landed-src-* && $(name ins) == commerce-orders-landed-ins-* ]] ||
	    fail "statement names" "$(jq .builds p.json)"
}

@test "cfk apply: a dry run checks the allowlists, says what it would apply and calls no kubectl" {
	allow_cfk
	plan dry-run
	tool apply --mode dry-run p.json
	assert_status 0
	assert_equal "$output" "would apply FlinkComputePool data-products/fluid-dedicated (new)
would apply FlinkStatement data-products/$(name src) (new)
would apply FlinkStatement data-products/$(name snk) (new)
would apply FlinkStatement data-products/$(name ins) (new)"
	no_kubectl
}

@test "cfk apply: every allowlist refuses (context, namespace, the pool's image, each host), exit 1, before kubectl" {
	plan amend
	tool apply --mode amend --yes p.json
	assert_status 1
	for m in "deployment.context: kube context 'development' is not allowed" \
	    "deployment.namespace: namespace 'data-products' is not allowed" \
	    "deployment.computePool.image: image 'docker.io/confluentinc/cp-flink-sql' is not allowed" \
	    "exposes\[0\].binding.location.uri: host 'catalog.example.com' is not allowed" \
	    "exposes\[0\].binding.catalogProperties.s3.endpoint: host 's3.example.com' is not allowed" \
	    "source.bootstrapServers: host 'kafka' is not allowed"; do
		[[ $stderr =~ $m ]] || fail "no refusal: $m" "$(show)"
	done
	no_kubectl
	# One list short: that refusal alone, still no kubectl.
	allow_cfk
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/other
	tool apply --mode amend --yes p.json
	assert_status 1
	assert_equal "$(grep -c 'error:' <<<"$stderr")" 1 "refusals"
	[[ $stderr =~ "deployment.computePool.image: image 'docker.io/confluentinc/cp-flink-sql' is not allowed" ]] ||
	    fail "no image refusal" "$(show)"
	no_kubectl
}

@test "cfk apply: a plan whose statement was edited (digest made to match) is refused before kubectl" {
	allow_cfk
	plan amend
	python3 - p.json e.json <<-'EOF2'
	import hashlib, json, sys
	p = json.load(open(sys.argv[1]))
	s = p["resources"][2]["resource"]["spec"]
	s["statement"] = s["statement"].replace("https://catalog.example.com", "https://s3.example.com")
	c = json.loads(json.dumps(p)); del c["digest"]
	p["digest"] = "sha256:" + hashlib.sha256(json.dumps(c, sort_keys=True,
	    separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
	json.dump(p, open(sys.argv[2], "w"))
	EOF2
	tool apply --mode amend --yes e.json
	assert_status 1
	[[ $stderr =~ "the plan's resources[2].resource.spec.statement is not what fluid renders from the plan's bundle" ]] ||
	    fail "no re-render refusal" "$(show)"
	no_kubectl
}

@test "cfk apply: a host only in a statement's WITH options is read from the statement and refused" {
	allow_cfk
	plan amend
	python3 - p.json e.json <<-'EOF2'
	import json, sys
	p = json.load(open(sys.argv[1]))
	s = p["resources"][2]["resource"]["spec"]
	s["statement"] = s["statement"].replace("'https://catalog.example.com", "'https://evil.example.net")
	json.dump(p, open(sys.argv[2], "w"))
	EOF2
	grep -q evil.example.net e.json || fail "not edited" ""
	tool apply --mode amend --yes e.json
	assert_status 1
	[[ $stderr =~ "build 'land-orders': FlinkStatement uri: host 'evil.example.net' is not allowed" ]] ||
	    fail "no host refusal from the statement" "$(show)"
	no_kubectl
}

@test "cfk apply: writes the pool, the DDL each COMPLETED, then the INSERT, by server-side apply" {
	allow_cfk
	plan amend
	tool apply --mode amend --yes p.json
	assert_status 0
	assert_equal "$(grep -v '^get \|^list ' kube/calls)" "apply flinkcomputepool fluid-dedicated
apply flinkstatement $(name src)
apply flinkstatement $(name snk)
apply flinkstatement $(name ins)" "writes"
	# Every read before the first write, the DDL read back before the INSERT.
	assert_equal "$(sed -n 1,5p kube/calls | cut -d' ' -f1 | tr '\n' ' ')" "get get get get list " "reads"
	grep -A1 "^apply flinkstatement $(name snk)" kube/calls | tail -1 | grep -q "^get flinkstatement $(name snk)" ||
	    fail "the sink was not read back before the INSERT" "$(calls)"
	[[ $output == *"FlinkStatement data-products/$(name snk): COMPLETED"* ]] || fail "no COMPLETED line" "$(show)"
	# Applied again: the same objects, nothing new.
	tool apply --mode amend --yes p.json
	assert_status 0
}

@test "cfk apply: a DDL statement CMF reports FAILED stops the apply before the INSERT, CMF's detail escaped" {
	allow_cfk
	plan amend
	FAKE_DDL_PHASE=FAILED FAKE_DETAIL=$'Table already exists\x1b[31m' tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "FlinkStatement data-products/$(name src): CMF reports phase FAILED: Table already exists\\x1b[31m" ]] ||
	    fail "no FAILED refusal" "$(show)"
	! grep -q "^apply flinkstatement $(name snk)\|^apply flinkstatement $(name ins)" kube/calls ||
	    fail "applied past the failed DDL" "$(calls)"
}

@test "cfk apply: a DDL statement not COMPLETED within --wait leaves the INSERT unapplied" {
	allow_cfk
	plan amend
	FAKE_DDL_PHASE=PENDING tool apply --mode amend --yes --wait 0 p.json
	assert_status 1
	[[ $stderr =~ "FlinkStatement data-products/$(name src) (source) is not COMPLETED within 0 s: the INSERT is not applied" ]] ||
	    fail "no wait refusal" "$(show)"
	! grep -q "^apply flinkstatement $(name ins)" kube/calls || fail "INSERT applied" "$(calls)"
}

@test "cfk apply: cmfSync.status Failed is reported with CFK's errorMessage and stops the apply" {
	allow_cfk
	plan amend
	FAKE_SYNC=Failed FAKE_SYNC_MSG="environment flink-env1 not found" tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "FlinkComputePool data-products/fluid-dedicated: CFK could not sync it with CMF (cmfSync.status Failed): environment flink-env1 not found" ]] ||
	    fail "no cmfSync refusal" "$(show)"
	assert_equal "$(grep '^apply' kube/calls)" "apply flinkcomputepool fluid-dedicated" "writes"
}

@test "cfk apply: a changed SQL: amend refuses; amend-and-build applies the new, stops the old INSERT, deletes the old in reverse order" {
	allow_cfk
	plan amend-and-build old.json
	tool apply --mode amend-and-build --yes old.json
	assert_status 0
	sed -i 's/groupId: .*/groupId: forge-commerce-orders-v2/' "$C"
	grep -q 'groupId: forge-commerce-orders-v2' "$C" || fail "no groupId edited" ""
	plan amend
	[ "$(name src)" != "$(name src old.json)" ] || fail "the source statement kept its name" ""
	rm kube/calls
	tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "build 'land-orders': the script changed (statements of another digest run in data-products): amend keeps the running script" ]] ||
	    fail "no amend refusal" "$(show)"
	kubectl_wrote_nothing
	plan amend-and-build
	rm kube/calls
	# Each old statement's uid, as the API server gave it: the stop and
	# the deletes are conditional on it.
	local want="" r
	declare -A uid
	for r in src snk ins; do
		uid[$r]=$(jq -r .metadata.uid "kube/flinkstatement/data-products/$(name $r old.json).json")
		[ -n "${uid[$r]}" ] && [ "${uid[$r]}" != null ] || fail "no uid stored" ""
	done
	tool apply --mode amend-and-build --yes p.json
	assert_status 0
	want="apply flinkcomputepool fluid-dedicated"
	for r in src snk; do want+=$'\n'"apply flinkstatement $(name $r)"; done
	want+=$'\n'"patch flinkstatement $(name ins old.json) [{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\"${uid[ins]}\"},{\"op\":\"add\",\"path\":\"/spec/stopped\",\"value\":true}]"
	want+=$'\n'"apply flinkstatement $(name ins)"
	for r in ins snk src; do
		[ "$(name $r)" = "$(name $r old.json)" ] ||
		    want+=$'\n'"delete flinkstatement $(name $r old.json) uid=${uid[$r]}"
	done
	assert_equal "$(grep -v '^get \|^list ' kube/calls)" "$want" "writes"
	[ ! -e "kube/flinkstatement/data-products/$(name ins old.json).json" ] || fail "old INSERT kept" ""
}

@test "cfk apply: a statement of the plan's name that is not fluid's, or a labelled one of no role, is not touched" {
	allow_cfk
	plan amend
	mkdir -p kube/flinkstatement/data-products
	printf '{"kind":"FlinkStatement","metadata":{"name":"%s","labels":{"app.kubernetes.io/managed-by":"someone"}},"spec":{"statement":"x"}}' \
	    "$(name snk)" >"kube/flinkstatement/data-products/$(name snk).json"
	tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "FlinkStatement data-products/$(name snk) exists and is not fluid's for product 'commerce.orders-landed' build 'land-orders' (its labels: app.kubernetes.io/managed-by=someone" ]] ||
	    fail "no ownership refusal" "$(show)"
	kubectl_wrote_nothing
	rm kube/flinkstatement/data-products/*.json
	printf '{"kind":"FlinkStatement","metadata":{"name":"stray","labels":{"app.kubernetes.io/managed-by":"fluid","app.kubernetes.io/name":"commerce.orders-landed","fluid.dev/build":"land-orders"}},"spec":{"statement":"x"}}' \
	    >kube/flinkstatement/data-products/stray.json
	tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "FlinkStatement data-products/stray carries the build's labels but no role fluid writes" ]] ||
	    fail "no role refusal" "$(show)"
	kubectl_wrote_nothing
}

@test "cfk apply: create-only refuses a build whose statements exist" {
	allow_cfk
	plan create-only
	tool apply --mode create-only --yes p.json
	assert_status 0
	rm kube/calls
	tool apply --mode create-only --yes p.json
	assert_status 1
	[[ $stderr =~ "build 'land-orders': its FlinkStatements exist in data-products: create-only creates, never changes" ]] ||
	    fail "no create-only refusal" "$(show)"
	kubectl_wrote_nothing
}

@test "cfk apply: a List item or a read that is not a FlinkStatement of the build's namespace is not taken on its labels: refused, nothing written" {
	allow_cfk
	plan amend
	local labels='"labels":{"app.kubernetes.io/managed-by":"fluid","app.kubernetes.io/name":"commerce.orders-landed","fluid.dev/build":"land-orders"}'
	mkdir -p kube/flinkstatement/data-products
	# Listed in the namespace, but it says it lives in another one.
	printf '{"kind":"FlinkStatement","metadata":{"name":"stray","namespace":"other",%s},"spec":{"statement":"x"}}' \
	    "$labels" >kube/flinkstatement/data-products/stray.json
	tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "the List of the FlinkStatements of build 'land-orders' in data-products holds an item (0) that is not a FlinkStatement in data-products: nothing taken from it" ]] ||
	    fail "no List refusal (namespace)" "$(show)"
	kubectl_wrote_nothing
	# Another kind.
	printf '{"kind":"ConfigMap","metadata":{"name":"stray",%s},"spec":{"statement":"x"}}' \
	    "$labels" >kube/flinkstatement/data-products/stray.json
	rm -f kube/calls
	tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "holds an item (0) that is not a FlinkStatement in data-products" ]] ||
	    fail "no List refusal (kind)" "$(show)"
	kubectl_wrote_nothing
	# A read of one of the plan's names answered by another namespace's.
	rm kube/flinkstatement/data-products/stray.json
	printf '{"kind":"FlinkStatement","metadata":{"name":"%s","namespace":"other",%s},"spec":{"statement":"x"}}' \
	    "$(name snk)" "$labels" >"kube/flinkstatement/data-products/$(name snk).json"
	rm -f kube/calls
	tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "build 'land-orders': the answer to a read of FlinkStatement data-products/$(name snk) is not that object (its kind, namespace or name differ): not touched" ]] ||
	    fail "no read refusal" "$(show)"
	kubectl_wrote_nothing
}

@test "cfk apply: the old INSERT's stop and each old statement's delete are conditional on the uid read: one replaced since is not touched" {
	allow_cfk
	plan amend-and-build old.json
	tool apply --mode amend-and-build --yes old.json
	assert_status 0
	sed -i 's/groupId: .*/groupId: forge-commerce-orders-v2/' "$C"
	plan amend-and-build
	# The stop: someone replaced the old INSERT after fluid read it.
	export FAKE_REPLACE="$(name ins old.json)"
	rm kube/calls
	tool apply --mode amend-and-build --yes p.json
	assert_status 1
	[[ $stderr =~ "cannot stop FlinkStatement data-products/$(name ins old.json) (uid ".*", as read): The request is invalid" ]] ||
	    fail "no stop refusal" "$(show)"
	jq -e '.spec | has("stopped") | not' "kube/flinkstatement/data-products/$(name ins old.json).json" >/dev/null ||
	    fail "the replaced INSERT was stopped" ""
	# The deletes: the old INSERT is stopped, then replaced again.
	unset FAKE_REPLACE
	jq '.spec.stopped = true' "kube/flinkstatement/data-products/$(name ins old.json).json" >s.tmp &&
	    mv s.tmp "kube/flinkstatement/data-products/$(name ins old.json).json"
	export FAKE_REPLACE="$(name ins old.json)"
	rm kube/calls
	tool apply --mode amend-and-build --yes p.json
	assert_status 1
	[[ $stderr =~ "cannot delete FlinkStatement data-products/$(name ins old.json) (uid ".*", as read): Error from server (Conflict): Operation cannot be fulfilled on flinkstatements.platform.confluent.io \"$(name ins old.json)\": Precondition failed: UID in precondition: " ]] ||
	    fail "no delete refusal" "$(show)"
	[ -e "kube/flinkstatement/data-products/$(name ins old.json).json" ] || fail "the replaced INSERT was deleted" ""
	grep -q "^delete flinkstatement $(name ins old.json) uid=" kube/calls || fail "no conditional delete" "$(calls)"
}

@test "cfk apply: the FlinkEnvironment and CMFRestClass a build runs under, and an existing pool, each need an entry of its own list: unset allows nothing, refused before kubectl, dry run included" {
	allow_cfk
	unset FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST FLUID_CFK_CMF_REST_CLASS_ALLOWLIST
	plan dry-run
	tool apply --mode dry-run p.json
	assert_status 1
	assert_no_stdout
	[[ $stderr =~ "build 'land-orders': deployment.flinkEnvironment: FlinkEnvironment 'data-products/flink-env1' is not allowed: export FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=data-products/flink-env1" ]] ||
	    fail "no FlinkEnvironment refusal" "$(show)"
	[[ $stderr =~ "build 'land-orders': deployment.cmfRestClassRef: CMFRestClass 'operator/default' is not allowed: export FLUID_CFK_CMF_REST_CLASS_ALLOWLIST=operator/default" ]] ||
	    fail "no CMFRestClass refusal" "$(show)"
	# Each once, whatever the number of resources naming it.
	[ "$(grep -c 'deployment.flinkEnvironment' <<<"$stderr")" = 1 ] || fail "refused more than once" "$(show)"
	no_kubectl
	# Another environment or class than the one listed.
	export FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=data-products/flink-env2,flink-prod
	export FLUID_CFK_CMF_REST_CLASS_ALLOWLIST=default2,other/default
	plan amend
	tool apply --mode amend --yes p.json
	assert_status 1
	[[ $stderr =~ "FlinkEnvironment 'data-products/flink-env1' is not allowed" && $stderr =~ "CMFRestClass 'operator/default' is not allowed" ]] ||
	    fail "no refusal of an unlisted one" "$(show)"
	no_kubectl
	# A bare name admits it in any namespace.
	export FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=flink-env1 FLUID_CFK_CMF_REST_CLASS_ALLOWLIST=default
	plan dry-run
	tool apply --mode dry-run p.json
	assert_status 0
	# An existing pool (not rendered): its name needs its own list.
	sed -i '/^ *computePool:$/,/taskManager:/{/type: DEDICATED\|flinkVersion: \|image: confluentinc\|jobManager: \|taskManager: /d}' "$C"
	"$BIN/fluid" plan --mode dry-run --out p2.json "$C" >/dev/null 2>err.txt ||
	    fail "the contract cannot name an existing pool" "$(cat err.txt)"
	jq -e '[.resources[].resource.kind] | index("FlinkComputePool") == null' p2.json >/dev/null ||
	    fail "the pool is still rendered" "$(jq .builds p2.json)"
	tool apply --mode dry-run p2.json
	assert_status 1
	[[ $stderr =~ "deployment.computePool.name: FlinkComputePool 'data-products/fluid-dedicated' is not allowed: export FLUID_CFK_COMPUTE_POOL_ALLOWLIST=data-products/fluid-dedicated" ]] ||
	    fail "no pool refusal" "$(show)"
	export FLUID_CFK_COMPUTE_POOL_ALLOWLIST=data-products/fluid-dedicated
	tool apply --mode dry-run p2.json
	assert_status 0
	no_kubectl
}
