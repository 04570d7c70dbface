/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen_security.c - parameters.flink.source.security as the Kafka
 * connector's properties.* options (see sqlgen_security.h).
 *
 * fluid-sqlgen reads whatever JSON follows a "check" stage, so the IR
 * is judged again here, by the rules fluid-check applies: a variable
 * must be a plain name (so a reference can neither close early nor
 * name something else), a path what path_pod_ok() admits, every word one
 * of the lists.  Hostname verification is written explicitly ("https"
 * is Kafka's default too), so that no later default can turn it off.
 */
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "jget.h"
#include "sqlgen_security.h"
#include "sqlq.h"

/* The shared accessor (jget.h), under this file's short name. */

static bool
one_of(const char *s, const char *const *words)
{
	size_t i;

	for (i = 0; s != NULL && words[i] != NULL; i++)
		if (strcmp(s, words[i]) == 0)
			return true;
	return false;
}

static bool
var_ok(const char *s)
{
	return s != NULL && strlen(s) <= 128 && path_is_ident(s);
}

static void
option(struct sb *out, const char *key, const char *value, int *first)
{
	sb_adds(out, *first ? "\n  " : ",\n  ");
	*first = 0;
	sqlq_literal(out, key);
	sb_adds(out, " = ");
	sqlq_literal(out, value);
}

/*
 * The variables referenced so far, for the provider's allowlist: at
 * most the five a security block can name.
 */
struct vars {
	const char	*name[8];
	size_t		 n;
};

static void
vars_add(struct vars *vs, const char *name)
{
	size_t i;

	for (i = 0; i < vs->n; i++)
		if (strcmp(vs->name[i], name) == 0)
			return;
	if (vs->n < sizeof(vs->name) / sizeof(vs->name[0]))
		vs->name[vs->n++] = name;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ${fluidenv:NAME} in sb (emptied first); NAME joins vs. */
static void
ref(struct sb *sb, const char *name, struct vars *vs)
{
	sb_truncate(sb, 0);
	sb_adds(sb, SQLGEN_REF_OPEN);
	sb_adds(sb, name);
	sb_addc(sb, '}');
	vars_add(vs, name);
}

/*
 * The Kafka client's own resolution of the references: Kafka's
 * EnvVarConfigProvider (KIP-887), configured in the same options, so
 * that every client the job makes (the enumerator's admin client, each
 * reader's consumer) reads the variables in its own pod and no value is
 * ever in the table's options, the JobGraph or a log.  Its allowlist
 * is exactly the variables named here, sorted (the runner rebuilds and
 * compares it): the provider can read no other variable of the pod.
 */
static void
provider(struct sb *out, struct vars *vs, int *first)
{
	struct sb v;
	size_t i;

	if (vs->n == 0)
		return;
	qsort(vs->name, vs->n, sizeof(vs->name[0]), name_cmp);
	sb_init(&v);
	sb_adds(&v, "^(");
	for (i = 0; i < vs->n; i++) {
		if (i > 0)
			sb_addc(&v, '|');
		sb_adds(&v, vs->name[i]);
	}
	sb_adds(&v, ")$");
	option(out, "properties.config.providers", SQLGEN_PROVIDER, first);
	option(out, "properties.config.providers." SQLGEN_PROVIDER ".class",
	    SQLGEN_PROVIDER_CLASS, first);
	option(out, "properties.config.providers." SQLGEN_PROVIDER
	    ".param.allowlist.pattern", v.buf, first);
	sb_release(&v);
}

static int
jaas(struct sb *out, const json_t *sasl, int *first, struct vars *vs)
{
	const char *mech = jstr(sasl, "mechanism"), *u, *p, *j;
	struct sb v;

	sb_init(&v);
	if ((j = jstr(sasl, "jaasConfigEnv")) != NULL) {
		if (!var_ok(j))
			return sb_release(&v), -1;
		/* The whole line, as the variable holds it. */
		ref(&v, j, vs);
	} else {
		u = jstr(sasl, "usernameEnv");
		p = jstr(sasl, "passwordEnv");
		if (!var_ok(u) || !var_ok(p))
			return sb_release(&v), -1;
		/*
		 * Each reference the whole of a JAAS string: the provider
		 * puts the value in as it is, so the runner refuses a value
		 * with a '"' or '\\' that could end the string.
		 */
		sb_adds(&v, strcmp(mech, "PLAIN") == 0 ?
		    "org.apache.kafka.common.security.plain.PlainLoginModule" :
		    "org.apache.kafka.common.security.scram.ScramLoginModule");
		sb_adds(&v, " required username=\"" SQLGEN_REF_OPEN);
		sb_adds(&v, u);
		sb_adds(&v, "}\" password=\"" SQLGEN_REF_OPEN);
		sb_adds(&v, p);
		sb_adds(&v, "}\";");
		vars_add(vs, u);
		vars_add(vs, p);
	}
	option(out, "properties.sasl.jaas.config", v.buf, first);
	sb_release(&v);
	return 0;
}

/* truststore or keystore (which) of tls. */
static int
store(struct sb *out, const json_t *st, const char *which, int *first,
    struct vars *vs)
{
	static const char *const types[] = { "PKCS12", "JKS", "PEM", NULL };
	const char *path = jstr(st, "path"), *type = jstr(st, "type");
	const char *pw = jstr(st, "passwordEnv"), *kpw = jstr(st,
	    "keyPasswordEnv");
	struct sb k, v;

	if (st == NULL || json_is_null(st))
		return 0;
	if (!path_pod_ok(path) || !one_of(type, types) ||
	    (pw != NULL && !var_ok(pw)) || (kpw != NULL && !var_ok(kpw)))
		return -1;
	sb_init(&k);
	sb_init(&v);
	sb_addf(&k, "properties.ssl.%s.location", which);
	option(out, k.buf, path, first);
	sb_truncate(&k, 0);
	sb_addf(&k, "properties.ssl.%s.type", which);
	option(out, k.buf, type, first);
	if (pw != NULL) {
		sb_truncate(&k, 0);
		sb_addf(&k, "properties.ssl.%s.password", which);
		ref(&v, pw, vs);
		option(out, k.buf, v.buf, first);
	}
	if (kpw != NULL) {
		ref(&v, kpw, vs);
		option(out, "properties.ssl.key.password", v.buf, first);
	}
	sb_release(&k);
	sb_release(&v);
	return 0;
}

int
sqlgen_security(struct sb *out, const json_t *sec, int *first)
{
	static const char *const protocols[] = { "PLAINTEXT", "SSL",
	    "SASL_PLAINTEXT", "SASL_SSL", NULL };
	static const char *const mechanisms[] = { "PLAIN", "SCRAM-SHA-256",
	    "SCRAM-SHA-512", NULL };
	const char *proto = jstr(sec, "protocol");
	const json_t *sasl = json_object_get(sec, "sasl");
	const json_t *tls = json_object_get(sec, "tls");
	struct vars vs = { { NULL }, 0 };
	bool is_sasl, is_tls;

	if (sec == NULL || json_is_null(sec))
		return 0;
	if (!one_of(proto, protocols))
		return -1;
	is_sasl = strncmp(proto, "SASL_", 5) == 0;
	is_tls = strcmp(proto, "SSL") == 0 || strcmp(proto, "SASL_SSL") == 0;
	if (is_sasl != json_is_object(sasl) || (!is_tls && tls != NULL &&
	    !json_is_null(tls)))
		return -1;
	option(out, "properties.security.protocol", proto, first);
	if (is_sasl) {
		if (!one_of(jstr(sasl, "mechanism"), mechanisms))
			return -1;
		option(out, "properties.sasl.mechanism", jstr(sasl,
		    "mechanism"), first);
		if (jaas(out, sasl, first, &vs) == -1)
			return -1;
	}
	if (is_tls) {
		if (store(out, json_object_get(tls, "truststore"),
		    "truststore", first, &vs) == -1 ||
		    store(out, json_object_get(tls, "keystore"), "keystore",
		    first, &vs) == -1)
			return -1;
		option(out, "properties.ssl.endpoint.identification.algorithm",
		    "https", first);
	}
	provider(out, &vs, first);
	return 0;
}
