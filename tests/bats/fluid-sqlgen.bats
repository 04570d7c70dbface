#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-sqlgen: the Flink SQL script of each managed build.
#
# The expected scripts in tests/golden/sqlgen/NAME.sql were written by
# hand-reviewing the program's output, statement by statement, against
# the specification (seed 000: "Record shapes", "The record key and Kafka
# metadata") and the Flink/Iceberg reference (flink-iceberg-k8s.md
# sections 1-3, 5.4 and 10); each contract's header says what it covers
# and what was checked.  Where the program was wrong the golden file says
# what it should write, so that test fails until the program is fixed.
#
# The python below (written to the run's temporary directory) tokenizes
# scripts the way Flink reads them ('...' with '', U&'...' with \XXXX,
# `...` with ``) and splits them the way the operator's SQL runner does.

load helpers

setup() {
	TOOL=fluid-sqlgen
	fluid_setup
	G="$TOP/tests/golden/sqlgen"
	SQLTOK="$BATS_RUN_TMPDIR/sqltok.py"
	[ -f "$SQLTOK" ] || _write_sqltok
}

teardown() {
	fluid_teardown
}

# compile CONTRACT OUT [fluid-sqlgen options]: resolve, check and
# generate with --sql, the script to OUT.  Returns 10, 11 or 12 when
# fluid-resolve, fluid-check or fluid-sqlgen refuses; stderr is in
# OUT.err, the intermediate documents in OUT.res and OUT.chk.
compile() {
	local f=$1 out=$2
	shift 2
	"$BIN/fluid-resolve" "$f" >"$out.res" 2>"$out.err" || return 10
	"$BIN/fluid-check" <"$out.res" >"$out.chk" 2>>"$out.err" || return 11
	"$BIN/fluid-sqlgen" --sql "$@" <"$out.chk" >"$out" 2>>"$out.err" ||
	    return 12
}

# golden NAME [CONTRACT]: CONTRACT (default tests/golden/sqlgen/NAME.fluid.yaml)
# compiles to tests/golden/sqlgen/NAME.sql, byte for byte.
golden() {
	local name=$1 contract=${2:-$G/$1.fluid.yaml} st=0
	[ -f "$G/$name.sql" ] || fail "no expected script $G/$name.sql"
	(cd "$(dirname "$contract")" &&
	    compile "$(basename "$contract")" "$TMP/$name.sql") || st=$?
	[ "$st" -eq 0 ] || fail "the pipeline refused $contract (status $st)" \
	    "$(cat "$TMP/$name.sql.err")"
	diff -u "$G/$name.sql" "$TMP/$name.sql" ||
	    fail "the script of $contract differs from $name.sql (- expected, + got)"
}

# The golden contracts, by name (each has a test below).
golden_names() {
	local f
	for f in "$G"/*.fluid.yaml; do
		f=${f##*/}
		printf '%s\n' "${f%.fluid.yaml}"
	done
}

# A copy of the golden directory in $TMP/g, to edit contracts in.
golden_copy() {
	cp -R "$G" "$TMP/g"
}

# --- golden scripts: one per mapping form --------------------------------

@test "golden: lift a nested field" { golden lift; }
@test "golden: map entries, a quoted key, a field of an entry" { golden map-entry; }
@test "golden: explode a scalar element" { golden explode-scalar; }
@test "golden: explode a struct element" { golden explode-struct; }
@test "golden: keep the exploded element nested" { golden explode-keep-nested; }
@test "golden: dotted nested build, the rest from the same path" { golden nested-build; }
@test "golden: widening in a struct's fields and at the top" { golden widen-struct; }
@test "golden: binary read as text (cast: string) from a header" { golden binary-cast; }
@test "golden: a key field repeating a value field's name (prefix)" { golden key-prefix; }
@test "golden: all seven metadata columns" { golden metadata-all; }
@test "golden: event time on a value column" { golden event-time-value; }
@test "golden: event time on a metadata column" { golden event-time-metadata; }
@test "golden: avro-confluent value and key with a registry" { golden avro-registry; }
@test "golden: oauth2 catalog auth and catalog properties" { golden oauth2-catalog; }
@test "golden: a partitioned table" { golden partitioned; }
@test "golden: the build's own SQL (properties.sql)" { golden own-sql; }

@test "golden: examples/shapes/landed" {
	golden shapes-landed "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml"
}

@test "golden: examples/shapes/inlined compiles to landed's script" {
	golden shapes-landed "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml"
}

@test "golden: examples/shapes/flattened" {
	golden shapes-flattened "$EXAMPLES/shapes/flattened/orders-items.fluid.yaml"
}

@test "golden: examples/shapes/reshaped" {
	golden shapes-reshaped "$EXAMPLES/shapes/reshaped/orders-reshaped.fluid.yaml"
}

@test "golden: every contract there has an expected script and a test here" {
	local n bad=0
	for n in $(golden_names); do
		[ -f "$G/$n.sql" ] || { echo "no $n.sql"; bad=$((bad + 1)); }
		grep -qE "^@test .*\{ golden $n; \}\$" "$BATS_TEST_FILENAME" ||
		    { echo "$n has no golden test"; bad=$((bad + 1)); }
	done
	[ "$(golden_names | wc -l)" -ge 16 ]
	[ "$bad" -eq 0 ]
}

# --- the shape of every script -----------------------------------------------

@test "scripts: statements end with ';' at a line's end, no other line does; no '--' after the header, no '/*'" {
	local n st nst bad=0 files=()
	for n in $(golden_names); do
		st=0
		(cd "$G" && compile "$n.fluid.yaml" "$TMP/$n.sql") || st=$?
		[ "$st" -eq 0 ] || { echo "$n: refused ($st)"; bad=$((bad + 1)); continue; }
		files+=("$TMP/$n.sql" "$G/$n.sql")
	done
	files+=("$G"/shapes-*.sql)
	run python3 "$SQLTOK" lint "${files[@]}"
	[ "$status" -eq 0 ] || fail "$output"
	# The same, spelled with grep, on the raw lines.
	for f in "${files[@]}"; do
		head -n 1 "$f" | grep -q '^-- Generated by fluid-sqlgen' ||
		    { echo "$f: line 1 is not the header"; bad=$((bad + 1)); }
		if sed 1d "$f" | grep -n -e '--' -e '/\*'; then
			echo "$f: '--' or '/*' after line 1"; bad=$((bad + 1))
		fi
		# Six statements (eight with an avro conversion: the time
		# zone's SET and the view), each ending on a line ending ';'.
		nst=6
		grep -q '^CREATE TEMPORARY VIEW ' "$f" && nst=8
		[ "$(grep -c ';$' "$f")" -eq "$nst" ] ||
		    { echo "$f: $(grep -c ';$' "$f") lines end with ';', not $nst"; bad=$((bad + 1)); }
	done
	[ "$bad" -eq 0 ]
}

