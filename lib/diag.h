/*
 * diag.h - diagnostics: collected by the library, printed by the tool.
 *
 * A stage never prints while it works.  It adds diagnostics to a struct
 * diags; the tool prints them all at the end, GNU style
 *
 *	FILE:LINE:COL: error: MESSAGE
 *
 * or, with --diagnostics=json, one JSON object per line.  The exit status
 * of every fluid tool comes from diag_status(): 0 when no error was
 * added, 1 when the input was refused.  Usage and environment errors
 * (status 2) are not diagnostics; tools report them with fl_fatal().
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
 * place nothing.  The older form, an object from pointers to [file
 * index, line, column], is still read.
 */
#ifndef FLUID_DIAG_H
#define FLUID_DIAG_H

#include <stdio.h>
#include <jansson.h>

struct jptab;

enum diag_level {
	DIAG_WARNING,
	DIAG_ERROR
};

enum diag_format {
	DIAG_FORMAT_TEXT,	/* FILE:LINE:COL: error: MESSAGE */
	DIAG_FORMAT_JSON	/* {"level":..,"file":..,"line":..,...} */
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
	json_t		*positions;	/* borrowed: the records, or (older
					   form) pointer -> [f, l, c] */
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
/*
 * The same with positions and files alone: only for the older, object
 * form of the positions (string records need the document).
 */
void	diags_set_positions(struct diags *, json_t *positions, json_t *files);

/* Add a diagnostic placed by a JSON pointer (may be NULL). */
void	diag_at(struct diags *, enum diag_level, const char *ptr,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Add a diagnostic at an explicit file position (line 0: unknown). */
void	diag_pos(struct diags *, enum diag_level, const char *file,
	    int line, int col, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));

/*
 * Where a pointer is: fills file/line/col, returns 0 if unknown.  The
 * first call decodes the positions (hence d is not const).
 */
int	diag_locate(struct diags *, const char *ptr,
	    const char **file, int *line, int *col);

/* Parse "--diagnostics=" values; returns -1 for an unknown one. */
int	diag_format_parse(const char *);
void	diag_print(const struct diags *, FILE *, enum diag_format,
	    const char *prog);
int	diag_status(const struct diags *);

/*
 * Usage and environment errors: print "prog: message" and exit 2.
 * Like cproc's fatal(), a format ending in ':' appends strerror(errno).
 */
void	fl_setprogname(const char *);
const char *fl_progname(void);
void	fl_fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fl_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
