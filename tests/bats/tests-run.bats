#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# tests-run.bats - tests/run (make check) streams the TAP as it runs and
# counts what ran: a CI log shows each test when it ends.

load helpers

setup() {
	fluid_setup
	# bats puts its own libexec first on PATH; tests/run wants the
	# user's bats, as make check finds it.
	CLEAN_PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v bats-core |
	    paste -sd: -)
}
teardown() { fluid_teardown; }

@test "tests/run: a finished test is printed while the next one still runs" {
	mkfifo gate
	mkdir fakebin b
	# The first bats test ends at once; the second waits at the gate.
	printf '@test "first" { true; }\n@test "second" { read -r _ <"%s/gate"; }\n' \
	    "$PWD" >b/two.bats
	# A clean environment: the inner bats must not see this one's.
	env -i PATH="$CLEAN_PATH" HOME="$HOME" FLUID_BIN="$PWD/fakebin" \
	    FLUID_BATS="$PWD/b" "$TOP/tests/run" >out 2>&1 3>&- &
	pid=$!
	# "ok 1 first" must reach the output before the gate opens.
	for _ in $(seq 1 600); do
		grep -q '^ok 1 first' out && break
		sleep 0.1
	done
	grep -q '^ok 1 first' out || { echo open >gate; wait $pid; fail "not streamed: $(cat out)"; }
	! grep -q 'second' out
	echo open >gate
	wait $pid
	[ "$(tail -n 1 out)" = "2 passed, 0 failed" ]
}

@test "tests/run: a failed test is counted and the status is 1" {
	mkdir fakebin b
	printf '@test "x" { false; }\n@test "y" { true; }\n' >b/f.bats
	run env -i PATH="$CLEAN_PATH" HOME="$HOME" FLUID_BIN="$PWD/fakebin" \
	    FLUID_BATS="$PWD/b" "$TOP/tests/run"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "1 passed, 1 failed" ]
}

@test "tests/run: files side by side (FLUID_TEST_JOBS=2) are all counted, a failure too" {
	parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
	    fail "GNU parallel is not installed (tools/bootstrap installs it)"
	mkdir fakebin b
	# a1 passes only if b.bats runs while a.bats does: side by side.
	printf '@test "a1" { for i in $(seq 100); do [ -e %s/mark ] && return 0; sleep 0.1; done; false; }\n@test "a2" { true; }\n' "$PWD" >b/a.bats
	printf '@test "b1" { touch %s/mark; false; }\n@test "b2" { true; }\n' "$PWD" >b/b.bats
	run env -i PATH="$CLEAN_PATH" HOME="$HOME" FLUID_BIN="$PWD/fakebin" \
	    FLUID_TEST_JOBS=2 FLUID_BATS="$PWD/b" "$TOP/tests/run"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "3 passed, 1 failed" ]
	# Each file's tests in their order, every one reported once.
	[ "$(grep -c '^ok .* a[12]$' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^not ok .* b1$' <<<"$output")" -eq 1 ]
}

@test "tests/run: FLUID_TEST_JOBS that is not a positive number is a usage error" {
	mkdir fakebin
	for j in 0 x -1; do
		run env -i PATH="$CLEAN_PATH" HOME="$HOME" FLUID_BIN="$PWD/fakebin" \
		    FLUID_TEST_JOBS=$j "$TOP/tests/run"
		[ "$status" -eq 2 ]
		[ "$output" = "tests/run: FLUID_TEST_JOBS must be a positive number, not '$j'" ]
	done
}
