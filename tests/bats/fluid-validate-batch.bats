#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-validate-batch.bats - fluid validate FILE... in a CI job: a
# result per FILE on standard output (text or JSON records), the
# contract of every diagnostic (one inside a shared fragment says which
# contract read it), a FILE that cannot be read does not stop the run,
# and --junit REPORT, a JUnit XML report with a test case per contract.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	cp -R "$TOP/examples/shapes" shapes
	L=shapes/landed/orders-landed.fluid.yaml
	R=shapes/reshaped/orders-reshaped.fluid.yaml
	I=shapes/inlined/orders-landed.fluid.yaml
	V=shapes/fragments/streams/orders.value.yaml
}
teardown() { fluid_teardown; }

# break_fragment: a bad type in the value schema $L and $R both read
# (not $I, which inlines it); sets LINE and COL to where it is.
break_fragment() {
	LINE=$(line_of "$V" '^  type: string$') || return
	sed -i "${LINE}s/type: string/type: strin/" "$V"
	COL=$(col_of "$V" "$LINE" strin)
}

# has_line ERE: a line of the last stderr matches ERE.
has_line() {
	grep -Eq -- "$1" <<<"$stderr" || fail "no line of stderr matches $1" "$stderr"
}

# junit_cases REPORT: each test case as "NAME|RESULT|MESSAGE|TEXT" (TEXT
# with newlines as '\n'), parsed by Python's XML parser, which refuses
# a report that is not well-formed.
junit_cases() {
	python3 - "$1" <<-'PY'
	import sys, xml.etree.ElementTree as E
	root = E.parse(sys.argv[1]).getroot()
	assert root.tag == "testsuites", root.tag
	for s in root:
	    assert s.tag == "testsuite"
	    print("suite|%s|%s|%s|%s" % (s.get("tests"), s.get("failures"),
	        s.get("errors"), s.get("name")))
	    for c in s:
	        kids = list(c)
	        r, m, t = "pass", "", ""
	        for k in kids:
	            if k.tag in ("failure", "error"):
	                r, m, t = k.tag, k.get("message"), k.text or ""
	            elif k.tag == "system-out":
	                t = k.text or ""
	        print("%s|%s|%s|%s" % (c.get("name"), r, m,
	            t.replace("\n", "\\n")))
	PY
}

@test "validate FILE...: a line per FILE, a fragment's error names each contract, a missing FILE is passed, status 2" {
	break_fragment
	tool validate "$L" missing.fluid.yaml "$I" "$R"
	assert_status 2
	assert_equal "$output" "$L: refused (1 error)
missing.fluid.yaml: error
$I: ok
$R: refused (1 error)" "stdout"
	# The same fragment line twice, each with the contract that read it,
	# on one line each.
	has_line "^$V:$LINE:$COL: error: .*'strin' is not a FLUID type.* \[contract: $L\]\$" || return
	has_line "^$V:$LINE:$COL: error: .*'strin' is not a FLUID type.* \[contract: $R\]\$" || return
	has_line "^fluid validate: cannot open 'missing.fluid.yaml': No such file or directory\$"
	[ "$(wc -l <<<"$stderr")" -eq 3 ] || fail "not three lines" "$stderr"
}

@test "validate FILE...: refused but all readable is status 1; all good is 0" {
	break_fragment
	tool validate "$I" "$L"
	assert_status 1
	assert_equal "$output" "$I: ok
$L: refused (1 error)" "stdout"
	tool validate "$I" "$I"
	assert_status 0
	assert_no_stderr
}

@test "validate: a diagnostic in the contract itself has no [contract:] suffix; --diagnostics=json has contract on every one" {
	printf 'fluidVersion: "0.7.7"\nkind: DataProduct\n' >bad.fluid.yaml
	tool validate bad.fluid.yaml
	assert_status 1
	[[ $stderr != *"[contract:"* ]] || fail "a suffix on the contract's own line" "$stderr"
	has_line "^bad.fluid.yaml:1:1: error: id: is required\$" || return
	break_fragment
	tool validate --diagnostics=json bad.fluid.yaml "$L"
	assert_status 1
	[ "$(wc -l <<<"$stderr")" -eq 3 ] || fail "not three diagnostics" "$stderr"
	# bad.fluid.yaml: an error and a warning; $L: the fragment's error.
	jq -se --arg l "$L" --arg v "$V" --argjson n "$LINE" '
	    (map(select(.contract == "bad.fluid.yaml")) | length) == 2 and
	    (map(select(.contract == $l and .file == $v and .line == $n))
	    | length) == 1' <<<"$stderr" >/dev/null ||
	    fail "contracts not named" "$stderr"
}

