#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-lineage.bats - fluid lineage and fluid-lineage (fluid-lineage(1)):
# each example's lineage against the checker's own binding (what the
# checked document says, read here with jq, not by the printer), the
# goldens in tests/golden/lineage/, the DOT rendered by Graphviz, names
# that would break DOT or mermaid quoted, and the refusals.

load helpers
load check-helpers

setup() {
	check_setup
	GOLD=$TOP/tests/golden/lineage
}

teardown() { fluid_teardown; }

# Every example contract, relative to examples/, one per line.
examples() {
	(cd "$EXAMPLES" && find . -name '*.fluid.yaml' -type f | sed 's,^\./,,' |
	    LC_ALL=C sort)
}

# golden_name REL: the name of REL's goldens ("shapes/flattened/x.fluid.yaml"
# is "shapes-flattened-x").
golden_name() {
	local n=${1%.fluid.yaml}
	echo "${n//\//-}"
}

# The lineage the checked document on stdin implies, in the text format's
# column lines, written from the binding (fluid-ir(5), Expressions) here
# and not by lineage.c: a column's path, the stream path its expression
# reads and the operation that path and the output's path make.
expected_from_binding() {
	jq -r '
	def steps: map(if has("field") then "." + .field
	    else "[\u0027" + (.key | gsub("\u0027"; "\u0027\u0027")) + "\u0027]" end) | join("");
	def src($b):
	    if .origin == "element" then ($b.explode.path | src($b)) + "[]" + (.steps | steps)
	    else .root as $r
	        | ([$b.stream.columns[] | select(.name == $r)][0].from) as $f
	        | .origin
	          + (if .origin != "value" and $f != null and $f != $r then "(" + $f + ")" else "" end)
	          + " " + .root + (.steps | steps) end;
	def pathop($out):
	    ([.steps[] | select(has("key"))] | length) as $k
	    | ([.steps[] | select(has("field"))] | length) as $n
	    | if .origin == "element" then "explode" + (if $k > 0 then ", map entry" elif $n > 0 then ", lift" else "" end)
	      elif $k > 0 then "map entry"
	      elif ([.root] + [.steps[].field] | join(".")) == $out then "by name"
	      elif $n == 0 then "rename"
	      else "lift" end;
	def leaf($b; $out):
	    if .op == "path" then {src: src($b), ops: pathop($out)}
	    elif .op == "cast" or .op == "widen" then
	        (.arg | leaf($b; $out)) as $in
	        | {src: $in.src, ops: ($in.ops + ", " + .op + " " + .arg.type + " to " + .type)}
	    else error("op " + .op) end;
	def cols($b; $out):
	    if .op == "struct" then
	        (if .nullIf == null then "  \($out) (build)"
	         elif .nullIf.origin == "element" then "  \($out) <- \(.nullIf | src($b)) (explode, build)"
	         else "  \($out) <- \(.nullIf | src($b)) (build)" end),
	        (.fields[] as $f | $f.expr | cols($b; $out + "." + $f.name))
	    elif .op == "sql" then "  \($out) <- own SQL (opaque)"
	    else leaf($b; $out) as $l | "  \($out) <- \($l.src) (\($l.ops))" end;
	.check.builds[] as $b | $b.outputs[] | .name as $o | .expr | cols($b; $o)'
}

@test "lineage: every example's columns are the checker's binding, by the driver and by the filter" {
	local rel n=0 dir
	for rel in $(examples); do
		dir=$EXAMPLES/$(dirname "$rel")
		(cd "$dir" && "$BIN/fluid-resolve" "${rel##*/}" | "$BIN/fluid-check") >checked.json ||
		    fail "$rel: not checked"
		expected_from_binding <checked.json >want.txt
		[ -s want.txt ] || fail "$rel: the binding has no column"
		(cd "$dir" && "$BIN/fluid" lineage "${rel##*/}") >got.txt 2>err.txt ||
		    fail "$rel: fluid lineage failed" "$(cat err.txt)"
		[ ! -s err.txt ] || fail "$rel: stderr" "$(cat err.txt)"
		grep -v -E '^(build |  (stream|table|explode): |$)' got.txt | diff -u want.txt - ||
		    fail "$rel: the lineage is not the checker's binding"
		# A header per build, in the checked document's order.
		assert_equal "$(grep '^build ' got.txt)" \
		    "$(jq -r '.check.builds[] | "build " + .id' checked.json)"
		for fmt in text dot mermaid; do
			"$BIN/fluid-lineage" --format "$fmt" <checked.json >filter.out ||
			    fail "$rel: fluid-lineage --format $fmt failed"
			(cd "$dir" && "$BIN/fluid" lineage --format "$fmt" "${rel##*/}") >driver.out
			cmp driver.out filter.out || fail "$rel: the driver and the filter differ ($fmt)"
		done
		n=$((n + 1))
	done
	[ "$n" -ge 5 ] || fail "only $n examples"
}

