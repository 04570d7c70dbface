/*
 * cli.c - option handling and exit shared by the tools (see cli.h).
 */
#include <errno.h>
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

/* What --help describes: the whole tool, or one command of it. */
static const char *help_prog, *help_cmd;

void
cli_help_for(const char *prog, const char *cmd)
{
	help_prog = prog;
	help_cmd = cmd;
}

int
cli_common(struct cli *c, const char *opt, const char *arg)
{
	int f;

	if (strcmp(opt, "help") == 0) {
		if (help_cmd == NULL || cli_command_usage(stdout, c->usage,
		    help_prog, help_cmd) == -1)
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

/* Whether line (up to its newline) starts with "PROG CMD" then a blank. */
static int
names_command(const char *line, const char *prog, const char *cmd)
{
	size_t p = strlen(prog), c = strlen(cmd);

	return strncmp(line, prog, p) == 0 && line[p] == ' ' &&
	    strncmp(line + p + 1, cmd, c) == 0 &&
	    (line[p + 1 + c] == ' ' || line[p + 1 + c] == '\n');
}

int
cli_command_usage(FILE *fp, const char *usage, const char *prog,
    const char *cmd)
{
	const char *l, *nl, *word;
	size_t n, found = 0;
	int in = 0;

	for (l = usage; *l != '\0'; l = nl + 1) {
		if ((nl = strchr(l, '\n')) == NULL)
			break;
		n = (size_t)(nl - l);
		/* A synopsis line: "usage: " or seven blanks, then the name. */
		word = strncmp(l, "usage: ", 7) == 0 || strncmp(l, "       ",
		    7) == 0 ? l + 7 : NULL;
		if (word != NULL && *word != ' ') {
			in = names_command(word, prog, cmd);
			if (in)
				fprintf(fp, "%s%.*s\n", found++ == 0 ?
				    "usage: " : "       ", (int)(n - 7),
				    word);
			continue;
		}
		/* Its continuation lines are indented deeper. */
		if (in && strncmp(l, "        ", 8) == 0 && word != NULL) {
			fprintf(fp, "%.*s\n", (int)n, l);
			continue;
		}
		in = 0;
	}
	if (found == 0)
		return -1;
	/* The paragraph: "  CMD" at two blanks, and what is indented under it. */
	for (l = usage, in = 0; *l != '\0'; l = nl + 1) {
		if ((nl = strchr(l, '\n')) == NULL)
			break;
		n = (size_t)(nl - l);
		if (strncmp(l, "  ", 2) == 0 && l[2] != ' ') {
			in = strncmp(l + 2, cmd, strlen(cmd)) == 0 &&
			    (l[2 + strlen(cmd)] == ' ' ||
			    l + 2 + strlen(cmd) == nl);
			if (in)
				fputc('\n', fp);
		} else if (n == 0 || strncmp(l, "   ", 3) != 0)
			in = 0;
		if (in)
			fprintf(fp, "%.*s\n", (int)n, l);
	}
	return 0;
}

void
cli_start(const char *argv0)
{
	fl_setprogname(argv0);
	signal(SIGPIPE, SIG_IGN);
	opterr = 0;
}

int
cli_getopt(struct cli *c, int argc, char *argv[], const struct option *opts)
{
	int ch, idx;

	for (;;) {
		idx = -1;
		if ((ch = getopt_long(argc, argv, ":h", opts, &idx)) == -1)
			return -1;
		if (ch == 'h')
			cli_common(c, "help", NULL);
		if (ch == '?' || ch == ':' || idx < 0)
			cli_bad_option(c, argv, ch);
		if (!cli_common(c, opts[idx].name, optarg))
			return ch;
	}
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
	(void)c;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
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
cli_bad_option(const struct cli *c, char *const argv[], int ch)
{
	const char *arg = argv[optind - 1];

	/* getopt was told to be quiet (opterr = 0, optstring ":..."). */
	if (ch == ':')
		cli_usage_error(c, "option '%s' needs an argument", arg);
	if (optopt != 0)
		cli_usage_error(c, "unknown option '-%c'", optopt);
	cli_usage_error(c, "unknown option '%s'", arg);
}
