#!/usr/bin/env bats
# fluid-check and `fluid validate`: every static rule of the managed
# Flink -> Iceberg lane, each with a contract it accepts and one it
# refuses.
#
# Each test copies fixtures/check/base.fluid.yaml (a valid contract) to
# c.fluid.yaml and makes one change to it with subst, add or drop.  A
# refusal must exit 1 with exactly one error, at the line and column of
# the YAML that is wrong, naming the build (or expose) and the contract
# path the spec's way, with the key words of the reason.  The expected
# line and column come from the fixture (grep for the changed line, find
# the value in it), never from the program's output.  An acceptance
# checks a property of the IR that fluid-check writes.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	F=c.fluid.yaml
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
}

teardown() {
	fluid_teardown
}

# --- editing the base contract -------------------------------------------

# subst OLD NEW: the one place in $F where OLD is (literally; it may
# span lines) becomes NEW (which may too: give its lines their full
# indentation).
subst() {
	local text rest
	text=$(<"$F") || return
	rest=${text//"$1"/}
	[ "$(( (${#text} - ${#rest}) / ${#1} ))" -eq 1 ] ||
	    fail "subst: want one place in $F with: $1" || return
	printf '%s\n' "${text/"$1"/"$2"}" >"$F"
}

# add MARK TEXT: insert the lines of TEXT before the "# +MARK" comment,
# each indented like the comment (a list's marker sits where its items
# do, so TEXT is written as if it started in column 1).
add() {
	MARK="# +$1" TEXT=$2 awk '
	    { i = index($0, ENVIRON["MARK"]) }
	    i && substr($0, i) == ENVIRON["MARK"] { n++
		k = split(ENVIRON["TEXT"], L, "\n")
		for (j = 1; j <= k; j++) print substr($0, 1, i - 1) L[j] }
	    { print }
	    END { exit n != 1 }' "$F" >"$F.new" ||
	    fail "add: want one '# +$1' in $F" || return
	mv "$F.new" "$F"
}

# drop TEXT: delete the one line of $F that contains TEXT.
drop() {
	OLD=$1 awk '
	    index($0, ENVIRON["OLD"]) { n++; next }
	    { print }
	    END { exit n != 1 }' "$F" >"$F.new" ||
	    fail "drop: want one line of $F containing: $1" || return
	mv "$F.new" "$F"
}

# at ERE [TEXT]: "LINE:COL" for the one line of $F matching ERE, COL
# where TEXT starts in it.  Without TEXT, COL is where the line's node
# starts: past the indentation and a list item's "- ", which is where a
# mapping is placed (at its first key, or at the '{' of a flow mapping).
at() {
	local line col
	line=$(line_of "$F" "$1") || return
	if [ $# -ge 2 ]; then
		col=$(col_of "$F" "$line" "$2") ||
		    fail "at: '$2' is not in line $line of $F" || return
	else
		col=$(awk -v n="$line" 'NR == n { match($0, /^[ -]*/);
		    print RLENGTH + 1 }' "$F")
	fi
	echo "$line:$col"
}

# after ERE: "LINE:COL" of the node on the line after the one matching
# ERE (the first key of a block mapping that ERE's line opens).
after() {
	local line
	line=$(line_of "$F" "$1") || return
	awk -v n="$((line + 1))" 'NR == n { match($0, /^[ -]*/);
	    print n ":" RLENGTH + 1 }' "$F"
}

# column NAME: "LINE:COL" of the expose's column NAME (the base's
# exposes and the tests' additions to them are indented by 8).
column() {
	at "^        - \\{?name: $1([,}]|\$)"
}

# rcol_of FILE LINE TEXT: the column of TEXT's last occurrence in line
# LINE of FILE.
rcol_of() {
	awk -v n="$2" -v t="$3" 'NR == n { c = 0; last = 0
	    while ((i = index(substr($0, c + 1), t)) > 0) { c += i; last = c }
	    print last; exit (last == 0) }' "$1"
}

# deep N: a stream column of N structs, each inside the one before.
deep() {
	local s='{name: leaf, type: string}' i
	for ((i = $1; i >= 1; i--)); do
		s="{name: l$i, type: struct, fields: [$s]}"
	done
	echo "- $s"
}

