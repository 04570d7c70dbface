#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-cdc.bats - change streams (issue 22): debezium-json and
# canal-json, landed as upsert or append-with-op, the primary key, the
# warehouse named by name, what fluid diff says of a key change, and the
# scripts fluid-sqlgen writes for them.
#
# The base is the change-stream example (examples/changes), copied to
# $F; each test makes one change with check-helpers.bash's subst, add
# and drop.  tests/bad/410-429 refuse the rest of the rules.  The golden
# scripts (tests/golden/sqlgen/changes-customers.sql, cdc-ops.sql,
# cdc-canal.sql) were reviewed by hand against Flink's debezium-json and
# canal-json format pages and Iceberg's Flink upsert section: the change
# format and its ignore-parse-errors, PRIMARY KEY (...) NOT ENFORCED,
# format v2 and write.upsert.enabled; for append-with-op the envelope read
# as JSON and the row taken out of it by a view.

load helpers
load check-helpers

EX="$EXAMPLES/changes/customers-cdc.fluid.yaml"
LC="$TOP/tests/live/contracts/cdc"

setup() {
	TOOL=fluid
	fluid_setup
	F=c.fluid.yaml
	cp "$EX" "$F"
}
teardown() { fluid_teardown; }

# sql [FILE]: the script of FILE (default $F), resolved, checked and
# generated, in $output; the pipeline must accept it.
sql() {
	run --separate-stderr bash -c 'set -o pipefail; cd "$(dirname "$2")" &&
	    "$1/fluid-resolve" -- "$(basename "$2")" | "$1/fluid-check" |
	    "$1/fluid-sqlgen" --sql' sql "$BIN" "${1:-$PWD/$F}"
	assert_status 0
	assert_no_stderr
}

# has TEXT: the last output holds the line TEXT, exactly.
has() {
	grep -qxF -- "$1" <<<"$output" || fail "no line: $1" "$output"
}

# append_with_op [COLUMN]: land the changes as append-with-op into COLUMN
# (default op_type), declared in the expose, without a primary key.
append_with_op() {
	local c=${1:-op_type}
	drop 'primaryKey: [customer_id]'
	subst '        mode: upsert' "        mode: append-with-op
        operationColumn: $c"
	subst '        - {name: updated_at, type: timestamp_ltz(3)}

builds:' "        - {name: updated_at, type: timestamp_ltz(3)}
        - {name: $c, type: string, required: true}

builds:"
}

# --- accepted, and what the IR says ---------------------------------------

@test "cdc: the example is accepted: an upsert keyed by customer_id" {
	validate
	accepted
	check
	ir
	assert_jq '.check.builds[0].table.primaryKey == ["customer_id"]'
	assert_jq '.check.builds[0].table.formatVersion == 2'
	assert_jq '.check.builds[0].stream.changes == {"format":
	    "debezium-json", "landing": "upsert", "operationColumn": null,
	    "ignoreParseErrors": false}'
}

@test "cdc: upsert is the default landing of a change format" {
	drop '      landing:'
	drop '        mode: upsert'
	check
	ir
	assert_jq '.check.builds[0].stream.changes.landing == "upsert"'
	assert_jq '.check.builds[0].table.primaryKey == ["customer_id"]'
}

@test "cdc: the mapping rules apply to a change stream: lift, widen, by name" {
	check
	ir
	assert_jq "$(output country) | .expr.op == \"path\" and
	    .expr.root == \"address\" and .expr.steps == [{\"field\": \"country\"}]"
	assert_jq "$(output points) | .expr.op == \"widen\" and .expr.type == \"long\""
	assert_jq "$(output email) | .expr.root == \"email\" and .expr.steps == []"
}

@test "cdc: a cast applies to a change stream" {
	subst '          - {name: email, type: string}' \
	    '          - {name: email, type: binary}'
	subst '          - {name: country, from: address.country}' \
	    '          - {name: country, from: address.country}
          - {name: email, from: email, cast: string}'
	check
	ir
	assert_jq "$(output email) | .expr.op == \"cast\""
}

@test "cdc: append-with-op is accepted, its operation a required string column" {
	append_with_op
	validate
	accepted
	check
	ir
	assert_jq '.check.builds[0].stream.changes.landing == "append-with-op"'
	assert_jq '.check.builds[0].stream.changes.operationColumn == "op_type"'
	assert_jq '.check.builds[0].table | has("primaryKey") | not'
	assert_jq '.check.builds[0].stream.columns[] | select(.name == "op_type")
	    | .origin == "value" and .from == "operation" and .required'
	assert_jq "$(output op_type) | .expr.root == \"op_type\""
}

