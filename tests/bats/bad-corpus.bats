#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# bad-corpus.bats - every input of tests/bad/ is refused the way its
# .expect file says, and nothing crashes, hangs or runs away with memory.
#
# A case is NNN-name.expect plus its input: NNN-name.yaml or .json (a
# file), NNN-name/ (a directory whose c.yaml is the contract), or
# nothing when the .expect makes the input itself.  An .expect holds
# key=value lines:
#
#	status=N          the exit status (required)
#	stderr=LINE       a whole line standard error must hold, byte for
#	                  byte: FILE:LINE:COL: error: MESSAGE (with lines=,
#	                  one such line per line of standard error pins it)
#	stderr~=TEXT      a fixed string standard error must contain
#	stderr!~=TEXT     one it must not contain (a refused mapping path
#	                  is never echoed: it may be SQL, bound for a log)
#	cmd=WORDS         the command, default "fluid validate FILE"; FILE
#	                  is the input, "<FILE" feeds it on standard input
#	gen=SHELL         writes the input on standard output (big inputs
#	                  are made at test time, not kept in the tree)
#	setup=SHELL       run in the case's directory first (FIFOs, links)
#	lines=N           lines of standard error, default 1
#	heavy=1           costs about 1.5 GB and 20 s by design (4,000,000
#	                  nodes): not run under sanitizers or valgrind
#
# A case that validates one .yaml file is run a second way, by the
# stages themselves (fluid-resolve | fluid-check): the same status and
# the same standard error, byte for byte (the corpus runs once, here).
#
# Each case runs in a directory of its own, under a timeout and a memory
# bound (ulimit -v, or ASan's hard_rss_limit_mb in an ASan build), next
# to an outside.yaml that no $ref may reach.  Besides what its .expect
# says, every case must print nothing on standard output and only whole
# lines on standard error without control characters.
#
# FLUID_BIN (set by make check-asan) names the executables to test;
# FLUID_VALGRIND=1 runs them under valgrind (see helpers.bash).

load helpers

BAD="$BATS_TEST_DIRNAME/../bad"
# The memory bound: 2 GiB of address space, or of resident memory for
# ASan, which reserves terabytes of address space for its shadow.
MEM_MB=${FLUID_BAD_MEM_MB:-2048}

setup() {
	TOOL=fluid
	fluid_setup
	ASAN=
	if grep -q __asan_init "$REAL_BIN/fluid-resolve" 2>/dev/null; then
		ASAN=1
	fi
}

teardown() {
	fluid_teardown
}

# expect_get FILE KEY: the value of the first KEY= line.
expect_get() {
	sed -n "s/^$2=//p" "$1" | head -n 1
}

