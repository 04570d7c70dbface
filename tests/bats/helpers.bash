# SPDX-License-Identifier: Apache-2.0
# helpers.bash - shared by the bats tests of the fluid tools.
#
# Load it from a test file and call fluid_setup/fluid_teardown:
#
#	load helpers
#	setup() { TOOL=fluid-resolve; fluid_setup; }
#	teardown() { fluid_teardown; }
#
# fluid_setup makes each test start in its own empty directory ($TMP), so
# file names in diagnostics are short and predictable.  TOOL names the
# program that tool, refuses, usage_error and accepts run (default
# fluid-resolve); it reads the test's standard input, so
#	refuses 1 <doc.json "^c\.yaml:3:5: error: ..."
# works for a stage that reads a pipeline document.
#
# Set FLUID_VALGRIND=1 to run every tool under valgrind (children too);
# a memory error or leak then makes the tool exit 99 and fail its test.
# Timeouts are multiplied by FLUID_SLOWDOWN (default 1, 20 with valgrind).

bats_require_minimum_version 1.5.0

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd -P)
# FLUID_BIN (set by tests/run) points at another build, e.g. build/asan.
REAL_BIN=$(cd "${FLUID_BIN:-$BATS_TEST_DIRNAME/../../bin}" 2>/dev/null &&
	pwd -P)
BIN=$REAL_BIN
FIXTURES="$BATS_TEST_DIRNAME/fixtures"
EXAMPLES="$TOP/examples"
TOOL=fluid-resolve

if [ -n "${FLUID_VALGRIND:-}" ]; then
	FLUID_SLOWDOWN=${FLUID_SLOWDOWN:-20}
else
	FLUID_SLOWDOWN=${FLUID_SLOWDOWN:-1}
fi

# Wrap each executable of bin/ in a script that runs it under valgrind.
# The driver runs its stages in its own process (lib/pipeline.c), so
# they are under valgrind with it; --trace-children covers the shell
# pipelines that some tests run inside one wrapped command.
_fluid_valgrind_bin() {
	local dir="$BATS_RUN_TMPDIR/valgrind-bin" f
	if [ ! -d "$dir" ]; then
		mkdir -p "$dir.new"
		for f in "$REAL_BIN"/*; do
			[ -x "$f" ] || continue
			printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --trace-children=yes "%s" "$@"\n' \
			    "$f" >"$dir.new/${f##*/}"
			chmod +x "$dir.new/${f##*/}"
		done
		mv "$dir.new" "$dir" 2>/dev/null || rm -rf "$dir.new"
	fi
	BIN=$dir
}

fluid_setup() {
	[ -n "$REAL_BIN" ] && [ -x "$REAL_BIN/$TOOL" ] ||
	    fail "no $TOOL in $TOP/bin: build first (./configure && make)"
	[ -n "${FLUID_VALGRIND:-}" ] && _fluid_valgrind_bin
	# A directory of our own: bats keeps files of its own (for example
	# run --separate-stderr's) in $BATS_TEST_TMPDIR.
	mkdir -p "$BATS_TEST_TMPDIR/t"
	TMP=$(cd "$BATS_TEST_TMPDIR/t" && pwd -P)
	_FLUID_IMMUTABLE="$BATS_TEST_TMPDIR/.immutable"
	# What generate --out DIR keeps outside DIR (lib/outdir.h): the
	# test's own, not the home directory's.
	export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
	cd "$TMP" || return 1
}

fluid_teardown() {
	local d
	# Undo readonly_dir so that bats can remove the temp directory.
	if [ -f "$_FLUID_IMMUTABLE" ]; then
		while IFS= read -r d; do
			chattr -i "$d" 2>/dev/null
			chmod u+w "$d" 2>/dev/null
		done <"$_FLUID_IMMUTABLE"
	fi
	return 0
}

# fail MESSAGE...: report why a test failed.
fail() {
	printf '%s\n' "$@" >&2
	return 1
}