@test "cdc: canal-json is accepted, as upsert" {
	subst 'format: debezium-json' 'format: canal-json'
	check
	ir
	assert_jq '.check.builds[0].stream.changes.format == "canal-json"'
	assert_jq '.check.builds[0].table.primaryKey == ["customer_id"]'
}

@test "cdc: a partition column inside the primary key is accepted" {
	subst 'primaryKey: [customer_id]' 'primaryKey: [customer_id, country]'
	subst 'string}
        - {name: country, type: string}' 'string}
        - {name: country, type: string, required: true}'
	subst '              - {name: country, type: string}' \
	    '              - {name: country, type: string, required: true}'
	subst '          - name: address
            type: struct' '          - name: address
            type: struct
            required: true'
	subst '      icebergConfig:' '      icebergConfig:
        partitionSpec: [{column: country, transform: identity}]'
	check
	ir
	assert_jq '.check.builds[0].table.partitionBy == ["country"]'
	assert_jq '.check.builds[0].table.primaryKey == ["customer_id", "country"]'
	sql
	has '  PRIMARY KEY (`customer_id`, `country`) NOT ENFORCED'
	has ') PARTITIONED BY (`country`) WITH ('
}

@test "cdc: maxParseErrors unbounded skips every malformed record" {
	subst 'maxParseErrors: 0' 'maxParseErrors: unbounded'
	check
	ir
	assert_jq '.check.builds[0].stream.changes.ignoreParseErrors'
	sql
	has "  'value.debezium-json.ignore-parse-errors' = 'true',"
}

@test "cdc: without maxParseErrors a malformed record fails the job" {
	drop 'maxParseErrors: 0'
	sql
	has "  'value.debezium-json.ignore-parse-errors' = 'false',"
}

@test "cdc: an event time on an upsert stream has its watermark" {
	subst '          deployment:' '          eventTime: {column: updated_at, delaySeconds: 5}
          deployment:'
	sql
	has "  WATERMARK FOR \`updated_at\` AS \`updated_at\` - INTERVAL '5' SECOND"
}

@test "cdc: a streamSource fragment may be a change stream" {
	mkfile frag.yaml <<'EOF'
kind: kafka
topic: dbserver1.crm.customers
format: canal-json
maxParseErrors: unbounded
schema:
  - {name: customer_id, type: long, required: true}
EOF
	tool validate --schema-version 0.7.7 --fragment streamSource frag.yaml
	assert_status 0
	assert_no_stderr
}

# --- refused ----------------------------------------------------------------

@test "cdc: a primary key on an append-only stream is refused" {
	subst 'format: debezium-json' 'format: json'
	drop 'maxParseErrors: 0'
	drop '      landing:'
	drop '        mode: upsert'
	validate
	refused "$(at 'primaryKey:' '[')" 'exposes[0].contract.primaryKey' \
	    '^is for change streams landed as upsert'
}

@test "cdc: a landing that is no mapping is refused" {
	drop '        mode: upsert'
	subst '      landing:' '      landing: upsert'
	validate
	refused "$(at 'landing: upsert' 'upsert')" \
	    'Flink build land-customers: properties.landing' \
	    '^must be a mapping \{mode, operationColumn\}$'
}

@test "cdc: an event time on append-with-op is refused, and why" {
	append_with_op
	subst '          deployment:' '          eventTime: {column: updated_at, delaySeconds: 5}
          deployment:'
	validate
	refused "$(at 'eventTime:' '{')" \
	    'Flink build land-customers: properties.parameters.flink.eventTime' \
	    "^append-with-op reads each row out of its change envelope in a view, and Flink declares a watermark only on a table's own column"
}

@test "cdc: append-with-op refuses a metadata column named like an envelope field" {
	append_with_op
	subst '          - {name: updated_at, type: timestamp_ltz(3)}
      # upsert' '          - {name: updated_at, type: timestamp_ltz(3)}
        metadata:
          - {name: op, from: offset}
      # upsert'
	validate
	refused "$(at 'mode: append-with-op' 'append-with-op')" \
	    'Flink build land-customers: properties.landing.mode' \
	    "^append-with-op reads the debezium-json envelope's field 'op' as a column of its own, and 'op' is also a metadata column"
}

@test "cdc: append-with-op refuses a mapping entry for the operation column" {
	append_with_op
	# A required source, so that the entry is right but for its name.
	subst '          - {name: email, type: string}' \
	    '          - {name: email, type: string, required: true}'
	subst '          - {name: country, from: address.country}' \
	    '          - {name: country, from: address.country}
          - {name: op_type, from: email}'
	validate
	refused "$(at 'name: op_type, from: email' op_type)" \
	    'Flink build land-customers: properties.mapping.columns[1].name' \
	    "^is the operation column \\(properties.landing.operationColumn\\): append-with-op writes each change's operation into it"
}

