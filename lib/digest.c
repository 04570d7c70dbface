/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * digest.c - sha256 through OpenSSL's EVP interface (see digest.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "digest.h"
#include "xalloc.h"

/*
 * OpenSSL starts itself on first use by reading the system's
 * openssl.cnf and registering every cipher and digest under its legacy
 * names: more than a millisecond, in stages that run for a few.  A
 * sha256 is the same whatever that file says, so start it without.
 */
static int
digest_start(void)
{
	static int started;

	if (!started)
		started = OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG |
		    OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
		    OPENSSL_INIT_NO_ADD_ALL_DIGESTS, NULL);
	return started;
}

/*
 * sha256 is built into every libcrypto and needs no provider we could
 * lack; what EVP_Digest() can still fail at is allocating its context.
 */
_Noreturn static void
digest_fail(void)
{
	xalloc_die("OpenSSL could not compute sha256");
}

/* "sha256:" and the digest in lower-case hex, as DIGEST_STRLEN allows. */
static void
put_hex(const unsigned char *md, unsigned int mdlen, char out[DIGEST_STRLEN])
{
	unsigned int i;

	memcpy(out, "sha256:", 7);
	for (i = 0; i < mdlen && i < 32; i++)
		snprintf(out + 7 + 2 * i, 3, "%02x", md[i]);
}

void
digest_bytes(const void *buf, size_t len, char out[DIGEST_STRLEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!digest_start() ||
	    !EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL))
		digest_fail();
	put_hex(md, mdlen, out);
}

/* json_dump_callback() hands the canonical text over piece by piece. */
static int
digest_update(const char *buf, size_t len, void *ctx)
{
	return EVP_DigestUpdate(ctx, buf, len) ? 0 : -1;
}

/*
 * The canonical text (keys sorted, compact) goes straight into the hash,
 * never built whole: for a large contract building it cost a quarter of
 * fluid-resolve.
 */
void
digest_json(const json_t *v, char out[DIGEST_STRLEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;

	if (!digest_start() || (ctx = EVP_MD_CTX_new()) == NULL ||
	    !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		digest_fail();
	if (json_dump_callback(v, digest_update, ctx, JSON_SORT_KEYS |
	    JSON_COMPACT | JSON_ENCODE_ANY) == -1 ||
	    !EVP_DigestFinal_ex(ctx, md, &mdlen))
		digest_fail();
	EVP_MD_CTX_free(ctx);
	put_hex(md, mdlen, out);
}
