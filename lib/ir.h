/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ir.h - the document that flows down a fluid pipeline.
 *
 * Every stage reads one JSON object on stdin and writes one on stdout:
 *
 *	{ "fluidIR": 1,
 *	  "stages": ["resolve", "check", ...],	   who has written so far
 *	  "resolve": {...}, "check": {...}, ... }  one section per stage
 *
 * A stage keeps what it was given and adds its own section, so a later
 * stage (or a person with jq) can see everything that led to it.  A stage
 * refuses a document whose last stage is not the one it follows, with a
 * message that says which stage to run first.
 *
 * A document read is a handle, struct ir: the tree, and the bytes it was
 * read from, so that ir_write() can copy the sections a stage did not
 * touch as they came.  Each handle holds its own bytes: a program may
 * read two documents (diff reads a baseline) and write either.
 *
 * Ownership: ir_add_stage() steals the section it is given; ir_doc()
 * and ir_section() return borrowed references.
 */
#ifndef FLUID_IR_H
#define FLUID_IR_H

#include <stdio.h>
#include <jansson.h>

#include "diag.h"

#define IR_VERSION	1

struct ir;

/* A new document holding only the header (a new reference). */
json_t	*ir_new(void);
/*
 * Read a document from fp.  after names the stage that must have run
 * last (NULL: any).  On any problem adds one fatal diagnostic to d (a
 * wrong or broken pipeline is a usage error, EXIT_USAGE) and returns
 * NULL.
 *
 * only (NULL-terminated, or NULL for everything) names the sections to
 * parse when the document has the compact form the stages write; the
 * others are not parsed, only found, and ir_write() copies them.  The
 * tree then holds only the header and those sections.  A document in
 * another form is parsed whole.  A section left unparsed is not
 * checked: broken JSON, a duplicate key or bad UTF-8 inside it is
 * copied, and the next stage that parses it refuses it.
 */
struct ir *ir_read(FILE *fp, const char *after, const char *const only[],
	    struct diags *d);
/*
 * ir_read(), the sections of only[] parsed without the members that
 * prune[] names ("check/builds/x/outputs", see ir_prune.h): for a stage
 * that never reads them.  The tree lacks them; ir_write() still writes
 * the sections whole, from the bytes read.  The document is parsed
 * whole (nothing pruned) when it is not in the compact form.
 */
struct ir *ir_read_pruned(FILE *fp, const char *after,
	    const char *const only[], const char *const prune[],
	    struct diags *d);
/* A handle for a tree the caller made (stolen), to write it. */
struct ir *ir_wrap(json_t *doc);
/* The tree of a handle (borrowed: it lives as long as the handle). */
json_t	*ir_doc(const struct ir *);
/* Release a handle, its bytes and its reference to the tree. */
void	 ir_free(struct ir *);
/* Append stage to "stages" and set its section (stolen). */
void	 ir_add_stage(json_t *doc, const char *stage, json_t *section);
/* The section of a stage (borrowed), or NULL. */
json_t	*ir_section(json_t *doc, const char *stage);
/* The check section's build of this id (borrowed), or NULL. */
json_t	*ir_check_build(json_t *doc, const char *id);
/* The last stage that ran, or NULL. */
const char *ir_last_stage(json_t *doc);
/*
 * Write the handle's tree to fp followed by a newline and flush.
 * Returns 0, or -1 after adding a fatal diagnostic to d (a closed pipe
 * or a full disk is an error, not silence).  When the tree is the one
 * read, extended by ir_add_stage() and changed nowhere else (the rule
 * for every stage), the sections read are copied from the bytes read
 * rather than written again.
 */
int	 ir_write(FILE *fp, const struct ir *, struct diags *d);
/*
 * Let doc (a reference the caller owns) go with the process instead of
 * freeing it node by node: a tool calls this just before it exits, where
 * freeing a large document would cost a tenth of the stage for nothing.
 * The reference is kept where leak checkers see it as still in use.
 */
void	 ir_keep_to_end(json_t *doc);

#endif
