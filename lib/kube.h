/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube.h - running kubectl, the only way fluid talks to a cluster.
 *
 * For fluid apply, diff --exit-on-drift and verify (and fluid-k8s apply,
 * fluid-diff --live, fluid-verify).  The resources come from k8s_
 * (k8s.h) and cfk_render_ (cfk_render.h), rendered offline; this module
 * only carries them.  Its callers are the modules that write or read a
 * cluster, kube_apply.c, kube_cfk.c, kube_drift.c (kube_drift.h and
 * kube_cfk_drift.h include it), verify.c, verify_cfk.c and
 * verify_checkpoint.c; fluid.h does not include it, and no checker,
 * renderer or stage does (lib/fluid.h, tests/bats/layout.bats).
 *
 * Every run is
 *
 *	KUBECTL --context=CONTEXT --request-timeout=Ns ARGS...
 *
 * started with posix_spawnp (no shell: no argument is ever parsed
 * again) through proc_ (proc.h), in a process group of its own, its
 * standard input, output and error through pipes.  KUBECTL is $KUBECTL,
 * or "kubectl" on PATH.  Every argument that comes from data (a
 * namespace, a name, a path) is in --flag=value form or after "--", so
 * that none can be read as a flag (--server=..., --kubeconfig=...),
 * whatever it holds.
 * --request-timeout bounds each request kubectl makes, not the command
 * (a get against a server that accepts and never answers makes several
 * requests), so every run also has a deadline of fluid's own: past it
 * the process group is killed and the run is an environment error.
 *
 * The library reports (struct diags); the tool decides the exit status:
 * kubectl missing, a deadline passed, a cluster that cannot be reached
 * or a read the server refuses are fatal diagnostics (EXIT_USAGE); a
 * write the API server refuses (a conflict, a schema, an immutable
 * field) is an error (EXIT_REFUSED), with kubectl's own words.
 */
#ifndef FLUID_KUBE_H
#define FLUID_KUBE_H

#include <jansson.h>
#include <stddef.h>

#include "diag.h"
#include "xalloc.h"

#define KUBE_REQUEST_TIMEOUT_S	10	/* --request-timeout, per request */
#define KUBE_DEADLINE_S		60	/* fluid's own, per kubectl run */
#define KUBE_OUTPUT_MAX		(64u << 20)	/* stdout or stderr read */
/*
 * What one answer through the API server's service proxy (or any get
 * --raw) may be: the JobManager's checkpoint statistics and an Event
 * list are kilobytes.
 */
#define KUBE_RAW_MAX		(4u << 20)

struct kube {
	const char	*kubectl;	/* borrowed: $KUBECTL or "kubectl" */
	const char	*context;	/* borrowed: deployment.context */
	int		 request_timeout_s;
	int		 deadline_s;
};

/* What one run gave. */
struct kube_run {
	int		 status;	/* exit status, or -1: see below */
	int		 spawn_errno;	/* kubectl could not be started */
	int		 timed_out;	/* killed at fluid's deadline */
	int		 signal;	/* killed by this signal, or 0 */
	int		 too_big;	/* stopped: output past the bound */
	struct sb	 out, err;	/* what it wrote (capped) */
};

/*
 * Set k up for context: the kubectl of env ("KUBECTL", a getenv-like
 * function), the default timeouts, or those of FLUID_KUBECTL_DEADLINE_S
 * (a whole number of seconds, 1 to 3600; the request timeout is then at
 * most the deadline).  Returns -1, with a fatal diagnostic in d, when
 * that variable is not such a number.
 */
int	kube_init(struct kube *k, const char *context,
	    char *(*env)(const char *), struct diags *d);

/*
 * Run kubectl with args (NULL-terminated, without the program, the
 * context or the timeout), in (inlen bytes, may be 0) on its standard
 * input.  Returns 0 when it ran and exited 0; otherwise -1 and r says
 * why.  r needs no init; release it with kube_run_release().
 */
int	kube_exec(const struct kube *k, const char *const *args,
	    const char *in, size_t inlen, struct kube_run *r);
void	kube_run_release(struct kube_run *);

/*
 * Whether a failed run means the cluster was not reached (or kubectl
 * did not run): missing, deadline, killed, an answer past the bound
 * (stopped there), connection refused, a context not in the
 * kubeconfig, TLS or DNS failures.  Such a run is an
 * environment error, whatever the command.
 */
int	kube_unreachable(const struct kube_run *);

/*
 * Read one object: kind ("flinkdeployment", "configmap") and name in
 * ns.  Returns 1 and *obj (a new reference) when it exists, 0 when the
 * API server says it does not, -1 with a fatal diagnostic in d
 * otherwise (the read is what every write depends on).
 */
int	kube_get(const struct kube *k, const char *kind, const char *ns,
	    const char *name, json_t **obj, struct diags *d);

