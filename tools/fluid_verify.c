/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_verify.c - fluid verify CONTRACT, a command of the driver
 * (fluid.c) in a file of its own: it contacts the catalog (net.h),
 * which no other command of the driver does.  The evidence is
 * lib/stage_verify.c's, as fluid-verify's; this file only reads the
 * options and prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fluid.h"
#include "jget.h"
#include "cli.h"
#include "net.h"
#include "verify.h"
#include "fluid_cmd.h"

/*
 * fluid verify CONTRACT [--strict] [--streaming-timeout S] [--out F]:
 * fluid-resolve | fluid-check | fluid-sqlgen | fluid-k8s render |
 * fluid-verify in one process, its evidence printed one line a piece;
 * --out writes the report (delivery.json) whole or not at all.
 */
int
cmd_verify(int argc, char *argv[])
{
	struct cli cli;
	struct verify_opts vo;
	struct net_opts no;
	struct resolve_opts ro;
	struct diags d;
	json_t *doc, *report, *b, *p;
	const char *out = NULL;
	char *end;
	size_t i, k;
	int c, rc, tty;

	memset(&vo, 0, sizeof(vo));
	memset(&no, 0, sizeof(no));
	memset(&ro, 0, sizeof(ro));
	vo.timeout_s = 120;
	cli_init(&cli, &fluid_spec, "verify");
	while ((c = cli_next(&cli, argc, argv)) != -1) {
		switch (c) {
		case OPT_STRICT:
			vo.strict = true;
			break;
		case OPT_STREAMING_TIMEOUT:
			vo.timeout_s = cli_seconds(&cli, c, optarg, 0,
			    86400);
			break;
		case 'o':
			out = optarg;
			break;
		case 'q':
			cli_quiet = 1;
			break;
		}
	}
	if (optind != argc - 1)
		cli_usage_error(&cli, "verify expects one FILE");
	ro.path = input_path(argv[optind]);
	/*
	 * Before the stages: lib/digest.c starts OpenSSL without its digest
	 * table, which certificate checks need; libcurl's start loads it.
	 */
	if (net_init() == -1)
		fl_fatal("cannot initialise libcurl");
	rc = cli_stages(&ro, cli.diagfmt, STAGE_K8S, "verify", &doc);
	if (rc != 0)
		return rc;
	diags_init(&d);
	if (verify_env(&vo, &no, getenv, &d) == -1) {
		diag_print(&d, stderr, cli.diagfmt, "fluid");
		return diag_status(&d);
	}
	tty = isatty(STDERR_FILENO);
	vo.progress = cli_progress;
	vo.arg = &tty;
	report = stage_verify(doc, &vo, &d);
	net_cleanup();
	diag_print(&d, stderr, cli.diagfmt, "fluid");
	rc = diag_status(&d);
	diags_release(&d);
	if (report == NULL)
		return rc;
	json_array_foreach(json_object_get(report, "builds"), i, b)
		json_array_foreach(json_object_get(b, "evidence"), k, p)
			printf("%s: %s: %s\n", json_string_value(
			    json_object_get(b, "build")), json_string_value(
			    json_object_get(p, "evidence")), json_string_value(
			    json_object_get(p, "outcome")));
	if (out != NULL) {
		end = jtext(report, JSON_SORT_KEYS);
		if (end == NULL)
			fl_fatal("cannot write the report as JSON");
		c = cli_write_out(out, end, strlen(end));
		free(end);
		return c != 0 ? c : rc;
	}
	c = cli_flush();
	return c != 0 ? c : rc;
}
