#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-ci-reports.bats - fluid validate in a CI job: --strict (a
# warning is an error), --diagnostics=github (each diagnostic a GitHub
# workflow command, on its line of the pull request), --sarif LOG (a
# SARIF 2.1.0 log, valid against the schema OASIS publishes) and
# --junit REPORT's line= and its validity against Jenkins' junit-10.xsd
# (both schemas vendored in tests/schemas/, see its README).

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	cp "$TOP/examples/shapes/inlined/orders-landed.fluid.yaml" good.yaml
	# No managed build: valid, with one warning that the lane's rules
	# did not apply.
	sed 's/management: operator/management: external/' good.yaml >ext.yaml
	WLINE=$(line_of ext.yaml '^  - id: land-orders') || return
	# A misspelt key: one error where it is, one for the missing key.
	sed 's/^  - exposeId: orders/  - expose%Id: orders/' good.yaml >bad.yaml
	BLINE=$(line_of bad.yaml 'expose%Id') || return
}
teardown() { fluid_teardown; }

# sarif_valid LOG: LOG is valid against the SARIF 2.1.0 schema.
sarif_valid() {
	python3 - "$TOP/tests/schemas/sarif-2.1.0-rtm.5.json" "$1" <<-'PY'
	import json, sys, jsonschema
	schema = json.load(open(sys.argv[1]))
	jsonschema.Draft4Validator(schema).validate(json.load(open(sys.argv[2])))
	PY
}

@test "validate --strict: a warning refuses the contract (exit 1); without it, ok" {
	tool validate ext.yaml
	assert_status 0
	assert_equal "$output" "ext.yaml: ok"
	assert_stderr_line "^ext\.yaml:$WLINE:3: warning: builds: no build sets "
	tool validate --strict ext.yaml
	assert_status 1
	assert_equal "$output" "ext.yaml: refused (1 error)"
	assert_stderr_line "^ext\.yaml:$WLINE:3: error: builds: no build sets .* \[--strict\]\$"
	# A contract with no warning is still ok.
	tool validate --strict good.yaml
	assert_status 0
	assert_equal "$output" "good.yaml: ok"
	assert_no_stderr
	# JSON records say the same.
	tool validate --strict --format json ext.yaml
	assert_status 1
	jq -e '.status == "refused" and .diagnostics[0].level == "error"' <<<"$output" >/dev/null ||
	    fail "the record is not refused" "$(show)"
}

@test "--strict is for the commands that check a contract, not export odcs" {
	tool export odcs --strict good.yaml
	assert_status 2
	assert_stderr_first "^fluid: --strict is for validate, bundle, generate flink, plan and verify"
}

@test "generate flink and plan --strict: a warning refuses the run, and nothing is written" {
	cp "$TOP/tests/bats/fixtures/check/base.fluid.yaml" tls.yaml
	sed -i 's/bootstrapServers: kafka:9092/bootstrapServers: kafka.example.com:9092/
	    s/^            # +source$/            security:\n              protocol: PLAINTEXT/' tls.yaml
	tool generate flink -q --out out tls.yaml
	assert_status 0
	assert_match "$stderr" ": warning: .*PLAINTEXT sends to broker 'kafka\.example\.com' without TLS"
	tool generate flink -q --strict --out strict-out tls.yaml
	assert_status 1
	assert_match "$stderr" ": error: .*PLAINTEXT sends to broker 'kafka\.example\.com' without TLS.* \[--strict\]"
	[ ! -e strict-out ] || fail "strict-out was written" "$(ls -R strict-out)"
	tool plan --strict --mode amend -o p.json tls.yaml
	assert_status 1
	[ ! -e p.json ] || fail "a plan was written"
	tool plan --mode amend -q -o p.json tls.yaml
	assert_status 0
}

@test "validate --diagnostics=github: workflow commands on the lines, escaped" {
	cp bad.yaml 'odd:name,50%.yaml'
	tool validate --diagnostics=github 'odd:name,50%.yaml' ext.yaml
	assert_status 1
	[ "${#stderr_lines[@]}" -eq 3 ] || fail "want three commands" "$(show)"
	assert_equal "${stderr_lines[0]}" "::error file=odd%3Aname%2C50%25.yaml,line=$BLINE,col=16,title=fluid validate::Managed Flink: exposes[0].expose%25Id: unknown key 'expose%25Id' (did you mean 'exposeId'?)"
	assert_equal "${stderr_lines[1]}" "::error file=odd%3Aname%2C50%25.yaml,line=$BLINE,col=5,title=fluid validate::Managed Flink: exposes[0].exposeId: is required"
	assert_match "${stderr_lines[2]}" "^::warning file=ext\.yaml,line=$WLINE,col=3,title=fluid validate::builds: no build sets "
	# A file that cannot be read: an error with no file.
	tool validate --diagnostics=github nonesuch.yaml
	assert_status 2
	assert_stderr_line "^::error title=fluid validate::cannot open 'nonesuch\.yaml': No such file or directory\$"
	# Unknown formats are still refused, naming the three.
	tool validate --diagnostics=gh good.yaml
	assert_status 2
	assert_stderr_first "^fluid: --diagnostics takes text, json or github "
}

