#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-resolve: the bounds on what a contract expands to and the rules
# on where its $refs may be read from (fluid-resolve(1), "Limits" in
# fluid(7)).  Each rule has a refusal, with its status, place and
# contract path, and an input it accepts.
#
# The lines, columns and paths expected below are counted from the
# files written here; the crossing points from the bound: 64 MiB is
# 67108864 bytes of strings and keys.

load helpers

setup() {
	TOOL=fluid-resolve
	fluid_setup
}

teardown() {
	[ -n "${SHM:-}" ] && rm -rf "$SHM"
	fluid_teardown
}

# blob N CHAR: N bytes of CHAR.
blob() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

# alias_contract N: a 900,000-byte anchor and N aliases of it.  The
# keys and values besides the anchor hold 54 bytes, so the anchor and
# k aliases hold 900054 + 900000k: past the bound from k = 74, the
# alias copies[73] on line 6 + 73.
alias_contract() {
	{
		printf 'fluidVersion: "0.7.7"\nkind: DataProduct\nid: shop.orders\n'
		printf 'big: &a "%s"\ncopies:\n' "$(blob 900000 x)"
		yes '  - *a' | head -n "$1"
	} >c.yaml
}

# ref_contract N: N $refs to a 900,000-byte string in frag.yaml.  The
# contract holds 51 bytes of its own, past the bound from the 75th
# $ref, copies[74] on line 5 + 74.
ref_contract() {
	printf 'blob: "%s"\n' "$(blob 900000 y)" >frag.yaml
	{
		printf 'fluidVersion: "0.7.7"\nkind: DataProduct\nid: shop.orders\ncopies:\n'
		yes '  - {$ref: "frag.yaml#/blob"}' | head -n "$1"
	} >c.yaml
}

# timed ARGS...: tool ARGS, and the milliseconds it took in $ms.
timed() {
	local t0 t1
	t0=$(date +%s%N)
	tool "$@"
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
}

# resolved_to FILE: resolve FILE into out.json (which may be large),
# with the status in $status.
resolved_to() {
	status=0
	timeout $((120 * FLUID_SLOWDOWN)) "$BIN/fluid-resolve" "$1" \
	    >out.json 2>err.txt || status=$?
}

# --- the expanded size ---------------------------------------------------

@test "bounds: an anchor aliased past 64 MiB of text is refused at the alias, in well under a second" {
	alias_contract 5000
	timed c.yaml
	assert_status 1
	assert_no_stdout
	assert_stderr_line "^c\\.yaml:79:5: error: copies\\[73\\]: alias '\\*a' takes the document past 64 MiB of strings and keys \\(aliases expanded\\)$"
	[ "$ms" -lt $((500 * FLUID_SLOWDOWN)) ] ||
	    fail "took $ms ms to refuse"
}

@test "bounds: fluid validate refuses the alias bomb the same way" {
	alias_contract 5000
	TOOL=fluid
	tool validate c.yaml
	assert_status 1
	assert_equal "$output" "c.yaml: refused (1 error)" "stdout"
	assert_stderr_line "^c\\.yaml:79:5: error: copies\\[73\\]: alias '\\*a' takes the document past 64 MiB"
}

@test "bounds: the same anchor aliased just under 64 MiB is accepted, every copy whole" {
	alias_contract 73
	resolved_to c.yaml
	assert_equal "$status" 0 "exit status"
	[ ! -s err.txt ] || fail "stderr: $(head -c 500 err.txt)"
	run jq '.resolve.document.copies | length, (map(length) | unique)' out.json
	assert_equal "$(echo $output)" "73 [ 900000 ]" "copies"
}

@test "bounds: a \$ref to a large fragment made past 64 MiB is refused at the \$ref, in well under a second" {
	ref_contract 1000
	timed c.yaml
	assert_status 1
	assert_no_stdout
	assert_stderr_line "^c\\.yaml:79:5: error: copies\\[74\\]: '\\\$ref' 'frag\\.yaml#/blob' takes the resolved contract past 64 MiB of strings and keys \\(aliases and \\\$refs expanded\\)$"
	[ "$ms" -lt $((500 * FLUID_SLOWDOWN)) ] ||
	    fail "took $ms ms to refuse"
}

@test "bounds: the same \$ref made just under 64 MiB is accepted" {
	ref_contract 74
	resolved_to c.yaml
	assert_equal "$status" 0 "exit status"
	run jq '.resolve.document.copies | length, (map(length) | unique)' out.json
	assert_equal "$(echo $output)" "74 [ 900000 ]" "copies"
}

@test "bounds: \$refs of \$refs are counted whole, and refused at the \$ref in the contract" {
	printf 'blob: "%s"\n' "$(blob 900000 y)" >l0.yaml
	for i in $(seq 10); do echo '- {$ref: "l0.yaml#/blob"}'; done >l1.yaml
	{ echo 'copies:'; yes '  - {$ref: l1.yaml}' | head -n 10; } >c.yaml
	# 9,000,000 bytes a copy of l1.yaml: the 8th passes the bound.
	refuses 1 c.yaml "^c\\.yaml:9:5: error: copies\\[7\\]: '\\\$ref' 'l1\\.yaml' takes the resolved contract past 64 MiB"
	{ echo 'copies:'; yes '  - {$ref: l1.yaml}' | head -n 7; } >c.yaml
	resolved_to c.yaml
	assert_equal "$status" 0 "exit status with 7 copies"
}

