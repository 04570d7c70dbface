#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-generate-out.bats - what generate flink --out DIR leaves in DIR
# (lib/outdir.h, fluid(1) FILES): exactly this run's files, the files
# of builds that are gone removed and no other, a killed run's staging
# directory cleaned, one run at a time; a contract with no managed
# build refused.  And the input side of the driver: "-" with standard
# input closed.

load helpers

FAULTS="$BATS_TEST_DIRNAME/fixtures/faults"

setup_file() {
	cc -shared -fPIC -o "$BATS_FILE_TMPDIR/faultinject.so" \
	    "$FAULTS/faultinject.c" -ldl 2>"$BATS_FILE_TMPDIR/cc.log" || true
}

setup() {
	TOOL=fluid
	fluid_setup
	# The golden contracts, with their fragments and workspace.
	cp -R "$TOP/tests/golden/sqlgen/." .
	MANIFEST=.fluid-generate.manifest
}

teardown() {
	fluid_teardown
}

# faulty VAR=VALUE... -- COMMAND...: COMMAND with faults.bats's shim.
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
	run --separate-stderr env "${env[@]}" \
	    LD_PRELOAD="$BATS_FILE_TMPDIR/faultinject.so" \
	    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	    timeout "$((60 * FLUID_SLOWDOWN))" "$@"
}

# manifest_names DIR: the names DIR's manifest lists, sorted (each line
# is "sha256:HEX NAME").
manifest_names() {
	grep -v '^#' "$1/$MANIFEST" | cut -d' ' -f2- | LC_ALL=C sort
}

# proof_of DIR: the file outside DIR where runs record what they wrote
# into it with each file's inode (lib/outdir.h).
proof_of() {
	local real
	real=$(realpath "$1")
	echo "$XDG_STATE_HOME/fluid/outdir/$(printf '%s\0generate' "$real" | sha256sum | cut -d' ' -f1)"
}

# --- a contract with no managed build ---------------------------------------

@test "generate: a contract with no managed build is refused (1), placed at its builds, and DIR is not made" {
	sed '/management: operator/d' lift.fluid.yaml >none.fluid.yaml
	tool generate flink --out out none.fluid.yaml
	assert_status 1
	assert_no_stdout
	# The checker's warning, then the refusal, at the same place.
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "want two lines" "$(show)"
	local at
	# The builds, where the sequence starts.
	at="none.fluid.yaml:$(line_of none.fluid.yaml '^  - id: lift$'):3:"
	[[ ${stderr_lines[1]} == "${at} error: no managed build to generate: "*"management: operator; nothing written" ]] ||
	    fail "not the refusal, at $at" "$(show)"
	[ ! -e out ] || fail "out/ was made: $(files_in out)"
	# Nor is an existing DIR touched.
	"$BIN/fluid" generate flink --out out lift.fluid.yaml >/dev/null
	cp -R out good
	tool generate flink --out out none.fluid.yaml
	assert_status 1
	diff -r good out >/dev/null || fail "out/ changed"
}

@test "generate: with --diagnostics=json the refusal is a JSON diagnostic" {
	sed '/management: operator/d' lift.fluid.yaml >none.fluid.yaml
	tool generate flink --diagnostics=json --out out none.fluid.yaml
	assert_status 1
	jq -e 'select(.level == "error") | .pointer == "/builds" and
	    .file == "none.fluid.yaml" and
	    (.message | startswith("no managed build to generate"))' \
	    <<<"$stderr" >/dev/null || fail "no JSON refusal" "$(show)"
}

@test "generate: a contract with a managed build is written, status 0" {
	tool generate flink --out out lift.fluid.yaml
	assert_status 0
	assert_no_stderr
	assert_equal "$(files_in out)" "$(printf '%s\n' $MANIFEST lift.k8s.json lift.sql lift.table.json)" \
	    "the files in out/"
}

# --- the manifest ----------------------------------------------------------------

@test "generate: the manifest lists exactly the files written" {
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	assert_equal "$(manifest_names out)" "$(printf 'lift.k8s.json\nlift.sql\nlift.table.json')" \
	    "the manifest"
	# A comment says what the file is, for whoever finds it.
	head -n 1 out/$MANIFEST | grep -q '^# fluid generate: ' ||
	    fail "no header: $(cat out/$MANIFEST)"
	assert_equal "$(stat -c %a out/$MANIFEST)" 644 "its mode"
}

