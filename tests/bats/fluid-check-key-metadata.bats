#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-key-metadata.bats - stream.key and stream.metadata ("The
# record key and Kafka metadata" in the specification): key formats and
# prefixes, key columns that are null for a record with no key, and the
# fixed types of the metadata columns.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

@test "stream: a raw key of one string column is accepted, never null" {
	add expose '- {name: order_key, type: string}'
	check
	ir
	assert_jq '.check.builds[0].stream.key | .format == "raw" and
	    .fields == ["order_key"] and .prefix == null'
	assert_jq '.check.builds[0].stream.columns[] |
	    select(.name == "order_key") | .origin == "key" and
	    .required == false'
}

@test "stream: a raw key of one binary column is accepted" {
	subst '{name: order_key, type: string}' '{name: order_key, type: binary}'
	check
	ir
	assert_jq '.check.builds[0].stream.columns[] |
	    select(.name == "order_key") | .type == "binary"'
}

@test "stream: a raw key of two columns is refused" {
	subst '- {name: order_key, type: string}' '- {name: order_key, type: string}
            - {name: region, type: string}'
	validate
	build_refused "$(at 'name: order_key, type: string' -)" \
	    'properties.stream.key.schema' \
	    'a raw key is exactly one string or binary column'
}

@test "stream: a raw key of an int column is refused" {
	subst '{name: order_key, type: string}' '{name: order_key, type: int}'
	validate
	build_refused "$(at 'name: order_key, type: int' -)" \
	    'properties.stream.key.schema' \
	    'a raw key is exactly one string or binary column'
}

@test "stream: a json key with a prefix may repeat a value field's name" {
	subst 'format: raw' 'format: json
          prefix: key_'
	subst '{name: order_key, type: string}' '{name: event_id, type: string}'
	add expose '- {name: key_event_id, type: string}'
	check
	ir
	assert_jq '.check.builds[0].stream.key == {"format": "json",
	    "prefix": "key_", "fields": ["key_event_id"]}'
	assert_jq "$(output key_event_id) | .expr.origin == \"key\""
}

@test "stream: a key prefix that cannot start an identifier is refused" {
	subst 'format: raw' 'format: raw
          prefix: key-'
	validate
	build_refused "$(at 'prefix: key-' key-)" 'properties.stream.key.prefix' \
	    'must be the start of a plain SQL identifier'
}

@test "stream: a key field that repeats a value field needs a prefix" {
	subst 'format: raw' 'format: json'
	subst '{name: order_key, type: string}' '{name: event_id, type: string}'
	validate
	build_refused "$(at 'name: event_id, type: string}$' '{')" \
	    'properties.stream.key.schema.event_id' \
	    "column 'event_id' is already a value column; set properties.stream.key.prefix"
}

@test "stream: an avro-confluent key with a registry is accepted" {
	subst 'format: raw' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
	check
	ir
	assert_jq '.check.builds[0].stream.key.format == "avro-confluent"'
}

@test "stream: an avro-confluent key reads a timestamp_ltz column as timestamp" {
	subst 'format: raw' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
	subst '- {name: order_key, type: string}' \
	    '- {name: order_key, type: string}
            - {name: order_at, type: timestamp_ltz(3)}'
	check
	ir
	# The key's column is converted; the json value's are read as they are.
	assert_jq '[.check.builds[0].stream.columns[] | select(has("physical"))
	    | [.name, .type, .physical]] == [["order_at", "timestamp_ltz(3)",
	    {"type": "timestamp(3)", "required": false}]]'
}

@test "stream: an avro-confluent key without a registry is refused" {
	subst 'format: raw' 'format: avro-confluent'
	validate
	build_refused "$(at 'bootstrapServers: kafka:9092' bootstrapServers)" \
	    'properties.parameters.flink.source.schemaRegistryUrl' 'is required'
}

@test "stream: another key format is refused" {
	subst 'format: raw' 'format: csv'
	validate
	build_refused "$(at 'format: csv' csv)" 'properties.stream.key.format' \
	    "'csv' is not supported: use raw, json or avro-confluent"
}

@test "stream: the Kafka metadata columns have their fixed types" {
	add metadata '- {name: m_topic, from: topic}
- {name: m_partition, from: partition}
- {name: m_timestamp, from: timestamp}
- {name: m_timestamp_type, from: timestamp-type}
- {name: m_epoch, from: leader-epoch}'
	check
	ir
	assert_jq '[.check.builds[0].stream.columns[] |
	    select(.origin == "metadata") | {name, from, type, required}] == [
	    {"name": "kafka_offset", "from": "offset", "type": "long",
	     "required": true},
	    {"name": "kafka_headers", "from": "headers", "type": "map",
	     "required": true},
	    {"name": "m_topic", "from": "topic", "type": "string",
	     "required": true},
	    {"name": "m_partition", "from": "partition", "type": "int",
	     "required": true},
	    {"name": "m_timestamp", "from": "timestamp",
	     "type": "timestamp_ltz(3)", "required": true},
	    {"name": "m_timestamp_type", "from": "timestamp-type",
	     "type": "string", "required": true},
	    {"name": "m_epoch", "from": "leader-epoch", "type": "int",
	     "required": false}]'
	assert_jq '.check.builds[0].stream.columns[] |
	    select(.name == "kafka_headers") | .key.type == "string" and
	    .value == {"type": "binary", "required": false}'
}

@test "stream: a metadata source Kafka does not have is refused" {
	add metadata '- {name: m_key, from: key}'
	validate
	build_refused "$(at 'name: m_key, from: key' 'key}')" \
	    'properties.stream.metadata[2].from' "'key' is not supported: use topic"
}

@test "stream: a metadata column's type is fixed, not declared" {
	add metadata '- {name: m_topic, from: topic, type: binary}'
	validate
	build_refused "$(at 'name: m_topic' binary)" \
	    'properties.stream.metadata[2].type' "unknown key 'type'"
}

@test "stream: an output narrower than a metadata column's type is refused" {
	subst '{name: kafka_offset, type: long, required: true}' \
	    '{name: kafka_offset, type: int, required: true}'
	validate
	refused "$(column kafka_offset)" \
	    'exposes[0].contract.schema.kafka_offset' \
	    'the source is long and the output int'
}

@test "stream: leader-epoch may be null, so it cannot feed a required output" {
	add metadata '- {name: m_epoch, from: leader-epoch}'
	add expose '- {name: m_epoch, type: int, required: true}'
	validate
	refused "$(column m_epoch)" \
	    'exposes[0].contract.schema.m_epoch' \
	    'm_epoch is required, but its source can be null'
}

@test "stream: a metadata timestamp can be the event time" {
	add metadata '- {name: kafka_timestamp, from: timestamp}'
	subst 'column: event_time' 'column: kafka_timestamp'
	check
	ir
	assert_jq '.check.builds[0].stream.eventTime.column == "kafka_timestamp"'
}

@test "nullability: a key column is null for a record with no key" {
	subst '{name: order_key, type: string}' \
	    '{name: order_key, type: string, required: true}'
	add expose '- {name: order_key, type: string, required: true}'
	validate
	refused "$(column order_key)" 'exposes[0].contract.schema.order_key' \
	    'order_key is a key column, null for a record with no key'
}
