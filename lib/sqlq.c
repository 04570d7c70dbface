/*
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

/*
 * The characters scan() must look at; the letters, digits and '_' that
 * make up nearly every name and literal are 0 and cost one load each.
 */
static const unsigned char notable[256] = {
	[0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1,
	[0x06] = 1, [0x07] = 1, [0x08] = 1, [0x09] = 1, [0x0a] = 1,
	[0x0b] = 1, [0x0c] = 1, [0x0d] = 1, [0x0e] = 1, [0x0f] = 1,
	[0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1,
	[0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1,
	[0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1, [0x1e] = 1,
	[0x1f] = 1, [0x7f] = 1,
	['-'] = 1, ['/'] = 1, ['*'] = 1, ['\\'] = 1
};

/*
 * One pass over s: a control character, a sequence the runner's comment
 * stripper would act on ("--", slash-star, star-slash), a backslash.
 * *lenp gets strlen(s).
 */
static unsigned
scan(const char *s, size_t *lenp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned found = 0;

	for (; *p != '\0'; p++) {
		if (!notable[*p])
			continue;
		if (*p < 0x20 || *p == 0x7f)
			found |= FOUND_UNSAFE;
		else if (*p == '\\')
			found |= FOUND_BACKSLASH;
		else if ((*p == '-' && p[1] == '-') ||
		    (*p == '/' && p[1] == '*') || (*p == '*' && p[1] == '/'))
			found |= FOUND_UNSAFE;
	}
	*lenp = (size_t)(p - (const unsigned char *)s);
	return found;
}

/* Append s (len bytes) with every quote character q doubled. */
static void
add_doubling(struct sb *sb, const char *s, size_t len, char q)
{
	const char *end = s + len, *hit;

	while ((hit = memchr(s, q, (size_t)(end - s))) != NULL) {
		sb_addn(sb, s, (size_t)(hit - s) + 1);	/* up to q, */
		sb_addc(sb, q);				/* and again */
		s = hit + 1;
	}
	sb_addn(sb, s, (size_t)(end - s));
}

int
sqlq_ident(struct sb *sb, const char *name)
{
	size_t len;

	if (name == NULL || *name == '\0' ||
	    (scan(name, &len) & FOUND_UNSAFE) != 0)
		return -1;
	sb_addc(sb, '`');
	add_doubling(sb, name, len, '`');
	sb_addc(sb, '`');
	return 0;
}

bool
sqlq_plain(const char *s)
{
	size_t len;

	return scan(s, &len) == 0;
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
		if (ch != '\'' && !notable[ch])
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

	if (scan(s, &len) == 0) {
		sb_addc(sb, '\'');
		add_doubling(sb, s, len, '\'');
		sb_addc(sb, '\'');
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
