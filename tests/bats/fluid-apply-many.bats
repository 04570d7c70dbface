#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-apply-many.bats - how many kubectl runs fluid apply, diff
# --exit-on-drift and verify make: one per kind (and context and
# namespace), not one per build.  The landed example and the same with
# 20 builds (tests/bench/k8s-apply-contract.py) against the tests' fake
# kubectl in its objects mode (fake-kubectl), which answers several names
# with a kubectl List of those that exist and logs every call.  The
# timings on a real API server are the bench's (tests/bench/k8s-apply).

load helpers
load fake-kubectl

setup() {
	TOOL=fluid
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	LANDED=shapes/landed/orders-landed.fluid.yaml
	MANY=shapes/landed/many.fluid.yaml
	python3 "$TOP/tests/bench/k8s-apply-contract.py" "$LANDED" 20 >"$MANY" ||
	    fail "k8s-apply-contract.py failed" ""
	allow_landed
	export FAKE_CALLS=$TMP/calls
	fake_kubectl objects
}

teardown() { fluid_teardown; }

# apply_contract CONTRACT: plan (amend) and apply it, --wait 0.
apply_contract() {
	"$BIN/fluid" plan --mode amend --out p.json "$1" >/dev/null ||
	    fail "fluid plan failed" ""
	tool apply --mode amend --yes --wait 0 p.json
}

# kinds: each call as "VERB KIND" (get's kind, or apply), one a line.
kinds() {
	sed -E 's/^--context=[^ ]+ --request-timeout=[0-9]+s //' calls |
	    sed -E 's/^get .* -- ([a-z]+)( .*)?$/get \1/; s/^apply .*/apply/'
}

# live_from_applies: what the fake applied (applied.N.json: an object,
# or a List of them) as the fake's objects, fake/KIND-NAME.json.
live_from_applies() {
	local f
	for f in applied.*.json; do
		jq -c 'if .kind == "List" then .items[] else . end' "$f"
	done | while IFS= read -r o; do
		printf '%s\n' "$o" >"fake/$(jq -r '.kind | ascii_downcase' <<<"$o")-$(jq -r .metadata.name <<<"$o").json"
	done
	rm -f applied.*.json calls
}

@test "apply-many: 1 and 20 builds run as many kubectl processes: a read per kind, then an apply per kind in order" {
	apply_contract "$LANDED"
	assert_status 0
	assert_equal "$(kinds | tr '\n' ';')" "get flinkdeployment;get configmap;apply;apply;apply;" "1 build"
	rm -f calls applied.*.json
	apply_contract "$MANY"
	assert_status 0
	assert_equal "$(kinds | tr '\n' ';')" "get flinkdeployment;get configmap;apply;apply;apply;" "20 builds"
	assert_equal "$(grep -c 'running$' <<<"$output")" 20 "one line per build"
	# 20 and 40 names: a LIST of each kind, not a GET per name.
	grep -qx -- "--context=development --request-timeout=10s get --namespace=data-products --output=json --ignore-not-found -- flinkdeployment" calls ||
	    fail "not one LIST of the FlinkDeployments" "$(cat calls)"
	grep -qx -- "--context=development --request-timeout=10s get --namespace=data-products --output=json --ignore-not-found -- configmap" calls ||
	    fail "not one LIST of the ConfigMaps" "$(cat calls)"
	# In order: the scripts' ConfigMaps, the FlinkDeployments, the records.
	assert_equal "$(jq -r '[.items[].kind] | unique | join(",")' applied.0.json)" ConfigMap
	assert_equal "$(jq -r '[.items[].kind] | unique | join(",")' applied.1.json)" FlinkDeployment
	assert_equal "$(jq -r '[.items[].metadata.name | endswith("-fluid-last-applied")] | all' applied.2.json)" true
	assert_equal "$(jq '.items | length' applied.1.json)" 20
}

@test "apply-many: one build's object that is not fluid's refuses the whole apply before any write" {
	apply_contract "$MANY"
	assert_status 0
	live_from_applies
	jq '.metadata.labels["app.kubernetes.io/managed-by"] = "someone"' \
	    fake/flinkdeployment-commerce-orders-landed-17.json >x.json
	mv x.json fake/flinkdeployment-commerce-orders-landed-17.json
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 1
	assert_match "$stderr" "build 'land-orders-17': FlinkDeployment data-products/commerce-orders-landed-17 exists and is not fluid's"
	assert_equal "$(grep -c ' apply ' calls)" 0 "writes"
	# Everything applied again, unchanged: accepted.
	jq '.metadata.labels["app.kubernetes.io/managed-by"] = "fluid"' \
	    fake/flinkdeployment-commerce-orders-landed-17.json >x.json
	mv x.json fake/flinkdeployment-commerce-orders-landed-17.json
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	assert_equal "$(grep -c ' apply ' calls)" 3 "writes"
}

