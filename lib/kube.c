/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube.c - kubectl, run with a context, a request timeout and a deadline
 * of fluid's own (kube.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jget.h"
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

/* The kind, namespace and name of obj as "Kind ns/name". */
static char *
obj_label(const json_t *obj)
{
	const json_t *md = json_object_get(obj, "metadata");

	return xasprintf("%s %s/%s",
	    json_string_value(json_object_get(obj, "kind")),
	    json_string_value(json_object_get(md, "namespace")),
	    json_string_value(json_object_get(md, "name")));
}

static int
same_str(const json_t *a, const json_t *b)
{
	return json_is_string(a) && json_is_string(b) &&
	    strcmp(json_string_value(a), json_string_value(b)) == 0;
}

/* Whether live names the object obj names (kind, namespace, name). */
static int
same_object(const json_t *obj, const json_t *live)
{
	const json_t *a = json_object_get(obj, "metadata");
	const json_t *b = json_object_get(live, "metadata");

	return same_str(json_object_get(obj, "kind"),
	    json_object_get(live, "kind")) &&
	    same_str(json_object_get(a, "name"), json_object_get(b, "name")) &&
	    (json_object_get(a, "namespace") == NULL ||
	    same_str(json_object_get(a, "namespace"),
	    json_object_get(b, "namespace")));
}

/*
 * kubectl apply's answer (out) for objs, as an array in objs' order: the
 * object when one was applied, else a List whose items are matched to
 * objs by kind, namespace and name.  NULL, *why set, when it is not.
 */
static json_t *
applied_lives(const struct kube_run *r, const json_t *objs,
    const char **why)
{
	json_t *ans, *lives = NULL, *items, *it;
	size_t i, j, n = json_array_size(objs);
	json_error_t err;

	ans = json_loadb(r->out.buf, r->out.len, 0, &err);
	*why = "not a JSON object";
	if (!json_is_object(ans))
		goto out;
	if (n == 1) {
		lives = json_pack("[O]", ans);
		goto out;
	}
	items = json_object_get(ans, "items");
	*why = "not a List of the objects applied";
	if (!json_is_array(items) || json_array_size(items) != n)
		goto out;
	lives = json_array();
	for (i = 0; i < n; i++) {
		/* In objs' order, as kubectl applies them; else looked for. */
		it = json_array_get(items, i);
		if (!same_object(json_array_get(objs, i), it)) {
			json_array_foreach(items, j, it)
				if (same_object(json_array_get(objs, i), it))
					break;
			if (j == n) {
				json_decref(lives);
				lives = NULL;
				goto out;
			}
		}
		json_array_append(lives, it);
	}
out:
	json_decref(ans);
	return lives;
}

int
kube_apply_list(const struct kube *k, const json_t *objs, json_t **lives,
    struct diags *d)
{
	/*
	 * Never --force-conflicts: a field another manager owns is theirs
	 * until a person decides otherwise.
	 */
	const char *args[] = { "apply", "--server-side", "--field-manager=fluid",
	    "--validate=strict", "--output=json", "--filename=-", NULL };
	size_t n = json_array_size(objs);
	struct kube_run r;
	json_t *list;
	const char *bad;
	char *text, *what, *first, *msg;
	int rc = -1;

	if (lives != NULL)
		*lives = NULL;
	if (n == 0)
		return 0;
	first = obj_label(json_array_get(objs, 0));
	what = n == 1 ? xasprintf("apply %s", first) :
	    xasprintf("apply %s and %zu more", first, n - 1);
	free(first);
	/* One object as itself; several as one List, applied in order. */
	list = n == 1 ? json_incref(json_array_get(objs, 0)) :
	    json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List",
	    "items", objs);
	text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	if (text == NULL) {
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
	if (lives != NULL && (*lives = applied_lives(&r, objs, &bad)) == NULL) {
		diag_fatal(d, "kubectl --context=%s: %s: %s", k->context, what,
		    bad);
		goto out;
	}
	rc = 0;
out:
	free(text);
	free(what);
	kube_run_release(&r);
	return rc;
}

int
kube_apply(const struct kube *k, const json_t *obj, json_t **live,
    struct diags *d)
{
	json_t *objs = json_pack("[O]", obj), *lives = NULL;
	int rc;

	rc = kube_apply_list(k, objs, live != NULL ? &lives : NULL, d);
	if (live != NULL) {
		*live = rc == 0 ? json_incref(json_array_get(lives, 0)) : NULL;
		json_decref(lives);
	}
	json_decref(objs);
	return rc;
}

/*
 * Whether it, read from the cluster, is an object of kind (the
 * lower-case name kubectl is asked by: "flinkdeployment" for
 * FlinkDeployment) in ns: the API server always says both of a
 * namespaced object, so an answer that does not is not taken.
 */
int
kube_item_is(const json_t *it, const char *kind, const char *ns)
{
	const json_t *k = json_object_get(it, "kind");
	const json_t *n = json_object_get(json_object_get(it, "metadata"),
	    "namespace");

	return json_is_object(it) && json_is_string(k) &&
	    strcasecmp(json_string_value(k), kind) == 0 &&
	    json_is_string(n) && strcmp(json_string_value(n), ns) == 0;
}