# The mapping with no columns: a contract read by name only.
no_mapping() {
	drop '      mapping:'
	drop '        columns:'
	drop '{name: customer_id, from: customer.id}'
	drop '{name: country, from: customer.address.country}'
	drop '# +columns'
	drop '{name: customer_id, type: string}'
	drop '{name: country, type: string}'
	drop '{column: country, transform: identity}'
}

# An explode of items as item, before the mapping's columns.
explode() {
	subst '        columns:' "        explode: {path: ${1:-items}, as: item}
        columns:"
}

# second [ID [EXPOSE [DEPLOYMENT [STATE]]]]: append a second managed
# build (and, unless EXPOSE is orders, the expose it writes).  STATE is
# the prefix of its checkpoint, savepoint and HA locations.  Its lines
# that tests change or point at end in "# returns", to tell them apart.
second() {
	local id=${1:-ingest-returns} x=${2:-returns} dep=${3:-shop-returns}
	local st=${4:-s3://flink-state/shop-returns}

	[ "$x" = orders ] || add exposes "- exposeId: $x
  kind: table
  binding:
    format: iceberg
    location:
      catalog: rest
      uri: https://catalog.example.com/api/catalog
      warehouse: s3://lake/warehouse
      namespace: shop
      table: $x
  contract:
    schema:
      - {name: return_id, type: string, required: true}"
	cat >>"$F" <<-EOF
	  - id: $id # returns
	    engine: flink
	    outputs: [$x] # returns
	    properties:
	      stream: # returns
	        kind: kafka
	        topic: returns
	        format: json
	        schema:
	          - {name: return_id, type: string, required: true}
	      parameters: # returns
	        flink:
	          management: operator # returns
	          source: {bootstrapServers: "kafka:9092", groupId: returns-v1}
	          deployment:
	            name: $dep # returns
	            namespace: data-products # returns
	            context: development
	            serviceAccount: flink
	            image: registry.example.com/forge-flink@sha256:0000000000000000000000000000000000000000000000000000000000000000
	            checkpointUri: $st/checkpoints
	            savepointUri: $st/savepoints
	            haUri: $st/ha # returns
	EOF
}

# --- running and judging ---------------------------------------------------

# validate [OPTIONS...]: fluid validate OPTIONS $F.
validate() {
	tool validate "$@" "$F"
}

# check [OPTIONS...]: fluid-resolve $F | fluid-check OPTIONS; the IR is
# the output.
check() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" bash -c \
	    'set -o pipefail; "$1/fluid-resolve" -- "$2" | "$1/fluid-check" \
	    "${@:3}"' check "$BIN" "$F" "$@"
}

# The error lines of the last run's standard error.
errors() {
	grep ': error: ' <<<"$stderr" || true
}

