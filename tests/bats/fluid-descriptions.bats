#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-descriptions.bats - a column's description (fluid-check(1),
# "Column descriptions"): carried from the contract through the resolve
# and check sections (fluid-ir(5)), written as the COMMENT of the job
# table's columns (fluid-sqlgen(1)), into the table file and into the
# ODCS export's properties (fluid-odcs(1)); refused when it is not one
# line of plain text of at most 1024 bytes, both in the contract and in
# an IR another stage wrote.  The text of a refused description is never
# echoed.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

# The base's expose column NAME gets a description D (YAML text).
describe() {
	subst "        - {name: $1, type: $2}" \
	    "        - {name: $1, type: $2, description: $3}"
}

# The description refusal of the expose's event_id, at the description's
# value on its line.
desc_refused() {
	refused "$(at '\{name: event_id' "$1")" \
	    'exposes[0].contract.schema.event_id.description' "$2"
}

# fluid-resolve | fluid-check | fluid-sqlgen --sql of $F.
sql() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" bash -c \
	    'set -o pipefail; "$1/fluid-resolve" -- "$2" | "$1/fluid-check" |
	    "$1/fluid-sqlgen" --sql' sql "$BIN" "$F"
}

# fluid-sqlgen --sql of the checked IR of $F edited by the jq filter $1.
sql_of_edited_ir() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" bash -c \
	    'set -o pipefail; "$1/fluid-resolve" -- "$2" | "$1/fluid-check" |
	    jq -c "$3" | "$1/fluid-sqlgen" --sql' sql "$BIN" "$F" "$1"
}

@test "descriptions: the resolve and check sections carry them, at every level; none where none is given" {
	describe event_id 'string, required: true' '"The event'"'"'s id, unique"'
	subst '          - name: customer
            type: struct' '          - name: customer
            type: struct
            description: Who ordered'
	subst '              - name: id
                type: string' '              - name: id
                type: string
                description: "Der Kunde: ü"'
	subst '            element:
              type: struct' '            element:
              description: One line item
              type: struct'
	check
	ir
	assert_jq '.resolve.document.exposes[0].contract.schema[0].description ==
	    "The event'"'"'s id, unique"'
	assert_jq '.check.builds[0].table.columns[0] == {"name": "event_id",
	    "type": "string", "required": true,
	    "description": "The event'"'"'s id, unique"}'
	assert_jq '[.check.builds[0].table.columns[1:][] | has("description")] |
	    all | not'
	assert_jq '.check.builds[0].stream.columns[] | select(.name ==
	    "customer") | .description == "Who ordered" and
	    .fields[0].description == "Der Kunde: ü" and
	    (.fields[1] | has("description") | not)'
	assert_jq '.check.builds[0].stream.columns[] | select(.name == "items") |
	    .element.description == "One line item"'
}

@test "descriptions: a contract without any gives the IR it gave before (no description key anywhere)" {
	check
	ir
	assert_jq '[.check | .. | objects | has("description")] | any | not'
}

@test "descriptions: 1024 bytes are accepted, 1025 refused without echoing the text" {
	local ok long
	ok=$(printf 'ü%.0s' {1..512})		# 1024 bytes, 512 characters
	long=$(printf 'x%.0s' {1..1025})
	describe event_id 'string, required: true' "\"$ok\""
	check
	ir
	assert_jq --arg d "$ok" '.check.builds[0].table.columns[0].description == $d'
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	describe event_id 'string, required: true' "\"$long\""
	validate
	desc_refused '"xxx' '^is longer than 1024 bytes$'
	[[ $stderr != *xxxxxxxxxx* ]] || fail "the text is echoed" "$stderr"
}

