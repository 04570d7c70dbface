/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlq.h - the one place where text from a contract becomes Flink SQL.
 *
 * Every identifier is written backquoted and every string literal
 * quoted by these functions; nothing from the contract reaches the SQL
 * any other way.  Two readers constrain the spelling beyond Flink's own
 * grammar: the operator's SQL runner strips "--" and slash-star comments
 * with a regular expression that does not know about literals, and
 * splits statements at lines ending in ";".  So a literal holding "--",
 * a comment delimiter, a backslash or a control character is written as
 * a Unicode literal, U&'...', with those characters as \XXXX escapes,
 * and nothing we write ever puts a newline inside a literal.
 */
#ifndef FLUID_SQLQ_H
#define FLUID_SQLQ_H

#include <stdbool.h>

#include "xalloc.h"

/*
 * Append `name`.  Returns -1 (and appends nothing) for a name no quoting
 * can make safe for the runner: control characters, "--" or a comment
 * delimiter.  The checker only lets plain identifiers through, so this
 * is a second line of defence.
 */
int	sqlq_ident(struct sb *, const char *name);
/* Append a string literal for s ('...' or U&'...'). */
void	sqlq_literal(struct sb *, const char *s);
/*
 * Append 'key' = 'value' for a SET statement, which the runner matches
 * with a regular expression and applies without unescaping: so both
 * must be plain text without quotes, comment markers or control
 * characters.  Returns -1 if they are not.
 */
int	sqlq_set(struct sb *, const char *key, const char *value);
/* Would s be written as a plain '...' literal? */
bool	sqlq_plain(const char *s);

#endif
