/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_security.c - how the job authenticates to Kafka and encrypts
 * the connection: parameters.flink.source.security.
 *
 * The discipline is catalogAuth's (check_expose.c): a credential never
 * appears in the contract.  The contract names environment variables of
 * the pod (fed by deployment.secretRefs) and file paths inside it (a
 * mounted Secret); fluid-sqlgen writes references to the variables,
 * which the runner resolves in the pod, and only there.  A field that
 * would hold a credential by value is refused without being echoed, and
 * so is a variable "name" that is not one, since it may be the secret
 * pasted in the wrong place.  Hostname verification is always on: there
 * is no way to turn it off.
 *
 * The IR's "variables" lists every variable the runner will read, once
 * each, in the order of the contract: fluid apply pairs each with every
 * broker in bootstrapServers (FLUID_ACQUISITION_SECRET_REF_ALLOWLIST).
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "path.h"

static const char *const security_keys[] = {
	"protocol", "sasl", "tls", NULL
};
static const char *const sasl_keys[] = {
	"mechanism", "usernameEnv", "passwordEnv", "jaasConfigEnv", NULL
};
static const char *const tls_keys[] = {
	"truststore", "keystore", "hostnameVerification", NULL
};
static const char *const truststore_keys[] = {
	"path", "type", "passwordEnv", NULL
};
static const char *const keystore_keys[] = {
	"path", "type", "passwordEnv", "keyPasswordEnv", NULL
};
static const char *const protocols[] = {
	"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL", NULL
};
static const char *const mechanisms[] = {
	"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", NULL
};
static const char *const store_types[] = { "PKCS12", "JKS", "PEM", NULL };

/*
 * Keys that would hold a credential by value, each with the key that
 * names its variable instead.  Refused with that pointer, the value
 * never quoted.
 */
static const struct literal {
	const char	*key;
	const char	*instead;
} sasl_literals[] = {
	{ "username", "usernameEnv" },
	{ "password", "passwordEnv" },
	{ "jaasConfig", "jaasConfigEnv" },
	{ "jaas", "jaasConfigEnv" },
	{ "sasl.jaas.config", "jaasConfigEnv" },
	{ NULL, NULL }
}, store_literals[] = {
	{ "password", "passwordEnv" },
	{ "keyPassword", "keyPasswordEnv" },
	{ "ssl.truststore.password", "passwordEnv" },
	{ "ssl.keystore.password", "passwordEnv" },
	{ "ssl.key.password", "keyPasswordEnv" },
	{ NULL, NULL }
};

#define NO_VERIFY_OFF "hostname verification is never turned off: the " \
	"broker's certificate must name the host the job connects to " \
	"(bootstrapServers); fix the certificate or the host, not the check"

/* Does key, in any case, turn Kafka's endpoint identification? */
static bool
names_verification(const char *key)
{
	const char *const words[] = { "endpoint.identification",
	    "endpointIdentification", "hostnameVerif", "verifyHostname",
	    "hostname.verif", NULL };
	size_t i, n;
	const char *p;

	for (i = 0; words[i] != NULL; i++)
		for (n = strlen(words[i]), p = key; *p != '\0'; p++)
			if (strncasecmp(p, words[i], n) == 0)
				return true;
	return false;
}

/*
 * The keys of o that are credentials by value (literals) or turn
 * hostname verification (other than the one boolean, verify_key):
 * refused here, with nothing of their value.  Returns the number
 * refused; *ignored (new, NULL-terminated, free it) gets them, for
 * chk_only_keys_except(), sized for every key of o so that none refused
 * here is reported there again.
 */
