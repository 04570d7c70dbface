/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gw.c - a script applied through a Flink SQL Gateway, REST API v2
 * (see gw.h).  Every request goes through net.h; this file only knows
 * the gateway's paths and answers:
 *
 *	POST   /v2/sessions                          -> sessionHandle
 *	POST   /v2/sessions/S/statements             -> operationHandle
 *	GET    /v2/sessions/S/operations/O/status    -> status
 *	GET    /v2/sessions/S/operations/O/result/0  -> results, jobID,
 *	                                                nextResultUri
 *	DELETE /v2/sessions/S                        (also on failure)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gw.h"
#include "diag.h"
#include "net.h"
#include "clock.h"
#include "xalloc.h"

#define GW_INTERRUPTED	"interrupted by a signal; the session is closed " \
	"(statements already run stay run)"

/* Pages of one statement's result read for its job id, at most. */
#define GW_MAX_PAGES	20
/* The whole apply's deadline when gw_opts.timeout_ms is 0. */
#define GW_TIMEOUT_MS	300000

struct gw {
	const struct gw_opts	*o;
	struct net_opts		 no;
	char			*base;		/* url without a trailing '/' */
	char			*session;	/* NULL: none open */
	const char		*where;		/* the script's name */
	struct diags		*d;
	long			 deadline;	/* clk_mono_ms() of the whole apply's */
	long			 request_ms;	/* one request's own bound */
	char			 doing[160];	/* for the deadline's message */
};

static bool
stopped(const struct gw *g)
{
	return g->o->stop != NULL && *g->o->stop != 0;
}

char *
gw_answer_reason(json_t *answer)
{
	json_t *errs = json_object_get(answer, "errors"), *x;
	struct sb sb;
	char *r;
	size_t i;

	if (json_array_size(errs) == 0)
		return NULL;
	sb_init(&sb);
	json_array_foreach(errs, i, x) {
		if (!json_is_string(x))
			continue;
		/* Each string is an exception of its own. */
		if (sb.len > 0)
			sb_adds(&sb, "\nCaused by: ");
		sb_adds(&sb, json_string_value(x));
	}
	if (sb.buf == NULL)
		return NULL;
	r = gw_reason(sb.buf);
	sb_release(&sb);
	return r;
}

/* The fatal error of a deadline passed, when (before, while) g->doing. */
static int
past_deadline(struct gw *g, const char *when)
{
	diag_fatal(g->d, "the apply did not finish within %ld s: stopped %s "
	    "%s; see --timeout", (g->o->timeout_ms > 0 ? g->o->timeout_ms :
	    GW_TIMEOUT_MS) / 1000, when, g->doing);
	return -1;
}

static void __attribute__((format(printf, 2, 3)))
doing(struct gw *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->doing, sizeof(g->doing), fmt, ap);
	va_end(ap);
}

/*
 * One request, bounded by what is left of the deadline (none left: not
 * sent).  0 with *out (may be NULL); -1 after a fatal error in d (no
 * answer, the deadline, a signal, a status with no Flink reason), or -2
 * with *reason when Flink answered with its errors.
 */
