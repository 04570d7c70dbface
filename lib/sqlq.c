/*
 * sqlq.c - quoting identifiers and literals for Flink SQL (see sqlq.h).
 */
#include <string.h>

#include "sqlq.h"

/* Sequences the runner's comment stripper would act on. */
static bool
runner_unsafe(const char *s)
{
	return strstr(s, "--") != NULL || strstr(s, "/*") != NULL ||
	    strstr(s, "*/") != NULL;
}

static bool
has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

int
sqlq_ident(struct sb *sb, const char *name)
{
	const char *p;

	if (name == NULL || *name == '\0' || has_control(name) ||
	    runner_unsafe(name))
		return -1;
	sb_addc(sb, '`');
	for (p = name; *p != '\0'; p++) {
		if (*p == '`')
			sb_addc(sb, '`');
		sb_addc(sb, *p);
	}
	sb_addc(sb, '`');
	return 0;
}

bool
sqlq_plain(const char *s)
{
	return !has_control(s) && !runner_unsafe(s) &&
	    strchr(s, '\\') == NULL;
}

void
sqlq_literal(struct sb *sb, const char *s)
{
	const char *p;
	unsigned char ch;

	if (sqlq_plain(s)) {
		sb_addc(sb, '\'');
		for (p = s; *p != '\0'; p++) {
			if (*p == '\'')
				sb_addc(sb, '\'');
			sb_addc(sb, *p);
		}
		sb_addc(sb, '\'');
		return;
	}
	/*
	 * U&'...': backslash is the escape character.  Escape every '-',
	 * '*' and '/' as well as controls and the backslash itself, so no
	 * comment marker can form; other text (UTF-8 included) stays as is.
	 */
	sb_adds(sb, "U&'");
	for (p = s; *p != '\0'; p++) {
		ch = (unsigned char)*p;
		if (ch < 0x20 || ch == 0x7f || ch == '\\' || ch == '-' ||
		    ch == '*' || ch == '/')
			sb_addf(sb, "\\%04x", ch);
		else if (ch == '\'')
			sb_adds(sb, "''");
		else
			sb_addc(sb, (char)ch);
	}
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