static int
literal_keys(struct chk *c, struct chk_loc *l, json_t *o,
    const struct literal *lits, const char *verify_key,
    const char ***ignored_out)
{
	const char *k, **ignored;
	json_t *v;
	size_t i, n = 0;
	int bad = 0;

	ignored = xcalloc(json_object_size(o) + 1, sizeof(*ignored));
	*ignored_out = ignored;

	json_object_foreach(o, k, v) {
		(void)v;
		for (i = 0; lits != NULL && lits[i].key != NULL; i++)
			if (strcasecmp(k, lits[i].key) == 0)
				break;
		if (lits != NULL && lits[i].key != NULL) {
			chk_err_at(c, l, k, "a credential never goes into the "
			    "contract: name the environment variable that "
			    "holds it in %s (the pod gets it from a Secret in "
			    "deployment.secretRefs)", lits[i].instead);
		} else if ((verify_key == NULL || strcmp(k, verify_key) != 0)
		    && names_verification(k)) {
			chk_err_at(c, l, k, NO_VERIFY_OFF);
		} else
			continue;
		bad++;
		ignored[n++] = k;
	}
	ignored[n] = NULL;
	return bad;
}

/*
 * Whether s names the variable of a catalogAuth of the contract (its
 * tokenEnv or credentialEnv); *xi and *key then say whose.  The pod
 * holds both, and a Kafka setting that names the catalog's would send a
 * credential meant for the catalog to the brokers.
 */
static bool
catalog_variable(const struct chk *c, const char *s, size_t *xi,
    const char **key)
{
	static const char *const keys[] = { "tokenEnv", "credentialEnv",
	    NULL };
	json_t *x, *auth;
	const char *v;
	size_t i, k;

	json_array_foreach(json_object_get(c->doc, "exposes"), i, x) {
		auth = json_object_get(json_object_get(x, "binding"),
		    "catalogAuth");
		for (k = 0; keys[k] != NULL; k++) {
			v = json_string_value(json_object_get(auth, keys[k]));
			if (v != NULL && strcmp(v, s) == 0) {
				*xi = i;
				*key = keys[k];
				return true;
			}
		}
	}
	return false;
}

/*
 * o[key], the name of an environment variable of the pod; NULL when
 * absent or refused (*ok false then).  A value that is no name is not
 * echoed: it may be the credential itself.
 */
static const char *
env_name(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required, bool *ok, json_t *vars)
{
	json_t *v = json_object_get(o, key);
	const char *s = chk_get_str(c, l, o, key, required), *ak;
	size_t i;

	if (s == NULL) {
		if (required || (v != NULL && !json_is_null(v)))
			*ok = false;
		return NULL;
	}
	if (strlen(s) > 128 || !path_is_ident(s)) {
		chk_err_at(c, l, key, "must be the name of an environment "
		    "variable of the pod (letters, digits and '_'), not a "
		    "credential");
		*ok = false;
		return NULL;
	}
	if (catalog_variable(c, s, &i, &ak)) {
		chk_err_at(c, l, key, "%s is the catalog's credential variable "
		    "(exposes[%zu].binding.catalogAuth.%s): the job would send "
		    "a credential meant for the catalog to the Kafka brokers; "
		    "give Kafka's credential a variable of its own", s, i, ak);
		*ok = false;
		return NULL;
	}
	for (i = 0; i < json_array_size(vars); i++)
		if (strcmp(json_string_value(json_array_get(vars, i)), s) == 0)
			return s;
	json_array_append_new(vars, json_string(s));
	return s;
}

