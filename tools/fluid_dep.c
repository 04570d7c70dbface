/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_dep.c - --depfile FILE: what a contract read, as a make rule
 * (gcc -MD -MP does the same for a C file), so that a Makefile rebuilds
 * a target exactly when the contract, a fragment or the workspace file
 * it read changes.  A fragment's name is data from whoever may change
 * contracts, the recipe is the Makefile's: a name make would read as
 * anything but one file is refused, never written.
 */
#include <errno.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

/*
 * Why GNU make (4.3) cannot read path p as one literal file name in a
 * rule, or NULL when it can.  Each was tried with make -q: a name make
 * has no escape for is refused, never written as a rule that means
 * something else (a recipe after ';', a variable after '=', a pattern,
 * an archive member, a special target).
 */
static const char *
make_unsafe(const char *p)
{
	const char *q = p, *e;
	size_t n = strlen(p);

	if (n == 0)
		return "it is empty";
	for (e = p; *e != '\0'; e++) {
		if ((unsigned char)*e < 0x20 || *e == 0x7f)
			return "make has no escape for a control character "
			    "(a newline ends the rule, a tab starts a recipe)";
		switch (*e) {
		case ';':
			return "make reads what follows ';' as a recipe";
		case '=':
			return "make reads 'TARGET: A=B' as a variable "
			    "assignment";
		case '|':
			return "make reads '|' as the start of order-only "
			    "prerequisites";
		case '%':
			return "make reads a name with '%' as a pattern";
		case '(':
		case ')':
			return "make reads 'LIB(MEMBER)' as an archive member";
		}
	}
	if (p[n - 1] == '\\')
		return "make reads a backslash at the end of a name as "
		    "a line continuation";
	if (p[n - 1] == ' ')
		return "make drops a blank at the end of a name before a "
		    "line continuation";
	if (p[0] == '~')
		return "make expands a leading '~' to a home directory";
	/* make drops a leading "./": .POSIX, .IGNORE... are directives. */
	while (q[0] == '.' && q[1] == '/')
		for (q += 2; *q == '/'; q++)
			;
	if (q[0] == '.' && q[1] != '\0' && strspn(q + 1,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == strlen(q + 1))
		return "make reads it as a special target";
	return NULL;
}

/*
 * A path as make reads it, escaped as gcc -MD escapes it: a blank or
 * '#' after a backslash, the backslashes just before it doubled; '$'
 * doubled; any other backslash as it is.  ':' and the wildcards '*',
 * '?' and '[' (which gcc leaves alone, but make would split on or
 * expand) are escaped the same way.  make_unsafe() first.
 */
static void
add_make_path(struct sb *o, const char *p)
{
	size_t nb = 0;		/* the backslashes just before *p */

	for (; *p != '\0'; p++) {
		if (*p == '$')
			sb_addc(o, '$');
		else if (strchr(" #:*?[", *p) != NULL) {
			for (; nb > 0; nb--)
				sb_addc(o, '\\');
			sb_addc(o, '\\');
		}
		nb = *p == '\\' ? nb + 1 : 0;
		sb_addc(o, *p);
	}
}

/* Exit 2 naming path when make cannot read it literally. */
static void
check_make_path(const char *path, const char *what)
{
	const char *why = make_unsafe(path);
	char *shown;

	if (why == NULL)
		return;
	shown = diag_escape(path, 0);
	fl_fatal("--depfile: %s '%s' cannot be written as a make rule: %s; "
	    "no depfile written", what, shown, why);
}

void
dep_check(const char *target, json_t *doc)
{
	const json_t *files = json_object_get(ir_section(doc, "resolve"),
	    "files"), *f;
	size_t i;

	check_make_path(target, "the target");
	json_array_foreach(files, i, f)
		if (json_string_value(f) != NULL)
			check_make_path(json_string_value(f), "the file");
}

void
dep_write(const char *depfile, const char *target, json_t *doc)
{
	const json_t *files = json_object_get(ir_section(doc, "resolve"),
	    "files"), *f;
	const char *p;
	struct sb o;
	size_t i;

	dep_check(target, doc);
	sb_init(&o);
	add_make_path(&o, target);
	sb_adds(&o, ":");
	json_array_foreach(files, i, f)
		if ((p = json_string_value(f)) != NULL) {
			sb_adds(&o, " \\\n  ");
			add_make_path(&o, p);
		}
	sb_addc(&o, '\n');
	/* A rule of its own per file: a fragment deleted is no error. */
	json_array_foreach(files, i, f)
		if ((p = json_string_value(f)) != NULL) {
			sb_addc(&o, '\n');
			add_make_path(&o, p);
			sb_adds(&o, ":\n");
		}
	if (atomic_mkparents(depfile) == -1)
		fl_fatal("cannot create the directory of '%s':", depfile);
	if (atomic_write(depfile, o.buf, o.len) == -1) {
		if (errno == EEXIST || errno == EISDIR)
			fl_fatal("'%s' is not a regular file: not replaced",
			    depfile);
		fl_fatal("cannot write '%s':", depfile);
	}
	sb_release(&o);
}

char *
dep_target(const struct args *a, const char *verb)
{
	size_t n;

	if (a->depfile == NULL)
		return NULL;
	if (a->out != NULL && strcmp(a->out, "-") != 0)
		return xstrdup(a->out);
	/* validate writes nothing: the target is the depfile less ".d". */
	n = strlen(a->depfile);
	if (strcmp(verb, "validate") == 0 && n > 2 &&
	    strcmp(a->depfile + n - 2, ".d") == 0)
		return xstrndup(a->depfile, n - 2);
	if (strcmp(verb, "validate") == 0)
		cli_usage_error(NULL, "validate --depfile names FILE.d: its "
		    "target is FILE");
	cli_usage_error(NULL, "%s --depfile needs --out: the rule's target "
	    "is the file written", verb);
}
