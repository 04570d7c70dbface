#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# version.bats - every tool's --version says the version of the public
# header (lib/fluid/fluid.h) and the commit it was built from, as
# tools/git-commit tells the Makefile: the checked-out commit, or
# "unknown" outside a git checkout.

load helpers

setup() { fluid_setup; }
teardown() { fluid_teardown; }

# The header's FLUID_VERSION.
header_version() {
	sed -n 's/^#define FLUID_VERSION[^_"]*"\(.*\)"$/\1/p' \
	    "$TOP/lib/fluid/fluid.h"
}

@test "version: fluid --version and fluid-check --version say the header's version and the commit built from" {
	local v commit
	v=$(header_version)
	[[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "no FLUID_VERSION in fluid.h" "$v"
	if git -C "$TOP" rev-parse --verify -q HEAD >/dev/null; then
		# make check builds first, so the tools are of this commit.
		commit=$(git -C "$TOP" rev-parse --short=12 HEAD)
	else
		commit=unknown
	fi
	for t in fluid fluid-check; do
		run "$BIN/$t" --version
		assert_status 0
		assert_equal "$output" "$t $v (commit $commit)" "$t --version"
	done
}

@test "version: tools/git-commit says the commit of a checkout, unknown outside one" {
	run "$TOP/tools/git-commit" "$TOP"
	assert_status 0
	if git -C "$TOP" rev-parse --verify -q HEAD >/dev/null; then
		assert_equal "$output" "$(git -C "$TOP" rev-parse --short=12 HEAD)" "in the tree"
	fi
	# A release tarball: not a checkout.
	mkdir tarball
	run "$TOP/tools/git-commit" tarball
	assert_status 0
	assert_equal "$output" unknown "outside a checkout"
	# Unpacked inside somebody else's repository: not that one's commit.
	git init -q outer
	git -C outer -c user.name=t -c user.email=t@example.com commit -q \
	    --allow-empty -m x
	mkdir outer/fluid-0.1.0
	run "$TOP/tools/git-commit" outer/fluid-0.1.0
	assert_equal "$output" unknown "inside another repository"
}
