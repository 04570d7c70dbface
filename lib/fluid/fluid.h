/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid/fluid.h - libfluid's public interface: what a C program that
 * checks a contract itself calls.  make install puts this header, the
 * only one it installs, in PREFIX/include/fluid/ and libfluid.a beside
 * fluid.pc; `pkg-config --cflags --libs fluid` is all a build needs.
 *
 * Every name here carries the prefix fluid_ (FLUID_ for macros), and
 * they are the only global symbols of the installed libfluid.a: the
 * library's own helpers (xmalloc, slurp, path_parse...) are local to it,
 * so a program may define its own.  lib/fluid.h is the tree's internal
 * index; nothing outside the tree includes it.
 *
 * Ownership follows jansson: a json_t * returned is a new reference
 * unless the comment says "borrowed".  Out of memory ends the process
 * with status 2, as it ends every fluid tool.
 */
#ifndef FLUID_PUBLIC_FLUID_H
#define FLUID_PUBLIC_FLUID_H

#include <stdio.h>
#include <jansson.h>

/* The version of this header and of the library built with it. */
#define FLUID_VERSION		"0.1.0"
#define FLUID_VERSION_MAJOR	0
#define FLUID_VERSION_MINOR	1
#define FLUID_VERSION_PATCH	0
/* 0xMMmmpp, as LIBCURL_VERSION_NUM: compare with >= */
#define FLUID_VERSION_NUM \
	((FLUID_VERSION_MAJOR << 16) | (FLUID_VERSION_MINOR << 8) | \
	    FLUID_VERSION_PATCH)

/* The exit statuses of every fluid tool (fluid(7)). */
enum fluid_status {
	FLUID_OK = 0,		/* accepted */
	FLUID_REFUSED = 1,	/* the contract was refused */
	FLUID_USAGE = 2		/* bad usage, unreadable file */
};

enum fluid_format {
	FLUID_FORMAT_TEXT,	/* FILE:LINE:COL: error: MESSAGE */
	FLUID_FORMAT_JSON	/* one JSON record a line */
};

/* The diagnostics of one run, in the order they were found. */
struct fluid_diags;

/* The library's version, FLUID_VERSION of the header it was built with. */
const char	*fluid_version(void);

/* A new, empty set of diagnostics; fluid_diags_free() frees it. */
struct fluid_diags *fluid_diags_new(void);
void		 fluid_diags_free(struct fluid_diags *);
/* FLUID_OK, or the worst status a diagnostic in d calls for. */
int		 fluid_diags_status(const struct fluid_diags *d);
/* Print every diagnostic to fp, fatal ones as "prog: message". */
void		 fluid_diags_print(const struct fluid_diags *d, FILE *fp,
		    enum fluid_format, const char *prog);

/*
 * The resolve stage (fluid-resolve(1)): the contract at path (NULL:
 * stdin), its $refs resolved, as a new document, or NULL (errors in d).
 */
json_t		*fluid_resolve(const char *path, struct fluid_diags *d);
/*
 * The check stage (fluid-check(1)): adds the check section to doc, a
 * document fluid_resolve() returned, and returns it (borrowed), or NULL
 * when the contract is refused (errors in d).
 */
json_t		*fluid_check(json_t *doc, struct fluid_diags *d);

#endif
