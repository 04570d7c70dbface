/*
 * fluid.h - the one header the tools include.
 *
 * libfluid.a holds everything the stages share; each module has its own
 * header, named after its function prefix, which says what it owns:
 *
 *	xalloc.h   xmalloc() and friends, struct sb        (xalloc.c)
 *	diag.h     diagnostics, exit status, fl_fatal()    (diag.c)
 *	bounds.h   the fixed input limits
 *	jptr.h     JSON pointers                           (jptr.c)
 *	yload.h    YAML -> JSON with positions             (yload.c)
 *	yemit.h    JSON -> YAML                            (yemit.c)
 *	resolve.h  $ref and workspace resolution           (resolve.c)
 *	ir.h       the pipeline document                   (ir.c)
 *	types.h    FLUID column types                      (types.c)
 *	path.h     mapping paths                           (path.c)
 *	utf8.h     one UTF-8 character                     (utf8.c)
 *	digest.h   sha256 digests                          (digest.c)
 *	atomic.h   all-or-nothing file writes              (atomic.c)
 *	outdir.h   a directory of files, replaced as a set (outdir.c)
 *	cli.h      what every tool's main() does           (cli.c)
 *	check.h    the static rules, IR out                (check*.c)
 *	url.h      URLs through libcurl's parser           (url.c)
 *	sqlq.h     SQL identifiers and literals            (sqlq.c)
 *	sqlgen.h   IR -> Flink SQL                         (sqlgen.c)
 *	pipeline.h each stage, and all in one process      (stage_*.c,
 *	                                                   pipeline.c)
 *
 * Ownership follows jansson: functions that return json_t * return a new
 * reference unless their header says "borrowed"; a function that takes
 * over a reference says "stolen" or ends in _new.
 */
#ifndef FLUID_FLUID_H
#define FLUID_FLUID_H

#include "xalloc.h"
#include "bounds.h"
#include "diag.h"
#include "jptr.h"
#include "yload.h"
#include "yemit.h"
#include "resolve.h"
#include "ir.h"
#include "types.h"
#include "path.h"
#include "digest.h"
#include "atomic.h"
#include "outdir.h"
#include "cli.h"
#include "check.h"
#include "url.h"
#include "sqlq.h"
#include "sqlgen.h"
#include "pipeline.h"

#endif
