/*
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
 * When the newest of the operator's Events for FlinkDeployment name (an
 * EventList, as GET .../events returned it) is a Warning SavepointError,
 * its message, bounded (new); else NULL.  The operator clears
 * status.error whenever it observes the job healthy, before each new
 * attempt: while it keeps failing to take a savepoint, its Events say so
 * throughout.
 */
char	*kube_savepoint_event(const json_t *list, const char *name);

#endif
