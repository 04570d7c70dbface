# SPDX-License-Identifier: Apache-2.0
# check-helpers.bash - shared by the fluid-check-*.bats files, which test
# every static rule of the managed Flink -> Iceberg lane in fluid-check
# and `fluid validate`, each with a contract it accepts and one it
# refuses, one file per section of the specification.
#
# Each test copies fixtures/check/base.fluid.yaml (a valid contract) to
# c.fluid.yaml and makes one change to it with subst, add or drop.  A
# refusal must exit 1 with exactly one error, at the line and column of
# the YAML that is wrong, naming the build (or expose) and the contract
# path the spec's way, with the key words of the reason.  The expected
# line and column come from the fixture (grep for the changed line, find
# the value in it), never from the program's output.  An acceptance
# checks a property of the IR that fluid-check writes.
#
# Load it after helpers.bash:
#
#	load helpers
#	load check-helpers
#	setup() { check_setup; }
#	teardown() { fluid_teardown; }

# check_setup: fluid_setup for the driver, with the base contract in $F.
check_setup() {
	TOOL=fluid
	fluid_setup
	F=c.fluid.yaml
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
}

# --- editing the base contract -------------------------------------------

# subst OLD NEW: the one place in $F where OLD is (literally; it may
# span lines) becomes NEW (which may too: give its lines their full
# indentation).
subst() {
	local text rest
	text=$(<"$F") || return
	rest=${text//"$1"/}
	[ "$(( (${#text} - ${#rest}) / ${#1} ))" -eq 1 ] ||
	    fail "subst: want one place in $F with: $1" || return
	printf '%s\n' "${text/"$1"/"$2"}" >"$F"
}

# add MARK TEXT: insert the lines of TEXT before the "# +MARK" comment,
# each indented like the comment (a list's marker sits where its items
# do, so TEXT is written as if it started in column 1).
add() {
	MARK="# +$1" TEXT=$2 awk '
	    { i = index($0, ENVIRON["MARK"]) }
	    i && substr($0, i) == ENVIRON["MARK"] { n++
		k = split(ENVIRON["TEXT"], L, "\n")
		for (j = 1; j <= k; j++) print substr($0, 1, i - 1) L[j] }
	    { print }
	    END { exit n != 1 }' "$F" >"$F.new" ||
	    fail "add: want one '# +$1' in $F" || return
	mv "$F.new" "$F"
}

# drop TEXT: delete the one line of $F that contains TEXT.
drop() {
	OLD=$1 awk '
	    index($0, ENVIRON["OLD"]) { n++; next }
	    { print }
	    END { exit n != 1 }' "$F" >"$F.new" ||
	    fail "drop: want one line of $F containing: $1" || return
	mv "$F.new" "$F"
}

# at ERE [TEXT]: "LINE:COL" for the one line of $F matching ERE, COL
# where TEXT starts in it.  Without TEXT, COL is where the line's node
# starts: past the indentation and a list item's "- ", which is where a
# mapping is placed (at its first key, or at the '{' of a flow mapping).
at() {
	local line col
	line=$(line_of "$F" "$1") || return
	if [ $# -ge 2 ]; then
		col=$(col_of "$F" "$line" "$2") ||
		    fail "at: '$2' is not in line $line of $F" || return
	else
		col=$(awk -v n="$line" 'NR == n { match($0, /^[ -]*/);
		    print RLENGTH + 1 }' "$F")
	fi
	echo "$line:$col"
}

# after ERE: "LINE:COL" of the node on the line after the one matching
# ERE (the first key of a block mapping that ERE's line opens).
after() {
	local line
	line=$(line_of "$F" "$1") || return
	awk -v n="$((line + 1))" 'NR == n { match($0, /^[ -]*/);
	    print n ":" RLENGTH + 1 }' "$F"
}

# column NAME: "LINE:COL" of the expose's column NAME (the base's
# exposes and the tests' additions to them are indented by 8).
column() {
	at "^        - \\{?name: $1([,}]|\$)"
}

# rcol_of FILE LINE TEXT: the column of TEXT's last occurrence in line
# LINE of FILE.
rcol_of() {
	awk -v n="$2" -v t="$3" 'NR == n { c = 0; last = 0
	    while ((i = index(substr($0, c + 1), t)) > 0) { c += i; last = c }
	    print last; exit (last == 0) }' "$1"
}

# deep N: a stream column of N structs, each inside the one before.
deep() {
	local s='{name: leaf, type: string}' i
	for ((i = $1; i >= 1; i--)); do
		s="{name: l$i, type: struct, fields: [$s]}"
	done
	echo "- $s"
}

# The mapping with no columns: a contract read by name only.
no_mapping() {
	drop '      mapping:'
	drop '        columns:'
	drop '{name: customer_id, from: customer.id}'
	drop '{name: country, from: customer.address.country}'
	drop '# +columns'
	drop '{name: customer_id, type: string}'
	drop '{name: country, type: string}'
	drop '{column: country, transform: identity}'
}

