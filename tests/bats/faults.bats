#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# faults.bats - what the tools do when writing fails: a full disk, a
# failed fsync or rename, a run killed half way, a read-only or missing
# output directory, standard output on /dev/full, closed, or a pipe
# whose reader has gone (| head -c1).
#
# The rule (fluid.7): a failed write is status 2 with one line saying
# what could not be written and why, and never leaves half a file: the
# old file stays, or there is none, and no temporary file is left.
#
# Write failures are injected with fixtures/faults/faultinject.c, which
# each run of this file compiles with cc and preloads (LD_PRELOAD), as
# jq's src/inject_errors.c does.  Those tests are skipped under valgrind.

load helpers

FAULTS="$BATS_TEST_DIRNAME/fixtures/faults"
CONTRACT="$BATS_TEST_DIRNAME/../../examples/shapes/inlined/orders-landed.fluid.yaml"

setup_file() {
	cc -shared -fPIC -o "$BATS_FILE_TMPDIR/faultinject.so" \
	    "$BATS_TEST_DIRNAME/fixtures/faults/faultinject.c" -ldl \
	    2>"$BATS_FILE_TMPDIR/cc.log" || true
}

setup() {
	TOOL=fluid
	fluid_setup
	cp "$CONTRACT" c.yaml
}

teardown() {
	fluid_teardown
}

# The same contract with a 300 kB description: every document the
# stages write is then larger than a pipe holds.
big_contract() {
	{ cat "$CONTRACT"; printf 'description: '
	  head -c 300000 /dev/zero | tr '\0' x; echo; } >big.yaml
}

# faulty VAR=VALUE... -- COMMAND...: run COMMAND with the fault shim.
faulty() {
	local -a env=()
	[ -z "${FLUID_VALGRIND:-}" ] || skip "LD_PRELOAD and valgrind do not mix"
	[ -f "$BATS_FILE_TMPDIR/faultinject.so" ] ||
	    fail "cannot build the fault shim: $(cat "$BATS_FILE_TMPDIR/cc.log")"
	while [ "$1" != -- ]; do
		env+=("$1")
		shift
	done
	shift
	# An ASan runtime wants to come first; the shim only wraps libc.
	run --separate-stderr env "${env[@]}" \
	    LD_PRELOAD="$BATS_FILE_TMPDIR/faultinject.so" \
	    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	    timeout "$((60 * FLUID_SLOWDOWN))" "$@"
}

# --- fluid bundle --out: one file -----------------------------------------------

@test "faults: a full disk while writing --out leaves the old file and no temporary file" {
	echo 'old: content' >b.yaml
	faulty FAULT_OP=write FAULT_PATH="$TMP/" -- "$BIN/fluid" bundle --out b.yaml c.yaml
	assert_status 2
	assert_no_stdout
	assert_stderr_line "^fluid: cannot write 'b\\.yaml': No space left on device$"
	assert_equal "$(cat b.yaml)" "old: content" "b.yaml"
	assert_equal "$(files_in .)" "$(printf 'b.yaml\nc.yaml')" "the directory"
}

@test "faults: a full disk while writing a new --out file leaves nothing" {
	faulty FAULT_OP=write FAULT_PATH="$TMP/" -- "$BIN/fluid" bundle --out b.yaml c.yaml
	assert_status 2
	assert_stderr_line "^fluid: cannot write 'b\\.yaml': No space left on device$"
	assert_equal "$(files_in .)" "c.yaml" "the directory"
}

@test "faults: a failed fsync leaves the old file and no temporary file" {
	echo 'old: content' >b.yaml
	faulty FAULT_OP=fsync FAULT_PATH="$TMP/" FAULT_ERRNO=5 -- \
	    "$BIN/fluid" bundle --out b.yaml c.yaml
	assert_status 2
	assert_stderr_line "^fluid: cannot write 'b\\.yaml': Input/output error$"
	assert_equal "$(cat b.yaml)" "old: content" "b.yaml"
	assert_equal "$(files_in .)" "$(printf 'b.yaml\nc.yaml')" "the directory"
}

@test "faults: a failed rename leaves the old file and no temporary file" {
	echo 'old: content' >b.yaml
	faulty FAULT_OP=rename FAULT_PATH=b.yaml FAULT_ERRNO=18 -- \
	    "$BIN/fluid" bundle --out b.yaml c.yaml
	assert_status 2
	assert_stderr_line "^fluid: cannot write 'b\\.yaml': Invalid cross-device link$"
	assert_equal "$(cat b.yaml)" "old: content" "b.yaml"
	assert_equal "$(files_in .)" "$(printf 'b.yaml\nc.yaml')" "the directory"
}

@test "faults: a run killed half way through writing --out leaves the old file and nothing else" {
	echo 'old: content' >b.yaml
	faulty FAULT_OP=kill FAULT_PATH="$TMP/" -- "$BIN/fluid" bundle --out b.yaml c.yaml
	assert_status 137
	assert_equal "$(cat b.yaml)" "old: content" "b.yaml"
	assert_equal "$(files_in .)" "$(printf 'b.yaml\nc.yaml')" "the directory"
}

@test "faults: --out into a read-only directory is status 2 and leaves nothing" {
	mkdir ro
	readonly_dir ro
	refuses 2 bundle --out ro/b.yaml c.yaml "^fluid: cannot write 'ro/b\\.yaml': "
	assert_equal "$(files_in ro)" "" "the read-only directory"
}

# --- fluid generate flink --out DIR: a set of files -----------------------------

