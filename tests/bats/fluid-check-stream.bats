#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-stream.bats - properties.stream ("Declaring the stream" in
# the specification): the column shape of stream.schema (which an
# expose's contract.schema shares, with the type limits of "What is
# supported"), the one topic, the value format, what
# parameters.flink.source may hold, and the event time.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

# --- the schema's shape and types -----------------------------------------

@test "schema: structs, arrays and maps with their children are accepted" {
	check
	ir
	assert_jq '.check.builds[0].stream.columns[] |
	    select(.name == "customer") | .type == "struct" and
	    ([.fields[].name] == ["id", "address"])'
	assert_jq '.check.builds[0].stream.columns[] |
	    select(.name == "items") | .element.type == "struct"'
	assert_jq '.check.builds[0].stream.columns[] |
	    select(.name == "attributes") | .key == {"type": "string",
	    "required": true} and .value.type == "string"'
}

@test "schema: a struct without fields is refused" {
	add stream '- {name: extra, type: struct}'
	validate
	build_refused "$(at 'name: extra, type: struct' '{')" \
	    'properties.stream.schema.extra.fields' 'is required'
}

@test "schema: an array without its element is refused" {
	add stream '- {name: tags, type: array}'
	validate
	build_refused "$(at 'name: tags, type: array' '{')" \
	    'properties.stream.schema.tags.element' 'is required'
}

@test "schema: a map without its value is refused" {
	add stream '- {name: labels, type: map, key: {type: string, required: true}}'
	validate
	build_refused "$(at 'name: labels, type: map' '{')" \
	    'properties.stream.schema.labels.value' 'is required'
}

@test "schema: children on a column that has none are refused" {
	add stream '- {name: note, type: string, element: {type: string}}'
	validate
	build_refused "$(at 'name: note' '{type: string}')" \
	    'properties.stream.schema.note.element' \
	    'a string column has no element'
}

@test "schema: a map with string keys that are required is accepted" {
	add stream '- {name: labels, type: map, key: {type: string, required: true}, value: {type: int}}'
	check
	ir
	assert_jq '.check.builds[0].stream.columns[] |
	    select(.name == "labels") | .key.required and
	    .value == {"type": "int", "required": false}'
}

@test "schema: a map key that may be null is refused" {
	subst 'key: {type: string, required: true}' 'key: {type: string}'
	validate
	build_refused "$(at 'key: \{type: string\}' '{')" \
	    'properties.stream.schema.attributes.key' \
	    'map keys must be required strings'
}

@test "schema: a map key that is not a string is refused" {
	subst 'key: {type: string, required: true}' \
	    'key: {type: long, required: true}'
	validate
	build_refused "$(at 'key: \{type: long' '{')" \
	    'properties.stream.schema.attributes.key' \
	    'map keys must be required strings'
}

@test "schema: the key of a map in the expose must be a required string too" {
	add expose '- name: labels
  type: map
  key: {type: string, required: false}
  value: {type: string}'
	validate
	refused "$(at 'required: false' '{')" \
	    'exposes[0].contract.schema.labels.key' \
	    'map keys must be required strings'
}

@test "schema: plain SQL identifiers, with digits and '_', are accepted" {
	add stream '- {name: _line2_total, type: int}'
	add expose '- {name: _line2_total, type: int}'
	check
	ir
	assert_jq "$(output _line2_total) | .expr.root == \"_line2_total\""
}

@test "schema: a name that is not a plain SQL identifier is refused" {
	add stream '- {name: order-total, type: int}'
	validate
	build_refused "$(at 'name: order-total')" \
	    'properties.stream.schema.order-total' \
	    "'order-total' is not a plain SQL identifier"
}

@test "schema: a name starting with a digit is refused in the expose" {
	add expose '- {name: 2nd_item, type: string}'
	validate
	refused "$(column 2nd_item)" 'exposes[0].contract.schema.2nd_item' \
	    "'2nd_item' is not a plain SQL identifier"
}

@test "schema: names that differ only by case are refused" {
	add stream '- {name: Amount, type: int}'
	validate
	build_refused "$(at 'name: Amount')" 'properties.stream.schema.Amount' \
	    "'Amount' differs from 'amount' only by case"
}

@test "schema: stream columns of value and metadata may not differ only by case" {
	add metadata '- {name: Amount, from: offset}'
	validate
	build_refused "$(at 'name: Amount, from: offset')" \
	    'properties.stream.metadata[2]' \
	    "'Amount' differs from the value column 'amount' only by case"
}

@test "schema: struct fields that differ only by case are refused" {
	subst '              - name: address' '              - {name: ID, type: string}
              - name: address'
	validate
	build_refused "$(at 'name: ID, type')" \
	    'properties.stream.schema.customer.ID' \
	    "'ID' differs from 'id' only by case"
}