@test "bounds: mapping keys count, as often as an alias copies them" {
	# 200 keys of 4,000 bytes: 800,000 bytes a copy, the anchor's and
	# 82 aliases' within the bound, the 83rd past it.
	{
		echo 'base: &m'
		for i in $(seq 100 299); do
			printf '  ? k%d%s\n  : 1\n' "$i" "$(blob 3996 k)"
		done
		echo 'copies:'
		yes '  - *m' | head -n 100
	} >c.yaml
	refuses 1 c.yaml "^c\\.yaml:485:5: error: copies\\[82\\]: alias '\\*m' takes the document past 64 MiB"
}

@test "bounds: the benchmark's 100,000-column contract is well within the bound" {
	python3 "$TOP/tests/bench/gen.py" . cols-100000 >/dev/null
	resolved_to cols-100000/contract.fluid.yaml
	assert_equal "$status" 0 "exit status"
	run jq '.resolve.document.exposes[0].contract.schema | length' out.json
	assert_equal "$output" 100000 "columns"
}

# --- opening beneath the root --------------------------------------------

# root/ with frags/s.yaml and a file outside it; c.yaml names REF.
make_root() {
	mkdir -p root/frags root/sub
	printf 'kind: kafka\ntopic: shared\n' >root/frags/s.yaml
	echo 'secret: outside the root' >outside.yaml
	printf '# the contract\nstream: {$ref: "%s"}\n' "$1" >root/c.yaml
}

@test "beneath: links that stay inside the root are followed, relative, absolute or through a directory" {
	make_root rel.yaml
	ln -s frags/s.yaml root/rel.yaml
	ln -s "$TMP/root/frags/s.yaml" root/abs.yaml
	ln -s frags root/fdir
	cd root
	for ref in rel.yaml abs.yaml fdir/s.yaml fdir/../frags/s.yaml \
	    "$TMP/root/frags/s.yaml"; do
		printf '# the contract\nstream: {$ref: "%s"}\n' "$ref" >c.yaml
		accepts c.yaml
		assert_jq '.resolve.document.stream.topic == "shared"'
		# The file is named by where it is, not by the link.
		assert_jq '.resolve.files == ["c.yaml", "frags/s.yaml"]'
	done
}

@test "beneath: a chain of links that ends outside the root is refused at the \$ref" {
	make_root chain2.yaml
	ln -s sub/../../outside.yaml root/chain1.yaml
	ln -s chain1.yaml root/chain2.yaml
	cd root
	refuses 1 c.yaml "^c\\.yaml:2:9: error: '\\\$ref' 'chain2\\.yaml' leaves the workspace root $TMP/root$"
}

@test "beneath: '..' after a link to a directory climbs from where the link leads" {
	make_root fdir/../../outside.yaml
	ln -s frags root/fdir
	cd root
	refuses 1 c.yaml "^c\\.yaml:2:9: error: '\\\$ref' 'fdir/\\.\\./\\.\\./outside\\.yaml' leaves the workspace root"
}

@test "beneath: a link loop is refused, not followed forever" {
	make_root loop1.yaml
	ln -s loop2.yaml root/loop1.yaml
	ln -s loop1.yaml root/loop2.yaml
	cd root
	refuses 1 c.yaml "^c\\.yaml:2:9: error: '\\\$ref' 'loop1\\.yaml': Too many levels of symbolic links$"
}

@test "beneath: a link swapped in and out while resolving never leads outside the root" {
	make_root link.yaml
	cd root
	ln -s frags/s.yaml link.yaml
	# Flip link.yaml between a file inside and one outside, atomically
	# (rename over it), as fast as possible while resolving.
	(
		while :; do
			ln -sfn ../outside.yaml tmp.link && mv -T tmp.link link.yaml
			ln -sfn frags/s.yaml tmp.link && mv -T tmp.link link.yaml
		done
	) 2>/dev/null &
	local flipper=$! i out ok=0 refused=0
	for i in $(seq 1 200); do
		out=$("$BIN/fluid-resolve" c.yaml 2>&1) && ok=$((ok + 1)) ||
		    refused=$((refused + 1))
		case $out in
		*secret*) kill "$flipper"; fail "read outside the root: $out" ;;
		esac
	done
	kill "$flipper"
	wait "$flipper" 2>/dev/null || :
	[ $((ok + refused)) -eq 200 ]
}

# --- ref_root --------------------------------------------------------

# ws/ with a workspace file, ws/contracts/c.yaml reaching ../frags/s.yaml.
make_ws() {
	mkdir -p ws/frags ws/contracts
	printf 'kind: kafka\ntopic: shared\n' >ws/frags/s.yaml
	printf '# the contract\nstream: {$ref: ../frags/s.yaml}\n' >ws/contracts/c.yaml
	printf '# the workspace\nref_root: %s\n' "$1" >ws/fluid.workspace.yaml
}

