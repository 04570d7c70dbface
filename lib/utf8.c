/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * utf8.c - decoding one UTF-8 character (see utf8.h).
 */
#include "utf8.h"

size_t
utf8_char(const unsigned char *s, unsigned long *cpp)
{
	unsigned long cp, min;
	size_t i, n;

	if (s[0] < 0x80) {
		*cpp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else
		return 0;
	/* A NUL fails the continuation test, so this stops at the end. */
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*cpp = cp;
	return n;
}
