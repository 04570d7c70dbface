#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-diff-ci.bats - fluid diff in a CI job: --report writes the
# summary for a person on standard output, terminal or not (a CI log, a
# pull-request comment), and --baseline-rev in a shallow, detached
# checkout (as CI servers make them) says what to fetch.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	command -v git >/dev/null || fail "git is not installed"
	export GIT_CEILING_DIRECTORIES=$TMP
	C=shapes/landed/orders-landed.fluid.yaml
	git init -q -b main up && cd up || return
	cp -R "$TOP/examples/shapes" shapes
	commit base
	git checkout -qb feature
	sed -i 's/table: orders_landed$/table: orders_landed_v2/' "$C"
	commit change
	cd "$TMP" || return
}
teardown() { fluid_teardown; }

commit() {
	git add -A && git -c user.email=t@example.com -c user.name=t \
	    commit -qm "$1"
}

@test "diff --report: the summary on standard output, off a terminal, the JSON only to --out" {
	cd up
	tool diff --report --baseline-rev main "$C"
	assert_status 0
	assert_no_stderr
	[[ ${lines[0]} == "info (1):" ]] || fail "no summary" "$(show)"
	[[ $output == *"commerce.orders_landed -> commerce.orders_landed_v2"* ]] ||
	    fail "the change is not in the summary" "$(show)"
	[[ $output != *'"changes"'* ]] || fail "JSON on stdout" "$(show)"
	# Without --report, off a terminal: the JSON, no summary.
	tool diff --baseline-rev main "$C"
	assert_status 0
	assert_no_stderr
	jq -e '.counts.info == 1' <<<"$output" >/dev/null || fail "not the JSON" "$(show)"
	# --report --out FILE: the summary, and the JSON in FILE.
	tool diff --report -q --out changes.json --baseline-rev main "$C"
	assert_status 0
	[[ ${lines[0]} == "info (1):" ]] || fail "no summary" "$(show)"
	jq -e '.counts.info == 1' changes.json >/dev/null || fail "no JSON in changes.json"
	# --exit-on-breaking still decides the status.
	sed -i 's/^topic: orders$/topic: orders-v2/' shapes/fragments/streams/orders.yaml
	tool diff --report --exit-on-breaking --baseline-rev main "$C"
	assert_status 1
	[[ $output == *"breaking (1):"* ]] || fail "no breaking line" "$(show)"
}

@test "diff --report is for a change review, not --exit-on-drift" {
	cd up
	tool diff --report --exit-on-drift "$C"
	assert_status 2
	assert_stderr_first "^fluid: --report summarizes the changes from a baseline"
}

@test "diff --baseline-rev in a shallow, detached clone: says what to fetch, and that works" {
	git clone -q --depth 1 --branch feature "file://$TMP/up" clone
	cd clone
	git checkout -q --detach
	[ "$(git rev-parse --is-shallow-repository)" = true ] || fail "the clone is not shallow"
	tool diff --baseline-rev main "$C"
	assert_status 2
	assert_stderr_line "^fluid: --baseline-rev: unknown revision 'main' \(no such commit\); this checkout is shallow and detached: fetch the baseline first, e.g\. 'git fetch --depth=1 origin main:refs/remotes/origin/main', then give --baseline-rev origin/main\$"
	# What it says to run, run.
	cmd=$(sed -n "s/.*e\.g\. '\(git fetch [^']*\)'.*/\1/p" <<<"$stderr")
	rev=$(sed -n 's/.*then give --baseline-rev \(.*\)$/\1/p' <<<"$stderr")
	$cmd 2>/dev/null
	tool diff --report --baseline-rev "$rev" "$C"
	assert_status 0
	[[ ${lines[0]} == "info (1):" ]] || fail "no summary after the fetch" "$(show)"
	# A revision that is not a branch: deepen the history instead.
	tool diff --baseline-rev HEAD~1 "$C"
	assert_status 2
	assert_match "$stderr" "this checkout is shallow and detached: fetch the history that holds it first, e\.g\. 'git fetch --unshallow origin'"
}

@test "diff --baseline-rev in a whole clone on a branch: no fetch hint" {
	cd up
	tool diff --baseline-rev nosuch "$C"
	assert_status 2
	assert_stderr_line "^fluid: --baseline-rev: unknown revision 'nosuch' \(no such commit\)\$"
}

@test "fluid-diff --summary: the summary on standard output, off a terminal, as fluid diff --report prints it" {
	cd up
	local old=shapes/landed/old.fluid.yaml
	git show main:"$C" >"$old"
	"$BIN/fluid-resolve" "$old" | "$BIN/fluid-check" >old.checked.json
	run --separate-stderr bash -o pipefail -c "'$BIN/fluid-resolve' '$C' | '$BIN/fluid-check' | '$BIN/fluid-diff' --summary --baseline old.checked.json"
	assert_status 0
	assert_no_stderr
	local filter=$output
	run -0 "$BIN/fluid" diff --report --baseline "$old" "$C"
	assert_equal "$filter" "$output" "fluid-diff --summary and fluid diff --report"
	[[ ${lines[0]} == "info (1):" ]] || fail "no summary" "$(show)"
	run --separate-stderr "$BIN/fluid-diff" --summary --report --baseline old.checked.json </dev/null
	assert_status 2
	assert_stderr_first "^fluid-diff: --summary goes with --baseline, without --report"
}
