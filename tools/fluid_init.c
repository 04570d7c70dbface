/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_init.c - fluid init [DIR]: a commented starter contract, its
 * workspace file and the schema its first line names, written into DIR
 * (made if missing).  It never replaces a file: when one of them exists
 * it refuses before writing anything, and a failed write takes back the
 * files this run made, so a run leaves all of them or none.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

static const char contract_text[] =
#include "init_contract.inc"
;
static const char workspace_text[] =
#include "init_workspace.inc"
;

/* The files, in the order written; the contract's header names the schema. */
static const struct {
	const char	*name;
	const char	*text;
} files[] = {
	{ "product.fluid.yaml", contract_text },
	{ "fluid.workspace.yaml", workspace_text },
	{ "fluid.schema.json", fluid_schema_text },
};
#define NFILES	(sizeof(files) / sizeof(*files))

/* Write text to a new file path (O_EXCL: never over one): 0 or -1. */
static int
write_new(const char *path, const char *text)
{
	size_t len = strlen(text), off = 0;
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0666)) == -1)
		return -1;
	while (off < len) {
		if ((n = write(fd, text + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		off += (size_t)n;
	}
	if (off < len || fsync(fd) == -1 || close(fd) == -1) {
		e = errno;
		close(fd);
		unlink(path);
		errno = e;
		return -1;
	}
	return 0;
}

/* A file is there: say so (nothing of this run is left). */
static void
refuse(const char *path)
{
	fprintf(stderr, "%s: '%s' exists: init wrote nothing (it never "
	    "replaces a file)\n", fl_progname(), path);
}

int
cmd_init(int argc, char *argv[])
{
	struct cli cli;
	struct stat st;
	char *path[NFILES];
	const char *dir = ".";
	size_t i, j;
	int c, e, ret = EXIT_REFUSED;

	cli_init(&cli, &fluid_spec, "init");
	while ((c = cli_next(&cli, argc, argv)) != -1)
		cli_usage_error(&cli, "init takes no --%s",
		    cli_opt_name(&cli, c));
	if (argc - optind > 1)
		cli_usage_error(&cli, "init expects at most one DIR");
	if (optind < argc)
		dir = argv[optind];
	for (i = 0; i < NFILES; i++)
		path[i] = xasprintf("%s/%s", dir, files[i].name);
	/* Every refusal before the first write. */
	for (i = 0; i < NFILES; i++)
		if (lstat(path[i], &st) == 0) {
			refuse(path[i]);
			goto cleanup;
		}
	if (atomic_mkdirs(dir) == -1)
		fl_fatal("cannot create the directory '%s':", dir);
	for (i = 0; i < NFILES; i++) {
		if (write_new(path[i], files[i].text) == 0)
			continue;
		e = errno;
		for (j = 0; j < i; j++)
			unlink(path[j]);
		errno = e;
		if (e != EEXIST)
			fl_fatal("cannot write '%s':", path[i]);
		refuse(path[i]);	/* made since the check above */
		goto cleanup;
	}
	for (i = 0; i < NFILES; i++)
		printf("wrote %s\n", path[i]);
	ret = cli_flush();
cleanup:
	for (i = 0; i < NFILES; i++)
		free(path[i]);
	return ret;
}
