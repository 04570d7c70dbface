#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The runner's allowlist (tools/flink-runner, ScriptPolicy) is tested with
# JUnit against the scripts fluid writes: tests/golden/sqlgen/*.sql and the
# Kafka security variants in tools/flink-runner/src/test/resources/scripts,
# which make.sh generates with fluid.  This checks that those variants are
# what fluid writes today, so that the runner's accepted inputs follow the
# generator (regenerate: make.sh bin/fluid DIR).

load helpers

SCRIPTS=$TOP/tools/flink-runner/src/test/resources/scripts

setup() { fluid_setup; }
teardown() { fluid_teardown; }

@test "flink-runner policy: the security scripts the runner's tests accept are what fluid writes now" {
	mkdir out
	run "$SCRIPTS/make.sh" "$BIN/fluid" out
	assert_status 0
	[ "$(ls out | wc -l)" -eq 3 ] || fail "make.sh wrote $(ls out)"
	for f in out/*.sql; do
		diff -u "$SCRIPTS/${f##*/}" "$f" ||
		    fail "${f##*/}: fluid writes another script; regenerate with make.sh"
	done
}
