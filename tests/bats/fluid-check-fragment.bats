#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-fragment.bats - `fluid validate --fragment` ("Fragments" in
# the specification): a streamSource, a schema or a recordMapping kept in
# a file of its own is checked like the same value inside a contract.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

@test "check: the example fragments validate on their own" {
	cd "$EXAMPLES/shapes"
	tool validate --schema-version 0.7.7 --fragment streamSource \
	    fragments/streams/orders.yaml
	assert_status 0
	assert_no_stderr
	tool validate --schema-version 0.7.7 --fragment schema \
	    fragments/streams/orders.value.yaml
	assert_status 0
	assert_no_stderr
}

@test "fragment: a streamSource on its own is accepted" {
	mkfile s.yaml <<-'EOF'
	kind: kafka
	topic: orders
	format: json
	schema:
	  - {name: event_id, type: string, required: true}
	metadata:
	  - {name: kafka_offset, from: offset}
	EOF
	tool validate --schema-version 0.7.7 --fragment streamSource s.yaml
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "s.yaml: ok"
}

@test "fragment: a streamSource with a list of topics is refused" {
	mkfile s.yaml <<-'EOF'
	kind: kafka
	topic: [orders, returns]
	format: json
	schema:
	  - {name: event_id, type: string, required: true}
	EOF
	tool validate --schema-version 0.7.7 --fragment streamSource s.yaml
	assert_status 1
	assert_stderr_line '^s\.yaml:2:8: error: Managed Flink: topic: is one Kafka topic name: no list$'
}

@test "fragment: a schema on its own is refused where it is wrong" {
	mkfile v.yaml <<-'EOF'
	- {name: event_id, type: string, required: true}
	- {name: amount, type: "decimal(40,2)"}
	EOF
	tool validate --schema-version 0.7.7 --fragment schema v.yaml
	assert_status 1
	assert_stderr_line '^v\.yaml:2:24: error: Managed Flink: amount\.type: .*decimal precision must be between 1 and 38$'
}

@test "fragment: a recordMapping on its own is accepted" {
	mkfile m.yaml <<-'EOF'
	explode: {path: items, as: item}
	columns:
	  - {name: sku, from: item.sku}
	  - {name: order.channel, from: "attributes['channel']"}
	  - {name: trace_id, from: "kafka_headers['trace-id']", cast: string}
	EOF
	tool validate --schema-version 0.7.7 --fragment recordMapping m.yaml
	assert_status 0
	assert_no_stderr
}

@test "fragment: a recordMapping path of 64 steps is accepted, 65 refused" {
	local p=a i
	for ((i = 1; i < 64; i++)); do
		p=$p.a
	done
	printf 'columns:\n  - {name: x, from: %s}\n' "$p" >m.yaml
	tool validate --schema-version 0.7.7 --fragment recordMapping m.yaml
	assert_status 0
	printf 'columns:\n  - {name: x, from: %s.a}\n' "$p" >m.yaml
	tool validate --schema-version 0.7.7 --fragment recordMapping m.yaml
	assert_status 1
	assert_stderr_line "^m\\.yaml:2:$(col_of m.yaml 2 "$p"): error: Managed Flink: columns\\[0\\]\\.from: is not a path: path has more than 64 steps$"
}

@test "fragment: a recordMapping's bad paths are refused, never echoed" {
	mkfile m.yaml <<-'EOF'
	explode: {path: "items['x']", as: item}
	columns:
	  - {name: sku, from: "x']--"}
	  - {name: "a; DROP TABLE x", from: item.sku}
	EOF
	tool validate --schema-version 0.7.7 --fragment recordMapping m.yaml
	assert_status 1
	assert_equal "$output" "m.yaml: refused (3 errors)" "stdout"
	assert_equal "$stderr" "m.yaml:1:17: error: Managed Flink: explode.path: is a dotted name, without map keys
m.yaml:3:23: error: Managed Flink: columns[0].from: is not a path: unexpected character after a step
m.yaml:4:12: error: Managed Flink: columns[1].name: is not a path: unexpected character after a step"
}

@test "fragment: only schema version 0.7.7 has fragments" {
	mkfile v.yaml <<-'EOF'
	- {name: event_id, type: string}
	EOF
	tool validate --schema-version 0.7.6 --fragment schema v.yaml
	assert_status 1
	assert_match "$stderr" 'schema version 0\.7\.7'
}