@test "cdc: append-with-op refuses a key column avro-confluent reads converted" {
	append_with_op
	subst '        maxParseErrors: 0' '        maxParseErrors: 0
        key:
          format: avro-confluent
          schema:
            - {name: id, type: long}
            - {name: changed_at, type: timestamp_ltz(3)}'
	subst '            bootstrapServers: kafka:9092' \
	    '            bootstrapServers: kafka:9092
            schemaRegistryUrl: https://registry.example.com'
	validate
	refused "$(at 'name: changed_at, type: timestamp_ltz' timestamp_ltz)" \
	    'Flink build land-customers: properties.stream.key.schema[1].type' \
	    "^append-with-op reads each row out of its change envelope in a view, and a timestamp_ltz that avro-confluent reads as timestamp is converted in a view of its own"
}

@test "cdc: an avro-confluent key with a timestamp_ltz is accepted as upsert" {
	subst '        maxParseErrors: 0' '        maxParseErrors: 0
        key:
          format: avro-confluent
          schema:
            - {name: changed_at, type: timestamp_ltz(3)}'
	subst '            bootstrapServers: kafka:9092' \
	    '            bootstrapServers: kafka:9092
            schemaRegistryUrl: https://registry.example.com'
	validate
	accepted
	sql
}

@test "cdc: a warehouse named by name is accepted, and passed on as written" {
	subst 'warehouse: s3://lake/warehouse' 'warehouse: iceberg_test'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.warehouse == "iceberg_test"'
	sql
	has "  'warehouse' = 'iceberg_test',"
}

@test "cdc: a warehouse that is neither an s3:// URI nor a name is refused" {
	subst 'warehouse: s3://lake/warehouse' 'warehouse: lake/warehouse'
	validate
	refused "$(at 'warehouse: lake' 'lake')" \
	    'exposes[0].binding.location.warehouse' \
	    "^must be an s3:// URI or the name of a warehouse the catalog knows"
}

@test "cdc: a warehouse name is catalog text: env: is refused as before" {
	subst 'warehouse: s3://lake/warehouse' 'warehouse: "env:WAREHOUSE"'
	validate
	refused "$(at 'warehouse: "env' '"env')" \
	    'exposes[0].binding.location.warehouse' \
	    "^must not start with env:, contain \\$\\{ or a control character"
}

@test "cdc: two exposes naming one warehouse by name and one table are one table" {
	subst 'warehouse: s3://lake/warehouse' 'warehouse: iceberg_test'
	subst '

builds:' '
  - exposeId: again
    kind: table
    binding:
      format: iceberg
      location: {catalog: rest, uri: "https://catalog.example.com/api/catalog", warehouse: iceberg_test, namespace: crm, table: Customers}
    contract:
      schema: [{name: customer_id, type: long, required: true}]

builds:'
	validate
	assert_status 1
	errors | grep -qF "$F:$(at 'location: {catalog' 'Customers'): error: Managed Flink: exposes[1].binding.location.table: exposes[0] names the same Iceberg table" ||
	    fail "the same table was not found" "$(show)"
}

# --- the scripts --------------------------------------------------------------

@test "cdc: golden: the example (debezium-json, upsert)" {
	sql "$EX"
	diff -u "$TOP/tests/golden/sqlgen/changes-customers.sql" - <<<"$output" ||
	    fail "the example's script differs from changes-customers.sql"
}

@test "cdc: golden: debezium-json as append-with-op" {
	sql "$LC/customers-ops.fluid.yaml"
	diff -u "$TOP/tests/golden/sqlgen/cdc-ops.sql" - <<<"$output" ||
	    fail "the script differs from cdc-ops.sql"
}

@test "cdc: golden: canal-json as upsert" {
	sql "$LC/customers-canal.fluid.yaml"
	diff -u "$TOP/tests/golden/sqlgen/cdc-canal.sql" - <<<"$output" ||
	    fail "the script differs from cdc-canal.sql"
}