@test "validate --format json: one record per FILE, in order, with every diagnostic and its contract; nothing on stderr" {
	break_fragment
	tool validate --format json "$L" missing.fluid.yaml "$I"
	assert_status 2
	assert_no_stderr
	[ "$(wc -l <<<"$output")" -eq 3 ] || fail "not a line per FILE" "$output"
	jq -se --arg l "$L" --arg i "$I" --arg v "$V" --argjson n "$LINE" \
	    --argjson c "$COL" '
	    map(.file) == [$l, "missing.fluid.yaml", $i] and
	    map(.status) == ["refused", "error", "ok"] and
	    (.[0].diagnostics | length == 1 and .[0].level == "error" and
	     .[0].file == $v and .[0].line == $n and .[0].column == $c and
	     .[0].contract == $l and (.[0].message | test("strin"))) and
	    (.[1].diagnostics == [{"level": "fatal", "message":
	     "cannot open '\''missing.fluid.yaml'\'': No such file or directory",
	     "contract": "missing.fluid.yaml"}]) and
	    .[2].diagnostics == []' <<<"$output" >/dev/null ||
	    fail "not the records" "$output"
}

@test "validate --junit: a test case per contract, a failure with its diagnostics, an error for the unreadable one" {
	break_fragment
	tool validate --junit reports/validate.xml "$L" missing.fluid.yaml "$I"
	assert_status 2
	assert_equal "$output" "$L: refused (1 error)
missing.fluid.yaml: error
$I: ok" "stdout"
	run -0 junit_cases reports/validate.xml
	assert_equal "${lines[0]}" "suite|3|1|1|fluid validate"
	[[ ${lines[1]} == "$L|failure|refused (1 error)|$V:$LINE:$COL: error: "*"'strin' is not a FLUID type"*"[contract: $L]\\n" ]] ||
	    fail "not the failure" "${lines[1]}"
	assert_equal "${lines[2]}" "missing.fluid.yaml|error|cannot open 'missing.fluid.yaml': No such file or directory|fluid validate: cannot open 'missing.fluid.yaml': No such file or directory\\n"
	assert_equal "${lines[3]}" "$I|pass||"
	[ "${#lines[@]}" -eq 4 ] || fail "not three cases" "$output"
}

@test "validate --junit: names and messages that are markup or not text give a well-formed report" {
	local n='a&b<c>"d'"'"'e.fluid.yaml'
	# A message that quotes the contract (a duplicate key): markup, a
	# control character and U+FFFE, which XML 1.0 cannot hold.
	printf 'fluidVersion: "0.7.7"\n"a</failure>&amp;\\u0001\\uFFFE": 1\n"a</failure>&amp;\\u0001\\uFFFE": 2\n' >"$n"
	tool validate --format json --junit r.xml "$n"
	assert_status 1
	run -0 junit_cases r.xml
	[[ ${lines[1]} == "$n|failure|refused (1 error)|"* ]] ||
	    fail "the name did not survive" "${lines[1]}"
	[[ ${lines[1]} == *"error: duplicate key 'a</failure>&amp;\\x01\\ufffe'\\n" ]] ||
	    fail "the message did not survive as escaped text" "${lines[1]}"
}

@test "validate --junit: written whole or not at all; a usage error writes nothing" {
	printf 'old report\n' >r.xml
	tool validate --junit r.xml --format yaml "$I"
	assert_status 2
	assert_stderr_first "^fluid: --format takes text or json"
	assert_equal "$(cat r.xml)" "old report"
	tool validate --junit - "$I"
	assert_status 2
	[ ! -e ./- ] || fail "wrote a file named -"
	# A directory in the way: status 2 after every FILE was reported.
	mkdir d.xml
	tool validate --junit d.xml "$I"
	assert_status 2
	assert_equal "$output" "$I: ok" "stdout"
	assert_stderr_line "^fluid validate: 'd.xml' is not a regular file: not replaced\$"
	# An unwritable directory: the old report stays as it was, whole.
	mkdir ro && printf 'old report\n' >ro/r.xml
	readonly_dir ro
	tool validate --junit ro/r.xml "$I"
	assert_status 2
	assert_equal "$(cat ro/r.xml)" "old report"
	[ "$(files_in ro)" = r.xml ] || fail "left a temporary file" "$(files_in ro)"
	# And a report replaced: the new one, complete.
	tool validate --junit r.xml "$I"
	assert_status 0
	run -0 junit_cases r.xml
	assert_equal "$output" "suite|1|0|0|fluid validate
$I|pass||"
}

@test "validate --help lists --format and --junit" {
	tool validate --help
	assert_status 0
	[[ $output == *"--format text|json"* && $output == *"--junit REPORT"* ]] ||
	    fail "not in the usage" "$output"
}
