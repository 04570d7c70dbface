/*
 * fuzz_ir.c - reading a pipeline document in parts and writing it by
 * copying the sections read (ir_read_only(), ir_write(); see ir.h).
 *
 * The input is JSON.  An object with "fluidIR": 1 and a "stages" array
 * is written compact, as a stage writes it, read back with only "check"
 * parsed (as fluid-sqlgen reads), extended by one stage, and written.
 * Properties: every member parsed equals the full parse's, and the
 * header and "check" are always parsed; the output is byte for byte the
 * whole extended document, written compact, and a newline.
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const only[] = { "check", NULL };
	json_error_t err;
	json_t *whole, *part;
	char *text, *want, *out = NULL;
	size_t outlen = 0;
	FILE *fp;

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
	if ((fp = fmemopen(text, strlen(text), "r")) == NULL)
		fuzz_fail("fmemopen");
	part = ir_read_only(fp, NULL, only);
	fclose(fp);
	same_members(part, whole);

	ir_add_stage(part, "sqlgen", json_string("new"));
	ir_add_stage(whole, "sqlgen", json_string("new"));
	if ((fp = open_memstream(&out, &outlen)) == NULL)
		fuzz_fail("open_memstream");
	if (ir_write(fp, part) == -1)
		fuzz_fail("ir_write failed on a memory stream");
	fclose(fp);
	want = json_dumps(whole, JSON_COMPACT);
	if (want == NULL || outlen != strlen(want) + 1 ||
	    memcmp(out, want, outlen - 1) != 0 || out[outlen - 1] != '\n')
		fuzz_fail("the copy is not the whole document");
	free(want);
	free(out);
	free(text);
	json_decref(part);
	json_decref(whole);
	return 0;
}
