/*
 * kube.c - kubectl, run with a context, a request timeout and a deadline
 * of fluid's own (kube.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kube.h"
#include "proc.h"

int
kube_init(struct kube *k, const char *context, char *(*env)(const char *),
    struct diags *d)
{
	const char *s;
	char *end;
	long v;

	k->kubectl = "kubectl";
	if ((s = env("KUBECTL")) != NULL && *s != '\0')
		k->kubectl = s;
	k->context = context;
	k->request_timeout_s = KUBE_REQUEST_TIMEOUT_S;
	k->deadline_s = KUBE_DEADLINE_S;
	if ((s = env("FLUID_KUBECTL_DEADLINE_S")) == NULL || *s == '\0')
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1 || v > 3600) {
		diag_fatal(d, "FLUID_KUBECTL_DEADLINE_S='%s' is not a whole "
		    "number of seconds from 1 to 3600", s);
		return -1;
	}
	k->deadline_s = (int)v;
	if (k->request_timeout_s > k->deadline_s)
		k->request_timeout_s = k->deadline_s;
	return 0;
}

void
kube_run_release(struct kube_run *r)
{
	sb_release(&r->out);
	sb_release(&r->err);
}

/* The argv of a run (a new array of borrowed strings but two). */
static char **
make_argv(const struct kube *k, const char *const *args, char **ctx,
    char **rt)
{
	size_t n = 0, i;
	char **argv;

	while (args[n] != NULL)
		n++;
	argv = xreallocarray(NULL, n + 4, sizeof(*argv));
	*ctx = xasprintf("--context=%s", k->context);
	*rt = xasprintf("--request-timeout=%ds", k->request_timeout_s);
	argv[0] = (char *)k->kubectl;
	argv[1] = *ctx;
	argv[2] = *rt;
	for (i = 0; i < n; i++)
		argv[i + 3] = (char *)args[i];
	argv[n + 3] = NULL;
	return argv;
}

/* kube_exec(), its standard output bounded by max bytes. */
static int
exec_max(const struct kube *k, const char *const *args, const char *in,
    size_t inlen, size_t max, struct kube_run *r)
{
	struct proc_spec s;
	struct proc_run pr;
	char **argv, *ctx, *rt;
	int rc;

	argv = make_argv(k, args, &ctx, &rt);
	memset(&s, 0, sizeof(s));
	s.argv = (const char *const *)argv;
	s.in = in != NULL ? in : "";	/* a pipe, closed at once when empty */
	s.inlen = inlen;
	s.out_max = max;
	s.err_max = KUBE_OUTPUT_MAX;
	s.deadline_ms = (long long)k->deadline_s * 1000;
	s.group = 1;
	rc = proc_exec(&s, &pr);
	free(argv);
	free(ctx);
	free(rt);
	r->status = pr.status;
	r->spawn_errno = pr.spawn_errno;
	r->timed_out = pr.timed_out;
	r->signal = pr.signal;
	r->too_big = pr.too_big;
	r->out = pr.out;
	r->err = pr.err;
	return rc;
}

int
kube_exec(const struct kube *k, const char *const *args, const char *in,
    size_t inlen, struct kube_run *r)
{
	return exec_max(k, args, in, inlen, KUBE_OUTPUT_MAX, r);
}

int
kube_unreachable(const struct kube_run *r)
{
	static const char *const signs[] = {
		"The connection to the server",
		"Unable to connect to the server",
		"context was not found",
		"dial tcp",
		"i/o timeout",
		"TLS handshake timeout",
		"context deadline exceeded",
		"Client.Timeout",
		"no such host",
		"connection refused",
		"certificate signed by unknown authority",
		"You must be logged in to the server",
		"the server has asked for the client to provide credentials",
		"invalid configuration",
		"net/http: request canceled",
		"the server was unable to return a response in the time",
		NULL
	};
	size_t i;

	/* An answer past the bound is the environment's failure too. */
	if (r->spawn_errno != 0 || r->timed_out || r->signal != 0 ||
	    r->too_big)
		return 1;
	if (r->err.buf == NULL)
		return 0;
	for (i = 0; signs[i] != NULL; i++)
		if (strstr(r->err.buf, signs[i]) != NULL)
			return 1;
	return 0;
}

/*
 * kubectl's message as one line: its standard error with each run of
 * blanks and newlines made one space (a conflict is several lines: the
 * fields and the managers are in the middle), at most 2000 bytes.
 */
static char *
said(const struct kube_run *r)
{
	const char *s = r->err.buf != NULL ? r->err.buf : "";
	struct sb b;
	int blank = 0;

	sb_init(&b);
	for (; *s != '\0' && b.len < 2000; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			blank = 1;
			continue;
		}
		if (blank && b.len > 0)
			sb_addc(&b, ' ');
		blank = 0;
		sb_addc(&b, *s);
	}
	if (b.len == 0)
		sb_adds(&b, "(kubectl said nothing)");
	return sb_steal(&b);
}

/* Why a run did not reach the cluster, as a fatal diagnostic. */
static void
not_reached(const struct kube *k, const struct kube_run *r,
    const char *what, struct diags *d)
{
	char *msg;

	if (r->spawn_errno != 0) {
		errno = r->spawn_errno;
		diag_fatal(d, "cannot run '%s' (set KUBECTL to name kubectl) "
		    "to %s:", k->kubectl, what);
		return;
	}
	if (r->timed_out) {
		diag_fatal(d, "kubectl --context=%s did not finish %s within "
		    "%d s (fluid's deadline; FLUID_KUBECTL_DEADLINE_S): "
		    "killed; the cluster is not answering", k->context, what,
		    k->deadline_s);
		return;
	}
	if (r->signal != 0) {
		diag_fatal(d, "kubectl --context=%s was killed by signal %d "
		    "during %s", k->context, r->signal, what);
		return;
	}
	if (r->too_big) {
		diag_fatal(d, "kubectl --context=%s: %s: the answer is larger "
		    "than %u bytes; not read", k->context, what,
		    KUBE_OUTPUT_MAX);
		return;
	}
	msg = said(r);
	diag_fatal(d, "kubectl --context=%s cannot %s: %s", k->context, what,
	    msg);
	free(msg);
}

