/*
 * yemit.c - libyaml's emitter fed from a jansson tree (see yemit.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "yemit.h"
#include "yload.h"

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
emit_string(yaml_emitter_t *em, const char *s, size_t len)
{
	return emit_scalar(em, s, len,
	    yload_plain_kind(s, len) == YLOAD_PLAIN_STRING &&
	    strcmp(s, "<<") != 0);
}

static int
emit_node(yaml_emitter_t *em, const json_t *v)
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
			if (!emit_string(em, k, strlen(k)) ||
			    !emit_node(em, c))
				return 0;
		yaml_mapping_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	case JSON_ARRAY:
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(em, &ev))
			return 0;
		json_array_foreach(v, i, c)
			if (!emit_node(em, c))
				return 0;
		yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(em, &ev);
	case JSON_STRING:
		return emit_string(em, json_string_value(v),
		    json_string_length(v));
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return emit_scalar(em, num, strlen(num), 1);
	case JSON_REAL:
		/* %.17g round-trips; make sure it still reads as a float. */
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		if (strpbrk(num, ".e") == NULL)
			strncat(num, ".0", sizeof(num) - strlen(num) - 1);
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
	int ok;

	if (!yaml_emitter_initialize(&em))
		return -1;
	yaml_emitter_set_output(&em, write_sb, out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	ok = ok && emit_node(&em, v);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_emitter_delete(&em);
	return ok ? 0 : -1;
}