# --- determinism and the digest ------------------------------------------------

@test "determinism: two runs give the same bytes and digest; the digest is sha256 of the script" {
	local n a b d sum bad=0
	for n in $(golden_names); do
		(cd "$G" && "$BIN/fluid-resolve" "$n.fluid.yaml" 2>/dev/null |
		    "$BIN/fluid-check" 2>/dev/null) >"$TMP/$n.chk" ||
		    { echo "$n: refused"; bad=$((bad + 1)); continue; }
		"$BIN/fluid-sqlgen" <"$TMP/$n.chk" >"$TMP/$n.1" 2>/dev/null || true
		"$BIN/fluid-sqlgen" <"$TMP/$n.chk" >"$TMP/$n.2" 2>/dev/null || true
		"$BIN/fluid-sqlgen" --sql <"$TMP/$n.chk" >"$TMP/$n.s1" 2>/dev/null || true
		"$BIN/fluid-sqlgen" --sql <"$TMP/$n.chk" >"$TMP/$n.s2" 2>/dev/null || true
		cmp -s "$TMP/$n.1" "$TMP/$n.2" ||
		    { echo "$n: two runs wrote different documents"; bad=$((bad + 1)); }
		cmp -s "$TMP/$n.s1" "$TMP/$n.s2" ||
		    { echo "$n: two runs wrote different scripts"; bad=$((bad + 1)); }
		a=$(jq -c '.sqlgen' "$TMP/$n.1")
		b=$(jq -c '.sqlgen' "$TMP/$n.2")
		[ -n "$a" ] && [ "$a" = "$b" ] ||
		    { echo "$n: the sqlgen sections differ or are missing"; bad=$((bad + 1)); }
		[ "$(jq '.sqlgen.builds | length' "$TMP/$n.1")" -eq 1 ] ||
		    { echo "$n: not one build in the sqlgen section"; bad=$((bad + 1)); continue; }
		d=$(jq -r '.sqlgen.builds[0].digest' "$TMP/$n.1")
		sum=$(jq -j '.sqlgen.builds[0].sql' "$TMP/$n.1" | sha256sum | cut -d' ' -f1)
		[ "$d" = "sha256:$sum" ] ||
		    { echo "$n: digest $d is not sha256:$sum"; bad=$((bad + 1)); }
		sum=$(sha256sum <"$TMP/$n.s1" | cut -d' ' -f1)
		[ "$d" = "sha256:$sum" ] ||
		    { echo "$n: --sql printed other bytes than the digest covers"; bad=$((bad + 1)); }
		[ "$(jq -r '.sqlgen.builds[0].build' "$TMP/$n.1")" = \
		    "$(jq -r '.check.builds[0].id' "$TMP/$n.chk")" ] ||
		    { echo "$n: the sqlgen entry names another build"; bad=$((bad + 1)); }
	done
	[ "$bad" -eq 0 ]
}

# --- fluid generate flink --------------------------------------------------------

@test "generate flink: writes DIR/<build>.sql and DIR/<build>.table.json, says so, leaves no temporary file" {
	cd "$G"
	run --separate-stderr "$BIN/fluid" generate flink lift.fluid.yaml --out "$TMP/out"
	assert_status 0
	assert_equal "$output" "wrote $TMP/out/lift.sql
wrote $TMP/out/lift.table.json
wrote $TMP/out/lift.k8s.json" "standard output"
	assert_equal "$(files_in "$TMP/out")" ".fluid-generate.manifest
lift.k8s.json
lift.sql
lift.table.json" "the files in DIR"
	cmp "$TMP/out/lift.sql" "$G/lift.sql" || fail "DIR/lift.sql is not lift.sql"
	jq -e '.namespace == "golden" and .name == "lift" and
	    (.columns | map(.name)) == ["event_id", "customer_id", "country"] and
	    .columns[0].required == true and .partitionBy == [] and
	    .formatVersion == 2 and .fileFormat == "parquet" and
	    (has("catalog") | not)' "$TMP/out/lift.table.json" >/dev/null ||
	    fail "lift.table.json: $(cat "$TMP/out/lift.table.json")"
	# Again, into the same directory: replaced, still no stray file.
	run --separate-stderr "$BIN/fluid" generate flink lift.fluid.yaml --out "$TMP/out"
	assert_status 0
	assert_equal "$(files_in "$TMP/out")" ".fluid-generate.manifest
lift.k8s.json
lift.sql
lift.table.json" "the files in DIR after a second run"
	cmp "$TMP/out/lift.sql" "$G/lift.sql"
}

@test "generate flink: the table file of a partitioned table" {
	cd "$G"
	run --separate-stderr "$BIN/fluid" generate flink partitioned.fluid.yaml --out "$TMP/out"
	assert_status 0
	cmp "$TMP/out/partitioned.sql" "$G/partitioned.sql"
	jq -e '.partitionBy == ["country", "day"] and .fileFormat == "orc"' \
	    "$TMP/out/partitioned.table.json" >/dev/null ||
	    fail "$(cat "$TMP/out/partitioned.table.json")"
}

