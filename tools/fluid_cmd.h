/*
 * fluid_cmd.h - what the driver's commands in files of their own
 * (fluid_*.c) share with fluid.c, which dispatches to them.
 */
#ifndef FLUID_FLUID_CMD_H
#define FLUID_FLUID_CMD_H

#include <jansson.h>

#include "diag.h"
#include "resolve.h"
#include "xalloc.h"

/* fluid --help: the usage of every command. */
extern const char fluid_usage[];

/* Flush what a command printed: 0, or EXIT_USAGE after saying why. */
int	flush_stdout(void);

/*
 * The path a FILE operand names for the stages: NULL for "-" (the
 * standard input; a fatal error if it is closed).
 */
const char *input_path(const char *file);

/*
 * A contract with no managed build, for a command that needs one:
 * prints why, for verb, and returns EXIT_REFUSED.
 */
int	no_managed_build(json_t *doc, enum diag_format fmt, const char *verb);

/* warn_dotenv(): apply_cli.h. */
void	warn_dotenv(const char *path);

/* fluid-k8s render in this process (fluid.c): the k8s section of doc. */
int	run_k8s(json_t *doc, enum diag_format fmt);

/*
 * Options shared by the commands, as the stages take them.  An option
 * given twice counts once, with its last value, as getopt programs do.
 */
struct args {
	struct resolve_opts ro;	/* FILE, --fragment, --schema-version */
	enum diag_format diag;	/* --diagnostics */
	char	*out;
	char	*mode;		/* --mode (plan) */
	char	*last_applied;	/* --last-applied (plan) */
	char	*depfile;	/* --depfile (validate, bundle, generate, plan) */
	char	*file;		/* the first FILE */
	char	**files;	/* every FILE (validate takes several) */
	size_t	 nfiles;
	struct sb y;		/* scratch text */
};

/*
 * The options of a command (fluid.c).  allow_out: --out;
 * allow_fragment: --fragment and --schema-version; many: more than one
 * FILE; plan: --mode and --last-applied.  Usage errors exit.
 */
void	parse_args(int argc, char *argv[], struct args *a, int allow_out,
	    int allow_fragment, int many, int plan);

/*
 * --depfile (fluid_dep.c): the rule's target for verb (the --out file,
 * or for validate the depfile less ".d"; a usage error when there is
 * none), a new string, or NULL without --depfile.
 */
char	*dep_target(const struct args *, const char *verb);
/*
 * Write depfile: "TARGET: every file doc's contract read", then an empty
 * rule per file, whole or not at all.  Errors exit (status 2).
 */
void	dep_write(const char *depfile, const char *target, json_t *doc);

int	cmd_apply(int argc, char *argv[]);
/* fluid validate (fluid_validate.c). */
int	cmd_validate(int argc, char *argv[]);
int	cmd_diff(int argc, char *argv[]);
int	cmd_plan(int argc, char *argv[]);
int	cmd_export(int argc, char *argv[]);
int	cmd_verify(int argc, char *argv[]);

#endif