# show: what the last run printed, for failure messages.
show() {
	printf 'status: %s\n--- stdout\n%s\n--- stderr\n%s\n---\n' \
	    "$status" "$(_clip "${output:-}")" "$(_clip "${stderr:-}")"
}

_clip() {
	if [ "${#1}" -gt 2000 ]; then
		printf '%s... (%d bytes)' "${1:0:2000}" "${#1}"
	else
		printf '%s' "$1"
	fi
}

# mkfile PATH: write standard input to PATH, making its directories.
mkfile() {
	mkdir -p "$(dirname "$1")" && cat >"$1"
}

# assert_equal ACTUAL EXPECTED [WHAT]
assert_equal() {
	[ "$1" = "$2" ] ||
	    fail "${3:-value} differs" "expected: $2" "actual:   $1"
}

# assert_match STRING ERE [WHAT]
assert_match() {
	[[ $1 =~ $2 ]] ||
	    fail "${3:-value} does not match" "pattern: $2" "actual:  $1"
}

# assert_status N: the last run exited with N.
assert_status() {
	[ "$status" -eq "$1" ] || fail "expected exit status $1" "$(show)"
}

# assert_no_stdout: the last run printed nothing on standard output.
assert_no_stdout() {
	[ -z "$output" ] || fail "expected no standard output" "$(show)"
}

# assert_no_stderr: the last run printed nothing on standard error.
assert_no_stderr() {
	[ -z "${stderr:-}" ] || fail "expected no standard error" "$(show)"
}

# assert_stderr_line ERE: standard error is exactly one line matching ERE.
assert_stderr_line() {
	[ "${#stderr_lines[@]}" -eq 1 ] ||
	    fail "expected one line on stderr, got ${#stderr_lines[@]}" "$(show)"
	[[ ${stderr_lines[0]} =~ $1 ]] ||
	    fail "stderr does not match" "pattern: $1" "$(show)"
}

# assert_stderr_first ERE: the first line of standard error matches ERE
# (a usage error may go on with the usage).
assert_stderr_first() {
	[ "${#stderr_lines[@]}" -ge 1 ] || fail "expected stderr" "$(show)"
	[[ ${stderr_lines[0]} =~ $1 ]] ||
	    fail "first stderr line does not match" "pattern: $1" "$(show)"
}

# tool ARGS...: run $TOOL (stdin passes through), stdout and stderr apart,
# under a timeout so that a hang fails the test instead of the suite.
tool() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" \
	    "$BIN/$TOOL" "$@"
}