@test "schema: a column declared twice is refused" {
	add expose '- {name: quantity, type: long}'
	validate
	refused "$(at 'name: quantity, type: long' '{')" \
	    'exposes[0].contract.schema.quantity' "'quantity' is declared twice"
}

@test "schema: structs nested 32 deep are accepted" {
	add stream "$(deep 32)"
	check
	ir
	assert_jq '[.check.builds[0].stream.columns[] | select(.name == "l1") |
	    .. | objects | select(.type == "struct")] | length == 32'
}

@test "schema: structs nested 33 deep are refused" {
	local where=properties.stream.schema i
	add stream "$(deep 33)"
	for ((i = 1; i <= 33; i++)); do
		where=$where.l$i
	done
	validate
	build_refused "$(at 'name: l33' 'struct, fields: [{name: leaf')" \
	    "$where.type" 'nested deeper than 32 levels'
}

@test "schema: arrays and maps count toward the depth of 32 too" {
	local s='{type: string}' where=properties.stream.schema.grid.element i
	local line
	# grid, then 16 times an array of maps: the last map is the 33rd.
	for ((i = 0; i < 16; i++)); do
		s="{type: array, element: {type: map, key: {type: string, required: true}, value: $s}}"
	done
	add stream "- {name: grid, type: array, element: $s}"
	for ((i = 0; i < 15; i++)); do
		where=$where.element.value
	done
	line=$(line_of "$F" 'name: grid')
	validate
	build_refused "$line:$(rcol_of "$F" "$line" 'map, key')" \
	    "$where.element.type" 'nested deeper than 32 levels'
}

@test "schema: decimal precision 38 is accepted" {
	add stream '- {name: big, type: "decimal(38,10)"}'
	add expose '- {name: big, type: "decimal(38,10)"}'
	check
	ir
	assert_jq "$(output big) | .expr.type == \"decimal(38,10)\""
}

@test "schema: decimal precision 39 is refused" {
	add stream '- {name: big, type: "decimal(39,2)"}'
	validate
	build_refused "$(at 'name: big' '"decimal')" \
	    'properties.stream.schema.big.type' \
	    'decimal precision must be between 1 and 38'
}

@test "schema: timestamp precision 6 is accepted" {
	add stream '- {name: seen_at, type: timestamp(6)}'
	add stream '- {name: sent_at, type: timestamp_ltz(6)}'
	add expose '- {name: seen_at, type: timestamp(6)}'
	add expose '- {name: sent_at, type: timestamp_ltz}'
	check
	ir
	assert_jq "$(output seen_at) | .expr.type == \"timestamp(6)\""
	assert_jq "$(output sent_at) | .expr.type == \"timestamp_ltz(6)\""
}

@test "schema: timestamp precision 7 is refused" {
	add expose '- {name: seen_at, type: timestamp(7)}'
	validate
	refused "$(at 'name: seen_at' 'timestamp(7)')" \
	    'exposes[0].contract.schema.seen_at.type' \
	    'timestamp precision must be between 0 and 6'
}

@test "schema: an unknown type is refused with the list of types" {
	subst '{name: quantity, type: int}' '{name: quantity, type: integer}'
	validate
	refused "$(at 'type: integer' integer)" \
	    'exposes[0].contract.schema.quantity.type' \
	    "'integer' is not a FLUID type: unknown type"
}

# --- topic, value format, source and event time ---------------------------

@test "stream: one topic name is accepted" {
	subst 'topic: orders' 'topic: shop.orders-v2_eu'
	check
	ir
	assert_jq '.check.builds[0].stream.topic == "shop.orders-v2_eu"'
}

@test "stream: a list of topics is refused" {
	subst 'topic: orders' 'topic: [orders, returns]'
	validate
	build_refused "$(at 'topic: \[' '[')" 'properties.stream.topic' \
	    'one Kafka topic name: no list'
}

@test "stream: a topic pattern is refused" {
	subst 'topic: orders' 'topic: "orders-.*"'
	validate
	build_refused "$(at 'topic: "orders' '"')" 'properties.stream.topic' \
	    'one Kafka topic name: no pattern'
}

@test "stream: value format json is accepted" {
	check
	ir
	assert_jq '.check.builds[0].stream.format == "json"'
}

# The base contract's instants as timestamp(p), which avro-confluent
# reads as they are (no conversion: see the tests at the end).
avro_timestamps() {
	subst '{name: event_time, type: timestamp_ltz(3)}' \
	    '{name: event_time, type: timestamp(3)}'
	subst 'type: timestamp_ltz(3)
          # +stream' 'type: timestamp(3)
          # +stream'
}

@test "stream: value format avro-confluent with a registry is accepted" {
	subst 'format: json' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
	avro_timestamps
	check
	ir
	assert_jq '.check.builds[0].stream.format == "avro-confluent"'
	assert_jq '.check.builds[0].stream.source.schemaRegistryUrl ==
	    "https://registry.example.com"'
}

