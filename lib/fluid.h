/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid.h - the one header the tools include.
 *
 * libfluid.a holds everything the stages share.  The tree is flat, as
 * mandoc's and cproc's are: a module is a file (or files sharing a
 * prefix) with a header named after its function prefix, which says
 * what it owns:
 *
 *	xalloc.h   xmalloc() and friends, struct sb        (xalloc.c)
 *	diag.h     diagnostics, exit statuses, diag_*(); as
 *	           GitHub workflow commands  (diag.c, diag_ci.c)
 *	clock.h    the monotonic clock for deadlines, a sleep
 *	           a signal does not cut short, the wall
 *	           clock for reports, clk_          (clock.c)
 *	bounds.h   the fixed input limits
 *	jptr.h     JSON pointers, jptr_ and jptab_         (jptr.c)
 *	jget.h     members of JSON another stage, a file or
 *	           a server wrote, of any shape: jstr(),
 *	           jstreq(), jpresent()              (jget.c)
 *	yload.h    YAML -> JSON with positions             (yload.c)
 *	yemit.h    JSON -> YAML                            (yemit.c)
 *	resolve.h  $ref and workspace resolution           (resolve.c)
 *	ir.h       the pipeline document, struct ir        (ir.c)
 *	ir_prune.h a section's JSON bytes without the members
 *	           a stage does not read, ir_prune_ (ir_prune.c)
 *	types.h    FLUID column types, ty_                 (types.c)
 *	path.h     mapping paths                           (path.c)
 *	utf8.h     one UTF-8 character                     (utf8.c)
 *	suggest.h  "did you mean": one edit away, for keys,
 *	           commands and options, suggest_        (suggest.c)
 *	digest.h   sha256 digests                          (digest.c)
 *	atomic.h   all-or-nothing file writes              (atomic.c)
 *	outdir.h   a directory of files, replaced as a set (outdir.c)
 *	check.h    the static rules, IR out; its internals
 *	           are chk_ in check_int.h                 (check*.c)
 *	           the source's TLS and SASL, chk_security_
 *	                                      (check_security.c)
 *	           change streams, chk_cdc_             (check_cdc.c)
 *	check_int.h
 *	           the checker's internals, chk_, for check*.c
 *	           only: locations, a stream's column table
 *	           (check_util.c, check_scol.c, ...)
 *	check_cfk.h
 *	           the Confluent for Kubernetes target's rules
 *	           (management: cfk), chk_cfk_   (check_cfk.c)
 *	imageref.h an image reference pinned by digest, the one
 *	           rule of the checker, the renderers and the
 *	           allowlists, imageref_          (imageref.c)
 *	url.h      URLs through libcurl's parser           (url.c)
 *	sqlq.h     SQL identifiers and literals            (sqlq.c)
 *	sqllex.h   Flink SQL tokens, the own query's rules (sqllex.c)
 *	sqlgen.h   IR -> Flink SQL                         (sqlgen.c)
 *	sqlgen_security.h
 *	           the source's TLS and SASL options, for
 *	           sqlgen.c only              (sqlgen_security.c)
 *	sqlgen_int.h
 *	           sqlgen.c's writer and its change-stream
 *	           hooks sqlgen_cdc_, for sqlgen*.c
 *	                            (sqlgen_emit.c, sqlgen_cdc.c)
 *	sqlgen_cfk.h
 *	           IR -> a CFK build's statements in CMF's
 *	           dialect: source, sink, insert (sqlgen_cfk.c)
 *	k8s.h      IR -> ConfigMap, FlinkDeployment, plan;
 *	           rendered offline, apart from kube_; the
 *	           Kubernetes name rules and "is it fluid's"
 *	           (k8s_render.c, k8s_plan.c, k8s_label.c)
 *	scale.h    a build's sizing (parallelism, key groups,
 *	           pods' resources, autoscaler) with its
 *	           defaults, for both renderers, scale_ (scale.c)
 *	k8s_cfk_render.h
 *	           IR -> a CFK build's FlinkComputePool and
 *	           FlinkStatements, offline, cfk_render_
 *	                                  (k8s_cfk_render.c)
 *	k8s_cfk_plan.h
 *	           a CFK build in the plan, and the allowlists
 *	           on its resources, cfk_plan_, cfk_allow_
 *	                 (k8s_cfk_plan.c, k8s_cfk_allow.c)
 *	plan.h     a plan as apply reads it, offline: made
 *	           again from its bundle, allowlists on the
 *	           resources, the API server's limits, plan_
 *	                                      (plan_*.c)
 *	stage.h    what each fluid-* program does          (stage_*.c)
 *	pipeline.h the stages in one process, for fluid    (pipeline.c)
 *	validate.h fluid validate's result per contract,
 *	           kept to report it as a line, a JSON
 *	           record or a test case, validate_     (validate.c)
 *	junit.h    JUnit XML reports, junit_               (junit.c)
 *	sarif.h    SARIF 2.1.0 logs of diagnostics, sarif_ (sarif.c)
 *	allow.h    the operator allowlists, allow_         (allow.c)
 *	diff.h     two checked contracts -> changes, diff_ (diff.c)
 *	odcs.h     IR -> ODCS v3.2.0 data contract, odcs_  (odcs.c)
 *	lineage.h  IR -> column lineage as text, DOT or
 *	           mermaid, lineage_    (lineage.c, lineage_graph.c)
 *	proc.h     a program run (posix_spawnp, no shell) with
 *	           its output bounded and a deadline, for
 *	           kube.c and git.c, proc_                 (proc.c)
 *	kube.h     kubectl, run with a deadline; whether live
 *	           covers what was applied, kube_
 *	                             (kube.c, kube_cover.c)
 *	kube_operr.h
 *	           the operator's status.error and savepoint
 *	           Events, read for apply and verify
 *	                                      (kube_operr.c)
 *	kube_record.h
 *	           the last-applied record's format
 *	                                      (kube_record.c)
 *	kube_apply.h
 *	           a checked plan written through kubectl,
 *	           kube_apply_                (kube_apply.c)
 *	kube_cfk.h a checked plan's CFK builds written through
 *	           kubectl, for kube_apply.c  (kube_cfk.c)
 *	kube_drift.h
 *	           drift: the live FlinkDeployment and
 *	           ConfigMap against the record and the
 *	           contract, read only, kube_drift_
 *	                                      (kube_drift.c)
 *	kube_cfk_drift.h
 *	           the same for a CFK build's pool and
 *	           statements            (kube_cfk_drift.c)
 *	net.h      the one libcurl HTTP client, net_       (net.c)
 *	verify.h   fluid verify's evidence, verify_        (verify.c)
 *	verify_int.h
 *	           its pieces, vfy_, for verify*.c only: the
 *	           checkpoint, through the Kubernetes API
 *	           server's service proxy, the operator's
 *	           status, a JobID  (verify_checkpoint.c,
 *	                      verify_status.c, verify_jobid.c)
 *	verify_cfk.h
 *	           its pieces for a CFK build, vfy_cfk_, for
 *	           verify.c only                (verify_cfk.c)
 *	target.h   the targets a project declares, target_ (target.c)
 *	gw.h       the SQL Gateway client, gw_             (gw.c, gw_script.c)
 *	git.h      files at a git revision, through git, as a
 *	           resolve_source (resolve.h), git_        (git.c)
 *	fluid/fluid.h
 *	           the public interface, the only header
 *	           make install installs; its fluid_ names are
 *	           the installed libfluid.a's only global
 *	           symbols (Makefile), fluid_              (api.c)
 *
 * fluid.h includes the headers of the modules that read, check and
 * render (its #include lines below); the others are included where
 * they are used, and only there:
 *  - the modules that contact something or start a process, kube*.h,
 *    net.h, verify.h, gw.h, git.h, proc.h and target.h: by the tools
 *    that do, by each other (proc.h by kube.c and git.c alone), and
 *    verify.h by fluid-verify's stage (tests/bats/layout.bats);
 *  - the internal headers check_int.h, check_cfk.h, sqlgen_int.h,
 *    sqlgen_security.h, verify_int.h and verify_cfk.h: by their
 *    module's own files (and its unit tests);
 *  - clock.h, jget.h, ir_prune.h, imageref.h, utf8.h, sqllex.h,
 *    sqlgen_cfk.h, k8s_cfk_render.h, k8s_cfk_plan.h, scale.h and plan.h:
 *    by the modules that use them.
 * kube_ applies the resources k8s_ and cfk_render_ render offline; gw_
 * applies the script sqlgen_ writes.
 *
 * Who may include whom:
 *  - The stage and pipeline layers (and validate.c, which runs two
 *    stages) join the others; no other module includes stage.h or
 *    pipeline.h, and no module includes fluid.h.
 *  - The checker, the renderers (sqlgen, sqlq, types, path, yemit, k8s,
 *    odcs, lineage),
 *    the stages and everything they include never include net.h or
 *    kube.h, nor call a network or process function (libcurl's easy or
 *    multi interface, sockets, fork, exec, posix_spawn): generate, plan
 *    and dry runs cannot contact anything.  url.c calls only libcurl's
 *    URL parser.  tests/bats/layout.bats enforces it, on the includes
 *    and on the symbols of the objects.
 *  - Nothing in lib/ exits or writes to a stream it was not given; the
 *    one exception is xalloc_die()'s line on out of memory (xalloc.h).
 *    A usage or environment error is a fatal diagnostic (diag_fatal());
 *    the tools print the diagnostics and decide, with tools/cli.h, the
 *    only code that exits.
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
#include "check.h"
#include "url.h"
#include "sqlq.h"
#include "sqlgen.h"
#include "k8s.h"
#include "stage.h"
#include "pipeline.h"
#include "validate.h"
#include "junit.h"
#include "sarif.h"
#include "allow.h"
#include "diff.h"
#include "odcs.h"
#include "lineage.h"
#include "suggest.h"

#endif
