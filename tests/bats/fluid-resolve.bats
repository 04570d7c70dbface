#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-resolve: one contract and its $ref fragments in, one pipeline
# document out; every refusal is exit 1 and one "FILE:LINE:COL: error:"
# line, every usage or environment error exit 2.
#
# The expected lines and columns below come from the YAML written here
# (1-based; a mapping stands where its first key does, a node with a tag
# or an anchor where that property starts), not from the program's output.

load helpers

setup() {
	TOOL=fluid-resolve
	fluid_setup
	R="$FIXTURES/resolve"
}

teardown() {
	fluid_teardown
}

# refuses_line STATUS ARGS... LINE: $TOOL ARGS exits STATUS, with
# nothing on standard output and exactly LINE on standard error (a
# string, not a pattern: the file, line, column and message pinned).
refuses_line() {
	local want=$1 line=${!#}
	shift
	tool "${@:1:$#-1}"
	assert_status "$want"
	assert_no_stdout
	assert_stderr_is "$line"
}

# assert_stderr_is LINE: standard error is exactly LINE.
assert_stderr_is() {
	assert_equal "$stderr" "$1" "standard error"
}

# The positions of a resolve section, decoded as fluid-ir(5) says, into
# {"/pointer": [file index, line, column]}: one record per node of the
# document, in its order ("path(..)" in jq).
POSDEF='def positions:
  (.positions / " ") as $r | [.document | path(..)] as $p
  | if ($r | length) != ($p | length)
    then error("the positions do not match the document") else . end
  | reduce range(0; $r | length) as $i ({f: 0, l: 0, m: {}};
      if $r[$i] == "-" then . else
        ($r[$i] / "@") as $a
        | (if ($a | length) == 2 then .f = ($a[0] | tonumber) else . end)
        | ($a[-1] / ",") as $b
        | .l += (if $b[0] == "" then 0 else ($b[0] | tonumber) end)
        | .m[$p[$i] | map(tostring | gsub("~"; "~0") | gsub("/"; "~1"))
            | map("/" + .) | join("")] = [.f, .l, ($b[1] | tonumber)]
      end)
  | .m;'

# assert_pos [JQ OPTIONS] FILTER: assert_jq with positions defined.
assert_pos() {
	local filter=${!#}
	assert_jq "${@:1:$#-1}" "$POSDEF $filter"
}

# --- refusals: one file ------------------------------------------------

@test "resolve: malformed YAML is refused with libyaml's message and place" {
	cd "$R"
	refuses 1 malformed.yaml \
	    '^malformed\.yaml:4:13: error: malformed YAML: mapping values are not allowed in this context$'
}

@test "resolve: a tab where indentation belongs is malformed YAML" {
	printf 'id: orders\nmetadata:\n\towner: x\n' >tab.yaml
	refuses 1 tab.yaml \
	    '^tab\.yaml:3:1: error: malformed YAML: found character that cannot start any token'
}

@test "resolve: an unclosed flow sequence is malformed YAML" {
	printf 'id: orders\nlist: [a, b\n' >unclosed.yaml
	refuses 1 unclosed.yaml '^unclosed\.yaml:[0-9]+:[0-9]+: error: malformed YAML: .+'
}

@test "resolve: an empty file is refused" {
	cd "$R"
	refuses 1 empty.yaml '^empty\.yaml(:1:1)?: error: .*empty'
}

@test "resolve: a file with only comments is refused" {
	cd "$R"
	refuses 1 comments-only.yaml '^comments-only\.yaml(:[0-9]+:[0-9]+)?: error: .*empty'
}

@test "resolve: a lone '---' is an empty document, not a contract" {
	printf -- '---\n' >dashes.yaml
	refuses_line 1 dashes.yaml \
	    'dashes.yaml:2:1: error: a contract must be a mapping at the top level, not empty'
}

@test "resolve: a top-level list is refused" {
	cd "$R"
	refuses 1 top-list.yaml '^top-list\.yaml:1:1: error: .*mapping.*list'
}

@test "resolve: a top-level scalar is refused" {
	cd "$R"
	refuses 1 top-scalar.yaml '^top-scalar\.yaml:1:1: error: .*mapping'
}

@test "resolve: a duplicate key is refused where it repeats" {
	cd "$R"
	refuses 1 duplicate-key.yaml \
	    "^duplicate-key\.yaml:3:1: error: duplicate key 'id'$"
}

@test "resolve: a duplicate key in a nested mapping is refused" {
	cd "$R"
	refuses 1 duplicate-key-nested.yaml \
	    "^duplicate-key-nested\.yaml:5:5: error: duplicate key 'team'$"
}

@test "resolve: a duplicate key in a flow mapping is refused" {
	printf 'id: orders\nstream: {topic: a, kind: kafka, topic: b}\n' >flow.yaml
	refuses 1 flow.yaml "^flow\.yaml:2:33: error: duplicate key 'topic'$"
}

@test "resolve: keys that differ only in quoting are duplicates" {
	printf 'id: orders\n"id": again\n' >quoted.yaml
	refuses 1 quoted.yaml "^quoted\.yaml:2:1: error: duplicate key 'id'$"
}

@test "resolve: an integer key is refused" {
	cd "$R"
	refuses 1 key-int.yaml "^key-int\.yaml:2:1: error: .*key '1'.*string"
}

@test "resolve: a boolean key is refused" {
	cd "$R"
	refuses 1 key-bool.yaml "^key-bool\.yaml:2:1: error: .*key 'true'.*string"
}

@test "resolve: a null key is refused" {
	cd "$R"
	refuses 1 key-null.yaml "^key-null\.yaml:2:1: error: .*key.*string"
}

@test "resolve: a quoted number is a good key" {
	printf 'id: orders\n"1": x\n'"'true'"': y\n' >quoted-keys.yaml
	accepts quoted-keys.yaml
	assert_jq '.resolve.document == {"id": "orders", "1": "x", "true": "y"}'
}

@test "resolve: a complex (sequence) key is refused" {
	cd "$R"
	refuses 1 key-complex.yaml '^key-complex\.yaml:2:3: error: .*key.*string'
}

@test "resolve: a mapping as a key is refused" {
	printf 'id: orders\n? {a: 1}\n: c\n' >mapkey.yaml
	refuses 1 mapkey.yaml '^mapkey\.yaml:2:3: error: .*key.*string'
}

@test "resolve: an alias as a key is refused" {
	cd "$R"
	refuses 1 key-alias.yaml '^key-alias\.yaml:2:1: error: .*key'
}

@test "resolve: a !!str tag is refused" {
	cd "$R"
	refuses 1 tag-str.yaml '^tag-str\.yaml:2:7: error: .*tag.*str'
}

@test "resolve: a custom tag is refused" {
	cd "$R"
	refuses 1 tag-custom.yaml '^tag-custom\.yaml:2:9: error: .*tag.*!custom'
}

@test "resolve: a tag on a sequence is refused" {
	printf 'id: orders\nlist: !!seq [a]\n' >seqtag.yaml
	refuses 1 seqtag.yaml '^seqtag\.yaml:2:7: error: .*tag'
}

@test "resolve: a merge key is refused" {
	cd "$R"
	refuses 1 merge-key.yaml "^merge-key\.yaml:5:3: error: .*merge.*'<<'"
}

@test "resolve: a quoted '<<' is an ordinary key" {
	printf 'id: orders\n"<<": x\n' >lt.yaml
	accepts lt.yaml
	assert_jq '.resolve.document["<<"] == "x"'
}

@test "resolve: plain aliases expand to copies of their anchor" {
	mkfile alias.yaml <<'EOF'
base: &b {kind: kafka, list: [1, 2]}
copy: *b
EOF
	accepts alias.yaml
	assert_jq '.resolve.document.copy == {"kind": "kafka", "list": [1, 2]}'
	assert_jq '.resolve.document.copy == .resolve.document.base'
	# fluid-resolve(1): the copy's nodes are placed at the alias.
	assert_pos '(.resolve | positions)["/base/kind"] == [0, 1, 17]'
	assert_pos '(.resolve | positions)["/copy"] == [0, 2, 7]'
	assert_pos '(.resolve | positions)["/copy/kind"] == [0, 2, 7]'
	assert_pos '(.resolve | positions)["/copy/list/1"] == [0, 2, 7]'
}

@test "resolve: the billion laughs is refused quickly, at the alias that passes the budget" {
	[ -z "${FLUID_VALGRIND:-}" ] ||
	    skip "4,000,000 nodes are too slow under valgrind"
	cd "$R"
	# Levels a..f hold about 1.36 million nodes with their aliases; g's
	# first two *f reach about 3.8 million and the third passes 4,000,000.
	local line
	line=$(line_of billion-laughs.yaml '^g: ')
	run --separate-stderr timeout 10 "$BIN/fluid-resolve" billion-laughs.yaml
	[ "$status" -ne 124 ] || fail "not refused within 10 seconds"
	assert_status 1
	assert_no_stdout
	assert_stderr_is "billion-laughs.yaml:$line:16: error: document has more than 4000000 nodes (aliases and \$refs expanded)"
}

@test "resolve: an unknown alias is refused" {
	cd "$R"
	refuses 1 unknown-alias.yaml "^unknown-alias\\.yaml:2:9: error: .*alias.*nowhere"
}

@test "resolve: an alias used before its anchor is unknown" {
	printf 'a: *x\nb: &x 1\n' >early.yaml
	refuses 1 early.yaml '^early\.yaml:1:4: error: .*alias'
}

@test "resolve: two documents in one file are refused" {
	cd "$R"
	refuses 1 two-documents.yaml '^two-documents\.yaml:2:1: error: .*document'
}

@test "resolve: an integer out of range is refused" {
	cd "$R"
	refuses 1 integer-range.yaml '^integer-range\.yaml:2:9: error: .*range'
}

@test "resolve: a negative integer out of range is refused" {
	cd "$R"
	refuses 1 negative-integer-range.yaml \
	    '^negative-integer-range\.yaml:2:9: error: .*range'
}

@test "resolve: a hexadecimal integer out of range is refused" {
	printf 'id: orders\nmask: 0x10000000000000000\n' >hex.yaml
	refuses 1 hex.yaml '^hex\.yaml:2:7: error: .*range'
}

@test "resolve: the largest 64-bit integers are accepted exactly" {
	printf 'max: 9223372036854775807\nmin: -9223372036854775808\n' >edge.yaml
	accepts edge.yaml
	# jq reads numbers as doubles: compare the text.
	[[ $output == *'"max":9223372036854775807'* || $output == *'"max": 9223372036854775807'* ]] ||
	    fail "max not kept exactly" "$(show)"
	[[ $output == *'-9223372036854775808'* ]] || fail "min not kept" "$(show)"
}

@test "resolve: an infinite number is refused" {
	printf 'id: orders\nratio: .inf\n' >inf.yaml
	refuses 1 inf.yaml '^inf\.yaml:2:8: error: .*finite'
}

@test "resolve: collections nested too deep are refused" {
	{ printf 'a: '; head -c 300 /dev/zero | tr '\0' '['
	  head -c 300 /dev/zero | tr '\0' ']'; echo; } >deep.yaml
	# The mapping is level 1; the 256th '[' (column 3 + 256) is level 257.
	refuses_line 1 deep.yaml 'deep.yaml:1:259: error: YAML nested deeper than 256 levels'
}

@test "resolve: collections nest 256 deep, not 257" {
	{ head -c 256 /dev/zero | tr '\0' '['; head -c 256 /dev/zero | tr '\0' ']'
	  echo; } >d256.yaml
	{ head -c 257 /dev/zero | tr '\0' '['; head -c 257 /dev/zero | tr '\0' ']'
	  echo; } >d257.yaml
	# (jq cannot read JSON nested this deep: look at the text.)
	tool --fragment schema --schema-version 0.7.7 d256.yaml
	assert_status 0
	assert_no_stderr
	[[ $output == *'"digest":"sha256:'* ]] || fail "no document" "$(show)"
	refuses 1 --fragment schema --schema-version 0.7.7 d257.yaml \
	    '^d257\.yaml:1:257: error: .*256'
}

@test "resolve: a scalar of exactly 1 MiB is accepted" {
	{ printf 'id: orders\nblob: '; head -c 1048576 /dev/zero | tr '\0' x; echo; } >mib.yaml
	accepts mib.yaml
	assert_jq '.resolve.document.blob | length == 1048576'
}

@test "resolve: a scalar of 1 MiB and one byte is refused" {
	{ printf 'id: orders\nblob: '; head -c 1048577 /dev/zero | tr '\0' x; echo; } >mib.yaml
	refuses 1 mib.yaml '^mib\.yaml:2:7: error: .*1048576'
}

@test "resolve: a key of 4096 bytes is accepted, 4097 refused" {
	{ printf 'id: orders\n? '; head -c 4096 /dev/zero | tr '\0' k; printf '\n: v\n'; } >k4096.yaml
	{ printf 'id: orders\n? '; head -c 4097 /dev/zero | tr '\0' k; printf '\n: v\n'; } >k4097.yaml
	accepts k4096.yaml
	assert_jq '.resolve.document | keys | map(length) | sort == [2, 4096]'
	refuses 1 k4097.yaml '^k4097\.yaml:2:3: error: .*key'
}

@test "resolve: columns are counted in characters, not bytes" {
	printf 'k\303\251: \303\261\nx: {\303\261: 1, \303\261: 2}\n' >u.yaml
	refuses 1 u.yaml "^u\\.yaml:2:11: error: duplicate key '$(printf '\303\261')'$"
	printf 'k\303\251: \303\261\n' >u.yaml
	accepts u.yaml
	assert_pos '(.resolve | positions)["/k\u00e9"] == [0, 1, 5]'
}

@test "resolve: a failed write of standard output is an environment error" {
	[ -w /dev/full ] || skip "no /dev/full"
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	run --separate-stderr bash -c '"$1" c.yaml >/dev/full' _ "$BIN/fluid-resolve"
	assert_status 2
	assert_stderr_is 'fluid-resolve: cannot write standard output: No space left on device'
}

@test "resolve: a scalar over 1 MiB is refused" {
	{ printf 'id: orders\nblob: '; head -c 1100000 /dev/zero | tr '\0' x; echo; } >long.yaml
	refuses_line 1 long.yaml 'long.yaml:2:7: error: scalar longer than 1048576 bytes'
}

@test "resolve: a file over 64 MiB is refused" {
	# Sparse: 65 MiB of NUL bytes that cost no disk.
	truncate -s 65M big.yaml
	refuses_line 1 big.yaml 'big.yaml: error: cannot read: file larger than 64 MiB'
}

@test "resolve: invalid UTF-8 is refused at the bad byte" {
	printf 'id: orders\nname: landed\nowner: caf\xff\n' >utf8.yaml
	refuses 1 utf8.yaml '^utf8\.yaml:3:11: error: .*UTF-8'
}

@test "resolve: a truncated UTF-8 sequence is refused at its line" {
	printf 'id: orders\nname: landed\nowner: caf\xc3\n' >utf8.yaml
	refuses 1 utf8.yaml '^utf8\.yaml:3:[0-9]+: error: .*UTF-8'
}

@test "resolve: a NUL byte in the file is refused at its place" {
	printf 'id: orders\nname: a\000b\n' >nul.yaml
	refuses_line 1 nul.yaml \
	    'nul.yaml:2:8: error: malformed YAML: control characters are not allowed'
}

@test "resolve: an escaped NUL in a string is refused" {
	printf 'id: orders\nname: "a\\0b"\n' >nul.yaml
	refuses 1 nul.yaml '^nul\.yaml:2:7: error: .*NUL'
}

@test "resolve: an escaped NUL in a key is refused" {
	printf 'id: orders\n"a\\0b": x\n' >nul.yaml
	refuses 1 nul.yaml '^nul\.yaml:2:1: error: .*key'
}

@test "resolve: --diagnostics=json prints one JSON object per error" {
	cd "$R"
	tool --diagnostics=json duplicate-key-nested.yaml
	assert_status 1
	assert_no_stdout
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "want one line" "$(show)"
	jq -e '.level == "error" and .file == "duplicate-key-nested.yaml"
	    and .line == 5 and .column == 5
	    and (.message | test("duplicate key .team."))' \
	    <<<"${stderr_lines[0]}" >/dev/null || fail "bad JSON diagnostic" "$(show)"
}

# --- refusals: $ref ----------------------------------------------------

# A workspace-less contract dir ws/ (so the root is ws/ itself), with a
# file just outside it.
make_ws() {
	mkdir -p ws
	mkfile outside.yaml <<'EOF'
kind: kafka
topic: secret
EOF
	mkfile ws/stream.yaml <<'EOF'
kind: kafka
topic: orders
EOF
}

# contract_ref FILE REF: a contract whose /stream is {$ref: REF}; the
# mapping is at 3:3, the $ref value at 3:9.
contract_ref() {
	mkfile "$1" <<EOF
id: orders
stream:
  \$ref: '$2'
EOF
}

@test "resolve: a \$ref is replaced by the file it names" {
	make_ws
	contract_ref ws/c.yaml stream.yaml
	cd ws
	accepts c.yaml
	assert_jq '.resolve.document == {"id": "orders",
	    "stream": {"kind": "kafka", "topic": "orders"}}'
	assert_jq '.resolve.files == ["c.yaml", "stream.yaml"]'
	assert_pos '(.resolve | positions)["/stream/topic"] == [1, 2, 8]'
	assert_pos '(.resolve | positions)["/id"] == [0, 1, 5]'
}

@test "resolve: a \$ref with a JSON pointer takes that node, escapes decoded" {
	make_ws
	mkfile ws/frag.yaml <<'EOF'
defs:
  a/b: {slash: 1}
  m~n: {tilde: 2}
  list: [zero, one]
EOF
	mkfile ws/c.yaml <<'EOF'
id: orders
x: {$ref: "frag.yaml#/defs/a~1b"}
y: {$ref: "frag.yaml#/defs/m~0n"}
z: {$ref: "frag.yaml#/defs/list/1"}
same: {$ref: "#/id"}
EOF
	cd ws
	accepts c.yaml
	assert_jq '.resolve.document == {"id": "orders", "x": {"slash": 1},
	    "y": {"tilde": 2}, "z": "one", "same": "orders"}'
}