@test "fluid-check --diagnostics=github: the stage programs take it too" {
	"$BIN/fluid-resolve" ext.yaml >r.json
	run --separate-stderr "$BIN/fluid-check" --diagnostics=github <r.json
	assert_status 0
	assert_stderr_line "^::warning file=ext\.yaml,line=$WLINE,col=3,title=fluid-check::builds: "
}

@test "validate --sarif: a SARIF 2.1.0 log, a result per diagnostic, valid against the schema" {
	cp bad.yaml 'odd:name,50%.yaml'
	tool validate --sarif out/log.sarif 'odd:name,50%.yaml' ext.yaml good.yaml nonesuch.yaml
	assert_status 2
	sarif_valid out/log.sarif || fail "not valid SARIF 2.1.0" "$(cat out/log.sarif)"
	run jq -c '.runs[0].results[] | [.ruleId, .level, .locations[0].physicalLocation.artifactLocation.uri, .locations[0].physicalLocation.region.startLine, .locations[0].physicalLocation.region.startColumn]' out/log.sarif
	assert_equal "${#lines[@]}" 4 "results"
	assert_equal "${lines[0]}" "[\"fluid-check\",\"error\",\"odd%3Aname%2C50%25.yaml\",$BLINE,16]"
	assert_equal "${lines[1]}" "[\"fluid-check\",\"error\",\"odd%3Aname%2C50%25.yaml\",$BLINE,5]"
	assert_equal "${lines[2]}" "[\"fluid-check\",\"warning\",\"ext.yaml\",$WLINE,3]"
	assert_equal "${lines[3]}" '["fluid-resolve","error","nonesuch.yaml",null,null]'
	# Each rule a result names is in the driver's rules, at its index.
	jq -e '.runs[0] as $r | all($r.results[]; $r.tool.driver.rules[.ruleIndex].id == .ruleId)' out/log.sarif >/dev/null ||
	    fail "a ruleIndex does not name its rule" "$(cat out/log.sarif)"
	# --strict: the warning is an error there too.
	tool validate --strict --sarif s.json ext.yaml
	assert_status 1
	sarif_valid s.json
	assert_equal "$(jq -r '.runs[0].results[0].level' s.json)" error
	# No diagnostic: a valid log with no result.
	tool validate --sarif clean.json good.yaml
	assert_status 0
	sarif_valid clean.json
	assert_equal "$(jq '.runs[0].results | length' clean.json)" 0
}

@test "validate --sarif: the schema check fails on a log that is not SARIF" {
	echo '{"version": "2.1.0", "runs": [{"results": []}]}' >bad.sarif
	run sarif_valid bad.sarif
	[ "$status" -ne 0 ] || fail "a run with no tool passed the schema"
}

@test "validate --sarif: whole or not at all, never over a directory; '-' is refused" {
	mkdir d.sarif
	tool validate --sarif d.sarif good.yaml
	assert_status 2
	assert_match "$stderr" "'d\.sarif' is not a regular file: not replaced"
	[ -d d.sarif ] && [ -z "$(ls -A d.sarif)" ] || fail "d.sarif changed"
	tool validate --sarif - good.yaml
	assert_status 2
	assert_stderr_first "^fluid: --sarif names the file to write the log to"
	[ ! -e ./- ] || fail "wrote a file named -"
	ls -a | grep -q '^\.log\|\.tmp' && fail "a temporary file left" "$(ls -a)"
	true
}

@test "validate --junit: line= of the first error, and valid against Jenkins' junit-10.xsd" {
	command -v xmllint >/dev/null || fail "xmllint is missing: tools/bootstrap --deps installs libxml2-utils"
	# Names and messages that are markup or not text.
	cp bad.yaml 'a<b>&"q".yaml'
	tool validate --junit r.xml bad.yaml ext.yaml good.yaml nonesuch.yaml 'a<b>&"q".yaml'
	assert_status 2
	run xmllint --noout --schema "$TOP/tests/schemas/junit-10.xsd" r.xml
	assert_status 0
	run python3 -c '
import sys, xml.etree.ElementTree as E
for c in E.parse("r.xml").getroot().iter("testcase"):
    print(c.get("name"), c.get("line"))'
	assert_equal "${lines[0]}" "bad.yaml $BLINE"
	# A pass with a warning: the warning's line.
	assert_equal "${lines[1]}" "ext.yaml $WLINE"
	assert_equal "${lines[2]}" "good.yaml None"
	assert_equal "${lines[3]}" "nonesuch.yaml None"
	assert_equal "${lines[4]}" "a<b>&\"q\".yaml $BLINE"
	# An error and a warning: the error's line.
	sed 's/^kind: DataProduct/kind: DataProdct/' ext.yaml >both.yaml
	KLINE=$(line_of both.yaml '^kind: ')
	tool validate --junit b.xml both.yaml
	assert_status 1
	run python3 -c '
import xml.etree.ElementTree as E
print(next(E.parse("b.xml").getroot().iter("testcase")).get("line"))'
	assert_equal "$output" "$KLINE"
}

@test "validate --junit: the xsd check fails on a report Jenkins rejects" {
	command -v xmllint >/dev/null || fail "xmllint is missing"
	printf '<testsuites><testsuite><testcase name="a" bogus="1"/></testsuite></testsuites>\n' >bad.xml
	run xmllint --noout --schema "$TOP/tests/schemas/junit-10.xsd" bad.xml
	[ "$status" -ne 0 ] || fail "xmllint accepted an unknown attribute"
}
