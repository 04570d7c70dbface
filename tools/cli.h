/*
 * SPDX-License-Identifier: Apache-2.0
 *
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
#include "pipeline.h"

struct ir;

/*
 * One option of a program: the table that getopt_long()'s arguments,
 * the --help text and the usage errors are all made from, so that none
 * of them can name an option the others do not know.
 */
struct cli_opt {
	int		 id;	/* what cli_next() returns (a letter, or > 255) */
	const char	*name;	/* the long name, without "--" */
	char		 letter;	/* its short form (-o), or 0 */
	const char	*arg;	/* its argument's name in --help, or NULL */
	/*
	 * The commands that take it, blank-separated ("bundle plan"), or
	 * NULL: every command (and a program without commands).
	 */
	const char	*cmds;
	const char	*help;	/* for --help; '\n' continues the line */
};

/* The options every program takes; cli_next() handles them itself. */
#define CLI_DIAGNOSTICS	0x1001
#define CLI_HELP	0x1002
#define CLI_VERSION	0x1003
#define CLI_OPT_DIAGNOSTICS(cmds) { CLI_DIAGNOSTICS, "diagnostics", 0, \
	"FORMAT", cmds, "print diagnostics as text (default), json lines\n" \
	"or github (GitHub Actions workflow commands)" }
#define CLI_OPT_HELP(cmds) { CLI_HELP, "help", 'h', NULL, cmds, \
	"print this usage and exit" }
#define CLI_OPT_VERSION(cmds) { CLI_VERSION, "version", 0, NULL, cmds, \
	"print the version and exit" }
#define CLI_OPT_END	{ 0, NULL, 0, NULL, NULL, NULL }

/* One command of a program (or the program itself: name NULL). */
struct cli_cmd {
	const char	*name;	/* "plan", "generate flink"; NULL: the program */
	/* Its synopsis lines without the program's name (each after "PROG "). */
	const char	*synopsis;
	const char	*about;	/* what it does, a paragraph (lines end '\n') */
};

/* A program: its commands, its options, and what --help ends with. */
struct cli_spec {
	const char		*prog;	/* "fluid" */
	const struct cli_cmd	*cmds;	/* ended by a NULL synopsis */
	const struct cli_opt	*opts;	/* ended by CLI_OPT_END */
	const char		*tail;	/* after the options (exit status ...) */
};

struct cli {
	const struct cli_spec	*spec;
	const char		*cmd;	/* the command run, or NULL */
	enum diag_format	 diagfmt;
};

/* The state for spec's command cmd (NULL: the program's own options). */
void	cli_init(struct cli *, const struct cli_spec *, const char *cmd);
/*
 * The next option of argv (from argv[1], as getopt_long() does; reset
 * optind first to parse again): its id, with its argument in optarg, or
 * -1 at the end.  --diagnostics, --help, -h and --version are handled
 * here; an unknown option, a missing argument or an option of another
 * command is a usage error (exit 2) that says which commands take it.
 */
int	cli_next(struct cli *, int argc, char *argv[]);
/*
 * The usage: of the command when c->cmd is set (its synopsis, what it
 * does, its options), else of the whole program.
 */
void	cli_help(FILE *, const struct cli *);
/*
 * The argument of option id, seconds from min to max; anything else is
 * a usage error ("--wait expects seconds from 0 to 600").
 */
long	cli_seconds(const struct cli *, int id, const char *arg, long min,
	    long max);
/* Option id was given: a usage error unless c->cmd takes it. */
void	cli_check_for(const struct cli *, int id);
/* The long name of the option id in c's table ("out"). */
const char *cli_opt_name(const struct cli *, int id);
/* Whether the command c runs (or the program, c->cmd NULL) takes o. */
int	cli_opt_for(const struct cli *, const struct cli_opt *);
/* Print the usage (cli_help()) and exit 0. */
void	cli_help_exit(const struct cli *) __attribute__((noreturn));
/* Print the version and exit 0. */
void	cli_version_exit(void) __attribute__((noreturn));
/* The command of spec named by argv[i] (and argv[i + 1]), or NULL. */
const struct cli_cmd *cli_find_cmd(const struct cli_spec *, int argc,
	    char *argv[], int i);
/*
 * "Did you mean" (cli_suggest.c): " (did you mean '--junit'?)" for arg,
 * an unknown option ("--jnuit", "--jnuit=x"), from the options c's
 * command takes, else from all; for word, an unknown command (parent
 * NULL) or subcommand of parent, from spec's commands.  "" when nothing
 * is one edit away.  The text lives until the next call.
 */
const char *cli_opt_hint(const struct cli *, const char *arg);
const char *cli_cmd_hint(const struct cli_spec *, const char *parent,
	    const char *word);
/*
 * A closed pipe is a failed write and standard output must be open: what
 * every tool does first, with its name for messages.
 */
void	cli_start(const char *argv0);
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
 * The name "prog: message" lines start with (cli_start() sets it from
 * argv[0]); the library keeps none.
 */
void	fl_setprogname(const char *);
const char *fl_progname(void);
/* Print "prog: message" now; a format ending in ':' appends strerror. */
void	fl_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	fl_vwarnx(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));
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
 * Finish a stage: print the diagnostics, write out (if not NULL and no
 * error was found) to stdout, and return the exit status.
 */
int	cli_finish(const struct cli *, struct diags *, const struct ir *out);

/*
 * A filter of fluid-check's document (fluid-odcs, fluid-lineage): it,
 * read from standard input with its resolve and check sections, or
 * NULL after errors in d.
 */
struct ir *cli_read_checked(struct diags *d);
/*
 * The filter's end: d printed, then, when it holds no error, out (not
 * NULL) written to standard output.  Returns the exit status.
 */
struct sb;
int	cli_filter_finish(const struct cli *, struct diags *d,
	    const struct sb *out);
/*
 * The stages from resolve to to on ro's contract (cli_stages.c), each
 * stage's diagnostics printed under its program's name (fmt), a refusal
 * of the chain's own (verb not NULL: no managed build) under this
 * program's.  Returns the status; on 0, *doc is the document, kept to
 * the end (ir_keep_to_end()).  cli_stages_strict set: warnings are
 * errors (--strict).
 */
int	cli_stages(const struct resolve_opts *ro, enum diag_format fmt,
	    enum stage to, const char *verb, json_t **doc);
extern int cli_stages_strict;

#endif
