#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-cfk.bats - the CFK target (management: cfk): fluid-check's
# deployment fields and refusals, fluid-sqlgen's statements in CMF's
# dialect, fluid-k8s render's FlinkComputePool and FlinkStatements, and
# those resources against CFK 3.3.0's JSON Schemas (tests/cfk/).  Each
# example is made a CFK build by tests/cfk/variant.

load helpers
load fake-kubectl

setup() { TOOL=fluid; fluid_setup; }
teardown() { fluid_teardown; }

# validate_refuses FILE ERE: fluid validate FILE exits 1, prints its one
# "FILE: refused (1 error)" line, and its one diagnostic matches ERE.
validate_refuses() {
	TOOL=fluid tool validate "$1"
	assert_status 1
	assert_equal "$output" "$1: refused (1 error)" "standard output"
	assert_stderr_line "$2"
}

# cfk_example: examples/cfk/orders-cfk.fluid.yaml, a CFK build as it is,
# in ./tree, its path relative to ./tree printed.
cfk_example() {
	mkdir -p tree
	cp -R "$EXAMPLES/cfk" tree/
	echo cfk/orders-cfk.fluid.yaml
}

# variant SHAPE: the CFK variant of examples/shapes/SHAPE/*.fluid.yaml
# in ./tree, its path relative to ./tree printed.
variant() {
	local f
	f=$(ls "$EXAMPLES"/shapes/"$1"/*.fluid.yaml)
	"$TOP/tests/cfk/variant" "$f" tree
	echo "$1/${f##*/}"
}

# pipe FILE [STAGES]: resolve, check and sqlgen FILE (relative to tree),
# and fluid-k8s render --resources unless STAGES is sqlgen.
pipe() {
	(cd tree && "$BIN/fluid-resolve" "$1" | "$BIN/fluid-check" |
	    "$BIN/fluid-sqlgen" | if [ "${2:-}" = sqlgen ]; then cat; else
	    "$BIN/fluid-k8s" render --resources; fi)
}

# edit FILE SED: edit tree/FILE in place.
edit() {
	sed -i "$2" "tree/$1"
}

@test "cfk: every example validates as a CFK build" {
	local s f
	for s in landed inlined flattened reshaped; do
		rm -rf tree
		f=$(variant "$s")
		run --separate-stderr "$BIN/fluid" validate "tree/$f"
		assert_status 0
		[[ $output =~ ok ]] || fail "$s: no ok" "$(show)"
	done
}