@test "descriptions: control characters, line separators, bidi controls and \${ are refused, not echoed" {
	local d why
	for d in 'tab\there' 'two\nlines' 'bell\a' 'nel\u0085here' \
	    'csi\u009b31m' 'ls\u2028here' 'rlo\u202eereh' 'lri\u2066x' \
	    'del\u007fhere'; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		describe event_id 'string, required: true' "\"$d\""
		validate
		desc_refused '"' '^holds a control character, a line separator or a bidirectional control \(one line of plain text only\)$'
		[[ $stderr != *here* && $stderr != *ereh* ]] ||
		    fail "$d: the text is echoed" "$stderr"
	done
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	describe event_id 'string, required: true' '"costs ${PRICE}"'
	validate
	desc_refused '"costs' "^holds '\\$\\{', which the job's runner reads as a variable reference$"
	[[ $stderr != *PRICE* ]] || fail "the text is echoed" "$stderr"
}

@test "descriptions: empty text and a description that is not text are refused" {
	describe event_id 'string, required: true' '""'
	validate
	desc_refused '""' '^is empty \(leave it out instead\)$'
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	describe event_id 'string, required: true' '[a, b]'
	validate
	desc_refused '[a' '^must be a string'
}

@test "descriptions: a nested field's bad description is refused at its own path" {
	subst '                  - name: city
                    type: string' '                  - name: city
                    type: string
                    description: "a\tb"'
	validate
	build_refused "$(at 'description: "a' '"a')" \
	    'properties.stream.schema.customer.address.city.description' \
	    '^holds a control character'
}

@test "sqlgen: a description with a quote and a backslash is the column's COMMENT, quoted; a field's and the source's are not written" {
	describe event_id 'string, required: true' \
	    "\"it's a \\\\ path -- /* not a comment */\""
	describe customer_id string '"Der Kunde, ü"'
	subst '          - name: event_id
            type: string' '          - name: event_id
            description: source side
            type: string'
	subst '              - name: id
                type: string' '              - name: id
                type: string
                description: a field of the stream'
	check
	ir
	assert_jq '.check.builds[0].table.columns[0].description ==
	    "it'"'"'s a \\ path -- /* not a comment */"'
	sql
	assert_status 0
	assert_no_stderr
	# The quote doubled; the backslash and the comment markers as \XXXX
	# escapes of a Unicode literal (sqlq.h), which Flink 1.20 parses.
	[[ $output == *$'\n'"  \`event_id\` STRING NOT NULL COMMENT U&'it''s a \\005c path \\002d\\002d \\002f\\002a not a comment \\002a\\002f',"$'\n'* ]] ||
	    fail "event_id's COMMENT" "$output"
	[[ $output == *$'\n'"  \`customer_id\` STRING COMMENT 'Der Kunde, ü',"$'\n'* ]] ||
	    fail "customer_id's COMMENT" "$output"
	[[ $output == *$'\n'"  \`country\` STRING,"$'\n'* ]] ||
	    fail "a column without description has no COMMENT" "$output"
	[ "$(grep -c COMMENT <<<"$output")" -eq 2 ] ||
	    fail "COMMENT elsewhere than the table's two columns" "$output"
	[[ $output != *"source side"* && $output != *"a field of the stream"* ]] ||
	    fail "a stream column's description is in the script" "$output"
}

@test "sqlgen: an IR whose description is not one line of text is refused, nothing written, the text not echoed" {
	local d
	for d in 'a\nDROP TABLE x' 'a\u2029b' '${fluidenv:X}' ''; do
		sql_of_edited_ir ".check.builds[0].table.columns[0].description = \"$d\""
		assert_status 1
		assert_no_stdout
		[[ $stderr == *"cannot be written safely"* ]] ||
		    fail "$d: not the refusal" "$(show)"
		[[ $stderr != *DROP* && $stderr != *fluidenv* ]] ||
		    fail "$d: the text is echoed" "$stderr"
	done
	sql_of_edited_ir '.check.builds[0].table.columns[0].description = 7'
	assert_status 1
	assert_no_stdout
	sql_of_edited_ir '.check.builds[0].table.columns[0].description = "a plain one"'
	assert_status 0
	[[ $output == *"\`event_id\` STRING NOT NULL COMMENT 'a plain one',"* ]] ||
	    fail "the edited description is not written" "$output"
}

