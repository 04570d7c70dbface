/*
 * digest.c - sha256 through OpenSSL's EVP interface (see digest.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "digest.h"

void
digest_bytes(const void *buf, size_t len, char out[DIGEST_STRLEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	if (!EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL)) {
		fputs("fluid: OpenSSL could not compute sha256\n", stderr);
		exit(2);
	}
	memcpy(out, "sha256:", 7);
	for (i = 0; i < mdlen && i < 32; i++)
		snprintf(out + 7 + 2 * i, 3, "%02x", md[i]);
}

char *
digest_canonical(const json_t *v)
{
	char *s = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT |
	    JSON_ENCODE_ANY);

	if (s == NULL) {
		fputs("fluid: out of memory\n", stderr);
		exit(2);
	}
	return s;
}

void
digest_json(const json_t *v, char out[DIGEST_STRLEN])
{
	char *s = digest_canonical(v);

	digest_bytes(s, strlen(s), out);
	free(s);
}