@test "lineage: the goldens, text for every example, DOT and mermaid for two" {
	local rel g n=0
	for rel in $(examples); do
		g=$(golden_name "$rel")
		[ -f "$GOLD/$g.txt" ] || fail "no golden $g.txt for $rel"
		(cd "$EXAMPLES/$(dirname "$rel")" && "$BIN/fluid" lineage "${rel##*/}") |
		    diff -u "$GOLD/$g.txt" - || fail "$rel: differs from tests/golden/lineage/$g.txt"
		n=$((n + 1))
	done
	for g in shapes-flattened-orders-items shapes-reshaped-orders-reshaped; do
		rel=${g#shapes-}
		rel=shapes/${rel%%-*}/${rel#*-}.fluid.yaml
		(cd "$EXAMPLES/$(dirname "$rel")" && "$BIN/fluid" lineage --format dot "${rel##*/}") |
		    diff -u "$GOLD/$g.dot" - || fail "$rel: differs from $g.dot"
		(cd "$EXAMPLES/$(dirname "$rel")" && "$BIN/fluid" lineage --format mermaid "${rel##*/}") |
		    diff -u "$GOLD/$g.mmd" - || fail "$rel: differs from $g.mmd"
	done
	# No golden is left over from an example that is gone.
	assert_equal "$(ls "$GOLD"/*.txt | wc -l)" "$n"
}

@test "lineage: Graphviz renders every example's DOT, a cluster per build and its stream and table" {
	command -v dot >/dev/null || fail "no dot: tools/bootstrap installs graphviz"
	local rel nb
	for rel in $(examples); do
		(cd "$EXAMPLES/$(dirname "$rel")" && "$BIN/fluid" lineage --format dot "${rel##*/}") >l.dot
		dot -Tsvg l.dot >l.svg 2>dot.err || fail "$rel: dot -Tsvg failed" "$(cat dot.err)"
		[ ! -s dot.err ] || fail "$rel: dot warned" "$(cat dot.err)"
		nb=$(cd "$EXAMPLES/$(dirname "$rel")" && "$BIN/fluid-resolve" "${rel##*/}" |
		    "$BIN/fluid-check" | jq '.check.builds | length')
		# A cluster per build, and in it one for the stream, one for the table.
		assert_equal "$(grep -c 'class="cluster"' l.svg)" "$((3 * nb))"
		# Each column's edge, as many as columns with a source.
		assert_equal "$(grep -c 'class="edge"' l.svg)" \
		    "$(grep -c -- ' -> .*\[label=' l.dot)"
		grep -q '<title>cluster_0_stream</title>' l.svg || fail "$rel: no stream cluster"
	done
}

@test "lineage: in the SVG, the stream's sources are left of the table's columns" {
	cd "$EXAMPLES/shapes/flattened"
	"$BIN/fluid" lineage --format dot orders-items.fluid.yaml | dot -Tsvg >"$TMP/l.svg"
	cd "$TMP"
	# Each cluster's polygon's first x: the stream's is the smaller.
	python3 - <<'PY' || fail "the stream is not on the left"
import re, sys
svg = open("l.svg").read()
def x(name):
    m = re.search(r"<title>%s</title>\s*<polygon[^>]*points=\"([-0-9.]+)" % name, svg)
    return float(m.group(1))
sys.exit(0 if x("cluster_0_stream") < x("cluster_0_table") else 1)
PY
}

@test "lineage: names that are markup in DOT or mermaid are quoted, and Graphviz renders them" {
	command -v dot >/dev/null || fail "no dot: tools/bootstrap installs graphviz"
	cd "$EXAMPLES/shapes/flattened"
	"$BIN/fluid-resolve" orders-items.fluid.yaml | "$BIN/fluid-check" >"$TMP/checked.json"
	cd "$TMP"
	# A crafted document: a build id, a column and a map key with quotes,
	# a backslash, '#', '<', '|', '`', a line break and a closing bracket.
	local evil='a"b\c#d<e>f|g`h]i'$'\n''j'
	jq --arg e "$evil" '.check.builds[0].id = $e
	    | .check.builds[0].outputs[0].name = $e
	    | .check.builds[0].outputs[4].expr.steps[0].key = $e' checked.json >evil.json
	TOOL=fluid-lineage tool --format dot <evil.json
	assert_status 0
	printf '%s\n' "$output" >evil.dot
	dot -Tsvg evil.dot >evil.svg || fail "dot refused the quoted names" "$output"
	# The names arrive whole, as text (XML-escaped by Graphviz).
	grep -q 'a&quot;b\\c#d&lt;e&gt;f|g`h\]i' evil.svg || fail "the name is not in the SVG" "$(cat evil.svg)"
	[[ $output == *'label="build a\"b\\c#d<e>f|g`h]i\nj"'* ]] || fail "the build's label" "$output"
	TOOL=fluid-lineage tool --format mermaid <evil.json
	assert_status 0
	# Every node line is one quoted label with no quote inside it.
	local l bad=0
	while IFS= read -r l; do
		[[ $l =~ ^\ +b[0-9]+[st][0-9]+\[\"[^\"]*\"\]$ ]] ||
		[[ $l =~ ^\ +b[0-9]+s[0-9]+\ --\>\|\"[^\"\|]*\"\|\ b[0-9]+t[0-9]+$ ]] ||
		[[ $l =~ ^\ +subgraph\ b[0-9]+[st]?\[\"[^\"]*\"\]$ ]] ||
		[[ $l =~ ^(flowchart\ LR|\ +direction\ LR|\ +end)$ ]] ||
		    { echo "not a quoted mermaid line: $l"; bad=1; }
	done <<<"$output"
	[ "$bad" -eq 0 ] || fail "an unquoted mermaid line" "$output"
	[[ $output == *'b0t0["a#34;b\c#35;d#60;e#62;f#124;g#96;h]i<br>j"]'* ]] ||
	    fail "the column's mermaid label" "$output"
	# Text keeps one line per column.
	TOOL=fluid-lineage tool <evil.json
	assert_status 0
	[[ $output == *$'\n  a"b\\c#d<e>f|g`h]i\\x0aj <- value event_id (rename)\n'* ]] ||
	    fail "the text line" "$output"
}

@test "lineage: a map key the contract itself spells with quotes and markup" {
	cp -R "$EXAMPLES/shapes" shapes
	sed -i "s/{name: channel, from: \"attributes\['channel'\]\"}/{name: channel, from: \"attributes['it''s \\\\\"<#>']\"}/" \
	    shapes/flattened/orders-items.fluid.yaml
	grep -q "attributes\['it''s" shapes/flattened/orders-items.fluid.yaml || fail "the test could not edit the contract"
	tool lineage shapes/flattened/orders-items.fluid.yaml
	assert_status 0
	[[ $output == *$'\n  channel <- value attributes[\'it\'\'s "<#>\'] (map entry)\n'* ]] ||
	    fail "the map key" "$output"
	tool lineage --format dot shapes/flattened/orders-items.fluid.yaml
	assert_status 0
	dot -Tsvg <<<"$output" >/dev/null || fail "dot refused it" "$output"
}

@test "lineage: usage errors exit 2 and write nothing" {
	local flat=$EXAMPLES/shapes/flattened/orders-items.fluid.yaml
	usage_error lineage '^fluid: lineage expects one FILE'
	usage_error lineage "$flat" "$flat" '^fluid: lineage expects one FILE'
	usage_error lineage --format json "$flat" '^fluid: --format takes text, dot or mermaid'
	usage_error lineage --mode amend "$flat" '^fluid: --mode is for plan and apply'
	TOOL=fluid-lineage usage_error "$flat" '^fluid-lineage: reads standard input; no FILE'
	TOOL=fluid-lineage usage_error --format svg '^fluid-lineage: --format takes text, dot or mermaid'
}

@test "lineage: a contract with no managed build is refused; a document fluid-check did not write is an error" {
	printf '%s\n' 'fluidVersion: "0.7.6"' 'kind: DataProduct' 'id: t.old' \
	    'name: Old' 'builds:' '  - id: old' '    engine: flink' >old.fluid.yaml
	tool lineage -o out.txt old.fluid.yaml
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" 'old\.fluid\.yaml:6:3: error: no managed build to trace'
	[ ! -e out.txt ] || fail "out.txt written"
	"$BIN/fluid-resolve" "$EXAMPLES/shapes/flattened/orders-items.fluid.yaml" >resolved.json
	TOOL=fluid-lineage tool <resolved.json
	assert_status 2
	assert_no_stdout
	# An expression the checker never writes.
	"$BIN/fluid-check" <resolved.json | jq '.check.builds[0].outputs[0].expr.op = "concat"' >odd.json
	TOOL=fluid-lineage tool <odd.json
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "check section is not what fluid-check writes"
}

@test "lineage: -o writes the file whole, -q keeps quiet" {
	cd "$EXAMPLES/shapes/flattened"
	"$BIN/fluid" lineage orders-items.fluid.yaml >"$TMP/a.txt"
	tool lineage -o "$TMP/b.txt" orders-items.fluid.yaml
	assert_status 0
	assert_equal "$output" "wrote $TMP/b.txt"
	cmp "$TMP/a.txt" "$TMP/b.txt" || fail "-o wrote other bytes"
	tool lineage -q --format mermaid -o "$TMP/c.mmd" orders-items.fluid.yaml
	assert_status 0
	assert_no_stdout
	head -n 1 "$TMP/c.mmd" | grep -qx 'flowchart LR' || fail "not mermaid"
}

@test "lineage: the explode's element kept nested is an exploded build, its fields exploded and lifted" {
	cp -R "$EXAMPLES/shapes" shapes
	cd shapes/flattened
	# An output named like the explode's "as", of the element's type.
	subst_in() { python3 -c 'import sys; p, o, n = sys.argv[1:]; s = open(p).read(); assert o in s; open(p, "w").write(s.replace(o, n, 1))' "$@"; }
	subst_in orders-items.fluid.yaml '        - {name: sku' '        - name: item
          type: struct
          fields:
            - {name: sku, type: string}
            - {name: quantity, type: long}
        - {name: sku'
	"$BIN/fluid-resolve" orders-items.fluid.yaml | "$BIN/fluid-check" >checked.json ||
	    fail "the edited contract is refused"
	tool lineage orders-items.fluid.yaml
	assert_status 0
	expected_from_binding <checked.json | diff -u - <(grep -v -E '^(build |  (stream|table|explode): |$)' <<<"$output") ||
	    fail "not the binding"
	[[ $output == *$'\n  item <- value items[] (explode, build)\n  item.sku <- value items[].sku (explode, lift)\n  item.quantity <- value items[].quantity (explode, lift, widen int to long)\n'* ]] ||
	    fail "the nested element" "$output"
}

@test "lineage: a build's own SQL is opaque: each column from it, no stream path" {
	no_mapping
	subst '      parameters:' '      sql: SELECT event_id, quantity FROM source_events
      parameters:'
	tool lineage "$F"
	assert_status 0
	# (The checker's warning about own SQL is on stderr.)
	# As many columns as the expose has, each from the own SQL.
	local n
	n=$("$BIN/fluid-resolve" "$F" | "$BIN/fluid-check" | jq '.check.builds[0].outputs | length')
	[ "$n" -ge 2 ] || fail "only $n outputs"
	assert_equal "$(grep -c ' <- own SQL (opaque)$' <<<"$output")" "$n"
	[[ $output != *' <- value '* ]] || fail "a stream path" "$output"
	"$BIN/fluid-resolve" "$F" | "$BIN/fluid-check" | "$BIN/fluid-lineage" --format dot | dot -Tsvg >/dev/null ||
	    fail "dot refused the own SQL's graph"
}
