#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-diagnostics.bats - how fluid-check and `fluid validate`
# report: one error per mistake, each with its line, column, build and
# contract path, as text or JSON lines, and never echoing what may be
# SQL or a control character.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

# Ten mistakes, none of which hides or causes another, on ten lines.
ten_mistakes() {
	subst 'topic: orders' 'topic: [orders, returns]'
	subst 'key: {type: string, required: true}' 'key: {type: string}'
	subst '          - name: quantity
            type: int' '          - name: quantity
            type: decimal(39,0)'
	subst 'delaySeconds: 5' 'delaySeconds: -5'
	add source 'format: avro'
	subst 'from: customer.address.country}' 'from: customer.adress.country}'
	subst '{column: country, transform: identity}' \
	    '{column: country, transform: month}'
	add catalogProperties 'client.region: "env:REGION"'
	subst 'haUri: s3://flink-state/shop-orders/ha' \
	    'haUri: s3://flink-state/shop-orders/savepoints/ha'
	subst '{name: customer_id, type: string}' \
	    '{name: customer_id, type: string, required: true}'
}

@test "diagnostics: ten independent mistakes are ten errors on ten lines" {
	local lines
	ten_mistakes
	validate
	assert_status 1
	refused_stdout
	[ "$(errors | wc -l)" -eq 10 ] || fail "want ten errors" "$(show)"
	[ "${#stderr_lines[@]}" -eq 10 ] || fail "want nothing else" "$(show)"
	lines=$(errors | cut -d: -f2 | sort -un | wc -l)
	[ "$lines" -eq 10 ] || fail "want ten lines, got $lines" "$(show)"
	# Each at the line its mistake is on.
	for pos in "$(at 'topic: \[' '[')" "$(at 'key: \{type: string\}' '{')" \
	    "$(at 'decimal\(39' decimal)" "$(at 'delaySeconds' -5)" \
	    "$(at 'format: avro' avro)" \
	    "$(at customer.adress customer.adress)" "$(at 'transform: month' month)" \
	    "$(at 'client.region' '"')" "$(at 'savepoints/ha' s3)" \
	    "$(at 'from: customer.id' customer.id)"; do
		[[ $stderr == *"$F:$pos: error: Managed Flink: "* ]] ||
		    fail "no error at $pos" "$(show)"
	done
}

@test "diagnostics: every refusal names the build and the contract path" {
	ten_mistakes
	validate
	assert_status 1
	local e re
	re="^$F:[0-9]+:[0-9]+: error: Managed Flink: "
	re+='(Flink build ingest-orders: properties|exposes\[0\])'
	re+='[]a-zA-Z0-9_.[-]*: '
	while IFS= read -r e; do
		[[ $e =~ $re ]] || fail "no build or contract path in: $e"
	done < <(errors)
}

@test "diagnostics: --diagnostics=json gives the same as JSON lines" {
	local text
	ten_mistakes
	validate
	text=$(errors)
	validate --diagnostics=json
	assert_status 1
	refused_stdout
	[ "${#stderr_lines[@]}" -eq 10 ] || fail "want ten lines" "$(show)"
	local l
	for l in "${stderr_lines[@]}"; do
		jq -e 'type == "object" and .level == "error" and
		    .file == "c.fluid.yaml" and (.line | type) == "number" and
		    (.column | type) == "number" and (.message | type) ==
		    "string" and (.pointer | startswith("/"))' <<<"$l" \
		    >/dev/null || fail "not a diagnostic: $l"
	done
	assert_equal "$(jq -r '"\(.file):\(.line):\(.column): \(.level): \(.message)"' \
	    <<<"$stderr")" "$text" "the JSON diagnostics"
}

@test "diagnostics: fluid-check on fluid-resolve's output says the same" {
	local text
	ten_mistakes
	validate
	text=$stderr
	check
	assert_status 1
	assert_no_stdout
	assert_equal "$stderr" "$text" "fluid-check's diagnostics"
}

@test "diagnostics: fluid-check --diagnostics=json gives JSON lines" {
	subst 'topic: orders' 'topic: [orders, returns]'
	check --diagnostics=json
	assert_status 1
	assert_equal "$(jq -c '[.level, .file, .line, .column]' <<<"$stderr")" \
	    "[\"error\",\"c.fluid.yaml\",$(at 'topic: \[' '[' | tr : ,)]"
	jq -e '.message == "Managed Flink: Flink build ingest-orders: properties.stream.topic: is one Kafka topic name: no list"' <<<"$stderr" >/dev/null ||
	    fail "wrong message" "$(show)"
}

@test "diagnostics: a refused column is reported once, not where it is used" {
	subst '          - name: customer
            type: struct' '          - name: customer
            type: strukt'
	validate
	build_refused "$(at 'type: strukt' strukt)" \
	    'properties.stream.schema.customer.type' "'strukt' is not a FLUID type"
}

@test "diagnostics: a refused entry is not reported again by name" {
	subst 'from: customer.id}' 'from: customer.id, cast: int}'
	validate
	build_refused "$(at 'cast: int' int)" 'properties.mapping.columns[0].cast' \
	    'only cast: string is supported'
}

@test "diagnostics: a refused explode is not reported again where used" {
	subst '        columns:' '        explode: {path: attributes, as: item}
        columns:'
	add expose '- {name: sku, type: string}'
	add columns '- {name: sku, from: item.sku}'
	validate
	build_refused "$(at 'explode: \{' attributes)" \
	    'properties.mapping.explode.path' 'attributes is a map'
}

@test "diagnostics: an event-time column that is SQL is not echoed" {
	subst 'column: event_time' "column: \"x'; DROP TABLE t; --\""
	validate
	build_refused "$(at 'DROP TABLE' '"')" \
	    'properties.parameters.flink.eventTime.column' \
	    '^must name a top-level column of properties.stream'
	[[ $stderr != *DROP* ]] || fail "the column is echoed" "$(show)"
}

@test "diagnostics: a partition column that is SQL is not echoed" {
	add partitionSpec "- {column: \"country') --\", transform: identity}"
	validate
	refused "$(at "country'\\)" '"')" \
	    'exposes[0].binding.icebergConfig.partitionSpec[1].column' \
	    '^must name a top-level column of contract.schema'
	[[ $stderr != *"')"* ]] || fail "the column is echoed" "$(show)"
}

@test "diagnostics: a control character in a key is never printed" {
	add source '"group\u001b[31mId": x'
	validate
	# An unknown key is placed at its value.
	build_refused "$(at 'group.u001b' x)" \
	    'properties.parameters.flink.source.group?[31mId' '^unknown key$'
	[[ $stderr != *$'\e'* ]] || fail "an escape is printed" "$(show)"
}