@test "resolve: a \$ref leaving the root through .. is refused" {
	make_ws
	contract_ref ws/c.yaml ../outside.yaml
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' '../outside.yaml' leaves the workspace root $(pwd -P)"
}

@test "resolve: a \$ref leaving the root through an absolute path is refused" {
	make_ws
	contract_ref ws/c.yaml "$TMP/outside.yaml"
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' '$TMP/outside.yaml' leaves the workspace root $(pwd -P)"
}

@test "resolve: a \$ref to /etc/passwd is refused" {
	make_ws
	contract_ref ws/c.yaml /etc/passwd
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' '/etc/passwd' leaves the workspace root $(pwd -P)"
}

@test "resolve: a \$ref leaving the root through a symlinked file is refused" {
	make_ws
	ln -s ../outside.yaml ws/link.yaml
	contract_ref ws/c.yaml link.yaml
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' 'link.yaml' leaves the workspace root $(pwd -P)"
}

@test "resolve: a \$ref leaving the root through a symlinked directory is refused" {
	make_ws
	mkdir elsewhere
	cp outside.yaml elsewhere/s.yaml
	ln -s "$TMP/elsewhere" ws/shared
	contract_ref ws/c.yaml shared/s.yaml
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' 'shared/s.yaml' leaves the workspace root $(pwd -P)"
}