@test "generate: the files of a build that is gone are removed, files fluid did not write are kept" {
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	echo 'mine' >out/notes.txt
	echo 'SELECT 1;' >out/hand-written.sql
	run -0 "$BIN/fluid" generate flink --out out partitioned.fluid.yaml
	assert_equal "$(files_in out)" "$(printf '%s\n' $MANIFEST hand-written.sql \
	    notes.txt partitioned.k8s.json partitioned.sql partitioned.table.json)" "the files in out/"
	assert_equal "$(cat out/notes.txt)" mine "notes.txt"
	assert_equal "$(manifest_names out)" \
	    "$(printf 'partitioned.k8s.json\npartitioned.sql\npartitioned.table.json')" "the manifest"
	# And back: the same contract again removes nothing but its own.
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	assert_equal "$(files_in out)" "$(printf '%s\n' $MANIFEST hand-written.sql \
	    lift.k8s.json lift.sql lift.table.json notes.txt)" "the files in out/ after the third run"
}

@test "generate: a manifest naming paths outside DIR or the writer's own files removes none of them" {
	mkdir out
	echo 'keep me' >victim
	echo 'keep me' >out/.hidden
	printf '%s\n' ../victim "$TMP/victim" .hidden '' . .. lift.sql >out/$MANIFEST
	run -0 "$BIN/fluid" generate flink --out out partitioned.fluid.yaml
	assert_equal "$(cat victim)" "keep me" "../victim"
	assert_equal "$(cat out/.hidden)" "keep me" "out/.hidden"
	assert_equal "$(manifest_names out)" \
	    "$(printf 'partitioned.k8s.json\npartitioned.sql\npartitioned.table.json')" "the manifest"
}

@test "generate: the manifest binds each name to its sha256; the inode is kept outside DIR" {
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	local f line want proof
	proof=$(proof_of out)
	[ -f "$proof" ] || fail "no proof at $proof" "$(find "$XDG_STATE_HOME" 2>&1)"
	for f in lift.k8s.json lift.sql lift.table.json; do
		want="sha256:$(sha256sum "out/$f" | cut -d' ' -f1) $f"
		line=$(grep " $f\$" out/$MANIFEST)
		assert_equal "$line" "$want" "the line for $f"
		want="sha256:$(sha256sum "out/$f" | cut -d' ' -f1) $(stat -c %i "out/$f") $f"
		line=$(grep " $f\$" "$proof")
		assert_equal "$line" "$want" "the proof's line for $f"
	done
}

@test "generate: two runs, into two directories or two clones, give byte-identical trees" {
	run -0 "$BIN/fluid" generate flink --out a/out lift.fluid.yaml
	mkdir b && cp -R lift.fluid.yaml b/
	cp -R . ../clone2 2>/dev/null; rm -rf ../clone2/a
	(cd ../clone2 && "$BIN/fluid" generate flink -q --out gen/out lift.fluid.yaml) ||
	    fail "the run in the second clone failed"
	run -0 "$BIN/fluid" generate flink --out b/out lift.fluid.yaml
	diff -r a/out b/out || fail "two directories differ"
	diff -r a/out ../clone2/gen/out || fail "two clones differ"
	# Generating again over a tree changes none of its bytes.
	cp -a a/out before
	run -0 "$BIN/fluid" generate flink --out a/out lift.fluid.yaml
	diff -r before a/out || fail "a second run changed the tree"
	rm -rf ../clone2
}

@test "generate: in a fresh clone (no proof on this machine) an old file in the manifest is kept" {
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	cp -a out clone-out
	run -0 "$BIN/fluid" generate flink --out clone-out partitioned.fluid.yaml
	# clone-out was never written here: its lift files are not proven ours.
	[ -f clone-out/lift.sql ] || fail "a file no run here wrote was removed"
	# Where runs did write, they go.
	run -0 "$BIN/fluid" generate flink --out out partitioned.fluid.yaml
	[ ! -e out/lift.sql ] || fail "the run's own old file was kept"
}

