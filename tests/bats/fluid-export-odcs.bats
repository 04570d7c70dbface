#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-export-odcs.bats - fluid export odcs and fluid-odcs (fluid-odcs(1)):
# usage errors, byte-identical output, no credential and no catalogAuth,
# YAML that PyYAML (a YAML 1.1 reader) reads as the --json output, the
# explode and the build's own SQL described.  The ODCS tools themselves
# run in make check-odcs (tests/odcs/).

load helpers
load check-helpers

setup() {
	check_setup
	cp -R "$EXAMPLES/shapes" shapes
	FLAT=shapes/flattened/orders-items.fluid.yaml
	LANDED=shapes/landed/orders-landed.fluid.yaml
}

teardown() { fluid_teardown; }

@test "export: usage errors exit 2 and write nothing" {
	usage_error export '^fluid: export expects a format: export odcs'
	usage_error export csv "$FLAT" '^fluid: export expects a format'
	usage_error export odcs '^fluid: export odcs expects one FILE'
	usage_error export odcs "$FLAT" "$LANDED" '^fluid: export odcs expects one FILE'
	usage_error export odcs --yaml "$FLAT" "^fluid: unknown option '--yaml'"
	usage_error export odcs --diagnostics=xml "$FLAT" '^fluid: '
	TOOL=fluid-odcs usage_error "$FLAT" '^fluid-odcs: reads standard input; no FILE'
}

@test "fluid-odcs: a document that has not been through fluid-check is an environment error" {
	"$BIN/fluid-resolve" "$FLAT" >resolved.json
	TOOL=fluid-odcs tool <resolved.json
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" 'fluid-check'
}

@test "export: a contract with no managed build is refused, nothing written" {
	printf '%s\n' 'fluidVersion: "0.7.6"' 'kind: DataProduct' 'id: t.old' \
	    'name: Old' 'builds:' '  - id: old' '    engine: flink' >old.fluid.yaml
	tool export odcs -o out.yaml old.fluid.yaml
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" 'old\.fluid\.yaml:6:3: error: no managed build to export'
	[ ! -e out.yaml ] || fail "out.yaml written"
}

@test "export: the same contract gives the same bytes, on stdout, with -o, and from fluid-odcs" {
	"$BIN/fluid" export odcs "$FLAT" >a.yaml
	"$BIN/fluid" export odcs "$FLAT" >b.yaml
	cmp a.yaml b.yaml || fail "two exports differ"
	tool export odcs -o c.yaml "$FLAT"
	assert_status 0
	assert_equal "$output" "wrote c.yaml"
	cmp a.yaml c.yaml || fail "-o wrote other bytes"
	"$BIN/fluid-resolve" "$FLAT" | "$BIN/fluid-check" | "$BIN/fluid-odcs" >d.yaml
	cmp a.yaml d.yaml || fail "fluid-odcs wrote other bytes"
	"$BIN/fluid" export odcs --json "$FLAT" >a.json
	"$BIN/fluid" export odcs --json "$FLAT" >b.json
	cmp a.json b.json || fail "two --json exports differ"
	# Copied elsewhere, the contract exports the same: no path, no host.
	mkdir -p other && cp -R shapes other/
	"$BIN/fluid" export odcs "other/$FLAT" >e.yaml
	cmp a.yaml e.yaml || fail "the export depends on where the contract is"
}

@test "export: PyYAML reads the YAML back as the --json output" {
	python3 -c 'import yaml' 2>/dev/null || fail "python3 has no PyYAML (tools/bootstrap installs it)"
	for f in "$FLAT" "$LANDED" shapes/reshaped/orders-reshaped.fluid.yaml \
	    "$TOP/tests/live/contracts/deep/nested-landed.fluid.yaml"; do
		"$BIN/fluid" export odcs "$f" >x.yaml
		"$BIN/fluid" export odcs --json "$f" >x.json
		python3 -c '
import json, sys, yaml
y = yaml.safe_load(open("x.yaml"))
j = json.load(open("x.json"))
sys.exit(0 if y == j and y["apiVersion"] == "v3.2.0" else 1)' ||
		    fail "$f: the YAML reads as something else than the JSON"
	done
}

