#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# ir-passthrough.bats - fluid-check and fluid-sqlgen copy the sections
# they were given from the bytes they read instead of writing them again
# (lib/ir.c).  That is only right while a stage changes nothing it was
# given.  A pretty-printed input cannot be copied, so the stage writes
# its whole tree: the two outputs must be the same bytes, and they differ
# as soon as a stage changes an earlier section.

load helpers

setup() {
	TOOL=fluid-check
	fluid_setup
}
teardown() { fluid_teardown; }

# landed_documents: r.json and c.json, what fluid-resolve and fluid-check
# write for the landed example.
landed_documents() {
	"$BIN/fluid-resolve" "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" \
	    >r.json
	"$BIN/fluid-check" <r.json >c.json
}

# both_ways STAGE IN OUT: STAGE on IN as it is, and on IN pretty-printed,
# must give the same status, output and diagnostics; OUT gets the output.
both_ways() {
	local stage=$1 in=$2 out=$3 st1=0 st2=0
	"$BIN/$stage" <"$in" >"$out" 2>"$TMP/e1" || st1=$?
	jq . "$in" >"$TMP/pretty.json"
	"$BIN/$stage" <"$TMP/pretty.json" >"$TMP/whole.json" 2>"$TMP/e2" ||
	    st2=$?
	[ "$st1" -eq "$st2" ] ||
	    fail "$stage on $in: $st1 copied, $st2 written whole"
	cmp -s "$TMP/e1" "$TMP/e2" || fail "$stage on $in: diagnostics differ"
	cmp -s "$out" "$TMP/whole.json" ||
	    fail "$stage on $in: copied and whole outputs differ" \
	    "$(cmp "$out" "$TMP/whole.json")"
}

