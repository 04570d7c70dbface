#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid bundle: the contract with every $ref inlined, as one YAML
# document that resolves to the same document and digest (fluid(1)).

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	LANDED=shapes/landed/orders-landed.fluid.yaml
}

teardown() {
	fluid_teardown
}

# A workspace in the temp dir, for bundles to be resolved in.
make_workspace() {
	mkdir -p "$TMP/ws"
	echo 'ref_root: .' >"$TMP/ws/fluid.workspace.yaml"
}

@test "bundle: prints YAML with every \$ref inlined and the digest in a comment" {
	cd "$EXAMPLES"
	tool bundle "$LANDED"
	assert_status 0
	assert_no_stderr
	assert_match "${lines[0]}" \
	    '^# fluid bundle: every \$ref inlined; digest sha256:[0-9a-f]{64}$' \
	    "first line"
	# No $ref key left anywhere outside the comment.
	! grep -v '^#' <<<"$output" | grep -q '\$ref' ||
	    fail "the bundle still has a \$ref" "$(show)"
	# The fragments' content is there.
	grep -q '^ *topic: orders$' <<<"$output" || fail "no topic" "$(show)"
	grep -q 'name: event_id$' <<<"$output" || fail "no value schema" "$(show)"
}

@test "bundle: the comment gives the digest fluid-resolve gives" {
	local want
	cd "$EXAMPLES"
	want=$(digest_of "$LANDED")
	tool bundle "$LANDED"
	assert_status 0
	assert_equal "${lines[0]##* digest }" "$want" "digest in the comment"
}

# roundtrip CONTRACT: bundle it, resolve the bundle inside a temp
# workspace, and compare document and digest with the contract's.
roundtrip() {
	local c=$1 want got
	make_workspace
	want=$(digest_of "$c")
	"$BIN/fluid" bundle "$c" >"$TMP/ws/bundle.yaml" ||
	    fail "fluid bundle $c failed"
	got=$(digest_of "$TMP/ws/bundle.yaml")
	assert_equal "$got" "$want" "digest of the bundle of $c"
	"$BIN/fluid-resolve" "$TMP/ws/bundle.yaml" |
	    jq -S .resolve.document >"$TMP/bundle.json"
	"$BIN/fluid-resolve" "$c" | jq -S .resolve.document >"$TMP/contract.json"
	diff -u "$TMP/contract.json" "$TMP/bundle.json" ||
	    fail "the bundle of $c resolves to another document"
	run --separate-stderr "$BIN/fluid-resolve" "$TMP/ws/bundle.yaml"
	assert_jq '.resolve.files[0] | endswith("bundle.yaml")'
	assert_jq '[.resolve.files[] | select(endswith(".yaml"))
	    | select(test("fragments"))] == []'
}

@test "bundle: the landed example's bundle resolves to the same digest" {
	cd "$EXAMPLES"
	roundtrip "$LANDED"
}

@test "bundle: the flattened example's bundle resolves to the same digest" {
	cd "$EXAMPLES"
	roundtrip shapes/flattened/orders-items.fluid.yaml
}

@test "bundle: the reshaped example's bundle resolves to the same digest" {
	cd "$EXAMPLES"
	roundtrip shapes/reshaped/orders-reshaped.fluid.yaml
}

@test "bundle: the inlined example bundles to the landed one's digest" {
	local a b
	cd "$EXAMPLES"
	a=$("$BIN/fluid" bundle "$LANDED" | head -1)
	b=$("$BIN/fluid" bundle shapes/inlined/orders-landed.fluid.yaml | head -1)
	assert_equal "$b" "$a" "bundle comment"
}

@test "bundle: the same contract bundles to the same bytes" {
	cd "$EXAMPLES"
	cmp <("$BIN/fluid" bundle "$LANDED") <("$BIN/fluid" bundle "$LANDED")
}

