/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_gw.c - what lib/gw.c reads from a gateway's answers, without a
 * gateway: handles that may go into a path, a nextResultUri that stays
 * within its operation, a job id escaped before any terminal, and
 * diag_escape(), the one escaping of text from outside.
 */
#include <stdlib.h>
#include <string.h>

#include "gw.h"
#include "tap.h"

#define S	"6f1c9e2a-58a4-4b5e-9d2c-7a0e1b3c4d5e"
#define O	"0c4e3f7e-5b1c-4a0e-9d42-1f8a6f4b2c11"
#define R	"/v2/sessions/" S "/operations/" O "/result/"

static void
t_handles(void)
{
	ok(gw_handle_ok(S), "a UUID is a handle");
	ok(!gw_handle_ok(NULL) && !gw_handle_ok(""), "none is not");
	ok(!gw_handle_ok("a/b") && !gw_handle_ok("a?b") &&
	    !gw_handle_ok("a%2f") && !gw_handle_ok(".."), "nor a path");
	ok(gw_handle_ok("ab_c~d-1"), "the unreserved characters but '.' are");
	ok(!gw_handle_ok("a.b"), "a '.' is not");
	ok(!gw_handle_ok("s\x1b[31mred") && !gw_handle_ok("s\xe2\x80\xae"),
	    "a control character or a bidi control is not");
}

static void
t_next(void)
{
	ok(gw_next_uri_ok(R "1?rowFormat=JSON", S, O), "Flink's next page");
	ok(gw_next_uri_ok(R "12", S, O), "without a query");
	ok(!gw_next_uri_ok(R "../../../../v1/jobs", S, O), "not up the path "
	    "(libcurl would resolve the dot segments)");
	ok(!gw_next_uri_ok(R "1/../../x", S, O), "nor after a page");
	ok(!gw_next_uri_ok(R "1?a=b#frag", S, O) &&
	    !gw_next_uri_ok(R "1?u=@evil", S, O), "no fragment, no '@'");
	ok(!gw_next_uri_ok("/v2/sessions/" S "/operations/other/result/1", S,
	    O), "not another operation");
	ok(!gw_next_uri_ok("http://evil.example" R "1", S, O), "not a URL");
	ok(!gw_next_uri_ok(R, S, O), "a page number is needed");
}

static void
t_answers(void)
{
	json_t *v;
	char *s;

	v = json_pack("{s:s}", "jobID", "7d3f\x1b[2J\xe2\x80\xae\xc2\x9b" "1m");
	s = gw_answer_job(v);
	is_str(s, "7d3f\\x1b[2J\\u202e\\u009b1m", "a job id is escaped");
	free(s);
	json_decref(v);
	v = json_pack("{s:{s:[{s:s}], s:[{s:[s]}]}}", "results", "columns",
	    "name", "job id", "data", "fields", "abc\ndef");
	s = gw_answer_job(v);
	is_str(s, "abc\\ndef", "from the job id column too");
	free(s);
	json_decref(v);
	v = json_pack("{s:s}", "resultType", "EOS");
	ok(gw_answer_job(v) == NULL, "no job id: NULL");
	json_decref(v);
	v = json_pack("{s:[s, s]}", "errors", "Internal server error.",
	    "org.apache.flink.table.api.ValidationException: Object "
	    "'t\x1b[1m' not found\n\tat x.y.Z.f(Z.java:1)");
	s = gw_answer_reason(v);
	ok(s != NULL && strstr(s, "Object 't") != NULL &&
	    strchr(s, '\x1b') == NULL && strchr(s, '\n') == NULL,
	    "Flink's reason, one line without a control character: %s", s);
	free(s);
	json_decref(v);
}

static void
t_escape(void)
{
	char *s;

	s = diag_escape("plain text, ünïcode", 0);
	is_str(s, "plain text, ünïcode", "text is kept");
	free(s);
	s = diag_escape("a\nb\tc\rd\x1b[0m\x7f", 0);
	is_str(s, "a\\nb\\tc\\rd\\x1b[0m\\x7f", "control characters");
	free(s);
	s = diag_escape("\xc2\x9b" "31m \xe2\x80\xae \xe2\x80\xa8 \xef\xbb\xbf "
	    "\xff", 0);
	is_str(s, "\\u009b31m \\u202e \\u2028 \\ufeff \\xff", "C1 controls, "
	    "bidi and line separators, a BOM, a byte that is not UTF-8");
	free(s);
	s = diag_escape("SET 'a' = 'b';\n\tINSERT \x1b[2J", DIAG_ESCAPE_LINES);
	is_str(s, "SET 'a' = 'b';\n\tINSERT \\x1b[2J", "DIAG_ESCAPE_LINES "
	    "keeps newlines and tabs, nothing else");
	free(s);
	s = diag_escape("", 0);
	is_str(s, "", "the empty string");
	free(s);
}

static void
t_label(void)
{
	struct gw_script sc;
	const char *why;
	size_t line;
	char *s;

	ok(gw_script_split("INSERT INTO `t\x1b[1m\xe2\x80\xae` SELECT 1;", &sc,
	    &why, &line) == 0, "a script with escapes in a name");
	s = gw_stmt_label(&sc.v[0]);
	is_str(s, "insert t\\x1b[1m\\u202e", "its label is escaped");
	free(s);
	gw_script_release(&sc);
}

int
main(void)
{
	t_handles();
	t_next();
	t_answers();
	t_escape();
	t_label();
	return done_testing();
}
