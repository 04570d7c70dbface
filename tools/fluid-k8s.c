/*
 * fluid-k8s - the Kubernetes side of a managed build.
 *
 * fluid-k8s render is a filter: fluid-sqlgen's document in, the same
 * document with the "k8s" section out (an immutable ConfigMap and a
 * FlinkDeployment per build, lib/k8s_render.c); with --resources, only
 * the resources, as a kubectl List.  It contacts nothing: the resources
 * come from the document alone (lib/k8s.h).
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"

static const char usage[] =
"usage: fluid-k8s render [--resources [--yaml]] [--diagnostics=text|json]\n"
"           < SQLGEN\n"
"\n"
"Render the Kubernetes resources of every managed build of a contract\n"
"(the output of fluid-sqlgen): an immutable ConfigMap with the build's\n"
"SQL script and table file, and a FlinkDeployment that runs it.\n"
"\n"
"  --resources           print only the resources, as a kubectl List (JSON)\n"
"  --yaml                with --resources: print them as YAML\n"
"  --diagnostics=FORMAT  print diagnostics as text (default) or json lines\n"
"  --help, --version\n"
"\n"
"Exit status: 0 written, 1 refused, 2 usage or environment error.\n";

/* The List, as JSON or YAML, on standard output. */
static int
print_resources(const json_t *section, int yaml)
{
	json_t *list = k8s_list(section);
	struct sb y;
	char *text;
	int st = EXIT_OK;

	sb_init(&y);
	if (yaml) {
		if (yemit(list, &y) == -1)
			fl_fatal("cannot write the resources as YAML");
	} else {
		if ((text = json_dumps(list, JSON_INDENT(2))) == NULL)
			fl_fatal("cannot write the resources as JSON");
		sb_adds(&y, text);
		sb_addc(&y, '\n');
		free(text);
	}
	json_decref(list);
	if (fwrite(y.buf, 1, y.len, stdout) != y.len || fflush(stdout) == EOF ||
	    ferror(stdout)) {
		fl_warnx("cannot write standard output:");
		st = EXIT_USAGE;
	}
	sb_release(&y);
	return st;
}

int
main(int argc, char *argv[])
{
	static const char *const sections[] = { "resolve", "check", "sqlgen",
	    NULL };
	static const struct option opts[] = {
		{ "resources", no_argument, NULL, 'r' },
		{ "yaml", no_argument, NULL, 'y' },
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { usage, DIAG_FORMAT_TEXT };
	struct diags d;
	struct ir *in;
	json_t *doc, *section;
	int c, status, resources = 0, yaml = 0;

	cli_start(argv[0]);
	while ((c = cli_getopt(&cli, argc, argv, opts)) != -1) {
		switch (c) {
		case 'r':
			resources = 1;
			break;
		case 'y':
			yaml = 1;
			break;
		default:
			cli_bad_option(&cli, argv, c);
		}
	}
	if (optind == argc)
		cli_usage_error(&cli, "expects a command: render");
	if (strcmp(argv[optind], "render") != 0)
		cli_usage_error(&cli, "unknown command '%s'", argv[optind]);
	if (optind + 1 != argc)
		cli_usage_error(&cli, "render reads standard input; no FILE");
	if (yaml && !resources)
		cli_usage_error(&cli, "--yaml goes with --resources");

	diags_init(&d);
	if ((in = ir_read(stdin, "sqlgen", sections, &d)) == NULL) {
		diag_print(&d, stderr, cli.diagfmt, fl_progname());
		status = diag_status(&d);
		diags_release(&d);
		return status;
	}
	doc = ir_doc(in);
	section = stage_k8s(doc, &d);
	if (resources) {
		diag_print(&d, stderr, cli.diagfmt, fl_progname());
		status = diag_status(&d);
		if (status == EXIT_OK)
			status = print_resources(section, yaml);
	} else
		status = cli_finish(&cli, &d, in);
	ir_keep_to_end(json_incref(doc));
	ir_free(in);
	diags_release(&d);
	return status;
}
