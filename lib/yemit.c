/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * yemit.c - libyaml's emitter fed from a jansson tree (see yemit.h).
 */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "yemit.h"
#include "yload.h"

/*
 * The YAML 1.1 resolvers, as POSIX extended regexps.  A plain scalar
 * that one of them matches is read as something other than a string by
 * a 1.1 reader, so it is written quoted.  Sources, read 2026:
 *
 *   PyYAML lib/yaml/resolver.py (yaml/pyyaml), the implicit resolvers
 *   of class Resolver: INT11, FLOAT11 and the first half of TIME11 are
 *   its regexps with (?:) written as () and the re.X blanks removed.
 *   They are yaml.org/type/{int,float,timestamp}.html as PyYAML fixed
 *   them: the spec's float "[-+]?([0-9][0-9_]*)?\.[0-9.]*" would make
 *   "0.7.7" and "." floats, which neither PyYAML nor Go reads them as,
 *   so version strings stay plain.
 *
 *   go-yaml resolve.go (yaml.v2, which sigs.k8s.io/yaml and so older
 *   kubectl use, and v3): parseTimestamp lets a month, day, hour,
 *   minute and second have one digit (the second half of TIME11), and
 *   a scalar that starts with a sign, a digit or a dot is a number
 *   when, with every "_" removed, strconv.ParseInt(s, 0, 64) or the
 *   pattern yamlStyleFloat takes it ("0B101", "+_1", "1_e3"): GONUM,
 *   matched against the scalar without its underscores.
 *
 * Sexagesimal numbers are PyYAML's only; the words (bool, null, merge,
 * value) are in y11_words[].
 */
#define INT11	"^[-+]?(0b[01_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+" \
		"|[1-9][0-9_]*(:[0-5]?[0-9])+)$"
#define FLOAT11	"^([-+]?[0-9][0-9_]*\\.[0-9_]*([eE][-+][0-9]+)?" \
		"|\\.[0-9][0-9_]*([eE][-+][0-9]+)?" \
		"|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*" \
		"|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN))$"
#define TIME11	"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}" \
		"(([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]*)?" \
		"([ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)?$"
#define GONUM	"^[-+]?(0[bB][01]+|0[oO][0-7]+|0[xX][0-9a-fA-F]+" \
		"|(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?)$"

/*
 * The words of yaml.org/type/bool.html, null.html, merge.html and
 * value.html ("y" and "n" are the spec's and Go yaml.v2's, not PyYAML's;
 * PyYAML's safe loader refuses a plain "=" outright).  They are compared
 * ignoring ASCII case, and so are the infinities and not-a-number that
 * FLOAT11 has in three spellings: readers differ in the spellings they
 * take, and a quote that was not needed costs two bytes where a missing
 * one changes the value.
 */
static const char *const y11_words[] = {
	"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
	".inf", "+.inf", "-.inf", ".nan", "<<", "="
};

struct y11 {
	regex_t	re[4];		/* INT11, FLOAT11, TIME11, GONUM */
	int	n;		/* how many of them are compiled */
};

static int
y11_init(struct y11 *y)
{
	static const char *const pat[] = { INT11, FLOAT11, TIME11, GONUM };

	for (y->n = 0; y->n < (int)(sizeof(pat) / sizeof(pat[0])); y->n++)
		if (regcomp(&y->re[y->n], pat[y->n],
		    REG_EXTENDED | REG_NOSUB) != 0)
			return -1;
	return 0;
}

static void
y11_free(struct y11 *y)
{
	while (y->n > 0)
		regfree(&y->re[--y->n]);
}

/* Is s (len bytes) the lower-case ASCII word w, in any case? */
static int
is_word_anycase(const char *s, size_t len, const char *w)
{
	size_t i;

	for (i = 0; i < len && w[i] != '\0'; i++)
		if (s[i] != w[i] && !(s[i] >= 'A' && s[i] <= 'Z' &&
		    s[i] - 'A' + 'a' == w[i]))
			return 0;
	return i == len && w[i] == '\0';
}

