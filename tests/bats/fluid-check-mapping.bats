#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-mapping.bats - reading output columns from the stream
# ("Record shapes" in the specification): by name or through
# properties.mapping (paths, map entries, explode, structs built field
# by field), the widenings and the one cast, and how the static check
# decides nullability.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

# --- binding, paths, explode, conversions ---------------------------------

@test "mapping: an output with no entry is read from the same name" {
	no_mapping
	check
	ir
	assert_jq '[.check.builds[0].outputs[].expr.root] == ["event_id",
	    "quantity", "amount", "event_time", "kafka_offset"]'
}

@test "mapping: an output that is not a stream column needs an entry" {
	add expose '- {name: channel, type: string}'
	validate
	refused "$(column channel)" 'exposes[0].contract.schema.channel' \
	    '^channel is not a column of properties.stream; map channel in properties.mapping.columns$'
}

@test "mapping: a column entry lifts a nested field" {
	check
	ir
	assert_jq "$(output country) | .expr.root == \"customer\" and
	    .expr.steps == [{\"field\": \"address\"}, {\"field\": \"country\"}]"
}

@test "mapping: a misspelt field is refused with what it may have meant" {
	subst 'from: customer.address.country}' 'from: customer.adress.country}'
	validate
	build_refused "$(at 'customer.adress' customer.adress)" \
	    'properties.mapping.columns[1].from' \
	    "^customer has no field adress \(did you mean 'address'\?\)$"
}

@test "mapping: a path from a column the stream lacks is refused" {
	subst 'from: customer.id}' 'from: client.id}'
	validate
	build_refused "$(at 'from: client.id' client.id)" \
	    'properties.mapping.columns[0].from' \
	    'client is not a column of properties.stream'
}

@test "mapping: an entry for a column the expose lacks is refused" {
	add columns '- {name: region, from: customer.address.city}'
	validate
	build_refused "$(at 'name: region' region)" \
	    'properties.mapping.columns[2].name' \
	    'region is not a column of exposes\[0\]\.contract\.schema'
}

@test "mapping: an output mapped twice is refused" {
	add columns '- {name: country, from: customer.address.city}'
	validate
	build_refused "$(at 'name: country, from: customer.address.city' \
	    'country,')" 'properties.mapping.columns[2].name' \
	    'country is mapped twice'
}

@test "mapping: a dotted name builds a struct, the rest read from its path" {
	add expose '- name: customer
  type: struct
  fields:
    - {name: id, type: string}
    - {name: tier, type: string}
    - name: address
      type: struct
      fields:
        - {name: country, type: string}'
	add columns "- {name: customer.tier, from: \"attributes['tier']\"}"
	check
	ir
	assert_jq "$(output customer) | .expr.op == \"struct\" and
	    .expr.nullIf == null and
	    ([.expr.fields[].name] == [\"id\", \"tier\", \"address\"])"
	assert_jq "$(output customer) | .expr.fields[0].expr.root ==
	    \"customer\" and .expr.fields[0].expr.steps == [{\"field\": \"id\"}]"
	assert_jq "$(output customer) | .expr.fields[1].expr.root ==
	    \"attributes\" and .expr.fields[1].expr.steps == [{\"key\": \"tier\"}]"
}

@test "mapping: a struct built field by field from top-level columns" {
	add expose '- name: order
  type: struct
  required: true
  fields:
    - {name: id, type: string, required: true}
    - {name: offset, type: long, required: true}'
	add columns '- {name: order.id, from: event_id}
- {name: order.offset, from: kafka_offset}'
	check
	ir
	assert_jq "$(output order) | .required and .expr.op == \"struct\" and
	    .expr.nullable == false"
}

@test "mapping: a field of a built struct with no source is refused" {
	add expose '- name: order
  type: struct
  fields:
    - {name: id, type: string}
    - {name: note, type: string}'
	add columns '- {name: order.id, from: event_id}'
	validate
	refused "$(column order)" \
	    'exposes[0].contract.schema.order' \
	    '^order.note is not a column of properties.stream; map order.note in properties.mapping.columns$'
}

@test "mapping: a whole column and one of its fields mapped together are refused" {
	add expose '- name: order
  type: struct
  fields:
    - {name: id, type: string}'
	add columns '- {name: order, from: customer}
- {name: order.id, from: event_id}'
	validate
	build_refused "$(at 'name: order, from: customer' 'order,')" \
	    'properties.mapping.columns[2].name' \
	    'order is mapped whole, so its fields cannot be mapped too'
}

@test "mapping: a map entry is read with ['key'], and may be null" {
	add expose '- {name: channel, type: string}'
	add columns "- {name: channel, from: \"attributes['channel']\"}"
	check
	ir
	assert_jq "$(output channel) | .expr.root == \"attributes\" and
	    .expr.steps == [{\"key\": \"channel\"}] and .expr.nullable"
}

@test "mapping: a key with a quote in it is read with ''" {
	add expose '- {name: channel, type: string}'
	add columns "- {name: channel, from: \"attributes['it''s']\"}"
	check
	ir
	assert_jq "$(output channel) | .expr.steps == [{\"key\": \"it's\"}]"
}

@test "mapping: a ['key'] on what is not a map is refused" {
	add expose '- {name: channel, type: string}'
	add columns "- {name: channel, from: \"customer['channel']\"}"
	validate
	build_refused "$(at "customer\['channel" '"')" \
	    'properties.mapping.columns[2].from' \
	    "customer is not a map, so it has no \['...'\] entries"
}

@test "mapping: a path of 64 steps parses" {
	local p=customer i
	for ((i = 1; i < 64; i++)); do
		p=$p.a
	done
	subst 'from: customer.id}' "from: $p}"
	validate
	# It parses, so it is typed: the error is the missing field.
	build_refused "$(at "from: $p" "$p")" \
	    'properties.mapping.columns[0].from' '^customer has no field a$'
}

@test "mapping: a path of 65 steps is refused without being echoed" {
	local p=customer i
	for ((i = 1; i < 65; i++)); do
		p=$p.a
	done
	subst 'from: customer.id}' "from: $p}"
	validate
	build_refused "$(at "from: $p" "$p")" \
	    'properties.mapping.columns[0].from' \
	    '^is not a path: path has more than 64 steps$'
	[[ $stderr != *customer.a.a* ]] || fail "the path is echoed" "$(show)"
}

@test "mapping: a path that is SQL is refused and never echoed" {
	subst 'from: customer.id}' 'from: "a; DROP TABLE x"}'
	validate
	build_refused "$(at 'DROP TABLE' '"a;')" \
	    'properties.mapping.columns[0].from' '^is not a path: '
	[[ $stderr != *DROP* ]] || fail "the path is echoed" "$(show)"
}

@test "mapping: a path that closes a quote is refused and never echoed" {
	subst 'from: customer.id}' "from: \"x']--\"}"
	validate
	build_refused "$(at "x'\]--" '"x')" \
	    'properties.mapping.columns[0].from' '^is not a path: '
	[[ $stderr != *"x']"* && $stderr != *--* ]] ||
	    fail "the path is echoed" "$(show)"
}

@test "mapping: an output name that is SQL is refused and never echoed" {
	add columns "- {name: \"x'] OR 1=1 --\", from: event_id}"
	validate
	build_refused "$(at 'OR 1=1' '"x')" \
	    'properties.mapping.columns[2].name' \
	    '^is not an output column name: '
	[[ $stderr != *"OR 1=1"* ]] || fail "the name is echoed" "$(show)"
}

@test "mapping: an explode reads the element's fields, one row each" {
	explode
	add expose '- {name: sku, type: string}
- {name: price, type: "decimal(18,2)"}'
	add columns '- {name: sku, from: item.sku}
- {name: price, from: item.price}'
	check
	ir
	assert_jq '.check.builds[0].explode | .as == "item" and
	    .path.root == "items" and .element.type == "struct"'
	assert_jq "$(output sku) | .expr.origin == \"element\" and
	    .expr.root == \"item\" and .expr.steps == [{\"field\": \"sku\"}] and
	    .expr.nullable"
}

@test "mapping: an explode of a scalar array reads the element itself" {
	add stream '- {name: tags, type: array, element: {type: string}}'
	explode tags
	add expose '- {name: tag, type: string}'
	add columns '- {name: tag, from: item}'
	check
	ir
	assert_jq "$(output tag) | .expr.root == \"item\" and .expr.steps == []"
}

@test "mapping: an explode of a map is refused" {
	explode attributes
	validate
	build_refused "$(at 'explode: \{' 'attributes')" \
	    'properties.mapping.explode.path' \
	    'attributes is a map: exploding a map is not supported'
}

@test "mapping: a second explode is refused" {
	subst '        columns:' '        explode: [{path: items, as: item}, {path: items, as: other}]
        columns:'
	validate
	build_refused "$(at 'explode: \[' '[')" 'properties.mapping.explode' \
	    'one explode per build'
}

@test "mapping: an explode of what is not an array is refused" {
	explode customer
	validate
	build_refused "$(at 'explode: \{' 'customer')" \
	    'properties.mapping.explode.path' 'customer is not an array'
}

# One mistake, one error: the mapping's reads of a refused explode's
# name are not reported again as "is not a column".
@test "mapping: a refused explode is one error, its element's reads no echo" {
	local ex
	for ex in '{path: customer, as: item}' '{path: nope, as: item}' \
	    '[{path: items, as: item}, {path: items, as: other}]' \
	    '{path: items}' '{path: items, as: "it-em"}'; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		subst '        columns:' "        explode: $ex
        columns:"
		add expose '- {name: sku, type: string}'
		add columns '- {name: sku, from: item.sku}'
		validate
		assert_status 1
		[ "$(errors | wc -l)" -eq 1 ] ||
		    fail "explode $ex: want one error" "$(show)"
		assert_match "$(errors)" "^$F:$(line_of "$F" 'explode: '):[0-9]+: error: Managed Flink: Flink build ingest-orders: properties\.mapping\.explode"
	done
}

@test "mapping: an explode named like a stream column is one error, its reads no echo" {
	subst '        columns:' '        explode: {path: items, as: amount}
        columns:'
	add expose '- {name: sku, type: string}'
	add columns '- {name: sku, from: amount.sku}'
	validate
	build_refused "$(at 'explode: \{' 'amount')" \
	    'properties.mapping.explode.as' \
	    'amount is already a column of properties.stream'
}

@test "mapping: a read of an unknown column is still reported beside an accepted explode" {
	explode
	add expose '- {name: sku, type: string}'
	add columns '- {name: sku, from: itme.sku}'
	validate
	build_refused "$(at 'name: sku, from' 'itme')" \
	    'properties.mapping.columns[2].from' \
	    "itme is not a column of properties.stream"
}

@test "mapping: an explode named like a stream column is refused" {
	subst '        columns:' '        explode: {path: items, as: amount}
        columns:'
	validate
	build_refused "$(at 'explode: \{' 'amount')" \
	    'properties.mapping.explode.as' \
	    'amount is already a column of properties.stream'
}

@test "mapping: a field of an array read without an explode is refused" {
	add expose '- {name: sku, type: string}'
	add columns '- {name: sku, from: items.sku}'
	validate
	build_refused "$(at 'from: items.sku' items.sku)" \
	    'properties.mapping.columns[2].from' \
	    'items is an array: explode it in properties.mapping.explode'
}

@test "mapping: the exploded element kept nested is accepted" {
	explode
	add expose '- name: item
  type: struct
  fields:
    - {name: price, type: "decimal(18,2)"}
    - {name: sku, type: string}'
	check
	ir
	assert_jq "$(output item) | .expr.op == \"struct\" and
	    .expr.nullIf.root == \"item\" and .expr.nullable and
	    ([.expr.fields[].name] == [\"price\", \"sku\"])"
}

@test "mapping: the exploded element kept nested is no other type" {
	explode
	add expose '- {name: item, type: string}'
	validate
	refused "$(column item)" \
	    'exposes[0].contract.schema.item' \
	    'the source is struct and the output string'
}

@test "mapping: cast: string reads binary as text" {
	add expose '- {name: trace_id, type: string}'
	add columns "- {name: trace_id, from: \"kafka_headers['trace-id']\", cast: string}"
	check
	ir
	assert_jq "$(output trace_id) | .expr.op == \"cast\" and
	    .expr.type == \"string\" and .expr.arg.type == \"binary\""
}

@test "mapping: cast: string of a column that is not binary is refused" {
	add columns '- {name: quantity, from: event_id, cast: string}'
	validate
	build_refused "$(at 'name: quantity, from' 'event_id')" \
	    'properties.mapping.columns[2].from' \
	    '^quantity: cast: string reads binary as UTF-8 text, and this path is string$'
}

@test "mapping: binary into a string without cast: string is refused" {
	add stream '- {name: payload, type: binary}'
	add expose '- {name: payload, type: string}'
	validate
	refused "$(column payload)" \
	    'exposes[0].contract.schema.payload' \
	    'the source is binary and the output a string; read it as text with cast: string'
}

@test "mapping: a cast other than string is refused" {
	add columns '- {name: quantity, from: quantity, cast: long}'
	validate
	build_refused "$(at 'cast: long' long)" \
	    'properties.mapping.columns[2].cast' 'only cast: string is supported'
}

@test "mapping: int to long is a widening" {
	subst '{name: quantity, type: int}' '{name: quantity, type: long}'
	check
	ir
	assert_jq "$(output quantity) | .expr.op == \"widen\" and
	    .expr.type == \"long\" and .expr.arg.type == \"int\""
}

@test "mapping: float to double is a widening" {
	add stream '- {name: ratio, type: float}'
	add expose '- {name: ratio, type: double}'
	check
	ir
	assert_jq "$(output ratio) | .expr.op == \"widen\" and
	    .expr.type == \"double\""
}

@test "mapping: more decimal precision at the same scale is a widening" {
	subst '{name: amount, type: "decimal(18,2)"}' \
	    '{name: amount, type: "decimal(30,2)"}'
	check
	ir
	assert_jq "$(output amount) | .expr.op == \"widen\" and
	    .expr.type == \"decimal(30,2)\" and .expr.arg.type == \"decimal(18,2)\""
}

@test "mapping: a finer timestamp is a widening" {
	subst '{name: event_time, type: timestamp_ltz(3)}' \
	    '{name: event_time, type: timestamp_ltz(6)}'
	check
	ir
	assert_jq "$(output event_time) | .expr.op == \"widen\" and
	    .expr.type == \"timestamp_ltz(6)\""
}

@test "mapping: a widening in a struct's field is accepted" {
	add stream '- name: totals
  type: struct
  fields:
    - {name: count, type: int}
    - {name: sum, type: "decimal(10,2)"}'
	add expose '- name: totals
  type: struct
  fields:
    - {name: sum, type: "decimal(12,2)"}
    - {name: count, type: long}'
	check
	ir
	assert_jq "$(output totals) | .expr.op == \"struct\" and
	    .expr.fields[0].expr.op == \"widen\" and
	    .expr.fields[1].expr.op == \"widen\" and
	    .expr.fields[1].expr.arg.steps == [{\"field\": \"count\"}]"
}

@test "mapping: a widening inside an array is refused" {
	add expose '- name: items
  type: array
  element:
    type: struct
    fields:
      - {name: sku, type: string}
      - {name: price, type: "decimal(20,2)"}'
	validate
	refused "$(column items)" 'exposes[0].contract.schema.items' \
	    'arrays and maps are copied as they are.*; items\[\]\.price is decimal\(18,2\) in the source and decimal\(20,2\) in the output$'
}

@test "mapping: a widening inside a map is refused" {
	add stream '- {name: counts, type: map, key: {type: string, required: true}, value: {type: int}}'
	add expose '- {name: counts, type: map, key: {type: string, required: true}, value: {type: long}}'
	validate
	refused "$(at 'value: \{type: long' '{')" \
	    'exposes[0].contract.schema.counts' \
	    "arrays and maps are copied as they are: .* no widening.*; counts\\['\\.\\.\\.'\\] is int in the source and long in the output$"
}

@test "mapping: a required field inside an array the source may leave null is named" {
	add expose '- name: items
  type: array
  element:
    type: struct
    fields:
      - {name: sku, type: string, required: true}
      - {name: price, type: "decimal(18,2)"}'
	validate
	refused "$(column items)" 'exposes[0].contract.schema.items' \
	    '; items\[\]\.sku can be null in the source but is required in the output$'
}

@test "mapping: fields inside an array in another order are named" {
	add expose '- name: items
  type: array
  element:
    type: struct
    fields:
      - {name: price, type: "decimal(18,2)"}
      - {name: sku, type: string}'
	validate
	refused "$(column items)" 'exposes[0].contract.schema.items' \
	    '; field 1 of items\[\] is sku in the source and price in the output$'
}

@test "mapping: an array copied as it is, is accepted" {
	add expose '- name: items
  type: array
  element:
    type: struct
    fields:
      - {name: sku, type: string}
      - {name: price, type: "decimal(18,2)"}'
	check
	ir
	assert_jq "$(output items) | .expr.op == \"path\" and
	    .expr.type == \"array\""
}

@test "mapping: long to int is refused" {
	subst '{name: kafka_offset, type: long, required: true}' \
	    '{name: kafka_offset, type: int, required: true}'
	validate
	refused "$(column kafka_offset)" \
	    'exposes[0].contract.schema.kafka_offset' \
	    'the source is long and the output int; only widenings'
}

@test "mapping: int to double is refused" {
	subst '{name: quantity, type: int}' '{name: quantity, type: double}'
	validate
	refused "$(column quantity)" 'exposes[0].contract.schema.quantity' \
	    'the source is int and the output double'
}

@test "mapping: a decimal of another scale is refused" {
	subst '{name: amount, type: "decimal(18,2)"}' \
	    '{name: amount, type: "decimal(20,4)"}'
	validate
	refused "$(column amount)" 'exposes[0].contract.schema.amount' \
	    'the source is decimal\(18,2\) and the output decimal\(20,4\)'
}

@test "mapping: a decimal of less precision is refused" {
	subst '{name: amount, type: "decimal(18,2)"}' \
	    '{name: amount, type: "decimal(10,2)"}'
	validate
	refused "$(column amount)" 'exposes[0].contract.schema.amount' \
	    'the source is decimal\(18,2\) and the output decimal\(10,2\)'
}

@test "mapping: a coarser timestamp is refused" {
	subst '{name: event_time, type: timestamp_ltz(3)}' \
	    '{name: event_time, type: timestamp_ltz(0)}'
	validate
	refused "$(column event_time)" \
	    'exposes[0].contract.schema.event_time' \
	    'the source is timestamp_ltz\(3\) and the output timestamp_ltz\(0\)'
}

@test "mapping: an instant into a timestamp without time zone is refused" {
	subst '{name: event_time, type: timestamp_ltz(3)}' \
	    '{name: event_time, type: timestamp(3)}'
	validate
	refused "$(column event_time)" \
	    'exposes[0].contract.schema.event_time' \
	    'the source is timestamp_ltz\(3\) and the output timestamp\(3\)'
}

@test "mapping: a conversion refused on an entry names the output column" {
	add expose '- {name: total, type: int}'
	add columns '- {name: total, from: customer.address.city}'
	validate
	build_refused "$(at 'name: total, from' 'customer')" \
	    'properties.mapping.columns[2].from' \
	    '^total: the source is string and the output int'
}

@test "mapping: a string into an int is refused, also through an entry" {
	add columns '- {name: quantity, from: event_id}'
	validate
	build_refused "$(at 'name: quantity, from: event_id' event_id)" \
	    'properties.mapping.columns[2].from' \
	    'quantity: the source is string and the output int'
}

@test "mapping: a struct field the source struct lacks is refused" {
	add expose '- name: customer
  type: struct
  fields:
    - {name: id, type: string}
    - {name: tier, type: string}'
	validate
	refused "$(column customer)" \
	    'exposes[0].contract.schema.customer' \
	    '^customer.tier: the source struct has no field tier$'
}

@test "mapping: struct fields bind by name, whatever their order" {
	add expose '- name: customer
  type: struct
  fields:
    - name: address
      type: struct
      fields:
        - {name: country, type: string}
        - {name: city, type: string}
    - {name: id, type: string}'
	check
	ir
	assert_jq "$(output customer) | [.expr.fields[].name] ==
	    [\"address\", \"id\"] and
	    .expr.fields[0].expr.fields[1].expr.steps ==
	    [{\"field\": \"address\"}, {\"field\": \"city\"}]"
}

@test "mapping: the first 100 unknown names get a suggestion, the rest none" {
	local i cols= maps=
	for i in $(seq 110); do
		cols+="- {name: x$i, type: string}"$'\n'
		maps+="- {name: x$i, from: amountz}"$'\n'
	done
	add expose "${cols%$'\n'}"
	add columns "${maps%$'\n'}"
	validate
	assert_status 1
	assert_equal "$(errors | grep -c 'amountz is not a column of properties.stream')" 110 \
	    "errors for amountz"
	assert_equal "$(errors | grep -c "(did you mean 'amount'?)")" 100 \
	    "errors with a suggestion"
}

# --- nullability ----------------------------------------------------------

@test "nullability: a required output from a nullable parent struct is refused" {
	subst '{name: customer_id, type: string}' \
	    '{name: customer_id, type: string, required: true}'
	validate
	build_refused "$(at 'from: customer.id' customer.id)" \
	    'properties.mapping.columns[0].from' \
	    '^customer_id is required, but its source can be null \(customer can be null\)$'
}

@test "nullability: a required output from required fields is accepted" {
	subst '          - name: customer
            type: struct' '          - name: customer
            type: struct
            required: true'
	subst '              - name: id
                type: string' '              - name: id
                type: string
                required: true'
	subst '{name: customer_id, type: string}' \
	    '{name: customer_id, type: string, required: true}'
	check
	ir
	assert_jq "$(output customer_id) | .required and
	    .expr.nullable == false"
}

@test "nullability: a required output from a map lookup is refused" {
	subst '            type: map' '            type: map
            required: true'
	add expose '- {name: channel, type: string, required: true}'
	add columns "- {name: channel, from: \"attributes['channel']\"}"
	validate
	build_refused "$(at "attributes\['channel" '"')" \
	    'properties.mapping.columns[2].from' \
	    "channel is required, but its source can be null \(attributes\['...'\] is a map lookup, null when the key is missing\)"
}

@test "nullability: a required output from a nullable element is refused" {
	subst '                - name: sku
                  type: string' '                - name: sku
                  type: string
                  required: true'
	explode
	add expose '- {name: sku, type: string, required: true}'
	add columns '- {name: sku, from: item.sku}'
	validate
	build_refused "$(at 'from: item.sku' item.sku)" \
	    'properties.mapping.columns[2].from' \
	    'sku is required, but its source can be null \(item, the exploded element, can be null\)'
}

@test "nullability: a required output from a required element is accepted" {
	subst '            element:
              type: struct' '            element:
              type: struct
              required: true'
	subst '                - name: sku
                  type: string' '                - name: sku
                  type: string
                  required: true'
	explode
	add expose '- {name: sku, type: string, required: true}'
	add columns '- {name: sku, from: item.sku}'
	check
	ir
	# The array itself may be null: an explode drops such a record.
	assert_jq "$(output sku) | .required and .expr.nullable == false"
}

@test "nullability: a struct from a nullable struct keeps its required fields" {
	subst '              - name: id
                type: string' '              - name: id
                type: string
                required: true'
	add expose '- name: customer
  type: struct
  fields:
    - {name: id, type: string, required: true}'
	check
	ir
	assert_jq "$(output customer) | .required == false and
	    .expr.nullIf.root == \"customer\" and .expr.nullable and
	    .expr.fields[0].expr.nullable == false"
}

@test "nullability: a struct from a nullable struct may not be required" {
	add expose '- name: customer
  type: struct
  required: true
  fields:
    - {name: id, type: string}'
	validate
	refused "$(column customer)" \
	    'exposes[0].contract.schema.customer' \
	    'customer is required, but its source can be null .*a struct read from a nullable struct may not be declared required'
}

@test "nullability: a required field from a nullable field of the struct is refused" {
	add expose '- name: customer
  type: struct
  fields:
    - {name: id, type: string, required: true}'
	validate
	refused "$(column customer)" \
	    'exposes[0].contract.schema.customer' \
	    'customer.id is required, but its source can be null'
}