@test "bundle: strings that read as other types stay strings" {
	mkfile tricky.yaml <<'EOF'
fluidVersion: "0.7.7"
id: strings
t: 'true'
F: 'False'
f: '1.5'
n: 'null'
N: 'NULL'
tilde: '~'
empty: ''
i: '12'
lz: '012'
neg: '-7'
hex: '0x1F'
oct: '0o17'
exp: '1e3'
dot: '.5'
inf: '.inf'
nan: '.nan'
yes: 'yes'
version: '0.7'
lt: '<<'
'<<': a key that is not a merge
'1': a key that reads as a number
'true': a key that reads as a boolean
'null': a key that reads as null
'': an empty key
colon: 'a: b'
hash: 'a #b'
dash: '- x'
star: '*x'
amp: '&x'
bang: '!x'
pct: '%x'
at: '@x'
brace: '{x}'
bracket: '[x]'
quote: "'x'"
dquote: '"x"'
lead: ' x'
trail: 'x '
dashes: '---'
dots: '...'
multi: "line1\nline2\n"
tab: "a\tb"
bell: "bell\a"
unicode: "héllo ✓ 😀"
list: ['true', 'null', '1', '~', '']
'a: b': k1
'- x': k2
'#c': k3
'? q': k4
'&a': k5
'*a': k6
'!t': k7
' sp': k8
'$ref ': k9
EOF
	make_workspace
	"$BIN/fluid" bundle tricky.yaml >ws/bundle.yaml || fail "bundle failed"
	run --separate-stderr "$BIN/fluid-resolve" ws/bundle.yaml
	assert_status 0
	assert_no_stderr
	assert_jq '.resolve.document | .t == "true" and .F == "False"
	    and .f == "1.5" and .n == "null" and .N == "NULL" and .tilde == "~"
	    and .empty == "" and .i == "12" and .lz == "012" and .neg == "-7"'
	assert_jq '.resolve.document | .hex == "0x1F" and .oct == "0o17"
	    and .exp == "1e3" and .dot == ".5" and .inf == ".inf"
	    and .nan == ".nan" and .yes == "yes" and .version == "0.7"'
	assert_jq '.resolve.document | .lt == "<<"
	    and .["<<"] == "a key that is not a merge"
	    and .["1"] == "a key that reads as a number"
	    and .["true"] == "a key that reads as a boolean"
	    and .["null"] == "a key that reads as null"
	    and .[""] == "an empty key"'
	assert_jq '.resolve.document | .colon == "a: b" and .hash == "a #b"
	    and .dash == "- x" and .star == "*x" and .amp == "&x"
	    and .bang == "!x" and .pct == "%x" and .at == "@x"
	    and .brace == "{x}" and .bracket == "[x]"'
	assert_jq '.resolve.document | .quote == "'"'x'"'" and .dquote == "\"x\""
	    and .lead == " x" and .trail == "x " and .dashes == "---"
	    and .dots == "..."'
	assert_jq '.resolve.document | .multi == "line1\nline2\n"
	    and .tab == "a\tb" and .bell == "bell\u0007"
	    and .unicode == "héllo ✓ 😀"'
	assert_jq '.resolve.document.list == ["true", "null", "1", "~", ""]'
	assert_jq '.resolve.document | .["a: b"] == "k1" and .["- x"] == "k2"
	    and .["#c"] == "k3" and .["? q"] == "k4" and .["&a"] == "k5"
	    and .["*a"] == "k6" and .["!t"] == "k7" and .[" sp"] == "k8"
	    and .["$ref "] == "k9"'
	assert_equal "$(jqo .resolve.digest)" "$(digest_of tricky.yaml)" \
	    "digest of the bundle"
}

@test "bundle: numbers, booleans, nulls and empty collections survive" {
	mkfile values.yaml <<'EOF'
fluidVersion: "0.7.7"
zero: 0
max: 9223372036854775807
min: -9223372036854775808
hex: 0x1F
tenth: 0.1
whole: 2.0
pi: 3.141592653589793
tiny: 1e-300
huge: 1.7976931348623157e308
negzero: -0.0
yes_really: true
no_really: false
nothing: null
implicit:
list: []
map: {}
nested: [[], {}, [{}]]
EOF
	make_workspace
	"$BIN/fluid" bundle values.yaml >ws/bundle.yaml || fail "bundle failed"
	run --separate-stderr "$BIN/fluid-resolve" ws/bundle.yaml
	assert_status 0
	assert_no_stderr
	assert_equal "$(jqo .resolve.digest)" "$(digest_of values.yaml)" \
	    "digest of the bundle"
	assert_jq '.resolve.document | .zero == 0 and .hex == 31
	    and .tenth == 0.1 and .whole == 2 and .pi == 3.141592653589793
	    and .tiny == 1e-300 and .huge == 1.7976931348623157e308'
	assert_jq '.resolve.document | .yes_really == true
	    and .no_really == false and .nothing == null
	    and .implicit == null and has("implicit")'
	assert_jq '.resolve.document | .list == [] and .map == {}
	    and .nested == [[], {}, [{}]]'
	[[ $output == *9223372036854775807* && $output == *-9223372036854775808* ]] ||
	    fail "64-bit integers not kept exactly" "$(show)"
}

