/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * api.c - libfluid's public interface (lib/fluid/fluid.h, installed as
 * fluid/fluid.h): thin
 * fluid_ entry points over the stages, the only names the installed
 * libfluid.a leaves global (the Makefile localizes the rest), so that
 * the library's own helpers cannot clash with a program's.
 */
#include <stdlib.h>

#include <fluid/fluid.h>

#include "diag.h"
#include "resolve.h"
#include "stage.h"
#include "xalloc.h"

/* The public type is opaque, so struct diags may change under it. */
struct fluid_diags {
	struct diags	d;
};

/* The public enums are the library's, checked here, not converted. */
_Static_assert((int)FLUID_OK == (int)EXIT_OK &&
    (int)FLUID_REFUSED == (int)EXIT_REFUSED &&
    (int)FLUID_USAGE == (int)EXIT_USAGE, "fluid_status is fl_exit");
_Static_assert((int)FLUID_FORMAT_TEXT == (int)DIAG_FORMAT_TEXT &&
    (int)FLUID_FORMAT_JSON == (int)DIAG_FORMAT_JSON,
    "fluid_format is diag_format");

const char *
fluid_version(void)
{
	return FLUID_VERSION;
}

struct fluid_diags *
fluid_diags_new(void)
{
	struct fluid_diags *fd = xmalloc(sizeof(*fd));

	diags_init(&fd->d);
	return fd;
}

void
fluid_diags_free(struct fluid_diags *fd)
{
	if (fd == NULL)
		return;
	diags_release(&fd->d);
	free(fd);
}

int
fluid_diags_status(const struct fluid_diags *fd)
{
	return diag_status(&fd->d);
}

void
fluid_diags_print(const struct fluid_diags *fd, FILE *fp,
    enum fluid_format format, const char *prog)
{
	diag_print(&fd->d, fp, (enum diag_format)format, prog);
}

json_t *
fluid_resolve(const char *path, struct fluid_diags *fd)
{
	struct resolve_opts o = { .path = path };

	return stage_resolve(&o, &fd->d);
}

json_t *
fluid_check(json_t *doc, struct fluid_diags *fd)
{
	return stage_check(doc, &fd->d);
}
