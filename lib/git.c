/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * git.c - files at a git revision, through git itself (see git.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "git.h"
#include "proc.h"
#include "xalloc.h"

extern char **environ;

/*
 * The environment git runs with: ours, and what keeps a read a read.
 * No prompt for credentials, no fetch of a missing object from a
 * promisor remote, paths taken literally (no pathspec magic).
 */
static char **
git_env(void)
{
	static const char *const set[] = {
		"GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1",
		"GIT_LITERAL_PATHSPECS=1", "GIT_OPTIONAL_LOCKS=0", NULL
	};
	size_t n = 0, k = 0, i, j;
	char **env;

	while (environ[n] != NULL)
		n++;
	env = xreallocarray(NULL, n + 5, sizeof(*env));
	for (i = 0; i < n; i++) {
		for (j = 0; set[j] != NULL; j++)
			if (strncmp(environ[i], set[j], strcspn(set[j], "=") +
			    1) == 0)
				break;
		if (set[j] == NULL)
			env[k++] = environ[i];
	}
	for (j = 0; set[j] != NULL; j++)
		env[k++] = (char *)set[j];
	env[k] = NULL;
	return env;
}

/*
 * Run git with argv (argv[0] "git"), its standard input /dev/null, its
 * standard output bounded by max bytes, its standard error by
 * GIT_META_MAX.  0 when it exited 0.
 */
static int
git_exec(const char *const *argv, size_t max, struct proc_run *r)
{
	struct proc_spec s;
	char **env = git_env();
	int rc;

	memset(&s, 0, sizeof(s));
	s.argv = argv;
	s.env = env;
	s.out_max = max;
	s.err_max = GIT_META_MAX;
	s.deadline_ms = (long long)GIT_DEADLINE_S * 1000;
	rc = proc_exec(&s, r);
	free(env);
	return rc;
}

/* Why a run failed, as one line (a new string). */
static char *
git_why(const struct proc_run *r)
{
	const char *s = r->err.buf != NULL ? r->err.buf : "";
	size_t n = strcspn(s, "\n");

	if (r->spawn_errno != 0)
		return xasprintf("cannot run git: %s",
		    strerror(r->spawn_errno));
	if (r->timed_out)
		return xasprintf("git did not finish within %d s",
		    GIT_DEADLINE_S);
	if (r->too_big)
		return xstrdup("git's answer is larger than fluid reads");
	if (n == 0)
		return xasprintf("git exited with status %d", r->status);
	return xasprintf("%.*s", (int)(n > 300 ? 300 : n), s);
}

/* The path inside the tree of an absolute path, or NULL if outside. */
static const char *
rel_path(const struct git_rev *g, const char *path)
{
	size_t n = strlen(g->top);

	if (strncmp(path, g->top, n) != 0)
		return NULL;
	if (path[n] == '\0')
		return "";
	return path[n] == '/' ? path + n + 1 : NULL;
}

/*
 * What path is at the revision: RESOLVE_* and, for a file, its blob id
 * (*oid, new) and size; -1 after a fatal diagnostic in d.
 */
static int
lookup(struct git_rev *g, const char *path, char **oid, size_t *size,
    struct diags *d)
{
	const char *rel = rel_path(g, path), *argv[10];
	struct proc_run r;
	char *why, *mode, *type, *id, *sz, *name, *save;
	int kind;

	if (rel == NULL)
		return RESOLVE_NONE;
	if (*rel == '\0')
		return RESOLVE_DIR;
	argv[0] = "git";
	argv[1] = "ls-tree";
	argv[2] = "-z";
	argv[3] = "--long";
	argv[4] = "--full-tree";
	argv[5] = g->commit;
	argv[6] = "--";
	argv[7] = rel;
	argv[8] = NULL;
	if (git_exec(argv, GIT_META_MAX, &r) == -1) {
		why = git_why(&r);
		diag_fatal(d, "cannot read '%s' at revision '%s': %s", rel,
		    g->rev, why);
		free(why);
		proc_run_release(&r);
		return -1;
	}
	kind = RESOLVE_NONE;
	/* "MODE TYPE OID SIZE\tPATH\0": the entry of rel itself, if any. */
	if (r.out.len > 0 && (mode = strtok_r(r.out.buf, " ", &save)) &&
	    (type = strtok_r(NULL, " ", &save)) &&
	    (id = strtok_r(NULL, " ", &save)) &&
	    (sz = strtok_r(NULL, "\t", &save)) &&
	    (name = strtok_r(NULL, "", &save)) && strcmp(name, rel) == 0) {
		while (*sz == ' ')
			sz++;
		if (strcmp(mode, "040000") == 0)
			kind = RESOLVE_DIR;
		else if (strcmp(mode, "100644") == 0 ||
		    strcmp(mode, "100755") == 0) {
			kind = RESOLVE_FILE;
			if (oid != NULL)
				*oid = xstrdup(id);
			if (size != NULL)
				*size = (size_t)strtoull(sz, NULL, 10);
		} else
			kind = RESOLVE_OTHER;	/* a link, a submodule */
	}
	proc_run_release(&r);
	return kind;
}

static int
src_kind(void *ctx, const char *path, struct diags *d)
{
	return lookup(ctx, path, NULL, NULL, d);
}

static int
src_read(void *ctx, const char *path, size_t max, unsigned char **buf,
    size_t *len, struct diags *d)
{
	struct git_rev *g = ctx;
	const char *argv[5];
	struct proc_run r;
	char *oid = NULL, *why;
	size_t size = 0;
	int kind;

	if ((kind = lookup(g, path, &oid, &size, d)) == -1)
		return -2;
	if (kind != RESOLVE_FILE) {
		errno = kind == RESOLVE_NONE ? ENOENT : kind == RESOLVE_DIR ?
		    EISDIR : ENODEV;
		return -1;
	}
	if (size > max) {
		free(oid);
		errno = EFBIG;
		return -1;
	}
	argv[0] = "git";
	argv[1] = "cat-file";
	argv[2] = "blob";
	argv[3] = oid;
	argv[4] = NULL;
	if (git_exec(argv, max, &r) == -1) {
		why = git_why(&r);
		diag_fatal(d, "cannot read '%s' at revision '%s': %s",
		    rel_path(g, path), g->rev, why);
		free(why);
		free(oid);
		proc_run_release(&r);
		return -2;
	}
	free(oid);
	*len = r.out.len;
	*buf = r.out.buf != NULL ? (unsigned char *)sb_steal(&r.out) :
	    (unsigned char *)xstrdup("");
	proc_run_release(&r);
	return 0;
}

/* The first line of a run's standard output (a new string), or NULL. */
static char *
first_line(const struct proc_run *r)
{
	size_t n;

	if (r->out.buf == NULL || (n = strcspn(r->out.buf, "\n")) == 0)
		return NULL;
	return xstrndup(r->out.buf, n);
}

/*
 * Why a revision may be missing from this checkout, and what to fetch,
 * or "" when the clone is whole and on a branch.  CI checkouts are
 * often shallow (one commit) and detached (no local branch): the base
 * branch is not there until fetched.  One commit is enough: the
 * baseline is read from REV's tree, not from its history.
 */
static char *
missing_rev_hint(const char *rev)
{
	const char *argv[5] = { "git", "rev-parse",
	    "--is-shallow-repository", NULL, NULL };
	const char *branch = rev;
	struct proc_run r;
	char *s = NULL, *kind, *hint;
	int shallow, detached;

	shallow = git_exec(argv, GIT_META_MAX, &r) == 0 &&
	    (s = first_line(&r)) != NULL && strcmp(s, "true") == 0;
	free(s);
	proc_run_release(&r);
	argv[1] = "symbolic-ref";
	argv[2] = "-q";
	argv[3] = "HEAD";
	/* symbolic-ref exits 1, saying nothing, on a detached HEAD. */
	detached = git_exec(argv, GIT_META_MAX, &r) == -1 && r.status == 1 &&
	    r.spawn_errno == 0 && !r.timed_out;
	proc_run_release(&r);
	if (!shallow && !detached)
		return xstrdup("");
	kind = xasprintf("this checkout is %s%s%s", shallow ? "shallow" : "",
	    shallow && detached ? " and " : "", detached ? "detached" : "");
	if (strncmp(rev, "origin/", 7) == 0)
		branch = rev + 7;
	/* A branch's name (main, origin/release-1.2), not HEAD~2 or a hash. */
	if (strspn(branch, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._/-") == strlen(branch) && strncmp(branch, "HEAD",
	    4) != 0 && strspn(branch, "0123456789abcdef") != strlen(branch))
		hint = xasprintf("; %s: fetch the baseline first, e.g. 'git "
		    "fetch --depth=1 origin %s:refs/remotes/origin/%s', then "
		    "give --baseline-rev origin/%s", kind, branch, branch,
		    branch);
	else if (shallow)
		hint = xasprintf("; %s: fetch the history that holds it "
		    "first, e.g. 'git fetch --unshallow origin' (or "
		    "--deepen=N)", kind);
	else
		hint = xasprintf("; %s: fetch it first, e.g. 'git fetch "
		    "origin %s'", kind, rev);
	free(kind);
	return hint;
}

int
git_rev_open(struct git_rev *g, const char *rev, struct diags *d)
{
	const char *argv[8];
	struct proc_run r;
	char *spec, *why, *hint;
	const unsigned char *p;

	memset(g, 0, sizeof(*g));
	/* Never an option to git, one line, no "REV:path" blob. */
	for (p = (const unsigned char *)rev; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f || *p == ':')
			break;
	if (*rev == '\0' || *rev == '-' || *p != '\0' || p -
	    (const unsigned char *)rev > 255) {
		spec = diag_escape(rev, 0);
		diag_fatal(d, "--baseline-rev '%s' is not a revision: it "
		    "must not be empty, start with '-' or hold ':' or a "
		    "control character", spec);
		free(spec);
		return -1;
	}
	g->rev = xstrdup(rev);
	argv[0] = "git";
	argv[1] = "rev-parse";
	argv[2] = "--show-toplevel";
	argv[3] = NULL;
	if (git_exec(argv, GIT_META_MAX, &r) == -1 ||
	    (g->top = first_line(&r)) == NULL || g->top[0] != '/') {
		why = git_why(&r);
		diag_fatal(d, "--baseline-rev reads the baseline from git, "
		    "but the working directory is not in a git work tree: %s",
		    why);
		free(why);
		proc_run_release(&r);
		git_rev_close(g);
		return -1;
	}
	proc_run_release(&r);
	spec = xasprintf("%s^{commit}", rev);
	argv[1] = "rev-parse";
	argv[2] = "--verify";
	argv[3] = "--quiet";
	argv[4] = "--end-of-options";
	argv[5] = spec;
	argv[6] = NULL;
	if (git_exec(argv, GIT_META_MAX, &r) == -1 ||
	    (g->commit = first_line(&r)) == NULL ||
	    strspn(g->commit, "0123456789abcdef") != strlen(g->commit)) {
		why = r.status == 1 && r.err.len == 0 ? xstrdup("no such "
		    "commit") : git_why(&r);
		hint = missing_rev_hint(rev);
		diag_fatal(d, "--baseline-rev: unknown revision '%s' (%s)%s",
		    rev, why, hint);
		free(hint);
		free(why);
		free(spec);
		proc_run_release(&r);
		git_rev_close(g);
		return -1;
	}
	free(spec);
	proc_run_release(&r);
	g->label = xasprintf("%s:", rev);
	g->src.kind = src_kind;
	g->src.read = src_read;
	g->src.top = g->top;
	g->src.label = g->label;
	g->src.ctx = g;
	return 0;
}

void
git_rev_close(struct git_rev *g)
{
	free(g->rev);
	free(g->commit);
	free(g->top);
	free(g->label);
	memset(g, 0, sizeof(*g));
}