@test "stream: timestamp_ltz in a json stream is accepted, nested too" {
	add stream '- name: visits
  type: array
  element:
    type: struct
    fields:
      - {name: at, type: "timestamp_ltz(6)"}'
	check
	ir
	assert_jq '.check.builds[0].stream.format == "json"'
}

@test "stream: value format avro-confluent without a registry is refused" {
	subst 'format: json' 'format: avro-confluent'
	avro_timestamps
	validate
	build_refused "$(at 'bootstrapServers: kafka:9092' bootstrapServers)" \
	    'properties.parameters.flink.source.schemaRegistryUrl' 'is required'
}

@test "stream: another value format is refused" {
	subst 'format: json' 'format: protobuf'
	validate
	build_refused "$(at 'format: protobuf' protobuf)" \
	    'properties.stream.format' \
	    "'protobuf' is not supported: use json, avro-confluent, debezium-json or canal-json"
}

@test "stream: the source holds the connection only" {
	check
	ir
	assert_jq '.check.builds[0].stream.source == {"bootstrapServers":
	    "kafka:9092", "groupId": "shop-orders-v1",
	    "startupMode": "earliest-offset", "schemaRegistryUrl": null}'
}

@test "stream: topic, format or schema under parameters.flink.source is refused" {
	local key
	for key in topic format schema; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		add source "$key: misplaced"
		validate
		build_refused "$(at "$key: misplaced" misplaced)" \
		    "properties.parameters.flink.source.$key" \
		    "holds the connection only: declare $key in properties.stream$"
	done
}

@test "stream: a timestamp of precision 3 is the event time" {
	check
	ir
	assert_jq '.check.builds[0].stream.eventTime == {"column": "event_time",
	    "delaySeconds": 5}'
}

@test "stream: a timestamp of precision 0 and a delay of 0 are accepted" {
	add stream '- {name: sent_at, type: timestamp(0)}'
	subst 'column: event_time' 'column: sent_at'
	subst 'delaySeconds: 5' 'delaySeconds: 0'
	check
	ir
	assert_jq '.check.builds[0].stream.eventTime == {"column": "sent_at",
	    "delaySeconds": 0}'
}

@test "stream: an event-time column that does not exist is refused" {
	subst 'column: event_time' 'column: event_tme'
	validate
	build_refused "$(at 'column: event_tme' event_tme)" \
	    'properties.parameters.flink.eventTime.column' \
	    "'event_tme' is not a top-level column of properties.stream"
}

@test "stream: an event-time column that is no timestamp is refused" {
	subst 'column: event_time' 'column: quantity'
	validate
	build_refused "$(at 'column: quantity' quantity)" \
	    'properties.parameters.flink.eventTime.column' \
	    "'quantity' is int: event time needs a timestamp"
}

@test "stream: an event-time column finer than milliseconds is refused" {
	add stream '- {name: seen_at, type: timestamp_ltz(6)}'
	subst 'column: event_time' 'column: seen_at'
	validate
	build_refused "$(at 'column: seen_at' seen_at)" \
	    'properties.parameters.flink.eventTime.column' \
	    "'seen_at' is timestamp_ltz\(6\): .*precision 3 or less"
}

@test "stream: a watermark delay under 100 days is accepted" {
	subst 'delaySeconds: 5' 'delaySeconds: 8639999'
	check
	ir
	assert_jq '.check.builds[0].stream.eventTime.delaySeconds == 8639999'
}

@test "stream: a watermark delay of 100 days is refused" {
	subst 'delaySeconds: 5' 'delaySeconds: 8640000'
	validate
	build_refused "$(at 'delaySeconds: 8640000' 8640000)" \
	    'properties.parameters.flink.eventTime.delaySeconds' \
	    'must be less than 8640000 \(100 days\)'
}

@test "stream: a negative watermark delay is refused" {
	subst 'delaySeconds: 5' 'delaySeconds: -1'
	validate
	build_refused "$(at 'delaySeconds: -1' -1)" \
	    'properties.parameters.flink.eventTime.delaySeconds' \
	    'must not be negative'
}

# --- avro-confluent and timestamp_ltz ------------------------------------
# Flink 1.20's avro-confluent format has no Avro type for TIMESTAMP_LTZ:
# a column holding one is read as TIMESTAMP(p) (its "physical" type in
# the IR) and converted by fluid-sqlgen.

# avro: the base contract's value read with avro-confluent, with a registry.
avro() {
	subst 'format: json' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
}

# col NAME: a jq filter for the IR of stream column NAME.
col() {
	printf '.check.builds[0].stream.columns[] | select(.name == "%s")' "$1"
}

