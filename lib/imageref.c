/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * imageref.c - a container image reference pinned by digest
 * (imageref.h).
 */
#include <string.h>

#include "imageref.h"

bool
imageref_pinned(const char *s)
{
	const char *at = s != NULL ? strstr(s, "@sha256:") : NULL;
	size_t i;

	if (at == NULL || at == s || strlen(at + 8) != 64)
		return false;
	for (i = 0; i < 64; i++)
		if (!((at[8 + i] >= '0' && at[8 + i] <= '9') ||
		    (at[8 + i] >= 'a' && at[8 + i] <= 'f')))
			return false;
	/* An OCI reference is ASCII: a byte past it is no registry's. */
	for (; s < at; s++)
		if ((unsigned char)*s <= ' ' || *s == '@' ||
		    (unsigned char)*s >= 0x7f)
			return false;
	return true;
}
