/*
 * cli.h - the parts of main() that every fluid tool shares: the common
 * options (--help, --version, --diagnostics=), writing the result and
 * the exit status (enum fl_exit, in diag.h).  It lives in tools/, not
 * in lib/: these functions exit, and nothing in libfluid.a does.
 */
#ifndef FLUID_CLI_H
#define FLUID_CLI_H

#include <getopt.h>
#include <stdio.h>
#include <jansson.h>

#include "diag.h"

struct ir;

#define FLUID_VERSION_STRING	"0.1.0"

struct cli {
	const char		*usage;	/* full --help text */
	enum diag_format	 diagfmt;
};

/*
 * What every tool does first: its name for messages, and a closed pipe
 * is a failed write (status 2), not death by SIGPIPE.
 */
void	cli_start(const char *argv0);
/*
 * getopt_long() for a tool whose options are all long (optstring ":"):
 * handles --diagnostics, --help, --version and a bad option itself, and
 * returns the next other option's value, or -1 at the end.
 */
int	cli_getopt(struct cli *, int argc, char *argv[],
	    const struct option *opts);
/*
 * Handle a common long option (returns 1), or return 0 for the caller
 * to handle.  --help prints the usage and exits 0.
 */
int	cli_common(struct cli *, const char *opt, const char *arg);
/*
 * The part of a multi-command tool's usage text about one command
 * (prog "fluid", cmd "plan"): its synopsis lines ("usage: fluid plan
 * ..." or "       fluid plan ...", with the deeper-indented lines that
 * continue them) and its paragraph ("  plan  ..." and the lines
 * indented under it), so that "fluid plan --help" shows that command
 * alone.  0, or -1 when the usage has no synopsis for cmd.
 */
int	cli_command_usage(FILE *, const char *usage, const char *prog,
	    const char *cmd);
/*
 * The command that --help and -h describe from here on (prog "fluid",
 * cmd "plan"): they print cli_command_usage() of the tool's usage, or
 * the whole usage when it has no synopsis for cmd.
 */
void	cli_help_for(const char *prog, const char *cmd);
/*
 * verify's progress (verify.h's callback; arg points at an int): on a
 * terminal one line rewritten in place (cut to 79 bytes, never inside
 * a character); otherwise, as in CI logs, a line each time.
 */
void	cli_progress(void *arg, const char *line);
/* -q, --quiet: write_out() says nothing of the files it wrote. */
extern int cli_quiet;
/*
 * The one --out writer: buf to the file out, whole or not at all
 * (atomic.h; never over a device, FIFO, link or directory), then
 * "wrote OUT" unless cli_quiet; to standard output when out is NULL or
 * "-".  Returns cli_flush(): usage and environment errors exit.
 */
int	cli_write_out(const char *out, const char *buf, size_t len);
/*
 * The end of every command: what it printed must have been written.  A
 * full disk is an error (status 2), and says so; a reader that closed
 * the pipe (| head) ends the program quietly, by SIGPIPE, as cat does.
 */
int	cli_flush(void);
/*
 * A write to standard output failed: end quietly by SIGPIPE when the
 * reader closed the pipe, else say why (the caller returns status 2).
 */
void	cli_write_failed(void);
/*
 * Usage and environment errors: print "prog: message" and exit
 * EXIT_USAGE.  A format ending in ':' appends strerror(errno).
 */
void	fl_fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
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
 * Finish a stage: print the diagnostics, write out (if not NULL and no
 * error was found) to stdout, and return the exit status.
 */
int	cli_finish(const struct cli *, struct diags *, const struct ir *out);

#endif
