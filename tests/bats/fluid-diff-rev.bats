#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-diff-rev.bats - fluid diff --baseline-rev REV FILE: the baseline
# is FILE, its fragments and its workspace file as they are at git
# revision REV, read through git (never the work tree), so that a review
# sees a fragment changed in the same commit as the contract.  REV and
# the paths reach git's argv only where they cannot be options.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	command -v git >/dev/null || skip "git is not installed"
	REAL_GIT=$(command -v git)
	# No repository above the test's own, whatever $TMP lies in.
	export GIT_CEILING_DIRECTORIES=$TMP
	mkdir repo && cd repo || return
	git init -q .
	cp -R "$TOP/examples/shapes" shapes
	commit base
	C=shapes/landed/orders-landed.fluid.yaml
	FRAG=shapes/fragments/streams/orders.yaml
}
teardown() { fluid_teardown; }

commit() {
	git add -A && git -c user.email=t@example.com -c user.name=t \
	    commit -qm "$1"
}

# The state of the work tree and the index, to show nothing touched them.
tree_state() {
	git status --porcelain --untracked-files=all
	sha256sum .git/index
	find . -path ./.git -prune -o -type f -newer .git/HEAD -print | sort
}

@test "diff --baseline-rev: a fragment changed with the contract is reviewed at REV; --baseline of git show is not" {
	# The commit under review changes the shared fragment's topic (a
	# breaking change) and the contract's own table.
	sed -i 's/^topic: orders$/topic: orders-v2/' "$FRAG"
	sed -i 's/table: orders_landed$/table: orders_landed_v2/' "$C"
	git diff --quiet -- "$FRAG" && fail "the fragment edit changed nothing"
	git diff --quiet -- "$C" && fail "the contract edit changed nothing"
	tree_state >"$TMP/before"

	tool diff --baseline-rev HEAD --exit-on-breaking "$C"
	assert_status 1
	assert_no_stderr
	assert_jq --arg c "$C" --arg f "$FRAG" '
	    .baseline == "HEAD:" + $c and .contract == $c and
	    .counts.breaking == 1 and
	    ([.changes[] | select(.change == "topic")] | length == 1 and
	     .[0].severity == "breaking" and
	     .[0].old.value == "orders" and .[0].new.value == "orders-v2" and
	     .[0].old.file == "HEAD:" + $f and .[0].new.file == $f)'
	assert_jq --arg c "$C" '[.changes[] | select(.change == "table")] |
	    length == 1 and .[0].old.file == "HEAD:" + $c and
	    .[0].old.value == "commerce.orders_landed" and
	    .[0].new.value == "commerce.orders_landed_v2"'
	tree_state >"$TMP/after"
	cmp -s "$TMP/before" "$TMP/after" ||
	    fail "the work tree or the index changed" "$(diff "$TMP/before" "$TMP/after")"

	# The recipe --baseline-rev replaces: the old contract resolved
	# against today's fragments sees no topic change at all.
	git show "HEAD:$C" >shapes/landed/old.fluid.yaml
	tool diff --baseline shapes/landed/old.fluid.yaml --exit-on-breaking "$C"
	assert_status 0
	assert_jq '.counts.breaking == 0'
}

@test "diff --baseline-rev: an older revision, and the same revision gives no change" {
	sed -i 's/^topic: orders$/topic: orders-v2/' "$FRAG"
	commit v2
	tool diff --baseline-rev HEAD "$C"
	assert_status 0
	assert_jq '.changes == []'
	tool diff --baseline-rev HEAD~1 "$C"
	assert_status 0
	assert_jq '[.changes[] | select(.change == "topic")] | length == 1'
}

@test "diff --baseline-rev: the files come from git: a fragment only on disk is not at REV" {
	# A contract committed with a $ref to a fragment that never was.
	mkdir shapes/extra
	sed 's|\$ref: ../fragments/streams/orders.yaml|$ref: ../fragments/streams/new.yaml|' \
	    "$C" >shapes/extra/c.fluid.yaml
	grep -q 'new.yaml' shapes/extra/c.fluid.yaml || fail "the edit changed nothing"
	commit extra
	cp "$FRAG" shapes/fragments/streams/new.yaml	# on disk, not committed
	sed -i 's|\$ref: orders.value.yaml|$ref: ../streams/orders.value.yaml|' \
	    shapes/fragments/streams/new.yaml
	run -0 "$BIN/fluid" validate shapes/extra/c.fluid.yaml
	tool diff --baseline-rev HEAD shapes/extra/c.fluid.yaml
	assert_status 2
	assert_no_stdout
	[[ $stderr == *"HEAD:shapes/fragments/streams/new.yaml: error: cannot open: No such file or directory"* ]] ||
	    fail "the missing fragment is not named at HEAD" "$stderr"
	[[ $stderr == *"fluid: baseline 'HEAD:shapes/extra/c.fluid.yaml' does not validate: nothing compared"* ]] ||
	    fail "no summary line" "$stderr"
}

@test "diff --baseline-rev: a symbolic link at REV is not followed" {
	ln -s ../streams/orders.yaml shapes/fragments/streams/link.yaml
	sed 's|\$ref: ../fragments/streams/orders.yaml|$ref: ../fragments/streams/link.yaml|' \
	    "$C" >shapes/landed/linked.fluid.yaml
	commit link
	run -0 "$BIN/fluid" validate shapes/landed/linked.fluid.yaml
	tool diff --baseline-rev HEAD shapes/landed/linked.fluid.yaml
	assert_status 2
	[[ $stderr == *"HEAD:shapes/fragments/streams/link.yaml: error: cannot read: not a regular file"* ]] ||
	    fail "the link was followed, or not named" "$stderr"
}

