/*
 * SPDX-License-Identifier: Apache-2.0
 *
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
/*
 * The bytes of every string and mapping key of a resolved contract, each
 * as often as the resolved document holds it: aliases and $refs
 * expanded.  Numbers, booleans and nulls do not count; FL_MAX_NODES
 * bounds them.  A few nodes can name a great deal of text (a 900 kB
 * anchor aliased 5,000 times is 4.5 GB of output from a 1 MB file), so
 * the node bound alone does not bound the work.  The largest contract
 * of the benchmarks (100,000 columns, tests/bench/gen.py) holds under
 * 5 MiB, and one file may hold 64 MiB: a contract may expand to no more
 * than one file may be, a few tenths of a second of output.
 */
#define FL_MAX_EXPANDED_BYTES	(64u << 20)
#define FL_MAX_YAML_DEPTH	256		/* nested YAML collections */
#define FL_MAX_STRING_BYTES	(1u << 20)	/* one scalar */
#define FL_MAX_KEY_BYTES	4096		/* one mapping key */
#define FL_MAX_REF_DEPTH	64		/* $ref inside $ref ... */
#define FL_MAX_FILES		10000		/* files one contract reads */

#endif