# run_case EXPECT: run one case; prints why it failed, and nothing at
# all if it passed.
run_case() {
	local exp=$1 stem=${1%.expect} name cmd setup gen heavy lines status
	local dir file in= st out err n w why= prog t limit=
	local -a words args
	name=${stem##*/}
	cmd=$(expect_get "$exp" cmd)
	setup=$(expect_get "$exp" setup)
	gen=$(expect_get "$exp" gen)
	heavy=$(expect_get "$exp" heavy)
	lines=$(expect_get "$exp" lines)
	status=$(expect_get "$exp" status)
	[ -n "$status" ] || { echo "$name: no status= line"; return 1; }
	if [ -n "$heavy" ] && { [ -n "$ASAN" ] || [ -n "${FLUID_VALGRIND:-}" ] ||
	    [ "${FLUID_HEAVY:-1}" = 0 ]; }; then
		return 0
	fi

	dir=$TMP/$name/root
	mkdir -p "$dir"
	echo 'secret: outside the root' >"$TMP/$name/outside.yaml"
	if [ -d "$stem" ]; then
		cp -R "$stem"/. "$dir"/
		file=c.yaml
	elif [ -f "$stem.yaml" ]; then
		cp "$stem.yaml" "$dir"/
		file=$name.yaml
	elif [ -f "$stem.json" ]; then
		cp "$stem.json" "$dir"/
		file=$name.json
	else
		file=$name.yaml
		if [ -n "$gen" ]; then
			(cd "$dir" && sh -c "$gen") >"$dir/$file" ||
			    { echo "$name: gen= failed"; return 1; }
		fi
	fi
	if [ -n "$setup" ]; then
		(cd "$dir" && sh -c "${setup//FILE/$file}") >/dev/null 2>&1 ||
		    { echo "$name: setup= failed"; return 1; }
	fi

	read -ra words <<<"${cmd:-fluid validate FILE}"
	prog=${words[0]}
	for w in "${words[@]:1}"; do
		case $w in
		FILE) args+=("$file") ;;
		'<FILE') in=$file ;;
		*) args+=("$w") ;;
		esac
	done
	out=$TMP/$name/stdout
	err=$TMP/$name/stderr
	t=$((30 * FLUID_SLOWDOWN))
	[ -n "$heavy" ] && t=$((120 * FLUID_SLOWDOWN))
	if [ -z "$ASAN" ] && [ -z "${FLUID_VALGRIND:-}" ]; then
		limit="ulimit -v $((MEM_MB * 1024))"
	fi
	(
		cd "$dir" || exit 2
		eval "$limit"
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$MEM_MB"
		timeout -k 5 "$t" "$BIN/$prog" "${args[@]}" <"${in:-/dev/null}"
	) >"$out" 2>"$err"
	st=$?

	n=$(wc -l <"$err")
	if [ "$st" -eq 124 ] || [ "$st" -eq 137 ]; then
		why="hung: no answer within $t seconds"
	elif [ "$st" -gt 128 ]; then
		why="died of signal $((st - 128))"
	elif [ "$st" -ne "$status" ]; then
		why="exit status $st, not $status"
	elif [ "$prog ${words[1]:-}" = "fluid validate" ] &&
	    [ "$(cat "$out")" != "$(validate_line "${args[-1]}" "$st" "$err")" ]; then
		why="not '$(validate_line "${args[-1]}" "$st" "$err")' on standard output"
	elif [ "$prog ${words[1]:-}" != "fluid validate" ] && [ -s "$out" ]; then
		why="wrote to standard output"
	elif [ "$n" -ne "${lines:-1}" ]; then
		why="$n lines on standard error, not ${lines:-1}"
	elif [ -s "$err" ] && [ "$(tail -c 1 "$err" | od -An -c | tr -d ' ')" != '\n' ]; then
		why="standard error does not end with a newline"
	elif LC_ALL=C grep -q '[[:cntrl:]]' "$err"; then
		why="a control character on standard error"
	fi
	if [ -z "$why" ]; then
		while IFS= read -r w; do
			grep -qxF -- "$w" "$err" ||
			    why="standard error lacks the line '$w'"
		done < <(sed -n 's/^stderr=//p' "$exp")
		while IFS= read -r w; do
			grep -qF -- "$w" "$err" || why="standard error lacks '$w'"
		done < <(sed -n 's/^stderr~=//p' "$exp")
		while IFS= read -r w; do
			! grep -qF -- "$w" "$err" ||
			    why="standard error echoes '$w'"
		done < <(sed -n 's/^stderr!~=//p' "$exp")
	fi
	# A validation of one file is also what the stages say, run by hand:
	# fluid-resolve | fluid-check, the same status and the same bytes on
	# standard error (the driver runs them in its process, pipeline.c).
	if [ -z "$why" ] && [ -f "$stem.yaml" ] && [ "$prog" = fluid ] &&
	    [ "${words[1]}" = validate ] && [ -z "$in" ]; then
		why=$(same_as_stages "$dir" "$file" "$st" "$err" "$t" \
		    "$limit" "${args[@]:1}")
		: >"$TMP/staged/$name"
	fi
	if [ -n "$why" ]; then
		printf '%s: %s\n' "$name" "$why"
		head -c 600 "$err" | sed 's/^/    | /'
		return 1
	fi
	rm -rf "${TMP:?}/$name"
	return 0
}