@test "bundle: --out FILE writes the file and prints 'wrote FILE'" {
	local want
	cd "$EXAMPLES"
	want=$("$BIN/fluid" bundle "$LANDED")
	mkdir "$TMP/out"
	tool bundle --out "$TMP/out/b.yaml" "$LANDED"
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "wrote $TMP/out/b.yaml" "stdout"
	assert_equal "$(cat "$TMP/out/b.yaml")" "$want" "the file"
	assert_equal "$(files_in "$TMP/out")" "b.yaml" "the directory"
	# fluid(1): mode 0644, whatever the umask made of the temp file.
	assert_equal "$(stat -c %a "$TMP/out/b.yaml")" 644 "mode"
}

@test "bundle: -o FILE is --out FILE, relative names as given" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	tool bundle -o b.yaml c.yaml
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "wrote b.yaml" "stdout"
	cmp b.yaml <("$BIN/fluid" bundle c.yaml)
	assert_equal "$(files_in .)" "$(printf 'b.yaml\nc.yaml')" "the directory"
}

@test "bundle: --out replaces an existing file by rename, never in place" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	echo 'old: content' >b.yaml
	# A reader of the old file keeps reading the old file.  (Not fd 3:
	# bats has that one.)
	local fd
	exec {fd}<b.yaml
	tool bundle --out b.yaml c.yaml
	assert_status 0
	assert_equal "$(cat <&$fd)" "old: content" "what the open reader sees"
	exec {fd}<&-
	cmp b.yaml <("$BIN/fluid" bundle c.yaml)
	assert_equal "$(files_in .)" "$(printf 'b.yaml\nc.yaml')" "the directory"
}

@test "bundle: --out into a read-only directory fails with 2 and leaves nothing" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	mkdir ro
	readonly_dir ro
	refuses 2 bundle --out ro/b.yaml c.yaml "^fluid: .*'?ro/b\\.yaml'?"
	assert_equal "$(files_in ro)" "" "the read-only directory"
}

@test "bundle: --out into a missing directory makes it (fluid(1): the directories above OUTFILE are made)" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	tool bundle --out nodir/sub/b.yaml c.yaml
	assert_status 0
	assert_equal "$output" "wrote nodir/sub/b.yaml" "stdout"
	assert_equal "$(files_in nodir/sub)" "b.yaml" "the directory"
}

@test "bundle: --out onto a directory fails with 2 and leaves no temp file" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	mkdir -p out/b.yaml
	refuses 2 bundle --out out/b.yaml c.yaml "^fluid: .*'?out/b\\.yaml'?"
	assert_equal "$(files_in out)" "b.yaml" "the directory"
	assert_equal "$(files_in out/b.yaml)" "" "the directory in the way"
}

# --- -o PATH replaces a regular file and nothing else (fluid(1)) -----------

@test "bundle: -o onto a FIFO is status 2, one line, and the FIFO stays" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	mkfifo p
	refuses 2 bundle -o p c.yaml "^fluid: 'p' is not a regular file: not replaced$"
	[ -p p ] || fail "the FIFO was replaced"
	assert_equal "$(files_in .)" "$(printf 'c.yaml\np')" "the directory"
}

@test "bundle: -o onto a symbolic link is status 2, and neither the link nor its file changes" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	echo 'old: content' >real.yaml
	ln -s real.yaml link.yaml
	refuses 2 bundle -o link.yaml c.yaml "^fluid: 'link\.yaml' is not a regular file: not replaced$"
	[ -L link.yaml ] || fail "the link was replaced"
	assert_equal "$(cat real.yaml)" "old: content" "the file the link names"
	# A dangling link too: following it would create a file elsewhere.
	ln -s nowhere.yaml dangling.yaml
	refuses 2 bundle -o dangling.yaml c.yaml "^fluid: 'dangling\.yaml' is not a regular file: not replaced$"
	[ ! -e nowhere.yaml ] || fail "the dangling link was followed"
}

