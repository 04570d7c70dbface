#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
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

# --- the lexical rules (sqllex_query(), which fluid-sqlgen applies too) ---

@test "sql: quotes, identifiers and brackets that close are accepted" {
	own_sql "\"SELECT 'it''s' AS note, \`event_id\`, \\\"quantity\\\", attributes['k'], (1 + (2)) AS n FROM source_events\""
	validate
	assert_status 0
	assert_equal "$output" "$F: ok"
	check
	assert_status 0
	assert_jq '.check.builds[0].sql | startswith("SELECT '"'it''s'"' AS note")'
}

@test "sql: a literal that is not closed is refused" {
	own_sql "\"SELECT event_id FROM source_events WHERE event_id = '\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "a '\.\.\.' literal is not closed \(at character 53 of the SQL\)$"
}

@test "sql: a literal closed by a doubled quote only is refused" {
	own_sql "\"SELECT 'it'' FROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "a '\.\.\.' literal is not closed \(at character 8 of the SQL\)$"
}

@test "sql: a quoted identifier that is not closed is refused" {
	own_sql '"SELECT `event_id FROM source_events"'
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    'a quoted identifier \(`\.\.\.` or "\.\.\."\) is not closed \(at character 8 of the SQL\)$'
}

@test "sql: a double-quoted identifier that is not closed is refused" {
	own_sql "'SELECT \"event_id FROM source_events'"
	validate
	build_refused "$(at '^ *sql: ' "'")" properties.sql \
	    'a quoted identifier .* is not closed \(at character 8 of the SQL\)$'
}

@test "sql: a ')' that closes the query early is refused" {
	own_sql '"SELECT event_id FROM source_events) AS q CROSS JOIN (SELECT 1"'
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "a closing bracket \\(')' or ']'\\) does not close the last one opened \\(at character 35 of the SQL\\)$"
}

@test "sql: brackets that cross are refused" {
	own_sql "\"SELECT attributes[('k']) FROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "a closing bracket .* does not close the last one opened \\(at character 23 of the SQL\\)$"
}

@test "sql: a bracket left open is refused" {
	own_sql '"SELECT COALESCE(event_id, (customer.id) FROM source_events"'
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "an opening bracket \\('\\(' or '\\['\\) is not closed \\(at character 16 of the SQL\\)$"
}

@test "sql: a line break inside a literal is refused, since the runner trims lines" {
	own_sql "\"SELECT 'a\\n  b' AS note, event_id FROM source_events\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    'a line break inside a literal or quoted identifier is refused'
}

@test "sql: a line break between tokens is accepted" {
	own_sql "\"SELECT 'a' AS note,\\n  event_id\\nFROM source_events\""
	validate
	assert_status 0
	assert_equal "$output" "$F: ok"
}

@test "sql: a line starting EXECUTE STATEMENT SET is refused" {
	own_sql '"SELECT event_id\n  execute statement set AS x FROM source_events"'
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    "a line starting 'EXECUTE STATEMENT SET' is refused"
}

@test "sql: source_events inside a literal does not count as the table read" {
	own_sql "\"SELECT 'source_events' AS t FROM orders_archive\""
	validate
	build_refused "$(at '^ *sql: ' '"')" properties.sql \
	    'must be one SELECT from source_events$'
}
