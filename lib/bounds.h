/*
 * bounds.h - the fixed limits on what fluid reads.
 *
 * Contracts come from many teams and through CI; every input is bounded
 * so that a hostile or broken file gets a clear error instead of a hang
 * or an exhausted machine.  fluid.7 lists these numbers; keep it in step.
 */
#ifndef FLUID_BOUNDS_H
#define FLUID_BOUNDS_H

#define FL_MAX_INPUT_BYTES	(64u << 20)	/* one YAML file */
/*
 * A pipeline document (ir_read) holds the resolved contract and what each
 * stage adds to it, a few times the YAML it came from: its own, larger
 * bound, so that every contract the YAML bound lets in can go through
 * the whole pipeline.
 */
#define FL_MAX_IR_BYTES		(512u << 20)
#define FL_MAX_NODES		4000000u	/* nodes per resolved contract,
						   aliases and $refs expanded */
#define FL_MAX_YAML_DEPTH	256		/* nested YAML collections */
#define FL_MAX_STRING_BYTES	(1u << 20)	/* one scalar */
#define FL_MAX_KEY_BYTES	4096		/* one mapping key */
#define FL_MAX_REF_DEPTH	64		/* $ref inside $ref ... */
#define FL_MAX_FILES		10000		/* files one contract reads */

#endif