# refused POS WHERE WHY: the last run exited 1, printed nothing on
# standard output and exactly one error, which is
#	$F:POS: error: Managed Flink: WHERE: <a reason matching the ERE WHY>
# WHERE is literal: "Flink build ID: contract.path" or "exposes[0]...".
refused() {
	local head="$F:$1: error: Managed Flink: $2: " errs
	assert_status 1
	assert_no_stdout
	errs=$(errors)
	[ -n "$errs" ] && [ "$(wc -l <<<"$errs")" -eq 1 ] ||
	    fail "expected exactly one error" "$(show)" || return
	[[ $errs == "$head"* ]] ||
	    fail "the error is not where it should be" "want: $head" \
	    "$(show)" || return
	[[ ${errs#"$head"} =~ $3 ]] ||
	    fail "the reason does not match: $3" "$(show)"
}

# build_refused POS PATH WHY: refused, in the build ingest-orders.
build_refused() {
	refused "$1" "Flink build ingest-orders: $2" "$3"
}

# accepted: fluid validate said ok, with no diagnostics at all.
accepted() {
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "$F: ok" "standard output"
}

# ir: the last check exited 0 without diagnostics and wrote the IR.
ir() {
	assert_status 0
	assert_no_stderr
	assert_jq '.check.builds | length > 0'
}

# output NAME: a jq filter for the IR of output column NAME.
output() {
	printf '.check.builds[0].outputs[] | select(.name == "%s")' "$1"
}

# --- the base and the examples ---------------------------------------------

@test "check: the base contract is accepted, and reads outputs by name" {
	validate
	accepted
	check
	ir
	assert_jq '.stages[-1] == "check" and .check.managed'
	assert_jq '.check.builds[0].id == "ingest-orders"'
	assert_jq '.check.builds[0].expose == "orders"'
	assert_jq "$(output event_id) | .expr.op == \"path\" and
	    .expr.root == \"event_id\" and .expr.steps == [] and .required"
	assert_jq "$(output customer_id) | .expr.root == \"customer\" and
	    .expr.steps == [{\"field\": \"id\"}] and .expr.nullable"
	assert_jq '.check.builds[0].table.partitionBy == ["country"]'
}

@test "check: fluid validate accepts every example contract" {
	local f n=0
	cd "$EXAMPLES/shapes"
	for f in */*.fluid.yaml; do
		tool validate "$f"
		assert_status 0
		assert_no_stderr
		assert_equal "$output" "$f: ok"
		n=$((n + 1))
	done
	[ "$n" -ge 4 ] || fail "only $n examples"
}

@test "check: every example's IR passes fluid-check through the pipeline" {
	local f
	cd "$EXAMPLES/shapes"
	for f in */*.fluid.yaml; do
		F=$f check
		ir
	done
}

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

# --- schema shape ----------------------------------------------------------

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

# --- the stream: topic, formats, key, metadata, source, event time --------

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

# Flink 1.20's avro format has no Avro type for TIMESTAMP_LTZ (see the
# refusals below): an avro contract declares its instants timestamp(p).
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

@test "stream: avro-confluent refuses a timestamp_ltz value column, at its type" {
	subst 'format: json' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
	validate
	build_refused "$(at 'type: timestamp_ltz\(3\)$' timestamp_ltz)" \
	    'properties.stream.schema.event_time.type' \
	    "timestamp_ltz\(3\) cannot be read with avro-confluent: Flink 1.20's Avro format has no type for it; declare timestamp\(3\) \(Avro timestamp-millis"
}

@test "stream: avro-confluent refuses timestamp_ltz nested in an element's struct" {
	subst 'format: json' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
	avro_timestamps
	add stream '- name: visits
  type: array
  element:
    type: struct
    fields:
      - {name: at, type: "timestamp_ltz(6)"}'
	validate
	build_refused "$(at 'name: at, type: "timestamp_ltz' '"timestamp_ltz')" \
	    'properties.stream.schema.visits.element.fields.at.type' \
	    'declare timestamp\(6\) \(Avro timestamp-micros, an instant in UTC\)$'
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
	    "'protobuf' is not supported: use json or avro-confluent"
}

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

@test "stream: an avro-confluent key refuses a timestamp_ltz column" {
	subst 'format: raw' 'format: avro-confluent'
	add source 'schemaRegistryUrl: https://registry.example.com'
	subst '- {name: order_key, type: string}' \
	    '- {name: order_key, type: string}
            - {name: order_at, type: timestamp_ltz(3)}'
	validate
	build_refused "$(at 'name: order_at' timestamp_ltz)" \
	    'properties.stream.key.schema.order_at.type' \
	    'cannot be read with avro-confluent'
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

@test "stream: a metadata timestamp can be the event time" {
	add metadata '- {name: kafka_timestamp, from: timestamp}'
	subst 'column: event_time' 'column: kafka_timestamp'
	check
	ir
	assert_jq '.check.builds[0].stream.eventTime.column == "kafka_timestamp"'
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

# --- the mapping: binding, paths, explode, conversions ---------------------

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
	    'cast: string reads binary as UTF-8 text, and this path is string'
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
	    'arrays and maps are copied as they are'
}

@test "mapping: a widening inside a map is refused" {
	add stream '- {name: counts, type: map, key: {type: string, required: true}, value: {type: int}}'
	add expose '- {name: counts, type: map, key: {type: string, required: true}, value: {type: long}}'
	validate
	refused "$(at 'value: \{type: long' '{')" \
	    'exposes[0].contract.schema.counts' \
	    'arrays and maps are copied as they are: .* no widening'
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

# --- nullability -----------------------------------------------------------

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

@test "nullability: a key column is null for a record with no key" {
	subst '{name: order_key, type: string}' \
	    '{name: order_key, type: string, required: true}'
	add expose '- {name: order_key, type: string, required: true}'
	validate
	refused "$(column order_key)" 'exposes[0].contract.schema.order_key' \
	    'order_key is a key column, null for a record with no key'
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

# --- a build's own SQL -----------------------------------------------------

# The mapping replaced by properties.sql.
own_sql() {
	no_mapping
	subst '      parameters:' "      sql: $1
      parameters:"
}

@test "sql: one SELECT from source_events is accepted, with a warning" {
	own_sql 'SELECT event_id, quantity FROM source_events'
	validate
	assert_status 0
	assert_equal "$output" "$F: ok"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "want one warning" "$(show)"
	assert_match "${stderr_lines[0]}" "^$F:$(at '^ *sql: ' SELECT): warning: Managed Flink: Flink build ingest-orders: properties\.sql: brings its own SQL.*pinned entry: shop\.orders/ingest-orders@sha256:[0-9a-f]{64}$"
	check
	assert_status 0
	assert_jq '.check.builds[0].sql == "SELECT event_id, quantity FROM source_events"'
	assert_jq '[.check.builds[0].outputs[].expr.op] | unique == ["sql"]'
}

@test "sql: every build that brings its own SQL is warned about" {
	own_sql 'SELECT * FROM source_events'
	second
	subst '      parameters: # returns' '      sql: SELECT return_id FROM source_events
      parameters: # returns'
	validate
	assert_status 0
	[ "$(grep -c ': warning: .*brings its own SQL' <<<"$stderr")" -eq 2 ] ||
	    fail "want two warnings" "$(show)"
	assert_match "$stderr" 'Flink build ingest-returns: properties\.sql: brings its own SQL'
}

@test "sql: a semicolon is refused" {
	own_sql '"SELECT * FROM source_events; DROP TABLE t"'
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql 'semicolons are refused'
}

@test "sql: a hint is refused" {
	own_sql "\"SELECT /*+ OPTIONS('scan.startup.mode'='earliest-offset') */ * FROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    'SQL hints \(/\*\+ ... \*/\) are refused'
}

@test "sql: a comment is refused, since the runner strips it blindly" {
	own_sql "\"SELECT CONCAT('we/*', 'b*/') AS channel FROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "comments \('/\*', '\*/'\) are refused: the in-pod SQL runner strips them"
}

@test "sql: a line comment is refused" {
	own_sql "\"SELECT event_id -- the id\\nFROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql "'--' is refused"
}

@test "sql: what is not a SELECT is refused" {
	own_sql 'INSERT INTO t SELECT * FROM source_events'
	validate
	build_refused "$(at '^ *sql: ' INSERT)" properties.sql \
	    'must be one SELECT from source_events'
}

@test "sql: a SELECT from another table is refused" {
	own_sql 'SELECT * FROM orders_archive'
	validate
	build_refused "$(at '^ *sql: ' SELECT)" properties.sql \
	    'must be one SELECT from source_events'
}

@test "sql: SQL and a mapping together are refused" {
	subst '      parameters:' '      sql: SELECT * FROM source_events
      parameters:'
	validate
	build_refused "$(at '^ *sql: ' SELECT)" properties.sql \
	    'a mapping and SQL together are refused'
	assert_match "$stderr" 'warning: .*brings its own SQL'
}

# --- the contract: builds, exposes, deployments, locations -----------------

@test "contract: the managed lane needs fluidVersion 0.7.7" {
	subst 'fluidVersion: "0.7.7"' 'fluidVersion: "0.7.6"'
	validate
	assert_status 1
	assert_stderr_line "^$F:$(at '^fluidVersion' '"'): error: fluidVersion: a build sets properties\.parameters\.flink\.management: operator, which needs fluidVersion \"0\.7\.7\"$"
}

@test "contract: builds that run elsewhere are not the managed lane's" {
	subst 'management: operator' 'management: external'
	check
	assert_status 0
	assert_stderr_line "^$F:$(at '^  - id: ingest-orders' -): warning: no build sets properties\.parameters\.flink\.management: operator, so the managed Flink lane checked nothing$"
	assert_jq '.check.managed == false and .check.builds == []'
}

# null_list KEY: the top-level list KEY of $F becomes "KEY: null".
null_list() {
	KEY=$1 awk '$0 == ENVIRON["KEY"] ":" { print $0 " null"; skip = 1; next }
	    skip && /^[^ #]/ { skip = 0 }
	    !skip' "$F" >"$F.new" && mv "$F.new" "$F"
}

@test "contract: exposes: null names no expose, so a build's output is refused" {
	null_list exposes
	validate
	build_refused "$(at '^ *outputs: ' orders)" 'outputs[0]' \
	    '^orders is not the exposeId of any expose$'
}

@test "contract: builds: null still warns that the managed lane checked nothing" {
	null_list builds
	check
	assert_status 0
	assert_stderr_line "^$F:$(at '^builds: ' null): warning: no build sets properties\.parameters\.flink\.management: operator, so the managed Flink lane checked nothing\$"
}

@test "contract: two managed builds, each writing its own expose" {
	second
	check
	ir
	assert_jq '[.check.builds[].id] == ["ingest-orders", "ingest-returns"]'
	assert_jq '[.check.builds[].expose] == ["orders", "returns"]'
}

@test "contract: a build that is not managed is refused" {
	second
	drop 'management: operator # returns'
	validate
	# Where its properties start.
	refused "$(at 'stream: # returns' stream)" 'builds[1].properties' \
	    'a managed contract holds only managed builds: set parameters\.flink\.management: operator'
}

@test "contract: a management other than operator is refused" {
	second
	subst 'management: operator # returns' 'management: external # returns'
	validate
	refused "$(at 'management: external' external)" \
	    'builds[1].properties.parameters.flink.management' \
	    'a managed contract holds only managed builds'
}

@test "contract: two builds writing one expose are refused" {
	second ingest-returns orders
	validate
	refused "$(at 'outputs: \[orders\] # returns' orders)" \
	    'Flink build ingest-returns: outputs[0]' \
	    'one build writes each expose: exposes\[0\] is already written by builds\[0\]'
}

@test "contract: a build id with '--' is refused" {
	subst 'id: ingest-orders' 'id: ingest--orders'
	validate
	refused "$(at 'id: ingest--orders' ingest)" 'builds[0].id' \
	    "without '--' \(the in-pod SQL runner reads it as a comment\)"
}

@test "contract: a product id with '--' is refused" {
	subst 'id: shop.orders' 'id: shop--orders'
	validate
	refused "$(at '^id: shop--orders' shop)" id "without '--'"
}

@test "contract: two builds with one id are refused" {
	second ingest-orders
	validate
	refused "$(at 'id: ingest-orders # returns' ingest)" 'builds[1].id' \
	    'builds\[0\] has the same id'
}

@test "contract: two deployments with one namespace and name are refused" {
	second ingest-returns returns shop-orders
	validate
	refused "$(at 'name: shop-orders # returns' shop)" \
	    'Flink build ingest-returns: properties.parameters.flink.deployment.name' \
	    'deployment data-products/shop-orders is also builds\[0\]'"'"'s: namespace/name pairs may not repeat'
}

@test "contract: the same name in another namespace is accepted" {
	second ingest-returns returns shop-orders
	subst 'namespace: data-products # returns' 'namespace: returns # returns'
	check
	ir
	assert_jq '[.check.builds[].deployment | .namespace + "/" + .name] ==
	    ["data-products/shop-orders", "returns/shop-orders"]'
}

@test "contract: a location equal to another is refused" {
	second
	subst 'haUri: s3://flink-state/shop-returns/ha # returns' \
	    'haUri: s3://flink-state/shop-orders/savepoints/ # returns'
	validate
	refused "$(at 'haUri: s3://flink-state/shop-orders/savepoints/' s3)" \
	    'Flink build ingest-returns: properties.parameters.flink.deployment.haUri' \
	    "is the same location as build ingest-orders's savepointUri"
}

@test "contract: a location nested in another is refused" {
	subst 'haUri: s3://flink-state/shop-orders/ha' \
	    'haUri: s3://flink-state/shop-orders/checkpoints/ha'
	validate
	build_refused "$(at 'haUri: ' s3)" \
	    'properties.parameters.flink.deployment.haUri' \
	    "lies inside build ingest-orders's checkpointUri: .*may not nest"
}

@test "contract: locations that only share a prefix are accepted" {
	second ingest-returns returns shop-returns s3://flink-state/shop-orders-2
	check
	ir
	assert_jq '.check.builds[1].deployment.checkpointUri ==
	    "s3://flink-state/shop-orders-2/checkpoints"'
}

@test "contract: each required deployment field is required" {
	local key
	for key in name namespace context serviceAccount image checkpointUri \
	    savepointUri haUri; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		drop "            $key: "
		validate
		# A missing key is reported where its mapping starts.
		build_refused "$(after '^ *deployment:$')" \
		    "properties.parameters.flink.deployment.$key" '^is required$'
	done
}

@test "contract: the deployment's IR" {
	check
	ir
	assert_jq '.check.builds[0].deployment | .name == "shop-orders" and
	    .namespace == "data-products" and .context == "development" and
	    .serviceAccount == "flink" and .state == "running" and
	    .haUri == "s3://flink-state/shop-orders/ha" and
	    .secretRefs == ["flink-storage"]'
}

@test "contract: identity partitions are accepted" {
	add partitionSpec '- {column: quantity, transform: identity}'
	check
	ir
	assert_jq '.check.builds[0].table.partitionBy == ["country", "quantity"]'
}

@test "contract: other partition transforms are refused, with the reason" {
	local tr
	for tr in day bucket; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		add partitionSpec "- {column: event_time, transform: $tr}"
		validate
		refused "$(at "transform: $tr" "$tr")" \
		    'exposes[0].binding.icebergConfig.partitionSpec[1].transform' \
		    "^only identity partitions: Iceberg's other transforms are hidden partitioning, which Flink SQL cannot declare"
	done
}

@test "contract: catalog properties that are plain text are accepted" {
	add catalogProperties 'client.region: eu-west-1'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.properties == {
	    "s3.endpoint": "https://s3.example.com",
	    "s3.path-style-access": "true", "client.region": "eu-west-1"}'
	assert_jq '.check.builds[0].table.catalog.auth == {"type": "bearer",
	    "tokenEnv": "ICEBERG_TOKEN"}'
}

@test "contract: a catalog property starting with env: is refused" {
	add catalogProperties 'client.region: "env:AWS_REGION"'
	validate
	refused "$(at 'client.region' '"')" \
	    'exposes[0].binding.catalogProperties.client.region' \
	    "must not start with env:, contain \\$\\{ or a control character: Iceberg would resolve it"
}

@test "contract: a catalog property holding \${ is refused" {
	add catalogProperties 'client.region: "eu-${REGION}"'
	validate
	refused "$(at 'client.region' '"')" \
	    'exposes[0].binding.catalogProperties.client.region' \
	    'must not start with env:, contain'
}

@test "contract: a catalog property holding a control character is refused" {
	add catalogProperties 'client.region: "eu\u001bwest"'
	validate
	refused "$(at 'client.region' '"')" \
	    'exposes[0].binding.catalogProperties.client.region' \
	    'must not start with env:, contain'
	[[ $stderr != *$'\e'* ]] || fail "the control character is echoed"
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

# One mistake, one error: what follows from a list that cannot be read
# is not reported again.
@test "contract: exposes as a mapping is one error, not one per build" {
	subst 'exposes:
  - exposeId: orders' 'exposes:
  orders:
    exposeId: orders'
	validate
	assert_status 1
	assert_equal "$(errors)" "$F:$(at '^  orders:$'): error: exposes: must be a list, not a mapping" \
	    "the only error"
}

@test "contract: an exposeId that is not a string is one error" {
	subst '- exposeId: orders' '- exposeId: [orders]'
	validate
	refused "$(at 'exposeId: \[' '[')" 'exposes[0].exposeId' \
	    'must be a string, not a list'
}

@test "contract: builds as a string is one error and no warning" {
	awk '/^builds:/ { print "builds: \"x\""; exit } { print }' \
	    "$F" >"$F.new" && mv "$F.new" "$F"
	validate
	assert_status 1
	assert_equal "$stderr" "$F:$(at '^builds:' '"'): error: builds: must be a list, not a string" \
	    "standard error"
}

@test "contract: the warehouse must name its bucket right after s3://" {
	# libcurl reads s3:///lake as the host "lake"; S3 clients read no bucket.
	subst 'warehouse: s3://lake/warehouse' 'warehouse: s3:///lake/warehouse'
	validate
	refused "$(at 'warehouse: s3:///' s3)" \
	    'exposes[0].binding.location.warehouse' \
	    'names no bucket: write s3://BUCKET/PATH$'
}

@test "deployment: an s3 URI must name its bucket" {
	subst 'haUri: s3://flink-state/shop-orders/ha' \
	    'haUri: s3:///flink-state/shop-orders/ha'
	validate
	build_refused "$(at 'haUri: s3:///' s3)" \
	    'properties.parameters.flink.deployment.haUri' 'names no bucket'
}

@test "contract: the warehouse must be an s3:// URI" {
	subst 'warehouse: s3://lake/warehouse' 'warehouse: gs://lake/warehouse'
	validate
	refused "$(at 'warehouse: gs' gs)" \
	    'exposes[0].binding.location.warehouse' 'must be an s3:// URI'
}

@test "contract: the catalog must be a REST catalog" {
	subst 'catalog: rest' 'catalog: glue'
	validate
	refused "$(at 'catalog: glue' glue)" 'exposes[0].binding.location.catalog' \
	    "'glue' is not supported: use rest"
}

@test "contract: a catalog without credentials may use http" {
	subst 'uri: https://catalog.example.com/api/catalog' \
	    'uri: http://catalog.example.com/api/catalog'
	drop 'catalogAuth:'
	check
	ir
	assert_jq '.check.builds[0].table.catalog | .auth == null and
	    .uri == "http://catalog.example.com/api/catalog"'
}

@test "contract: a catalog that receives credentials must use https" {
	subst 'uri: https://catalog.example.com/api/catalog' \
	    'uri: http://catalog.example.com/api/catalog'
	validate
	refused "$(at 'uri: http:' http)" 'exposes[0].binding.location.uri' \
	    'must be https: the catalog receives credentials'
}

@test "contract: a loopback catalog that receives credentials must use https" {
	subst 'uri: https://catalog.example.com/api/catalog' \
	    'uri: http://localhost:8181/api/catalog'
	validate
	refused "$(at 'uri: http:' http)" 'exposes[0].binding.location.uri' \
	    'must be https: the catalog receives credentials'
}

@test "contract: an OAuth2 token endpoint over https is accepted" {
	subst 'catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}' \
	    'catalogAuth: {type: oauth2, credentialEnv: ICEBERG_CREDENTIAL, oauth2ServerUri: "https://identity.example.com/token", scope: catalog}'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.auth.oauth2ServerUri ==
	    "https://identity.example.com/token"'
}

@test "contract: an OAuth2 token endpoint over http is refused" {
	subst 'catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}' \
	    'catalogAuth: {type: oauth2, credentialEnv: ICEBERG_CREDENTIAL, oauth2ServerUri: "http://identity.example.com/token", scope: catalog}'
	validate
	refused "$(at 'oauth2ServerUri' '"http:')" \
	    'exposes[0].binding.catalogAuth.oauth2ServerUri' \
	    'must be an https:// URI'
}

# --- diagnostics -----------------------------------------------------------

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
	assert_no_stdout
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
	assert_no_stdout
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

# --- fragments -------------------------------------------------------------

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
	assert_no_stdout
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
