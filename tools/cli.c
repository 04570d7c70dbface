/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * cli.c - option handling and exit shared by the tools (see cli.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "atomic.h"
#include "ir.h"
#include "xalloc.h"

int cli_quiet;

/* The name "prog: message" lines start with: cli_start() sets it. */
static const char *progname = "fluid";

void
fl_setprogname(const char *argv0)
{
	const char *s = strrchr(argv0, '/');

	progname = s ? s + 1 : argv0;
}

const char *
fl_progname(void)
{
	return progname;
}

void
fl_vwarnx(const char *fmt, va_list ap)
{
	char *msg = fl_vmessage(fmt, ap);

	fprintf(stderr, "%s: %s\n", progname, msg);
	free(msg);
}

void
fl_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fl_vwarnx(fmt, ap);
	va_end(ap);
}

void
cli_write_failed(void)
{
	/* SIGPIPE is ignored (cli_start()) so that a pipe to kubectl fails
	 * as a write; a reader of our output that left is no error. */
	if (errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	fl_warnx("cannot write standard output:");
}

int
cli_flush(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		cli_write_failed();
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int
cli_write_out(const char *out, const char *buf, size_t len)
{
	if (out == NULL || strcmp(out, "-") == 0) {
		fwrite(buf, 1, len, stdout);
		return cli_flush();
	}
	if (atomic_mkparents(out) == -1)
		fl_fatal("cannot create the directory of '%s':", out);
	if (atomic_write(out, buf, len) == -1) {
		if (errno == EEXIST || errno == EISDIR)
			fl_fatal("'%s' is not a regular file: not replaced",
			    out);
		fl_fatal("cannot write '%s':", out);
	}
	if (!cli_quiet)
		printf("wrote %s\n", out);
	return cli_flush();
}

void
cli_progress(void *arg, const char *line)
{
	size_t n;

	if (*(const int *)arg) {
		n = line != NULL ? strlen(line) : 0;
		if (n > 79)
			for (n = 79; n > 0 && ((unsigned char)line[n] & 0xc0) ==
			    0x80; n--)
				;
		fprintf(stderr, "\r\033[K%.*s", (int)n, line != NULL ? line :
		    "");
	} else if (line != NULL)
		fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

void
fl_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fl_vwarnx(fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

void
cli_usage_error(const struct cli *c, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	/*
	 * One line: the problem, and where the usage is.  fl_fatal() keeps
	 * it one line whatever it quotes (an argument may hold a newline).
	 */
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	/* Where the usage is: the command's own, when one is running. */
	if (c != NULL && c->cmd != NULL)
		fl_fatal("%s (see '%s %s --help')", msg, fl_progname(),
		    c->cmd);
	fl_fatal("%s (see '%s --help')", msg, fl_progname());
}

int
cli_finish(const struct cli *c, struct diags *d, const struct ir *out)
{
	int status;

	/* The diagnostics first: a terminal shows them before the output. */
	diag_print(d, stderr, c->diagfmt, fl_progname());
	status = diag_status(d);
	if (status == EXIT_OK && out != NULL && ir_write(stdout, out, d) == -1) {
		if (errno == EPIPE)
			cli_write_failed();	/* quietly */
		/* ir_write() added why, last: print that one too. */
		fprintf(stderr, "%s: %s\n", fl_progname(), d->v[d->n - 1].msg);
		status = diag_status(d);
	}
	return status;
}

void
cli_start(const char *argv0)
{
	fl_setprogname(argv0);
	signal(SIGPIPE, SIG_IGN);
	opterr = 0;
}

struct ir *
cli_read_checked(struct diags *d)
{
	static const char *const sections[] = { "resolve", "check", NULL };

	return ir_read(stdin, "check", sections, d);
}

int
cli_filter_finish(const struct cli *c, struct diags *d, const struct sb *out)
{
	int status;

	diag_print(d, stderr, c->diagfmt, fl_progname());
	status = diag_status(d);
	if (status == EXIT_OK && out != NULL)
		status = cli_write_out(NULL, out->buf, out->len);
	return status;
}