# validate_line FILE STATUS ERR: the line fluid validate prints for FILE
# refused (STATUS 1, the errors in ERR counted) or not checked (2).
validate_line() {
	local n
	if [ "$2" -eq 2 ]; then
		echo "$1: error"
		return
	fi
	n=$(grep -c ': error: ' "$3")
	[ "$n" -eq 1 ] && echo "$1: refused (1 error)" ||
	    echo "$1: refused ($n errors)"
}

# same_as_stages DIR FILE STATUS ERR T LIMIT [OPTION...]: in DIR,
# fluid-resolve OPTIONS -- FILE | fluid-check exits STATUS with ERR's
# bytes on standard error; prints why not.
same_as_stages() {
	local dir=$1 file=$2 st=$3 err=$4 t=$5 limit=$6 a st2
	local -a copt=()
	shift 6
	local -a ropt=()
	for a in "$@"; do
		[ "$a" = "$file" ] && continue
		ropt+=("$a")
		case $a in --diagnostics=*) copt+=("$a") ;; esac
	done
	st2=$(
		cd "$dir" || exit 2
		eval "$limit"
		s=0
		timeout -k 5 "$t" "$BIN/fluid-resolve" "${ropt[@]}" -- "$file" \
		    >stages.json 2>stages.err </dev/null || s=$?
		if [ "$s" -eq 0 ]; then
			timeout -k 5 "$t" "$BIN/fluid-check" "${copt[@]}" \
			    <stages.json >/dev/null 2>>stages.err || s=$?
		fi
		echo "$s"
	)
	if [ "$st2" != "$st" ]; then
		echo "fluid validate exited $st, fluid-resolve | fluid-check $st2"
	else
		# A line of its own names the command run, "fluid validate",
		# where each stage names itself.
		sed -E 's/^fluid-(resolve|check): /fluid validate: /' \
		    "$dir/stages.err" >"$dir/stages.named"
		if ! cmp -s "$err" "$dir/stages.named"; then
			echo "fluid validate's diagnostics are not the stages':"
			diff "$dir/stages.named" "$err" | head -20
		fi
	fi
}

@test "bad corpus: at least 150 cases, each input with its .expect" {
	local e stem n=0 orphans=
	for e in "$BAD"/*.expect; do
		n=$((n + 1))
		grep -q '^status=[0-9]' "$e" || orphans="$orphans ${e##*/}(no status)"
		grep -qE '^stderr~?=.' "$e" ||
		    orphans="$orphans ${e##*/}(no stderr= or stderr~=)"
	done
	for stem in "$BAD"/*; do
		case $stem in *.expect) continue ;; esac
		stem=${stem%.yaml}
		stem=${stem%.json}
		[ -f "$stem.expect" ] || orphans="$orphans ${stem##*/}"
	done
	[ -z "$orphans" ] || fail "cases without an expectation:$orphans"
	[ "$n" -ge 150 ] || fail "only $n cases in tests/bad"
}

@test "bad corpus: every case is refused as expected, without a crash, hang or runaway memory" {
	local e r failed=0 max
	# Cases run side by side, each with its own directory and report.
	max=${FLUID_BAD_JOBS:-$(nproc 2>/dev/null || echo 2)}
	mkdir -p "$TMP/reports" "$TMP/staged"
	for e in "$BAD"/*.expect; do
		# "|| :" also keeps errexit out of run_case.
		{ run_case "$e" || :; } >"$TMP/reports/${e##*/}" 2>&1 &
		while [ "$(jobs -rp | wc -l)" -ge "$max" ]; do
			wait -n || true
		done
	done
	wait || true
	for r in "$TMP"/reports/*; do
		[ -s "$r" ] && failed=$((failed + 1))
	done
	[ "$failed" -eq 0 ] || fail "$failed case(s) of tests/bad failed:" \
	    "$(cat "$TMP"/reports/*)"
	# The validations compared with the stages run by hand.
	[ "$(ls "$TMP/staged" | wc -l)" -ge 100 ] ||
	    fail "only $(ls "$TMP/staged" | wc -l) cases compared with the stages"
}
