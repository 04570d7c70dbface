/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_yload.c - the YAML loader with positions (yload.h).
 *
 * Properties: a refusal adds an error and returns no tree; an accepted
 * document has a position for its root, every position holds a line
 * and a column from 1; and what yemit() writes loads back as the same value
 * (fluid bundle relies on that for its digest), for documents of up to
 * ROUNDTRIP_MAX_NODES nodes.
 */
#include "fuzz.h"

#define ROUNDTRIP_MAX_NODES	50000

static void
check_positions(json_t *doc, const struct ypos *pos)
{
	struct jptab *t;
	size_t i;

	if (pos == NULL || pos->n == 0)
		fuzz_fail("no position for the root");
	for (i = 0; i < pos->n; i++)
		if (pos->v[i].line < 1 || pos->v[i].col < 1)
			fuzz_fail("a position that is not a line and a column");
	/* The table by pointer that fluid-resolve builds from the list. */
	t = ypos_table(pos, doc);
	if (jptab_get(t, "", 0) == NULL)
		fuzz_fail("no position for the root in the table");
	jptab_free(t);
}

static void
check_roundtrip(json_t *doc)
{
	struct diags d;
	struct sb y;
	json_t *doc2 = NULL;
	struct ypos *pos2 = NULL;
	size_t nodes = 0;

	sb_init(&y);
	if (yemit(doc, &y) == -1)
		fuzz_fail("yemit failed on a loaded document");
	diags_init(&d);
	if (yload_buffer_pos("emitted.yaml", (const unsigned char *)y.buf, y.len,
	    &doc2, &pos2, &nodes, &d) == -1) {
		fprintf(stderr, "%s\n%s\n", y.buf, d.n ? d.v[0].msg : "");
		fuzz_fail("what yemit wrote does not load");
	}
	if (!json_equal(doc, doc2))
		fuzz_fail("what yemit wrote loads as another value");
	json_decref(doc2);
	ypos_free(pos2);
	diags_release(&d);
	sb_release(&y);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diags d;
	json_t *doc = NULL;
	struct ypos *pos = NULL;
	size_t nodes = 0;
	int rc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	diags_init(&d);
	rc = yload_buffer_pos("f.yaml", data, size, &doc, &pos, &nodes, &d);
	fuzz_check_diags(&d);
	if (rc == 0) {
		if (d.nerrors != 0 || doc == NULL)
			fuzz_fail("accepted with an error, or without a tree");
		check_positions(doc, pos);
		/*
		 * yemit() writes aliases out in full: a few hundred bytes of
		 * them can hold a million nodes, which is within the limits
		 * and only slow.  The round trip is for documents whose size
		 * is their own.
		 */
		if (nodes <= ROUNDTRIP_MAX_NODES)
			check_roundtrip(doc);
	} else if (d.nerrors == 0 || doc != NULL || pos != NULL)
		fuzz_fail("refused without an error, or with a tree");
	json_decref(doc);
	ypos_free(pos);
	diags_release(&d);
	return 0;
}