/* Whether s is one of names. */
static int
asked(const char *s, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return 1;
	return 0;
}

int
kube_get_many(const struct kube *k, const char *kind, const char *ns,
    const char *const *names, size_t n, int managed, json_t **found,
    struct kube_run *r, char **why)
{
	/* Data only as --flag=value or after "--": never a flag. */
	char *nsf = xasprintf("--namespace=%s", ns);
	const char **args = xreallocarray(NULL, n + 8, sizeof(*args));
	json_t *ans = NULL, *items, *it;
	const char *name;
	json_error_t err;
	size_t a = 0, i;
	int rc = -2;

	*found = NULL;
	*why = NULL;
	memset(r, 0, sizeof(*r));
	if (n == 0) {
		/* Never "get KIND" alone: that would list every one. */
		*found = json_object();
		free(args);
		free(nsf);
		return 0;
	}
	args[a++] = "get";
	args[a++] = nsf;
	args[a++] = "--output=json";
	args[a++] = "--ignore-not-found";
	if (managed)
		args[a++] = "--show-managed-fields";
	args[a++] = "--";
	args[a++] = kind;
	/*
	 * kubectl reads each name with a GET of its own, past a burst of
	 * 10 at 5 a second (client-go's default rate): many names are one
	 * LIST of the kind instead, its other objects never looked at.
	 */
	for (i = 0; n <= KUBE_GET_NAMES_MAX && i < n; i++)
		args[a++] = names[i];
	args[a] = NULL;
	if (kube_exec(k, args, NULL, 0, r) == -1) {
		rc = -1;
		goto out;
	}
	*found = json_object();
	/* --ignore-not-found: nothing at all when none exists. */
	if (r->out.len == 0 ||
	    strspn(r->out.buf, " \t\r\n") == r->out.len) {
		rc = 0;
		goto out;
	}
	ans = json_loadb(r->out.buf, r->out.len, JSON_REJECT_DUPLICATES, &err);
	if (!json_is_object(ans)) {
		*why = xasprintf("not a JSON object: %s", ans == NULL ?
		    err.text : "another value");
		goto out;
	}
	items = json_object_get(ans, "items");
	if (json_is_array(items) && json_is_string(json_object_get(ans,
	    "kind")) && strcmp(json_string_value(json_object_get(ans,
	    "kind")), "List") == 0) {
		json_array_foreach(items, i, it) {
			name = json_string_value(json_object_get(
			    json_object_get(it, "metadata"), "name"));
			/* A LIST holds the others too: not asked, not read. */
			if (n > KUBE_GET_NAMES_MAX && json_is_string(json_object_get(
			    json_object_get(it, "metadata"), "name")) &&
			    !asked(name, names, n))
				continue;
			if (!kube_item_is(it, kind, ns) || !asked(name, names, n) ||
			    json_object_get(*found, name) != NULL) {
				*why = xasprintf("the List's item %zu is not "
				    "one of the %s objects asked for, once", i,
				    kind);
				goto out;
			}
			json_object_set(*found, name, it);
		}
		rc = 0;
		goto out;
	}
	/*
	 * One object: the API server's answer to a read of one name, as
	 * kube_get() takes it (what it holds is for the caller to check).
	 */
	name = json_string_value(json_object_get(json_object_get(ans,
	    "metadata"), "name"));
	if (n != 1 || (name != NULL && strcmp(name, names[0]) != 0)) {
		*why = xasprintf("an object that is not the %s asked for",
		    kind);
		goto out;
	}
	json_object_set(*found, names[0], ans);
	rc = 0;
out:
	if (rc == -2) {
		json_decref(*found);
		*found = NULL;
	}
	json_decref(ans);
	free(args);
	free(nsf);
	return rc;
}

int
kube_get_names(const struct kube *k, const char *kind, const char *ns,
    const char *const *names, size_t n, json_t **found, struct diags *d)
{
	struct kube_run r;
	char *what, *why = NULL;
	int rc;

	rc = kube_get_many(k, kind, ns, names, n, 0, found, &r, &why);
	if (rc == 0) {
		kube_run_release(&r);
		return 0;
	}
	what = n == 1 ? xasprintf("read %s %s/%s", kind, ns, names[0]) :
	    xasprintf("read %s %s/%s and %zu more", kind, ns, names[0],
	    n - 1);
	if (rc == -1)
		not_reached(k, &r, what, d);
	else
		diag_fatal(d, "kubectl --context=%s: %s: %s", k->context, what,
		    why);
	free(what);
	free(why);
	kube_run_release(&r);
	return -1;
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

void
kube_names_add(const char **names, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp(names[i], s) == 0)
			return;
	names[(*n)++] = s;
}

json_t *
kube_item_named(const json_t *items, const char *name)
{
	json_t *it;
	size_t i;

	json_array_foreach(items, i, it)
		if (name != NULL && jstreq(jstr2(it, "metadata", "name"), name))
			return it;
	return NULL;
}
