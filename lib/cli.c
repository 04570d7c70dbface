/*
 * cli.c - option handling and exit shared by the tools (see cli.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir.h"

int
cli_common(struct cli *c, const char *opt, const char *arg)
{
	int f;

	if (strcmp(opt, "help") == 0) {
		fputs(c->usage, stdout);
		exit(fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE);
	}
	if (strcmp(opt, "version") == 0) {
		printf("%s %s\n", fl_progname(), FLUID_VERSION_STRING);
		exit(fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE);
	}
	if (strcmp(opt, "diagnostics") == 0) {
		if ((f = diag_format_parse(arg)) == -1)
			cli_usage_error(c, "--diagnostics takes text or json");
		c->diagfmt = (enum diag_format)f;
		return 1;
	}
	return 0;
}

void
cli_usage_error(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	/* One line: the problem, and where the usage is. */
	(void)c;
	fprintf(stderr, "%s: ", fl_progname());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s --help')\n", fl_progname());
	exit(EXIT_USAGE);
}

int
cli_finish(const struct cli *c, struct diags *d, json_t *doc)
{
	int status;

	diag_print(d, stderr, c->diagfmt, fl_progname());
	status = diag_status(d);
	if (status == EXIT_OK && doc != NULL && ir_write(stdout, doc) == -1) {
		fl_warnx("cannot write standard output:");
		status = EXIT_USAGE;
	}
	return status;
}