@test "export: no credential, no catalogAuth and no catalog properties are written" {
	subst 'catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}' \
	    'catalogAuth: {type: oauth2, credentialEnv: ICEBERG_CREDENTIAL, oauth2ServerUri: https://identity.example/token, scope: catalog}'
	tool export odcs --json "$F"
	assert_status 0
	jq -e . >/dev/null <<<"$output" || fail "not JSON" "$(show)"
	local word
	for word in ICEBERG_CREDENTIAL identity.example oauth2 credentialEnv \
	    catalogAuth scope s3.endpoint; do
		[[ $output != *"$word"* ]] || fail "the export holds '$word'" "$(show)"
	done
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	tool export odcs "$F"
	assert_status 0
	for word in ICEBERG_TOKEN tokenEnv bearer; do
		[[ $output != *"$word"* ]] || fail "the export holds '$word'" "$(show)"
	done
}

@test "export: the server is ODCS's iceberg server: the REST catalog, namespace and table; the owner is the team" {
	tool export odcs --json "$FLAT"
	assert_status 0
	assert_jq '.servers == [{"server": "orders", "type": "iceberg",
	    "description": "Apache Iceberg table in a REST catalog",
	    "catalog": "s3://lake/warehouse",
	    "catalogUrl": "https://catalog.example.com/api/catalog",
	    "namespace": "commerce", "warehouse": "s3://lake/warehouse",
	    "customProperties": [
	      {"property": "icebergCatalogType", "value": "rest"},
	      {"property": "icebergTable", "value": "order_items"}]}]'
	assert_jq '.team == {"name": "data-platform"}'
	assert_jq '.id == "commerce.order-items" and .schema[0].physicalName == "commerce.order_items"'
}

@test "export: an explode is the schema's dataGranularityDescription; sources name the element" {
	tool export odcs --json "$FLAT"
	assert_status 0
	assert_match "$(jqo '.schema[0].dataGranularityDescription')" \
	    '^One row per element of the array items of each record of Kafka topic orders .*read as item'
	assert_jq '.schema[0].properties[] | select(.name == "sku") |
	    .transformSourceObjects == ["orders.items[*].sku"] and .transformLogic == "item.sku"'
	assert_jq '.schema[0].properties[] | select(.name == "trace_id") |
	    .transformLogic == "CAST(kafka_headers['"'"'trace-id'"'"'] AS string)"'
	assert_jq '.schema[0].properties[] | select(.name == "country") |
	    .partitioned == true and .partitionKeyPosition == 1'
	tool export odcs --json "$LANDED"
	assert_match "$(jqo '.schema[0].dataGranularityDescription')" \
	    '^One row per record of Kafka topic orders\.$'
}

@test "export: nested columns are object, array and map properties, each level named, the whole type in fluid.recursiveType" {
	tool export odcs --json "$LANDED"
	assert_status 0
	assert_jq '.schema[0].properties[] | select(.name == "items") |
	    .logicalType == "array" and .items.logicalType == "object" and
	    .items.name == "items_element" and
	    ([.items.properties[].name] == ["sku", "quantity", "price"]) and
	    (.items.properties[2].physicalType == "decimal(18,2)")'
	assert_jq '.schema[0].properties[] | select(.name == "attributes") |
	    .logicalType == "map" and (has("properties") | not) and
	    (has("description") | not) and
	    .physicalType == "map" and
	    .map.key.name == "attributes_key" and .map.key.logicalType == "string" and
	    .map.key.required == true and .map.key.physicalType == "string" and
	    .map.value.name == "attributes_value" and .map.value.required == false and
	    .customProperties == [{"property": "fluid.recursiveType",
	      "value": "map<string not null, string>"}]'
}

@test "export: physicalType is the table's type without its levels, nullability is required" {
	tool export odcs --json "$LANDED"
	assert_status 0
	# No property at any level ends in its own NOT NULL, and none
	# spells a nested type whole (datacontract-cli copied ROW<...>
	# into Snowflake and Trino DDL).
	assert_jq '[.. | objects | select(has("physicalType") and has("required")) |
	    select(.physicalType | test("NOT NULL$|[<>]|ROW|TIMESTAMP_LTZ"; "i"))] == []'
	assert_jq '.schema[0].properties[] | select(.name == "event_id") |
	    .physicalType == "string" and .required == true'
	assert_jq '.schema[0].properties[] | select(.name == "kafka_offset") |
	    .physicalType == "long" and .required == true'
	assert_jq '.schema[0].properties[] | select(.name == "order_key") |
	    .physicalType == "string" and .required == false'
	# A zoned timestamp is timestamp_tz, an Iceberg timestamp (no zone)
	# timestamp_ntz: datacontract-cli reads a bare timestamp as zoned.
	assert_jq '.schema[0].properties[] | select(.name == "event_time") |
	    .physicalType == "timestamp_tz" and .logicalType == "timestamp" and
	    .logicalTypeOptions == {"timezone": true}'
	assert_jq '.schema[0].properties[] | select(.name == "customer") |
	    .physicalType == "struct" and .logicalType == "object"'
	assert_jq '.schema[0].properties[] | select(.name == "items") |
	    .physicalType == "array" and .items.physicalType == "struct"'
}