@test "avro ltz: the spec's timestamp_ltz(3) event time with avro-confluent is accepted" {
	avro
	validate
	accepted
}

@test "avro ltz: a top-level timestamp_ltz(3) keeps its type, is read as timestamp(3), stays the event time" {
	avro
	check
	ir
	assert_jq "$(col event_time) | .type == \"timestamp_ltz(3)\" and
	    .physical == {\"type\": \"timestamp(3)\", \"required\": false}"
	assert_jq '.check.builds[0].stream.eventTime.column == "event_time"'
	# What a mapping reads is the converted value, of the declared type.
	assert_jq "$(output event_time) | .expr.op == \"path\" and
	    .expr.root == \"event_time\""
}

@test "avro ltz: nested in a struct, an array's element and a map's value, read as timestamp" {
	avro
	add stream '- name: doc
  type: struct
  fields:
    - {name: id, type: string, required: true}
    - {name: at, type: "timestamp_ltz(3)"}
- name: visits
  type: array
  element:
    type: struct
    fields:
      - {name: at, type: "timestamp_ltz(0)", required: true}
- name: seen
  type: map
  key: {type: string, required: true}
  value: {type: "timestamp_ltz(3)"}'
	check
	ir
	assert_jq "$(col doc) | .fields[1].type == \"timestamp_ltz(3)\" and
	    .physical.fields == [{\"name\": \"id\", \"type\": \"string\",
	    \"required\": true}, {\"name\": \"at\", \"type\": \"timestamp(3)\",
	    \"required\": false}]"
	assert_jq "$(col visits) | .element.fields[0].type == \"timestamp_ltz(0)\"
	    and .physical.element.fields[0] == {\"name\": \"at\",
	    \"type\": \"timestamp(0)\", \"required\": true}"
	assert_jq "$(col seen) | .value.type == \"timestamp_ltz(3)\" and
	    .physical.value == {\"type\": \"timestamp(3)\", \"required\": false}
	    and .physical.key == {\"type\": \"string\", \"required\": true}"
}

@test "avro ltz: a column without timestamp_ltz has no physical type" {
	avro
	add stream '- {name: seen_at, type: timestamp(3)}'
	check
	ir
	assert_jq "[($(col seen_at)), ($(col quantity))] | length == 2 and
	    all(has(\"physical\") | not)"
	assert_jq "[.check.builds[0].stream.columns[] | select(has(\"physical\"))
	    | .name] == [\"event_time\"]"
}

@test "avro ltz: json reads timestamp_ltz as it is: no physical type" {
	check
	ir
	assert_jq "[.check.builds[0].stream.columns[] | select(has(\"physical\"))]
	    == []"
	assert_jq "$(col event_time) | .type == \"timestamp_ltz(3)\""
}

@test "avro ltz: the Kafka timestamp metadata is no Avro field: no physical type" {
	avro
	add metadata '- {name: kafka_ts, from: timestamp}'
	check
	ir
	assert_jq "$(col kafka_ts) | .type == \"timestamp_ltz(3)\" and
	    (has(\"physical\") | not)"
}

@test "avro ltz: without a registry the avro value is still refused" {
	subst 'format: json' 'format: avro-confluent'
	validate
	build_refused "$(at 'bootstrapServers: kafka:9092' bootstrapServers)" \
	    'properties.parameters.flink.source.schemaRegistryUrl' 'is required'
}

# Flink 1.20's Avro format refuses a TIMESTAMP finer than milliseconds
# when it derives the reader schema (the live lane found it).
@test "avro ltz: timestamp_ltz(6) nested in an avro element's struct is refused, at its type" {
	avro
	add stream '- name: visits
  type: array
  element:
    type: struct
    fields:
      - {name: at, type: "timestamp_ltz(6)"}'
	validate
	build_refused "$(at 'name: at, type: "timestamp_ltz' '"timestamp_ltz')" \
	    'properties.stream.schema.visits.element.fields.at.type' \
	    "timestamp_ltz\(6\) cannot be read with avro-confluent: Flink 1.20's Avro format reads timestamps of precision 3 or less \(Avro timestamp-millis\); declare timestamp_ltz\(3\)$"
}

@test "avro ltz: a timestamp(6) map value of an avro value is refused too" {
	avro
	add stream '- name: seen
  type: map
  key: {type: string, required: true}
  value: {type: "timestamp(6)"}'
	validate
	build_refused "$(at 'value: \{type: "timestamp\(6' '"timestamp')" \
	    'properties.stream.schema.seen.value.type' \
	    'declare timestamp\(3\)$'
}

@test "avro ltz: timestamp(6) in a json stream is accepted" {
	add stream '- {name: seen_at, type: timestamp(6)}'
	check
	ir
	assert_jq "$(col seen_at) | .type == \"timestamp(6)\""
}