@test "generate: a planted manifest cannot remove a file no run wrote, even with its digest" {
	mkdir out
	echo 'mine' >out/notes.txt
	echo 'SELECT 1;' >out/deploy.sql
	local d
	d=$(sha256sum out/deploy.sql | cut -d' ' -f1)
	# The old form (a bare name), and the new one with the right digest
	# but an inode the planter had to guess.
	{
		echo '# fluid generate: planted'
		echo notes.txt
		echo "sha256:$d 1 deploy.sql"
		echo "sha256:$d $(( $(stat -c %i out/deploy.sql) + 1 )) deploy.sql"
	} >out/$MANIFEST
	run -0 "$BIN/fluid" generate flink --out out partitioned.fluid.yaml
	assert_equal "$(cat out/notes.txt)" mine "notes.txt"
	assert_equal "$(cat out/deploy.sql)" 'SELECT 1;' "deploy.sql"
	# Neither is ours afterwards either.
	assert_equal "$(manifest_names out)" \
	    "$(printf 'partitioned.k8s.json\npartitioned.sql\npartitioned.table.json')" "the manifest"
}

@test "generate: a written file that a user edited or replaced since is kept, and forgotten" {
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	echo '-- my change' >>out/lift.sql
	cp out/lift.table.json copy && rm out/lift.table.json && mv copy out/lift.table.json
	run -0 "$BIN/fluid" generate flink --out out partitioned.fluid.yaml
	# The untouched one goes; the edited and the replaced (same bytes,
	# another inode) stay.
	assert_equal "$(files_in out)" "$(printf '%s\n' $MANIFEST lift.sql lift.table.json \
	    partitioned.k8s.json partitioned.sql partitioned.table.json)" "the files in out/"
	tail -n 1 out/lift.sql | grep -qx -- '-- my change' || fail "lift.sql changed"
	assert_equal "$(manifest_names out)" \
	    "$(printf 'partitioned.k8s.json\npartitioned.sql\npartitioned.table.json')" "the manifest"
}

@test "generate: a refused contract leaves the manifest and the files as they were" {
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	cp -R out good
	sed 's/from: customer\.country/from: customer.countryy/' partitioned.fluid.yaml >bad.fluid.yaml
	run -1 "$BIN/fluid" generate flink --out out bad.fluid.yaml
	diff -r good out >/dev/null || fail "out/ changed: $(diff -r good out)"
}

@test "generate: a file in the way that is not a regular file stops the run before anything is renamed" {
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	cp -R out good
	mkfifo out/partitioned.table.json
	tool generate flink --out out partitioned.fluid.yaml
	assert_status 2
	assert_no_stdout
	assert_stderr_line "^fluid: 'out/partitioned\\.table\\.json' is not a regular file: not replaced$"
	[ -p out/partitioned.table.json ] || fail "the FIFO was replaced"
	rm out/partitioned.table.json
	diff -r good out >/dev/null || fail "out/ changed: $(diff -r good out)"
}

# --- a run killed half way --------------------------------------------------------

@test "generate: the staging directory of a killed run is removed by the next run" {
	faulty FAULT_OP=kill FAULT_PATH="$TMP/out/" -- \
	    "$BIN/fluid" generate flink --out out lift.fluid.yaml
	assert_status 137
	# What the killed run left: its staging directory (and lock file).
	compgen -G 'out/.fluid-generate.??????' >/dev/null ||
	    fail "the killed run left no staging directory: $(files_in out)"
	tool generate flink --out out lift.fluid.yaml
	assert_status 0
	assert_no_stderr
	assert_equal "$(files_in out)" "$(printf '%s\n' $MANIFEST lift.k8s.json lift.sql lift.table.json)" \
	    "the files in out/"
}

@test "generate: only fluid's own staging directories are removed" {
	mkdir -p out/.fluid-generate.abcdef out/.fluid-generate.abcdefg out/.fluid-other.abcdef
	touch out/.fluid-generate.abcdef/x.sql out/.fluid-generate.abcdefg/x out/.fluid-other.abcdef/x
	# A link named like a staging directory is not followed.
	mkdir elsewhere
	touch elsewhere/precious
	ln -s ../elsewhere out/.fluid-generate.link00
	run -0 "$BIN/fluid" generate flink --out out lift.fluid.yaml
	[ ! -e out/.fluid-generate.abcdef ] || fail "the stale staging directory is still there"
	[ -e out/.fluid-generate.abcdefg/x ] || fail "a longer name was removed"
	[ -e out/.fluid-other.abcdef/x ] || fail "another tag's directory was removed"
	[ -e elsewhere/precious ] || fail "the link was followed"
}