@test "cfk: every example renders for both targets, the CFK resources valid against CFK 3.3.0's schemas" {
	"$TOP/tests/cfk/python" >/dev/null ||
	    skip "no python3 with jsonschema: run make check-k8s-schema once (its venv has it)"
	run --separate-stderr env FLUID_BIN="$BIN" "$TOP/tests/cfk/run"
	assert_status 0
	# Five examples' variants and examples/cfk as it is: a pool and three
	# statements each.
	assert_match "$output" "^24 CFK resource\(s\) checked, 0 problem\(s\)$"
	local f
	for f in "$EXAMPLES"/shapes/*/*.fluid.yaml; do
		run --separate-stderr bash -c "cd '$EXAMPLES/shapes' &&
		    '$BIN/fluid-resolve' '${f#$EXAMPLES/shapes/}' | '$BIN/fluid-check' |
		    '$BIN/fluid-sqlgen' | '$BIN/fluid-k8s' render --resources"
		assert_status 0
		assert_jq '[.items[].kind] == ["ConfigMap", "FlinkDeployment"]'
	done
}

@test "cfk: the schema check refuses an undeclared field and a bad enum" {
	local f py
	py=$("$TOP/tests/cfk/python") ||
	    skip "no python3 with jsonschema: run make check-k8s-schema once (its venv has it)"
	f=$(variant landed)
	pipe "$f" >good.json
	jq '.items[1].spec.catalog = "c" | .items[0].spec.type = "BIG"' \
	    good.json >bad.json
	run "$py" "$TOP/tests/cfk/validate.py" "$TOP/tests/cfk/schemas" bad.json
	assert_status 1
	[[ $output =~ "'catalog' was unexpected" ]] || fail "no catalog" "$(show)"
	[[ $output =~ "'BIG' is not one of" ]] || fail "no enum" "$(show)"
	run "$py" "$TOP/tests/cfk/validate.py" "$TOP/tests/cfk/schemas" good.json
	assert_status 0
}

@test "cfk: golden: each example's statements, source, sink and insert" {
	local s f
	for s in landed flattened reshaped customers-cdc orders-cfk; do
		rm -rf tree
		case $s in
		customers-cdc) f=$(cdc) ;;
		orders-cfk) f=$(cfk_example) ;;
		*) f=$(variant "$s") ;;
		esac
		run --separate-stderr pipe "$f" sqlgen
		assert_status 0
		assert_jq '[.sqlgen.builds[0].statements[].role] == ["source", "sink", "insert"]'
		assert_jq '.sqlgen.builds[0].target == "cfk"'
		jqo '.sqlgen.builds[0].sql' | diff -u "$TOP/tests/golden/cfk/$s.sql" - ||
		    fail "$s: the script differs from tests/golden/cfk/$s.sql"
	done
}

@test "cfk: the CFK example validates and renders as it is: its own pool, then a statement per statement" {
	local f
	f=$(cfk_example)
	run --separate-stderr "$BIN/fluid" validate "tree/$f"
	assert_status 0
	assert_equal "$output" "tree/$f: ok"
	run --separate-stderr pipe "$f"
	assert_status 0
	assert_jq '[.items[] | .kind] == ["FlinkComputePool", "FlinkStatement", "FlinkStatement", "FlinkStatement"]'
	assert_jq '.items[0].metadata.name == "orders-pool" and .items[0].spec.type == "DEDICATED"'
	assert_jq '[.items[1:][] | .metadata.name | test("^orders-cfk-(src|snk|ins)-[0-9a-f]{12}$")] == [true, true, true]'
	assert_jq '[.items[1:][] | .spec.flinkEnvironment] == ["flink-env1", "flink-env1", "flink-env1"]'
	# Its README names what it expects to exist.
	grep -q FlinkEnvironment "$EXAMPLES/cfk/README.md" || fail "README names no FlinkEnvironment"
	grep -q CMFRestClass "$EXAMPLES/cfk/README.md" || fail "README names no CMFRestClass"
}

# The live lane's cfk check found it: the sink table declares the event
# time's own type, so its rowtime attribute reached the sink and Flink
# 1.20 failed the job on a record without an event time.
@test "cfk: the INSERT selects each timestamp output through a CAST, which ends the rowtime attribute" {
	local f ins
	f=$(variant landed)
	run --separate-stderr pipe "$f" sqlgen
	assert_status 0
	ins=$(jqo '.sqlgen.builds[0].statements[2].sql')
	[[ $ins == *'CAST(`fluid_query`.`event_time` AS TIMESTAMP_LTZ(3)), '* ]] ||
	    fail "the event time is not cast" "$ins"
	# Required, but no NOT NULL in the cast: a cast keeps nullability.
	[[ $ins == *'CAST(`fluid_query`.`kafka_timestamp` AS TIMESTAMP_LTZ(3))'$'\n'* ]] ||
	    fail "kafka_timestamp is not cast" "$ins"
	[[ $ins == *'SELECT `fluid_query`.`order_key`, `fluid_query`.`event_id`, '* ]] ||
	    fail "a column that is not a timestamp is cast" "$ins"
	[ "$(grep -o 'CAST(`fluid_query`' <<<"$ins" | wc -l)" -eq 2 ] ||
	    fail "not two casts" "$ins"
}

@test "cfk: no statement set, catalog, database, temporary table, view or SET" {
	local f
	f=$(variant flattened)
	run --separate-stderr pipe "$f" sqlgen
	assert_status 0
	jqo '.sqlgen.builds[0].sql' >all.sql
	! grep -Eiq 'CREATE (CATALOG|DATABASE|TEMPORARY|VIEW)|^SET |STATEMENT SET|EXECUTE|CREATE TABLE [^(]* AS ' all.sql ||
	    fail "a statement CMF cannot run" "$(cat all.sql)"
	# Each statement is one statement: one ';', at its end.
	jqo '.sqlgen.builds[0].statements[].sql' >/dev/null
	run jq -r '.sqlgen.builds[0].statements[] | .sql | [scan(";")] | length' <<<"$output"
	assert_equal "$(echo $output)" "1 1 1"
}

@test "cfk: one FlinkStatement per statement, named <name>-<role>-<12 hex of its digest>, within 45" {
	local f i n sql name hex
	f=$(variant landed)
	run --separate-stderr pipe "$f"
	assert_status 0
	assert_jq '[.items[].kind] == ["FlinkComputePool", "FlinkStatement", "FlinkStatement", "FlinkStatement"]'
	for i in 1 2 3; do
		name=$(jqo ".items[$i].metadata.name")
		jqo ".items[$i].spec.statement" | head -c -1 >stmt.sql
		# jq -r adds a newline; the statement ends in one already.
		hex=$(sha256sum stmt.sql | cut -c1-12)
		assert_match "$name" "^commerce-orders-landed-(src|snk|ins)-$hex\$" "statement $i name"
		[ "${#name}" -le 45 ] || fail "$name is longer than 45"
		assert_equal "$(jqo ".items[$i].metadata.annotations[\"fluid.dev/sql-digest\"]")" \
		    "sha256:$(sha256sum stmt.sql | cut -d' ' -f1)"
	done
	# The INSERT carries the job's parallelism (default 1) and its key
	# groups pinned at 128, as on the operator target.
	assert_jq '.items[3].spec.flinkConfiguration == {"execution.checkpointing.interval": "60s", "pipeline.max-parallelism": "128"}'
	assert_jq '.items[3].spec.parallelism == 1'
	assert_jq '[.items[1,2].spec | has("flinkConfiguration") or has("parallelism")] == [false, false]'
	assert_jq '[.items[1:][].spec.computePoolName] | unique == ["fluid-dedicated"]'
	assert_jq '[.items[].spec | has("stopped")] | any | not'
	assert_jq '.items[0].spec.clusterSpec.jobManager.resource == {"memory": "1024m", "cpu": 0.5}'
}

@test "cfk: a changed statement is a FlinkStatement of another name; the unchanged keep theirs" {
	local f a b
	f=$(variant landed)
	run --separate-stderr pipe "$f"
	assert_status 0
	a=$(jqo '[.items[1:][].metadata.name] | join(" ")')
	edit "$f" 's/groupId: forge-commerce-orders-landed-v1/groupId: forge-commerce-orders-landed-v2/'
	run --separate-stderr pipe "$f"
	assert_status 0
	b=$(jqo '[.items[1:][].metadata.name] | join(" ")')
	set -- $a $b
	[ "$1" != "$4" ] || fail "the source kept its name $1"
	[ "$2" = "$5" ] || fail "the sink changed its name: $2 $5"
	[ "$3" != "$6" ] || fail "the insert kept its name $3"
}

@test "cfk: suspended stops the INSERT (spec.stopped: true), not the DDL" {
	local f
	f=$(variant landed)
	edit "$f" 's/^\(            context: development\)$/\1\n            state: suspended/'
	run --separate-stderr pipe "$f"
	assert_status 0
	assert_jq '.items[3].spec.stopped == true'
	assert_jq '[.items[1,2].spec | has("stopped")] == [false, false]'
}

@test "cfk: an existing compute pool (its name alone) is named, not rendered" {
	local f
	f=$(variant landed)
	edit "$f" '/^              type: DEDICATED$/d; /^              flinkVersion: v1_19$/d; /^              image: confluentinc/d; /^              jobManager:/d; /^              taskManager:/d'
	run --separate-stderr pipe "$f"
	assert_status 0
	assert_jq '[.items[].kind] | unique == ["FlinkStatement"]'
	assert_jq '[.items[].spec.computePoolName] | unique == ["fluid-dedicated"]'
}

@test "cfk: refuses the operator target's fields, with the reason" {
	local f
	f=$(variant landed)
	edit "$f" 's/^\(            context: development\)$/\1\n            serviceAccount: flink/'
	validate_refuses "tree/$f" \
	    "^tree/landed/orders-landed\.fluid\.yaml:[0-9]+:[0-9]+: error: .*properties\.parameters\.flink\.deployment\.serviceAccount: is a field of management: operator .*not of management: cfk: CMF runs the statement under its environment's service account"
}

@test "cfk: the operator target refuses CFK's fields, with the contract path" {
	mkdir -p tree
	cp -R "$EXAMPLES/shapes/." tree/
	edit landed/orders-landed.fluid.yaml 's/^\(            context: development\)$/\1\n            computePool: {name: p}/'
	validate_refuses tree/landed/orders-landed.fluid.yaml \
	    "^tree/landed/orders-landed\.fluid\.yaml:[0-9]+:[0-9]+: error: .*properties\.parameters\.flink\.deployment\.computePool: is a field of management: cfk \(Confluent for Kubernetes\), not of management: operator"
}

@test "cfk: refuses catalogAuth: nothing gives CMF the variable" {
	local f
	f=$(variant landed)
	edit "$f" 's/^\(      catalogProperties:.*\)$/\1\n      catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}/'
	validate_refuses "tree/$f" \
	    "^tree/landed/orders-landed\.fluid\.yaml:[0-9]+:[0-9]+: error: .*exposes\[0\]\.binding\.catalogAuth: is not supported with management: cfk: the catalog credential is read from the environment"
}

# cdc: the CFK variant of examples/changes/customers-cdc.fluid.yaml in
# ./tree, its path relative to ./tree printed.
cdc() {
	"$TOP/tests/cfk/variant" "$EXAMPLES/changes/customers-cdc.fluid.yaml" tree
	echo changes/customers-cdc.fluid.yaml
}

@test "cfk: a change stream landed as upsert renders: its change format, the sink's key and write.upsert.enabled" {
	local f src snk
	f=$(cdc)
	grep -q 'management: cfk' "tree/$f"
	run --separate-stderr "$BIN/fluid" validate "tree/$f"
	assert_status 0
	run --separate-stderr pipe "$f" sqlgen
	assert_status 0
	assert_jq '[.sqlgen.builds[0].statements[].role] == ["source", "sink", "insert"]'
	src=$(jqo '.sqlgen.builds[0].statements[0].sql')
	snk=$(jqo '.sqlgen.builds[0].statements[1].sql')
	# The Kafka table reads the envelope into the row's changes.
	grep -qxF "  'value.format' = 'debezium-json'," <<<"$src" || fail "no debezium-json" "$src"
	grep -qxF "  'value.debezium-json.schema-include' = 'false'" <<<"$src" || fail "no schema-include" "$src"
	! grep -q "before\|TEMPORARY" <<<"$src" || fail "an envelope or a view" "$src"
	# The sink keys each row and upserts.
	grep -qxF '  PRIMARY KEY (`customer_id`) NOT ENFORCED' <<<"$snk" || fail "no key" "$snk"
	grep -qxF "  'write.upsert.enabled' = 'true'" <<<"$snk" || fail "no upsert" "$snk"
	grep -qxF "  'format-version' = '2'," <<<"$snk" || fail "not v2" "$snk"
	run --separate-stderr pipe "$f"
	assert_status 0
	assert_jq '[.items[].kind] == ["FlinkComputePool", "FlinkStatement", "FlinkStatement", "FlinkStatement"]'
}

@test "cfk: a canal-json change stream renders with canal-json's options" {
	local f src
	f=$(cdc)
	edit "$f" 's/^        format: debezium-json$/        format: canal-json/'
	run --separate-stderr pipe "$f" sqlgen
	assert_status 0
	src=$(jqo '.sqlgen.builds[0].statements[0].sql')
	grep -qxF "  'value.format' = 'canal-json'," <<<"$src" || fail "no canal-json" "$src"
	grep -qxF "  'value.canal-json.ignore-parse-errors' = 'false'" <<<"$src" || fail "no option" "$src"
	! grep -q "debezium" <<<"$src" || fail "a debezium option" "$src"
}

@test "cfk: refuses append-with-op: its rows are a temporary view's, and CMF runs each statement without a session" {
	local f
	f=$(cdc)
	edit "$f" '/^      primaryKey: \[customer_id\]$/d'
	edit "$f" 's/^        mode: upsert$/        mode: append-with-op\n        operationColumn: op_type/'
	edit "$f" 's/^\(        - {name: updated_at, type: timestamp_ltz(3)}\)$/\1\n        - {name: op_type, type: string, required: true}/'
	grep -q 'mode: append-with-op' "tree/$f"
	validate_refuses "tree/$f" \
	    "^tree/changes/customers-cdc\.fluid\.yaml:[0-9]+:[0-9]+: error: .*properties\.landing\.mode: append-with-op is not supported with management: cfk: its rows are taken out of the change envelopes by a temporary view in the job's SQL session, and CMF runs each statement on its own"
	# The line and column are the mode's.
	local at
	at=$(grep -n '^        mode: append-with-op$' "tree/$f" | cut -d: -f1)
	[[ $stderr =~ customers-cdc\.fluid\.yaml:$at:15: ]] || fail "not at line $at column 15" "$(show)"
}

@test "cfk: fluid-sqlgen refuses an append-with-op build given as a CFK one" {
	local f
	f=$(cdc)
	# A checked document of the upsert build, made append-with-op after
	# fluid-check: fluid-sqlgen does not trust it.
	(cd tree && "$BIN/fluid-resolve" "$f" | "$BIN/fluid-check") >doc.json
	jq '.check.builds[0].stream.changes.landing = "append-with-op" |
	    .check.builds[0].stream.changes.operationColumn = "op_type"' \
	    doc.json >bad.json
	run --separate-stderr "$BIN/fluid-sqlgen" <bad.json
	assert_status 1
	assert_stderr_line "error: Flink build land-customers: an append-with-op change stream cannot be run by CMF \(management: cfk\): fluid-check refuses it"
	[ -z "$output" ] || fail "output on a refusal" "$(show)"
	run --separate-stderr "$BIN/fluid-sqlgen" <doc.json
	assert_status 0
}

@test "cfk: refuses a deployment name that would make statement names over 45" {
	local f
	f=$(variant landed)
	edit "$f" 's/name: commerce-orders-landed$/name: commerce-orders-landed-abcdefg/'
	validate_refuses "tree/$f" \
	    "error: .*deployment\.name: must be at most 28 of a-z, 0-9 and '-', starting with a letter: it prefixes the FlinkStatement names"
}

@test "cfk: refuses a rendered pool without an image digest or resources" {
	local f
	f=$(variant landed)
	edit "$f" 's/image: confluentinc\/cp-flink-sql@sha256:0*$/image: confluentinc\/cp-flink-sql:1.19-cp8/; /taskManager:/d; s/jobManager: {memory: 1024m, cpu: 0.5}/jobManager: {memory: 1024m, cpu: 0}/; s/flinkVersion: v1_19/flinkVersion: "1.19"/'
	TOOL=fluid tool validate "tree/$f"
	assert_status 1
	[[ $stderr =~ computePool\.image:\ must\ be\ pinned\ by\ digest ]] || fail "image" "$(show)"
	[[ $stderr =~ computePool\.taskManager:\ is\ required ]] || fail "taskManager" "$(show)"
	[[ $stderr =~ computePool\.jobManager\.cpu:\ must\ be\ a\ number\ of\ CPUs\ above\ 0 ]] || fail "cpu" "$(show)"
	[[ $stderr =~ computePool\.flinkVersion:\ must\ be\ v\<major\>_\<minor\> ]] || fail "flinkVersion" "$(show)"
}

@test "cfk: fluid-k8s render refuses statements that are not the digested script" {
	local f
	f=$(variant landed)
	pipe "$f" sqlgen >doc.json
	jq '.sqlgen.builds[0].statements[2].sql += "DROP TABLE x;\n"' doc.json >bad.json
	# A document whose sections disagree is fatal, as for the operator
	# target's digest (exit 2).
	TOOL=fluid-k8s refuses 2 render <bad.json \
	    "^fluid-k8s: build 'land-orders': the sqlgen section's statements are not its script"
}

@test "cfk: fluid-k8s plan plans a CFK build: its CFK resources, no FlinkDeployment" {
	local f
	f=$(variant landed)
	pipe "$f" sqlgen >doc.json
	(cd tree && "$BIN/fluid-k8s" render <../doc.json >../k8s.json)
	TOOL=fluid-k8s tool plan --mode dry-run <k8s.json
	assert_status 0
	assert_jq '.builds[0].target == "cfk" and (.builds[0].statements | length) == 3'
	assert_jq '[.resources[].resource.kind] == ["FlinkComputePool", "FlinkStatement", "FlinkStatement", "FlinkStatement"]'
}

@test "cfk: two builds may share a pool, but only one renders it" {
	local f
	f=$(variant landed)
	python3 - "tree/$f" <<'PY'
import copy, sys, yaml
p = sys.argv[1]
c = yaml.safe_load(open(p))
x = copy.deepcopy(c["exposes"][0]); x["exposeId"] = "orders2"
x["binding"]["location"]["table"] = "orders_landed_2"
b = copy.deepcopy(c["builds"][0]); b["id"] = "land-orders-2"; b["outputs"] = ["orders2"]
fl = b["properties"]["parameters"]["flink"]
fl["source"]["groupId"] = "g2"; fl["deployment"]["name"] = "orders-two"
c["exposes"].append(x); c["builds"].append(b)
yaml.safe_dump(c, open(p, "w"), sort_keys=False)
PY
	TOOL=fluid tool validate "tree/$f"
	assert_status 1
	[[ $stderr =~ "deployment.computePool.name: compute pool data-products/fluid-dedicated is also rendered by builds[0]: one build describes a pool, the others name it alone" ]] ||
	    fail "no pool refusal" "$(show)"
	python3 - "tree/$f" <<'PY'
import sys, yaml
p = sys.argv[1]
c = yaml.safe_load(open(p))
c["builds"][1]["properties"]["parameters"]["flink"]["deployment"]["computePool"] = {"name": "fluid-dedicated"}
yaml.safe_dump(c, open(p, "w"), sort_keys=False)
PY
	run --separate-stderr pipe "$f"
	assert_status 0
	assert_jq '[.items[].kind] == ["FlinkComputePool", "FlinkStatement", "FlinkStatement", "FlinkStatement", "FlinkStatement", "FlinkStatement", "FlinkStatement"]'
	assert_jq '[.items[1:][].metadata.name | length <= 45] | all'
}

@test "cfk: fluid apply refuses an operator plan whose bundle was swapped for a CFK build (digest recomputed), and calls no kubectl" {
	local f
	f=$(variant landed)
	cp -R "$EXAMPLES/shapes" shapes
	"$BIN/fluid" plan --mode dry-run --out p.json \
	    shapes/landed/orders-landed.fluid.yaml >/dev/null
	(cd tree && "$BIN/fluid-resolve" "$f") >r.json
	fake_kubectl fail
	# The operator plan with the CFK variant's document as its bundle,
	# its digest made to match again (as fluid-apply.bats does).
	python3 - p.json r.json edited.json <<-'EOF2'
	import hashlib, json, sys
	p = json.load(open(sys.argv[1]))
	r = json.load(open(sys.argv[2]))["resolve"]
	p["bundle"]["document"] = r["document"]
	c = json.loads(json.dumps(p))
	del c["digest"]
	for e in c["resources"]:
	    e["resource"]["metadata"].get("annotations", {}).pop("fluid.dev/plan-digest", None)
	d = "sha256:" + hashlib.sha256(json.dumps(c, sort_keys=True, separators=(",", ":"),
	    ensure_ascii=False).encode()).hexdigest()
	p["digest"] = d
	p["resources"][1]["resource"]["metadata"]["annotations"]["fluid.dev/plan-digest"] = d
	json.dump(p, open(sys.argv[3], "w"), indent=2)
	EOF2
	TOOL=fluid tool apply --mode dry-run edited.json
	[ "$status" -ne 0 ] || fail "apply accepted it" "$(show)"
	[[ $stderr =~ "is not what fluid renders from the plan's bundle: the plan was edited after fluid plan wrote it" ]] ||
	    fail "no re-render refusal" "$(show)"
	kubectl_not_called
}

@test "cfk: fluid apply --target refuses a CFK build before any HTTP request" {
	local f
	f=$(variant landed)
	command -v python3 >/dev/null || skip "python3 is not installed"
	start_fake fake_gateway.py || { kill "$FAKE_PID"; return 1; }
	printf 'targets:\n  local:\n    backend: flink\n    flink: {gateway: "http://127.0.0.1:%s"}\n' \
	    "$PORT" >tree/fluid.targets.yaml
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka
	(cd tree && run --separate-stderr "$BIN/fluid" apply --target local "$f"
	 echo "$status" >../st; printf '%s' "$stderr" >../err)
	kill "$FAKE_PID"
	[ "$(cat st)" = 1 ] || fail "exit $(cat st), not 1" "$(cat err)"
	grep -q "build 'land-orders' targets CFK (management: cfk): its statements are CMF's, each run by a FlinkStatement, not by a SQL Gateway" err ||
	    fail "no CFK refusal" "$(cat err)"
	[ ! -s "$TMP/requests.log" ] || fail "the gateway was contacted" "$(cat "$TMP/requests.log")"
}
