/*
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
 * Ownership: ir_read() returns a new reference; ir_add_stage() steals
 * the section it is given.
 */
#ifndef FLUID_IR_H
#define FLUID_IR_H

#include <stdio.h>
#include <jansson.h>

#define IR_VERSION	1

/* A new document holding only the header. */
json_t	*ir_new(void);
/*
 * Read a document from fp.  after names the stage that must have run
 * last (NULL: any).  On any problem prints one line naming the problem
 * and exits 2: a wrong or broken pipeline is a usage error.
 */
json_t	*ir_read(FILE *fp, const char *after);
/*
 * ir_read(), parsing only the sections named in only (NULL-terminated)
 * when the document has the compact form the stages write; the others
 * are not parsed, only found, and ir_write() copies them.  The document
 * returned then holds only the header and those sections.  A document
 * in another form is parsed whole.  only NULL: parse everything.
 * A section left unparsed is not checked: broken JSON, a duplicate key
 * or bad UTF-8 inside it is copied, and the next stage that parses it
 * refuses it.
 */
json_t	*ir_read_only(FILE *fp, const char *after, const char *const only[]);
/* Append stage to "stages" and set its section (stolen). */
void	 ir_add_stage(json_t *doc, const char *stage, json_t *section);
/* The section of a stage (borrowed), or NULL. */
json_t	*ir_section(json_t *doc, const char *stage);
/* The last stage that ran, or NULL. */
const char *ir_last_stage(json_t *doc);
/*
 * Write doc to fp followed by a newline and flush.  Returns 0, or -1 if
 * the write failed (a closed pipe or a full disk is an error, not
 * silence); the caller reports it and exits 2.  When doc is the
 * document last read, extended by ir_add_stage() and changed nowhere
 * else (the rule for every stage), the sections read are copied from
 * the bytes read rather than written again.
 */
int	 ir_write(FILE *fp, const json_t *doc);
/*
 * Let doc (a reference the caller owns) go with the process instead of
 * freeing it node by node: a tool calls this just before it exits, where
 * freeing a large document would cost a tenth of the stage for nothing.
 * The reference is kept where leak checkers see it as still in use.
 */
void	 ir_keep_until_exit(json_t *doc);

#endif