@test "apply-many: a LIST's other objects are skipped; an item twice, from another namespace, or without its kind or namespace, is no answer (exit 2), nothing written" {
	apply_contract "$MANY"
	live_from_applies
	# Someone's ConfigMap in the namespace: not fluid's name, not read.
	jq -n '{apiVersion: "v1", kind: "ConfigMap", metadata: {name: "kube-root-ca.crt", namespace: "data-products"}}' >fake/configmap-kube-root-ca.crt.json
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	rm calls
	cp fake/flinkdeployment-commerce-orders-landed-4.json fake/flinkdeployment-commerce-orders-landed-3.json
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 2
	assert_match "$stderr" "read flinkdeployment data-products/commerce-orders-landed-1 and 19 more: the List's item [0-9]+ is not one of the flinkdeployment objects asked for, once"
	[ "$(grep -c ' apply ' calls)" = 0 ] || fail "written" "$(cat calls)"
	# Another namespace's; and, since the API server says the kind and
	# namespace of every item, one that does not say them.
	local edit
	for edit in '.metadata.namespace = "kube-system"' \
	    'del(.metadata.namespace)' 'del(.kind)'; do
		rm -f calls
		jq ".metadata.name = \"commerce-orders-landed-3\" | $edit" \
		    fake/flinkdeployment-commerce-orders-landed-4.json >fake/flinkdeployment-commerce-orders-landed-3.json
		tool apply --mode amend --yes --wait 0 p.json
		assert_status 2
		assert_match "$stderr" "is not one of the flinkdeployment objects asked for, once"
		[ "$(grep -c ' apply ' calls)" = 0 ] || fail "written after $edit" "$(cat calls)"
	done
}

@test "apply-many: diff --exit-on-drift reads as many times for 20 builds as for 1: the records, the deployments, the ConfigMaps" {
	apply_contract "$MANY"
	live_from_applies
	tool diff --exit-on-drift "$MANY"
	assert_status 0
	assert_jq '.counts == {"clean": 20, "pending": 0, "drift": 0}'
	assert_equal "$(kinds | tr '\n' ';')" "get configmap;get flinkdeployment;get configmap;" "20 builds"
	rm -f calls applied.*.json fake/*.json
	apply_contract "$LANDED"
	live_from_applies
	tool diff --exit-on-drift "$LANDED"
	assert_status 0
	assert_equal "$(kinds | tr '\n' ';')" "get configmap;get flinkdeployment;get configmap;" "1 build"
	# One deployment changed by someone else: drift, that build only.
	rm -f calls
	apply_contract "$MANY"
	live_from_applies
	jq '.spec.job.parallelism = 7' fake/flinkdeployment-commerce-orders-landed-9.json >x.json
	mv x.json fake/flinkdeployment-commerce-orders-landed-9.json
	tool diff --exit-on-drift "$MANY"
	assert_status 1
	assert_jq '.counts == {"clean": 19, "pending": 0, "drift": 1}'
	assert_jq '[.builds[] | select(.status == "drift") | .build] == ["land-orders-9"]'
	assert_equal "$(wc -l <calls)" 3 "reads"
}

@test "apply-many: one build's script changed: a new ConfigMap for that build only, each build's changes its own" {
	apply_contract "$MANY"
	live_from_applies
	# Another consumer group for build 5: another script, another ConfigMap.
	# (Every FlinkDeployment carries the bundle's digest: all are changed.)
	sed -i 's/forge-commerce-orders-landed-5-v1/forge-commerce-orders-landed-5-v2/' "$MANY"
	tool diff --exit-on-drift "$MANY"
	assert_status 0
	assert_jq '.counts == {"clean": 0, "pending": 20, "drift": 0}'
	assert_jq '[.builds[] | .changes[] | select(.action == "new") | .resource | test("^ConfigMap data-products/commerce-orders-landed-5-sql-[0-9a-f]{12}$")] == [true]'
	assert_jq '[.builds[] | .flinkDeployment as $d | .changes[] | .resource | (endswith("/" + $d) or test("/" + $d + "-sql-"))] | all'
	assert_jq '[.builds[] | .changes[] | select(.action == "changed") | .resource] | length == 20'
	assert_equal "$(wc -l <calls)" 3 "reads"
}

@test "apply-many: verify --streaming-timeout 0 reads the deployments and records once for 20 builds, and the Events once" {
	apply_contract "$MANY"
	live_from_applies
	# The catalog is not reached (port 1): its pieces are unavailable.
	sed -i 's|https://catalog.example.com/api/catalog|https://127.0.0.1:1/api/catalog|' "$MANY"
	export ICEBERG_TOKEN=t0k FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=127.0.0.1,s3.example.com,kafka
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@127.0.0.1
	tool verify --streaming-timeout 0 --out delivery.json "$MANY"
	assert_status 1
	assert_equal "$(jq '[.builds[].evidence[] | select(.evidence == "deployment") | .outcome] | unique' delivery.json | jq -c .)" '["fail"]' "the deployment pieces"
	# Read once per kind; the Events of every failed one in one read.
	assert_equal "$(kinds | sed -E 's/^get --raw=.*/get events/' | tr '\n' ';')" \
	    "get flinkdeployment;get configmap;get events;" "20 builds"
	grep -q -- '--raw=/api/v1/namespaces/data-products/events?fieldSelector=involvedObject.kind%3DFlinkDeployment$' calls ||
	    fail "not the namespace's FlinkDeployment events" "$(cat calls)"
}
