#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-plan.bats - fluid plan (fluid(1), PLAN): offline, byte-identical
# for the same contract and mode, bound to the bundle digest and to its
# own digest (recomputed here in Python, not with fluid's code), every
# resource in full with new / changed / unchanged against
# --last-applied; replace and reset refused with the spec's reason.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	LANDED=shapes/landed/orders-landed.fluid.yaml
}

teardown() { fluid_teardown; }

# plan_digest FILE: the digest a plan should carry, computed here: the
# sha256 of its canonical JSON (keys sorted, no blanks) without the
# digest field and without the plan-digest annotations.
plan_digest() {
	python3 - "$1" <<-'EOF'
	import hashlib, json, sys
	p = json.load(open(sys.argv[1]))
	del p["digest"]
	for e in p["resources"]:
	    e["resource"]["metadata"].get("annotations", {}).pop("fluid.dev/plan-digest", None)
	text = json.dumps(p, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
	print("sha256:" + hashlib.sha256(text.encode()).hexdigest())
	EOF
}

@test "plan: the same contract and mode give byte-identical plans, on stdout and with --out" {
	run -0 "$BIN/fluid" plan --mode amend "$LANDED"
	printf '%s\n' "$output" >a.json
	run -0 "$BIN/fluid" plan --mode amend "$LANDED"
	printf '%s\n' "$output" >b.json
	cmp a.json b.json || fail "two plans differ"
	tool plan --mode amend --out c.json "$LANDED"
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "wrote c.json" "standard output"
	cmp a.json c.json || fail "--out wrote other bytes"
	# From another directory, through another path: the same plan.
	(cd shapes/landed && "$BIN/fluid" plan --mode amend orders-landed.fluid.yaml) >d.json
	cmp a.json d.json || fail "the plan depends on the working directory"
}

@test "plan: binds the bundle digest and its own, which recomputes from its content" {
	"$BIN/fluid" plan --mode amend --out p.json "$LANDED"
	assert_equal "$(jq -r .bundleDigest p.json)" "$(digest_of "$LANDED")" "bundleDigest"
	assert_equal "$(jq -r .digest p.json)" "$(plan_digest p.json)" "the plan digest"
	assert_equal "$(jq -r '.resources[] | select(.resource.kind == "FlinkDeployment") |
	    .resource.metadata.annotations["fluid.dev/plan-digest"]' p.json)" \
	    "$(jq -r .digest p.json)" "the FlinkDeployment's plan-digest annotation"
	# An edit of any resource no longer gives the digest.
	jq '.resources[1].resource.spec.job.parallelism = 2' p.json >edited.json
	[ "$(plan_digest edited.json)" != "$(jq -r .digest edited.json)" ] ||
	    fail "an edited plan still matches its digest"
}

@test "plan: records the mode and every resource in full, and where each build goes" {
	"$BIN/fluid" plan --mode create-only --out p.json "$LANDED"
	SQLGEN_DOC=$("$BIN/fluid-resolve" "$LANDED" | "$BIN/fluid-check" | "$BIN/fluid-sqlgen")
	jq -e '.fluidPlan == 1 and .mode == "create-only" and
	    .product == "commerce.orders-landed"' p.json >/dev/null || fail "$(head -c 400 p.json)"
	jq -e '.builds == [{"build": "land-orders", "context": "development",
	    "namespace": "data-products", "flinkDeployment": "commerce-orders-landed",
	    "configMap": .resources[0].resource.metadata.name, "state": "running"}]' p.json \
	    >/dev/null || fail "builds: $(jq -c .builds p.json)"
	# The resources are fluid-k8s render's, with the plan digest added.
	"$BIN/fluid-k8s" render --resources <<<"$SQLGEN_DOC" >list.json
	jq -S '[.resources[].resource] | map(del(.metadata.annotations["fluid.dev/plan-digest"]))' \
	    p.json >planned.json
	jq -S '.items' list.json >rendered.json
	cmp planned.json rendered.json || fail "the plan's resources are not render's"
	jq -e '[.resources[].action] == ["new", "new"]' p.json >/dev/null ||
	    fail "without --last-applied every resource is new"
}

