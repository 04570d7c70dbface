/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen_security.h - the Kafka source's TLS and SASL options, for
 * sqlgen.c alone.
 *
 * No credential is written: each is a reference, ${fluidenv:NAME},
 * that the Kafka client resolves in each pod from the pod's variable
 * NAME, through Kafka's EnvVarConfigProvider configured in the same
 * options with an allowlist of exactly the variables named.  The
 * runner (tools/flink-runner, KafkaProviders.java) refuses any other
 * provider setting or reference: fluid-sqlgen(1), ENVIRONMENT
 * REFERENCES.
 */
#ifndef FLUID_SQLGEN_SECURITY_H
#define FLUID_SQLGEN_SECURITY_H

#include <jansson.h>

#include "xalloc.h"

/* The provider's name and class, and a reference: SQLGEN_REF_OPEN NAME "}". */
#define SQLGEN_PROVIDER		"fluidenv"
#define SQLGEN_PROVIDER_CLASS	\
	"org.apache.kafka.common.config.provider.EnvVarConfigProvider"
#define SQLGEN_REF_OPEN		"${" SQLGEN_PROVIDER ":"

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