# generate_ok: a first, good run into out/, kept in good/ to compare.
generate_ok() {
	"$BIN/fluid" generate flink --out out c.yaml >/dev/null ||
	    fail "the first generate failed"
	cp -R out good
	# The next run writes something else: another topic.
	sed -i 's/^\( *topic:\) .*/\1 other-topic/' c.yaml
}

# assert_old_out: out/ holds exactly the first run's files.
assert_old_out() {
	assert_equal "$(files_in out)" "$(files_in good)" "the files in out/"
	diff -r good out >/dev/null || fail "out/ changed: $(diff -r good out | head -20)"
}

@test "faults: a full disk on generate's second file leaves every file of DIR as it was" {
	generate_ok
	faulty FAULT_OP=write FAULT_PATH="$TMP/out/" FAULT_SKIP=1 -- \
	    "$BIN/fluid" generate flink --out out c.yaml
	assert_status 2
	assert_no_stdout
	assert_stderr_line "^fluid: cannot write 'out/[a-z-]+\\.table\\.json': No space left on device$"
	assert_old_out
}

@test "faults: a full disk on generate's first file leaves a new DIR empty" {
	faulty FAULT_OP=write FAULT_PATH="$TMP/out/" -- \
	    "$BIN/fluid" generate flink --out out c.yaml
	assert_status 2
	assert_stderr_line "^fluid: cannot write 'out/[a-z-]+\\.sql': No space left on device$"
	assert_equal "$(files_in out)" "" "the files in out/"
}

@test "faults: generate into a read-only DIR is status 2 and leaves it as it was" {
	generate_ok
	readonly_dir out
	refuses 2 generate flink --out out c.yaml "^fluid: cannot write into 'out': "
	assert_old_out
}

@test "faults: generate into a file that is not a directory is status 2" {
	echo 'not a directory' >out
	refuses 2 generate flink --out out c.yaml "^fluid: 'out' is not a directory$"
	assert_equal "$(cat out)" "not a directory" "out"
}

# --- standard output ---------------------------------------------------------------

# on_stdout WHERE COMMAND...: run COMMAND with its standard output on
# WHERE: /dev/full, "closed" or "pipe" (to head -c1, which reads one byte
# and exits), in bash with pipefail so the status is COMMAND's.
on_stdout() {
	local where=$1
	shift
	case $where in
	closed) run --separate-stderr bash -c '"$@" >&-' _ "$@" ;;
	pipe) run --separate-stderr bash -c \
	    'set -o pipefail; "$@" | head -c1 >/dev/null' _ "$@" ;;
	*) run --separate-stderr bash -c '"$@" >"'"$where"'"' _ "$@" ;;
	esac
}

@test "faults: every stage on a full standard output is status 2 and says so" {
	[ -w /dev/full ] || skip "no /dev/full"
	local t
	"$BIN/fluid-resolve" c.yaml >r.json
	"$BIN/fluid-check" <r.json >k.json
	for t in "fluid-resolve c.yaml" "fluid-check <r.json" "fluid-sqlgen <k.json" \
	    "fluid-sqlgen --sql <k.json"; do
		run --separate-stderr bash -c "\"$BIN\"/$t >/dev/full"
		assert_status 2 || fail "$t"
		assert_stderr_line "^fluid-[a-z]+: cannot write standard output: No space left on device$"
	done
}

@test "faults: every fluid command on a full standard output is status 2 and says so" {
	[ -w /dev/full ] || skip "no /dev/full"
	on_stdout /dev/full "$BIN/fluid" validate c.yaml
	assert_status 2
	assert_stderr_line "^fluid validate: cannot write standard output: No space left on device$"
	on_stdout /dev/full "$BIN/fluid" bundle c.yaml
	assert_status 2
	assert_stderr_line "^fluid: cannot write standard output: No space left on device$"
	# generate's files are all written; only its report is lost.
	on_stdout /dev/full "$BIN/fluid" generate flink --out out c.yaml
	assert_status 2
	assert_stderr_line "^fluid: cannot write standard output: No space left on device$"
	"$BIN/fluid" generate flink --out good c.yaml >/dev/null
	# The manifest included: it records no inode (lib/outdir.h).
	diff -r good out >/dev/null || fail "out/ is not what a good run writes"
}

@test "faults: a reader that goes away (| head -c1) ends each program quietly, by SIGPIPE as cat does" {
	big_contract
	"$BIN/fluid-resolve" big.yaml >r.json
	"$BIN/fluid-check" <r.json >k.json
	local p
	for p in "fluid-resolve big.yaml" "fluid-check <r.json" \
	    "fluid-sqlgen <k.json" "fluid bundle big.yaml"; do
		run --separate-stderr bash -c '"$1"/'"$p"' | head -c1 >/dev/null
		    echo "${PIPESTATUS[0]}"' _ "$BIN"
		assert_equal "$output" 141 "$p: the status (128 + SIGPIPE)"
		assert_equal "$stderr" "" "$p: standard error"
	done
}

@test "faults: a closed standard output is status 2 and one line" {
	on_stdout closed "$BIN/fluid-resolve" c.yaml
	assert_status 2
	assert_stderr_line "^fluid-resolve: cannot write standard output: Bad file descriptor$"
	on_stdout closed "$BIN/fluid" validate c.yaml
	assert_status 2
	assert_stderr_line "^fluid: standard output is closed$"
}

@test "faults: generate with standard output closed writes nothing at all" {
	on_stdout closed "$BIN/fluid" generate flink --out out c.yaml
	assert_status 2
	assert_stderr_line "^fluid: standard output is closed$"
	[ ! -e out ] || fail "out/ was made: $(files_in out)"
}
