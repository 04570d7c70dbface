#!/usr/bin/env bats
# fluid-check-sql.bats - properties.sql ("A build's own SQL" in the
# specification): one SELECT from source_events, warned about, and what
# is refused in it.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

# The mapping replaced by properties.sql.
own_sql() {
	no_mapping
	subst '      parameters:' "      sql: $1
      parameters:"
}

@test "sql: one SELECT from source_events is accepted, with a warning" {
	own_sql 'SELECT event_id, quantity FROM source_events'
	validate
	assert_status 0
	assert_equal "$output" "$F: ok"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "want one warning" "$(show)"
	assert_match "${stderr_lines[0]}" "^$F:$(at '^ *sql: ' SELECT): warning: Managed Flink: Flink build ingest-orders: properties\.sql: brings its own SQL.*pinned entry: shop\.orders/ingest-orders@sha256:[0-9a-f]{64}$"
	check
	assert_status 0
	assert_jq '.check.builds[0].sql == "SELECT event_id, quantity FROM source_events"'
	assert_jq '[.check.builds[0].outputs[].expr.op] | unique == ["sql"]'
}

@test "sql: every build that brings its own SQL is warned about" {
	own_sql 'SELECT * FROM source_events'
	second
	subst '      parameters: # returns' '      sql: SELECT return_id FROM source_events
      parameters: # returns'
	validate
	assert_status 0
	[ "$(grep -c ': warning: .*brings its own SQL' <<<"$stderr")" -eq 2 ] ||
	    fail "want two warnings" "$(show)"
	assert_match "$stderr" 'Flink build ingest-returns: properties\.sql: brings its own SQL'
}

@test "sql: a semicolon is refused" {
	own_sql '"SELECT * FROM source_events; DROP TABLE t"'
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql 'semicolons are refused'
}

@test "sql: a hint is refused" {
	own_sql "\"SELECT /*+ OPTIONS('scan.startup.mode'='earliest-offset') */ * FROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    'SQL hints \(/\*\+ ... \*/\) are refused'
}

@test "sql: a comment is refused, since the runner strips it blindly" {
	own_sql "\"SELECT CONCAT('we/*', 'b*/') AS channel FROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "comments \('/\*', '\*/'\) are refused: the in-pod SQL runner strips them"
}

@test "sql: a line comment is refused" {
	own_sql "\"SELECT event_id -- the id\\nFROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql "'--' is refused"
}

@test "sql: what is not a SELECT is refused" {
	own_sql 'INSERT INTO t SELECT * FROM source_events'
	validate
	build_refused "$(at '^ *sql: ' INSERT)" properties.sql \
	    'must be one SELECT from source_events'
}

@test "sql: a SELECT from another table is refused" {
	own_sql 'SELECT * FROM orders_archive'
	validate
	build_refused "$(at '^ *sql: ' SELECT)" properties.sql \
	    'must be one SELECT from source_events'
}

@test "sql: SQL and a mapping together are refused" {
	subst '      parameters:' '      sql: SELECT * FROM source_events
      parameters:'
	validate
	build_refused "$(at '^ *sql: ' SELECT)" properties.sql \
	    'a mapping and SQL together are refused'
	assert_match "$stderr" 'warning: .*brings its own SQL'
}
