#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-schema.bats - fluid schema: a JSON Schema (draft 2020-12) whose
# closed mappings have exactly the keys of the checker's own tables
# (tests/tools/schema-check tables), that every example accepts as
# written, fragments included, and bundled, and that refuses a misspelt
# key, as fluid validate does.

load helpers

setup() { TOOL=fluid; fluid_setup; }
teardown() { fluid_teardown; }

CHECK="$BATS_TEST_DIRNAME/../tools/schema-check"

schema() {
	"$BIN/fluid" schema >"$TMP/fluid.schema.json" ||
	    fail "fluid schema failed"
}

@test "schema: fluid schema prints a draft 2020-12 schema of fluidVersion 0.7.7 that says it is structural only" {
	tool schema
	assert_status 0
	assert_no_stderr
	assert_jq '."$schema" == "https://json-schema.org/draft/2020-12/schema"'
	assert_jq '.properties.fluidVersion.const == "0.7.7"'
	assert_jq '."$defs" | has("streamSource") and has("schema") and has("recordMapping")'
	assert_jq '.description | test("Structural only: fluid validate is the judge")'
	schema
	run python3 -c 'import json, sys
from jsonschema import Draft202012Validator
Draft202012Validator.check_schema(json.load(open(sys.argv[1])))' "$TMP/fluid.schema.json"
	assert_status 0
}

@test "schema: its closed mappings have the checker's allowed keys, no more and no fewer" {
	schema
	run "$CHECK" tables "$TMP/fluid.schema.json" "$TOP/lib"
	assert_status 0
	assert_equal "$output" "" "differences"
}

@test "schema: a key only in the checker, only in the schema, or a table in no mapping fails the comparison" {
	schema
	cp -R "$TOP/lib" "$TMP/lib"
	sed -i 's/"checkpointUri", "savepointUri"/"checkpointUri", "extraKey", "savepointUri"/' \
	    "$TMP/lib/check.c"
	run "$CHECK" tables "$TMP/fluid.schema.json" "$TMP/lib"
	assert_status 1
	assert_equal "$output" "#/\$defs/deployment: extraKey is in the checker, not in the schema"
	cp "$TOP/lib/check.c" "$TMP/lib/check.c"
	jq '."$defs".expose.properties.owner = {"type": "string"}' \
	    "$TMP/fluid.schema.json" >"$TMP/more.json"
	run "$CHECK" tables "$TMP/more.json" "$TMP/lib"
	assert_status 1
	assert_equal "$output" "#/\$defs/expose: owner is in the schema, not in the checker"
	jq '."$defs".resources."$comment" = "checker: ref_keys"' \
	    "$TMP/fluid.schema.json" >"$TMP/less.json"
	run "$CHECK" tables "$TMP/less.json" "$TMP/lib"
	assert_status 1
	[[ $output == *"res_keys (memory cpu) is in no closed mapping of the schema"* ]] ||
	    fail "the orphan table is not named" "$output"
}

@test "schema: every example validates as written, its fragments against their \$defs, and bundled" {
	local f n=0
	schema
	cd "$EXAMPLES"
	run "$CHECK" validate "$TMP/fluid.schema.json" - shapes/*/*.fluid.yaml changes/*.fluid.yaml
	assert_status 0
	[ "$(grep -c ': ok$' <<<"$output")" -ge 5 ] || fail "too few examples" "$output"
	run "$CHECK" validate "$TMP/fluid.schema.json" streamSource shapes/fragments/streams/orders.yaml
	assert_status 0
	run "$CHECK" validate "$TMP/fluid.schema.json" schema shapes/fragments/streams/orders.value.yaml
	assert_status 0
	for f in shapes/*/*.fluid.yaml changes/*.fluid.yaml; do
		"$BIN/fluid" bundle "$f" >"$TMP/bundle.yaml" || fail "bundle $f"
		run "$CHECK" validate "$TMP/fluid.schema.json" - "$TMP/bundle.yaml"
		assert_status 0
		n=$((n + 1))
	done
	[ "$n" -ge 5 ] || fail "only $n examples bundled"
}

@test "schema: a misspelt key fails it, where fluid validate refuses it too" {
	schema
	cp -R "$EXAMPLES" "$TMP/ex"
	cd "$TMP/ex/shapes"
	sed 's/serviceAccount:/serviceAcount:/' landed/orders-landed.fluid.yaml \
	    >landed/misspelt.fluid.yaml
	run "$CHECK" validate "$TMP/fluid.schema.json" - landed/misspelt.fluid.yaml
	local schema_out=$output schema_status=$status
	run "$BIN/fluid" validate landed/misspelt.fluid.yaml
	[ "$schema_status" -eq 1 ] || fail "the schema accepted serviceAcount" "$schema_out"
	[[ $schema_out == *"/builds/0/properties/parameters/flink/deployment: Additional properties are not allowed ('serviceAcount' was unexpected)"* ]] ||
	    fail "the schema does not name the key" "$schema_out"
	[ "$status" -eq 1 ] || fail "fluid validate accepted it" "$output"
	# A key misspelt in a fragment, against its \$defs.
	sed 's/kafka_offset, from/kafka_offset, frm/' fragments/streams/orders.yaml |
	    "$CHECK" validate "$TMP/fluid.schema.json" streamSource - && fail "frm accepted"
	# And a $ref where no fragment may stand is no way around it.
	printf '%s\n' 'fluidVersion: "0.7.7"' 'kind: DataProduct' 'id: x' \
	    'exposes: [{exposeId: a, kind: table, contract: {schema: {$ref: s.yaml}, primaryKey: {$ref: k.yaml}}}]' \
	    >"$TMP/ref.yaml"
	run "$CHECK" validate "$TMP/fluid.schema.json" - "$TMP/ref.yaml"
	assert_status 1
	[[ $output == *"/exposes/0/contract/primaryKey:"* ]] || fail "primaryKey's \$ref accepted" "$output"
	[[ $output != *"/contract/schema"* ]] || fail "schema's \$ref refused" "$output"
}

@test "schema: fluid schema takes no operand or option" {
	usage_error schema x "^fluid: schema takes no operand"
	usage_error schema --json "^fluid: --json is for export odcs"
}