@test "plan: one changed character in the SQL changes the ConfigMap name and the plan digest" {
	"$BIN/fluid" plan --mode amend --out a.json "$LANDED"
	sed -i 's/groupId: forge-commerce-orders-landed-v1/groupId: forge-commerce-orders-landed-v2/' "$LANDED"
	"$BIN/fluid" plan --mode amend --out b.json "$LANDED"
	local a b
	a=$(jq -r .resources[0].resource.metadata.name a.json)
	b=$(jq -r .resources[0].resource.metadata.name b.json)
	[ "$a" != "$b" ] || fail "the ConfigMap kept its name $a"
	# One character: the two scripts differ by exactly that.
	jq -r '.resources[0].resource.data["land-orders.sql"]' a.json >a.sql
	jq -r '.resources[0].resource.data["land-orders.sql"]' b.json >b.sql
	cmp -l a.sql b.sql | wc -l | grep -qx 1 || fail "the scripts differ by more than one byte"
	[ "$(jq -r .digest a.json)" != "$(jq -r .digest b.json)" ] || fail "the plan digest is the same"
	# And another mode is another plan.
	"$BIN/fluid" plan --mode amend-and-build --out c.json "$LANDED"
	[ "$(jq -r .digest b.json)" != "$(jq -r .digest c.json)" ] || fail "the mode is not in the digest"
}

@test "plan: --last-applied says which resources are new, changed or unchanged" {
	"$BIN/fluid" plan --mode amend --out a.json "$LANDED"
	# What apply records: the resources, as a list or a kubectl List.
	jq '[.resources[].resource]' a.json >applied.json
	jq '{apiVersion: "v1", kind: "List", items: [.resources[].resource]}' a.json >applied-list.json
	run -0 "$BIN/fluid" plan --mode amend --last-applied applied.json "$LANDED"
	assert_jq '[.resources[].action] == ["unchanged", "unchanged"]'
	run -0 "$BIN/fluid" plan --mode amend --last-applied applied-list.json "$LANDED"
	assert_jq '[.resources[].action] == ["unchanged", "unchanged"]'
	# A plan of another mode changes only the plan digest annotation: unchanged.
	run -0 "$BIN/fluid" plan --mode dry-run --last-applied applied.json "$LANDED"
	assert_jq '[.resources[].action] == ["unchanged", "unchanged"]'
	# The record's resources.json holds the ConfigMap by the digest of
	# its data (sha256 of its canonical JSON, lib/digest.c): unchanged.
	dd=$(jq -cS '.[0].data' applied.json | tr -d '\n' | sha256sum | cut -d' ' -f1)
	jq --arg d "sha256:$dd" '.[0] |= (del(.data) | .dataDigest = $d)' applied.json >record.json
	run -0 "$BIN/fluid" plan --mode amend --last-applied record.json "$LANDED"
	assert_jq '[.resources[].action] == ["unchanged", "unchanged"]'
	jq '.[0].dataDigest = "sha256:0000000000000000000000000000000000000000000000000000000000000000"' record.json >stale.json
	run -0 "$BIN/fluid" plan --mode amend --last-applied stale.json "$LANDED"
	assert_jq '[.resources[].action] == ["changed", "unchanged"]'
	# A changed script: a new ConfigMap, a changed FlinkDeployment.
	sed -i 's/groupId: forge-commerce-orders-landed-v1/groupId: forge-commerce-orders-landed-v2/' "$LANDED"
	run -0 "$BIN/fluid" plan --mode amend --last-applied applied.json "$LANDED"
	assert_jq '[.resources[] | [.resource.kind, .action]] ==
	    [["ConfigMap", "new"], ["FlinkDeployment", "changed"]]'
	# A resource of another namespace is another resource.
	jq '.[1].metadata.namespace = "elsewhere"' applied.json >other.json
	run -0 "$BIN/fluid" plan --mode amend --last-applied other.json "$LANDED"
	assert_jq '.resources[1].action == "new"'
}

@test "plan: every mode the spec allows is accepted and recorded" {
	local m
	for m in amend amend-and-build create-only dry-run; do
		run -0 "$BIN/fluid" plan --mode "$m" "$LANDED"
		assert_jq ".mode == \"$m\""
	done
}

@test "plan: replace and reset are refused (1), naming why" {
	local m
	for m in replace reset; do
		refuses 1 plan --mode "$m" --out p.json "$LANDED" \
		    "^fluid: --mode $m is refused: replace and reset would start the job without its state"
		[ ! -e p.json ] || fail "a plan was written for $m"
	done
}

