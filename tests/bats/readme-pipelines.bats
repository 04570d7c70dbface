#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# readme-pipelines.bats - the pipelines README shows beside the driver's
# commands, run as README writes them, print what the commands print,
# byte for byte.  (fluid-diff-filter.bats and fluid-k8s.bats compare
# the same pipelines over every example; this file keeps README true.)

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	cd shapes/landed || return 1
	cp orders-landed.fluid.yaml c.fluid.yaml
	# The baseline: the same contract when kafka_partition was optional.
	sed 's/{name: kafka_partition, type: int, required: true}/{name: kafka_partition, type: int}/' \
	    c.fluid.yaml >old.fluid.yaml
	! cmp -s c.fluid.yaml old.fluid.yaml || fail "the baseline is not edited"
	export PATH="$BIN:$PATH"
}

teardown() { fluid_teardown; }

# readme_block FIRST LAST: README's lines of the code block from the
# line holding FIRST to the one before the line holding LAST, indented
# four blanks in README, without the comment lines.
readme_block() {
	awk -v first="$1" -v last="$2" 'index($0, first) { on = 1; next }
	    on && index($0, last) { exit } on' "$TOP/README.md" |
	    sed 's/^    //' | grep -v '^#'
}

@test "README: the change review's pipeline prints what fluid diff prints, byte for byte" {
	local script
	script=$(readme_block '# the change review' '# the plan')
	[[ $script == *"fluid-diff --baseline old.checked.json"* ]] ||
	    fail "README's change review pipeline not found" "$script"
	bash -o pipefail -c "$script" >pipe.out || fail "the pipeline failed" "$script"
	run -0 "$BIN/fluid" diff c.fluid.yaml --baseline old.fluid.yaml
	printf '%s\n' "$output" >driver.out
	cmp pipe.out driver.out || fail "the bytes differ" "$(diff pipe.out driver.out)"
	# And there is something to compare: a change was found.
	jq -e '.changes | length > 0' driver.out >/dev/null ||
	    fail "no change between the contracts" "$(cat driver.out)"
}

@test "README: the plan's pipeline writes what fluid plan writes, byte for byte" {
	local script
	script=$(readme_block '# the plan' 'fluid-k8s apply')
	[[ $script == *"fluid-k8s plan --mode amend > plan.json"* ]] ||
	    fail "README's plan pipeline not found" "$script"
	bash -o pipefail -c "$script" || fail "the pipeline failed" "$script"
	run -0 "$BIN/fluid" plan c.fluid.yaml --mode amend
	printf '%s\n' "$output" >driver.json
	cmp plan.json driver.json || fail "the bytes differ" "$(diff plan.json driver.json | head)"
}
