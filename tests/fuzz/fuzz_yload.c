/*
 * fuzz_yload.c - the YAML loader with positions (yload.h).
 *
 * Properties: a refusal adds an error and returns no tree; an accepted
 * document has a position for its root, every position is a JSON
 * pointer that finds a node of the document and holds a line and a
 * column from 1; and what yemit() writes loads back as the same value
 * (fluid bundle relies on that for its digest), for documents of up to
 * ROUNDTRIP_MAX_NODES nodes.
 */
#include "fuzz.h"

#define ROUNDTRIP_MAX_NODES	50000

static void
check_positions(json_t *doc, json_t *pos)
{
	const char *k;
	json_t *v;

	if (!json_is_object(pos) || json_object_get(pos, "") == NULL)
		fuzz_fail("no position for the root");
	json_object_foreach(pos, k, v) {
		if (jptr_get(doc, k) == NULL)
			fuzz_fail("a position whose pointer finds nothing");
		if (!json_is_array(v) || json_array_size(v) != 2 ||
		    json_integer_value(json_array_get(v, 0)) < 1 ||
		    json_integer_value(json_array_get(v, 1)) < 1)
			fuzz_fail("a position that is not [line, column]");
	}
}

static void
check_roundtrip(json_t *doc)
{
	struct diags d;
	struct sb y;
	json_t *doc2 = NULL, *pos2 = NULL;
	size_t nodes = 0;

	sb_init(&y);
	if (yemit(doc, &y) == -1)
		fuzz_fail("yemit failed on a loaded document");
	diags_init(&d);
	if (yload_buffer("emitted.yaml", (const unsigned char *)y.buf, y.len,
	    &doc2, &pos2, &nodes, &d) == -1) {
		fprintf(stderr, "%s\n%s\n", y.buf, d.n ? d.v[0].msg : "");
		fuzz_fail("what yemit wrote does not load");
	}
	if (!json_equal(doc, doc2))
		fuzz_fail("what yemit wrote loads as another value");
	json_decref(doc2);
	json_decref(pos2);
	diags_release(&d);
	sb_release(&y);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diags d;
	json_t *doc = NULL, *pos = NULL;
	size_t nodes = 0;
	int rc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	diags_init(&d);
	rc = yload_buffer("f.yaml", data, size, &doc, &pos, &nodes, &d);
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
	json_decref(pos);
	diags_release(&d);
	return 0;
}
