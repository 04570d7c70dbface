/*
 * kube_operr.h - the Flink Kubernetes operator's status.error, read.
 *
 * The operator (1.13) writes status.error as a FlinkResourceException in
 * JSON ({"type", "message", "additionalMetadata", "throwableList"}), or,
 * when it cannot, the exception's text.  fluid apply and fluid verify
 * both quote it: this is the one reading of it.
 */
#ifndef FLUID_KUBE_OPERR_H
#define FLUID_KUBE_OPERR_H

/*
 * The message of error, with its last cause when the message does not
 * already say it, each bounded (new); NULL when error is NULL or empty.
 * Not escaped: the diagnostics escape what they print.
 */
char	*kube_operator_error(const char *error);

#endif
