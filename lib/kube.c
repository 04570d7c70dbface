/*
 * kube.c - kubectl, run with a context, a request timeout and a deadline
 * of fluid's own (kube.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kube.h"
#include "clock.h"

extern char **environ;

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

/*
 * Read what fd has into b; returns 0 at end of file, -1 when b would
 * hold more than max bytes (the run is then stopped: nothing past a
 * bound is read).
 */
static int
drain(int fd, struct sb *b, size_t max)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n > 0 && b->len + (size_t)n > max)
		return -1;
	if (n > 0)
		sb_addn(b, buf, (size_t)n);
	return n > 0;
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
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

/*
 * Feed in, collect stdout (at most max bytes) and stderr, until both
 * are closed or the deadline passes.  Returns 0, -1 at the deadline, -2
 * past max (r->too_big).
 */
static int
pump(int fds[3], const char *in, size_t inlen, long long deadline,
    size_t max, struct kube_run *r)
{
	struct pollfd p[3];
	size_t off = 0, np;
	long long left;
	ssize_t n;
	int i, rc;

	for (;;) {
		np = 0;
		for (i = 0; i < 3; i++)
			if (fds[i] >= 0) {
				p[np].fd = fds[i];
				p[np].events = i == 0 ? POLLOUT : POLLIN;
				p[np].revents = 0;
				np++;
			}
		if (fds[1] < 0 && fds[2] < 0)
			return 0;
		if ((left = deadline - clk_mono_ms()) <= 0)
			return -1;
		if (poll(p, np, left > INT_MAX ? INT_MAX : (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (i = 0; i < (int)np; i++) {
			if (p[i].revents == 0)
				continue;
			if (p[i].fd == fds[0]) {
				n = write(fds[0], in + off, inlen - off);
				if (n > 0)
					off += (size_t)n;
				if ((n < 0 && errno != EINTR &&
				    errno != EAGAIN) || off == inlen)
					close_fd(&fds[0]);
			} else if (p[i].fd == fds[1] || p[i].fd == fds[2]) {
				rc = p[i].fd == fds[1] ? drain(fds[1], &r->out,
				    max) : drain(fds[2], &r->err,
				    KUBE_OUTPUT_MAX);
				if (rc == -1) {
					r->too_big = 1;
					return -2;
				}
				if (rc == 0)
					close_fd(p[i].fd == fds[1] ? &fds[1] :
					    &fds[2]);
			}
		}
	}
}

/* kube_exec(), its standard output bounded by max bytes. */
static int
exec_max(const struct kube *k, const char *const *args, const char *in,
    size_t inlen, size_t max, struct kube_run *r)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	int fds[3], ws, rc, i;
	char **argv, *ctx, *rt;
	long long deadline;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	sb_init(&r->out);
	sb_init(&r->err);
	r->status = -1;
	if (pipe(pin) == -1 || pipe(pout) == -1 || pipe(perr) == -1) {
		r->spawn_errno = errno;
		for (i = 0; i < 2; i++) {
			if (pin[i] >= 0) close(pin[i]);
			if (pout[i] >= 0) close(pout[i]);
			if (perr[i] >= 0) close(perr[i]);
		}
		return -1;
	}
	/* fluid's ends are not inherited by kubectl. */
	fcntl(pin[1], F_SETFD, FD_CLOEXEC);
	fcntl(pout[0], F_SETFD, FD_CLOEXEC);
	fcntl(perr[0], F_SETFD, FD_CLOEXEC);
	fcntl(pin[1], F_SETFL, O_NONBLOCK);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	posix_spawnattr_init(&at);
	/* A group of its own, so that the deadline kills what it started. */
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	argv = make_argv(k, args, &ctx, &rt);
	deadline = clk_mono_ms() + (long long)k->deadline_s * 1000;
	rc = posix_spawnp(&pid, k->kubectl, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	free(argv);
	free(ctx);
	free(rt);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	fds[0] = pin[1];
	fds[1] = pout[0];
	fds[2] = perr[0];
	if (rc != 0) {
		r->spawn_errno = rc;
		for (i = 0; i < 3; i++)
			close_fd(&fds[i]);
		return -1;
	}
	if (inlen == 0)
		close_fd(&fds[0]);
	if ((rc = pump(fds, in, inlen, deadline, max, r)) != 0) {
		r->timed_out = rc == -1;
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	for (i = 0; i < 3; i++)
		close_fd(&fds[i]);
	/*
	 * Both pipes are closed: kubectl has exited or is about to, unless
	 * a child kept them open; the deadline still holds for the wait.
	 */
	while (waitpid(pid, &ws, WNOHANG) == 0) {
		if (!r->timed_out && clk_mono_ms() >= deadline) {
			r->timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	if (WIFEXITED(ws))
		r->status = WEXITSTATUS(ws);
	else if (WIFSIGNALED(ws) && !r->too_big)
		r->signal = WTERMSIG(ws);
	/* posix_spawnp may run the child and fail in exec: 127. */
	if (r->status == 127 && r->err.len == 0)
		r->spawn_errno = ENOENT;
	return r->status == 0 && !r->timed_out && !r->too_big ? 0 : -1;
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