two_builds() {
	mkfile "$TMP/two/two.fluid.yaml" <<'YAML'
fluidVersion: "0.7.7"
kind: DataProduct
id: golden.two
name: Two builds
metadata:
  owner:
    team: fluid-tests
exposes:
  - exposeId: a
    kind: table
    binding:
      platform: aws
      format: iceberg
      location: {catalog: rest, uri: "https://catalog.example.com/api/catalog", warehouse: "s3://lake/warehouse", namespace: golden, table: a}
    contract:
      schema:
        - {name: event_id, type: string, required: true}
  - exposeId: b
    kind: table
    binding:
      platform: aws
      format: iceberg
      location: {catalog: rest, uri: "https://catalog.example.com/api/catalog", warehouse: "s3://lake/warehouse", namespace: golden, table: b}
    contract:
      schema:
        - {name: event_id, type: string, required: true}
builds:
  - id: build-a
    engine: flink
    outputs: [a]
    properties:
      stream: {kind: kafka, topic: golden, format: json, schema: [{name: event_id, type: string, required: true}]}
      parameters:
        flink:
          management: operator
          source: {bootstrapServers: "kafka:9092", groupId: golden-a}
          deployment: {name: golden-a, namespace: data-products, context: development, serviceAccount: flink, image: "registry.example.com/forge-flink@sha256:0000000000000000000000000000000000000000000000000000000000000000", checkpointUri: "s3://flink-state/a/checkpoints", savepointUri: "s3://flink-state/a/savepoints", haUri: "s3://flink-state/a/ha"}
  - id: build-b
    engine: flink
    outputs: [b]
    properties:
      stream: {kind: kafka, topic: golden, format: json, schema: [{name: event_id, type: string, required: true}]}
      parameters:
        flink:
          management: operator
          source: {bootstrapServers: "kafka:9092", groupId: golden-b}
          deployment: {name: golden-b, namespace: data-products, context: development, serviceAccount: flink, image: "registry.example.com/forge-flink@sha256:0000000000000000000000000000000000000000000000000000000000000000", checkpointUri: "s3://flink-state/b/checkpoints", savepointUri: "s3://flink-state/b/savepoints", haUri: "s3://flink-state/b/ha"}
YAML
	(cd "$TMP/two" && "$BIN/fluid-resolve" two.fluid.yaml | "$BIN/fluid-check") \
	    >"$TMP/two.chk" || fail "the two-build contract was refused"
}

@test "generate flink: one script and one table file per build" {
	two_builds
	cd "$TMP/two"
	run --separate-stderr "$BIN/fluid" generate flink two.fluid.yaml --out out
	assert_status 0
	assert_equal "$output" "wrote out/build-a.sql
wrote out/build-a.table.json
wrote out/build-a.k8s.json
wrote out/build-b.sql
wrote out/build-b.table.json
wrote out/build-b.k8s.json" "standard output"
	assert_equal "$(files_in out)" ".fluid-generate.manifest
build-a.k8s.json
build-a.sql
build-a.table.json
build-b.k8s.json
build-b.sql
build-b.table.json" "the files in DIR"
	grep -qx "SET 'pipeline.name' = 'golden.two/build-a';" out/build-a.sql
	grep -qx "SET 'pipeline.name' = 'golden.two/build-b';" out/build-b.sql
	jq -e '.name == "b"' out/build-b.table.json >/dev/null
}

@test "generate flink: a contract a stage refuses writes nothing" {
	golden_copy
	cd "$TMP/g"
	# fluid-check refuses: a path to a field that does not exist.
	sed 's/from: customer\.address\.country/from: customer.adress.country/' \
	    lift.fluid.yaml >bad.fluid.yaml
	run --separate-stderr "$BIN/fluid" generate flink bad.fluid.yaml --out "$TMP/out"
	assert_status 1
	assert_no_stdout
	[ ! -e "$TMP/out" ] || fail "DIR was created: $(files_in "$TMP/out")"
	# An existing DIR is left as it was.
	mkdir "$TMP/out2"
	run --separate-stderr "$BIN/fluid" generate flink bad.fluid.yaml --out "$TMP/out2"
	assert_status 1
	assert_no_stdout
	assert_equal "$(files_in "$TMP/out2")" "" "the files in DIR"
	# fluid-resolve refuses: a $ref to a missing fragment.
	sed 's#fragments/deployment.yaml#fragments/missing.yaml#' \
	    lift.fluid.yaml >bad2.fluid.yaml
	run --separate-stderr "$BIN/fluid" generate flink bad2.fluid.yaml --out "$TMP/out2"
	assert_status 1
	assert_no_stdout
	assert_equal "$(files_in "$TMP/out2")" "" "the files in DIR"
}

