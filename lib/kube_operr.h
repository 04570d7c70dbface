/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_operr.h - the Flink Kubernetes operator's status.error, read.
 *
 * The operator (1.13) writes status.error as a FlinkResourceException in
 * JSON ({"type", "message", "additionalMetadata", "throwableList"}), or,
 * when it cannot, the exception's text.  fluid apply and fluid verify
 * both quote it: this is the one reading of it.  Its Events say what
 * status.error may have cleared again.
 */
#ifndef FLUID_KUBE_OPERR_H
#define FLUID_KUBE_OPERR_H

#include <jansson.h>

/*
 * The message of error, with its last cause when the message does not
 * already say it, each bounded (new); NULL when error is NULL or empty.
 * Not escaped: the diagnostics escape what they print.
 */
char	*kube_operator_error(const char *error);

/*
 * The message of the newest Warning SavepointError among the operator's
 * Events for FlinkDeployment name (an EventList, as GET .../events
 * returned it) at or after since_ms (milliseconds since the epoch, to
 * the second; -1: any), bounded (new); else NULL.  The operator clears
 * status.error before each new attempt and records a Normal event
 * (Suspended) as it starts one: while it keeps failing to take a
 * savepoint, a SavepointError stands among its Events since it last took
 * a spec (status.reconciliationStatus.reconciliationTimestamp), whatever
 * came after it.
 */
char	*kube_savepoint_event(const json_t *list, const char *name,
	    long long since_ms);

#endif