/* truststore or keystore (key) of tls, to its IR (NULL: absent). */
static json_t *
store_check(struct chk *c, struct chk_loc *l, json_t *tls, const char *key,
    bool *ok, json_t *vars)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *st = chk_get_obj(c, l, tls, key, false), *ir;
	const char **ignored, *path, *type, *pw, *kpw = NULL;
	bool keystore = strcmp(key, "keystore") == 0, lit;

	if (st == NULL) {
		if (json_object_get(tls, key) != NULL &&
		    !json_is_null(json_object_get(tls, key)))
			*ok = false;
		return NULL;
	}
	chk_loc_key(l, key);
	lit = literal_keys(c, l, st, store_literals, NULL, &ignored) > 0;
	if (lit)
		*ok = false;
	*ok &= chk_only_keys_except(c, l, st, keystore ? keystore_keys :
	    truststore_keys, ignored) == 0;
	free(ignored);
	path = chk_get_str(c, l, st, "path", true);
	if (path == NULL)
		*ok = false;
	else if (!path_pod_ok(path)) {
		chk_err_at(c, l, "path", "must be an absolute path of a file "
		    "inside the pod, such as a mounted Secret (letters, "
		    "digits, '.', '_', '-' and '/', without '.' or '..' "
		    "segments)");
		*ok = false;
		path = NULL;
	}
	type = chk_get_enum(c, l, st, "type", false, store_types);
	if (type == NULL && json_object_get(st, "type") != NULL &&
	    !json_is_null(json_object_get(st, "type")))
		*ok = false;
	if (type == NULL)
		type = "PKCS12";
	pw = env_name(c, l, st, "passwordEnv", false, ok, vars);
	if (keystore)
		kpw = env_name(c, l, st, "keyPasswordEnv", false, ok, vars);
	if (strcmp(type, "PEM") == 0 && pw != NULL) {
		chk_err_at(c, l, "passwordEnv", "a PEM %s has no password "
		    "(Kafka refuses one)%s", key, keystore ? ": an encrypted "
		    "key's password is keyPasswordEnv" : "");
		*ok = false;
	} else if (keystore && !lit && strcmp(type, "PEM") != 0 &&
	    pw == NULL && json_object_get(st, "passwordEnv") == NULL) {
		chk_err_at(c, l, NULL, "a %s keystore needs passwordEnv, the "
		    "variable that holds its password", type);
		*ok = false;
	}
	ir = json_pack("{s:s?, s:s, s:s?}", "path", path, "type", type,
	    "passwordEnv", pw);
	if (keystore)
		json_object_set_new(ir, "keyPasswordEnv", kpw != NULL ?
		    json_string(kpw) : json_null());
	chk_loc_reset(l, m);
	return ir;
}

static json_t *
tls_check(struct chk *c, struct chk_loc *l, json_t *sec, bool *ok,
    json_t *vars)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *tls = chk_get_obj(c, l, sec, "tls", false), *ir, *ts, *ks;
	const char **ignored;
	int hv;

	if (tls == NULL) {
		if (json_object_get(sec, "tls") != NULL &&
		    !json_is_null(json_object_get(sec, "tls")))
			*ok = false;
		return json_object();
	}
	chk_loc_key(l, "tls");
	if (literal_keys(c, l, tls, NULL, "hostnameVerification",
	    &ignored) > 0)
		*ok = false;
	*ok &= chk_only_keys_except(c, l, tls, tls_keys, ignored) == 0;
	free(ignored);
	hv = chk_get_bool(c, l, tls, "hostnameVerification");
	if (hv == -1)
		*ok = false;
	else if (hv == 0 && json_object_get(tls, "hostnameVerification") !=
	    NULL && !json_is_null(json_object_get(tls,
	    "hostnameVerification"))) {
		chk_err_at(c, l, "hostnameVerification", NO_VERIFY_OFF);
		*ok = false;
	}
	ts = store_check(c, l, tls, "truststore", ok, vars);
	ks = store_check(c, l, tls, "keystore", ok, vars);
	ir = json_pack("{s:o?, s:o?}", "truststore", ts, "keystore", ks);
	chk_loc_reset(l, m);
	return ir;
}

