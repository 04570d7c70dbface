#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-diff-filter.bats - fluid-diff --baseline (fluid-diff(1)) in a
# real pipe: byte for byte what fluid diff --baseline prints (with
# --report; the document's "diff" section is the same answer), on the
# examples, against themselves, against each other and against edited
# copies; the exit statuses; a document of the wrong stage, on either
# side, named.  Its --live half is in fluid-drift.bats (it needs the
# fake kubectl).

load helpers

setup() {
	TOOL=fluid-diff
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	cp -R "$EXAMPLES/changes" changes
	cp -R "$EXAMPLES/cfk" cfk
}

teardown() { fluid_teardown; }

# checked CONTRACT OUT: fluid-resolve | fluid-check into OUT.
checked() {
	"$BIN/fluid-resolve" "$1" | "$BIN/fluid-check" >"$2" ||
	    fail "the pipeline refused $1"
}

# same NEW OLD [OPTIONS...]: the pipe, with OLD's checked document as
# the baseline, prints what fluid diff NEW --baseline OLD prints, byte
# for byte, and exits as it does; the document's diff section is it.
same() {
	local new=$1 old=$2
	st_pipe=0 st_driver=0
	shift 2
	checked "$old" old.checked.json
	"$BIN/fluid-resolve" "$new" | "$BIN/fluid-check" |
	    "$BIN/fluid-diff" --report --baseline old.checked.json "$@" >pipe.json ||
	    st_pipe=$?
	"$BIN/fluid" diff "$new" --baseline "$old" "$@" >driver.json || st_driver=$?
	cmp pipe.json driver.json || fail "$new against $old: the bytes differ" \
	    "$(diff pipe.json driver.json | head -20)" || return
	assert_equal "$st_pipe" "$st_driver" "exit status of $new against $old" || return
	"$BIN/fluid-resolve" "$new" | "$BIN/fluid-check" |
	    "$BIN/fluid-diff" --baseline old.checked.json "$@" >doc.json || :
	jq -e --slurpfile d driver.json '.diff == $d[0] and
	    .stages[-1] == "diff" and has("check") and has("resolve")' doc.json >/dev/null ||
	    fail "the document's diff section is not the answer" || return
	[ -s driver.json ] || fail "fluid diff printed nothing"
}

@test "fluid-diff --baseline: every example against itself and the others, byte for byte as fluid diff" {
	local a b n=0
	for a in shapes/*/*.fluid.yaml changes/*.fluid.yaml cfk/*.fluid.yaml; do
		for b in shapes/landed/orders-landed.fluid.yaml "$a"; do
			same "$a" "$b" || return
			n=$((n + 1))
		done
	done
	[ "$n" -ge 10 ] || fail "only $n pairs"
}

@test "fluid-diff --baseline: edited contracts, --exit-on-breaking, byte for byte as fluid diff" {
	cp changes/customers-cdc.fluid.yaml changes/old.fluid.yaml
	sed -i 's/topic: /topic: v2./' changes/customers-cdc.fluid.yaml
	same changes/customers-cdc.fluid.yaml changes/old.fluid.yaml
	jq -e '.counts.breaking >= 1' driver.json >/dev/null || fail "the test changed nothing breaking"
	same changes/customers-cdc.fluid.yaml changes/old.fluid.yaml --exit-on-breaking
	assert_equal "$st_driver" 1 "fluid diff --exit-on-breaking"
	checked changes/old.fluid.yaml old.checked.json
	"$BIN/fluid-resolve" changes/customers-cdc.fluid.yaml | "$BIN/fluid-check" >new.json
	run -1 "$BIN/fluid-diff" --baseline old.checked.json --exit-on-breaking <new.json
	run -0 "$BIN/fluid-diff" --baseline old.checked.json <new.json
}

@test "fluid-diff: a document of another stage says which stage's output it expected" {
	"$BIN/fluid-resolve" shapes/landed/orders-landed.fluid.yaml >resolved.json
	checked shapes/landed/orders-landed.fluid.yaml checked.json
	tool --baseline checked.json <resolved.json
	assert_status 2
	assert_stderr_line "^fluid-diff: expects the output of fluid-check, got the output of fluid-resolve$"
	tool --baseline resolved.json <checked.json
	assert_status 2
	assert_stderr_line "^fluid-diff: baseline 'resolved.json': expects the output of fluid-check, got the output of fluid-resolve$"
	tool --live <checked.json
	assert_status 2
	assert_stderr_line "^fluid-diff: expects the output of fluid-k8s, got the output of fluid-check$"
	tool --baseline missing.json <checked.json
	assert_status 2
	assert_stderr_line "^fluid-diff: cannot read baseline 'missing.json': No such file"
}

@test "fluid-diff: usage errors" {
	usage_error --live --baseline x.json '--baseline BASELINE or --live'
	usage_error '--baseline BASELINE or --live'
	usage_error --baseline x.json --exit-on-drift '--exit-on-drift with --live'
	usage_error --live --exit-on-breaking '--exit-on-breaking goes with --baseline'
	usage_error --live x.json 'no FILE'
	run -0 "$BIN/fluid-diff" --help
	[[ $output == *"--baseline BASELINE"* && $output == *"--live"* ]] || fail "no usage" "$output"
}
