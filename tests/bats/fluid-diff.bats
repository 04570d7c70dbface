#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-diff.bats - fluid diff --baseline (fluid-diff(1)): one test per
# row of the specification's table ("Schema changes and fluid diff") and
# per expose rule, each asserting the severity, with nested cases (a
# field deep in a struct, an array element's field, a map value); a
# contract against itself; the same output twice; a baseline that does
# not validate; the exit statuses and --out.
#
# Each test copies the base contract (fixtures/check/base.fluid.yaml)
# twice, edits the new one ($F) or the baseline ($B) with the helpers of
# check-helpers.bash, and looks for the change at a contract path: the
# path and the severity come from the specification, not from fluid's
# output.

load helpers
load fake-kubectl
load check-helpers

setup() {
	check_setup
	B=old.fluid.yaml
	cp "$F" "$B"
}

teardown() { fluid_teardown; }

# base COMMAND ARGS...: run an editing helper on the baseline instead.
base() {
	F=$B "$@"
}

# diff_run [OPTIONS...]: fluid diff --baseline $B OPTIONS $F.
diff_run() {
	tool diff --baseline "$B" "$@" "$F"
}

# change SEVERITY SUBJECT PATH [KIND]: fluid diff exits 0 with the
# changes as JSON, and exactly one change of SUBJECT (build or expose)
# stands at PATH (its new side's, or its old side's when it is gone),
# with SEVERITY (and KIND).
change() {
	local got
	diff_run
	assert_status 0
	jq -e . >/dev/null <<<"$output" || fail "not JSON" "$(show)"
	got=$(jq -r --arg s "$2" --arg p "$3" --arg k "${4:-}" '
	    [.changes[] | select(has($s) and (.new // .old).path == $p)] |
	    if length == 1 then .[0].severity +
		(if $k == "" then "" else " " + .[0].change end)
	    else "\(length) changes at the path" end' <<<"$output")
	assert_equal "$got" "$1${4:+ $4}" "the change at $3" ||
	    fail "$(show)"
}

# --- the stream, read as a reader schema -----------------------------------

@test "diff: a contract against itself has no change, status 0" {
	diff_run
	assert_status 0
	assert_no_stderr
	assert_jq '.changes == [] and .counts == {"breaking": 0,
	    "non-breaking": 0, "info": 0}'
}

@test "diff: another topic is breaking, and the only change" {
	subst 'topic: orders' 'topic: orders-v2'
	change breaking build properties.stream.topic topic
	assert_jq '.changes | length == 1'
	assert_jq '.changes[0] | .build == "ingest-orders" and
	    .old.value == "orders" and .new.value == "orders-v2"'
}

@test "diff: both sides name their file and the line of the change" {
	subst 'topic: orders' 'topic: orders-v2'
	# One line more in the new file, above the topic.
	subst 'name: Orders' 'name: Orders
description: orders'
	diff_run
	assert_status 0
	assert_jq --arg f "$F" --argjson l "$(line_of "$F" 'topic: orders-v2')" \
	    --arg b "$B" --argjson m "$(line_of "$B" 'topic: orders$')" '
	    .changes[0] | .new.file == $f and .new.line == $l and
	    .old.file == $b and .old.line == $m'
}

@test "diff: another value format is breaking" {
	subst 'format: json' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
	subst '{name: event_time, type: timestamp_ltz(3)}' \
	    '{name: event_time, type: timestamp(3)}'
	subst 'type: timestamp_ltz(3)
          # +stream' 'type: timestamp(3)
          # +stream'
	change breaking build properties.stream.format format
}

@test "diff: another key format is breaking" {
	subst 'format: raw' 'format: json'
	change breaking build properties.stream.key.format key-format
}

@test "diff: another metadata source is breaking" {
	base add metadata '- {name: kafka_epoch, from: partition}'
	add metadata '- {name: kafka_epoch, from: leader-epoch}'
	change breaking build properties.stream.metadata.kafka_epoch metadata
}

@test "diff: a field the job newly requires is breaking" {
	add stream '- {name: note, type: string, required: true}'
	change breaking build properties.stream.schema.note required
}

@test "diff: a new optional field is non-breaking" {
	add stream '- {name: note, type: string}'
	change non-breaking build properties.stream.schema.note added
}

@test "diff: a field deep in a struct that becomes required is breaking" {
	subst '                  - name: country
                    type: string' '                  - name: country
                    type: string
                    required: true'
	change breaking build properties.stream.schema.customer.address.country \
	    required
	# Placed at the field itself, three structs down.
	assert_jq --argjson l "$(line_of "$F" '^ *- name: country$')" \
	    '.changes[0].new.line == $l'
}

@test "diff: a narrowed field type is breaking (the output widens it)" {
	subst '          - name: amount
            type: decimal(18,2)' '          - name: amount
            type: decimal(10,2)'
	change breaking build properties.stream.schema.amount narrowed
}

@test "diff: a widened field type is non-breaking" {
	base subst '          - name: amount
            type: decimal(18,2)' '          - name: amount
            type: decimal(10,2)'
	change non-breaking build properties.stream.schema.amount widened
}

@test "diff: a changed field type deep in a struct is breaking" {
	subst '                  - name: city
                    type: string' '                  - name: city
                    type: long'
	change breaking build properties.stream.schema.customer.address.city \
	    retyped
}

@test "diff: an array element's field retyped is breaking" {
	subst '                - name: price
                  type: decimal(18,2)' '                - name: price
                  type: string'
	change breaking build properties.stream.schema.items.element.price \
	    retyped
}

@test "diff: a map value retyped is breaking" {
	subst 'value: {type: string}' 'value: {type: long}'
	change breaking build properties.stream.schema.attributes.value retyped
}

@test "diff: a field the job stops reading is non-breaking" {
	drop '          - name: attributes'
	drop '            type: map'
	drop '            key: {type: string, required: true}'
	drop '            value: {type: string}'
	change non-breaking build properties.stream.schema.attributes dropped
	assert_jq '.changes[0].new == null and .changes[0].old.value == "map"'
}

@test "diff: an array element's field the job stops reading is non-breaking" {
	subst '                - name: sku
                  type: string
' ''
	change non-breaking build properties.stream.schema.items.element.sku \
	    dropped
}

@test "diff: an explode added is breaking" {
	explode
	change breaking build properties.mapping.explode.path explode
	assert_jq '.changes[0].old == null and .changes[0].new.value == "items"'
}

@test "diff: an explode removed is breaking" {
	base explode
	change breaking build properties.mapping.explode.path explode
	assert_jq '.changes[0].new == null'
}

@test "diff: an explode moved to another array is breaking" {
	local lines='- name: lines
  type: array
  element: {type: struct, fields: [{name: sku, type: string}]}'
	base add stream "$lines"
	add stream "$lines"
	base explode items
	explode lines
	change breaking build properties.mapping.explode.path explode
	assert_jq '.changes[0] | .old.value == "items" and .new.value == "lines"'
}

@test "diff: an output read from another path is non-breaking" {
	subst '{name: country, from: customer.address.country}' \
	    '{name: country, from: customer.address.city}'
	change non-breaking build 'properties.mapping.columns[1].from' read-from
	assert_jq '.changes[0] | .old.value == "customer.address.country" and
	    .new.value == "customer.address.city"'
}

@test "diff: an output read with another conversion is non-breaking" {
	# The stream's amount narrows, so the output widens it on the way.
	subst '          - name: amount
            type: decimal(18,2)' '          - name: amount
            type: decimal(10,2)'
	change non-breaking build exposes[0].contract.schema.amount read-from
	assert_jq '[.changes[] | select(.change == "read-from")][0] |
	    .reason | test("another conversion")'
}

@test "diff: a build that starts running its own SQL is breaking" {
	no_mapping
	base no_mapping
	subst '      parameters:' '      sql: SELECT * FROM source_events
      parameters:'
	change breaking build properties.sql sql
}

@test "diff: a build whose own SQL changes is breaking" {
	no_mapping
	base no_mapping
	base subst '      parameters:' '      sql: SELECT * FROM source_events
      parameters:'
	subst '      parameters:' '      sql: SELECT event_id FROM source_events
      parameters:'
	change breaking build properties.sql sql
}

@test "diff: a new build that runs its own SQL is breaking" {
	second
	subst '      parameters: # returns' '      sql: SELECT * FROM source_events
      parameters: # returns'
	change breaking build properties.sql sql
	assert_jq '.changes[] | select(.change == "sql") |
	    .build == "ingest-returns" and .old == null'
}

@test "diff: a renamed build that runs its own SQL is breaking" {
	no_mapping
	base no_mapping
	base subst '      parameters:' '      sql: SELECT * FROM source_events
      parameters:'
	subst '      parameters:' '      sql: SELECT * FROM source_events
      parameters:'
	subst 'id: ingest-orders' 'id: ingest-orders-v2'
	change breaking build properties.sql sql
	assert_jq '.changes[] | select(.severity == "breaking") |
	    .build == "ingest-orders-v2"'
}

@test "diff: a build that declares its stream is info" {
	second
	change info build properties.stream stream
	assert_jq '.changes[] | select(.change == "stream") |
	    .build == "ingest-returns" and .new.value == "returns"'
}

@test "diff: a build that drops its stream is info" {
	base second
	change info build properties.stream stream
	assert_jq '.changes[] | select(.change == "stream") |
	    .build == "ingest-returns" and .new == null'
}

# --- the output table: the expose rules -------------------------------------

@test "diff: a column added as optional is non-breaking" {
	add stream '- {name: note, type: string}'
	add expose '- {name: note, type: string}'
	change non-breaking expose exposes[0].contract.schema.note added
}

@test "diff: a column added as required is breaking" {
	add stream '- {name: note, type: string, required: true}'
	add expose '- {name: note, type: string, required: true}'
	change breaking expose exposes[0].contract.schema.note added
}

@test "diff: a column removed is breaking" {
	drop '        - {name: quantity, type: int}'
	change breaking expose exposes[0].contract.schema.quantity removed
	assert_jq '.changes | length == 1'
}

@test "diff: a column renamed is breaking" {
	subst '        - {name: quantity, type: int}' \
	    '        - {name: qty, type: int}'
	add columns '- {name: qty, from: quantity}'
	change breaking expose exposes[0].contract.schema.qty renamed
	assert_jq '[.changes[] | select(has("expose"))] | length == 1'
	assert_jq '.changes[0] | .old.value == "quantity" and
	    .new.value == "qty"'
}

@test "diff: a column retyped is breaking, a widening too" {
	subst '        - {name: quantity, type: int}' \
	    '        - {name: quantity, type: long}'
	change breaking expose exposes[0].contract.schema.quantity retyped
}

@test "diff: a column reordered is breaking" {
	drop '        - {name: quantity, type: int}'
	subst '        - {name: amount, type: "decimal(18,2)"}' \
	    '        - {name: amount, type: "decimal(18,2)"}
        - {name: quantity, type: int}'
	change breaking expose exposes[0].contract.schema.quantity reordered
	change breaking expose exposes[0].contract.schema.amount reordered
}

@test "diff: a column inserted in the middle moves no other column" {
	add stream '- {name: note, type: string}'
	subst '        - {name: quantity, type: int}' \
	    '        - {name: note, type: string}
        - {name: quantity, type: int}'
	diff_run
	assert_status 0
	assert_jq '[.changes[] | select(has("expose"))] | length == 1 and
	    .[0].change == "added"'
}

@test "diff: a column's requiredness changed is breaking" {
	subst '{name: event_id, type: string, required: true}' \
	    '{name: event_id, type: string}'
	change breaking expose exposes[0].contract.schema.event_id requiredness
}

@test "diff: a struct's field removed from the table is breaking" {
	local customer='- name: customer
  type: struct
  fields:
    - {name: id, type: string}
    - name: address
      type: struct
      fields: [{name: city, type: string}, {name: country, type: string}]'
	base add expose "$customer"
	add expose "${customer/'{name: city, type: string}, '/}"
	change breaking expose exposes[0].contract.schema.customer.address.city \
	    removed
}

@test "diff: an array element's field removed from the table is breaking" {
	local items='- name: items
  type: array
  element:
    type: struct
    fields: [{name: sku, type: string}, {name: price, type: "decimal(18,2)"}]'
	base add expose "$items"
	add expose "${items/'{name: sku, type: string}, '/}"
	# An array is copied as it is: the stream loses the field too.
	subst '                - name: sku
                  type: string
' ''
	change breaking expose exposes[0].contract.schema.items.element.sku \
	    removed
	change non-breaking build properties.stream.schema.items.element.sku \
	    dropped
}

@test "diff: a map value retyped in the table is breaking" {
	local attrs='- name: attributes
  type: map
  key: {type: string, required: true}
  value: {type: string}'
	base add expose "$attrs"
	add expose "${attrs/'value: {type: string}'/'value: {type: long}'}"
	subst 'value: {type: string}' 'value: {type: long}'
	change breaking expose exposes[0].contract.schema.attributes.value retyped
	change breaking build properties.stream.schema.attributes.value retyped
}

@test "diff: a partition change is breaking" {
	drop '{column: country, transform: identity}'
	change breaking expose \
	    exposes[0].binding.icebergConfig.partitionSpec partition
}

# --- the source's security ---------------------------------------------------

SEC=properties.parameters.flink.source.security
SCRAM='sasl: {mechanism: SCRAM-SHA-512, usernameEnv: KAFKA_USERNAME, passwordEnv: KAFKA_PASSWORD}'
TRUST='truststore: {path: /etc/kafka-tls/truststore.p12, passwordEnv: KAFKA_TRUSTSTORE_PASSWORD}'

# security PROTOCOL [LINES...]: a security block under the source (of
# $F; of the baseline with base), each further line indented under it.
security() {
	local text="security:
  protocol: $1" l
	shift
	for l in "$@"; do
		text+="
  $l"
	done
	add source "$text"
}

@test "diff: a move from TLS to a protocol without it is breaking" {
	base security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	security SASL_PLAINTEXT "$SCRAM"
	change breaking build "$SEC.protocol" security-protocol
	assert_jq '.changes[] | select(.change == "security-protocol") |
	    .old.value == "SASL_SSL" and .new.value == "SASL_PLAINTEXT" and
	    .old.line > 0 and .new.line > 0'
	# What the job reads changed too, and says so, not as breaking; the
	# truststore is gone, so its new side is the block that lacks it.
	assert_jq '[.changes[] | select(.change == "security-variables")][0] |
	    .severity == "non-breaking" and
	    .new.value == ["KAFKA_USERNAME", "KAFKA_PASSWORD"]'
	assert_jq '[.changes[] | select(.change == "security-truststore")][0] |
	    .severity == "non-breaking" and .new.value == null and
	    .old.path == "'"$SEC"'.tls.truststore" and .new.path == "'"$SEC"'"'
}

@test "diff: removing the security block is breaking (PLAINTEXT)" {
	base security SSL "tls:" "  $TRUST"
	diff_run
	assert_status 0
	assert_jq '[.changes[] | select(.change == "security-protocol")] | length == 1'
	assert_jq '.changes[] | select(.change == "security-protocol") |
	    .severity == "breaking" and .old.value == "SSL" and .new == null and
	    .old.path == "'"$SEC"'.protocol"'
}

@test "diff: a move to TLS, or from none to SASL, is non-breaking" {
	security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	change non-breaking build "$SEC.protocol" security-protocol
	cp "$FIXTURES/check/base.fluid.yaml" "$B"
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	base security PLAINTEXT
	security SASL_PLAINTEXT "$SCRAM"
	change non-breaking build "$SEC.protocol" security-protocol
}

@test "diff: another SASL mechanism, variables or truststore is non-breaking" {
	base security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	security SASL_SSL \
	    'sasl: {mechanism: PLAIN, usernameEnv: KAFKA_USER, passwordEnv: KAFKA_PASSWORD}' \
	    "tls:" '  truststore: {path: /etc/kafka-tls/ca.p12, passwordEnv: KAFKA_TRUSTSTORE_PASSWORD}'
	change non-breaking build "$SEC.sasl.mechanism" security-mechanism
	change non-breaking build "$SEC" security-variables
	change non-breaking build "$SEC.tls.truststore" security-truststore
	assert_jq '[.changes[] | select(.change == "security-protocol")] == []'
	assert_jq '.changes[] | select(.change == "security-variables") |
	    .new.value == ["KAFKA_USER", "KAFKA_PASSWORD", "KAFKA_TRUSTSTORE_PASSWORD"]'
}

@test "diff: the same security block is no change" {
	base security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	diff_run
	assert_status 0
	assert_jq '.changes == []'
}

# --- the command -----------------------------------------------------------

@test "diff: the same contracts give the same bytes twice" {
	subst 'topic: orders' 'topic: orders-v2'
	drop '        - {name: quantity, type: int}'
	add stream '- {name: note, type: string}'
	second
	diff_run --out one.json
	assert_status 0
	diff_run --out two.json
	assert_status 0
	cmp one.json two.json
	# Sorted: breaking first, then non-breaking, then info.
	run jq -r '[.changes[].severity] | join(" ")' one.json
	assert_equal "$output" "breaking breaking non-breaking info info"
}

@test "diff: --exit-on-breaking exits 1 when a change is breaking" {
	subst 'topic: orders' 'topic: orders-v2'
	diff_run --exit-on-breaking
	assert_status 1
	assert_jq '.counts.breaking == 1'
}

@test "diff: --exit-on-breaking exits 0 when no change is breaking" {
	add stream '- {name: note, type: string}'
	diff_run --exit-on-breaking
	assert_status 0
	assert_jq '.counts == {"breaking": 0, "non-breaking": 1, "info": 0}'
}

@test "diff: a baseline that does not validate is status 2, not compared" {
	base subst 'topic: orders' 'topic: [orders]'
	diff_run
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "$B:$(line_of "$B" 'topic: \[orders\]'):[0-9]+: error: .*properties\.stream\.topic"
	assert_match "${stderr_lines[-1]}" "baseline '$B' does not validate"
}

@test "diff: a contract that does not validate is refused, status 1" {
	subst 'topic: orders' 'topic: [orders]'
	diff_run
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" "^$F:$(line_of "$F" 'topic: \[orders\]'):"
}

@test "diff: --out writes the changes whole and says so" {
	subst 'topic: orders' 'topic: orders-v2'
	diff_run --out changes.json
	assert_status 0
	assert_equal "$output" "wrote changes.json"
	jq -e '.changes[0].change == "topic"' changes.json
}

# --- --exit-on-drift offline: what it refuses before or without a ------
# --- cluster.  The real API server is the Kubernetes lane's
# --- (tests/k8s/checks/30-drift.sh): clean, pending, drift, a missing
# --- record, an unreachable server.

# drift_setup: the landed example, the allowlists it needs for diff
# (deployment targets only), and a fake kubectl that records each call
# in kubectl.calls and fails as kubectl does when it cannot connect.
drift_setup() {
	cp -R "$EXAMPLES/shapes" shapes
	LANDED=shapes/landed/orders-landed.fluid.yaml
	fake_kubectl refused
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=data-products
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink
	export FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=data-products/flink
	export FLUID_FLINK_SECRET_ALLOWLIST=data-products/flink-storage
}

@test "diff: --exit-on-drift does not mix with --baseline or --exit-on-breaking" {
	usage_error diff --exit-on-drift --baseline "$B" "$F" \
	    'exit-on-drift compares the cluster with the contract: not with --baseline'
	usage_error diff --exit-on-drift --exit-on-breaking "$F" \
	    'not with --baseline or --exit-on-breaking'
}

@test "diff: --exit-on-drift checks the deployment allowlists first: exit 1, no kubectl" {
	drift_setup
	unset FLUID_FLINK_IMAGE_ALLOWLIST
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=other
	tool diff --exit-on-drift "$LANDED"
	assert_status 1
	assert_no_stdout
	assert_equal "$(grep -c "^$LANDED: error: build 'land-orders': deployment\.\(image: image 'registry.example.com/forge-flink'\|namespace: namespace 'data-products'\) is not allowed" <<<"$stderr")" 2 "refusals"
	[ ! -e kubectl.calls ] || fail "kubectl was called" "$(cat kubectl.calls)"
}

@test "diff: --exit-on-drift reads no host allowlist: only where it deploys" {
	drift_setup
	# No FLUID_ACQUISITION_* list: apply would refuse, diff goes on.
	tool diff --exit-on-drift "$LANDED"
	assert_status 2
	[ -s kubectl.calls ] || fail "kubectl was not called" "$stderr"
}

@test "diff: --exit-on-drift on a cluster that cannot be read: exit 2, no answer, bounded calls" {
	drift_setup
	tool diff --exit-on-drift --out drift.json "$LANDED"
	assert_status 2
	assert_no_stdout
	[ ! -e drift.json ] || fail "an answer was written" "$(cat drift.json)"
	assert_match "$stderr" "kubectl --context=development cannot read configmap data-products/commerce-orders-landed-fluid-last-applied: The connection to the server 127.0.0.1:1 was refused: no drift answer"
	# One read, then nothing: a build without an answer ends the run.
	assert_equal "$(wc -l <kubectl.calls)" 1 "kubectl calls"
	assert_match "$(cat kubectl.calls)" "^--context=development --request-timeout=[0-9]+s get --namespace=data-products --output=json --ignore-not-found --show-managed-fields -- configmap commerce-orders-landed-fluid-last-applied$"
}

@test "diff: --exit-on-drift without kubectl is exit 2" {
	drift_setup
	export KUBECTL=$TMP/no-such-kubectl
	tool diff --exit-on-drift "$LANDED"
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "cannot run '$TMP/no-such-kubectl' \(set KUBECTL to name kubectl\)"
}

@test "diff: without --baseline is a usage error" {
	usage_error diff "$F" 'needs --baseline'
}

@test "diff: on a terminal, a summary grouped by severity goes to stderr" {
	command -v script >/dev/null || skip "no script(1)"
	subst 'topic: orders' 'topic: orders-v2'
	add stream '- {name: note, type: string}'
	run script -qec "$BIN/fluid diff --baseline $B $F >/dev/null" /dev/null
	assert_status 0
	assert_match "$output" "breaking \(1\):"
	assert_match "$output" "non-breaking \(1\):"
	assert_match "$output" "build ingest-orders: properties\.stream\.topic: orders -> orders-v2"
	# Not on a pipe: stderr stays empty there.
	diff_run
	assert_no_stderr
}
