/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * yload.h - YAML into jansson values, with where every node stood.
 *
 * The loader reads one YAML document under the core schema of YAML 1.2
 * (so "yes" and "on" stay strings) and refuses what a contract has no
 * use for and an attacker would: tags, non-string or duplicate keys,
 * merge keys, more than one document, and alias expansion beyond
 * FL_MAX_NODES nodes (the "billion laughs") or FL_MAX_EXPANDED_BYTES
 * bytes of strings and keys in one file (a large anchor aliased many
 * times).  Errors name the line and column, and the path of the node
 * in its file where it has one; libyaml's own message is passed on for
 * malformed input.
 *
 * *pos receives an object mapping the JSON pointer of every node to
 * [line, column], both 1-based; the nodes of an alias's copy have no
 * entry of their own: they stand where the alias does.  Both *doc and
 * *pos are new references.
 */
#ifndef FLUID_YLOAD_H
#define FLUID_YLOAD_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "diag.h"
#include "xalloc.h"

enum yload_plain {
	YLOAD_PLAIN_STRING,
	YLOAD_PLAIN_NULL,
	YLOAD_PLAIN_BOOL,
	YLOAD_PLAIN_INT,
	YLOAD_PLAIN_FLOAT
};

/*
 * Load buf (len bytes) named name in diagnostics.  Returns 0 on success;
 * -1 after adding an error to d.  *nodes is the budget: it is increased
 * by the number of nodes built and checked against FL_MAX_NODES.
 * *pos is the positions as a list in the order of the file: one
 * per node, the nodes of an alias's copy left out (the alias has one),
 * which is the order of the document when it has no alias.  What
 * fluid-resolve uses: it takes the list as it is for a contract with no
 * alias and no $ref, and asks for a table by pointer only when it needs
 * one.  *pos is freed with ypos_free().
 */
struct ypos_node {
	unsigned	line;		/* 1-based */
	unsigned	col : 31;	/* 1-based */
	unsigned	alias : 1;	/* an alias: the nodes of its copy
					   follow without positions */
};

struct ypos {
	struct ypos_node *v;
	size_t		  n, cap;
	size_t		  refs;		/* mapping keys "$ref" */
	size_t		  aliases;
};

struct jptab;
int	yload_buffer_pos(const char *name, const unsigned char *buf,
	    size_t len, json_t **doc, struct ypos **pos, size_t *nodes,
	    struct diags *d);
/*
 * The same, reading a regular file as it parses instead of a buffer
 * (the file is not held in memory), at most max bytes of it.  Returns 0,
 * -1 after adding an error to d, or -2 with errno set and nothing added
 * when the file cannot be read (EFBIG: larger than max).  A reader
 * error (bad UTF-8) is placed by reading fp again from its start.
 */
int	yload_file_pos(const char *name, FILE *fp, size_t max, json_t **doc,
	    struct ypos **pos, size_t *nodes, struct diags *d);
void	ypos_free(struct ypos *);
/*
 * The positions by JSON pointer, pointer -> (line, column, 0), for doc,
 * the document they were loaded with (jptr.h; freed with jptab_free()).
 */
struct jptab *ypos_table(const struct ypos *, json_t *doc);

/*
 * Add a key or an index to a contract path as messages spell it,
 * "copies[73].name" (diag.c makes control characters harmless).
 */
void	ypath_key(struct sb *, const char *key);
void	ypath_index(struct sb *, size_t);

/* What a plain (unquoted) scalar means under the core schema. */
enum yload_plain yload_plain_kind(const char *s, size_t len);

#endif