static int
call(struct gw *g, const char *method, const char *path, const char *body,
    json_t **out, char **reason)
{
	struct net_err e;
	json_t *v = NULL;
	char *url = xasprintf("%s%s", g->base, path);
	long left;
	int rc;

	*out = NULL;
	if (reason != NULL)
		*reason = NULL;
	/* One deadline for the whole apply: no request outlives it. */
	left = g->deadline - clk_mono_ms();
	if (left <= 0) {
		free(url);
		return past_deadline(g, "before");
	}
	g->no.total_ms = left < g->request_ms ? left : g->request_ms;
	g->no.deadline_ms = left < 2 * g->request_ms ? left :
	    2 * g->request_ms;
	rc = net_request_json(&g->no, method, url, body, &v, &e);
	free(url);
	if (rc == -1 && (e.failure == NET_TIMEOUT || e.failure == NET_CONNECT)
	    && clk_mono_ms() >= g->deadline) {
		json_decref(v);
		return past_deadline(g, "while");
	}
	if (rc == 0) {
		*out = v;
		return 0;
	}
	if (e.failure == NET_HTTP && reason != NULL &&
	    (*reason = gw_answer_reason(v)) != NULL) {
		json_decref(v);
		return -2;
	}
	json_decref(v);
	if (e.failure == NET_CANCELED)
		diag_fatal(g->d, GW_INTERRUPTED);
	else if (e.failure == NET_CONNECT || e.failure == NET_TIMEOUT)
		diag_fatal(g->d, "the SQL Gateway is not reachable: %s", e.msg);
	else
		diag_fatal(g->d, "the SQL Gateway: %s", e.msg);
	return -1;
}

/*
 * Whether a handle the gateway gave may go into a path and a line: 1 to
 * 128 of [A-Za-z0-9_~-] (Flink's are UUIDs; no '.', so never "..").
 */
