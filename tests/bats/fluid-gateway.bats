#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-gateway.bats - fluid-gateway apply (and fluid apply --target)
# against a FAKE SQL Gateway (tests/net/fake_gateway.py) on loopback: the
# protocol, the order of statements, the session closed on every path,
# Flink's reason without its stack trace, targets and the allowlist.  The
# real gateway is the live lane's (tests/live, check "gateway").

load helpers

FAKE_PID=

setup() {
	TOOL=fluid-gateway
	fluid_setup
	command -v python3 >/dev/null || skip "python3 is not installed"
	cp -R "$EXAMPLES/shapes" shapes
	C=shapes/landed/orders-landed.fluid.yaml
	# What the landed example's job contacts (fluid apply's checks, which
	# every apply path runs): only these, never the gateway's host.
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com
}

teardown() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	fluid_teardown
}

# targets URL [NAME]: shapes/fluid.targets.yaml with one target.
targets() {
	mkfile shapes/fluid.targets.yaml <<-EOF
	targets:
	  ${2:-local}:
	    backend: flink
	    flink: {gateway: "$1"}
	EOF
}

# fake ARGS...: start the fake gateway; the only target points at it.
fake() {
	start_fake fake_gateway.py "$@" || return
	targets "http://127.0.0.1:$PORT"
}

gw() {
	run --separate-stderr "$BIN/fluid-gateway" apply "$@"
}

# requests: the fake's log as "METHOD PATH" lines, handles replaced by S and O.
requests() {
	python3 -c '
import json, re, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    p = re.sub(r"/sessions/[0-9a-f-]{36}", "/sessions/S", r["path"])
    p = re.sub(r"/operations/[0-9a-f-]{36}", "/operations/O", p)
    print(r["method"], p)' "$TMP/requests.log"
}

# statements: the SQL the fake was sent, one JSON string a line.
statements() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "statement" in r: print(json.dumps(r["statement"]))' "$TMP/requests.log"
}

# The session the run printed, and whether the fake still has it open.
session_of() { printf '%s\n' "$output" | sed -n 's/^session //p'; }
session_open() {
	curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/v2/sessions/$1"
}

@test "fluid-gateway: --help names every option; a bad option or no FILE is a usage error" {
	run -0 "$BIN/fluid-gateway" --help
	[[ $output == *"--target NAME"* && $output == *"--dry-run"* &&
	   $output == *"--timeout S"* ]] || fail "usage incomplete" "$output"
	run -2 --separate-stderr "$BIN/fluid-gateway" apply --frobnicate x.sql
	run -2 --separate-stderr "$BIN/fluid-gateway" apply
	[[ $stderr == *"apply expects one FILE"* ]] || fail "no reason" "$(show)"
	run -2 --separate-stderr "$BIN/fluid-gateway" deploy x.sql
	run -2 --separate-stderr "$BIN/fluid-gateway" apply --timeout 0 x.sql
}

