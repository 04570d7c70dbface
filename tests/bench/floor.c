/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * floor.c - the parsing floor of the benchmarks: read YAML files with
 * libyaml's event parser into jansson values and dump them as compact
 * JSON on standard output, and nothing else.  No positions, no checks,
 * no $ref: what any YAML-to-JSON tool built on the same two libraries
 * has to spend, so that fluid's stages can be measured against it.
 *
 *	floor FILE...
 *	floor --json FILE...
 *
 * With --json the files are JSON, read by jansson alone: what holding a
 * stage's document as a tree costs, before the stage does anything with
 * it (fluid-check must hold the resolved contract while it builds the IR).
 *
 * Built by tests/bench/run:
 *	cc -O2 floor.c -o floor $(pkg-config --cflags --libs yaml-0.1 jansson)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include <jansson.h>

#define MAXDEPTH 512

/* Plain scalars under a minimal core schema: null, bool, int, string. */
static json_t *
scalar(const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t n = ev->data.scalar.length, i;
	char *end;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return json_stringn(s, n);
	if (n == 0 || strcmp(s, "null") == 0 || strcmp(s, "~") == 0)
		return json_null();
	if (strcmp(s, "true") == 0)
		return json_true();
	if (strcmp(s, "false") == 0)
		return json_false();
	for (i = s[0] == '-' ? 1 : 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == n && n > (s[0] == '-' ? 1u : 0u))
		return json_integer(strtoll(s, &end, 10));
	return json_stringn(s, n);
}

static json_t *
load(FILE *fp, const char *name)
{
	yaml_parser_t p;
	yaml_event_t ev;
	json_t *stack[MAXDEPTH], *root = NULL, *v;
	char *keys[MAXDEPTH];
	int depth = 0, done = 0;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, fp);
	while (!done) {
		if (!yaml_parser_parse(&p, &ev)) {
			fprintf(stderr, "floor: %s: %s\n", name,
			    p.problem ? p.problem : "parse error");
			exit(1);
		}
		v = NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_SCALAR_EVENT:
			if (depth > 0 && json_is_object(stack[depth - 1]) &&
			    keys[depth - 1] == NULL) {
				keys[depth - 1] = strdup(
				    (const char *)ev.data.scalar.value);
				break;
			}
			v = scalar(&ev);
			break;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			v = ev.type == YAML_MAPPING_START_EVENT ?
			    json_object() : json_array();
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		if (v != NULL) {
			if (depth == 0)
				root = json_incref(v);
			else if (json_is_object(stack[depth - 1])) {
				json_object_set(stack[depth - 1],
				    keys[depth - 1], v);
				free(keys[depth - 1]);
				keys[depth - 1] = NULL;
			} else
				json_array_append(stack[depth - 1], v);
			if (json_is_object(v) || json_is_array(v)) {
				if (depth == MAXDEPTH) {
					fprintf(stderr, "floor: too deep\n");
					exit(1);
				}
				keys[depth] = NULL;
				stack[depth++] = v;
			}
			json_decref(v);
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return root;
}

int
main(int argc, char *argv[])
{
	json_t *doc;
	json_error_t err;
	FILE *fp;
	int i, json = argc > 1 && strcmp(argv[1], "--json") == 0;

	if (argc < 2 + json) {
		fputs("usage: floor [--json] FILE...\n", stderr);
		return 2;
	}
	for (i = 1 + json; i < argc; i++) {
		if ((fp = fopen(argv[i], "rb")) == NULL) {
			perror(argv[i]);
			return 2;
		}
		doc = json ? json_loadf(fp, 0, &err) : load(fp, argv[i]);
		if (doc == NULL && json)
			fprintf(stderr, "floor: %s:%d:%d: %s\n", argv[i],
			    err.line, err.column, err.text);
		fclose(fp);
		if (doc == NULL || json_dumpf(doc, stdout, JSON_COMPACT) == -1 ||
		    fputc('\n', stdout) == EOF)
			return 1;
		json_decref(doc);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