# --- one run at a time --------------------------------------------------------------

@test "generate: a run waits for the lock, and the live run's staging directory is left to it" {
	local gen
	mkdir out
	mkfifo ready release
	# A run that holds the lock with its staging directory made.
	flock out/.fluid-generate.lock sh -c \
	    'mkdir out/.fluid-generate.live00; echo >ready; read x <release' \
	    3>&- &
	read -r _ <ready
	"$BIN/fluid" generate flink --out out lift.fluid.yaml >gen.out 2>gen.err 3>&- &
	gen=$!
	sleep 0.5
	kill -0 "$gen" 2>/dev/null || fail "generate did not wait for the lock: $(cat gen.err)"
	[ -d out/.fluid-generate.live00 ] || fail "the live run's staging directory was removed"
	[ ! -e out/lift.sql ] || fail "generate wrote while another run held the lock"
	echo >release
	wait "$gen" || fail "generate failed: $(cat gen.err)"
	wait
	# The holder is gone without cleaning up: now its directory goes.
	assert_equal "$(files_in out)" "$(printf '%s\n' $MANIFEST lift.k8s.json lift.sql lift.table.json)" \
	    "the files in out/"
}

@test "generate: two runs at once on one DIR leave one run's files, whole and consistent" {
	local i a b name
	# Same build id, another table: a .sql and a .table.json of
	# different runs would name different tables.
	sed 's/table: lift}/table: other}/' lift.fluid.yaml >other.fluid.yaml
	for i in $(seq 1 15); do
		"$BIN/fluid" generate flink --out out lift.fluid.yaml >/dev/null 2>a.err 3>&- &
		a=$!
		"$BIN/fluid" generate flink --out out other.fluid.yaml >/dev/null 2>b.err 3>&- &
		b=$!
		wait "$a" || fail "run A failed: $(cat a.err)"
		wait "$b" || fail "run B failed: $(cat b.err)"
		name=$(jq -r .name out/lift.table.json)
		grep -q "CREATE TABLE IF NOT EXISTS \`fluid_iceberg\`.\`golden\`.\`$name\`" out/lift.sql ||
		    fail "round $i: lift.sql is not for table $name"
	done
	# Different builds: DIR ends with exactly one run's set.
	for i in $(seq 1 15); do
		"$BIN/fluid" generate flink --out out lift.fluid.yaml >/dev/null 2>a.err 3>&- &
		a=$!
		"$BIN/fluid" generate flink --out out partitioned.fluid.yaml >/dev/null 2>b.err 3>&- &
		b=$!
		wait "$a" || fail "run A failed: $(cat a.err)"
		wait "$b" || fail "run B failed: $(cat b.err)"
		case $(files_in out | tr '\n' ' ') in
		"$MANIFEST lift.k8s.json lift.sql lift.table.json ") name=lift ;;
		"$MANIFEST partitioned.k8s.json partitioned.sql partitioned.table.json ") name=partitioned ;;
		*) fail "round $i: out/ holds $(files_in out | tr '\n' ' ')" ;;
		esac
		assert_equal "$(manifest_names out)" "$(printf '%s\n' $name.k8s.json $name.sql $name.table.json)" \
		    "round $i: the manifest"
	done
}

# --- standard input ----------------------------------------------------------------

@test "validate: '-' with standard input closed is an environment error (2)" {
	run --separate-stderr bash -c '"$1" validate - <&-' _ "$BIN/fluid"
	assert_status 2
	assert_no_stdout
	assert_stderr_line '^fluid: standard input is closed$'
	run --separate-stderr bash -c '"$1" bundle - <&-' _ "$BIN/fluid"
	assert_status 2
	assert_stderr_line '^fluid: standard input is closed$'
}

@test "validate: '-' reads the contract on standard input" {
	run --separate-stderr bash -c '"$1" validate - <lift.fluid.yaml' _ "$BIN/fluid"
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "-: ok" "standard output"
}

@test "validate: with standard input closed, a named file is still read, and not as standard input" {
	run --separate-stderr bash -c '"$1" validate lift.fluid.yaml <&-' _ "$BIN/fluid"
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "lift.fluid.yaml: ok" "standard output"
}
