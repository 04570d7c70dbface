/*
 * sqlgen_security.h - the Kafka source's TLS and SASL options, for
 * sqlgen.c alone.
 *
 * No credential is written: each is a reference, ${fluid:env:NAME},
 * that the runner (tools/flink-runner, KafkaSecrets.java) replaces in
 * the pod with the value of the pod's variable NAME, and only in the
 * options listed in fluid-sqlgen(1), ENVIRONMENT REFERENCES.
 */
#ifndef FLUID_SQLGEN_SECURITY_H
#define FLUID_SQLGEN_SECURITY_H

#include <jansson.h>

#include "xalloc.h"

/* The reference the runner resolves: SQLGEN_REF_OPEN NAME "}". */
#define SQLGEN_REF_OPEN	"${fluid:env:"

/*
 * Append to out the WITH options of sec (the IR's
 * stream.source.security; NULL or absent: nothing), each written as
 * ",\n  'key' = 'value'" (without the comma when *first, which is then
 * cleared).  Returns -1 when sec is not IR fluid-check writes (a name
 * that is no variable, a protocol or path it refuses): the caller fails
 * the build, and nothing of sec is quoted.
 */
int	sqlgen_security(struct sb *out, const json_t *sec, int *first);

#endif