@test "bundle: -o onto a device is status 2, and the device stays" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	# As root, a device of our own (never /dev/null, which a broken
	# build would replace); otherwise /dev/null, which we cannot harm.
	local dev=/dev/null
	if [ "$(id -u)" -eq 0 ] && mknod null c 1 3 2>/dev/null; then
		dev=null
	fi
	refuses 2 bundle -o "$dev" c.yaml "^fluid: '$dev' is not a regular file: not replaced$"
	[ -c "$dev" ] || fail "$dev is no longer a device"
}

@test "bundle: -o onto a directory is status 2 with the same message" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	mkdir d
	refuses 2 bundle -o d c.yaml "^fluid: 'd' is not a regular file: not replaced$"
	[ -d d ] || fail "the directory went"
}

@test "bundle: -o creates a missing file and replaces a regular one" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	tool bundle -o new.yaml c.yaml
	assert_status 0
	assert_equal "$output" "wrote new.yaml" "stdout"
	[ -f new.yaml ] && [ ! -L new.yaml ] || fail "new.yaml is not a regular file"
	echo 'old: content' >old.yaml
	tool bundle -o old.yaml c.yaml
	assert_status 0
	cmp old.yaml new.yaml || fail "old.yaml was not replaced by the bundle"
}

# bad_contract: a contract fluid-resolve refuses at 4:3.
bad_contract() {
	mkfile bad.yaml <<'EOF'
id: orders
metadata:
  a: 1
  a: 2
EOF
}

@test "bundle: a refused contract exits 1 with fluid-resolve's diagnostic" {
	bad_contract
	refuses 1 bundle bad.yaml "^bad\\.yaml:4:3: error: duplicate key 'a'$"
}

@test "bundle: a refused contract with --out writes nothing" {
	bad_contract
	refuses 1 bundle --out b.yaml bad.yaml "^bad\\.yaml:4:3: error: duplicate key 'a'$"
	assert_equal "$(files_in .)" "bad.yaml" "the directory"
}

@test "bundle: a \$ref leaving the root is refused as fluid-resolve refuses it" {
	mkdir ws
	echo 'x: 1' >outside.yaml
	printf 'id: orders\nstream:\n  $ref: ../outside.yaml\n' >ws/c.yaml
	tool bundle ws/c.yaml
	assert_status 1
	assert_no_stdout
	assert_equal "$stderr" "ws/c.yaml:3:3: error: '\$ref' '../outside.yaml' leaves the workspace root $(pwd -P)/ws" \
	    "standard error"
}

@test "bundle: --diagnostics=json reaches the stage" {
	bad_contract
	tool bundle --diagnostics=json bad.yaml
	assert_status 1
	assert_no_stdout
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "want one line" "$(show)"
	jq -e '.file == "bad.yaml" and .line == 4 and .column == 3' \
	    <<<"${stderr_lines[0]}" >/dev/null || fail "not JSON" "$(show)"
}

@test "bundle: a missing contract file is an environment error, one line" {
	refuses 2 bundle nope.yaml "^fluid(-resolve)?: .*'?nope\\.yaml'?.*No such file"
}

@test "bundle: a file named like an option is still a file" {
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" ./--x.yaml
	tool bundle -- --x.yaml
	assert_status 0
	assert_no_stderr
	assert_match "${lines[0]}" '^# fluid bundle: ' "first line"
}

@test "bundle: a failed write of standard output is an error, and says so" {
	[ -w /dev/full ] || skip "no /dev/full"
	cp "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" c.yaml
	run --separate-stderr bash -c '"$1" bundle c.yaml >/dev/full' _ "$BIN/fluid"
	assert_status 2
	assert_equal "$stderr" 'fluid: cannot write standard output: No space left on device' \
	    "standard error"
}

@test "bundle: without FILE is a usage error" {
	usage_error bundle '^fluid: '
}

@test "bundle: --fragment is for validate only" {
	usage_error bundle --fragment schema --schema-version 0.7.7 \
	    "$EXAMPLES/shapes/fragments/streams/orders.value.yaml" '^fluid: .*--fragment'
}

@test "bundle: an unknown option is a usage error naming it" {
	usage_error bundle --bogus "$EXAMPLES/$LANDED" "^fluid: .*'?--bogus"
}

@test "fluid: --help prints the usage with bundle on stdout" {
	tool --help
	assert_status 0
	assert_no_stderr
	assert_match "${lines[0]}" '^usage: fluid ' "first line"
	[[ $output == *"fluid bundle"* ]] || fail "bundle is not in the usage" "$(show)"
}

@test "fluid: an unknown command is a usage error" {
	usage_error frobnicate x.yaml "^fluid: .*frobnicate"
}