@test "resolve: a directory whose name starts with the root's is outside it" {
	make_ws
	mkfile ws2/s.yaml <<'EOF'
topic: next door
EOF
	contract_ref ws/c.yaml ../ws2/s.yaml
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' '../ws2/s.yaml' leaves the workspace root $(pwd -P)"
}

@test "resolve: a symlink that stays inside the root is followed" {
	make_ws
	ln -s stream.yaml ws/alias.yaml
	contract_ref ws/c.yaml alias.yaml
	cd ws
	accepts c.yaml
	assert_jq '.resolve.document.stream.topic == "orders"'
}

@test "resolve: a fragment's own \$ref may not leave the root either" {
	make_ws
	mkfile ws/frag.yaml <<'EOF'
kind: kafka
schema:
  $ref: ../outside.yaml
EOF
	contract_ref ws/c.yaml frag.yaml
	cd ws
	refuses_line 1 c.yaml "frag.yaml:3:3: error: '\$ref' '../outside.yaml' leaves the workspace root $(pwd -P)"
}

@test "resolve: a \$ref cycle a -> b -> a is refused" {
	mkfile a.yaml <<'EOF'
id: a
x:
  $ref: b.yaml
EOF
	mkfile b.yaml <<'EOF'
y:
  $ref: a.yaml
EOF
	run --separate-stderr timeout "$((10 * FLUID_SLOWDOWN))" "$BIN/fluid-resolve" a.yaml
	assert_status 1
	assert_no_stdout
	# Either $ref of the loop may be named.
	assert_stderr_is "a.yaml:3:3: error: '\$ref' 'b.yaml' is a cycle: it leads back to itself through b.yaml"
}