@test "cdc: canal-json as append-with-op: one row per element of data" {
	append_with_op
	subst 'format: debezium-json' 'format: canal-json'
	sql
	has '  `data` ARRAY<ROW<`customer_id` BIGINT NOT NULL, `name` STRING, `email` STRING, `address` ROW<`city` STRING, `country` STRING>, `points` INT, `updated_at` TIMESTAMP_LTZ(3)>>,'
	has "  CASE \`c\`.\`type\` WHEN 'INSERT' THEN 'insert' WHEN 'UPDATE' THEN 'update' WHEN 'DELETE' THEN 'delete' END AS \`op_type\`"
	has 'CROSS JOIN UNNEST(`c`.`data`) AS `r` (`customer_id`, `name`, `email`, `address`, `points`, `updated_at`)'
	has "WHERE \`c\`.\`type\` IN ('INSERT', 'UPDATE', 'DELETE');"
}

@test "cdc: the key and metadata pass through append-with-op's view" {
	append_with_op
	subst '          - {name: updated_at, type: timestamp_ltz(3)}
      # upsert' '          - {name: updated_at, type: timestamp_ltz(3)}
        key:
          format: raw
          schema: [{name: record_key, type: string}]
        metadata:
          - {name: kafka_offset, from: offset}
      # upsert'
	sql
	has '  `record_key` STRING,'
	has "  \`kafka_offset\` BIGINT NOT NULL METADATA FROM 'offset' VIRTUAL"
	has '  `c`.`record_key` AS `record_key`,'
	has '  `c`.`kafka_offset` AS `kafka_offset`,'
	has "  'value.fields-include' = 'EXCEPT_KEY',"
}

@test "cdc: the same contract gives the same script" {
	sql
	local first=$output
	sql
	assert_equal "$output" "$first" "the second script"
}

@test "cdc: the table file carries the primary key for the runner" {
	tool generate flink "$F" --out out
	assert_status 0
	jq -e '.primaryKey == ["customer_id"]' out/land-customers.table.json >/dev/null ||
	    fail "no primaryKey in the table file" "$(cat out/land-customers.table.json)"
}

# --- fluid diff ------------------------------------------------------------------

@test "cdc: diff: a primary key change is breaking" {
	cp "$F" old.fluid.yaml
	subst 'primaryKey: [customer_id]' 'primaryKey: [customer_id, email]'
	subst 'string}
        - {name: email, type: string}' 'string}
        - {name: email, type: string, required: true}'
	subst '          - {name: email, type: string}' \
	    '          - {name: email, type: string, required: true}'
	tool diff "$F" --baseline old.fluid.yaml
	assert_status 0
	assert_jq '[.changes[] | select(.change == "primary-key")] | length == 1'
	assert_jq '.changes[] | select(.change == "primary-key") |
	    .severity == "breaking" and .old.value == ["customer_id"] and
	    .new.value == ["customer_id", "email"] and
	    .new.path == "exposes[0].contract.primaryKey"'
	assert_jq ".changes[] | select(.change == \"primary-key\") | .new.line ==
	    $(line_of "$F" 'primaryKey:')"
}

@test "cdc: diff: the same key is no change" {
	cp "$F" old.fluid.yaml
	tool diff "$F" --baseline old.fluid.yaml
	assert_status 0
	assert_jq '.changes == []'
}

@test "cdc: diff: another landing is breaking" {
	cp "$F" old.fluid.yaml
	append_with_op
	tool diff "$F" --baseline old.fluid.yaml
	assert_status 0
	assert_jq '.changes[] | select(.change == "landing") |
	    .severity == "breaking" and .old.value == "upsert" and
	    .new.value == "append-with-op (op_type)"'
	# The operation column is the landing's, not a field the job reads.
	assert_jq '[.changes[] | select(.new.path ==
	    "properties.stream.schema.op_type")] == []'
}

@test "cdc: diff: maxParseErrors 0 to unbounded is breaking, back is not" {
	cp "$F" old.fluid.yaml
	subst 'maxParseErrors: 0' 'maxParseErrors: unbounded'
	tool diff "$F" --baseline old.fluid.yaml
	assert_status 0
	assert_jq '[.changes[] | select(.change == "max-parse-errors")] | length == 1'
	assert_jq ".changes[] | select(.change == \"max-parse-errors\") |
	    .severity == \"breaking\" and .old.value == 0 and
	    .new.value == \"unbounded\" and
	    .new.path == \"properties.stream.maxParseErrors\" and
	    .new.line == $(line_of "$F" 'maxParseErrors:')"
	tool diff old.fluid.yaml --baseline "$F"
	assert_status 0
	assert_jq '.changes[] | select(.change == "max-parse-errors") |
	    .severity == "non-breaking" and .new.value == 0'
	# Without the key it is 0: no change against 0.
	drop 'maxParseErrors: unbounded'
	tool diff "$F" --baseline old.fluid.yaml
	assert_status 0
	assert_jq '.changes == []'
}
