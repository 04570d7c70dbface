/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * utf8.h - one well-formed UTF-8 character, for the modules that must
 * judge text byte by byte (diagnostics escape what is not text, map keys
 * refuse it).
 */
#ifndef FLUID_UTF8_H
#define FLUID_UTF8_H

#include <stddef.h>

/*
 * The length of the well-formed UTF-8 character at s (1 to 4), its code
 * point in *cp, or 0 if s does not start one: overlong forms,
 * surrogates, code points past U+10FFFF and sequences cut short (a NUL
 * included) are not.
 */
size_t	utf8_char(const unsigned char *s, unsigned long *cp);

#endif
