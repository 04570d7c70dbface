/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_sqlq.c - sqlgen's quoting (sqlq.h), the one place where contract
 * text becomes Flink SQL.
 *
 * The input is a key, a NUL byte and a value (a missing part is empty).
 * Both are quoted as identifiers and as literals, and as a SET line.
 *
 * Properties, from sqlq.h: nothing written holds a control character
 * (so no newline inside a literal), "--", slash-star or star-slash
 * (the runner's comment stripper does not know about literals); a
 * plain literal holds no backslash; an identifier or literal decodes
 * back to exactly the text it was made from; sqlq_ident() refuses
 * exactly the names it cannot make safe, and sqlq_set() writes one line.
 */
#include "fuzz.h"

static int
runner_unsafe(const char *s)
{
	return strstr(s, "--") != NULL || strstr(s, "/*") != NULL ||
	    strstr(s, "*/") != NULL;
}

static int
has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static void
safe(const char *out, const char *what)
{
	if (has_control(out) || runner_unsafe(out))
		fuzz_fail(what);
}

static int
hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode a literal as Flink reads it; NULL if it is not one. */
static char *
unliteral(const char *q)
{
	struct sb sb;
	int uni = strncmp(q, "U&'", 3) == 0, h[4], i;
	const char *p = q + (uni ? 3 : 1);

	if (!uni && *q != '\'')
		return NULL;
	sb_init(&sb);
	for (;;) {
		if (*p == '\0')
			goto bad;
		if (*p == '\'') {
			if (p[1] != '\'')
				break;
			sb_addc(&sb, '\'');
			p += 2;
		} else if (uni && *p == '\\') {
			for (i = 0; i < 4; i++)
				if ((h[i] = hex((unsigned char)p[1 + i])) < 0)
					goto bad;
			i = h[0] << 12 | h[1] << 8 | h[2] << 4 | h[3];
			if (i == 0 || i > 0x7f)	/* only ASCII is escaped */
				goto bad;
			sb_addc(&sb, (char)i);
			p += 5;
		} else
			sb_addc(&sb, *p++);
	}
	if (p[1] != '\0')
		goto bad;
	return sb_steal(&sb);
bad:
	sb_release(&sb);
	return NULL;
}

static void
literal(const char *s)
{
	struct sb sb;
	char *back;

	sb_init(&sb);
	sqlq_literal(&sb, s);
	safe(sb.buf, "an unsafe literal");
	if (sqlq_plain(s) != (sb.buf[0] == '\''))
		fuzz_fail("sqlq_plain() disagrees with sqlq_literal()");
	if (sb.buf[0] == '\'' && strchr(sb.buf, '\\') != NULL)
		fuzz_fail("a backslash in a plain literal");
	if ((back = unliteral(sb.buf)) == NULL || strcmp(back, s) != 0)
		fuzz_fail("a literal that does not decode to its text");
	free(back);
	sb_release(&sb);
}

static void
ident(const char *s)
{
	struct sb sb, back;
	const char *p;
	int rc;

	sb_init(&sb);
	sb_adds(&sb, "x");
	rc = sqlq_ident(&sb, s);
	if (rc != (*s == '\0' || has_control(s) || runner_unsafe(s) ? -1 : 0))
		fuzz_fail("sqlq_ident() refuses the wrong names");
	if (rc == -1) {
		if (strcmp(sb.buf, "x") != 0)
			fuzz_fail("a refused identifier appended something");
		sb_release(&sb);
		return;
	}
	safe(sb.buf, "an unsafe identifier");
	sb_init(&back);
	p = sb.buf + 1;
	if (*p++ != '`')
		fuzz_fail("an identifier not in backquotes");
	for (;; p++) {
		if (*p == '\0')
			fuzz_fail("an unterminated identifier");
		if (*p == '`') {
			if (p[1] != '`')
				break;
			p++;
		}
		sb_addc(&back, *p);
	}
	if (p[1] != '\0' || strcmp(back.buf, s) != 0)
		fuzz_fail("an identifier that does not decode to its name");
	sb_release(&back);
	sb_release(&sb);
}

static void
set(const char *k, const char *v)
{
	struct sb sb;
	char *want;

	sb_init(&sb);
	if (sqlq_set(&sb, k, v) == 0) {
		want = xasprintf("SET '%s' = '%s';\n", k, v);
		if (strcmp(sb.buf, want) != 0 || *k == '\0' ||
		    strchr(k, ' ') != NULL || strchr(k, '\'') != NULL ||
		    strchr(v, '\'') != NULL || !sqlq_plain(k) ||
		    !sqlq_plain(v))
			fuzz_fail("a SET line the runner cannot read");
		/* One line: the only control character is its newline. */
		sb.buf[--sb.len] = '\0';
		safe(sb.buf, "an unsafe SET line");
		free(want);
	} else if (sb.len != 0)
		fuzz_fail("a refused SET appended something");
	sb_release(&sb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul;
	char *k, *v;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	k = fuzz_cstr(data, size);
	nul = memchr(data, '\0', size);
	v = nul ? fuzz_cstr(nul + 1, size - (size_t)(nul + 1 - data)) :
	    xstrdup("");
	literal(k);
	literal(v);
	ident(k);
	ident(v);
	set(k, v);
	free(k);
	free(v);
	return 0;
}
