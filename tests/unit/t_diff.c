/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_diff.c - unit tests for lib/diff.c: one case per row of the
 * specification's change table ("Schema changes and fluid diff"), each a
 * baseline contract and a changed one, resolved and checked by the
 * library (resolve_run, check_run) and compared by diff_contracts().
 *
 * The baseline is the checker tests' base contract
 * (tests/bats/fixtures/check/base.fluid.yaml, read from the top of the
 * tree, where tests/run runs this program); each case edits one place
 * of it.  The severity each case expects is the table's, written here
 * by hand; the change word and the contract path are the ones fluid-diff(1)
 * documents.  A case passes when exactly one change stands at the path,
 * with that severity and that word, and when the whole list of changes
 * (positions, old and new sides, messages) is its golden,
 * tests/golden/diff/NAME.json (NAME: the case's name, '-' for each
 * character other than a letter or a digit; the scratch directory reads
 * DIR).  T_DIFF_GOLDEN_WRITE=1 writes the goldens instead: read each
 * against the specification's table before committing it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "diff.h"
#include "jget.h"
#include "resolve.h"
#include "tap.h"
#include "xalloc.h"

#define BASE	"tests/bats/fixtures/check/base.fluid.yaml"

static char dir[] = "/tmp/t_diff.XXXXXX";	/* kept when a case fails */
static char *base;

static char *
read_base(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *s;
	long n;

	if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) != 0) {
		printf("Bail out! cannot read %s (run from the top of the "
		    "tree)\n", path);
		exit(1);
	}
	s = xmalloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, fp) != (size_t)n) {
		printf("Bail out! cannot read %s\n", path);
		exit(1);
	}
	s[n] = '\0';
	fclose(fp);
	return s;
}

/*
 * The text with its one place of old replaced by new (freed: text);
 * a text with old in none or two places bails out, as the bats helper
 * subst fails.
 */
static char *
subst(char *text, const char *old, const char *new)
{
	char *at = strstr(text, old), *out;
	size_t pre, lo = strlen(old), ln = strlen(new);

	if (at == NULL || strstr(at + 1, old) != NULL) {
		printf("Bail out! want one place with: %s\n", old);
		exit(1);
	}
	pre = (size_t)(at - text);
	out = xmalloc(strlen(text) - lo + ln + 1);
	memcpy(out, text, pre);
	memcpy(out + pre, new, ln);
	strcpy(out + pre + ln, at + lo);
	free(text);
	return out;
}

/* The edits on a copy of the base: pairs of old and new, NULL ended. */
static char *
edit(const char *const *pairs)
{
	char *s = xstrdup(base);

	for (; pairs != NULL && pairs[0] != NULL; pairs += 2)
		s = subst(s, pairs[0], pairs[1]);
	return s;
}

/* The case's golden file, tests/golden/diff/NAME.json. */
static char *
golden_path(const char *name)
{
	char *p = xasprintf("tests/golden/diff/%s.json", name), *c;

	for (c = p + strlen("tests/golden/diff/"); *c != '\0' &&
	    strcmp(c, ".json") != 0; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9'))
			*c = '-';
	return p;
}

/* The changes as JSON, the scratch directory spelt DIR. */
static char *
changes_text(const json_t *changes)
{
	char *t = jtext(changes, JSON_INDENT(2)), *at;
	size_t n = strlen(dir);

	while ((at = strstr(t, dir)) != NULL) {
		memcpy(at, "DIR", 3);
		memmove(at + 3, at + n, strlen(at + n) + 1);
	}
	return t;
}

/* The whole list of changes is the case's golden (or, asked to, is
   written as it). */
static void
golden(const char *name, const json_t *changes)
{
	char *path = golden_path(name), *got = changes_text(changes), *want;
	const char *w = getenv("T_DIFF_GOLDEN_WRITE");
	FILE *fp;

	if (w != NULL && strcmp(w, "1") == 0) {
		if ((fp = fopen(path, "w")) == NULL || fputs(got, fp) == EOF ||
		    fclose(fp) != 0) {
			printf("Bail out! cannot write %s\n", path);
			exit(1);
		}
	}
	if (access(path, R_OK) != 0) {
		ok(0, "%s: its golden %s is there", name, path);
	} else {
		want = read_base(path);
		if (!ok(strcmp(got, want) == 0, "%s: the changes are %s",
		    name, path))
			printf("# got:\n%s", got);
		free(want);
	}
	free(got);
	free(path);
}

struct side {
	json_t	*resolve;
	json_t	*check;
};

/* Resolve and check text as the file name; false when refused. */
static bool
load(const char *name, const char *text, struct side *sd)
{
	char path[64], kept[80];
	struct resolve_opts ro = { path, NULL, NULL };
	struct diags d;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) == EOF ||
	    fclose(fp) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	diags_init(&d);
	sd->check = NULL;
	if ((sd->resolve = resolve_run(&ro, &d)) != NULL) {
		diags_set_resolve(&d, sd->resolve);
		sd->check = check_run(sd->resolve, &d);
	}
	if (sd->check == NULL) {
		/* Kept for a look: fluid validate says why. */
		snprintf(kept, sizeof(kept), "%s/%d.%s", dir, tap_n + 1, name);
		if (rename(path, kept) == 0)
			printf("# refused: fluid validate %s\n", kept);
	}
	diags_release(&d);
	return sd->check != NULL;
}

