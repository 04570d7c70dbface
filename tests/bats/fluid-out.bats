#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-out.bats - how the commands write where a Makefile or a shell
# pipeline puts them: --out makes the directories above its file (or
# DIR), "-o -" is standard output, -q drops the "wrote" lines, and a
# reader that closes the pipe (| head) ends the program quietly.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	C=$EXAMPLES/shapes/landed/orders-landed.fluid.yaml
}
teardown() { fluid_teardown; }

# big: a contract whose outputs are far larger than a pipe's buffer.
big() {
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import gen
open("big.fluid.yaml", "w").write(gen.cols_contract(3000))' "$TOP/tests/bench"
}

@test "out: generate flink --out a/b/c makes a/ and a/b/, as fluid(1) says" {
	tool generate flink --out a/b/c "$C"
	assert_status 0
	[ -f a/b/c/land-orders.sql ] || fail "no script" "$(find a)"
	assert_match "$output" "^wrote a/b/c/land-orders.sql"
}

@test "out: bundle, plan and export odcs --out x/y/FILE make x/ and x/y/" {
	tool bundle --out x/y/b.yaml "$C"
	assert_status 0
	[ -s x/y/b.yaml ]
	FLUID_FLINK_IMAGE_ALLOWLIST= tool plan --mode dry-run --out p/q/plan.json "$C"
	assert_status 0
	[ -s p/q/plan.json ]
	tool export odcs --out o/d/c.yaml "$C"
	assert_status 0
	[ -s o/d/c.yaml ]
}

@test "out: a part of the path that is a file is an environment error, nothing written" {
	touch a
	tool bundle --out a/b.yaml "$C"
	assert_status 2
	assert_match "$stderr" "cannot create the directory of 'a/b.yaml'"
	[ -f a ] && [ ! -s a ]
}

@test "out: -o - is standard output, byte for byte what no --out prints" {
	tool bundle "$C"
	want=$output
	tool bundle -o - "$C"
	assert_status 0
	[ "$output" = "$want" ] || fail "-o - differs" "$output"
	[ ! -e ./- ] || fail "a file named - was written" ""
	tool export odcs --out - "$C"
	assert_status 0
	assert_match "$output" "^apiVersion: "
	[ ! -e ./- ]
}

@test "out: generate flink --out - is a usage error (DIR is a directory)" {
	tool generate flink --out - "$C"
	assert_status 2
	assert_match "$stderr" "names a directory, not standard output"
}

@test "out: -q drops the wrote lines and only them" {
	tool generate flink -q --out gen "$C"
	assert_status 0
	[ -z "$output" ] || fail "printed" "$output"
	[ -f gen/land-orders.sql ]
	tool bundle --quiet -o b.yaml "$C"
	assert_status 0
	[ -z "$output" ]
	[ -s b.yaml ]
}

@test "out: | head ends a filter and the driver quietly (SIGPIPE, no message)" {
	big
	run bash -c '"$1/fluid-resolve" big.fluid.yaml 2>err | head -c 10 >/dev/null; echo "${PIPESTATUS[0]}"' x "$BIN"
	[ "$output" = 141 ] || fail "fluid-resolve's status" "$output"
	[ ! -s err ] || fail "a message" "$(cat err)"
	run bash -c '"$1/fluid-resolve" big.fluid.yaml | "$1/fluid-check" 2>err | head -c 10 >/dev/null; echo "${PIPESTATUS[1]}"' x "$BIN"
	[ "$output" = 141 ] || fail "fluid-check's status" "$output"
	[ ! -s err ] || fail "a message" "$(cat err)"
	run bash -c '"$1/fluid" bundle big.fluid.yaml 2>err | head -c 10 >/dev/null; echo "${PIPESTATUS[0]}"' x "$BIN"
	[ "$output" = 141 ] || fail "fluid bundle's status" "$output"
	[ ! -s err ] || fail "a message" "$(cat err)"
}

@test "out: a full disk is still an error that says so (status 2)" {
	[ -w /dev/full ] || fail "no /dev/full" ""
	run bash -c '"$1/fluid-resolve" "$2" >/dev/full' x "$BIN" "$C"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot write standard output"* ]]
}