@test "fluid-gateway: the landed example, one ok: line per statement, the session closed last" {
	fake
	gw "$C"
	assert_status 0
	local sid
	sid=$(session_of)
	[ -n "$sid" ] || fail "no session line" "$(show)"
	assert_equal "$(printf '%s\n' "$output" | grep -v '^session ')" \
"applying land-orders.sql to target 'local' (http://127.0.0.1:$PORT)
ok: set pipeline.name
ok: catalog fluid_iceberg
ok: database fluid_iceberg.commerce
ok: table fluid_iceberg.commerce.orders_landed
ok: source source_events
ok: insert fluid_iceberg.commerce.orders_landed -> job $(python3 -c '
import json, sys, uuid
ops = [json.loads(l) for l in open(sys.argv[1])]
o = [r["path"].split("/")[5] for r in ops if r["path"].endswith("/result/0?rowFormat=JSON")][-1]
print(uuid.uuid5(uuid.NAMESPACE_URL, o).hex)' "$TMP/requests.log")
ok: applied: every statement submitted; delivery is not checked here (fluid verify reads it)" "stdout"
	# The protocol: open, then per statement submit, poll, result; close.
	run requests
	local first last
	first=$(printf '%s\n' "$output" | head -n 1)
	last=$(printf '%s\n' "$output" | tail -n 1)
	assert_equal "$first" "POST /v2/sessions"
	assert_equal "$last" "DELETE /v2/sessions/S"
	[ "$(printf '%s\n' "$output" | grep -c '^POST /v2/sessions/S/statements$')" -eq 6 ] ||
	    fail "not 6 statements" "$output"
	# --polls 2: two RUNNING answers, then FINISHED, for each statement.
	[ "$(printf '%s\n' "$output" | grep -c '/status$')" -eq 18 ] ||
	    fail "not 3 status reads per statement" "$output"
	assert_equal "$(session_open "$sid")" 500 "the session after the run"
}

@test "fluid-gateway: each statement is sent whole, in order, without its ';' or the header comment" {
	fake
	"$BIN/fluid" generate flink --out gen "$C" >/dev/null
	gw "$C"
	assert_status 0
	# The script's statements as Python splits the file at ';' + newline,
	# comment lines dropped: fluid-sqlgen writes one statement per block.
	run diff <(statements) <(python3 -c '
import json, sys
text = open(sys.argv[1]).read()
body = "\n".join(l for l in text.splitlines() if not l.startswith("--"))
for st in body.split(";\n"):
    if st.strip(): print(json.dumps(st.strip().rstrip(";")))' gen/land-orders.sql)
	assert_status 0
}

@test "fluid-gateway: a .sql script; a statement set is one statement, quotes and comments hide ';'" {
	fake
	mkfile shapes/job.sql <<-'EOF'
	-- header; not a statement
	SET 'a;b' = 'x;y';
	/* a comment; */ CREATE TEMPORARY VIEW `v;1` AS SELECT 1 AS `x`;
	EXECUTE STATEMENT SET
	BEGIN
	  INSERT INTO `t1` SELECT * FROM `v;1`;
	  INSERT INTO `t2` SELECT * FROM `v;1`;
	END;
	EOF
	gw shapes/job.sql
	assert_status 0
	run statements
	assert_equal "$output" '"SET '"'"'a;b'"'"' = '"'"'x;y'"'"'"
"CREATE TEMPORARY VIEW `v;1` AS SELECT 1 AS `x`"
"EXECUTE STATEMENT SET\nBEGIN\n  INSERT INTO `t1` SELECT * FROM `v;1`;\n  INSERT INTO `t2` SELECT * FROM `v;1`;\nEND"'
	gw shapes/job.sql
	[[ $output == *$'ok: set a;b\n'* && $output == *$'ok: view v;1\n'* &&
	   $output == *"ok: statement set -> job "* ]] || fail "ok lines" "$(show)"
}

@test "fluid-gateway: a refused statement names itself and Flink's reason, no stack trace, exit 1, no job" {
	fake --reject orders_landed
	gw "$C"
	assert_status 1
	assert_equal "$stderr" "land-orders.sql:18:1: error: statement 4 (table fluid_iceberg.commerce.orders_landed): Flink refused it: Object 'orders_landed' not found"
	[[ $output == *"ok: database fluid_iceberg.commerce"* ]] || fail "earlier statements" "$(show)"
	[[ $output != *"ok: applied"* && $output != *"ok: table"* ]] || fail "claimed success" "$(show)"
	# Nothing after the refused statement was sent: no INSERT, no job.
	run statements
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 4 ] || fail "sent past the refusal" "$output"
	[[ $output != *INSERT* ]] || fail "the INSERT was sent" "$output"
	run requests
	assert_equal "$(printf '%s\n' "$output" | tail -n 1)" "DELETE /v2/sessions/S"
}

@test "fluid-gateway: the fake's trace does hold frames and wrappers (so the test above can fail)" {
	local raw
	raw=$(python3 -B -c 'import sys; sys.path.insert(0, sys.argv[1]); import fake_gateway as f; print(f.trace("x"))' "$TOP/tests/net")
	[[ $raw == *$'\tat org.apache'* && $raw == *"Caused by: "* &&
	   $raw == *"Failed to fetchResults"* && $raw == *"ValidationException: x"* ]] ||
	    fail "the fake's trace is too kind" "$raw"
}

@test "fluid-gateway: a closed port is exit 2, no session" {
	# A port that was free a moment ago and is not listened on.
	local port
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	targets "http://127.0.0.1:$port"
	gw "$C"
	assert_status 2
	[[ $stderr == "fluid-gateway: the SQL Gateway is not reachable: 'http://127.0.0.1:$port/v2/sessions': cannot connect: "* ]] ||
	    fail "no reachability message" "$(show)"
	[[ $output == "applying land-orders.sql to target 'local' (http://127.0.0.1:$port)" ]] ||
	    fail "stdout" "$(show)"
}

@test "fluid-gateway: a gateway that cannot open a session is exit 2" {
	fake --open-status 500
	gw "$C"
	assert_status 2
	[[ $stderr == *"500 Internal Server Error"* ]] || fail "no status" "$(show)"
}

@test "fluid-gateway: a statement that never finishes is exit 2 after --timeout, and the session is closed" {
	fake --hang 'CREATE DATABASE'
	local t0=$SECONDS
	gw --timeout 1 "$C"
	assert_status 2
	[ $((SECONDS - t0)) -lt 10 ] || fail "the timeout was not bounded" "$(show)"
	[[ $stderr == *"the apply did not finish within 1 s: stopped while waiting for statement 3 (status RUNNING); see --timeout"* ]] ||
	    fail "no timeout" "$(show)"
	[[ $stderr == *"land-orders.sql:16:1: warning: stopped at statement 3 (database fluid_iceberg.commerce)"* ]] ||
	    fail "which statement" "$(show)"
	# Backoff: 50, 100, 200, 400 ms... about 5 polls in a second, not hundreds.
	run requests
	local polls
	polls=$(printf '%s\n' "$output" | grep -c '/status$')
	[ "$polls" -ge 3 ] && [ "$polls" -le 20 ] || fail "polls: $polls" "$output"
	assert_equal "$(printf '%s\n' "$output" | tail -n 1)" "DELETE /v2/sessions/S"
}

# interrupt SIGNAL: a run stopped by SIGNAL while a statement hangs.
interrupt() {
	fake --hang 'CREATE TABLE'
	"$BIN/fluid-gateway" apply "$C" >out.txt 2>err.txt &
	local pid=$! n sid
	for (( n=0; n<100; n++ )); do
		grep -q '^ok: database' out.txt && break
		sleep 0.1
	done
	grep -q '^ok: database' out.txt || fail "the run did not get to the table" "$(cat out.txt err.txt)"
	sid=$(sed -n 's/^session //p' out.txt)
	assert_equal "$(session_open "$sid")" 200 "the session during the run"
	kill "-$1" "$pid"
	local t0=$SECONDS
	status=0
	wait "$pid" || status=$?
	[ $((SECONDS - t0)) -lt 10 ] || fail "the signal was not acted on at once" ""
	assert_status 2
	grep -q 'interrupted by a signal; the session is closed' err.txt ||
	    fail "no message" "$(cat err.txt)"
	! grep -q '^ok: table' out.txt || fail "went on" "$(cat out.txt)"
	assert_equal "$(session_open "$sid")" 500 "the session after the signal"
	run requests
	[[ $output == *"DELETE /v2/sessions/S"* ]] || fail "no DELETE" "$output"
}

@test "fluid-gateway: SIGINT during a run closes the session" {
	interrupt INT
}

@test "fluid-gateway: SIGTERM during a run closes the session" {
	interrupt TERM
}

@test "fluid-gateway: --timeout bounds result paging too: a slow pager is stopped at the deadline, not after 20 pages" {
	# Every page of the INSERT's result takes 0.5 s and leads to another:
	# with a deadline per statement's polls only, 20 pages (10 s) were
	# read and the run ended "without a job id".
	fake --polls 0 --slow-pages 0.5
	gw --timeout 2 "$C"
	assert_status 2
	[[ $stderr =~ the\ apply\ did\ not\ finish\ within\ 2\ s:\ stopped\ (before|while)\ reading\ result\ page\ [0-9]+\ of\ statement\ 6\;\ see\ --timeout ]] ||
	    fail "no deadline message" "$(show)"
	[[ $stderr != *"without a job id"* && $output != *"ok: insert"* ]] || fail "went on" "$(show)"
	run requests
	local pages
	pages=$(printf '%s\n' "$output" | grep -c '/result/[0-9]*?rowFormat=JSON$')
	# 5 statements read one page each; the INSERT's pager a few, < 20.
	[ "$pages" -ge 6 ] && [ "$pages" -lt 15 ] || fail "pages read: $pages" "$output"
	assert_equal "$(printf '%s\n' "$output" | tail -n 1)" "DELETE /v2/sessions/S"
}

@test "fluid-gateway: the deadline covers the whole apply, not each statement" {
	# Each statement is RUNNING for 6 status reads (about 2.6 s with the
	# backoff): each alone is within --timeout 3, the six together not.
	fake --polls 6
	gw --timeout 3 "$C"
	assert_status 2
	[[ $stderr == *"the apply did not finish within 3 s: stopped "* ]] || fail "no deadline" "$(show)"
	[[ $output != *"ok: applied"* ]] || fail "applied" "$(show)"
	run requests
	assert_equal "$(printf '%s\n' "$output" | tail -n 1)" "DELETE /v2/sessions/S"
}

@test "fluid-gateway: a job id with terminal escapes is printed escaped" {
	fake --job-id $'7d3f\e[2J\e]0;owned\a\u202e\u009b31mx'
	gw "$C"
	assert_status 0
	[[ $output != *$'\e'* && $output != *$'\a'* && $output != *$'\u202e'* && $output != *$'\u009b'* ]] ||
	    fail "a control character reached stdout" "$(show | od -c | head -20)"
	[[ $output == *'ok: insert fluid_iceberg.commerce.orders_landed -> job 7d3f\x1b[2J\x1b]0;owned\x07\u202e\u009b31mx'* ]] ||
	    fail "not escaped as diagnostics escape" "$(show)"
}

@test "fluid-gateway: a session handle that is not a plain token is refused, escaped, and nothing is submitted" {
	fake --session-handle $'s\e[31mred'
	gw "$C"
	assert_status 2
	assert_equal "$stderr" "fluid-gateway: the SQL Gateway answered a sessionHandle that is not a plain token ('s\x1b[31mred'); not used"
	[[ $output != *$'\e'* && $output != *"session "* ]] || fail "the handle was printed" "$(show)"
	run statements
	assert_equal "$output" ""
}

@test "fluid-gateway: a target's name and a script's text with escapes are shown escaped" {
	mkfile shapes/fluid.targets.yaml <<-'EOF'
	targets:
	  "t\e[2J\u202e":
	    backend: flink
	    flink: {gateway: "http://127.0.0.1:1"}
	EOF
	printf "SET 'a' = '\033]0;x\007';\nINSERT INTO \`t\033[1m\` SELECT 1;\n" >shapes/esc.sql
	gw --dry-run shapes/esc.sql
	assert_status 0
	[[ $output != *$'\e'* && $output != *$'\a'* && $output != *$'\u202e'* ]] ||
	    fail "a control character reached stdout" "$(show)"
	[[ $output == *"to target 't\x1b[2J\u202e' (http://127.0.0.1:1)"* ]] || fail "target name" "$(show)"
	[[ $output == *"-- 2: insert t\x1b[1m"* ]] || fail "label" "$(show)"
	[[ $output == *"SET 'a' = '\x1b]0;x\x07';"* ]] || fail "statement text" "$(show)"
}

@test "fluid-gateway: the job id on a later result page is found through nextResultUri" {
	fake --job-late
	gw "$C"
	assert_status 0
	[[ $output =~ ok:\ insert\ fluid_iceberg\.commerce\.orders_landed\ -\>\ job\ [0-9a-f]{32} ]] ||
	    fail "no job id" "$(show)"
	run requests
	[[ $output == *"/result/1?rowFormat=JSON"* ]] || fail "page 1 not read" "$output"
}

@test "fluid-gateway: an INSERT without a job id is exit 2, not ok" {
	fake --no-job
	gw "$C"
	assert_status 2
	[[ $stderr == *"statement 6 (insert fluid_iceberg.commerce.orders_landed): the SQL Gateway finished it without a job id"* ]] ||
	    fail "no message" "$(show)"
	[[ $output != *"ok: insert"* ]] || fail "claimed a job" "$(show)"
}

@test "fluid-gateway: --dry-run prints every statement and contacts nothing" {
	fake
	gw --dry-run "$C"
	assert_status 0
	[ ! -e "$TMP/requests.log" ] || fail "the fake was contacted" "$(cat "$TMP/requests.log")"
	run grep -E '^-- [0-9]+: ' <<<"$output"
	assert_equal "$output" "-- 1: set pipeline.name
-- 2: catalog fluid_iceberg
-- 3: database fluid_iceberg.commerce
-- 4: table fluid_iceberg.commerce.orders_landed
-- 5: source source_events
-- 6: insert fluid_iceberg.commerce.orders_landed"
	gw --dry-run "$C"
	[[ $output == *$'\nCREATE DATABASE IF NOT EXISTS `fluid_iceberg`.`commerce`;\n'* ]] ||
	    fail "statement text" "$(show)"
	# No gateway at all: the same.
	kill "$FAKE_PID"; FAKE_PID=
	gw --dry-run "$C"
	assert_status 0
}

@test "fluid-gateway: targets: --target picks, one is the default, several need a name" {
	mkfile shapes/fluid.targets.yaml <<-'EOF'
	targets:
	  a: {backend: flink, flink: {gateway: "http://127.0.0.1:1"}}
	  b: {backend: flink, flink: {gateway: "http://10.0.0.7:8083"}}
	EOF
	gw --dry-run "$C"
	assert_status 2
	assert_equal "$stderr" "fluid-gateway: shapes/fluid.targets.yaml declares 2 targets ('a', 'b'): name one with --target"
	gw --dry-run --target b "$C"
	assert_status 0
	[[ $output == "-- dry run: land-orders.sql to target 'b' (http://10.0.0.7:8083)"* ]] || fail "b" "$(show)"
	gw --dry-run --target c "$C"
	assert_status 2
	[[ $stderr == *"declares no target 'c' (there are 'a', 'b')" ]] || fail "unknown" "$(show)"
	gw --dry-run --targets /nonexistent.yaml "$C"
	assert_status 2
}

@test "fluid-gateway: the targets section of fluid.workspace.yaml; nothing declared is exit 2" {
	cat >>shapes/fluid.workspace.yaml <<-'EOF'
	targets:
	  ws: {backend: flink, flink: {gateway: "http://127.0.0.1:8083"}}
	EOF
	gw --dry-run "$C"
	assert_status 0
	[[ $output == "-- dry run: land-orders.sql to target 'ws' "* ]] || fail "ws" "$(show)"
	cp "$EXAMPLES/shapes/fluid.workspace.yaml" shapes/fluid.workspace.yaml
	gw --dry-run "$C"
	assert_status 2
	[[ $stderr == *"fluid.workspace.yaml declares no target"* ]] || fail "none" "$(show)"
}

@test "fluid-gateway: a malformed target is refused at its line and column" {
	mkfile shapes/fluid.targets.yaml <<-'EOF'
	targets:
	  k8s:
	    backend: kubernetes
	    flink: {gateway: "http://127.0.0.1:8083/v1", port: 3}
	EOF
	gw --dry-run "$C"
	assert_status 1
	[[ $stderr == "shapes/fluid.targets.yaml:3:14: error: targets.k8s.backend: 'kubernetes' is not a backend fluid applies to (flink)"* ]] ||
	    fail "backend" "$(show)"
	[[ $stderr == *"fluid.targets.yaml:4:56: error: targets.k8s.flink: unknown key 'port' (known: gateway)"* ]] ||
	    fail "unknown key" "$(show)"
	[[ $stderr == *"fluid.targets.yaml:4:22: error: targets.k8s.flink.gateway: give the gateway's scheme, host and port, without a path (/v1)"* ]] ||
	    fail "path" "$(show)"
}

@test "fluid-gateway: the gateway's host must pass the deployment host allowlist, before any contact" {
	targets "http://gateway.invalid:8083" prod
	gw "$C"
	assert_status 1
	assert_equal "$stderr" "shapes/fluid.targets.yaml:3:5: error: targets.prod.flink.gateway: host 'gateway.invalid' is not allowed: export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=\"\$FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST,gateway.invalid\""
	[ -z "$output" ] || fail "printed before the check" "$(show)"
	FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=$FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST,gateway.invalid gw --dry-run "$C"
	assert_status 0
	targets "http://169.254.169.254:8083"
	gw --dry-run "$C"
	assert_status 1
	[[ $stderr == *"link-local"* ]] || fail "link-local" "$(show)"
}

@test "fluid-gateway: an unclosed literal in a script is refused at its line; --build goes with a contract" {
	targets "http://127.0.0.1:1"
	printf "SET 'a' = 'b';\nSET 'c' = 'd;\n" >shapes/bad.sql
	gw shapes/bad.sql
	assert_status 1
	assert_equal "$stderr" "shapes/bad.sql:2:1: error: a '...' literal is not closed"
	gw --build x shapes/bad.sql
	assert_status 2
}

@test "fluid apply --target: the same apply through the driver" {
	fake
	run --separate-stderr "$BIN/fluid" apply --target local "$C"
	assert_status 0
	[[ $output == *"ok: source source_events"* &&
	   $output == *"ok: insert fluid_iceberg.commerce.orders_landed -> job "* ]] ||
	    fail "ok lines" "$(show)"
	run requests
	assert_equal "$(printf '%s\n' "$output" | tail -n 1)" "DELETE /v2/sessions/S"
	# Without --target, apply is still the kubectl one and wants a plan.
	run --separate-stderr "$BIN/fluid" apply "$C"
	assert_status 2
}