@test "resolve: a \$ref to its own file is a cycle" {
	mkfile self.yaml <<'EOF'
id: self
x:
  $ref: self.yaml
EOF
	refuses_line 1 self.yaml \
	    "self.yaml:3:3: error: '\$ref' 'self.yaml' is a cycle: it leads back to itself through self.yaml"
}

@test "resolve: a \$ref to the document that holds it (#) is a cycle" {
	mkfile self.yaml <<'EOF'
id: self
x:
  $ref: "#"
EOF
	refuses_line 1 self.yaml \
	    "self.yaml:3:3: error: '\$ref' '#' is a cycle: it leads back to itself through self.yaml"
}

@test "resolve: a \$ref pointing at itself is a cycle" {
	mkfile self.yaml <<'EOF'
id: self
x:
  $ref: "#/x"
EOF
	refuses_line 1 self.yaml \
	    "self.yaml:3:3: error: '\$ref' '#/x' is a cycle: it leads back to itself through self.yaml"
}

@test "resolve: the same fragment used twice is not a cycle, and is read once" {
	make_ws
	mkfile ws/c.yaml <<'EOF'
id: orders
one: {$ref: stream.yaml}
two: {$ref: stream.yaml}
nested: {deep: {$ref: "stream.yaml#/topic"}}
EOF
	cd ws
	accepts c.yaml
	assert_jq '.resolve.document.one == .resolve.document.two'
	assert_jq '.resolve.document.nested.deep == "orders"'
	assert_jq '.resolve.files == ["c.yaml", "stream.yaml"]'
	assert_pos '(.resolve | positions)["/one/topic"] == [1, 2, 8]'
	assert_pos '(.resolve | positions)["/two/topic"] == [1, 2, 8]'
}

@test "resolve: a chain of 100 \$refs is refused, not followed forever" {
	local i
	for i in $(seq 0 99); do
		printf 'next: {$ref: f%d.yaml}\n' $((i + 1)) >f$i.yaml
	done
	echo 'end: true' >f100.yaml
	# The 65th \$ref is the one in f64.yaml, at its flow mapping's '{'.
	refuses_line 1 f0.yaml "f64.yaml:1:7: error: '\$ref' 'f65.yaml' nests more than 64 \$refs deep"
}

# chain N: f0.yaml (the contract) -> f1.yaml -> ... -> fN.yaml, N $refs
# nested in one another.
chain() {
	local i
	for i in $(seq 0 $(($1 - 1))); do
		printf 'next: {$ref: f%d.yaml}\n' $((i + 1)) >f$i.yaml
	done
	echo 'end: true' >f$1.yaml
}

@test "resolve: \$refs nest 64 deep" {
	chain 64
	accepts f0.yaml
	assert_jq '[.resolve.document | recurse(.next; . != null)] | length == 65'
	assert_jq '.resolve.files | length == 65'
}

@test "resolve: \$refs do not nest 65 deep" {
	chain 65
	# The 65th $ref is the one in f64.yaml.
	refuses_line 1 f0.yaml "f64.yaml:1:7: error: '\$ref' 'f65.yaml' nests more than 64 \$refs deep"
}

@test "resolve: a chain of 10 \$refs is fine" {
	local i
	for i in $(seq 0 9); do
		printf 'next: {$ref: f%d.yaml}\n' $((i + 1)) >f$i.yaml
	done
	echo 'end: true' >f10.yaml
	accepts f0.yaml
	assert_jq '.resolve.document.next.next.next.next.next.next.next.next.next.next == {"end": true}'
}

