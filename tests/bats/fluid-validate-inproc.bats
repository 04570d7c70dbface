#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-validate-inproc.bats - the driver runs the stages inside its own
# process (lib/pipeline.c); it must say and do exactly what the stage
# programs say and do when they are run one after another by hand.
# Each case runs both ways and compares status and standard error byte
# for byte, so a change to one of tools/fluid-*.c that pipeline.c does
# not follow shows here.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
}
teardown() { fluid_teardown; }

# same_as_stages WANT FILE [OPTION...]: fluid validate FILE and
# fluid-resolve | fluid-check both exit WANT, with the same stderr.
# WANT keeps a case from passing when both sides are wrong the same way
# (both accept what is to be refused, or refuse what is to be accepted).
same_as_stages() {
	local want=$1 f=$2 st1 st2 a n copt=()
	shift 2
	for a in "$@"; do
		case $a in --diagnostics=*) copt+=("$a") ;; esac
	done
	st1=0
	"$BIN/fluid" validate "$@" "$f" >"$TMP/v.out" 2>"$TMP/v.err" ||
	    st1=$?
	st2=0
	"$BIN/fluid-resolve" "$@" -- "$f" >"$TMP/r.json" 2>"$TMP/p.err" ||
	    st2=$?
	if [ "$st2" -eq 0 ]; then
		"$BIN/fluid-check" "${copt[@]}" <"$TMP/r.json" >/dev/null \
		    2>>"$TMP/p.err" || st2=$?
	fi
	[ "$st1" -eq "$st2" ] ||
	    fail "$f $*: fluid validate exited $st1, the stages $st2" \
	    "--- validate stderr" "$(cat "$TMP/v.err")" \
	    "--- stages stderr" "$(cat "$TMP/p.err")"
	# validate names the contract of each diagnostic (FILE... may be
	# many): "contract" last in every JSON one, " [contract: FILE]" at
	# the end of a text one placed in another file.  Less those, the
	# stages' own bytes.
	without_contract "$f" <"$TMP/v.err" >"$TMP/v.stripped" ||
	    fail "$f $*: a JSON diagnostic without \"contract\": \"$f\"" \
	    "$(cat "$TMP/v.err")"
	# A line of its own names the command run, "fluid validate", where
	# each stage names itself.
	sed -E 's/^fluid-(resolve|check): /fluid validate: /' "$TMP/p.err" \
	    >"$TMP/p.named"
	cmp -s "$TMP/v.stripped" "$TMP/p.named" ||
	    fail "$f $*: not the stages' diagnostics" \
	    "$(diff "$TMP/p.named" "$TMP/v.stripped")"
	[ "$st1" -eq "$want" ] ||
	    fail "$f $*: both exited $st1, not $want" \
	    "--- stderr" "$(cat "$TMP/v.err")"
	if [ "$st1" -eq 0 ]; then
		assert_equal "$(cat "$TMP/v.out")" "$f: ok" "stdout"
	elif [ "$st1" -eq 1 ]; then
		n=$(grep -c -e ': error: ' -e '^{"level":"error"' "$TMP/p.err")
		[ "$n" -eq 1 ] && n="1 error" || n="$n errors"
		assert_equal "$(cat "$TMP/v.out")" "$f: refused ($n)" "stdout"
	else
		assert_equal "$(cat "$TMP/v.out")" "$f: error" "stdout"
	fi
}