static json_t *
sasl_check(struct chk *c, struct chk_loc *l, json_t *sec, bool *ok,
    json_t *vars)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *sasl = chk_get_obj(c, l, sec, "sasl", true), *ir;
	const char **ignored, *mech, *user, *pass, *jaas;
	bool lit;

	if (sasl == NULL) {
		*ok = false;
		return NULL;
	}
	chk_loc_key(l, "sasl");
	/* A credential by value is the error: not also a missing name. */
	lit = literal_keys(c, l, sasl, sasl_literals, NULL, &ignored) > 0;
	if (lit)
		*ok = false;
	*ok &= chk_only_keys_except(c, l, sasl, sasl_keys, ignored) == 0;
	free(ignored);
	mech = chk_get_enum(c, l, sasl, "mechanism", true, mechanisms);
	if (mech == NULL)
		*ok = false;
	if (json_object_get(sasl, "jaasConfigEnv") != NULL) {
		if (json_object_get(sasl, "usernameEnv") != NULL ||
		    json_object_get(sasl, "passwordEnv") != NULL) {
			chk_err_at(c, l, "jaasConfigEnv", "names the whole "
			    "JAAS line: usernameEnv and passwordEnv go with "
			    "it only without it");
			*ok = false;
		}
		jaas = env_name(c, l, sasl, "jaasConfigEnv", true, ok, vars);
		ir = json_pack("{s:s?, s:s?}", "mechanism", mech,
		    "jaasConfigEnv", jaas);
	} else if (json_object_get(sasl, "usernameEnv") == NULL &&
	    json_object_get(sasl, "passwordEnv") == NULL) {
		if (!lit)
			chk_err_at(c, l, NULL, "needs usernameEnv and "
			    "passwordEnv, or jaasConfigEnv: the environment "
			    "variables of the pod that hold the credential");
		*ok = false;
		ir = json_pack("{s:s?}", "mechanism", mech);
	} else {
		user = env_name(c, l, sasl, "usernameEnv", !lit, ok, vars);
		pass = env_name(c, l, sasl, "passwordEnv", !lit, ok, vars);
		ir = json_pack("{s:s?, s:s?, s:s?}", "mechanism", mech,
		    "usernameEnv", user, "passwordEnv", pass);
	}
	chk_loc_reset(l, m);
	return ir;
}

/*
 * Whether host (from bootstrapServers, port and brackets dropped) stays
 * inside the pod or the cluster: loopback, a name of one label (a
 * Service of the job's namespace), or a name under .svc or
 * .cluster.local.
 */
static bool
local_host(const char *h, size_t n)
{
	static const char *const suffixes[] = { ".svc", ".cluster.local",
	    ".svc.", ".cluster.local.", NULL };
	unsigned char b[16];
	char a[INET6_ADDRSTRLEN];
	size_t i, k;

	if (n == 9 && strncasecmp(h, "localhost", 9) == 0)
		return true;
	/*
	 * An address, read as one: "127.attacker.com" begins like
	 * 127.0.0.0/8 but is a name anywhere in DNS.
	 */
	if (n < sizeof a) {
		memcpy(a, h, n);
		a[n] = '\0';
		if (inet_pton(AF_INET, a, b) == 1)
			return b[0] == 127;
		if (inet_pton(AF_INET6, a, b) == 1) {
			for (i = 0; i < 15 && b[i] == 0; i++)
				;
			return i == 15 && b[15] == 1;
		}
	}
	if (memchr(h, '.', n) == NULL && memchr(h, ':', n) == NULL)
		return true;
	for (i = 0; suffixes[i] != NULL; i++) {
		k = strlen(suffixes[i]);
		if (n > k && strncasecmp(h + n - k, suffixes[i], k) == 0)
			return true;
	}
	return false;
}

/*
 * PLAINTEXT and SASL_PLAINTEXT to a broker outside the pod and the
 * cluster: a warning at l's key "at" that names each such host (servers
 * is already checked: host:port,..., of plain characters, so it may be
 * echoed).  how says where the protocol comes from.
 */