@test "resolve: a \$ref bomb (nine levels of ten \$refs) is refused quickly" {
	[ -z "${FLUID_VALGRIND:-}" ] ||
	    skip "4,000,000 nodes are too slow under valgrind"
	local i l
	echo '[a, b, c, d, e, f, g, h, i, j]' >l0.yaml
	for l in 1 2 3 4 5 6 7 8; do
		{ printf 'x%d: {$ref: l%d.yaml}\n' $(seq 0 9 | sed "s/\$/ $((l - 1))/") ; } >l$l.yaml
	done
	printf 'id: bomb\nall: {$ref: l8.yaml}\n' >bomb.yaml
	run --separate-stderr timeout 10 "$BIN/fluid-resolve" bomb.yaml
	[ "$status" -ne 124 ] || fail "not refused within 10 seconds"
	assert_status 1
	assert_no_stdout
	# all -> l8, x0 -> l7, x0 -> l6: each x of l6 is l5, about 1.2
	# million nodes, and the fourth, x3 (line 4), passes 4,000,000.
	assert_stderr_is 'l6.yaml:4:5: error: all.x0.x0.x3: resolved contract has more than 4000000 nodes'
}

@test "resolve: a \$ref pointer cannot pass through a \$ref in its target" {
	make_ws
	mkfile ws/frag.yaml <<'EOF'
a:
  $ref: stream.yaml
EOF
	contract_ref ws/c.yaml 'frag.yaml#/a/topic'
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' 'frag.yaml#/a/topic': no such pointer in frag.yaml"
}

@test "resolve: an absolute \$ref inside the root is followed" {
	make_ws
	contract_ref ws/c.yaml "$TMP/ws/stream.yaml"
	cd ws
	accepts c.yaml
	assert_jq '.resolve.document.stream == {"kind": "kafka", "topic": "orders"}'
}

@test "resolve: a \$ref to a missing file is refused" {
	make_ws
	contract_ref ws/c.yaml missing.yaml
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' 'missing.yaml': No such file or directory"
}

@test "resolve: a \$ref to a missing JSON pointer is refused" {
	make_ws
	contract_ref ws/c.yaml 'stream.yaml#/nope'
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' 'stream.yaml#/nope': no such pointer in stream.yaml"
}

@test "resolve: a \$ref pointer past a scalar is refused" {
	make_ws
	contract_ref ws/c.yaml 'stream.yaml#/topic/0'
	cd ws
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' 'stream.yaml#/topic/0': no such pointer in stream.yaml"
}

@test "resolve: a \$ref fragment that is not a pointer is refused" {
	cd "$R"
	refuses_line 1 ref-bad-pointer.yaml \
	    "ref-bad-pointer.yaml:3:3: error: '\$ref' 'stream.yaml#topic': the part after '#' must be a JSON pointer such as #/a/b"
}

@test "resolve: a \$ref with sibling keys is refused" {
	cd "$R"
	refuses 1 ref-with-sibling.yaml \
	    "^ref-with-sibling\\.yaml:3:3: error: '\\\$ref' must be the only key"
}

@test "resolve: a non-string \$ref is refused" {
	cd "$R"
	refuses_line 1 ref-not-string.yaml \
	    "ref-not-string.yaml:3:3: error: '\$ref' must be a string"
}

@test "resolve: a \$ref to a list is refused too" {
	printf 'id: orders\nstream:\n  $ref: [a.yaml]\n' >c.yaml
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' must be a string"
}

@test "resolve: a \$ref to a directory is refused" {
	make_ws
	mkdir ws/dir
	contract_ref ws/c.yaml dir
	cd ws
	tool c.yaml
	assert_status 1
	assert_no_stdout
	# fluid-resolve(1): the target's own diagnostic, then one at the $ref.
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "want two lines" "$(show)"
	assert_equal "$stderr" "dir: error: cannot read: Is a directory
c.yaml:3:3: error: '\$ref' 'dir' cannot be resolved" "standard error"
}

@test "resolve: a broken fragment is refused at its own line" {
	make_ws
	mkfile ws/frag.yaml <<'EOF'
kind: kafka
kind: again
EOF
	contract_ref ws/c.yaml frag.yaml
	cd ws
	tool c.yaml
	assert_status 1
	assert_no_stdout
	# fluid-resolve(1): the fragment's own error, then one at the $ref
	# that led there.
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "want two lines" "$(show)"
	assert_equal "$stderr" "frag.yaml:2:1: error: duplicate key 'kind'
c.yaml:3:3: error: '\$ref' 'frag.yaml' cannot be resolved" "standard error"
}

# --- the workspace -----------------------------------------------------

# ws/ with contracts/c.yaml reaching ../frags/s.yaml, and no workspace file.
make_siblings() {
	mkfile ws/frags/s.yaml <<'EOF'
kind: kafka
topic: shared
EOF
	contract_ref ws/contracts/c.yaml ../frags/s.yaml
}

@test "resolve: without a workspace file a \$ref may not reach a sibling directory" {
	make_siblings
	cd ws/contracts
	refuses_line 1 c.yaml "c.yaml:3:3: error: '\$ref' '../frags/s.yaml' leaves the workspace root $(pwd -P)"
}

@test "resolve: a workspace file above makes its ref_root the root" {
	make_siblings
	echo 'ref_root: .' >ws/fluid.workspace.yaml
	cd ws
	accepts contracts/c.yaml
	assert_jq '.resolve.document.stream == {"kind": "kafka", "topic": "shared"}'
	assert_jq '.resolve.files[0] == "contracts/c.yaml"'
	assert_jq '.resolve.files | index("frags/s.yaml") != null'
	assert_pos '(.resolve | positions)["/stream/topic"] ==
	    [(.resolve.files | index("frags/s.yaml")), 2, 8]'
}

@test "resolve: a ref_root below the workspace file narrows the root" {
	make_siblings
	echo 'ref_root: contracts' >ws/fluid.workspace.yaml
	cd ws
	refuses_line 1 contracts/c.yaml "contracts/c.yaml:3:3: error: '\$ref' '../frags/s.yaml' leaves the workspace root $(pwd -P)/contracts"
}

@test "resolve: a workspace file with a list as ref_root is refused" {
	make_siblings
	printf '# workspace\nref_root: [a, b]\n' >ws/fluid.workspace.yaml
	cd ws
	refuses 1 contracts/c.yaml '^fluid\.workspace\.yaml:2:11: error: .*ref_root'
}

@test "resolve: a workspace file with a number as ref_root is refused" {
	make_siblings
	printf 'ref_root: 5\n' >ws/fluid.workspace.yaml
	cd ws
	refuses 1 contracts/c.yaml '^fluid\.workspace\.yaml:1:11: error: .*ref_root'
}

