#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-examples.bats - the contracts every other check starts from
# ("Where to start" in the specification): the base contract of the
# fluid-check-*.bats files, and every example contract, are accepted.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

@test "check: the base contract is accepted, and reads outputs by name" {
	validate
	accepted
	check
	ir
	assert_jq '.stages[-1] == "check" and .check.managed'
	assert_jq '.check.builds[0].id == "ingest-orders"'
	assert_jq '.check.builds[0].expose == "orders"'
	assert_jq "$(output event_id) | .expr.op == \"path\" and
	    .expr.root == \"event_id\" and .expr.steps == [] and .required"
	assert_jq "$(output customer_id) | .expr.root == \"customer\" and
	    .expr.steps == [{\"field\": \"id\"}] and .expr.nullable"
	assert_jq '.check.builds[0].table.partitionBy == ["country"]'
}

@test "check: fluid validate accepts every example contract" {
	local f n=0
	cd "$EXAMPLES/shapes"
	for f in */*.fluid.yaml; do
		tool validate "$f"
		assert_status 0
		assert_no_stderr
		assert_equal "$output" "$f: ok"
		n=$((n + 1))
	done
	[ "$n" -ge 4 ] || fail "only $n examples"
}

@test "check: fluid validate accepts the change-stream example" {
	local f n=0
	cd "$EXAMPLES/changes"
	for f in *.fluid.yaml; do
		tool validate "$f"
		assert_status 0
		assert_no_stderr
		assert_equal "$output" "$f: ok"
		F=$f check
		ir
		n=$((n + 1))
	done
	[ "$n" -ge 1 ] || fail "no change-stream example"
}

@test "check: fluid validate accepts the CFK example, a build with management: cfk" {
	local f n=0
	cd "$EXAMPLES/cfk"
	for f in *.fluid.yaml; do
		tool validate "$f"
		assert_status 0
		assert_no_stderr
		assert_equal "$output" "$f: ok"
		F=$f check
		ir
		assert_jq '.check.builds[0].deployment.target == "cfk"'
		n=$((n + 1))
	done
	[ "$n" -ge 1 ] || fail "no CFK example"
}

@test "check: every example's IR passes fluid-check through the pipeline" {
	local f
	cd "$EXAMPLES/shapes"
	for f in */*.fluid.yaml; do
		F=$f check
		ir
	done
}
