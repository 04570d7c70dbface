/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlq.c - quoting identifiers and literals for Flink SQL (see sqlq.h).
 *
 * Every identifier and literal of a script passes through here, some
 * of them many times (a 10,000-column table names each column four
 * times), so each string is read once by scan() and then copied in as
 * few pieces as its quotes allow, not a character at a time.
 */
#include <string.h>

#include "sqlq.h"

/* What scan() found in a string. */
#define FOUND_UNSAFE	0x1	/* a control character or a comment marker */
#define FOUND_BACKSLASH	0x2
#define FOUND_QUOTE	0x4	/* ' */
#define FOUND_BACKQUOTE	0x8	/* ` */

/* The classes of the characters scan() must look at. */
#define C_ESCAPED	0x1	/* written \XXXX in U&'...' */
#define C_QUOTE		0x2
#define C_BACKQUOTE	0x4

/*
 * The letters, digits and '_' that make up nearly every name and literal
 * are 0 here and cost scan() one load each.
 */
static const unsigned char char_class[256] = {
	[0x01] = C_ESCAPED, [0x02] = C_ESCAPED, [0x03] = C_ESCAPED,
	[0x04] = C_ESCAPED, [0x05] = C_ESCAPED, [0x06] = C_ESCAPED,
	[0x07] = C_ESCAPED, [0x08] = C_ESCAPED, [0x09] = C_ESCAPED,
	[0x0a] = C_ESCAPED, [0x0b] = C_ESCAPED, [0x0c] = C_ESCAPED,
	[0x0d] = C_ESCAPED, [0x0e] = C_ESCAPED, [0x0f] = C_ESCAPED,
	[0x10] = C_ESCAPED, [0x11] = C_ESCAPED, [0x12] = C_ESCAPED,
	[0x13] = C_ESCAPED, [0x14] = C_ESCAPED, [0x15] = C_ESCAPED,
	[0x16] = C_ESCAPED, [0x17] = C_ESCAPED, [0x18] = C_ESCAPED,
	[0x19] = C_ESCAPED, [0x1a] = C_ESCAPED, [0x1b] = C_ESCAPED,
	[0x1c] = C_ESCAPED, [0x1d] = C_ESCAPED, [0x1e] = C_ESCAPED,
	[0x1f] = C_ESCAPED, [0x7f] = C_ESCAPED,
	['-'] = C_ESCAPED, ['/'] = C_ESCAPED, ['*'] = C_ESCAPED,
	['\\'] = C_ESCAPED,
	['\''] = C_QUOTE, ['`'] = C_BACKQUOTE
};

/*
 * One pass over s: a control character, a sequence the runner's comment
 * stripper would act on ("--", slash-star, star-slash), a backslash, a
 * quote, a backquote.  *lenp gets strlen(s).
 */
static unsigned
scan(const char *s, size_t *lenp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned found = 0;

	for (; *p != '\0'; p++) {
		if (char_class[*p] == 0)
			continue;
		if (*p < 0x20 || *p == 0x7f)
			found |= FOUND_UNSAFE;
		else if (*p == '\\')
			found |= FOUND_BACKSLASH;
		else if (*p == '\'')
			found |= FOUND_QUOTE;
		else if (*p == '`')
			found |= FOUND_BACKQUOTE;
		else if ((*p == '-' && p[1] == '-') ||
		    (*p == '/' && p[1] == '*') || (*p == '*' && p[1] == '/'))
			found |= FOUND_UNSAFE;
	}
	*lenp = (size_t)(p - (const unsigned char *)s);
	return found;
}

/*
 * Append s (len bytes) between quote characters q, with every q inside
 * doubled; has_q says whether there is one to double.
 */
static void
add_quoted(struct sb *sb, const char *s, size_t len, char q, bool has_q)
{
	const char *end = s + len, *hit;
	char buf[64];

	if (!has_q && len <= sizeof(buf) - 2) {
		/* Most names and literals: quoted here, appended at once. */
		buf[0] = q;
		memcpy(buf + 1, s, len);
		buf[len + 1] = q;
		sb_addn(sb, buf, len + 2);
		return;
	}
	sb_addc(sb, q);
	while (has_q && (hit = memchr(s, q, (size_t)(end - s))) != NULL) {
		sb_addn(sb, s, (size_t)(hit - s) + 1);	/* up to q, */
		sb_addc(sb, q);				/* and again */
		s = hit + 1;
	}
	sb_addn(sb, s, (size_t)(end - s));
	sb_addc(sb, q);
}

int
sqlq_ident(struct sb *sb, const char *name)
{
	size_t len;
	unsigned found;

	if (name == NULL || *name == '\0' ||
	    ((found = scan(name, &len)) & FOUND_UNSAFE) != 0)
		return -1;
	add_quoted(sb, name, len, '`', (found & FOUND_BACKQUOTE) != 0);
	return 0;
}

bool
sqlq_plain(const char *s)
{
	size_t len;

	return (scan(s, &len) & (FOUND_UNSAFE | FOUND_BACKSLASH)) == 0;
}

/*
 * The U&'...' body: backslash is the escape character.  Escape every
 * '-', '*' and '/' as well as controls and the backslash itself, so no
 * comment marker can form; other text (UTF-8 included) stays as is.
 */
static void
add_unicode_body(struct sb *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run;
	unsigned char ch;
	char esc[6] = { '\\', '0', '0' };

	for (run = s; *s != '\0'; s++) {
		ch = (unsigned char)*s;
		if ((char_class[ch] & (C_ESCAPED | C_QUOTE)) == 0)
			continue;
		sb_addn(sb, run, (size_t)(s - run));
		run = s + 1;
		if (ch == '\'')
			sb_addn(sb, "''", 2);
		else {
			/* \00XX: every character escaped here is below 0x80. */
			esc[3] = hex[ch >> 4];
			esc[4] = hex[ch & 0xf];
			sb_addn(sb, esc, 5);
		}
	}
	sb_addn(sb, run, (size_t)(s - run));
}

void
sqlq_literal(struct sb *sb, const char *s)
{
	size_t len;
	unsigned found = scan(s, &len);

	if ((found & (FOUND_UNSAFE | FOUND_BACKSLASH)) == 0) {
		add_quoted(sb, s, len, '\'', (found & FOUND_QUOTE) != 0);
		return;
	}
	sb_addn(sb, "U&'", 3);
	add_unicode_body(sb, s);
	sb_addc(sb, '\'');
}

int
sqlq_set(struct sb *sb, const char *key, const char *value)
{
	const char *p;

	if (!sqlq_plain(key) || !sqlq_plain(value) || strchr(key, '\'') ||
	    strchr(value, '\'') || *key == '\0')
		return -1;
	for (p = key; *p != '\0'; p++)
		if (*p == ' ')
			return -1;
	sb_addf(sb, "SET '%s' = '%s';\n", key, value);
	return 0;
}