@test "resolve: a workspace file whose ref_root does not exist is refused" {
	make_siblings
	printf 'ref_root: nowhere\n' >ws/fluid.workspace.yaml
	cd ws
	refuses 1 contracts/c.yaml "^fluid\\.workspace\\.yaml:1:11: error: .*ref_root.*nowhere"
}

@test "resolve: a workspace file whose ref_root is a file is refused" {
	make_siblings
	printf 'ref_root: frags/s.yaml\n' >ws/fluid.workspace.yaml
	cd ws
	refuses 1 contracts/c.yaml '^fluid\.workspace\.yaml:1:11: error: .*ref_root'
}

@test "resolve: a workspace file that is not a mapping is refused" {
	make_siblings
	printf -- '- ref_root: .\n' >ws/fluid.workspace.yaml
	cd ws
	refuses_line 1 contracts/c.yaml \
	    'fluid.workspace.yaml:1:1: error: workspace file must be a mapping whose ref_root is a directory'
}

@test "resolve: a malformed workspace file is refused" {
	make_siblings
	printf 'ref_root: .\nref_root: ..\n' >ws/fluid.workspace.yaml
	cd ws
	refuses 1 contracts/c.yaml "^fluid\\.workspace\\.yaml:2:1: error: duplicate key 'ref_root'$"
}

@test "resolve: a contract outside its workspace's ref_root is refused" {
	make_siblings
	echo 'ref_root: frags' >ws/fluid.workspace.yaml
	cd ws
	refuses_line 1 contracts/c.yaml \
	    "contracts/c.yaml: error: file lies outside the workspace root $(pwd -P)/frags"
}

# --- usage and environment errors ---------------------------------------

@test "resolve: --fragment without --schema-version is a usage error" {
	usage_error --fragment streamSource "$EXAMPLES/shapes/fragments/streams/orders.yaml" \
	    '^fluid-resolve: .*--schema-version'
}

@test "resolve: --schema-version without --fragment is a usage error" {
	usage_error --schema-version 0.7.7 "$R/stream.yaml" \
	    "^fluid-resolve: --schema-version goes with --fragment; a contract names its own fluidVersion \\(see 'fluid-resolve --help'\\)\$"
}

@test "resolve: an unknown fragment kind is a usage error" {
	usage_error --fragment bogus --schema-version 0.7.7 "$R/stream.yaml" \
	    "^fluid-resolve: .*fragment kind 'bogus'"
}

@test "resolve: a missing contract file is an environment error, one line" {
	refuses 2 nope.yaml "^fluid-resolve: .*'?nope\\.yaml'?.*No such file"
}

@test "resolve: a contract that is a directory is an environment error" {
	mkdir adir
	refuses 2 adir '^fluid-resolve: .*adir'
}

@test "resolve: an unknown option is a usage error naming it" {
	usage_error --bogus "$R/stream.yaml" "^fluid-resolve: .*'?--bogus"
}

@test "resolve: an unknown short option is named, even in a cluster" {
	usage_error -qz "$R/stream.yaml" "^fluid-resolve: .*'-qz?'"
}

@test "resolve: an option without its argument is a usage error that says so" {
	usage_error "$R/stream.yaml" --fragment \
	    "^fluid-resolve: option '--fragment' needs an argument \\(see 'fluid-resolve --help'\\)\$"
}

@test "resolve: --diagnostics takes its value as a separate argument too" {
	cd "$R"
	tool --diagnostics json duplicate-key.yaml
	assert_status 1
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "want one line" "$(show)"
	jq -e '.line == 3 and .column == 1' <<<"${stderr_lines[0]}" >/dev/null ||
	    fail "not a JSON diagnostic" "$(show)"
}

@test "resolve: an unknown --diagnostics format is a usage error" {
	usage_error --diagnostics=xml "$R/stream.yaml" \
	    "^fluid-resolve: --diagnostics takes text, json or github \\(see 'fluid-resolve --help'\\)\$"
}

@test "resolve: two files are a usage error" {
	usage_error "$R/stream.yaml" "$R/stream.yaml" '^fluid-resolve: '
}

@test "resolve: --help prints the usage on stdout and exits 0" {
	tool --help
	assert_status 0
	assert_no_stderr
	assert_match "${lines[0]}" '^usage: fluid-resolve ' "first line"
	[[ $output == *--fragment* && $output == *--schema-version* ]] ||
	    fail "usage does not list the options" "$(show)"
}

@test "resolve: --version prints a version and exits 0" {
	tool --version
	assert_status 0
	assert_no_stderr
	assert_match "$output" '^fluid-resolve [0-9]+\.[0-9]+' "version"
}

# --- accepting the examples ----------------------------------------------

# check_example CONTRACT: run from examples/, the three example contracts
# resolve the same stream fragment.
check_example() {
	local c=$1 s=shapes/fragments/streams/orders.yaml
	local v=shapes/fragments/streams/orders.value.yaml
	local line col bline bid missing
	cd "$EXAMPLES"
	accepts "$c"
	assert_jq '.fluidIR == 1'
	assert_jq '.stages == ["resolve"]'
	assert_jq '.resolve.kind == "contract"'
	assert_jq '.resolve.schemaVersion == "0.7.7"'
	assert_jq '.resolve.digest | test("^sha256:[0-9a-f]{64}$")'
	assert_jq '[.resolve.document | .. | objects | has("$ref")] | any | not'
	assert_jq --arg c "$c" '.resolve.files[0] == $c'
	assert_jq --arg f "$s" '.resolve.files | index($f) != null'
	assert_jq --arg f "$v" '.resolve.files | index($f) != null'
	# fluid-resolve(1): the workspace file is listed too.
	assert_jq '.resolve.files | index("shapes/fluid.workspace.yaml") != null'
	# Every file named exists, once.
	assert_jq '.resolve.files | length == (unique | length)'
	missing=$(jqo '.resolve.files[]' | while IFS= read -r f; do
		[ -f "$f" ] || echo "$f"
	done)
	[ -z "$missing" ] || fail "files names what is not a file: $missing"
	# The stream came from the fragment, with its place in it.
	assert_jq '.resolve.document.builds[0].properties.stream.topic == "orders"'
	line=$(line_of "$s" '^topic:')
	col=$(col_of "$s" "$line" orders)
	assert_pos --arg f "$s" --argjson l "$line" --argjson c "$col" \
	    '(.resolve | positions)["/builds/0/properties/stream/topic"] ==
	    [(.resolve.files | index($f)), $l, $c]'
	# The value schema came from the fragment's own fragment.
	line=$(line_of "$v" '^- name: event_id$')
	col=$(col_of "$v" "$line" event_id)
	assert_pos --arg f "$v" --argjson l "$line" --argjson c "$col" \
	    '(.resolve | positions)["/builds/0/properties/stream/schema/0/name"] ==
	    [(.resolve.files | index($f)), $l, $c]'
	assert_jq '.resolve.document.builds[0].properties.stream.schema[0] ==
	    {"name": "event_id", "type": "string", "required": true}'
	# The contract's own nodes stay in the contract.
	bline=$(line_of "$c" '^  - id: ')
	bid=$(sed -n "${bline}s/^  - id: //p" "$c")
	col=$(col_of "$c" "$bline" "$bid")
	assert_pos --argjson l "$bline" --argjson c "$col" \
	    '(.resolve | positions)["/builds/0/id"] == [0, $l, $c]'
	assert_jq --arg id "$bid" '.resolve.document.builds[0].id == $id'
}