@test "diff --baseline-rev: refusals name the revision, the repository or the file (status 2)" {
	tool diff --baseline-rev nosuch "$C"
	assert_status 2
	assert_no_stdout
	assert_stderr_line "^fluid: --baseline-rev: unknown revision 'nosuch' \(no such commit\)\$"

	cp "$C" shapes/landed/new.fluid.yaml
	tool diff --baseline-rev HEAD shapes/landed/new.fluid.yaml
	assert_status 2
	assert_no_stdout
	[[ $stderr == "fluid: cannot open 'HEAD:shapes/landed/new.fluid.yaml': No such file"* ]] ||
	    fail "the file not at HEAD is not named" "$stderr"

	mkdir "$TMP/elsewhere"
	cp -R shapes "$TMP/elsewhere/"
	cd "$TMP/elsewhere"
	tool diff --baseline-rev HEAD "$C"
	assert_status 2
	assert_stderr_line "^fluid: --baseline-rev reads the baseline from git, but the working directory is not in a git work tree: fatal: not a git repository"
	cd "$TMP/repo"

	run --separate-stderr env PATH=/nonexistent "$BIN/fluid" diff \
	    --baseline-rev HEAD "$C"
	assert_status 2
	assert_stderr_line "^fluid: --baseline-rev reads the baseline from git, but the working directory is not in a git work tree: cannot run git: No such file or directory\$"
}

@test "diff --baseline-rev: usage errors: an option as REV, ':' or a control character, with --baseline, standard input" {
	local rev
	for rev in --output=/tmp/x -q "HEAD:$C" $'HEAD\n' ''; do
		tool diff --baseline-rev "$rev" "$C"
		assert_status 2
		assert_no_stdout
		[[ $stderr == "fluid: --baseline-rev '"*"' is not a revision: it must not be empty, start with '-' or hold ':' or a control character" ]] ||
		    fail "REV '$rev' not refused as it should be" "$stderr"
	done
	[ ! -e /tmp/x ] || [ /tmp/x -ot .git/HEAD ] || fail "git wrote /tmp/x"
	tool diff --baseline-rev HEAD --baseline "$C" "$C"
	assert_status 2
	assert_stderr_first "^fluid: --baseline OLD and --baseline-rev REV both name the baseline: give one"
	tool diff --baseline-rev HEAD - <"$C"
	assert_status 2
	assert_stderr_first "^fluid: --baseline-rev reads FILE at REV by its path: not standard input"
}

@test "diff --baseline-rev: git's argv: REV only after --end-of-options, paths only after --, objects by id" {
	mkdir "$TMP/fakebin"
	cat >"$TMP/fakebin/git" <<-EOF
	#!/bin/sh
	printf '%s\n' "\$*" >>"$TMP/git.log"
	exec "$REAL_GIT" "\$@"
	EOF
	chmod +x "$TMP/fakebin/git"
	# A contract at a path that starts with '-'.
	mkdir ./-p
	cp shapes/inlined/orders-landed.fluid.yaml ./-p/c.fluid.yaml
	commit dash
	PATH=$TMP/fakebin:$PATH tool diff --baseline-rev HEAD~0 ./-p/c.fluid.yaml
	assert_status 0
	PATH=$TMP/fakebin:$PATH tool diff --baseline-rev HEAD "$C"
	assert_status 0
	local l n=0
	while IFS= read -r l; do
		n=$((n + 1))
		[[ $l == "rev-parse --show-toplevel" ||
		   $l =~ ^rev-parse\ --verify\ --quiet\ --end-of-options\ HEAD(~0)?\^\{commit\}$ ||
		   $l =~ ^ls-tree\ -z\ --long\ --full-tree\ [0-9a-f]{40}\ --\ [^-] ||
		   $l =~ ^ls-tree\ -z\ --long\ --full-tree\ [0-9a-f]{40}\ --\ -p/ ||
		   $l =~ ^cat-file\ blob\ [0-9a-f]{40}$ ]] ||
		    fail "git was run as: git $l" "$(cat "$TMP/git.log")"
	done <"$TMP/git.log"
	grep -q -- '-- -p/c.fluid.yaml$' "$TMP/git.log" ||
	    fail "the contract under -p/ was not read by its path" "$(cat "$TMP/git.log")"
	[ "$n" -gt 6 ] || fail "git was hardly run" "$(cat "$TMP/git.log")"
}

@test "diff --baseline-rev: a file at REV over the 64 MiB bound is not read" {
	mkdir shapes/big
	sed 's|\$ref: ../fragments/streams/orders.yaml|$ref: big.yaml|' \
	    "$C" >shapes/big/c.fluid.yaml
	head -c 67108865 /dev/zero | tr '\0' ' ' >shapes/big/big.yaml
	commit big
	tool diff --baseline-rev HEAD shapes/big/c.fluid.yaml
	assert_status 2
	assert_no_stdout
	[[ $stderr == *"HEAD:shapes/big/big.yaml: error: cannot read: file larger than 64 MiB"* ]] ||
	    fail "the bound is not named" "$stderr"
}

@test "diff --baseline-rev: a \$ref out of the workspace root at REV is refused, as on disk" {
	sed 's|\$ref: ../fragments/streams/orders.yaml|$ref: ../../../../../../etc/passwd|' \
	    "$C" >shapes/landed/out.fluid.yaml
	commit out
	tool diff --baseline-rev HEAD shapes/landed/out.fluid.yaml
	assert_status 2
	[[ $stderr == *"HEAD:shapes/landed/out.fluid.yaml:"*": error: '\$ref' '../../../../../../etc/passwd' leaves the workspace root $TMP/repo/shapes"* ]] ||
	    fail "not refused as leaving the root" "$stderr"
	[[ $stderr != *"root:"* ]] || fail "/etc/passwd was read" "$stderr"
}