@test "passthrough: every example and fixture, copied or written whole, is the same" {
	local f n=0
	for f in "$EXAMPLES"/shapes/*/*.fluid.yaml "$EXAMPLES"/cfk/*.fluid.yaml \
	    $(find "$FIXTURES" -name '*.fluid.yaml' | sort); do
		"$BIN/fluid-resolve" "$f" >"$TMP/r.json" 2>/dev/null || continue
		both_ways fluid-check "$TMP/r.json" "$TMP/c.json"
		[ -s "$TMP/c.json" ] || continue
		both_ways fluid-sqlgen "$TMP/c.json" "$TMP/s.json"
		n=$((n + 1))
	done
	# The examples alone hold more contracts that reach fluid-sqlgen.
	[ "$n" -ge 5 ] || fail "only $n contracts reached fluid-sqlgen"
}

@test "passthrough: the copy keeps every section, in the order written" {
	landed_documents
	"$BIN/fluid-sqlgen" <c.json >s.json
	assert_equal "$(jq -c '[keys_unsorted, .stages]' s.json)" \
	    '[["fluidIR","stages","resolve","check","sqlgen"],["resolve","check","sqlgen"]]' \
	    "members and stages"
	assert_equal "$(jq -c '.resolve' s.json)" "$(jq -c '.resolve' r.json)" \
	    "resolve section"
	assert_equal "$(jq -c '.check' s.json)" "$(jq -c '.check' c.json)" \
	    "check section"
}

@test "passthrough: blank space around the input changes nothing" {
	landed_documents
	{ printf ' \n'; cat r.json; printf '\n \t\n'; } >spaced.json
	"$BIN/fluid-check" <spaced.json >c2.json
	cmp c.json c2.json
}

@test "passthrough: a section already named like the stage's is replaced, never doubled" {
	landed_documents
	# A document that lists only resolve but holds a stale "check".
	jq -c '. + {check: "stale"}' r.json >stale.json
	"$BIN/fluid-check" <stale.json >c2.json
	cmp c.json c2.json
	"$BIN/fluid-sqlgen" <c2.json >/dev/null
}

@test "passthrough: an input whose header is not the one stages write is written whole" {
	landed_documents
	# The same members, stages first: not the copyable form.
	jq -c '{stages, fluidIR, resolve}' r.json >reordered.json
	"$BIN/fluid-check" <reordered.json >c2.json
	assert_equal "$(jq -c 'keys_unsorted' c2.json)" \
	    '["stages","fluidIR","resolve","check"]' "members"
	assert_equal "$(jq -cS . c2.json)" "$(jq -cS . c.json)" "content"
}

# fluid-sqlgen parses only the header and the check section of a compact
# document (ir_read_only()); the rest it only finds the end of.

@test "parts: fluid-sqlgen refuses a duplicate section it does not parse" {
	TOOL=fluid-sqlgen
	landed_documents
	# Text surgery: a second "resolve" member just before the last brace,
	# whose key ends 9 columns past where that brace stood.
	local col=$(($(wc -c <c.json) + 8))
	sed 's/}$/,"resolve":{}}/' c.json >dup.json
	refuses 2 <dup.json \
	    "^fluid-sqlgen: standard input is not a pipeline document: line 1 column $col: duplicate object key near '\"resolve\"'\$"
}

@test "parts: fluid-sqlgen refuses a broken check section or a cut document" {
	TOOL=fluid-sqlgen
	landed_documents
	# "tru" ends 12 columns past the (0-based) offset of "check":{.
	local col=$(($(grep -bo '"check":{' c.json | cut -d: -f1) + 12))
	sed 's/"check":{/"check":{tru,/' c.json >broken.json
	refuses 2 <broken.json \
	    "^fluid-sqlgen: standard input is not a pipeline document: line 1 column $col: string or '}' expected near 'tru'\$"
	head -c 3000 c.json >cut.json
	refuses 2 <cut.json \
	    "^fluid-sqlgen: standard input is not a pipeline document: line 1 column 3000: premature end of input near .*\$"
}

@test "parts: a string holding brackets, quotes and backslashes does not end a section early" {
	landed_documents
	# A member the stages do not know, full of what ends a value.
	jq -c '. + {"x-note": "}],\"\\\\\"{[ ,"}' c.json >noted.json
	"$BIN/fluid-sqlgen" <noted.json >s.json
	assert_equal "$(jq -c '."x-note"' s.json)" "$(jq -c '."x-note"' noted.json)" \
	    "copied member"
	assert_equal "$(jq -c '.sqlgen' s.json)" \
	    "$(jq . c.json | "$BIN/fluid-sqlgen" | jq -c .sqlgen)" "sqlgen section"
}

@test "parts: a section fluid-sqlgen does not parse is copied unchecked; spread over lines, it is parsed and refused" {
	TOOL=fluid-sqlgen
	landed_documents
	"$BIN/fluid-sqlgen" <c.json >s.json
	# In the resolve section, a duplicate key and a string full of what
	# ends a value: only a copy that found the section's end by itself
	# keeps them, and only a stage that did not parse it lets them by.
	local x='"x-note":{"a":"]}\"[{ ,","a":2},'
	sed "s/\"resolve\":{/&$(printf '%s' "$x" | sed 's/[\\&/]/\\&/g')/" \
	    c.json >dup.json
	grep -qF "$x" dup.json || fail "the test input lacks the member"
	run --separate-stderr "$BIN/fluid-sqlgen" <dup.json
	assert_status 0
	assert_no_stderr
	grep -qF "\"resolve\":{$x" <<<"$output" ||
	    fail "the section was not copied as it was read" "$output"
	assert_equal "$(jq -c .sqlgen <<<"$output")" "$(jq -c .sqlgen s.json)" \
	    "sqlgen section"
	sed 's/"resolve":{/"resolve":\n{/' dup.json >spread.json
	refuses 2 <spread.json \
	    "^fluid-sqlgen: standard input is not a pipeline document: line 2 column [0-9]+: duplicate object key near '\"a\"'\$"
}

@test "parts: a stale sqlgen section is replaced, never doubled" {
	landed_documents
	"$BIN/fluid-sqlgen" <c.json >s.json
	# Listed up to check, but holding an old sqlgen section.
	sed 's/}$/,"sqlgen":"stale"}/' c.json >stale.json
	"$BIN/fluid-sqlgen" <stale.json >s2.json
	cmp s.json s2.json
	# And one in the middle, before check.
	jq -c '{fluidIR, stages, resolve, sqlgen: "stale", check}' c.json \
	    >middle.json
	"$BIN/fluid-sqlgen" <middle.json >s3.json
	assert_equal "$(jq -c 'keys_unsorted' s3.json)" \
	    '["fluidIR","stages","resolve","sqlgen","check"]' "members"
	assert_equal "$(jq -c .sqlgen s3.json)" "$(jq -c .sqlgen s.json)" \
	    "sqlgen section"
}

@test "passthrough: blank space inside the sections is not copied; the output stays one line" {
	landed_documents
	"$BIN/fluid-sqlgen" <c.json >s.json
	# The header as a stage writes it, then a section spread over lines.
	sed 's/"resolve":{/"resolve":\n  {/' r.json >spread-r.json
	sed 's/"resolve":{/"resolve":\n  {/' c.json >spread-c.json
	[ "$(wc -l <spread-c.json)" -eq 2 ] || fail "the test input is one line"
	"$BIN/fluid-check" <spread-r.json >c2.json
	cmp c.json c2.json
	"$BIN/fluid-sqlgen" <spread-c.json >s2.json
	cmp s.json s2.json
}

@test "parts: a NUL byte after the document is refused, not taken for blank space" {
	TOOL=fluid-sqlgen
	landed_documents
	{ cat c.json; printf '\0\n'; } >nul.json
	refuses 2 <nul.json \
	    "^fluid-sqlgen: standard input is not a pipeline document: line 2 column 1: end of file expected near end of file\$"
	TOOL=fluid-check
	{ cat r.json; printf '\0\n'; } >nul.json
	refuses 2 <nul.json \
	    "^fluid-check: standard input is not a pipeline document: line 2 column 1: end of file expected near end of file\$"
}

# fluid-k8s render and plan and fluid-verify parse the check section
# without each build's outputs and stream columns (ir_read_pruned(),
# lib/ir_prune.c); they still write the section whole.

# render_both_ways IN OUT: fluid-k8s render on IN as it is (pruned, the
# sections copied) and pretty-printed (parsed whole): the same status,
# diagnostics and output.
render_both_ways() {
	local st1=0 st2=0
	"$BIN/fluid-k8s" render <"$1" >"$2" 2>"$TMP/e1" || st1=$?
	jq . "$1" >"$TMP/pretty.json"
	"$BIN/fluid-k8s" render <"$TMP/pretty.json" >"$TMP/whole.json" \
	    2>"$TMP/e2" || st2=$?
	[ "$st1" -eq "$st2" ] || fail "render on $1: $st1 pruned, $st2 whole"
	cmp -s "$TMP/e1" "$TMP/e2" || fail "render on $1: diagnostics differ"
	cmp -s "$2" "$TMP/whole.json" ||
	    fail "render on $1: pruned and whole outputs differ"
}

@test "prune: fluid-k8s render, the check section pruned or parsed whole, is the same" {
	local f n=0
	for f in "$EXAMPLES"/shapes/*/*.fluid.yaml "$EXAMPLES"/cfk/*.fluid.yaml \
	    $(find "$FIXTURES" -name '*.fluid.yaml' | sort); do
		"$BIN/fluid-resolve" "$f" 2>/dev/null |
		    "$BIN/fluid-check" 2>/dev/null |
		    "$BIN/fluid-sqlgen" >"$TMP/s.json" 2>/dev/null || continue
		render_both_ways "$TMP/s.json" "$TMP/k.json"
		[ -s "$TMP/k.json" ] && n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n contracts rendered"
}

@test "prune: written whole (a stale k8s section), the check section keeps its outputs and stream columns" {
	landed_documents
	"$BIN/fluid-sqlgen" <c.json >s.json
	"$BIN/fluid-k8s" render <s.json >k.json
	sed 's/}$/,"k8s":"stale"}/' s.json >stale.json
	"$BIN/fluid-k8s" render <stale.json >k2.json
	assert_equal "$(jq -c '.check.builds[0].outputs | length' k2.json)" \
	    "$(jq -c '.check.builds[0].outputs | length' c.json)" "outputs"
	[ "$(jq -c '.check.builds[0].outputs | length' c.json)" -gt 0 ] ||
	    fail "the example has no outputs"
	assert_equal "$(jq -c .check k2.json)" "$(jq -c .check c.json)" \
	    "check section"
	assert_equal "$(jq -c .k8s k2.json)" "$(jq -c .k8s k.json)" \
	    "k8s section"
}

@test "prune: fluid-verify's report and fluid-k8s plan do not change with pruning" {
	landed_documents
	"$BIN/fluid-sqlgen" <c.json | "$BIN/fluid-k8s" render >k.json
	jq . k.json >pretty.json
	run --separate-stderr "$BIN/fluid-k8s" plan --mode dry-run <k.json
	local st=$status out=$output
	run --separate-stderr "$BIN/fluid-k8s" plan --mode dry-run <pretty.json
	assert_equal "$status" "$st" "plan status"
	assert_equal "$output" "$out" "plan"
	# Stopped after reading (no catalog is contacted): the same refusal.
	FLUID_HTTP_TIMEOUT=0 run --separate-stderr "$BIN/fluid-verify" <k.json
	assert_status 2
	assert_equal "$stderr" \
	    "fluid-verify: FLUID_HTTP_TIMEOUT expects seconds from 1 to 600" \
	    "verify"
}