# An explode of items as item, before the mapping's columns.
explode() {
	subst '        columns:' "        explode: {path: ${1:-items}, as: item}
        columns:"
}

# second [ID [EXPOSE [DEPLOYMENT [STATE]]]]: append a second managed
# build (and, unless EXPOSE is orders, the expose it writes).  STATE is
# the prefix of its checkpoint, savepoint and HA locations.  Its lines
# that tests change or point at end in "# returns", to tell them apart.
second() {
	local id=${1:-ingest-returns} x=${2:-returns} dep=${3:-shop-returns}
	local st=${4:-s3://flink-state/shop-returns}

	[ "$x" = orders ] || add exposes "- exposeId: $x
  kind: table
  binding:
    format: iceberg
    location:
      catalog: rest
      uri: https://catalog.example.com/api/catalog
      warehouse: s3://lake/warehouse
      namespace: shop
      table: $x
  contract:
    schema:
      - {name: return_id, type: string, required: true}"
	cat >>"$F" <<-EOF
	  - id: $id # returns
	    engine: flink
	    outputs: [$x] # returns
	    properties:
	      stream: # returns
	        kind: kafka
	        topic: returns
	        format: json
	        schema:
	          - {name: return_id, type: string, required: true}
	      parameters: # returns
	        flink:
	          management: operator # returns
	          source: {bootstrapServers: "kafka:9092", groupId: returns-v1}
	          deployment:
	            name: $dep # returns
	            namespace: data-products # returns
	            context: development
	            serviceAccount: flink
	            image: registry.example.com/forge-flink@sha256:0000000000000000000000000000000000000000000000000000000000000000
	            checkpointUri: $st/checkpoints
	            savepointUri: $st/savepoints
	            haUri: $st/ha # returns
	EOF
}

# null_list KEY: the top-level list KEY of $F becomes "KEY: null".
null_list() {
	KEY=$1 awk '$0 == ENVIRON["KEY"] ":" { print $0 " null"; skip = 1; next }
	    skip && /^[^ #]/ { skip = 0 }
	    !skip' "$F" >"$F.new" && mv "$F.new" "$F"
}

# --- running and judging ---------------------------------------------------

# validate [OPTIONS...]: fluid validate OPTIONS $F.
validate() {
	tool validate "$@" "$F"
}

# check [OPTIONS...]: fluid-resolve $F | fluid-check OPTIONS; the IR is
# the output.
check() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" bash -c \
	    'set -o pipefail; "$1/fluid-resolve" -- "$2" | "$1/fluid-check" \
	    "${@:3}"' check "$BIN" "$F" "$@"
}

# The error lines of the last run's standard error.
errors() {
	grep ': error: ' <<<"$stderr" || true
}

# refused POS WHERE WHY: the last run exited 1, printed only
# "$F: refused (1 error)" on standard output and exactly one error, which is
#	$F:POS: error: Managed Flink: WHERE: <a reason matching the ERE WHY>
# WHERE is literal: "Flink build ID: contract.path" or "exposes[0]...".
refused() {
	local head="$F:$1: error: Managed Flink: $2: " errs
	assert_status 1
	assert_equal "$output" "$F: refused (1 error)" "standard output"
	errs=$(errors)
	[ -n "$errs" ] && [ "$(wc -l <<<"$errs")" -eq 1 ] ||
	    fail "expected exactly one error" "$(show)" || return
	[[ $errs == "$head"* ]] ||
	    fail "the error is not where it should be" "want: $head" \
	    "$(show)" || return
	[[ ${errs#"$head"} =~ $3 ]] ||
	    fail "the reason does not match: $3" "$(show)"
}

# refused_stdout: the last fluid validate of $F printed only its
# "refused (N errors)" line, N the error lines on standard error (text)
# or the error objects (--diagnostics=json).
refused_stdout() {
	local n
	n=$(grep -c -e ': error: ' -e '"level":"error"' <<<"$stderr")
	[ "$n" -eq 1 ] && n="1 error" || n="$n errors"
	assert_equal "$output" "$F: refused ($n)" "standard output"
}

# build_refused POS PATH WHY: refused, in the build ingest-orders.
build_refused() {
	refused "$1" "Flink build ingest-orders: $2" "$3"
}

# accepted: fluid validate said ok, with no diagnostics at all.
accepted() {
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "$F: ok" "standard output"
}

# ir: the last check exited 0 without diagnostics and wrote the IR.
ir() {
	assert_status 0
	assert_no_stderr
	assert_jq '.check.builds | length > 0'
}

# output NAME: a jq filter for the IR of output column NAME.
output() {
	printf '.check.builds[0].outputs[] | select(.name == "%s")' "$1"
}
