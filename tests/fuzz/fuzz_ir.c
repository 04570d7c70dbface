/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_ir.c - reading a pipeline document in parts and writing it by
 * copying the sections read (ir_read(), ir_write(); see ir.h).
 *
 * The input is JSON.  An object with "fluidIR": 1 and a "stages" array
 * is written compact, as a stage writes it, read back with only "check"
 * parsed (as fluid-sqlgen reads), extended by one stage, and written.
 * The same is done with the input as it came, in whatever spelling.
 * Properties: every member parsed equals the full parse's, and the
 * header and "check" are always parsed; the output is the whole
 * extended document and a newline: byte for byte, written compact, for
 * the compact input; the same JSON for the input as it came.
 */
#include "fuzz.h"

static void
same_members(json_t *part, json_t *whole)
{
	static const char *const always[] = { "fluidIR", "stages", "check" };
	const char *key;
	json_t *v;
	size_t i;

	json_object_foreach(part, key, v)
		if (!json_equal(v, json_object_get(whole, key)))
			fuzz_fail("a member parsed unlike the whole document's");
	for (i = 0; i < sizeof(always) / sizeof(*always); i++)
		if ((json_object_get(whole, always[i]) == NULL) !=
		    (json_object_get(part, always[i]) == NULL))
			fuzz_fail("the header or the check section not parsed");
}

/*
 * Read buf as fluid-sqlgen does, extend it by one stage, and write it.
 * The members parsed must be whole's, and the document written whole
 * extended by the same stage: the same bytes when
 * buf is what a stage writes (exact), the same JSON otherwise (a copied
 * section keeps its own spelling of strings and numbers).
 */
static void
round_trip(const char *buf, size_t len, json_t *whole, int exact)
{
	static const char *const only[] = { "check", NULL };
	json_error_t err;
	struct diags d;
	struct ir *in;
	json_t *part, *got, *ext = json_deep_copy(whole);
	char *want, *out = NULL;
	size_t outlen = 0;
	FILE *fp;

	if ((fp = fmemopen((void *)buf, len, "r")) == NULL)
		fuzz_fail("fmemopen");
	diags_init(&d);
	if ((in = ir_read(fp, NULL, only, &d)) == NULL)
		fuzz_fail("ir_read gave nothing for a good document");
	fclose(fp);
	part = ir_doc(in);
	same_members(part, whole);
	ir_add_stage(part, "sqlgen", json_string("new"));
	ir_add_stage(ext, "sqlgen", json_string("new"));
	if ((fp = open_memstream(&out, &outlen)) == NULL)
		fuzz_fail("open_memstream");
	if (ir_write(fp, in, &d) == -1)
		fuzz_fail("ir_write failed on a memory stream");
	fclose(fp);
	if (outlen == 0 || out[outlen - 1] != '\n')
		fuzz_fail("the document does not end with a newline");
	if (exact) {
		want = json_dumps(ext, JSON_COMPACT);
		if (want == NULL || outlen != strlen(want) + 1 ||
		    memcmp(out, want, outlen - 1) != 0)
			fuzz_fail("the copy is not the whole document");
		free(want);
	} else {
		got = json_loadb(out, outlen, JSON_REJECT_DUPLICATES, &err);
		if (!json_equal(got, ext))
			fuzz_fail("the copy does not mean the whole document");
		json_decref(got);
	}
	free(out);
	ir_free(in);
	diags_release(&d);
	json_decref(ext);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *whole;
	char *text;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	whole = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err);
	if (!json_is_object(whole) || json_integer_value(json_object_get(
	    whole, "fluidIR")) != IR_VERSION ||
	    !json_is_array(json_object_get(whole, "stages")) ||
	    (text = json_dumps(whole, JSON_COMPACT)) == NULL) {
		json_decref(whole);
		return 0;
	}
	/* The input as a stage writes it, then as it came. */
	round_trip(text, strlen(text), whole, 1);
	round_trip((const char *)data, size, whole, 0);
	free(text);
	json_decref(whole);
	return 0;
}