static void
cleartext_warnings(struct chk *c, struct chk_loc *l, const char *proto,
    const char *how, const char *at, const char *servers)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	const char *p = servers, *end, *colon, *q, *h;
	size_t n;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		colon = NULL;
		for (q = p; q < end; q++)
			if (*q == ':')
				colon = q;
		h = p;
		n = colon != NULL ? (size_t)(colon - p) : (size_t)(end - p);
		if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
			h++;
			n -= 2;
		}
		if (n > 0 && !local_host(h, n)) {
			chk_loc_key(l, at);
			chk_warn(c, l, "%s%s sends to broker '%.*s' without "
			    "TLS: %s cross the network in clear text; use %s",
			    proto, how, (int)n, h, strcmp(proto, "PLAINTEXT") == 0 ?
			    "the records" : "the credential and the records",
			    strcmp(proto, "PLAINTEXT") == 0 ? "SSL" :
			    "SASL_SSL");
			chk_loc_reset(l, m);
		}
		p = *end == ',' ? end + 1 : end;
	}
}

bool
chk_security_check(struct chk *c, struct chk_loc *l, json_t *flink,
    json_t *src, const char *servers, json_t *source_ir)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *sec, *vars, *ir, *sasl = NULL, *tls = NULL, *refs;
	const char *proto, **ignored;
	bool ok = true, is_sasl, is_tls;

	/* Without a block, Kafka's client speaks PLAINTEXT. */
	if ((sec = json_object_get(src, "security")) == NULL ||
	    json_is_null(sec)) {
		if (servers != NULL)
			cleartext_warnings(c, l, "PLAINTEXT",
			    " (no source.security)", "bootstrapServers",
			    servers);
		return true;
	}
	if ((sec = chk_get_obj(c, l, src, "security", false)) == NULL)
		return false;
	chk_loc_key(l, "security");
	ok = literal_keys(c, l, sec, sasl_literals, NULL, &ignored) == 0;
	ok &= chk_only_keys_except(c, l, sec, security_keys, ignored) == 0;
	free(ignored);
	proto = chk_get_enum(c, l, sec, "protocol", true, protocols);
	if (proto == NULL) {
		chk_loc_reset(l, m);
		return false;
	}
	is_sasl = strncmp(proto, "SASL_", 5) == 0;
	is_tls = strcmp(proto, "SSL") == 0 || strcmp(proto, "SASL_SSL") == 0;
	vars = json_array();
	if (is_sasl)
		sasl = sasl_check(c, l, sec, &ok, vars);
	else if (json_object_get(sec, "sasl") != NULL) {
		chk_err_at(c, l, "sasl", "applies to SASL_PLAINTEXT and "
		    "SASL_SSL only: protocol %s does not authenticate with "
		    "SASL", proto);
		ok = false;
	}
	if (is_tls)
		tls = tls_check(c, l, sec, &ok, vars);
	else if (json_object_get(sec, "tls") != NULL) {
		chk_err_at(c, l, "tls", "applies to SSL and SASL_SSL only: "
		    "protocol %s does not use TLS", proto);
		ok = false;
	}
	/* The variables come from the Secrets the pod mounts. */
	refs = json_object_get(json_object_get(flink, "deployment"),
	    "secretRefs");
	if (ok && json_array_size(vars) > 0 && (!json_is_array(refs) ||
	    json_array_size(refs) == 0)) {
		chk_err(c, l, "names environment variables of the pod, but "
		    "deployment.secretRefs lists no Secret to feed them");
		ok = false;
	}
	if (ok && !is_tls && servers != NULL)
		cleartext_warnings(c, l, proto, "", "protocol", servers);
	ir = json_pack("{s:s, s:o?, s:o?, s:o}", "protocol", proto, "sasl",
	    sasl, "tls", tls, "variables", vars);
	json_object_set_new(source_ir, "security", ir);
	chk_loc_reset(l, m);
	return ok;
}

/*
 * Whether host (a URL's, without brackets) is loopback or a name inside
 * the cluster, read as for a broker: the deployment's stateEndpoint may
 * be plain http there.
 */
bool
chk_host_in_cluster(const char *host)
{
	return local_host(host, strlen(host));
}
