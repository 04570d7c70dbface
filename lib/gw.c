/*
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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gw.h"
#include "net.h"
#include "xalloc.h"

#define GW_INTERRUPTED	"interrupted by a signal; the session is closed " \
	"(statements already run stay run)"

/* Pages of one statement's result read for its job id, at most. */
#define GW_MAX_PAGES	20

struct gw {
	const struct gw_opts	*o;
	struct net_opts		 no;
	char			*base;		/* url without a trailing '/' */
	char			*session;	/* NULL: none open */
	const char		*where;		/* the script's name */
	struct diags		*d;
};

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static bool
stopped(const struct gw *g)
{
	return g->o->stop != NULL && *g->o->stop != 0;
}

/* Flink's "errors" strings as gw_reason() reads them, or NULL. */
static char *
flink_reason(json_t *answer)
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

/*
 * One request.  0 with *out (may be NULL); -1 after a fatal error in d
 * (no answer, a signal, a status with no Flink reason), or -2 with
 * *reason when Flink answered with its errors.
 */
static int
call(struct gw *g, const char *method, const char *path, const char *body,
    json_t **out, char **reason)
{
	struct net_err e;
	json_t *v = NULL;
	char *url = xasprintf("%s%s", g->base, path);
	int rc;

	*out = NULL;
	if (reason != NULL)
		*reason = NULL;
	rc = net_request_json(&g->no, method, url, body, &v, &e);
	free(url);
	if (rc == 0) {
		*out = v;
		return 0;
	}
	if (e.failure == NET_HTTP && reason != NULL &&
	    (*reason = flink_reason(v)) != NULL) {
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

static int
open_session(struct gw *g)
{
	json_t *v;
	const char *h;

	if (call(g, "POST", "/v2/sessions",
	    "{\"sessionName\": \"fluid-gateway\"}", &v, NULL) != 0)
		return -1;
	h = json_string_value(json_object_get(v, "sessionHandle"));
	if (h == NULL || *h == '\0' || strpbrk(h, "/?#%") != NULL) {
		diag_fatal(g->d, "the SQL Gateway opened no session (no "
		    "sessionHandle in its answer)");
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
job_of(json_t *page)
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

/*
 * Whether a nextResultUri may be followed: a path of this session's
 * operation on the same gateway, nothing else.
 */
static bool
own_uri(const struct gw *g, const char *uri, const char *op)
{
	char *want = xasprintf("/v2/sessions/%s/operations/%s/result/",
	    g->session, op);
	bool ok = strncmp(uri, want, strlen(want)) == 0 &&
	    strpbrk(uri + strlen(want), "#@\\") == NULL;

	free(want);
	return ok;
}

/*
 * Run one statement: submit, poll, read its result.  0 with *job (a new
 * string or NULL); -1 fatal; -2 with *reason (Flink refused it).
 */
static int
run_one(struct gw *g, const struct gw_stmt *st, char **job, char **reason)
{
	long deadline = now_ms() + (g->o->timeout_ms > 0 ?
	    g->o->timeout_ms : 120000), wait = 50;
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
	rc = call(g, "POST", path, text, &v, reason);
	free(path);
	path = NULL;
	free(text);
	if (rc != 0)
		return rc;
	op = json_string_value(json_object_get(v, "operationHandle"));
	if (op == NULL || *op == '\0' || strpbrk(op, "/?#%") != NULL) {
		diag_fatal(g->d, "the SQL Gateway answered without an "
		    "operationHandle");
		json_decref(v);
		return -1;
	}
	opid = xstrdup(op);
	json_decref(v);
	/* Poll with backoff: 50 ms, doubling to 1 s, until the deadline. */
	for (;;) {
		path = xasprintf("/v2/sessions/%s/operations/%s/status",
		    g->session, opid);
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
		if (now_ms() + wait > deadline) {
			diag_fatal(g->d, "the statement did not finish within "
			    "%ld s (status %s); see --timeout",
			    (g->o->timeout_ms > 0 ? g->o->timeout_ms :
			    120000) / 1000, last);
			rc = -1;
			goto out;
		}
		sleep_ms(wait);
		wait = wait * 2 > 1000 ? 1000 : wait * 2;
	}
	json_decref(v);
	v = NULL;
	/* The result: an ERROR's reason, or the job id of an INSERT. */
	path = xasprintf("/v2/sessions/%s/operations/%s/result/0"
	    "?rowFormat=JSON", g->session, opid);
	for (pages = 0; pages < GW_MAX_PAGES; pages++) {
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
		if (job_of(v) != NULL) {
			*job = xstrdup(job_of(v));
			break;
		}
		next = json_string_value(json_object_get(v, "nextResultUri"));
		if (!gw_stmt_starts_job(st) || next == NULL ||
		    strcmp(json_string_value(json_object_get(v,
		    "resultType")) ? json_string_value(json_object_get(v,
		    "resultType")) : "", "EOS") == 0)
			break;
		if (!own_uri(g, next, opid)) {
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
	g.no.total_ms = o->request_ms > 0 ? o->request_ms : 30000;
	g.no.deadline_ms = g.no.total_ms * 2;
	g.no.connect_ms = 5000;
	n = strlen(url);
	while (n > 0 && url[n - 1] == '/')
		n--;
	g.base = xstrndup(url, n);
	if (open_session(&g) == -1)
		goto out;
	if (session != NULL)
		session(arg, g.session);
	for (i = 0; i < sc->n; i++) {
		if (stopped(&g)) {
			diag_fatal(d, GW_INTERRUPTED);
			break;
		}
		rc = run_one(&g, &sc->v[i], &job, &reason);
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
