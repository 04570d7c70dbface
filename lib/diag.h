/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * diag.h - diagnostics: collected by the library, printed by the tool.
 *
 * A stage never prints while it works.  It adds diagnostics to a struct
 * diags; the tool prints them all at the end, GNU style
 *
 *	FILE:LINE:COL: error: MESSAGE
 *
 * or, with --diagnostics=json, one JSON object per line.  The exit status
 * of every fluid tool comes from diag_status(): EXIT_OK when no error
 * was added, EXIT_REFUSED when the input was refused, EXIT_USAGE when a
 * usage or environment error (an unreadable file, a broken pipeline
 * document) was added with diag_fatal().  The library never exits: it
 * adds the diagnostic and returns, and the tool decides.
 *
 * A diagnostic is placed by a JSON pointer into the resolved contract.
 * fluid-resolve writes where every node of the contract stands as one
 * string, "positions": a record per node of "document", in the
 * document's order (a node, then its children, in the order they are
 * written), separated by single spaces.  A record is
 *
 *	[FILE@][LINES],COLUMN	or	-
 *
 * FILE is the index in "files", given when it is not the one of the
 * record before (0 at first); LINES is the line minus the line of the
 * record before (0 at first), left out when it is 0; "-" is a node
 * with no position.  A document of a hundred thousand nodes has a few
 * hundred kilobytes of them, which every later stage passes on as one
 * string: they are decoded, into a table from JSON pointers to [file
 * index, line, column], only when a diagnostic is placed.  A pointer
 * with no entry falls back to its nearest ancestor that has one, so
 * "the field is missing" errors point at the mapping that lacks it.
 * Records that do not match the document (a tool reordered its keys)
 * place nothing.
 */
#ifndef FLUID_DIAG_H
#define FLUID_DIAG_H

#include <stdarg.h>
#include <stdio.h>
#include <jansson.h>

struct jptab;

/* The exit statuses of every fluid tool (fluid(7)). */
enum fl_exit {
	EXIT_OK = 0,		/* done; for diff: no differences */
	EXIT_REFUSED = 1,	/* the input was refused, or differs */
	EXIT_USAGE = 2		/* bad usage, unreadable file, failed write */
};

enum diag_level {
	DIAG_WARNING,
	DIAG_ERROR,
	DIAG_FATAL	/* usage or environment: printed "prog: msg" */
};

enum diag_format {
	DIAG_FORMAT_TEXT,	/* FILE:LINE:COL: error: MESSAGE */
	DIAG_FORMAT_JSON,	/* {"level":..,"file":..,"line":..,...} */
	DIAG_FORMAT_GITHUB	/* ::error file=F,line=L,col=C,title=T::MSG */
};

struct diag {
	enum diag_level	 level;
	char		*file;	/* NULL when the place is unknown */
	int		 line;	/* 1-based; 0 when unknown */
	int		 col;	/* 1-based; 0 when unknown */
	char		*ptr;	/* JSON pointer into the contract, or NULL */
	char		*msg;
};

struct diags {
	struct diag	*v;
	size_t		 n, cap;
	size_t		 nerrors;
	size_t		 nwarnings;
	size_t		 nfatal;	/* usage or environment errors */
	json_t		*positions;	/* borrowed: the records */
	json_t		*files;		/* borrowed: array of file names */
	json_t		*document;	/* borrowed: what the records follow */
	struct jptab	*table;		/* the records decoded, or NULL */
	int		 decoded;	/* table tried */
};

void	diags_init(struct diags *);
void	diags_release(struct diags *);
/*
 * Place diagnostics with the "positions", "files" and "document" of a
 * resolve section (borrowed: it must outlive d's last diag_at()).
 */
void	diags_set_resolve(struct diags *, json_t *section);

/* Add a diagnostic placed by a JSON pointer (may be NULL). */
void	diag_at(struct diags *, enum diag_level, const char *ptr,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Add a diagnostic at an explicit file position (line 0: unknown). */
void	diag_pos(struct diags *, enum diag_level, const char *file,
	    int line, int col, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));

/*
 * A usage or environment error: diag_status() becomes EXIT_USAGE, and
 * it prints as "prog: message" in either format, as it always has.  As
 * with cproc's fatal(), a format ending in ':' appends strerror(errno).
 */
void	diag_fatal(struct diags *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* How a message names the kind of a JSON value: "a mapping", "a list"... */
const char *diag_json_kind(const json_t *);

/*
 * Text from outside (a server's answer, a targets file, a plan) as a
 * terminal may show it, escaped as diagnostics escape what they quote:
 * \n \r \t, \xNN for a control character or a byte that is not
 * UTF-8, \uNNNN for a C1 control (U+0080-U+009F) and the code points
 * that reorder or hide text (bidi controls, U+2028/2029, U+FEFF).  With
 * DIAG_ESCAPE_LINES, newlines and tabs are kept (a script, shown whole).
 * A new string.
 */
#define DIAG_ESCAPE_LINES	1
char	*diag_escape(const char *s, int flags);

/*
 * Where a pointer is: fills file/line/col, returns 0 if unknown.  The
 * first call decodes the positions (hence d is not const).
 */
int	diag_locate(struct diags *, const char *ptr,
	    const char **file, int *line, int *col);

/*
 * --strict: d's warnings become errors (diag_status() then refuses), each
 * message ending " [--strict]" so that the reader sees why, as gcc's
 * [-Werror] does.
 */
void	diags_strict(struct diags *);

/*
 * One diagnostic as a GitHub Actions workflow command, the line
 * --diagnostics=github prints so that the error shows on its line of a
 * pull request: "::error file=F,line=L,col=C,title=PROG::MESSAGE"
 * (::warning for a warning), escaped as GitHub's toolkit does (%, CR
 * and LF in the message; also ':' and ',' in the properties).  A
 * message about another file than contract (not NULL) ends
 * " [contract: CONTRACT]", as the text form does.  (diag_ci.c)
 */
void	diag_print_github(FILE *, const struct diag *, const char *prog,
	    const char *contract);

/* Parse "--diagnostics=" values; returns -1 for an unknown one. */
int	diag_format_parse(const char *);
void	diag_print(const struct diags *, FILE *, enum diag_format,
	    const char *prog);
/*
 * The same, for a run over several contracts (fluid validate FILE...):
 * every JSON diagnostic gets "contract": contract, and a text one placed
 * in another file than contract (a shared fragment, the workspace file)
 * ends with " [contract: CONTRACT]", on the same line.  contract NULL:
 * diag_print().
 */
void	diag_print_contract(const struct diags *, FILE *, enum diag_format,
	    const char *prog, const char *contract);
/*
 * One diagnostic as --diagnostics=json prints it ({"level", "message",
 * "file", "line", "column", "pointer"}, the last four when known; level
 * "fatal" for a usage or environment error), with "contract" when not
 * NULL: a new reference, or NULL (cannot happen: messages are UTF-8).
 */
json_t	*diag_json(const struct diag *, const char *contract);
int	diag_status(const struct diags *);

/*
 * A message as one line; a format ending in ':' appends strerror (a new
 * string).  The tools print it as "prog: message" (fl_warnx(), cli.h):
 * the library keeps no program name and prints nothing of its own.
 */
char	*fl_vmessage(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));

#endif