@test "generate: the table file carries the descriptions, for the runner's Iceberg docs" {
	describe event_id 'string, required: true' "\"it's \\\\ here\""
	tool generate flink "$F" --out gen
	assert_status 0
	output=$(cat gen/ingest-orders.table.json)
	assert_jq '.columns[0].description == "it'"'"'s \\ here" and
	    (.columns[1] | has("description") | not)'
}

@test "odcs: a property's description is the column's, at every level, as YAML that PyYAML reads back" {
	python3 -c 'import yaml' 2>/dev/null || fail "python3 has no PyYAML (tools/bootstrap installs it)"
	describe event_id 'string, required: true' '"null"'
	describe customer_id string "\"yes: it's # not a comment \\\\ -\""
	describe country string "'- [x]: {y}'"
	tool export odcs --json "$F"
	assert_status 0
	assert_jq '.schema[0].properties | map({(.name): .description}) | add |
	    .event_id == "null" and
	    .customer_id == "yes: it'"'"'s # not a comment \\ -" and
	    .country == "- [x]: {y}" and .quantity == null'
	echo "$output" >odcs.json
	tool export odcs "$F"
	assert_status 0
	echo "$output" >odcs.yaml
	python3 -c '
import json, sys, yaml
a = yaml.safe_load(open("odcs.yaml"))
b = json.load(open("odcs.json"))
sys.exit(0 if a == b else 1)' || fail "PyYAML reads other values" "$(cat odcs.yaml)"
}

@test "odcs: nested fields, an array's items and a map's value keep their own descriptions" {
	local want got
	cp -R "$EXAMPLES/shapes/." .
	F=landed/orders-landed.fluid.yaml
	subst '          element:
            type: struct' '          element:
            description: One line of the order
            type: struct'
	subst 'value: {type: string}' 'value: {type: string, description: "An attribute'"'"'s text"}'
	tool export odcs --json "$F"
	assert_status 0
	# What the example says, read from its YAML, not from fluid.
	want=$(python3 -c '
import json, sys, yaml
c = yaml.safe_load(open(sys.argv[1]))
def walk(cols, out, pre):
    for col in cols:
        name = pre + col["name"]
        if "description" in col:
            out[name] = col["description"]
        if col["type"] == "struct":
            walk(col["fields"], out, name + ".")
        for kid in ("element", "value"):
            if kid in col and "description" in col[kid]:
                out[name + "_" + kid] = col[kid]["description"]
            if kid in col and col[kid]["type"] == "struct":
                walk(col[kid]["fields"], out, name + "_" + kid + ".")
    return out
print(json.dumps(walk(c["exposes"][0]["contract"]["schema"], {}, ""), sort_keys=True,
                 separators=(",", ":")))' "$F")
	[ "$want" != "{}" ] || fail "the landed example has no description"
	got=$(jq -c -S '
	    def walk(pre): .[] | (pre + .name) as $n |
	        (if .description then {($n): .description} else empty end),
	        (.properties // [] | walk($n + ".")),
	        (.items // empty | [.] | walk(pre)),
	        (.map.value // empty | [.] | walk(pre));
	    [.schema[0].properties | walk("")] | add // {}' <<<"$output")
	assert_equal "$got" "$want" "descriptions"
}

@test "diff: a description added, changed or removed is an info change 'described', at its column" {
	cp "$F" old.fluid.yaml
	describe event_id 'string, required: true' '"Unique per event"'
	tool diff --baseline old.fluid.yaml "$F"
	assert_status 0
	assert_jq '.counts == {"breaking": 0, "non-breaking": 0, "info": 1}'
	assert_jq '.changes[0] | .change == "described" and
	    .expose == "orders" and .old.value == null and
	    .new.value == "Unique per event" and
	    .new.path == "exposes[0].contract.schema.event_id"'
	cp "$F" new.fluid.yaml
	tool diff --baseline new.fluid.yaml old.fluid.yaml
	assert_status 0
	assert_jq '.changes | length == 1 and .[0].change == "described" and
	    .[0].old.value == "Unique per event" and .[0].new.value == null'
	tool diff --baseline new.fluid.yaml "$F"
	assert_status 0
	assert_jq '.changes == []'
}
