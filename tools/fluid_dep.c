/*
 * fluid_dep.c - --depfile FILE: what a contract read, as a make rule
 * (gcc -MD -MP does the same for a C file), so that a Makefile rebuilds
 * a target exactly when the contract, a fragment or the workspace file
 * it read changes.
 */
#include <errno.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

/* A path as make reads it: blanks, '#' and ':' escaped, '$' doubled. */
static void
add_make_path(struct sb *o, const char *p)
{
	for (; *p != '\0'; p++) {
		if (*p == '$')
			sb_addc(o, '$');
		else if (*p == ' ' || *p == '\t' || *p == '#' || *p == ':' ||
		    *p == '\\')
			sb_addc(o, '\\');
		sb_addc(o, *p);
	}
}

void
dep_write(const char *depfile, const char *target, json_t *doc)
{
	const json_t *files = json_object_get(ir_section(doc, "resolve"),
	    "files"), *f;
	const char *p;
	struct sb o;
	size_t i;

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