/*
 * Server-side apply of obj as field manager "fluid", with strict field
 * validation, never forcing a conflict.  Returns 0, and *live (when not
 * NULL; a new reference) as the API server returned it; -1 with an
 * error (refused by the server) or a fatal diagnostic (not reached) in
 * d, which says what was refused in kubectl's words.
 */
int	kube_apply(const struct kube *k, const json_t *obj, json_t **live,
	    struct diags *d);

/* More names than this are read with one LIST of the kind. */
#define KUBE_GET_NAMES_MAX	8

/*
 * Read the objects of kind named by names (n of them, distinct) in ns in
 * one kubectl run ("get ... -- KIND NAME..."; with --show-managed-fields
 * when managed; past KUBE_GET_NAMES_MAX names, "get ... -- KIND", a LIST
 * of the namespace's objects of kind whose other items are skipped).
 * What kubectl answers is the cluster's: a List's items
 * are taken only when each is an object of kind, named as asked (once),
 * in ns; one object answers one name (as kube_get() takes it: what it
 * holds is the caller's to check).  Returns 0 and *found (a new
 * object: name -> the object read, for those that exist); -1 when
 * kubectl failed: r (no init; release it) says why, *why is NULL; -2
 * when the answer is not what was asked: *why (new, one line).
 */
int	kube_get_many(const struct kube *k, const char *kind, const char *ns,
	    const char *const *names, size_t n, int managed, json_t **found,
	    struct kube_run *r, char **why);

/*
 * kube_get_many() worded as kube_get(): 0 and *found, or -1 with a fatal
 * diagnostic in d.
 */
int	kube_get_names(const struct kube *k, const char *kind, const char *ns,
	    const char *const *names, size_t n, json_t **found,
	    struct diags *d);

/*
 * kube_apply() of the objects of objs (an array, in its order) in one
 * kubectl run: the object itself when there is one, else a kubectl List
 * of them.  kubectl applies them one by one and, when one is refused,
 * goes on with the others: the run is refused as a whole (its words name
 * the object).  *lives (when not NULL; a new array) is the API server's
 * answer for each object of objs, in the same order, each one checked to
 * be the one applied (kind, namespace, name).
 */
int	kube_apply_list(const struct kube *k, const json_t *objs,
	    json_t **lives, struct diags *d);

/*
 * GET path of the API server (kubectl get --raw PATH), for fluid verify's
 * reads through the service proxy.  Returns 1 and *obj (a new reference)
 * when the answer is a JSON object; 0 when the API server, or the service
 * behind its proxy, says NotFound; -2 when the answer is larger than
 * KUBE_RAW_MAX (kubectl is stopped there: nothing past it is read, and
 * no retry reads more); -1 otherwise.  When it returns 0 or less, *why
 * (new) is kubectl's words on one line, or fluid's, and *unreached (may
 * be NULL) says whether the cluster was not reached at all
 * (kube_unreachable()).
 */
int	kube_get_raw(const struct kube *k, const char *path, json_t **obj,
	    char **why, int *unreached);

/*
 * Whether it, read from the cluster, is an object of kind (the lower-case
 * name kubectl is asked by, "flinkstatement"; compared without case) in
 * ns: the API server always says both of a namespaced object, so a List
 * item that does not is not taken on its name or labels.
 */
int	kube_item_is(const json_t *it, const char *kind, const char *ns);

/* Append s to names (n of them, room for one more) unless it is there. */
void	 kube_names_add(const char **names, size_t *n, const char *s);
/* The item of a List's items named name (borrowed), or NULL. */
json_t	*kube_item_named(const json_t *items, const char *name);

/*
 * Whether live (read from the cluster) covers applied, what fluid
 * applied (kube_cover.c): every member of an applied object is in live
 * with a value that covers it (members only live has do not count: the
 * API server and the operator add defaults), an array is one of the
 * same length whose elements cover applied's, a number is the same
 * number (the API server writes 1 for 1.0), anything else is equal.
 * Below KUBE_COVER_DEPTH levels a value is compared whole: a cluster's
 * JSON is as deep as jansson lets it be.
 */
#define KUBE_COVER_DEPTH	64
int	 kube_covers(const json_t *live, const json_t *applied);
/*
 * The same walk, calling f at each place where live does not cover
 * applied: path (a JSON array of the keys and indexes down to it, or
 * NULL: not kept) and the two values there (NULL where that side has
 * no such member).  both: a member only live has is such a place too
 * (not walked into).  f returns nonzero to stop the walk; then so does
 * kube_cover_walk(), else 0.
 */
typedef int (*kube_cover_fn)(void *arg, const json_t *path,
	    const json_t *applied, const json_t *live);
int	 kube_cover_walk(const json_t *applied, const json_t *live,
	    json_t *path, int both, kube_cover_fn f, void *arg);

#endif
