/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * validate.h - fluid validate's result for one contract, kept rather
 * than printed, so that a run over many contracts can report each one
 * (a line, a JSON record, a JUnit test case) after checking it.
 *
 * validate_file() runs fluid-resolve and fluid-check as pipeline_run()
 * does (the same stage functions, the same diagnostics, the same
 * status), but keeps each stage's diagnostics under its name instead
 * of printing them.  Nothing here prints to stdout or exits.
 */
#ifndef FLUID_VALIDATE_H
#define FLUID_VALIDATE_H

#include <stdio.h>
#include <jansson.h>

#include "diag.h"
#include "resolve.h"

#define VALIDATE_STAGES	2	/* fluid-resolve, fluid-check */

struct validate_result {
	char		*file;		/* FILE as given ("-": stdin) */
	char		*contract;	/* what diagnostics name it by */
	int		 status;	/* EXIT_OK, EXIT_REFUSED or EXIT_USAGE */
	struct diags	 d[VALIDATE_STAGES];	/* each stage's that ran */
	const char	*stage[VALIDATE_STAGES];	/* its program name */
	int		 nstages;
	const char	*prog;		/* what a line of its own starts
					   with: progname (the command) */
	json_t		*doc;		/* with keep_doc and status 0: the
					   checked document (a reference) */
};

/*
 * Resolve and check ro's contract, FILE file (its operand as given), its
 * files read from src (resolve.h; NULL: the file system).  Returns
 * res->status.  Each stage's diagnostics are kept under its program's
 * name (res->stage[]); progname is for the lines of the command's own.
 */
int	validate_file(const struct resolve_opts *ro,
	    const struct resolve_source *src, const char *file, int keep_doc,
	    const char *progname, struct validate_result *res);
void	validate_release(struct validate_result *);

/* Errors, fatal ones included: what "refused (N errors)" counts. */
size_t	validate_nerrors(const struct validate_result *);

/*
 * Print the diagnostics (diag_print_contract(): each with its contract),
 * a line of their own ("cannot open ...") starting with the command's
 * name, progname, not the stage's: the user ran "fluid validate".
 */
void	validate_print(const struct validate_result *, FILE *,
	    enum diag_format);
/* The same in text form, as a new string ("" when there are none). */
char	*validate_text(const struct validate_result *);

/*
 * --strict: the warnings of res become errors (diags_strict()); returns
 * the status again, now "refused" when there were any.
 */
int	validate_strict(struct validate_result *);

/* Add res's diagnostics to a SARIF log (sarif.h), each stage as a rule. */
void	validate_sarif(json_t *log, const struct validate_result *);

/* "ok", "refused" or "error" (a usage or environment error). */
const char *validate_status_name(int status);

/*
 * The result as one JSON record: {"file", "status", "diagnostics": [
 * diag_json() of each, with "contract"]} (a new reference).
 */
json_t	*validate_record(const struct validate_result *);

#endif