@test "ref_root: '..' is refused at ref_root, naming the workspace file's directory" {
	make_ws ..
	cd ws
	refuses 1 contracts/c.yaml "^fluid\\.workspace\\.yaml:2:11: error: ref_root '\\.\\.' lies above the workspace file's directory $TMP/ws$"
}

@test "ref_root: a link that leads above is refused, as is '/'" {
	make_ws up
	ln -s .. ws/up
	cd ws
	refuses 1 contracts/c.yaml "^fluid\\.workspace\\.yaml:2:11: error: ref_root 'up' lies above the workspace file's directory"
	printf 'ref_root: /\n' >fluid.workspace.yaml
	refuses 1 contracts/c.yaml "^fluid\\.workspace\\.yaml:1:11: error: ref_root '/' lies above"
}

@test "ref_root: its own directory, by '.' or by its absolute path, is accepted" {
	make_ws .
	cd ws
	accepts contracts/c.yaml
	assert_jq '.resolve.document.stream.topic == "shared"'
	printf 'ref_root: %s\n' "$TMP/ws" >fluid.workspace.yaml
	accepts contracts/c.yaml
	assert_jq '.resolve.document.stream.topic == "shared"'
}

# --- where the search for the workspace file ends -------------------------

# A workspace file in ws/, and the contract in ws/repo/.
make_repo() {
	mkdir -p ws/repo
	printf 'kind: kafka\ntopic: shared\n' >ws/s.yaml
	printf 'ref_root: .\n' >ws/fluid.workspace.yaml
	printf '# the contract\nstream: {$ref: ../s.yaml}\n' >ws/repo/c.yaml
}

@test "search: without a repository in between, the workspace file above is found" {
	make_repo
	accepts ws/repo/c.yaml
	assert_jq '.resolve.files | index("ws/fluid.workspace.yaml") != null'
}

@test "search: it ends at a directory holding .git, so the workspace file above is not the root" {
	make_repo
	mkdir ws/repo/.git
	refuses 1 ws/repo/c.yaml "^ws/repo/c\\.yaml:2:9: error: '\\\$ref' '\\.\\./s\\.yaml' leaves the workspace root $TMP/ws/repo$"
}

@test "search: a .git file (a worktree or submodule) ends it too" {
	make_repo
	echo 'gitdir: /nowhere' >ws/repo/.git
	refuses 1 ws/repo/c.yaml "^ws/repo/c\\.yaml:2:9: error: '\\\$ref' '\\.\\./s\\.yaml' leaves the workspace root $TMP/ws/repo$"
}

@test "search: a workspace file beside .git is the repository's, and is found" {
	make_repo
	mkdir ws/.git
	accepts ws/repo/c.yaml
	assert_jq '.resolve.document.stream.topic == "shared"'
}

@test "search: it ends at a mount point, never reading the file system above" {
	make_repo
	command -v unshare >/dev/null || skip "no unshare"
	unshare -m true 2>/dev/null || skip "cannot make a mount namespace"
	cp ws/repo/c.yaml c.yaml.saved
	run --separate-stderr unshare -m sh -c '
		mount -t tmpfs fluid-test ws/repo || exit 99
		cp c.yaml.saved ws/repo/c.yaml
		exec "$1" ws/repo/c.yaml' sh "$BIN/fluid-resolve"
	[ "$status" -ne 99 ] || skip "cannot mount a tmpfs here"
	assert_status 1
	assert_no_stdout
	assert_stderr_line "^ws/repo/c\\.yaml:2:9: error: '\\\$ref' '\\.\\./s\\.yaml' leaves the workspace root $TMP/ws/repo$"
}

# --- /proc, /sys and /dev --------------------------------------------

# A contract and its fragment in a new directory of /dev/shm, in $SHM.
make_shm() {
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
	SHM=$(mktemp -d /dev/shm/fluid-bounds.XXXXXX) || skip "no /dev/shm"
	printf 'kind: kafka\ntopic: shared\n' >"$SHM/s.yaml"
	printf '# the contract\nstream: {$ref: s.yaml}\n' >"$SHM/c.yaml"
}

@test "kernel files: a fragment under /dev is refused at the \$ref, even inside the root" {
	make_shm
	refuses 1 "$SHM/c.yaml" "^${SHM//./\\.}/c\\.yaml:2:9: error: '\\\$ref' 's\\.yaml': fragments are never read from /proc, /sys or /dev$"
}

@test "kernel files: the same contract and fragment elsewhere are accepted" {
	make_shm
	cp "$SHM/c.yaml" "$SHM/s.yaml" .
	accepts c.yaml
	assert_jq '.resolve.document.stream.topic == "shared"'
	# The rule is for fragments: a contract the user names is read.
	printf 'name: orders\n' >"$SHM/c.yaml"
	accepts "$SHM/c.yaml"
	assert_jq '.resolve.document.name == "orders"'
}