int
kube_get(const struct kube *k, const char *kind, const char *ns,
    const char *name, json_t **obj, struct diags *d)
{
	/* Data only as --flag=value or after "--": never a flag. */
	char *nsf = xasprintf("--namespace=%s", ns);
	const char *args[] = { "get", nsf, "--output=json",
	    "--ignore-not-found", "--", kind, name, NULL };
	struct kube_run r;
	json_error_t err;
	char *what;
	int rc = -1;

	*obj = NULL;
	what = xasprintf("read %s %s/%s", kind, ns, name);
	if (kube_exec(k, args, NULL, 0, &r) == -1) {
		not_reached(k, &r, what, d);
		goto out;
	}
	/* --ignore-not-found: nothing at all when it does not exist. */
	if (strspn(r.out.buf, " \t\r\n") == r.out.len) {
		rc = 0;
		goto out;
	}
	*obj = json_loadb(r.out.buf, r.out.len, 0, &err);
	if (!json_is_object(*obj)) {
		json_decref(*obj);
		*obj = NULL;
		diag_fatal(d, "kubectl --context=%s: %s: not a JSON object: "
		    "%s", k->context, what, err.text);
		goto out;
	}
	rc = 1;
out:
	free(what);
	free(nsf);
	kube_run_release(&r);
	return rc;
}

int
kube_apply(const struct kube *k, const json_t *obj, json_t **live,
    struct diags *d)
{
	/*
	 * Never --force-conflicts: a field another manager owns is theirs
	 * until a person decides otherwise.
	 */
	const char *args[] = { "apply", "--server-side", "--field-manager=fluid",
	    "--validate=strict", "--output=json", "--filename=-", NULL };
	const json_t *md = json_object_get(obj, "metadata");
	struct kube_run r;
	json_error_t err;
	char *text, *what, *msg;
	int rc = -1;

	if (live != NULL)
		*live = NULL;
	what = xasprintf("apply %s %s/%s",
	    json_string_value(json_object_get(obj, "kind")),
	    json_string_value(json_object_get(md, "namespace")),
	    json_string_value(json_object_get(md, "name")));
	if ((text = json_dumps(obj, JSON_COMPACT)) == NULL) {
		diag_fatal(d, "cannot write the resource to %s", what);
		free(what);
		return -1;
	}
	if (kube_exec(k, args, text, strlen(text), &r) == -1) {
		if (kube_unreachable(&r))
			not_reached(k, &r, what, d);
		else {
			msg = said(&r);
			diag_at(d, DIAG_ERROR, NULL, "%s refused by the API "
			    "server: %s", what, msg);
			free(msg);
		}
		goto out;
	}
	if (live != NULL) {
		*live = json_loadb(r.out.buf, r.out.len, 0, &err);
		if (!json_is_object(*live)) {
			json_decref(*live);
			*live = NULL;
			diag_fatal(d, "kubectl --context=%s: %s: not a JSON "
			    "object: %s", k->context, what, err.text);
			goto out;
		}
	}
	rc = 0;
out:
	free(text);
	free(what);
	kube_run_release(&r);
	return rc;
}

int
kube_get_raw(const struct kube *k, const char *path, json_t **obj,
    char **why, int *unreached)
{
	char *raw = xasprintf("--raw=%s", path);
	const char *args[] = { "get", raw, NULL };
	struct kube_run r;
	struct diags d;
	json_error_t err;
	int rc = -1, u = 0;

	*obj = NULL;
	*why = NULL;
	/*
	 * Bounded like an HTTP answer (net.h): past KUBE_RAW_MAX kubectl is
	 * stopped, nothing more is read or parsed, and the caller is told
	 * (-2) that asking again would only read as much again.
	 */
	if (exec_max(k, args, NULL, 0, KUBE_RAW_MAX, &r) == -1) {
		if (r.too_big) {
			*why = xasprintf("kubectl --context=%s get --raw %s: "
			    "the answer is larger than %u bytes; not read",
			    k->context, path, KUBE_RAW_MAX);
			rc = -2;
		} else if ((u = kube_unreachable(&r)) != 0) {
			diags_init(&d);
			not_reached(k, &r, "read the API server", &d);
			*why = xstrdup(d.n > 0 ? d.v[d.n - 1].msg :
			    "kubectl failed");
			diags_release(&d);
		} else {
			*why = said(&r);
			/* "Error from server (NotFound): ..." */
			if (strstr(*why, "(NotFound)") != NULL)
				rc = 0;
		}
		goto out;
	}
	*obj = json_loadb(r.out.buf, r.out.len, 0, &err);
	if (!json_is_object(*obj)) {
		json_decref(*obj);
		*obj = NULL;
		*why = xasprintf("kubectl --context=%s get --raw %s: not a "
		    "JSON object: %s", k->context, path, err.text);
		goto out;
	}
	rc = 1;
out:
	if (unreached != NULL)
		*unreached = u;
	kube_run_release(&r);
	free(raw);
	return rc;
}
