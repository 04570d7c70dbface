/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * apply_cli.c - what fluid apply and fluid-k8s apply share as tools:
 * their --mode and --wait read, a plan read from a file or standard
 * input, and the project .env warning; the checks and writes are
 * lib/kube_apply.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fluid.h"
#include "kube_apply.h"
#include "cli.h"
#include "apply_cli.h"

/* warn_dotenv(): one warning per line of the .env that sets a list. */
static void
dotenv_found(void *arg, size_t line, const char *var)
{
	fl_warnx("warning: %s:%zu: sets %s, which only the operator's "
	    "environment (a shell or a CI variable) can set: ignored",
	    (const char *)arg, line, var);
}

void
warn_dotenv(const char *path)
{
	struct stat st;
	unsigned char *buf;
	size_t len;
	FILE *fp;

	/* Only a regular file, and only its names are read (allow.h). */
	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (fp = fopen(path, "r")) == NULL)
		return;
	if (slurp(fp, 1 << 20, &buf, &len) == 0) {
		(void)allow_settings_in_text((const char *)buf, len,
		    dotenv_found, (void *)path);
		free(buf);
	}
	fclose(fp);
}

static void
print_line(void *arg, const char *line)
{
	(void)arg;
	printf("%s\n", line);
	fflush(stdout);
}

int
apply_mode(const struct cli *cli, const char *modestr, enum k8s_mode *mode)
{
	const char *why;

	if (modestr == NULL)
		cli_usage_error(cli, "apply needs --mode: the plan's mode");
	if (k8s_mode_parse(modestr, mode, &why) == 0)
		return 0;
	if (strcmp(modestr, "replace") != 0 && strcmp(modestr, "reset") != 0)
		cli_usage_error(cli, "--mode %s %s", modestr, why);
	fl_warnx("--mode %s %s", modestr, why);
	return -1;
}

int
apply_plan_file(FILE *fp, const char *path, enum k8s_mode mode, int yes,
    int wait_s, enum diag_format fmt)
{
	static int tty;
	struct kube_apply_opts o = { mode, wait_s, getenv, path, print_line,
	    NULL, NULL, &tty };
	json_error_t err;
	struct allow al;
	struct diags d;
	unsigned char *buf;
	json_t *plan;
	size_t len;
	int st;

	/* The wait's progress on a terminal only: a CI log gets the result. */
	if ((tty = isatty(STDERR_FILENO)))
		o.progress = cli_progress;
	/* A plan holds a pipeline document's worth: that bound, read. */
	if (slurp(fp, FL_MAX_IR_BYTES, &buf, &len) == -1) {
		if (errno == EFBIG)
			fl_fatal("'%s' is larger than %u bytes, the limit of a "
			    "pipeline document and of a plan: not read", path,
			    FL_MAX_IR_BYTES);
		fl_fatal("cannot read '%s':", path);
	}
	plan = json_loadb((const char *)buf, len, JSON_REJECT_DUPLICATES,
	    &err);
	free(buf);
	if (plan == NULL)
		fl_fatal("'%s' is not a plan (%d:%d: %s): apply reads the "
		    "output of fluid plan or fluid-k8s plan, not a contract: "
		    "make one with 'fluid plan --mode MODE CONTRACT > "
		    "plan.json'", path, err.line, err.column, err.text);
	warn_dotenv(".env");
	allow_load(&al, getenv);
	diags_init(&d);
	kube_apply_run(plan, &al, yes, &o, &d);
	diag_print(&d, stderr, fmt, fl_progname());
	st = diag_status(&d);
	diags_release(&d);
	allow_release(&al);
	json_decref(plan);
	return st;
}

