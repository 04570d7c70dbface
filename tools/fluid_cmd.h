/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_cmd.h - what the driver's commands share.  fluid.c dispatches
 * to the commands (fluid_*.c); they all call down to fluid_opts.c (the
 * options) and cli_stages.c (the stage chain run in this process,
 * cli.h), which call none of them: the dependencies go one way.
 */
#ifndef FLUID_FLUID_CMD_H
#define FLUID_FLUID_CMD_H

#include <jansson.h>

#include "diag.h"
#include "resolve.h"
#include "xalloc.h"

#include "cli.h"

/* The driver's commands and options (fluid_opts.c). */
extern const struct cli_spec fluid_spec;

/* The ids of the driver's options that have no letter (fluid_opts.c). */
enum {
	OPT_FRAGMENT = 0x100, OPT_SCHEMA_VERSION, OPT_MODE, OPT_LAST_APPLIED,
	OPT_YES, OPT_WAIT, OPT_TARGET, OPT_TARGETS, OPT_BUILD, OPT_TIMEOUT,
	OPT_DRY_RUN, OPT_BASELINE, OPT_EXIT_ON_BREAKING, OPT_EXIT_ON_DRIFT,
	OPT_JSON, OPT_STRICT, OPT_STREAMING_TIMEOUT, OPT_DEPFILE, OPT_FORMAT,
	OPT_JUNIT, OPT_BASELINE_REV, OPT_SARIF, OPT_REPORT
};

/* Standard input was closed when fluid started (main() sets it). */
extern int stdin_closed;


/*
 * The path a FILE operand names for the stages: NULL for "-" (the
 * standard input; a fatal error if it is closed).
 */
const char *input_path(const char *file);

/*
 * The one FILE operand of command cmd (argv from optind; else a usage
 * error), resolved and checked (cli_stages()): 0 with *doc, or the
 * status, the stages' diagnostics printed.
 */
int	checked_file(const struct cli *, int argc, char *argv[],
	    const char *cmd, json_t **doc);

/* warn_dotenv(): apply_cli.h. */
void	warn_dotenv(const char *path);

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
	int	 json;		/* --format json (validate) */
	char	*junit;		/* --junit REPORT (validate) */
	char	*sarif;		/* --sarif LOG (validate) */
	int	 strict;	/* --strict: warnings are errors (validate) */
	char	*file;		/* the first FILE */
	char	**files;	/* every FILE (validate takes several) */
	size_t	 nfiles;
	struct sb y;		/* scratch text */
};

/*
 * The options of command cmd ("plan", "generate flink"), as fluid_spec
 * gives them to it, and its FILE (many: one or more).  Usage errors
 * exit.
 */
void	parse_args(int argc, char *argv[], struct args *a, const char *cmd,
	    int many);

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
/*
 * Exit 2, naming it, when target or a file doc's contract read is a name
 * GNU make cannot read literally (';', '=', '|', '%', '(', ')', a
 * control character, a leading '~', a trailing backslash or blank, a
 * special target such as .IGNORE); the callers check before they write
 * anything, dep_write() again.
 */
void	dep_check(const char *target, json_t *doc);

int	cmd_generate(int argc, char *argv[]);
int	cmd_apply(int argc, char *argv[]);
/* fluid validate (fluid_validate.c). */
int	cmd_validate(int argc, char *argv[]);
int	cmd_diff(int argc, char *argv[]);
int	cmd_plan(int argc, char *argv[]);
int	cmd_export(int argc, char *argv[]);
int	cmd_verify(int argc, char *argv[]);
/* fluid lineage (fluid_lineage.c). */
int	cmd_lineage(int argc, char *argv[]);
/* fluid schema, fluid completion SHELL, fluid init [DIR] (fluid_*.c). */
int	cmd_schema(int argc, char *argv[]);
int	cmd_completion(int argc, char *argv[]);
int	cmd_init(int argc, char *argv[]);
/* tools/fluid.schema.json, as fluid schema prints it (fluid_schema.c). */
extern const char fluid_schema_text[];

#endif
