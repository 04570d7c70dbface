/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify.h - fluid verify: evidence that each managed build's stream is
 * live, gathered independently of the job (fluid-verify(1)).
 *
 * For each managed build of a checked document (after fluid-check),
 * verify_run() gathers pieces of evidence, each with what was checked,
 * when, against which endpoint and the outcome:
 *
 *	catalog-schema	 the table's current schema, loaded over the
 *			 Iceberg REST API, equals the contract's table
 *			 recursively (names, order, types, nullability)
 *	catalog-snapshot the table has a committed snapshot younger than
 *			 maxSnapshotAgeSeconds
 *	deployment	 the FlinkDeployment's reconciled spec and state
 *	checkpoint	 a recent completed checkpoint (JobManager REST)
 *
 * (a CFK build, management: cfk, has "statements" and "job" in the
 * place of the last two: verify_cfk.h).
 *
 * An outcome is "pass", "fail" (the evidence contradicts the contract:
 * another schema, no young enough snapshot) or "unavailable" (it could
 * not be read: a refused credential, a timeout, a piece this build of
 * fluid does not read yet).  A failure is an error; an unavailable piece
 * is a warning, or an error with strict.  The report says that this is
 * not per-record delivery.
 *
 * The allowlists (allow.h, ALLOW_CMD_VERIFY) are checked before any
 * request: a refusal is an error placed at the contract's value, and
 * nothing is contacted.
 *
 * verify.h does not include net.h: fluid.h's modules may list it
 * without reaching the network through it.
 */
#ifndef FLUID_VERIFY_H
#define FLUID_VERIFY_H

#include <stdbool.h>
#include <jansson.h>

#include "diag.h"

struct net_opts;

struct verify_opts {
	bool		 strict;
	long		 timeout_s;	/* --streaming-timeout; 0: once */
	const struct net_opts *net;	/* borrowed */
	/* Where catalogAuth variables and the allowlists are read. */
	char		*(*env)(const char *);
	/*
	 * Called at each re-read with one line (the pieces still pending
	 * and why, escaped as a diagnostic is), then once with NULL;
	 * NULL: silent.
	 */
	void		(*progress)(void *arg, const char *line);
	void		*arg;
	const char	*contract;	/* as the user named it */
};

/*
 * The options verify takes from the environment: FLUID_CA_BUNDLE and
 * FLUID_HTTP_TIMEOUT into no, and o->net = no, o->env = env.  Returns 0,
 * or -1 with a fatal diagnostic in d.
 */
int	verify_env(struct verify_opts *o, struct net_opts *no,
	    char *(*env)(const char *), struct diags *d);

/*
 * fluid-verify's stage (stage_verify.c): verify_run() on doc (after
 * fluid-k8s render, or fluid-check), its report added to doc as the
 * "verify" section.  Returns the report (borrowed), or NULL (no managed
 * build, or the allowlists refused; errors in d).  o->contract is taken
 * from the document: the file the user named to fluid-resolve.
 */
json_t	*stage_verify(json_t *doc, const struct verify_opts *o,
	    struct diags *d);

/*
 * Verify the managed builds of doc (checked).  Adds the diagnostics to
 * d (placed when d has doc's resolve section) and returns the report
 * (a new reference), or NULL when the allowlists refused (nothing was
 * contacted).  diag_status(d) is the exit status: 0 only when every
 * required piece passed.
 */
json_t	*verify_run(json_t *doc, const struct verify_opts *,
	    struct diags *d);

#endif
