#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# licence.bats - fluid is under the Apache License 2.0: LICENSE is the
# licence's canonical text, NOTICE names the project and its copyright,
# and README says so.  (install.bats checks that make install installs
# both; layout.bats checks tools/spdx-headers.)

load helpers

setup() { fluid_setup; }
teardown() { fluid_teardown; }

@test "licence: LICENSE is the canonical text of the Apache License 2.0" {
	[ -f "$TOP/LICENSE" ] || fail "no LICENSE"
	# sha256 of https://www.apache.org/licenses/LICENSE-2.0.txt, which
	# Debian ships as /usr/share/common-licenses/Apache-2.0.
	run sha256sum "$TOP/LICENSE"
	assert_equal "${output%% *}" \
	    cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30 \
	    "sha256 of LICENSE"
	grep -q '^ *Version 2.0, January 2004$' "$TOP/LICENSE"
}

@test "licence: NOTICE names fluid and its copyright; README has a Licence section naming it" {
	[ "$(head -n 1 "$TOP/NOTICE")" = fluid ] || fail "NOTICE does not start with fluid" "$(cat "$TOP/NOTICE")"
	grep -qx 'Copyright 2026 The fluid authors' "$TOP/NOTICE" ||
	    fail "no copyright line in NOTICE" "$(cat "$TOP/NOTICE")"
	run awk '/^## Licence$/ { on = 1; next } /^## / { on = 0 } on' "$TOP/README.md"
	[[ $output == *"Apache License, Version 2.0"* ]] || fail "README's Licence section" "$output"
	[[ $output == *LICENSE* && $output == *NOTICE* ]] || fail "README's Licence section" "$output"
}