bool
gw_handle_ok(const char *h)
{
	size_t n;

	if (h == NULL || (n = strlen(h)) == 0 || n > 128)
		return false;
	return strspn(h, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_~-") == n;
}

/* The fatal error of an answer's handle that gw_handle_ok() refuses. */
static void
bad_handle(struct gw *g, const char *what, const char *h)
{
	char *shown;

	if (h == NULL || *h == '\0') {
		diag_fatal(g->d, "the SQL Gateway answered without a%s %s",
		    *what == 'o' ? "n" : "", what);
		return;
	}
	shown = diag_escape(h, 0);
	diag_fatal(g->d, "the SQL Gateway answered a %s that is not a plain "
	    "token ('%.80s%s'); not used", what, shown,
	    strlen(shown) > 80 ? "..." : "");
	free(shown);
}

static int
open_session(struct gw *g)
{
	json_t *v;
	const char *h;

	doing(g, "opening a session");
	if (call(g, "POST", "/v2/sessions",
	    "{\"sessionName\": \"fluid-gateway\"}", &v, NULL) != 0)
		return -1;
	h = json_string_value(json_object_get(v, "sessionHandle"));
	if (!gw_handle_ok(h)) {
		bad_handle(g, "sessionHandle", h);
		json_decref(v);
		return -1;
	}
	g->session = xstrdup(h);
	json_decref(v);
	return 0;
}

/* Close the session; its failure is a warning, never the result. */
static void
close_session(struct gw *g)
{
	struct net_opts no = g->no;
	struct net_err e;
	json_t *v = NULL;
	char *url;

	if (g->session == NULL)
		return;
	/* Not stopped by the signal that asked for it, and quick. */
	no.stop = NULL;
	no.attempts = 2;
	no.deadline_ms = 10000;
	no.total_ms = 5000;
	url = xasprintf("%s/v2/sessions/%s", g->base, g->session);
	if (net_request_json(&no, "DELETE", url, NULL, &v, &e) == -1)
		diag_pos(g->d, DIAG_WARNING, g->where, 0, 0, "session %s may "
		    "still be open: %s", g->session, e.msg);
	json_decref(v);
	free(url);
	free(g->session);
	g->session = NULL;
}

/* The job id of a result page, or NULL (borrowed). */
static const char *
job_of(const json_t *page)
{
	const char *id = json_string_value(json_object_get(page, "jobID"));
	json_t *res = json_object_get(page, "results"), *col, *row;

	if (id != NULL && *id != '\0')
		return id;
	col = json_array_get(json_object_get(res, "columns"), 0);
	row = json_array_get(json_object_get(res, "data"), 0);
	if (json_is_string(json_object_get(col, "name")) &&
	    strcmp(json_string_value(json_object_get(col, "name")),
	    "job id") == 0)
		return json_string_value(json_array_get(json_object_get(row,
		    "fields"), 0));
	return NULL;
}

char *
gw_answer_job(const json_t *page)
{
	const char *id = job_of(page);

	/* The gateway's text: escaped before it reaches a terminal. */
	return id != NULL ? diag_escape(id, 0) : NULL;
}

bool
gw_next_uri_ok(const char *uri, const char *session, const char *op)
{
	char *want = xasprintf("/v2/sessions/%s/operations/%s/result/",
	    session, op);
	size_t n = strlen(want), k;
	const char *p = uri + n;
	bool ok = strncmp(uri, want, n) == 0;

	free(want);
	if (!ok)
		return false;
	/* A page token, then maybe a plain query: no '/', no "..". */
	k = strspn(p, "0123456789");
	if (k == 0 || k > 9)
		return false;
	p += k;
	return *p == '\0' || (*p == '?' && strspn(p + 1,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	    "=&_-") == strlen(p + 1));
}

/*
 * Run one statement: submit, poll, read its result.  0 with *job (a new
 * string or NULL); -1 fatal; -2 with *reason (Flink refused it).
 */
static int
run_one(struct gw *g, size_t k, const struct gw_stmt *st, char **job,
    char **reason)
{
	long wait = 50;
	json_t *body, *v = NULL;
	const char *op, *status, *next;
	char *text, *path = NULL, *opid = NULL, *last = NULL;
	bool errored = false;
	int rc, pages;

	*job = NULL;
	body = json_pack("{s:s}", "statement", st->text);
	text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	path = xasprintf("/v2/sessions/%s/statements", g->session);
	doing(g, "submitting statement %zu", k);
	rc = call(g, "POST", path, text, &v, reason);
	free(path);
	path = NULL;
	free(text);
	if (rc != 0)
		return rc;
	op = json_string_value(json_object_get(v, "operationHandle"));
	if (!gw_handle_ok(op)) {
		bad_handle(g, "operationHandle", op);
		json_decref(v);
		return -1;
	}
	opid = xstrdup(op);
	json_decref(v);
	/* Poll with backoff: 50 ms, doubling to 1 s, until the deadline. */
	for (;;) {
		path = xasprintf("/v2/sessions/%s/operations/%s/status",
		    g->session, opid);
		if (last == NULL)
			doing(g, "reading the status of statement %zu", k);
		else
			doing(g, "waiting for statement %zu (status %.20s)", k,
			    last);
		rc = call(g, "GET", path, NULL, &v, reason);
		free(path);
		path = NULL;
		if (rc != 0)
			goto out;
		status = json_string_value(json_object_get(v, "status"));
		if (status == NULL) {
			diag_fatal(g->d, "the SQL Gateway answered an "
			    "operation's status without one");
			rc = -1;
			goto out;
		}
		errored = strcmp(status, "ERROR") == 0;
		if (strcmp(status, "FINISHED") == 0 || errored)
			break;
		if (strcmp(status, "CANCELED") == 0 ||
		    strcmp(status, "CLOSED") == 0 ||
		    strcmp(status, "TIMEOUT") == 0) {
			diag_fatal(g->d, "the SQL Gateway reports the "
			    "statement %s", status);
			rc = -1;
			goto out;
		}
		free(last);
		last = xstrdup(status);
		json_decref(v);
		v = NULL;
		if (stopped(g)) {
			diag_fatal(g->d, GW_INTERRUPTED);
			rc = -1;
			goto out;
		}
		if (clk_mono_ms() + wait > g->deadline) {
			doing(g, "waiting for statement %zu (status %.20s)", k,
			    last);
			rc = past_deadline(g, "while");
			goto out;
		}
		clk_sleep_ms(wait);
		wait = wait * 2 > 1000 ? 1000 : wait * 2;
	}
	json_decref(v);
	v = NULL;
	/* The result: an ERROR's reason, or the job id of an INSERT. */
	path = xasprintf("/v2/sessions/%s/operations/%s/result/0"
	    "?rowFormat=JSON", g->session, opid);
	for (pages = 0; pages < GW_MAX_PAGES; pages++) {
		doing(g, "reading result page %d of statement %zu", pages + 1,
		    k);
		rc = call(g, "GET", path, NULL, &v, reason);
		free(path);
		path = NULL;
		if (rc != 0)
			goto out;
		if (errored) {
			/* Flink sends the reason as an error; not here. */
			*reason = xstrdup("the gateway reports the statement "
			    "failed, without a reason");
			rc = -2;
			goto out;
		}
		if ((*job = gw_answer_job(v)) != NULL)
			break;
		next = json_string_value(json_object_get(v, "nextResultUri"));
		if (!gw_stmt_starts_job(st) || next == NULL ||
		    strcmp(json_string_value(json_object_get(v,
		    "resultType")) ? json_string_value(json_object_get(v,
		    "resultType")) : "", "EOS") == 0)
			break;
		if (!gw_next_uri_ok(next, g->session, opid)) {
			diag_fatal(g->d, "the SQL Gateway's nextResultUri "
			    "leads elsewhere; not followed");
			rc = -1;
			goto out;
		}
		path = xstrdup(next);
		json_decref(v);
		v = NULL;
	}
	rc = 0;
out:
	free(path);
	path = NULL;
	json_decref(v);
	free(opid);
	free(last);
	return rc;
}

int
gw_apply(const struct gw_opts *o, const char *url,
    const struct gw_script *sc, const char *where,
    void (*session)(void *, const char *), void (*ok)(void *, const char *),
    void *arg, struct diags *d)
{
	struct gw g;
	char *job, *reason, *label, *line;
	size_t i, n;
	int rc = 0;

	memset(&g, 0, sizeof(g));
	g.o = o;
	g.d = d;
	g.where = where;
	g.no.stop = o->stop;
	g.request_ms = o->request_ms > 0 ? o->request_ms : 30000;
	g.no.connect_ms = 5000;
	g.deadline = clk_mono_ms() + (o->timeout_ms > 0 ? o->timeout_ms :
	    GW_TIMEOUT_MS);
	n = strlen(url);
	while (n > 0 && url[n - 1] == '/')
		n--;
	g.base = xstrndup(url, n);
	if (open_session(&g) == -1)
		goto out;
	/* gw_handle_ok(): nothing in it a terminal acts on. */
	if (session != NULL)
		session(arg, g.session);
	for (i = 0; i < sc->n; i++) {
		if (stopped(&g)) {
			diag_fatal(d, GW_INTERRUPTED);
			break;
		}
		rc = run_one(&g, i + 1, &sc->v[i], &job, &reason);
		label = gw_stmt_label(&sc->v[i]);
		if (rc == -2) {
			diag_pos(d, DIAG_ERROR, where, (int)sc->v[i].line, 1,
			    "statement %zu (%s): Flink refused it: %s", i + 1,
			    label, reason);
			free(reason);
		} else if (rc == 0 && gw_stmt_starts_job(&sc->v[i]) &&
		    job == NULL)
			diag_fatal(d, "statement %zu (%s): the SQL Gateway "
			    "finished it without a job id", i + 1, label);
		else if (rc == 0) {
			line = job ? xasprintf("%s -> job %s", label, job) :
			    xstrdup(label);
			ok(arg, line);
			free(line);
		} else if (d->nfatal > 0) {
			/* Say which statement the fatal error stopped. */
			diag_pos(d, DIAG_WARNING, where, (int)sc->v[i].line, 1,
			    "stopped at statement %zu (%s); nothing after it "
			    "was sent", i + 1, label);
		}
		free(label);
		free(job);
		if (rc != 0 || d->nfatal > 0)
			break;
	}
out:
	close_session(&g);
	free(g.base);
	return diag_status(d);
}
