/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * seedgen.c - seed corpora for the fuzz targets, made from the YAML
 * files of examples/ and tests/ by the library itself.
 *
 *	seedgen OUTDIR FILE...
 *
 * For each FILE that resolves, OUTDIR/check/ gets its resolved
 * document (fuzz_check's input form), and, when it passes the check,
 * OUTDIR/sqlgen/ its check section and OUTDIR/ir/ the pipeline document
 * fluid-check writes (fuzz_ir's input).  Every "type" string and IR column
 * met on the way goes to OUTDIR/types/, every "from" or "path" string
 * to OUTDIR/path/.  Names are digests, so a seed is written once.
 * Diagnostics are not printed: refused files just give no seed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"

/* The library never exits; this program does, on a usage or write error. */
static _Noreturn void __attribute__((format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = fl_vmessage(fmt, ap);
	va_end(ap);
	fprintf(stderr, "seedgen: %s\n", msg);
	exit(2);
}

static const char *outdir;

static void
seed(const char *kind, const char *text, size_t len)
{
	char digest[DIGEST_STRLEN], *path;

	digest_bytes(text, len, digest);
	path = xasprintf("%s/%s/%.16s", outdir, kind, digest + 7);
	if (atomic_write(path, text, len) == -1)
		die("cannot write '%s':", path);
	free(path);
}

static void
seed_json(const char *kind, const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

	seed(kind, s, strlen(s));
	free(s);
}

static void
harvest(const json_t *v)
{
	const char *k;
	json_t *c;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach((json_t *)(uintptr_t)v, k, c) {
			if (strcmp(k, "type") == 0 && json_is_string(c))
				seed("types", json_string_value(c),
				    json_string_length(c));
			if ((strcmp(k, "from") == 0 || strcmp(k, "path") == 0) &&
			    json_is_string(c))
				seed("path", json_string_value(c),
				    json_string_length(c));
			harvest(c);
		}
		if (json_is_boolean(json_object_get(v, "required")) &&
		    json_is_string(json_object_get(v, "type")))
			seed_json("types", v);
	} else if (json_is_array(v))
		json_array_foreach(v, i, c)
			harvest(c);
}

int
main(int argc, char *argv[])
{
	struct resolve_opts o = { NULL, NULL, NULL };
	json_t *section, *ir, *doc;
	struct diags d;
	int i;

	if (argc < 2)
		die("usage: seedgen OUTDIR FILE...");
	outdir = argv[1];
	for (i = 2; i < argc; i++) {
		o.path = argv[i];
		diags_init(&d);
		section = resolve_run(&o, &d);
		if (section != NULL) {
			seed_json("check", json_object_get(section,
			    "document"));
			harvest(json_object_get(section, "document"));
			diags_set_resolve(&d, section);
			if ((ir = check_run(section, &d)) != NULL) {
				seed_json("sqlgen", ir);
				harvest(ir);
				doc = ir_new();
				ir_add_stage(doc, "resolve", json_incref(section));
				ir_add_stage(doc, "check", ir);
				seed_json("ir", doc);
				json_decref(doc);
			}
		}
		json_decref(section);
		diags_release(&d);
	}
	return 0;
}