# refuses STATUS ARGS... ERE
# Run $TOOL with ARGS; it must exit STATUS, print nothing on stdout and
# exactly one line on stderr, matching ERE, for example
#	refuses 1 dup.yaml "^dup\.yaml:3:3: error: duplicate key 'b'$"
refuses() {
	local want=$1 pattern=${!#}
	shift
	tool "${@:1:$#-1}"
	assert_status "$want"
	assert_no_stdout
	assert_stderr_line "$pattern"
}

# usage_error ARGS... ERE: exit 2, nothing on stdout, and the first line
# of stderr (the rest may be the usage) matches ERE.
usage_error() {
	local pattern=${!#}
	tool "${@:1:$#-1}"
	assert_status 2
	assert_no_stdout
	assert_stderr_first "$pattern"
}

# accepts ARGS...: $TOOL exits 0 with valid JSON on stdout and nothing
# on stderr.
accepts() {
	tool "$@"
	assert_status 0
	assert_no_stderr
	jq -e . >/dev/null <<<"$output" ||
	    fail "standard output is not JSON" "$(show)"
}

# assert_jq [jq options...] FILTER: FILTER is true of the last output.
assert_jq() {
	local filter=${!#}
	jq -e "${@:1:$#-1}" "$filter" >/dev/null <<<"$output" ||
	    fail "not true of the output: $filter" \
	    "got: $(jq -c "${@:1:$#-1}" "$filter" <<<"$output" 2>&1 | head -c 2000)"
}

# jqo FILTER: print FILTER applied to the last output (raw strings).
jqo() {
	jq -r "$1" <<<"$output"
}

# digest_of ARGS...: the .resolve.digest fluid-resolve gives for ARGS
# (stdin passes through); fails if it refuses.
digest_of() {
	local out
	out=$("$BIN/fluid-resolve" "$@") ||
	    fail "fluid-resolve $* refused it" || return
	jq -er '.resolve.digest' <<<"$out"
}

# line_of FILE ERE: the number of the only line of FILE matching ERE.
line_of() {
	local lines
	lines=$(grep -n -E -- "$2" "$1" | cut -d: -f1)
	[ -n "$lines" ] && [ "$(wc -l <<<"$lines")" -eq 1 ] ||
	    fail "line_of: want one line of $1 matching $2, got: $lines" ||
	    return
	echo "$lines"
}

# col_of FILE LINE TEXT: the 1-based column of TEXT's first occurrence
# in line LINE of FILE (ASCII lines).
col_of() {
	awk -v n="$2" -v t="$3" 'NR == n { i = index($0, t); print i;
	    exit (i == 0) }' "$1"
}

# readonly_dir DIR: make DIR unwritable, even for root (chattr +i), or
# skip the test when that is not possible.  fluid_teardown undoes it.
readonly_dir() {
	local abs
	abs=$(cd "$1" && pwd -P) || return
	set -- "$abs"
	chmod a-w "$1"
	if touch "$1/.probe" 2>/dev/null; then
		rm -f "$1/.probe"
		chattr +i "$1" 2>/dev/null && echo "$1" >>"$_FLUID_IMMUTABLE"
		if touch "$1/.probe" 2>/dev/null; then
			rm -f "$1/.probe"
			skip "cannot make a directory read-only here"
		fi
	else
		echo "$1" >>"$_FLUID_IMMUTABLE"
	fi
}

# files_in DIR: the names in DIR, hidden ones too, one a line, sorted.
files_in() {
	(cd "$1" && LC_ALL=C ls -A)
}

# allow_landed: the allowlists the landed example (shapes/landed) needs
# to be applied, each list with exactly its entries.
allow_landed() {
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=data-products
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink
	export FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=data-products/flink
	export FLUID_FLINK_SECRET_ALLOWLIST=data-products/flink-storage
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com
}

# make_test_ca: in the current directory, a throwaway CA (ca.pem) and a
# server certificate it signed for 127.0.0.1 and localhost (cert.pem,
# key.pem), for the fake servers' TLS; skips without openssl.
make_test_ca() {
	command -v openssl >/dev/null || skip "openssl is not installed"
	openssl req -x509 -newkey rsa:2048 -sha256 -nodes -days 2 \
	    -subj "/CN=fluid fake test CA" -keyout ca.key -out ca.pem 2>/dev/null &&
	openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
	    -keyout key.pem -out srv.csr 2>/dev/null &&
	printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' >ext.cnf &&
	openssl x509 -req -sha256 -days 2 -in srv.csr -CA ca.pem -CAkey ca.key \
	    -CAcreateserial -extfile ext.cnf -out cert.pem 2>/dev/null ||
	    fail "openssl could not make the test CA" ""
}

# start_fake SCRIPT ARGS...: start the fake server tests/net/SCRIPT
# (--dir $TMP ARGS) in the background and wait for the port it writes to
# $TMP/port; sets FAKE_PID (for teardown to kill) and PORT.
start_fake() {
	local script=$1 n
	shift
	rm -f "$TMP/port"
	python3 "$TOP/tests/net/$script" --dir "$TMP" "$@" 3>&- &
	FAKE_PID=$!
	for (( n=0; n<100; n++ )); do
		[ -s "$TMP/port" ] && break
		sleep 0.1
	done
	[ -s "$TMP/port" ] || fail "tests/net/$script did not start" "" ||
	    return
	PORT=$(cat "$TMP/port")
}
