/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * digest.h - sha256 digests in the "sha256:<hex>" form used everywhere
 * in fluid (bundle and plan digests, SQL allowlist pins, ConfigMap names).
 */
#ifndef FLUID_DIGEST_H
#define FLUID_DIGEST_H

#include <stddef.h>
#include <jansson.h>

#define DIGEST_STRLEN	(7 + 64 + 1)	/* "sha256:" + hex + NUL */

void	digest_bytes(const void *buf, size_t len, char out[DIGEST_STRLEN]);
/*
 * The digest of v's canonical JSON: keys sorted, no white space, so two
 * documents that mean the same give the same digest whatever their
 * source layout, key order or $ref structure.
 */
void	digest_json(const json_t *v, char out[DIGEST_STRLEN]);

#endif