@test "export: a decimal's precision and scale are custom properties, and its Avro type" {
	tool export odcs --json "$LANDED"
	assert_status 0
	assert_jq '.schema[0].properties[] | select(.name == "items") |
	    .items.properties[] | select(.name == "price") |
	    .logicalType == "number" and .physicalType == "decimal(18,2)" and
	    .customProperties == [
	      {"property": "fluid.recursiveType", "value": "decimal(18,2)"},
	      {"property": "precision", "value": 18},
	      {"property": "scale", "value": 2},
	      {"property": "avroType", "value": {"type": "bytes",
	        "logicalType": "decimal", "precision": 18, "scale": 2}}]'
	# Only a decimal has precision and scale.
	assert_jq '[.. | objects | select(has("physicalType") and has("required")) |
	    select(.physicalType | startswith("decimal") | not) |
	    .customProperties[]? | select(.property == "precision" or
	    .property == "scale")] == []'
}

@test "export: the Trino and Avro types datacontract-cli cannot spell itself are custom properties" {
	tool export odcs --json "$LANDED"
	assert_status 0
	# A struct is a row, an array an array, a timestamp in Iceberg's
	# microseconds (trinoType, which its Trino SQL takes first).
	assert_jq '.schema[0].properties[] | select(.name == "customer") |
	    [.customProperties[] | select(.property == "trinoType") | .value] ==
	    ["row(\"id\" varchar, \"address\" row(\"city\" varchar, \"country\" varchar))"]'
	assert_jq '.schema[0].properties[] | select(.name == "items") |
	    [.customProperties[] | select(.property == "trinoType") | .value] ==
	    ["array(row(\"sku\" varchar, \"quantity\" integer, \"price\" decimal(18,2)))"]'
	assert_jq '.schema[0].properties[] | select(.name == "event_time") |
	    [.customProperties[] | select(.property == "trinoType" or
	    .property == "avroLogicalType") | .value] ==
	    ["timestamp-micros", "timestamp(6) with time zone"]'
	# A scalar whose own spelling is right has none.
	assert_jq '.schema[0].properties[] | select(.name == "event_id") |
	    .customProperties == [{"property": "fluid.recursiveType",
	      "value": "string not null"}]'
}

@test "export: an upsert table's primary key is exported, and a row is one key" {
	tool export odcs --json "$TOP/tests/live/contracts/cdc/customers-canal.fluid.yaml"
	assert_status 0
	assert_jq '[.schema[0].properties[] | select(.primaryKey) |
	    {name, primaryKeyPosition}] == [{"name": "customer_id", "primaryKeyPosition": 1}]'
	assert_match "$(jqo '.schema[0].dataGranularityDescription')" \
	    '^One row per key \(customer_id\): the latest state of that key in the change stream on Kafka topic canal\.crm\.customers \(canal-json, landed as upsert\); a delete removes its row\.$'
	# An append-with-op table has no key: one row per change.
	tool export odcs --json "$TOP/tests/live/contracts/cdc/customers-ops.fluid.yaml"
	assert_status 0
	assert_jq '[.schema[0].properties[] | select(has("primaryKey"))] == []'
	assert_match "$(jqo '.schema[0].dataGranularityDescription')" \
	    '^One row per change in the change stream on Kafka topic dbserver1\.crm\.customers \(debezium-json, landed as append-with-op: each change appended, its operation in column op\)\.$'
}

@test "export: a build's own SQL is each column's transformLogic" {
	no_mapping
	subst '      parameters:' '      sql: SELECT event_id, quantity FROM source_events
      parameters:'
	tool export odcs --json "$F"
	assert_status 0
	assert_jq '[.schema[0].properties[].transformLogic] | unique ==
	    ["SELECT event_id, quantity FROM source_events"]'
	assert_match "$(jqo '.schema[0].dataGranularityDescription')" "own SQL"
}