# without_contract F: stdin less validate's contract annotations for F;
# fails when a JSON line lacks one.
without_contract() {
	awk -v f="$1" '
	BEGIN { j = ",\"contract\":\"" f "\"}"; t = " [contract: " f "]" }
	/^\{/ {
		if (substr($0, length($0) - length(j) + 1) != j) bad = 1
		else $0 = substr($0, 1, length($0) - length(j)) "}"
	}
	!/^\{/ && /\]$/ {
		i = length($0) - length(t) + 1
		if (i > 0 && substr($0, i) == t) $0 = substr($0, 1, i - 1)
	}
	{ print }
	END { exit bad }'
}

@test "inproc: every example validates as the stages do" {
	local f
	cd "$EXAMPLES"
	for f in shapes/*/*.fluid.yaml changes/*.fluid.yaml cfk/*.fluid.yaml; do
		same_as_stages 0 "$f"
		same_as_stages 0 "$f" --diagnostics=json
	done
}

# The cases of tests/bad/ are compared with the stages the same way in
# bad-corpus.bats, as the corpus runs (once per make check).

@test "inproc: refusals of fluid-check are the same, text and json" {
	local e=$EXAMPLES/shapes
	mkdir -p shapes/landed
	cp -r "$e/fragments" "$e/fluid.workspace.yaml" shapes/
	# A typo in a mapped column, a URL that is not one, a bad type.
	sed -e 's/{name: city, type: string}/{name: city, type: strng}/' \
	    -e 's|uri: https://catalog.example.com/api/catalog|uri: "ht tp://x"|' \
	    "$e/landed/orders-landed.fluid.yaml" \
	    >shapes/landed/bad.fluid.yaml
	cmp -s "$e/landed/orders-landed.fluid.yaml" \
	    shapes/landed/bad.fluid.yaml && fail "the edit changed nothing"
	same_as_stages 1 shapes/landed/bad.fluid.yaml
	same_as_stages 1 shapes/landed/bad.fluid.yaml --diagnostics=json
}

@test "inproc: a fragment validates as the stages do" {
	cd "$EXAMPLES/shapes"
	same_as_stages 0 fragments/streams/orders.yaml \
	    --schema-version=0.7.7 --fragment=streamSource
	same_as_stages 0 fragments/streams/orders.value.yaml \
	    --schema-version=0.7.7 --fragment=schema
}

@test "inproc: a contract on standard input, and a missing file" {
	cd "$EXAMPLES/shapes/inlined"
	run -0 --separate-stderr "$BIN/fluid" validate - \
	    <orders-landed.fluid.yaml
	assert_equal "$output" "-: ok"
	run -2 --separate-stderr "$BIN/fluid" validate nonesuch.fluid.yaml
	assert_stderr_first "^fluid validate: cannot open 'nonesuch\.fluid\.yaml'"
}

@test "inproc: generate writes the SQL fluid-sqlgen writes" {
	local f=$EXAMPLES/shapes/landed/orders-landed.fluid.yaml b n=0
	run -0 "$BIN/fluid" generate flink --out out "$f"
	"$BIN/fluid-resolve" "$f" >r.json
	"$BIN/fluid-check" <r.json >c.json
	"$BIN/fluid-sqlgen" <c.json >doc.json
	for b in $(jq -r '.sqlgen.builds[].build' doc.json); do
		jq -j --arg b "$b" \
		    '.sqlgen.builds[] | select(.build == $b) | .sql' \
		    doc.json >want.sql
		cmp want.sql "out/$b.sql" || fail "out/$b.sql differs"
		n=$((n + 1))
	done
	# The example has one build; no build compared would prove nothing.
	[ "$n" -eq 1 ] || fail "compared $n builds, expected 1"
	[ "$(ls out/*.sql | wc -l)" -eq "$n" ] ||
	    fail "generate wrote other SQL files" "$(ls out)"
}

# --- validate FILE...: many contracts in one process ---------------------

@test "validate: several files, each said ok, in the order given" {
	local e=$TOP/examples/shapes
	tool validate "$e/reshaped/orders-reshaped.fluid.yaml" \
	    "$e/landed/orders-landed.fluid.yaml"
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "$e/reshaped/orders-reshaped.fluid.yaml: ok
$e/landed/orders-landed.fluid.yaml: ok" "stdout"
}

@test "validate: a refused file among good ones gives 1, the others are still checked" {
	local e=$TOP/examples/shapes
	printf 'fluidVersion: "0.7.7"\nkind: DataProduct\n' >"$TMP/bad.fluid.yaml"
	tool validate "$e/landed/orders-landed.fluid.yaml" \
	    "$TMP/bad.fluid.yaml" "$e/reshaped/orders-reshaped.fluid.yaml"
	assert_status 1
	assert_equal "$output" "$e/landed/orders-landed.fluid.yaml: ok
$TMP/bad.fluid.yaml: refused (1 error)
$e/reshaped/orders-reshaped.fluid.yaml: ok" "stdout"
	[[ $stderr == "$TMP/bad.fluid.yaml:"* ]] ||
	    fail "the error does not name the refused file" "$stderr"
	# The diagnostics are those of validating it alone.
	"$BIN/fluid" validate "$TMP/bad.fluid.yaml" 2>"$TMP/alone.err" || true
	assert_equal "$stderr" "$(cat "$TMP/alone.err")" "stderr"
}

@test "validate: an unreadable file does not stop the run: the rest are checked, status 2" {
	local e=$TOP/examples/shapes
	tool validate "$e/landed/orders-landed.fluid.yaml" \
	    "$TMP/missing.fluid.yaml" "$e/reshaped/orders-reshaped.fluid.yaml"
	assert_status 2
	assert_equal "$output" "$e/landed/orders-landed.fluid.yaml: ok
$TMP/missing.fluid.yaml: error
$e/reshaped/orders-reshaped.fluid.yaml: ok" "stdout"
	[[ $stderr == *"cannot open '$TMP/missing.fluid.yaml'"* ]] ||
	    fail "no one-line reason" "$stderr"
}

# The Makefile of fluid(1)'s EXAMPLES, as the page prints it.
page_makefile() {
	awk '/^\.Bd -literal/ { b = ""; inb = 1; next }
	    /^\.Ed/ { if (b ~ /fluid-valid\.stamp/) printf "%s", b; inb = 0; next }
	    inb { b = b $0 "\n" }' "$TOP/man/fluid.1" | sed 's/\\e/\\/g'
}

# mk: make in $ws, with bin/ first on PATH, under a timeout as tool() does.
mk() {
	PATH=$BIN:$PATH run --separate-stderr \
	    timeout "$((60 * FLUID_SLOWDOWN))" make -C "$ws"
}

@test "validate: the Makefile rule of fluid(1) checks the tree, then again after a change" {
	local ws=$TMP/ws n i v line col
	mkdir "$ws"
	cp -R "$TOP/examples/shapes" "$ws/shapes"
	page_makefile >"$ws/Makefile"
	grep -q 'fluid validate' "$ws/Makefile" ||
	    fail "no Makefile found in man/fluid.1" "$(cat "$ws/Makefile")"
	n=$(ls "$ws"/shapes/*/*.fluid.yaml | wc -l)

	mk
	assert_status 0
	[ "$(grep -c ': ok$' <<<"$output")" -eq "$n" ] ||
	    fail "expected $n contracts said ok" "$output"
	[ -f "$ws/fluid-valid.stamp" ] || fail "no stamp"

	mk
	assert_status 0
	[[ $output != *": ok"* ]] || fail "checked again with no change" "$output"

	# A fragment that the contracts with a $ref read breaks: make fails
	# (status 2, its own for a failed recipe), names the fragment's line
	# and column, and keeps failing until it is mended.
	v=$ws/shapes/fragments/streams/orders.value.yaml
	cp "$v" "$TMP/value.yaml"
	touch -d 2000-01-01 "$ws/fluid-valid.stamp"	# older, whatever the clock
	line=$(line_of "$v" '^  type: string$') || return
	sed -i "${line}s/type: string/type: strin/" "$v"
	col=$(col_of "$v" "$line" strin)
	for i in 1 2; do
		mk
		assert_status 2
		[[ $stderr == *"shapes/fragments/streams/orders.value.yaml:$line:$col: error: "*"'strin' is not a FLUID type"* ]] ||
		    fail "make $i: the error does not name the fragment's line and column" "$stderr"
	done
	cp "$TMP/value.yaml" "$v"
	mk
	assert_status 0
	[ "$(grep -c ': ok$' <<<"$output")" -eq "$n" ] ||
	    fail "not checked again once mended" "$output"
}

@test "validate: no FILE, and bundle or generate with two, are usage errors" {
	tool validate
	assert_status 2
	[[ $stderr == "fluid: validate expects a FILE"* ]] || fail "$stderr"
	tool bundle a.yaml b.yaml
	assert_status 2
	[[ $stderr == "fluid: bundle expects one FILE"* ]] || fail "$stderr"
}