# fluid-check accepts product and build ids with "--"; the runner would
# strip "--..." from the SET 'pipeline.name' line, so fluid-sqlgen
# refuses them (sqlgen.h: "which fluid-check should have refused").  What
# fluid validate accepts, fluid generate must compile.
@test "generate flink: whatever fluid validate accepts compiles (ids with '--')" {
	golden_copy
	cd "$TMP/g"
	sed 's/^  - id: lift$/  - id: li--ft/' lift.fluid.yaml >build-id.fluid.yaml
	sed 's/^id: golden\.lift$/id: golden.li--ft/' lift.fluid.yaml >product-id.fluid.yaml
	local f vst gst bad=0
	for f in build-id product-id; do
		run --separate-stderr "$BIN/fluid" validate "$f.fluid.yaml"
		vst=$status
		run --separate-stderr "$BIN/fluid" generate flink "$f.fluid.yaml" --out "$TMP/out-$f"
		gst=$status
		if [ "$vst" -eq 0 ] && [ "$gst" -ne 0 ]; then
			echo "$f: fluid validate accepts it, fluid generate exits $gst: $stderr"
			bad=$((bad + 1))
		fi
		if [ "$gst" -eq 0 ]; then
			python3 "$SQLTOK" lint "$TMP/out-$f"/*.sql ||
			    bad=$((bad + 1))
		fi
	done
	[ "$bad" -eq 0 ]
}

# --- usage ------------------------------------------------------------------------

@test "usage: --sql with several builds needs --build (exit 2)" {
	two_builds
	tool --sql <"$TMP/two.chk"
	assert_status 2
	assert_no_stdout
	assert_stderr_first 'fluid-sqlgen: .*2 managed builds.*--build'
}

@test "usage: --sql --build picks one of several builds" {
	two_builds
	tool --sql --build build-b <"$TMP/two.chk"
	assert_status 0
	assert_no_stderr
	[[ $output == *"SET 'pipeline.name' = 'golden.two/build-b';"* ]] ||
	    fail "not build-b's script" "$(show)"
}

@test "usage: an unknown --build exits 2" {
	two_builds
	tool --sql --build nope <"$TMP/two.chk"
	assert_status 2
	assert_no_stdout
	assert_stderr_first "fluid-sqlgen: .*nope"
	(cd "$G" && "$BIN/fluid-resolve" lift.fluid.yaml | "$BIN/fluid-check") >"$TMP/one.chk"
	tool --sql --build nope <"$TMP/one.chk"
	assert_status 2
	assert_no_stdout
}

@test "usage: --build without --sql, and a FILE operand, are usage errors" {
	two_builds
	usage_error --build build-a '^fluid-sqlgen: .*--build goes with --sql' <"$TMP/two.chk"
	usage_error --sql some.json '^fluid-sqlgen: .*standard input' <"$TMP/two.chk"
}

# --- bugs found while reviewing the golden files -----------------------------------

# Flink 1.20's planner (Calcite) gives INTERVAL 'N' SECOND a leading
# precision of 2: 'N' above 99 fails validation with "Interval field
# value 120 exceeds precision of SECOND(2) field"; SECOND(p) with p > 3
# fails with "DAY_INTERVAL_TYPES precision is not supported" (both seen
# on flink-table-planner 1.20.1).  Accepted forms: 'N' SECOND with
# N <= 99, 'N' SECOND(p) with p <= 3 and N < 10^p, and
# 'D HH:MM:SS' DAY[(p)] TO SECOND with p <= 3 (default 2) and D < 10^p.
@test "event time: every delaySeconds fluid-check accepts becomes an INTERVAL Flink 1.20 accepts" {
	golden_copy
	cd "$TMP/g"
	local d st bad=0
	for d in 0 1 99 100 120 999 1000 3600 86400; do
		sed "s/delaySeconds: 5\$/delaySeconds: $d/" event-time-value.fluid.yaml >d$d.fluid.yaml
		st=0
		compile d$d.fluid.yaml "$TMP/d$d.sql" || st=$?
		[ "$st" -eq 11 ] && continue	# refused by fluid-check: fine
		[ "$st" -eq 0 ] || { echo "delay $d: status $st"; bad=$((bad + 1)); continue; }
		run python3 - "$TMP/d$d.sql" "$d" <<'PY'
import re, sys
text, want = open(sys.argv[1]).read(), int(sys.argv[2])
m = re.search(r"WATERMARK FOR `event_time` AS `event_time` - INTERVAL (.*)\n", text)
iv = m.group(1) if m else ""
ok = False
a = re.fullmatch(r"'(\d+)' SECOND(?:\((\d)\))?", iv)
b = re.fullmatch(r"'(\d+) (\d\d):(\d\d):(\d\d)' DAY(?:\((\d)\))? TO SECOND", iv)
if a:
    n, p = int(a.group(1)), int(a.group(2) or 2)
    ok = p <= 3 and n < 10 ** p and n == want
elif b:
    d, h, mi, s = map(int, b.group(1, 2, 3, 4))
    p = int(b.group(5) or 2)
    ok = (p <= 3 and d < 10 ** p and h < 24 and mi < 60 and s < 60 and
          d * 86400 + h * 3600 + mi * 60 + s == want)
print("delay %d: INTERVAL %s%s" % (want, iv, "" if ok else
      " is not an interval literal Flink 1.20 accepts for it"))
sys.exit(0 if ok else 1)
PY
		[ "$status" -eq 0 ] || { echo "$output"; bad=$((bad + 1)); }
	done
	[ "$bad" -eq 0 ]
}

# fluid-check refuses "--" and "/*+" in properties.sql but not "/*" and
# "*/"; the runner's comment regex then cuts the SQL from a "/*" in one
# literal to a "*/" in another, so the job runs other SQL than the
# contract's (and than the allowlist's pinned digest): CONCAT('we/*',
# 'b*/') runs as CONCAT('we').
@test "own SQL: comment delimiters are refused or never reach the script" {
	golden_copy
	cd "$TMP/g"
	local f st bad=0
	sed "s#SELECT 'web' AS channel,#SELECT CONCAT('we/*', 'b*/') AS channel,#" \
	    own-sql.fluid.yaml >in-literals.fluid.yaml
	sed "s#SELECT 'web' AS channel,#SELECT /* a comment */ 'web' AS channel,#" \
	    own-sql.fluid.yaml >comment.fluid.yaml
	for f in in-literals comment; do
		grep -q '/\*' $f.fluid.yaml || fail "sed did not edit $f"
		st=0
		compile $f.fluid.yaml "$TMP/$f.sql" || st=$?
		[ "$st" -eq 0 ] || continue	# refused: fine
		if grep -n -e '/\*' -e '\*/' "$TMP/$f.sql"; then
			echo "$f: the script carries a comment delimiter the runner would act on"
			bad=$((bad + 1))
		fi
	done
	[ "$bad" -eq 0 ]
}

# A stage boundary is a trust boundary: fluid-sqlgen reads whatever
# document it is given, so it judges the one text it writes unquoted,
# the build's own SQL, with fluid-check's lexer (lib/sqllex.c) again.
# crafted SQL: the check section of own-sql with its sql replaced, as a
# document edited between the stages would be.
crafted() {
	(cd "$G" && "$BIN/fluid-resolve" own-sql.fluid.yaml |
	    "$BIN/fluid-check" 2>/dev/null) |
	    jq -c --arg sql "$1" '.check.builds[0].sql = $sql' >"$TMP/crafted.chk"
}

@test "own SQL: a crafted check section whose SQL ends the query is refused, not copied" {
	local sql why
	while IFS='|' read -r sql why; do
		crafted "$sql"
		tool --sql <"$TMP/crafted.chk"
		assert_status 1
		assert_no_stdout
		assert_stderr_line "^fluid-sqlgen: error: Flink build own-sql: its own SQL \\(properties\\.sql\\) cannot be written safely as Flink SQL: $why"
		[[ $stderr != *DROP* && $stderr != *secrets* ]] ||
		    fail "the refused SQL is echoed" "$(show)"
	done <<-'EOF'
	SELECT event_id FROM source_events ) AS q; DROP TABLE t; SELECT * FROM (SELECT 1|semicolons are refused
	SELECT event_id FROM source_events) AS q CROSS JOIN (SELECT * FROM secrets|a closing bracket \(.\). or .\]'\) does not close the last one opened$
	SELECT event_id FROM source_events WHERE event_id = '|a '\.\.\.' literal is not closed$
	SELECT `event_id FROM source_events|a quoted identifier \(`\.\.\.` or "\.\.\."\) is not closed$
	SELECT event_id FROM source_events WHERE (event_id = 'x'|an opening bracket \('\(' or '\['\) is not closed$
	SELECT event_id FROM source_events -- DROP|'--' is refused
	EOF
	# generate writes nothing for it either.
	tool <"$TMP/crafted.chk"
	assert_status 1
	assert_no_stdout
}

@test "own SQL: a crafted check section whose SQL is one query is written inside the wrapper" {
	local sql="SELECT event_id, 'a(b]' AS customer_id, \`x)\` AS channel FROM source_events"
	crafted "$sql"
	tool --sql <"$TMP/crafted.chk"
	assert_status 0
	assert_no_stderr
	"$BIN/fluid-sqlgen" --sql <"$TMP/crafted.chk" >"$TMP/crafted.sql"
	grep -qxF "$sql" "$TMP/crafted.sql" || fail "the SQL is not one line of the script" "$(show)"
	grep -qxF ') AS `q`;' "$TMP/crafted.sql" || fail "no wrapper close" "$(show)"
	run python3 "$SQLTOK" lint "$TMP/crafted.sql"
	[ "$status" -eq 0 ] || fail "$output"
}

# --- property: injected text stays inside one token -------------------------------

# Seeded contracts whose topic, group id, map key, a catalog property's
# value, the catalog, warehouse, token endpoint, s3.endpoint
# and registry URIs, the OAuth2 scope and the broker host name carry
# quotes, backquotes, backslashes, "--", "/*", "*/", ";" and non-ASCII
# text.  A case some stage refuses is counted and skipped; for every
# other one the script must pass the line checks above, each injected
# value must decode, whole, from exactly one literal token, and none of
# its unique marker may appear outside the tokens.
@test "property: 200 seeded contracts with hostile text compile to scripts that keep it inside literals" {
	# Under valgrind every stage is slow: fewer cases.
	local n=200
	[ -z "${FLUID_VALGRIND:-}" ] || n=20
	mkdir "$TMP/prop"
	run python3 "$SQLTOK" prop "$BIN" 20261129 "$n" "$TMP/prop"
	echo "# ${lines[-1]:-no output}" >&3
	[ "$status" -eq 0 ] || fail "$output"
	[[ ${lines[-1]} =~ ^property:\ $n\ cases,\ ([0-9]+)\ accepted ]] ||
	    fail "no summary line" "$output"
	[ "${BASH_REMATCH[1]}" -ge $((n / 2)) ] ||
	    fail "only ${BASH_REMATCH[1]} of $n cases were accepted: the test proves little" "$output"
}

# --- the tokenizer and runner model used above ---------------------------------------

_write_sqltok() {
	cat >"$SQLTOK.$$" <<'PY'
#!/usr/bin/env python3
"""sqltok.py - the checks fluid-sqlgen.bats makes of generated scripts.

  sqltok.py lint FILE...     the line and statement invariants
  sqltok.py prop BIN SEED N DIR   the injection property test

A tokenizer that knows Flink SQL's three quoted forms: '...' ('' is a
quote), U&'...' (\\XXXX, \\+XXXXXX and \\\\ escapes, '' is a quote) and
`...` (`` is a backquote).  Everything else is "outside" text.
"""
import hashlib, json, os, random, re, subprocess, sys

HEADER = "-- Generated by fluid-sqlgen"

class TokError(Exception):
    pass

def tokenize(text):
    """[(kind, raw, decoded, start)] and the outside text (tokens blanked)."""
    toks, out, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("U&'", i) or text.startswith("u&'", i):
            j, dec = i + 3, []
            while True:
                if j >= n or text[j] == "\n":
                    raise TokError("unterminated U& literal at %d" % i)
                if text[j] == "'":
                    if j + 1 < n and text[j + 1] == "'":
                        dec.append("'"); j += 2; continue
                    break
                if text[j] == "\\":
                    if text.startswith("\\\\", j):
                        dec.append("\\"); j += 2; continue
                    if text.startswith("\\+", j):
                        h = text[j + 2:j + 8]
                        if not re.fullmatch(r"[0-9a-fA-F]{6}", h):
                            raise TokError("bad \\+ escape at %d" % j)
                        dec.append(chr(int(h, 16))); j += 8; continue
                    h = text[j + 1:j + 5]
                    if not re.fullmatch(r"[0-9a-fA-F]{4}", h):
                        raise TokError("bad \\ escape at %d" % j)
                    dec.append(chr(int(h, 16))); j += 5; continue
                dec.append(text[j]); j += 1
            toks.append(("literal", text[i:j + 1], "".join(dec), i))
            out.append(" " * (j + 1 - i)); i = j + 1
        elif c in "'`":
            j, dec = i + 1, []
            while True:
                if j >= n or text[j] == "\n":
                    raise TokError("unterminated %s token at %d" % (c, i))
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        dec.append(c); j += 2; continue
                    break
                dec.append(text[j]); j += 1
            toks.append(("literal" if c == "'" else "ident",
                         text[i:j + 1], "".join(dec), i))
            out.append(" " * (j + 1 - i)); i = j + 1
        else:
            out.append(c); i += 1
    return toks, "".join(out)

FIRST = ["SET ", "CREATE CATALOG ", "CREATE DATABASE IF NOT EXISTS ",
         "CREATE TABLE IF NOT EXISTS ", "CREATE TEMPORARY TABLE ",
         "INSERT INTO "]
# With a conversion of what avro-confluent reads (fluid-sqlgen(1)).
FIRST_CONVERTED = FIRST[:4] + ["SET 'table.local-time-zone' = 'UTC';",
                               "CREATE TEMPORARY TABLE `source_events_avro` ",
                               "CREATE TEMPORARY VIEW `source_events` AS",
                               "INSERT INTO "]

def runner_split(script):
    """The operator's SqlRunner.parseStatements, as in reference 5.4."""
    t = script.strip()
    if not t.endswith(";"):
        t += ";"
    t = re.sub(r"(--.*)|(((/\*)+?[\w\W]+?(\*/)+))", "", t + "\n")
    stmts, cur, sset = [], None, False
    for line in t.split("\n"):
        tr = line.strip()
        if not tr:
            continue
        if cur is None:
            cur = []
        if tr.startswith("EXECUTE STATEMENT SET"):
            sset = True
        cur.append(tr)
        if tr.endswith(";") and (not sset or tr == "END;"):
            stmts.append("\n".join(cur) + "\n"); cur = None; sset = False
    return stmts

def lint(script):
    """Problems with one script, as strings (empty: none)."""
    bad = []
    lines = script.split("\n")
    if not lines[0].startswith(HEADER):
        bad.append("line 1 is not the header comment")
    if not script.endswith(";\n"):
        bad.append("the script does not end with ';' and a newline")
    for k, l in enumerate(lines[1:], 2):
        if "--" in l:
            bad.append("line %d holds '--'" % k)
        if "/*" in l or "*/" in l:
            bad.append("line %d holds a comment delimiter" % k)
        if "\r" in l:
            bad.append("line %d holds a carriage return" % k)
    body = "\n".join(lines[1:])
    try:
        toks, outside = tokenize(body)
    except TokError as e:
        return bad + ["tokenizer: %s" % e]
    for k, l in enumerate(outside.split("\n"), 2):
        if ";" in l.rstrip()[:-1] or ";" in l[len(l.rstrip()):]:
            bad.append("line %d has a ';' that does not end it" % k)
        if l.rstrip().endswith(";") != lines[k - 1].endswith(";"):
            bad.append("line %d ends with ';' inside a quoted token" % k)
        if re.search(r"[^\x20-\x7e]", l):
            bad.append("line %d has non-ASCII text outside tokens" % k)
        if "\\" in l or '"' in l:
            bad.append("line %d has a backslash or '\"' outside tokens" % k)
    # Statements as this tokenizer sees them, and as the runner does.
    ends = [m.end() for m in re.finditer(";", outside)]
    mine, start = [], 0
    for e in ends:
        mine.append(body[start:e].strip()); start = e
    if body[start:].strip():
        bad.append("text after the last statement")
    if not any(len(mine) == len(first) and
               all(s.startswith(f) for s, f in zip(mine, first))
               for first in (FIRST, FIRST_CONVERTED)):
        bad.append("statements are not SET, CREATE CATALOG, CREATE "
                   "DATABASE, CREATE TABLE, CREATE TEMPORARY TABLE, "
                   "INSERT: %r" % [s[:30] for s in mine])
    theirs = runner_split(script)
    want = ["\n".join(x.strip() for x in s.split("\n") if x.strip()) + "\n"
            for s in mine]
    if theirs != want:
        bad.append("the runner would split or strip the script differently")
    return bad

# --- the property test --------------------------------------------------

PIECES = ["'", "''", "`", "``", "\\", "\\\\", "--", "/*", "*/", ";", "';",
          "`;", "é", "日本", "\u2028", "U&'", "\\0027", "\\+00263A", "$",
          "'--", "*/;", "a", "-", "/", "*", ".", ":", "%", "#", "\"", " ",
          "${x}", "env:", "\U0001F600"]

def payload(rng, marker, pieces):
    parts = [marker] + [rng.choice(pieces) for _ in range(rng.randint(1, 6))]
    rng.shuffle(parts)
    return "".join(parts)

def yq(s):
    # YAML (1.1, libyaml) reads U+2028 and U+2029 as line breaks even in a
    # double-quoted scalar: write them as escapes.
    return json.dumps(s, ensure_ascii=False).replace(
        "\u2028", "\\u2028").replace("\u2029", "\\u2029")

CONTRACT = """fluidVersion: "0.7.7"
kind: DataProduct
id: golden.prop
name: Property case
metadata:
  owner:
    team: fluid-tests
exposes:
  - exposeId: out
    kind: table
    binding:
      platform: aws
      format: iceberg
      location:
        catalog: rest
        uri: {uri}
        warehouse: {warehouse}
        namespace: golden
        table: prop
      catalogProperties:
        {pkey}: {pval}
        s3.endpoint: {s3}
      catalogAuth:
        type: oauth2
        credentialEnv: ICEBERG_CREDENTIAL
        oauth2ServerUri: {oauth}
        scope: {scope}
    contract:
      schema:
        - {{name: event_id, type: string, required: true}}
        - {{name: channel, type: string}}
builds:
  - id: prop
    engine: flink
    outputs: [out]
    properties:
      stream:
        kind: kafka
        topic: {topic}
        format: {fmt}
        schema:
          - {{name: event_id, type: string, required: true}}
          - name: attributes
            type: map
            key: {{type: string, required: true}}
            value: {{type: string}}
      mapping:
        columns:
          - {{name: channel, from: {path}}}
      parameters:
        flink:
          management: operator
          source:
            bootstrapServers: {servers}
            groupId: {group}
            startupMode: earliest-offset
{registry}          deployment:
            name: golden
            namespace: data-products
            context: development
            serviceAccount: flink
            image: registry.example.com/forge-flink@sha256:0000000000000000000000000000000000000000000000000000000000000000
            checkpointUri: s3://flink-state/golden/checkpoints
            savepointUri: s3://flink-state/golden/savepoints
            haUri: s3://flink-state/golden/ha
"""

def case(rng, k):
    """One contract and the values injected into it, by field."""
    m = lambda f: "zq%s%03d" % (f, k)          # a unique marker per field
    # Per field, the pieces fluid-check is meant to let through; one case
    # in five also gets one piece it is meant to refuse somewhere.
    text_pieces = [p for p in PIECES if p not in ("${x}", "env:")]
    url_pieces = [p for p in text_pieces if p not in (" ", "\u2028", "#")]
    host_pieces = ["--", "-", ".", "a", "0", "_"]
    topic_pieces = ["--", "-", ".", "_", "a", "0"]
    v = {
        "topic": payload(rng, m("t"), topic_pieces),
        "group": payload(rng, m("g"), text_pieces),
        "key": payload(rng, m("k"), text_pieces),
        "pval": payload(rng, m("v"), text_pieces),
        # fluid-check passes on only the properties it knows: a fixed
        # name, whose value is free text.
        "pkey": "client.region",
        "scope": payload(rng, m("s"), text_pieces),
        "uri": "https://catalog.example.com/" + payload(rng, m("u"), url_pieces),
        "warehouse": "s3://lake/" + payload(rng, m("w"), url_pieces),
        "oauth": "https://identity.example.com/" + payload(rng, m("o"), url_pieces),
        "s3": "https://s3.example.com/" + payload(rng, m("e"), url_pieces),
        "host": "k" + payload(rng, m("h"), host_pieces) + "x",
    }
    if rng.random() < 0.2:
        f = rng.choice(["topic", "pval", "warehouse", "host", "key",
                        "group", "scope"])
        v[f] += rng.choice(["${x}", "'", ";", " ", "#", "\x07", "`"])
        if f == "pval" and rng.random() < 0.5:
            v[f] = "env:" + v[f]
    key = v["key"]
    avro = rng.random() < 0.3
    if avro:
        v["registry"] = "http://registry.example.com/" + payload(rng, m("r"), url_pieces)
    text = CONTRACT.format(
        uri=yq(v["uri"]), warehouse=yq(v["warehouse"]), pkey=yq(v["pkey"]),
        pval=yq(v["pval"]), s3=yq(v["s3"]), oauth=yq(v["oauth"]),
        scope=yq(v["scope"]), topic=yq(v["topic"]),
        fmt="avro-confluent" if avro else "json",
        path=yq("attributes['%s']" % key.replace("'", "''")),
        servers=yq(v["host"] + ":9092"), group=yq(v["group"]),
        registry=("            schemaRegistryUrl: %s\n" % yq(v["registry"]))
        if avro else "")
    # What each must decode to, as one whole token.
    want = {
        "topic": v["topic"], "group": v["group"], "key": v["key"],
        "pval": v["pval"], "scope": v["scope"],
        "uri": v["uri"], "warehouse": v["warehouse"], "oauth": v["oauth"],
        "s3": v["s3"], "host": v["host"] + ":9092",
    }
    if avro:
        want["registry"] = v["registry"]
    return text, want

def run(cmd, stdin):
    return subprocess.run(cmd, input=stdin, capture_output=True)

def prop(bindir, seed, n, workdir):
    rng = random.Random(seed)
    counts = {"cases": 0, "accepted": 0, "refused": 0, "unicode": 0,
              "failed": 0}
    for k in range(n):
        text, want = case(rng, k)
        counts["cases"] += 1
        path = os.path.join(workdir, "case%03d.fluid.yaml" % k)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        r = subprocess.run([os.path.join(bindir, "fluid-resolve"), path],
                           capture_output=True)
        c = r.returncode == 0 and run([os.path.join(bindir, "fluid-check")],
                                      r.stdout)
        if r.returncode != 0 or c.returncode != 0:
            if r.returncode not in (0, 1) or (c and c.returncode != 1):
                print("case %d: a stage exited %d/%d, not 0 or 1" %
                      (k, r.returncode, c.returncode if c else -1))
                counts["failed"] += 1
            counts["refused"] += 1
            continue
        g = run([os.path.join(bindir, "fluid-sqlgen"), "--sql"], c.stdout)
        if g.returncode != 0:
            print("case %d: fluid-check accepted it, fluid-sqlgen exited %d: %s"
                  % (k, g.returncode, g.stderr.decode(errors="replace").strip()))
            counts["failed"] += 1
            continue
        counts["accepted"] += 1
        script = g.stdout.decode("utf-8")
        with open(path[:-len(".fluid.yaml")] + ".sql", "w", encoding="utf-8") as f:
            f.write(script)
        problems = lint(script)
        body = script.split("\n", 1)[1]
        try:
            toks, outside = tokenize(body)
        except TokError as e:
            problems.append(str(e)); toks, outside = [], body
        if any(t[1].startswith("U&") for t in toks):
            counts["unicode"] += 1
        for field, value in want.items():
            whole = [t for t in toks if t[2] == value]
            kind = "literal"
            if len(whole) != 1 or whole[0][0] != kind:
                problems.append("%s %r is %d whole literal tokens, not 1"
                                % (field, value, len(whole)))
            marker = re.search(r"zq[a-z]\d{3}", value).group(0)
            inside = [t for t in toks if marker in t[2]]
            if len(inside) != 1:
                problems.append("%s: its marker is in %d tokens, not 1"
                                % (field, len(inside)))
            if marker in outside:
                problems.append("%s: its marker is outside every token" % field)
        if re.search(r"zq[a-z]\d{3}", outside):
            problems.append("an injected marker is outside every token")
        if problems:
            counts["failed"] += 1
            print("case %d (%s):" % (k, path))
            for p in problems:
                print("  " + p)
    print("property: %(cases)d cases, %(accepted)d accepted, %(refused)d "
          "refused by a stage before fluid-sqlgen, %(unicode)d with a U& "
          "literal, %(failed)d failed" % counts)
    return counts

if __name__ == "__main__":
    if sys.argv[1] == "lint":
        nbad = 0
        for f in sys.argv[2:]:
            with open(f, encoding="utf-8") as fp:
                for p in lint(fp.read()):
                    print("%s: %s" % (f, p)); nbad += 1
        sys.exit(1 if nbad else 0)
    if sys.argv[1] == "prop":
        c = prop(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        sys.exit(1 if c["failed"] or c["accepted"] < c["cases"] // 4 else 0)
    sys.exit(2)
PY
	mv "$SQLTOK.$$" "$SQLTOK"
}

# --- avro-confluent and timestamp_ltz ------------------------------------
# Flink 1.20's avro-confluent format has no Avro type for TIMESTAMP_LTZ:
# the table the format reads declares TIMESTAMP(p), a computed column
# converts it (registry-gateway-avro.md: CAST, exact in a UTC session),
# and source_events is a view with the declared types.  The expected
# lines follow from the contract (tests/golden/sqlgen/avro-ltz.fluid.yaml
# says what it declares), not from the program's output.

@test "golden: avro-confluent with timestamp_ltz at the top and nested" { golden avro-ltz; }

# avro_ltz [SED]: compile avro-ltz.fluid.yaml (edited by SED) to $TMP/a.sql.
avro_ltz() {
	golden_copy
	cd "$TMP/g"
	sed "${1:-}" avro-ltz.fluid.yaml >edited.fluid.yaml
	compile edited.fluid.yaml "$TMP/a.sql" ||
	    fail "the pipeline refused it" "$(cat "$TMP/a.sql.err")"
}

# has LINE: $TMP/a.sql has LINE, whole.
has() {
	grep -qxF -- "$1" "$TMP/a.sql" ||
	    fail "no line: $1" "$(cat "$TMP/a.sql")"
}

@test "avro ltz: the format reads TIMESTAMP(p) where the contract says timestamp_ltz(p), nested too" {
	avro_ltz
	has 'CREATE TEMPORARY TABLE `source_events_avro` ('
	has '  `event_time` TIMESTAMP(3),'
	has '  `payload` ROW<`id` STRING NOT NULL, `at` TIMESTAMP(3)>,'
	has '  `visits` ARRAY<ROW<`page` STRING, `at` TIMESTAMP(3) NOT NULL>>,'
	has '  `seen` MAP<STRING NOT NULL, TIMESTAMP(3)>,'
	has '  `key_at` TIMESTAMP(3),'
	# A timestamp is read as it is, the Kafka timestamp is no Avro field.
	has '  `created` TIMESTAMP(3),'
	has "  \`kafka_timestamp\` TIMESTAMP_LTZ(3) NOT NULL METADATA FROM 'timestamp' VIRTUAL,"
	# No TIMESTAMP_LTZ among the physical columns of the avro table.
	sed -n '/^CREATE TEMPORARY TABLE/,/^) WITH/p' "$TMP/a.sql" |
	    grep -v ' AS CAST(\| METADATA ' | grep -q 'TIMESTAMP_LTZ' &&
	    fail "a physical column is TIMESTAMP_LTZ" "$(cat "$TMP/a.sql")"
	true
}

@test "avro ltz: each converted column is CAST to its declared type, in a UTC session" {
	avro_ltz
	# The event time in the table, where its watermark is declared.
	has '  `event_time ltz` AS CAST(`event_time` AS TIMESTAMP_LTZ(3)),'
	[ "$(grep -c ' AS CAST(' "$TMP/a.sql")" -eq 1 ]
	# The zone is set before the table whose casts depend on it.
	has "SET 'table.local-time-zone' = 'UTC';"
	[ "$(grep -n "^SET 'table.local-time-zone'" "$TMP/a.sql" | cut -d: -f1)" -lt \
	    "$(grep -n '^CREATE TEMPORARY TABLE' "$TMP/a.sql" | cut -d: -f1)" ]
	# source_events has the declared types: the view converts the rest.
	has 'CREATE TEMPORARY VIEW `source_events` AS'
	has '  `event_time ltz` AS `event_time`,'
	has '  CAST(`payload` AS ROW<`id` STRING NOT NULL, `at` TIMESTAMP_LTZ(3)>) AS `payload`,'
	has '  CAST(`visits` AS ARRAY<ROW<`page` STRING, `at` TIMESTAMP_LTZ(3) NOT NULL>>) AS `visits`,'
	has '  CAST(`seen` AS MAP<STRING NOT NULL, TIMESTAMP_LTZ(3)>) AS `seen`,'
	has '  CAST(`key_at` AS TIMESTAMP_LTZ(3)) AS `key_at`,'
	has '  `created`,'
	has '  `kafka_timestamp`'
	has 'FROM `source_events_avro`;'
	[ "$(sed -n '/^CREATE TEMPORARY VIEW/,/^FROM/p' "$TMP/a.sql" |
	    grep -c '^  CAST(')" -eq 4 ]
	has 'FROM `source_events` AS `s`;'
}

@test "avro ltz: the watermark is on the converted event time" {
	avro_ltz
	has "  WATERMARK FOR \`event_time ltz\` AS \`event_time ltz\` - INTERVAL '5' SECOND"
	[ "$(grep -c 'WATERMARK FOR' "$TMP/a.sql")" -eq 1 ]
	# On a column that is not converted, the watermark is on it.
	avro_ltz 's/column: event_time$/column: created/'
	has "  WATERMARK FOR \`created\` AS \`created\` - INTERVAL '5' SECOND"
	# A converted key column as the event time: its converted value,
	# and event_time is then converted in the view like the others.
	avro_ltz 's/column: event_time$/column: key_at/'
	has "  WATERMARK FOR \`key_at ltz\` AS \`key_at ltz\` - INTERVAL '5' SECOND"
	has '  `key_at ltz` AS CAST(`key_at` AS TIMESTAMP_LTZ(3)),'
	has '  `key_at ltz` AS `key_at`,'
	has '  CAST(`event_time` AS TIMESTAMP_LTZ(3)) AS `event_time`,'
}

@test "avro ltz: json reads timestamp_ltz as it is: no conversion, no zone, no view" {
	avro_ltz 's/format: avro-confluent/format: json/'
	has 'CREATE TEMPORARY TABLE `source_events` ('
	has '  `event_time` TIMESTAMP_LTZ(3),'
	has '  `payload` ROW<`id` STRING NOT NULL, `at` TIMESTAMP_LTZ(3)>,'
	has "  WATERMARK FOR \`event_time\` AS \`event_time\` - INTERVAL '5' SECOND"
	! grep -q 'local-time-zone\|VIEW\|CAST\| ltz`' "$TMP/a.sql" ||
	    fail "a json stream got a conversion" "$(cat "$TMP/a.sql")"
	# An avro value with no timestamp_ltz: none either (avro-registry).
	(cd "$G" && compile avro-registry.fluid.yaml "$TMP/r.sql")
	for f in "$G/avro-registry.sql" "$TMP/r.sql"; do
		! grep -q 'local-time-zone\|VIEW\| ltz`' "$f" ||
		    fail "$f has a conversion" "$(cat "$f")"
	done
}

@test "avro ltz: a physical type that is no type in a crafted check section is refused" {
	golden_copy
	cd "$TMP/g"
	"$BIN/fluid-resolve" avro-ltz.fluid.yaml | "$BIN/fluid-check" >chk.json
	jq '(.check.builds[0].stream.columns[] | select(.name == "payload")
	    | .physical) = {"type": "nonsense"}' chk.json >bad.json
	run --separate-stderr "$BIN/fluid-sqlgen" --sql <bad.json
	assert_status 1
	assert_no_stdout
	[[ $stderr == *"Flink build avro-ltz: a column's physical type cannot be written safely"* ]] ||
	    fail "the reason" "$stderr"
}
