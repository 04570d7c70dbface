/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz.h - what the libFuzzer targets in tests/fuzz/ share.
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput() for one module of
 * libfluid.a and checks, besides "no crash, no leak, no undefined
 * behaviour" (ASan, UBSan and LeakSanitizer do that), the properties
 * that module promises in its header.  A broken property calls
 * fuzz_fail(), which aborts, so libFuzzer keeps the input as a crash.
 * tests/fuzz/run builds and runs them; see its header.
 */
#ifndef FLUID_FUZZ_H
#define FLUID_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"

/*
 * Inputs are capped well below FL_MAX_INPUT_BYTES: the limits are
 * tested by tests/bad/, the fuzzer looks for bugs in small inputs.
 */
#define FUZZ_MAX_INPUT	(256u << 10)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
int	LLVMFuzzerInitialize(int *, char ***);

static inline void __attribute__((noreturn))
fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz property broken: %s\n", what);
	abort();
}

/* The input as a C string: up to its first NUL (caller frees). */
static inline char *
fuzz_cstr(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);

	return xstrndup((const char *)data, nul ? (size_t)(nul - data) : size);
}

static inline int
fuzz_utf8(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

/*
 * Every diagnostic is one line of UTF-8 text without control characters,
 * so a message never spreads over lines of a CI log, whatever it quotes.
 */
static inline void
fuzz_check_diags(const struct diags *d)
{
	const unsigned char *p;
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (d->v[i].msg == NULL || d->v[i].msg[0] == '\0')
			fuzz_fail("a diagnostic without a message");
		for (p = (const unsigned char *)d->v[i].msg; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				fuzz_fail("a control character in a message");
		/* --diagnostics=json must be able to carry it. */
		if (!fuzz_utf8(d->v[i].msg))
			fuzz_fail("a message that is not UTF-8");
		if (d->v[i].file != NULL)
			for (p = (const unsigned char *)d->v[i].file; *p; p++)
				if (*p < 0x20 || *p == 0x7f)
					fuzz_fail("a control character in a "
					    "file name");
	}
}

#endif