static void
remove_in(const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static void
unload(struct side *sd)
{
	json_decref(sd->check);
	json_decref(sd->resolve);
}

/*
 * One case: the baseline (the base edited by old_edits) against the
 * changed contract (by new_edits); exactly one change of subject
 * ("build" or "expose") stands at path (its new side's, or its old
 * side's when it is gone), with severity sev and word change.
 */
static void
rule(const char *name, const char *const *old_edits,
    const char *const *new_edits, const char *subject, const char *path,
    enum diff_severity sev, const char *change)
{
	struct side o, n;
	char *ot = edit(old_edits), *nt = edit(new_edits);
	json_t *changes, *c, *hit = NULL, *side;
	size_t i, hits = 0;

	if (!load("old.fluid.yaml", ot, &o) | !load("new.fluid.yaml", nt,
	    &n)) {
		ok(0, "%s: both contracts check", name);
		goto out;
	}
	changes = diff_contracts(o.check, o.resolve, n.check, n.resolve);
	json_array_foreach(changes, i, c) {
		side = json_object_get(c, "new");
		if (json_is_null(side) || side == NULL)
			side = json_object_get(c, "old");
		if (json_object_get(c, subject) != NULL && strcmp(path,
		    json_string_value(json_object_get(side, "path"))) == 0) {
			hit = c;
			hits++;
		}
	}
	if (!is_int(hits, 1, "%s: one change at %s", name, path)) {
		json_array_foreach(changes, i, c)
			printf("#   %s %s %s\n", json_string_value(
			    json_object_get(c, "severity")), json_string_value(
			    json_object_get(c, "change")), json_string_value(
			    json_object_get(json_is_null(json_object_get(c,
			    "new")) ? json_object_get(c, "old") :
			    json_object_get(c, "new"), "path")));
	} else {
		is_str(json_string_value(json_object_get(hit, "severity")),
		    diff_severity_name(sev), "%s: %s", name,
		    diff_severity_name(sev));
		is_str(json_string_value(json_object_get(hit, "change")),
		    change, "%s: the change is '%s'", name, change);
	}
	golden(name, changes);
	json_decref(changes);
out:
	unload(&o);
	unload(&n);
	free(ot);
	free(nt);
}

/* The base against itself: no change, each count 0. */
static void
self_test(void)
{
	struct side o, n;
	json_t *changes;

	if (!load("old.fluid.yaml", base, &o) | !load("new.fluid.yaml", base,
	    &n)) {
		ok(0, "the base contract checks");
	} else {
		changes = diff_contracts(o.check, o.resolve, n.check,
		    n.resolve);
		is_int(json_array_size(changes), 0, "the base against itself: "
		    "no change");
		is_int(diff_count(changes, DIFF_BREAKING) + diff_count(changes,
		    DIFF_NON_BREAKING) + diff_count(changes, DIFF_INFO), 0,
		    "the base against itself: no change of any severity");
		json_decref(changes);
	}
	unload(&o);
	unload(&n);
}

/* Edits the cases share. */
#define NARROW_OLD	"          - name: amount\n" \
			"            type: decimal(18,2)"
#define NARROW_NEW	"          - name: amount\n" \
			"            type: decimal(10,2)"
#define EXPLODE(p)	"        columns:", \
			"        explode: {path: " p ", as: item}\n" \
			"        columns:"
#define LINES		"          - name: lines\n" \
			"            type: array\n" \
			"            element: {type: struct, fields: " \
			"[{name: sku, type: string}]}\n" \
			"          # +stream"
/* No mapping: the build's table is then filled by its own SQL. */
#define NO_MAPPING \
	"      mapping:\n        columns:\n" \
	"          - {name: customer_id, from: customer.id}\n" \
	"          - {name: country, from: customer.address.country}\n" \
	"          # +columns\n", "", \
	"        - {name: customer_id, type: string}\n" \
	"        - {name: country, type: string}\n", "", \
	"        partitionSpec:\n" \
	"          - {column: country, transform: identity}\n" \
	"          # +partitionSpec\n", ""
#define OWN_SQL(q)	"      parameters:", \
			"      sql: " q "\n      parameters:"
/* A second build, ingest-returns, writing expose returns. */
#define RETURNS_EXPOSE	"  # +exposes", \
	"  - exposeId: returns\n    kind: table\n    binding:\n" \
	"      format: iceberg\n      location:\n        catalog: rest\n" \
	"        uri: https://catalog.example.com/api/catalog\n" \
	"        warehouse: s3://lake/warehouse\n        namespace: shop\n" \
	"        table: returns\n    contract:\n      schema:\n" \
	"        - {name: return_id, type: string, required: true}\n" \
	"  # +exposes"
#define RETURNS_BUILD(stream) "secretRefs: [flink-storage]\n", \
	"secretRefs: [flink-storage]\n" \
	"  - id: ingest-returns\n    engine: flink\n" \
	"    outputs: [returns]\n    properties:\n" stream \
	"      parameters:\n        flink:\n" \
	"          management: operator\n" \
	"          source: {bootstrapServers: \"kafka:9092\", " \
	"groupId: returns-v1}\n" \
	"          deployment:\n            name: shop-returns\n" \
	"            namespace: data-products\n" \
	"            context: development\n" \
	"            serviceAccount: flink\n" \
	"            image: registry.example.com/forge-flink@sha256:" \
	"0000000000000000000000000000000000000000000000000000000000000000\n" \
	"            checkpointUri: " \
	"s3://flink-state/shop-returns/checkpoints\n" \
	"            savepointUri: s3://flink-state/shop-returns/savepoints\n" \
	"            haUri: s3://flink-state/shop-returns/ha\n"
#define RETURNS_STREAM	"      stream:\n        kind: kafka\n" \
	"        topic: returns\n        format: json\n        schema:\n" \
	"          - {name: return_id, type: string, required: true}\n"
#define RETURNS_SQL	"      sql: SELECT * FROM source_events\n"

static const char *const none[] = { NULL };
static const char *const topic[] = {
	"topic: orders", "topic: orders-v2", NULL
};
static const char *const avro[] = {
	"format: json\n        schema:",
	"format: avro-confluent\n        schema:",
	"            # +source", "            schemaRegistryUrl: "
	"https://registry.example.com\n            # +source",
	"{name: event_time, type: timestamp_ltz(3)}",
	"{name: event_time, type: timestamp(3)}",
	"type: timestamp_ltz(3)\n          # +stream",
	"type: timestamp(3)\n          # +stream",
	NULL
};
static const char *const key_json[] = {
	"format: raw", "format: json", NULL
};
static const char *const meta_partition[] = {
	"          # +metadata",
	"          - {name: kafka_epoch, from: partition}", NULL
};
static const char *const meta_epoch[] = {
	"          # +metadata",
	"          - {name: kafka_epoch, from: leader-epoch}", NULL
};
static const char *const note_required[] = {
	"          # +stream", "          - {name: note, type: string, "
	"required: true}\n          # +stream", NULL
};
static const char *const country_required[] = {
	"                  - name: country\n"
	"                    type: string",
	"                  - name: country\n"
	"                    type: string\n"
	"                    required: true", NULL
};
static const char *const narrow[] = { NARROW_OLD, NARROW_NEW, NULL };
static const char *const city_long[] = {
	"                  - name: city\n"
	"                    type: string",
	"                  - name: city\n"
	"                    type: long", NULL
};
static const char *const drop_attributes[] = {
	"          - name: attributes\n            type: map\n"
	"            key: {type: string, required: true}\n"
	"            value: {type: string}\n", "", NULL
};
static const char *const explode_items[] = { EXPLODE("items"), NULL };
static const char *const explode_old[] = {
	"          # +stream", LINES, EXPLODE("items"), NULL
};
static const char *const explode_new[] = {
	"          # +stream", LINES, EXPLODE("lines"), NULL
};
static const char *const read_city[] = {
	"{name: country, from: customer.address.country}",
	"{name: country, from: customer.address.city}", NULL
};
static const char *const no_mapping[] = { NO_MAPPING, NULL };
static const char *const sql_star[] = {
	NO_MAPPING, OWN_SQL("SELECT * FROM source_events"), NULL
};
static const char *const sql_one[] = {
	NO_MAPPING, OWN_SQL("SELECT event_id FROM source_events"), NULL
};
static const char *const sql_renamed[] = {
	NO_MAPPING, OWN_SQL("SELECT * FROM source_events"),
	"id: ingest-orders", "id: ingest-orders-v2", NULL
};
static const char *const returns_stream[] = {
	RETURNS_EXPOSE, RETURNS_BUILD(RETURNS_STREAM), NULL
};
static const char *const returns_both[] = {
	RETURNS_EXPOSE, RETURNS_BUILD(RETURNS_STREAM RETURNS_SQL), NULL
};

/* The cases, by the rows of the table, each severity the table's. */
static const struct row {
	const char		*name;
	const char *const	*old_edits, *const *new_edits;
	const char		*subject, *path;
	enum diff_severity	 sev;
	const char		*change;
} rows[] = {
	/* Another topic, value format, key format or metadata source. */
	{ "another topic", none, topic,
	    "build", "properties.stream.topic",
	    DIFF_BREAKING, "topic" },
	{ "another value format", none, avro,
	    "build", "properties.stream.format",
	    DIFF_BREAKING, "format" },
	{ "another key format", none, key_json,
	    "build", "properties.stream.key.format",
	    DIFF_BREAKING, "key-format" },
	{ "another metadata source", meta_partition, meta_epoch,
	    "build", "properties.stream.metadata.kafka_epoch",
	    DIFF_BREAKING, "metadata" },
	/* A field the job newly requires, or one that becomes required. */
	{ "a newly required field", none, note_required,
	    "build", "properties.stream.schema.note",
	    DIFF_BREAKING, "required" },
	{ "a field that becomes required", none, country_required,
	    "build", "properties.stream.schema.customer.address.country",
	    DIFF_BREAKING, "required" },
	/* A narrowed or changed field type; a widening is non-breaking. */
	{ "a narrowed field type", none, narrow,
	    "build", "properties.stream.schema.amount",
	    DIFF_BREAKING, "narrowed" },
	{ "a changed field type", none, city_long,
	    "build", "properties.stream.schema.customer.address.city",
	    DIFF_BREAKING, "retyped" },
	{ "a widened field type", narrow, none,
	    "build", "properties.stream.schema.amount",
	    DIFF_NON_BREAKING, "widened" },
	/* A field the job stops reading. */
	{ "a field the job stops reading", none, drop_attributes,
	    "build", "properties.stream.schema.attributes",
	    DIFF_NON_BREAKING, "dropped" },
	/* An explode added, removed or moved. */
	{ "an explode added", none, explode_items,
	    "build", "properties.mapping.explode.path",
	    DIFF_BREAKING, "explode" },
	{ "an explode removed", explode_items, none,
	    "build", "properties.mapping.explode.path",
	    DIFF_BREAKING, "explode" },
	{ "an explode moved", explode_old, explode_new,
	    "build", "properties.mapping.explode.path",
	    DIFF_BREAKING, "explode" },
	/* An output read from another path or with another conversion. */
	{ "an output read from another path", none, read_city,
	    "build", "properties.mapping.columns[1].from",
	    DIFF_NON_BREAKING, "read-from" },
	{ "an output read with another conversion", none, narrow,
	    "build", "exposes[0].contract.schema.amount",
	    DIFF_NON_BREAKING, "read-from" },
	/*
	 * A build that starts running its own SQL, or changes it, including
	 * a new or renamed build.
	 */
	{ "a build that starts running its own SQL", no_mapping, sql_star,
	    "build", "properties.sql",
	    DIFF_BREAKING, "sql" },
	{ "a build whose own SQL changes", sql_star, sql_one,
	    "build", "properties.sql",
	    DIFF_BREAKING, "sql" },
	{ "a new build that runs its own SQL", none, returns_both,
	    "build", "properties.sql",
	    DIFF_BREAKING, "sql" },
	{ "a renamed build that runs its own SQL", sql_star, sql_renamed,
	    "build", "properties.sql",
	    DIFF_BREAKING, "sql" },
	/* A build that declares or drops its stream. */
	{ "a build that declares its stream (a new one)", none, returns_stream,
	    "build", "properties.stream",
	    DIFF_INFO, "stream" },
	{ "a build that drops its stream (it goes)", returns_stream, none,
	    "build", "properties.stream",
	    DIFF_INFO, "stream" },
};

int
main(void)
{
	const struct row *r;

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	base = read_base(BASE);
	self_test();
	for (r = rows; r < rows + sizeof(rows) / sizeof(*rows); r++)
		rule(r->name, r->old_edits, r->new_edits, r->subject, r->path,
		    r->sev, r->change);
	free(base);
	if (tap_failed == 0) {
		remove_in("old.fluid.yaml");
		remove_in("new.fluid.yaml");
		if (rmdir(dir) != 0)
			printf("# %s is left\n", dir);
	}
	return done_testing();
}