@test "resolve: examples/shapes/landed resolves" {
	check_example shapes/landed/orders-landed.fluid.yaml
	assert_jq '.resolve.document.builds[0].properties | has("mapping") | not'
}

@test "resolve: examples/shapes/flattened resolves" {
	check_example shapes/flattened/orders-items.fluid.yaml
	assert_jq '.resolve.document.builds[0].properties.mapping.explode ==
	    {"path": "items", "as": "item"}'
}

@test "resolve: examples/shapes/reshaped resolves" {
	check_example shapes/reshaped/orders-reshaped.fluid.yaml
	assert_jq '.resolve.document.builds[0].properties.mapping.columns[0] ==
	    {"name": "order.id", "from": "event_id"}'
}

@test "resolve: the inlined contract has the same digest as the landed one" {
	local a b
	cd "$EXAMPLES"
	a=$(digest_of shapes/landed/orders-landed.fluid.yaml)
	b=$(digest_of shapes/inlined/orders-landed.fluid.yaml)
	assert_match "$a" '^sha256:[0-9a-f]{64}$' digest
	assert_equal "$b" "$a" "inlined digest"
	# And the same document, not just a colliding digest.
	diff <("$BIN/fluid-resolve" shapes/landed/orders-landed.fluid.yaml | jq -S .resolve.document) \
	    <("$BIN/fluid-resolve" shapes/inlined/orders-landed.fluid.yaml | jq -S .resolve.document)
}

@test "resolve: the three examples have three different digests" {
	local a b c
	cd "$EXAMPLES"
	a=$(digest_of shapes/landed/orders-landed.fluid.yaml)
	b=$(digest_of shapes/flattened/orders-items.fluid.yaml)
	c=$(digest_of shapes/reshaped/orders-reshaped.fluid.yaml)
	[ "$a" != "$b" ] && [ "$b" != "$c" ] && [ "$a" != "$c" ] ||
	    fail "digests collide: $a $b $c"
}

@test "resolve: the digest is the same from any working directory" {
	local a b
	cd "$EXAMPLES"
	a=$(digest_of shapes/landed/orders-landed.fluid.yaml)
	cd "$TMP"
	b=$(digest_of "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml")
	assert_equal "$b" "$a" "digest from elsewhere"
}

# --- the digest -------------------------------------------------------------

base_contract() {
	mkfile base.yaml <<'EOF'
fluidVersion: "0.7.7"
id: orders
list: [1, two, {a: b}]
nested:
  k1: v1
  k2: 2
  flag: true
  none: null
EOF
}

@test "resolve: reordering keys keeps the digest" {
	local a b
	base_contract
	mkfile reordered.yaml <<'EOF'
nested:
  none: null
  flag: true
  k2: 2
  k1: v1
list: [1, two, {a: b}]
id: orders
fluidVersion: "0.7.7"
EOF
	a=$(digest_of base.yaml)
	b=$(digest_of reordered.yaml)
	assert_equal "$b" "$a" "digest after reordering"
}

@test "resolve: flow style, comments and quoting keep the digest" {
	local a b c
	base_contract
	mkfile flow.yaml <<'EOF'
{fluidVersion: '0.7.7', id: "orders", list: [1, 'two', {"a": b}],
 nested: {k1: v1, k2: 0x2, flag: true, none: ~}}
EOF
	mkfile commented.yaml <<'EOF'
# A comment before everything.
fluidVersion: "0.7.7"   # trailing comment
id: orders

list:
  - 1
  # between items
  - two
  - a: b
nested: {k1: v1,
  k2: 2, flag: True,
  none: }
EOF
	a=$(digest_of base.yaml)
	b=$(digest_of flow.yaml)
	c=$(digest_of commented.yaml)
	assert_equal "$b" "$a" "digest of the flow-style copy"
	assert_equal "$c" "$a" "digest of the commented copy"
}

@test "resolve: moving a subtree into a \$ref keeps the digest" {
	local a b
	base_contract
	mkfile split/frag.yaml <<'EOF'
k1: v1
k2: 2
flag: true
none: null
EOF
	mkfile split/c.yaml <<'EOF'
fluidVersion: "0.7.7"
id: orders
list: [1, two, {a: b}]
nested: {$ref: frag.yaml}
EOF
	a=$(digest_of base.yaml)
	b=$(digest_of split/c.yaml)
	assert_equal "$b" "$a" "digest with a \$ref"
}

@test "resolve: changing a value changes the digest" {
	local a b c d
	base_contract
	a=$(digest_of base.yaml)
	sed 's/k1: v1/k1: v2/' base.yaml >changed.yaml
	b=$(digest_of changed.yaml)
	sed 's/k2: 2/k2: "2"/' base.yaml >typed.yaml
	c=$(digest_of typed.yaml)
	sed 's/list: \[1, two/list: [two, 1/' base.yaml >order.yaml
	d=$(digest_of order.yaml)
	[ "$b" != "$a" ] || fail "a changed value kept the digest"
	[ "$c" != "$a" ] || fail "2 and \"2\" have the same digest"
	[ "$d" != "$a" ] || fail "reordering a list kept the digest"
}

@test "resolve: the digest is sha256 of the sorted, compact document" {
	local a want
	base_contract
	a=$(digest_of base.yaml)
	want=$(jq -cjS . <<'EOF' | sha256sum | cut -d' ' -f1
{"fluidVersion": "0.7.7", "id": "orders", "list": [1, "two", {"a": "b"}],
 "nested": {"k1": "v1", "k2": 2, "flag": true, "none": null}}
EOF
)
	assert_equal "$a" "sha256:$want" digest
}

