/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sarif.c - SARIF 2.1.0 logs of diagnostics (see sarif.h).
 */
#include <stdlib.h>
#include <string.h>

#include "jget.h"
#include "sarif.h"
#include "xalloc.h"

#define SARIF_SCHEMA	"https://json.schemastore.org/sarif-2.1.0.json"

json_t *
sarif_new(const char *driver, const char *version)
{
	return json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:[]}}, s:[]}]}",
	    "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", "tool",
	    "driver", "name", driver, "version", version, "rules",
	    "results");
}

/*
 * path as a relative URI reference (RFC 3986): every byte but the
 * unreserved ones and '/' percent-encoded, so that a blank, '#', '%' or
 * a byte that is not UTF-8 in a file name still makes a valid URI.
 */
static char *
uri_of(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;
	struct sb o;

	sb_init(&o);
	for (p = (const unsigned char *)path; *p != '\0'; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
			sb_addc(&o, (char)*p);
		else {
			sb_addc(&o, '%');
			sb_addc(&o, hex[*p >> 4]);
			sb_addc(&o, hex[*p & 15]);
		}
	return o.buf != NULL ? sb_steal(&o) : xstrdup("");
}

/* rule's index in driver.rules, added the first time. */
static size_t
rule_index(json_t *rules, const char *rule)
{
	size_t i;
	json_t *r;

	json_array_foreach(rules, i, r)
		if (strcmp(json_string_value(json_object_get(r, "id")),
		    rule) == 0)
			return i;
	json_array_append_new(rules, json_pack("{s:s, s:{s:s}}", "id", rule,
	    "shortDescription", "text", strcmp(rule, "fluid-resolve") == 0 ?
	    "the contract as read: YAML, $ref and the workspace" :
	    strcmp(rule, "fluid-check") == 0 ?
	    "the contract's static rules (fluid-check(1))" :
	    "a fluid stage's rules"));
	return json_array_size(rules) - 1;
}

void
sarif_add(json_t *log, const struct diags *d, const char *rule,
    const char *contract)
{
	json_t *run = json_array_get(json_object_get(log, "runs"), 0);
	json_t *rules = json_object_get(json_object_get(json_object_get(run,
	    "tool"), "driver"), "rules");
	json_t *results = json_object_get(run, "results"), *res, *phys;
	const struct diag *g;
	size_t i, ri;
	char *uri;

	for (i = 0; i < d->n; i++) {
		g = &d->v[i];
		ri = rule_index(rules, rule);
		uri = uri_of(g->file != NULL ? g->file : contract);
		phys = json_pack("{s:{s:s}}", "artifactLocation", "uri", uri);
		free(uri);
		if (g->file != NULL && g->line > 0)
			json_object_set_new(phys, "region", g->col > 0 ?
			    json_pack("{s:i, s:i}", "startLine", g->line,
			    "startColumn", g->col) : json_pack("{s:i}",
			    "startLine", g->line));
		/* one_line() made every message UTF-8: json_pack() cannot
		 * fail on it. */
		res = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[{s:o}]}",
		    "ruleId", rule, "ruleIndex", (int)ri, "level",
		    g->level == DIAG_WARNING ? "warning" : "error", "message",
		    "text", g->msg, "locations", "physicalLocation", phys);
		if (res != NULL)
			json_array_append_new(results, res);
	}
}

char *
sarif_text(const json_t *log)
{
	char *t = jtext(log, JSON_PRESERVE_ORDER);

	if (t == NULL)
		xalloc_die("sarif_text");
	return t;
}