static int
matches(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

/*
 * Would the plain scalar s (len bytes) read back as the string s under
 * both the YAML 1.2 core schema (fluid's own loader, yload.c) and YAML
 * 1.1 (PyYAML, Go yaml.v2)?  The one place that decides it: a string
 * for which this says no is written quoted.
 */
static int
plain_is_string(const struct y11 *y, const char *s, size_t len)
{
	char *bare;
	size_t i, j;
	int num;

	if (yload_plain_kind(s, len) != YLOAD_PLAIN_STRING)
		return 0;
	/* libyaml quotes a NUL anyway; the regexps stop at one. */
	if (memchr(s, '\0', len) != NULL)
		return 0;
	for (i = 0; i < sizeof(y11_words) / sizeof(y11_words[0]); i++)
		if (is_word_anycase(s, len, y11_words[i]))
			return 0;
	/* Every number and timestamp starts with a sign, digit or dot. */
	if (strchr("-+.0123456789", s[0]) == NULL)
		return 1;
	if (matches(&y->re[0], s) || matches(&y->re[1], s) ||
	    matches(&y->re[2], s))
		return 0;
	if (memchr(s, '_', len) == NULL)
		return !matches(&y->re[3], s);
	bare = xmalloc(len + 1);
	for (i = j = 0; i < len; i++)
		if (s[i] != '_')
			bare[j++] = s[i];
	bare[j] = '\0';
	num = matches(&y->re[3], bare);
	free(bare);
	return !num;
}

static int
write_sb(void *data, unsigned char *buf, size_t size)
{
	sb_addn(data, (const char *)buf, size);
	return 1;
}

static int
emit_scalar(yaml_emitter_t *em, const char *s, size_t len, int plain_ok)
{
	yaml_event_t ev;

	/*
	 * plain_implicit says whether the plain style may be used; when it
	 * may not, libyaml quotes the value.
	 */
	yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)(uintptr_t)s, (int)len, plain_ok, 1,
	    YAML_ANY_SCALAR_STYLE);
	return yaml_emitter_emit(em, &ev);
}

static int
emit_string(yaml_emitter_t *em, const struct y11 *y, const char *s,
    size_t len)
{
	return emit_scalar(em, s, len, plain_is_string(y, s, len));
}

/* Put ".0" before the exponent of num, or at its end if it has none. */
static void
dot_zero(char *num, size_t size)
{
	char *e = strchr(num, 'e');
	size_t at = e != NULL ? (size_t)(e - num) : strlen(num);

	if (strlen(num) + 3 > size)
		return;
	memmove(num + at + 2, num + at, strlen(num + at) + 1);
	memcpy(num + at, ".0", 2);
}

static int
emit_node(yaml_emitter_t *em, const struct y11 *y, const json_t *v)
{
	yaml_event_t ev;
	const char *k;
	json_t *c;
	size_t i;
	char num[64];

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_MAPPING_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		json_object_foreach((json_t *)(uintptr_t)v, k, c)
			if (!emit_string(em, y, k, strlen(k)) ||
			    !emit_node(em, y, c))
				return 0;
		yaml_mapping_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	case JSON_ARRAY:
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		json_array_foreach(v, i, c)
			if (!emit_node(em, y, c))
				return 0;
		yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	case JSON_STRING:
		return emit_string(em, y, json_string_value(v),
		    json_string_length(v));
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return emit_scalar(em, num, strlen(num), 1);
	case JSON_REAL:
		/*
		 * %.17g round-trips; make sure it still reads as a float,
		 * in YAML 1.1 too, whose floats all have a dot: "1e+22"
		 * is a string to PyYAML, "1.0e+22" is not.
		 */
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		if (strchr(num, '.') == NULL)
			dot_zero(num, sizeof(num));
		return emit_scalar(em, num, strlen(num), 1);
	case JSON_TRUE:
		return emit_scalar(em, "true", 4, 1);
	case JSON_FALSE:
		return emit_scalar(em, "false", 5, 1);
	case JSON_NULL:
		return emit_scalar(em, "null", 4, 1);
	}
	return 0;
}

int
yemit(const json_t *v, struct sb *out)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	struct y11 y;
	int ok;

	if (y11_init(&y) == -1) {
		y11_free(&y);
		return -1;
	}
	if (!yaml_emitter_initialize(&em)) {
		y11_free(&y);
		return -1;
	}
	yaml_emitter_set_output(&em, write_sb, out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	ok = ok && emit_node(&em, &y, v);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_emitter_delete(&em);
	y11_free(&y);
	return ok ? 0 : -1;
}
