/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gw.h - fluid's Flink SQL Gateway client (REST API v2), gw_: a build's
 * script applied statement by statement (fluid-gateway(1)).
 *
 * Two halves.  gw_script.c is pure: it splits a script into statements
 * with sqllex.h (fluid's own lexer of Flink SQL), names each for the
 * "ok:" lines, and turns a Java exception chain into Flink's reason
 * without its stack trace; --dry-run uses only that half.  gw.c
 * contacts the gateway through net.h (the one libcurl client), and only
 * the tools that apply include this header (tests/bats/layout.bats).
 *
 * Nothing here prints or exits: lines to show go to a callback, errors
 * into struct diags (a rejected statement is an error, status 1; an
 * unreachable gateway, a timeout or a signal is fatal, status 2).
 */
#ifndef FLUID_GW_H
#define FLUID_GW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "diag.h"

/* --- gw_script.c: pure ------------------------------------------------- */

enum gw_kind {
	GW_SET,			/* SET 'key' = 'value' */
	GW_CATALOG,		/* CREATE CATALOG */
	GW_DATABASE,		/* CREATE DATABASE */
	GW_TABLE,		/* CREATE TABLE */
	GW_SOURCE,		/* CREATE TEMPORARY TABLE: fluid's sources */
	GW_VIEW,		/* CREATE [TEMPORARY] VIEW */
	GW_INSERT,		/* INSERT INTO: starts a job */
	GW_STATEMENT_SET,	/* EXECUTE STATEMENT SET: starts a job */
	GW_OTHER
};

struct gw_stmt {
	char		*text;	/* without the closing ';' */
	size_t		 line;	/* where it starts, from 1 */
	enum gw_kind	 kind;
	char		*name;	/* what the "ok:" line names, or NULL */
};

struct gw_script {
	struct gw_stmt	*v;
	size_t		 n;
};

/*
 * Split sql into its statements: each ends at a ';' outside quotes and
 * comments (a statement set at the ';' after its END); comments between
 * statements are dropped.  Returns 0, or -1 with *why a static reason
 * and *line where the problem starts (an unclosed quote or comment, a
 * script with no statement).  s needs no init; gw_script_release().
 */
int	gw_script_split(const char *sql, struct gw_script *s,
	    const char **why, size_t *line);
void	gw_script_release(struct gw_script *);
/* "table fluid_iceberg.commerce.orders" (a new string). */
char	*gw_stmt_label(const struct gw_stmt *);
/* Whether Flink starts a job for it (an INSERT, a statement set). */
bool	gw_stmt_starts_job(const struct gw_stmt *);

/*
 * Flink's reason from its errors (a gateway's "errors" strings, joined
 * by newlines): the first exception of the chain that is not the
 * gateway's own wrapper, its class left out, and the root cause when it
 * says something more; at most a few lines of each, no "at ..." frame.
 * One line, a new string.
 */
char	*gw_reason(const char *errors);

/* --- gw.c: contacts the gateway ---------------------------------------- */

struct gw_opts {
	long	 timeout_ms;	/* the whole apply: every request, poll
				   and result page; 0: 300000 */
	long	 request_ms;	/* per request, within that; 0: 30000 */
	const volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM */
};

/*
 * Apply script through the gateway at url: open a session, run each
 * statement in order (polling its operation with backoff until it
 * finishes or fails), call ok() with one line per statement ("table
 * x.y.z", "insert x.y.z -> job ID"), and close the session, whatever
 * happened.  One deadline, timeout_ms from the start, bounds all of it
 * but the close: no request outlives it, and a request or a page it has
 * passed is not sent (a fatal error that says what was being done).
 * What ok() and session() are given is escaped (diag_escape()): the
 * gateway's job id and the script's names cannot act on a terminal.  A statement Flink refuses is an error in
 * d placed at where:line of the statement (where: the script's name),
 * with Flink's reason (gw_reason()), and nothing after it is sent.
 * Returns the status (diag_status(d)).  session(), when not NULL, is
 * told the session's handle as soon as it is open.
 */
/*
 * What a gateway's answers say, pure (gw_apply() uses them, and so does
 * tests/fuzz/fuzz_gwanswer.c).  gw_answer_reason(): Flink's "errors" as
 * gw_reason() reads them, or NULL.  gw_answer_job(): the job id of a
 * result page (jobID, or the "job id" column), escaped, or NULL.  Both
 * new strings.  gw_handle_ok(): whether a session or operation handle
 * may go into a path and a line (1 to 128 of [A-Za-z0-9_~-]).
 * gw_next_uri_ok(): whether a nextResultUri stays within this session's
 * operation: its result path, a page number, maybe a plain query.
 */
char	*gw_answer_reason(json_t *answer);
char	*gw_answer_job(const json_t *page);
bool	 gw_handle_ok(const char *handle);
bool	 gw_next_uri_ok(const char *uri, const char *session,
	    const char *op);

int	gw_apply(const struct gw_opts *, const char *url,
	    const struct gw_script *script, const char *where,
	    void (*session)(void *arg, const char *handle),
	    void (*ok)(void *arg, const char *line), void *arg,
	    struct diags *d);

#endif
