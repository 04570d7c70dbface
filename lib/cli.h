/*
 * cli.h - the parts of main() that every fluid tool shares: the common
 * options (--help, --version, --diagnostics=), writing the result and
 * the exit status.  The exit statuses, for every tool (see fluid.7):
 */
#ifndef FLUID_CLI_H
#define FLUID_CLI_H

#include <stdio.h>
#include <jansson.h>

#include "diag.h"

#define FLUID_VERSION_STRING	"0.1.0"

#define EXIT_OK		0	/* done; for diff: no differences */
#define EXIT_REFUSED	1	/* the input was refused, or differs */
#define EXIT_USAGE	2	/* bad usage, unreadable file, failed write */

struct cli {
	const char		*usage;	/* full --help text */
	enum diag_format	 diagfmt;
};

/*
 * Handle a common long option (returns 1), or return 0 for the caller
 * to handle.  --help prints the usage and exits 0.
 */
int	cli_common(struct cli *, const char *opt, const char *arg);
/* Print one line naming the problem to stderr and exit 2. */
void	cli_usage_error(const struct cli *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/*
 * Report what getopt_long returned for a bad option (':' or '?') and
 * exit 2.  The tool must call getopt with opterr = 0 and an option
 * string that starts with ':'.
 */
void	cli_bad_option(const struct cli *, char *const argv[], int ch)
	    __attribute__((noreturn));
/*
 * Finish a stage: print the diagnostics, write doc (if not NULL and no
 * error was found) to stdout, and return the exit status.
 */
int	cli_finish(const struct cli *, struct diags *, json_t *doc);

#endif