# --- standard input, fragments, YAML 1.2 ------------------------------------

@test "resolve: reads the contract from standard input" {
	local a
	cd "$EXAMPLES/shapes/inlined"
	a=$(digest_of orders-landed.fluid.yaml)
	tool <orders-landed.fluid.yaml
	assert_status 0
	assert_no_stderr
	assert_equal "$(jqo .resolve.digest)" "$a" "digest from stdin"
	tool - <orders-landed.fluid.yaml
	assert_status 0
	assert_equal "$(jqo .resolve.digest)" "$a" "digest from '-'"
}

@test "resolve: \$refs from standard input are relative to the working directory" {
	local a
	cd "$EXAMPLES/shapes/landed"
	a=$(digest_of orders-landed.fluid.yaml)
	tool <orders-landed.fluid.yaml
	assert_status 0
	assert_no_stderr
	assert_equal "$(jqo .resolve.digest)" "$a" "digest from stdin"
}

@test "resolve: a refusal on standard input names a place" {
	printf 'id: orders\nmetadata:\n  a: 1\n  a: 2\n' >dup.yaml
	tool <dup.yaml
	assert_status 1
	assert_no_stdout
	# fluid-resolve(1) calls it <stdin>.
	assert_stderr_line "^<stdin>:4:3: error: duplicate key 'a'$"
}

@test "resolve: --fragment streamSource resolves a stream on its own" {
	local v=shapes/fragments/streams/orders.value.yaml
	cd "$EXAMPLES"
	accepts --fragment streamSource --schema-version 0.7.7 \
	    shapes/fragments/streams/orders.yaml
	assert_jq '.stages == ["resolve"]'
	assert_jq '.resolve.kind == "fragment"'
	assert_jq '.resolve.fragment == "streamSource"'
	assert_jq '.resolve.schemaVersion == "0.7.7"'
	assert_jq '.resolve.document.topic == "orders"'
	assert_jq '.resolve.document.schema[0].name == "event_id"'
	assert_jq '.resolve.files[0] == "shapes/fragments/streams/orders.yaml"'
	assert_pos --arg v "$v" '(.resolve | positions)["/schema/0/name"] ==
	    [(.resolve.files | index($v)), '"$(line_of "$v" '^- name: event_id$')"', 9]'
	assert_jq '.resolve.digest | test("^sha256:[0-9a-f]{64}$")'
}

@test "resolve: a fragment's digest is the digest of what a contract inlines" {
	local f c
	cd "$EXAMPLES"
	f=$(digest_of --fragment=streamSource --schema-version=0.7.7 \
	    shapes/fragments/streams/orders.yaml)
	"$BIN/fluid-resolve" shapes/landed/orders-landed.fluid.yaml |
	    jq -cjS .resolve.document.builds[0].properties.stream >"$TMP/stream.json"
	c="sha256:$(sha256sum <"$TMP/stream.json" | cut -d' ' -f1)"
	assert_equal "$f" "$c" "fragment digest"
}

@test "resolve: --fragment schema resolves a list of columns" {
	cd "$EXAMPLES"
	accepts --fragment schema --schema-version 0.7.7 \
	    shapes/fragments/streams/orders.value.yaml
	assert_jq '.resolve.kind == "fragment" and .resolve.fragment == "schema"'
	assert_jq '.resolve.document | type == "array"'
	assert_jq '.resolve.document[0] == {"name": "event_id", "type": "string", "required": true}'
	assert_jq '[.resolve.document[].name] ==
	    ["event_id", "customer", "items", "attributes", "event_time"]'
	assert_pos '(.resolve | positions)["/2/element/fields/2/type"][1] == '"$(line_of shapes/fragments/streams/orders.value.yaml 'type: decimal')"
}

@test "resolve: --fragment schema refuses a mapping" {
	local s=shapes/fragments/streams/orders.yaml
	cd "$EXAMPLES"
	refuses 1 --fragment schema --schema-version 0.7.7 "$s" \
	    "^shapes/fragments/streams/orders\\.yaml:$(line_of "$s" '^kind:'):1: error: .*schema.*list"
}

@test "resolve: --fragment streamSource refuses a list" {
	local s=shapes/fragments/streams/orders.value.yaml
	cd "$EXAMPLES"
	refuses 1 --fragment streamSource --schema-version 0.7.7 "$s" \
	    "^shapes/fragments/streams/orders\\.value\\.yaml:$(line_of "$s" '^- name: event_id'):1: error: .*streamSource.*mapping"
}

@test "resolve: YAML 1.2 core schema: only true, false, null and numbers are not strings" {
	cd "$R"
	accepts core-schema.yaml
	assert_jq '.resolve.document | .yes_word == "yes" and .no_word == "no"
	    and .on_word == "on" and .off_word == "off" and .y_word == "y"'
	assert_jq '.resolve.document | .on == "key named on" and .yes == "key named yes"'
	assert_jq '.resolve.document.hex == 31'
	assert_jq '.resolve.document.octal == 15'
	assert_jq '.resolve.document.plus == 12 and .resolve.document.minus == -12'
	assert_jq '.resolve.document.version == "0.7.7"'
	assert_jq '.resolve.document.float == 1.5 and .resolve.document.dot_float == 0.5'
	assert_jq '.resolve.document.exponent == 1000'
	assert_jq '.resolve.document | .tilde == null and .null_word == null
	    and .Null_word == null and .empty == null'
	assert_jq '.resolve.document | has("tilde") and has("empty")'
	assert_jq '.resolve.document | .true_word == true and .False_word == false'
	assert_jq '.resolve.document | .quoted_true == "true"
	    and .quoted_int == "12" and .quoted_null == "null"'
	# YAML 1.1 types that YAML 1.2 dropped stay strings.
	assert_jq '.resolve.document | .date == "2001-12-14"
	    and .sexagesimal == "1:20" and .underscored == "1_000"'
	assert_jq '.resolve.document | .upper_hex == "0X1F" and .signed_hex == "-0x1F"'
}

@test "resolve: YAML 1.2 core schema: a leading zero is decimal, not octal" {
	cd "$R"
	accepts core-schema.yaml
	assert_jq '.resolve.document.leading_zero == 12'
}