@test "plan: usage and environment errors (2)" {
	usage_error plan "$LANDED" "^fluid: plan needs --mode"
	usage_error plan --mode delete "$LANDED" "^fluid: --mode delete is not a mode"
	usage_error generate flink --mode amend --out out "$LANDED" "^fluid: --mode is for plan"
	usage_error plan --mode amend --last-applied missing.json "$LANDED" "^fluid: cannot read 'missing.json'"
	echo '{"kind": "List"}' >notlist.json
	usage_error plan --mode amend --last-applied notlist.json "$LANDED" \
	    "^fluid: 'notlist.json' is not a list of resources"
	echo '[{"kind": "ConfigMap"}]' >noname.json
	usage_error plan --mode amend --last-applied noname.json "$LANDED" \
	    "^fluid: 'noname.json': resource 0 has no kind or no metadata.name"
	mkdir dir
	usage_error plan --mode amend --out dir "$LANDED" "^fluid: 'dir' is not a regular file: not replaced"
}

@test "plan: a contract with no managed build is refused (1) and nothing is written" {
	sed '/management: operator/d' "$LANDED" >shapes/landed/none.fluid.yaml
	tool plan --mode amend --out p.json shapes/landed/none.fluid.yaml
	assert_status 1
	assert_no_stdout
	[[ ${stderr_lines[-1]} == *"error: no managed build to plan: "* ]] || fail "not the refusal" "$(show)"
	[ ! -e p.json ] || fail "a plan was written"
}

@test "plan: a contract fluid-k8s refuses writes no plan" {
	sed -i 's/^            name: commerce-orders-landed$/            name: 9-orders-landed/' "$LANDED"
	tool plan --mode amend --out p.json "$LANDED"
	assert_status 1
	assert_stderr_line "^shapes/landed/orders-landed\.fluid\.yaml:[0-9]+:[0-9]+: error: Flink build land-orders: deployment name '9-orders-landed' must be a DNS-1035 label"
	[ ! -e p.json ] || fail "a plan was written"
}

# cols N: a contract of N columns (the benchmark's, tests/bench/gen.py).
cols() {
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import gen
open(sys.argv[3], "w").write(gen.cols_contract(int(sys.argv[2])))' \
	    "$TOP/tests/bench" "$1" "c$1.fluid.yaml"
}

@test "plan: the API server's limits: at 6,000 columns the script's ConfigMap fits, and so does the record, which holds the script by digest" {
	# The record once repeated the script's data and was refused here
	# (over 1 MiB) although the ConfigMap fit: it now names it by digest.
	cols 6000
	tool plan --mode amend --out p.json c6000.fluid.yaml
	assert_status 0
	[ -s p.json ] || fail "no plan written" ""
	run --separate-stderr bash -c '"$1/fluid-resolve" c6000.fluid.yaml | "$1/fluid-check" |
	    "$1/fluid-sqlgen" | "$1/fluid-k8s" render | "$1/fluid-k8s" plan --mode amend' x "$BIN"
	assert_status 0
	cmp -s <(printf '%s\n' "$output") p.json || fail "fluid-k8s plan differs from fluid plan" ""
}

@test "plan: a script ConfigMap over the API server's limits is refused with its size and the limit" {
	cols 10000
	tool plan --mode amend c10000.fluid.yaml
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" "ConfigMap bench-cols-10000-sql-[0-9a-f]{12}: its data is [0-9]+ bytes, over the API server's limit of 1048576 for a ConfigMap"
	assert_match "$stderr" "ConfigMap bench-cols-10000-sql-[0-9a-f]{12} is [0-9]+ bytes, over the API server's limit of 1572864 for an object"
	# 5,000 columns fit, the record included.
	cols 5000
	tool plan --mode amend --out p.json c5000.fluid.yaml
	assert_status 0
}

@test "plan: the plan carries the bundle apply renders again: the resolved contract, its kind and schema version" {
	tool plan --mode amend --out p.json "$LANDED"
	assert_status 0
	"$BIN/fluid-resolve" "$LANDED" >res.json
	assert_equal "$(jq -cS .bundle.document p.json)" "$(jq -cS .resolve.document res.json)" "the bundle's document"
	assert_equal "$(jq -r '.bundle.kind + " " + .bundle.schemaVersion' p.json)" "contract $(jq -r .resolve.schemaVersion res.json)" "kind and version"
	assert_equal "$(jq -r .bundleDigest p.json)" "$(jq -r .resolve.digest res.json)" "bundleDigest"
}
