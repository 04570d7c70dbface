/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * allow.c - the operator allowlists (see allow.h).
 *
 * Every rule fails closed: a value or an entry that cannot be read is
 * refused or admits nothing, never the other way round.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "allow.h"
#include "digest.h"
#include "url.h"
#include "xalloc.h"

static const char *const variables[ALLOW_NLISTS] = {
	"FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST",
	"FLUID_FLINK_NAMESPACE_ALLOWLIST",
	"FLUID_FLINK_IMAGE_ALLOWLIST",
	"FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST",
	"FLUID_FLINK_SECRET_ALLOWLIST",
	"FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST",
	"FLUID_ACQUISITION_SECRET_REF_ALLOWLIST",
	"FLUID_FLINK_CONTRACT_SQL_ALLOWLIST",
	"FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST",
	"FLUID_CFK_CMF_REST_CLASS_ALLOWLIST",
	"FLUID_CFK_COMPUTE_POOL_ALLOWLIST",
};

const char *
allow_variable(enum allow_list l)
{
	return (unsigned)l < ALLOW_NLISTS ? variables[l] : NULL;
}

bool
allow_is_list_variable(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < ALLOW_NLISTS; i++)
		if (strcmp(name, variables[i]) == 0)
			return true;
	return false;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The variable that line [p, end) of a .env sets, if it is a list's. */
static const char *
setting_of(const char *p, const char *end)
{
	const char *name;
	size_t i, n;

	while (p < end && blank(*p))
		p++;
	if ((size_t)(end - p) > 7 && memcmp(p, "export", 6) == 0 &&
	    blank(p[6]))
		for (p += 6; p < end && blank(*p); p++)
			;
	for (name = p; p < end && (*p == '_' || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= 'a' && *p <= 'z') || (p > name && *p >= '0' && *p <= '9'));
	    p++)
		;
	n = (size_t)(p - name);
	while (p < end && blank(*p))
		p++;
	if (n == 0 || p == end || *p != '=')
		return NULL;
	for (i = 0; i < ALLOW_NLISTS; i++)
		if (strlen(variables[i]) == n && memcmp(name, variables[i], n) == 0)
			return variables[i];
	return NULL;
}

size_t
allow_settings_in_text(const char *text, size_t len,
    void (*found)(void *, size_t, const char *), void *arg)
{
	const char *p = text, *end = text + len, *nl, *var;
	size_t line, n = 0;

	for (line = 1; p < end; line++, p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((var = setting_of(p, nl)) != NULL) {
			found(arg, line, var);
			n++;
		}
		if (nl == end)
			break;
	}
	return n;
}

static void
split(struct allow_entries *e, const char *s)
{
	const char *p, *q, *end;

	memset(e, 0, sizeof(*e));
	for (p = s; p != NULL && *p != '\0'; p = *end ? end + 1 : end) {
		if ((end = strchr(p, ',')) == NULL)
			end = p + strlen(p);
		for (q = end; q > p && blank(q[-1]); q--)
			;
		while (p < q && blank(*p))
			p++;
		if (p == q)
			continue;
		e->v = xreallocarray(e->v, e->n + 1, sizeof(*e->v));
		e->v[e->n++] = xstrndup(p, (size_t)(q - p));
	}
	e->set = e->n > 0;
}

void
allow_load(struct allow *a, char *(*env)(const char *))
{
	size_t i;

	for (i = 0; i < ALLOW_NLISTS; i++)
		split(&a->list[i], env(variables[i]));
}

void
allow_release(struct allow *a)
{
	size_t i, j;

	for (i = 0; i < ALLOW_NLISTS; i++) {
		for (j = 0; j < a->list[i].n; j++)
			free(a->list[i].v[j]);
		free(a->list[i].v);
	}
	memset(a, 0, sizeof(*a));
}

/*
 * Whether s may be quoted in a message and in an export line the
 * operator may paste into a shell: no blank, quote, '$', '`', ',' (the
 * list separator), control character or non-ASCII byte.
 */
static bool
echoable(const char *s)
{
	const char *p;

	if (s == NULL || *s == '\0' || strlen(s) > 512)
		return false;
	for (p = s; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("._:/@+=~-", *p) ==
		    NULL)
			return false;
	return true;
}

/* "SUBJECT: export VAR=ENTRY", keeping the entries the list has. */
static char *__attribute__((format(printf, 4, 5)))
refusal(const struct allow *a, enum allow_list l, const char *entry,
    const char *fmt, ...)
{
	va_list ap;
	char *subject, *msg;
	const char *v = variables[l];

	va_start(ap, fmt);
	subject = xvasprintf(fmt, ap);
	va_end(ap);
	if (a->list[l].set)
		msg = xasprintf("%s: export %s=\"$%s,%s\"", subject, v, v,
		    entry);
	else
		msg = xasprintf("%s: export %s=%s", subject, v, entry);
	free(subject);
	return msg;
}

static bool
say(char **why, char *msg)
{
	if (why != NULL)
		*why = msg;
	else
		free(msg);
	return false;
}

static bool
unechoable(char **why, const char *what, enum allow_list l)
{
	return say(why, xasprintf("the %s is not allowed: it has a character "
	    "that no %s entry can hold", what, variables[l]));
}

static bool
in_list(const struct allow_entries *e, const char *s)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->v[i], s) == 0)
			return true;
	return false;
}

static bool
exact(const struct allow *a, enum allow_list l, const char *what,
    const char *value, char **why)
{
	if (!echoable(value))
		return unechoable(why, what, l);
	if (in_list(&a->list[l], value))
		return true;
	return say(why, refusal(a, l, value, "%s '%s' is not allowed", what,
	    value));
}

bool
allow_kube_context(const struct allow *a, const char *context, char **why)
{
	return exact(a, ALLOW_KUBE_CONTEXT, "kube context", context, why);
}

bool
allow_namespace(const struct allow *a, const char *ns, char **why)
{
	return exact(a, ALLOW_NAMESPACE, "namespace", ns, why);
}

/* --- images ------------------------------------------------------------ */

static bool
sha256_hex(const char *s)
{
	size_t i;

	if (strncmp(s, "sha256:", 7) != 0 || strlen(s) != 7 + 64)
		return false;
	for (i = 7; s[i] != '\0'; i++)
		if (!isdigit((unsigned char)s[i]) && (s[i] < 'a' || s[i] > 'f'))
			return false;
	return true;
}

/*
 * The repository of an image reference, as Kubernetes pulls it: the
 * registry in lower case, Docker Hub's short forms expanded.  With
 * entry, s is a list entry: no tag or digest, and a trailing '/' (a
 * prefix) is kept.  *pinned says whether s ends in @sha256:<hex>.
 * Returns a new string or NULL.
 */
static char *
image_repo(const char *s, bool entry, bool *pinned)
{
	const char *at, *slash, *colon, *p, *first_end;
	char *name, *out = NULL, *q;
	bool prefix, registry;
	struct sb sb;
	size_t n;

	*pinned = false;
	if (!echoable(s))
		return NULL;
	at = strchr(s, '@');
	if (at != NULL) {
		if (entry || !sha256_hex(at + 1))
			return NULL;
		*pinned = true;
	}
	name = xstrndup(s, at ? (size_t)(at - s) : strlen(s));
	slash = strrchr(name, '/');
	colon = strrchr(name, ':');
	if (colon != NULL && (slash == NULL || colon > slash)) {
		if (entry)
			goto out;
		name[colon - name] = '\0';	/* the tag never decides */
	}
	n = strlen(name);
	prefix = entry && n > 0 && name[n - 1] == '/';
	if (prefix)
		name[--n] = '\0';
	if (n == 0)
		goto out;
	first_end = strchr(name, '/');
	if (first_end == NULL)
		first_end = name + n;
	registry = first_end < name + n || prefix;
	for (p = name; p < first_end; p++)
		if (*p == '.' || *p == ':')
			break;
	registry = registry && (p < first_end ||
	    ((size_t)(first_end - name) == 9 &&
	    strncmp(name, "localhost", 9) == 0));
	sb_init(&sb);
	if (registry) {
		for (q = name; q < first_end; q++)
			*q = (char)tolower((unsigned char)*q);
		if ((size_t)(first_end - name) == 15 &&
		    strncmp(name, "index.docker.io", 15) == 0)
			sb_adds(&sb, "docker.io");
		else
			sb_addn(&sb, name, (size_t)(first_end - name));
		p = *first_end ? first_end + 1 : first_end;
	} else {
		sb_adds(&sb, "docker.io");
		p = name;
	}
	/* Docker Hub's official images live under library/. */
	if (strcmp(sb.buf, "docker.io") == 0 && *p != '\0' &&
	    strchr(p, '/') == NULL && !prefix)
		sb_adds(&sb, "/library");
	if (*p != '\0') {
		sb_addc(&sb, '/');
		sb_adds(&sb, p);
	}
	/* Path components: lower case, [a-z0-9._-], none empty. */
	for (q = strchr(sb.buf, '/'); q != NULL; q = strchr(q + 1, '/')) {
		if (q[1] == '\0' || q[1] == '/')
			goto bad;
		for (p = q + 1; *p != '\0' && *p != '/'; p++)
			if (!islower((unsigned char)*p) &&
			    !isdigit((unsigned char)*p) &&
			    strchr("._-", *p) == NULL)
				goto bad;
	}
	/* A registry alone is a repository only as a prefix. */
	if (strchr(sb.buf, '/') == NULL && !prefix)
		goto bad;
	if (prefix)
		sb_addc(&sb, '/');
	out = sb_steal(&sb);
bad:
	sb_release(&sb);
out:
	free(name);
	return out;
}

bool
allow_image(const struct allow *a, const char *image, char **why)
{
	const struct allow_entries *e = &a->list[ALLOW_IMAGE];
	char *repo, *ent;
	bool pinned, dummy, ok = false;
	size_t i, n;

	if (!echoable(image))
		return unechoable(why, "image", ALLOW_IMAGE);
	if ((repo = image_repo(image, false, &pinned)) == NULL)
		return say(why, xstrdup("the image is not allowed: it is not "
		    "a reference such as registry.example.com/repository"
		    "@sha256:<digest>"));
	if (!pinned) {
		say(why, xasprintf("image '%s' is not allowed: it must be "
		    "pinned by digest (%s@sha256:<digest>); the tag never "
		    "decides what runs", repo, repo));
		free(repo);
		return false;
	}
	for (i = 0; i < e->n && !ok; i++) {
		if ((ent = image_repo(e->v[i], true, &dummy)) == NULL)
			continue;
		n = strlen(ent);
		if (ent[n - 1] == '/')
			ok = strncmp(repo, ent, n) == 0;
		else
			ok = strcmp(repo, ent) == 0;
		free(ent);
	}
	if (!ok)
		say(why, refusal(a, ALLOW_IMAGE, repo, "image '%s' is not "
		    "allowed", repo));
	free(repo);
	return ok;
}

/* --- service accounts and Secrets -------------------------------------- */

static bool
namespaced(const struct allow *a, enum allow_list l, const char *what,
    const char *ns, const char *name, char **why)
{
	const struct allow_entries *e = &a->list[l];
	const char *slash;
	size_t i;
	char *full;
	bool ok;

	if (!echoable(name) || strchr(name, '/') != NULL ||
	    (ns != NULL && (!echoable(ns) || strchr(ns, '/') != NULL)))
		return unechoable(why, what, l);
	for (i = 0; i < e->n; i++) {
		slash = strchr(e->v[i], '/');
		if (slash == NULL) {
			if (strcmp(e->v[i], name) == 0)
				return true;
		} else if (ns != NULL &&
		    (size_t)(slash - e->v[i]) == strlen(ns) &&
		    strncmp(e->v[i], ns, strlen(ns)) == 0 &&
		    strcmp(slash + 1, name) == 0)
			return true;
	}
	full = ns != NULL ? xasprintf("%s/%s", ns, name) : xstrdup(name);
	ok = say(why, refusal(a, l, full, "%s '%s' is not allowed", what,
	    full));
	free(full);
	return ok;
}

bool
allow_service_account(const struct allow *a, const char *ns,
    const char *name, char **why)
{
	return namespaced(a, ALLOW_SERVICE_ACCOUNT, "service account", ns,
	    name, why);
}

bool
allow_secret(const struct allow *a, const char *ns, const char *name,
    char **why)
{
	return namespaced(a, ALLOW_SECRET, "Secret", ns, name, why);
}

bool
allow_cfk(const struct allow *a, enum allow_list l, const char *ns,
    const char *name, char **why)
{
	return namespaced(a, l, l == ALLOW_CFK_ENVIRONMENT ?
	    "FlinkEnvironment" : l == ALLOW_CFK_REST_CLASS ? "CMFRestClass" :
	    "FlinkComputePool", ns, name, why);
}

/* --- hosts ------------------------------------------------------------- */

enum ipclass {
	IP_NAME,	/* not an address */
	IP_PUBLIC,	/* everything not below, reserved ranges included */
	IP_PRIVATE,	/* 10/8, 172.16/12, 192.168/16, fc00::/7 */
	IP_LOOPBACK,	/* 127/8, ::1 */
	IP_LINK_LOCAL	/* 169.254/16, fe80::/10 */
};

static enum ipclass
v4class(const unsigned char *b)
{
	if (b[0] == 127)
		return IP_LOOPBACK;
	if (b[0] == 169 && b[1] == 254)
		return IP_LINK_LOCAL;
	if (b[0] == 10 || (b[0] == 172 && (b[1] & 0xf0) == 16) ||
	    (b[0] == 192 && b[1] == 168))
		return IP_PRIVATE;
	return IP_PUBLIC;
}

/* Of a host allow_host_normalize() wrote. */
static enum ipclass
ipclass(const char *h)
{
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b };
	static const unsigned char zero[16];
	unsigned char b[16];

	if (inet_pton(AF_INET, h, b) == 1)
		return v4class(b);
	if (inet_pton(AF_INET6, h, b) != 1)
		return IP_NAME;
	if (memcmp(b, zero, 15) == 0 && b[15] == 1)
		return IP_LOOPBACK;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return IP_LINK_LOCAL;
	if ((b[0] & 0xfe) == 0xfc)
		return IP_PRIVATE;
	/*
	 * An address that carries an IPv4 one (IPv4-compatible, NAT64) is
	 * public, but never a way round the link-local rule.
	 */
	if ((memcmp(b, zero, 12) == 0 || memcmp(b, nat64, 12) == 0) &&
	    v4class(b + 12) == IP_LINK_LOCAL)
		return IP_LINK_LOCAL;
	return IP_PUBLIC;
}

static bool
hostname_ok(const char *h)
{
	const char *p, *label = h;

	if (strlen(h) > 253)
		return false;
	for (p = h;; p++) {
		if (*p == '.' || *p == '\0') {
			if (p == label || p - label > 63)
				return false;
			if (*p == '\0')
				return true;
			label = p + 1;
		} else if (!islower((unsigned char)*p) &&
		    !isdigit((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
	}
}

char *
allow_host_normalize(const char *s, const char **why)
{
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };
	unsigned char b[16];
	char buf[INET6_ADDRSTRLEN], *url, *h, *p;
	size_t n;

	for (n = 0; s[n] != '\0'; n++)
		if ((unsigned char)s[n] <= 0x20 || s[n] == 0x7f) {
			*why = "must not contain spaces or control characters";
			return NULL;
		}
	if (n == 0) {
		*why = "is empty";
		return NULL;
	}
	if (strstr(s, "://") != NULL)
		url = xstrdup(s);
	else if (strpbrk(s, "/?#@\\%") != NULL) {
		*why = "is neither a URL nor a host[:port]";
		return NULL;
	} else if (inet_pton(AF_INET6, s, b) == 1)
		url = xasprintf("http://[%s]/", s);
	else
		url = xasprintf("http://%s/", s);
	h = url_host_ascii(url, why);
	free(url);
	if (h == NULL)
		return NULL;
	for (p = h; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	n = strlen(h);
	if (n > 1 && h[n - 1] == '.' && strchr(h, ':') == NULL) {
		/*
		 * Once the dot is gone the rest may read as an address
		 * ("0." is 0.0.0.0): parse it again, so that the result is
		 * what normalising it again gives.
		 */
		h[--n] = '\0';
		url = xasprintf("http://%s/", h);
		free(h);
		h = url_host_ascii(url, why);
		free(url);
		if (h == NULL)
			return NULL;
		for (p = h; *p != '\0'; p++)
			*p = (char)tolower((unsigned char)*p);
	}
	if (strchr(h, ':') != NULL) {
		if (inet_pton(AF_INET6, h, b) != 1) {
			free(h);
			*why = "is not a valid IPv6 address";
			return NULL;
		}
		if (memcmp(b, mapped, 12) == 0)
			inet_ntop(AF_INET, b + 12, buf, sizeof(buf));
		else
			inet_ntop(AF_INET6, b, buf, sizeof(buf));
		free(h);
		return xstrdup(buf);
	}
	if (inet_pton(AF_INET, h, b) == 1) {
		inet_ntop(AF_INET, b, buf, sizeof(buf));
		free(h);
		return xstrdup(buf);
	}
	if (!hostname_ok(h)) {
		free(h);
		*why = "is not a valid host name";
		return NULL;
	}
	return h;
}

/* Whether entry (normalised) names host: equal, or a parent domain. */
static bool
host_covers(const char *entry, const char *host, bool names)
{
	size_t he = strlen(entry), hh = strlen(host);

	if (strcmp(entry, host) == 0)
		return true;
	return names && ipclass(entry) == IP_NAME && hh > he &&
	    host[hh - he - 1] == '.' && strcmp(host + hh - he, entry) == 0;
}

/*
 * The refusal msg (new, freed), told that an entry of list l names a host
 * the way url.h refuses (URL_IPV4_WHY): such an entry admits nothing,
 * and the operator should know why.
 */
static char *
with_unread_entry(const struct allow *a, enum allow_list l, char *msg)
{
	const struct allow_entries *e = &a->list[l];
	const char *w = NULL, *at;
	char *h, *out;
	size_t i;

	for (i = 0; i < e->n; i++) {
		at = l == ALLOW_SECRET_REF ? strchr(e->v[i], '@') : NULL;
		if (l == ALLOW_SECRET_REF && at == NULL)
			continue;
		h = allow_host_normalize(at ? at + 1 : e->v[i], &w);
		free(h);
		if (h == NULL && w != NULL && strcmp(w, URL_IPV4_WHY) == 0)
			break;
	}
	if (i == e->n)
		return msg;
	out = xasprintf("%s (entry %zu of %s admits nothing: it %s)", msg,
	    i + 1, variables[l], URL_IPV4_WHY);
	free(msg);
	return out;
}

static bool
host_listed(const struct allow_entries *e, const char *host)
{
	const char *w;
	char *ent;
	bool ok = false, name = ipclass(host) == IP_NAME;
	size_t i;

	for (i = 0; i < e->n && !ok; i++) {
		if ((ent = allow_host_normalize(e->v[i], &w)) == NULL)
			continue;
		ok = host_covers(ent, host, name);
		free(ent);
	}
	return ok;
}

bool
allow_host(const struct allow *a, const char *s, char **why)
{
	const char *w;
	char *h;
	bool ok;

	if ((h = allow_host_normalize(s, &w)) == NULL)
		return say(why, xasprintf("a host the job contacts is not "
		    "allowed: the URL or host %s", w));
	switch (ipclass(h)) {
	case IP_LINK_LOCAL:
		ok = say(why, xasprintf("host '%s' is not allowed: a "
		    "link-local address (169.254.0.0/16, fe80::/10) is always "
		    "refused", h));
		break;
	case IP_LOOPBACK:
	case IP_PRIVATE:
		ok = true;
		break;
	default:
		ok = host_listed(&a->list[ALLOW_HOST], h);
		if (!ok)
			say(why, with_unread_entry(a, ALLOW_HOST, refusal(a,
			    ALLOW_HOST, h, "host '%s' is not allowed", h)));
	}
	free(h);
	return ok;
}

/* --- catalog credentials ----------------------------------------------- */

static bool
env_name(const char *s)
{
	const char *p;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (p = s; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

static bool
loopback(const char *h)
{
	return strcmp(h, "localhost") == 0 || ipclass(h) == IP_LOOPBACK;
}

/*
 * The pairing of a variable with a host, for a credential of what
 * ("catalog": catalogAuth; "Kafka": source.security) the contract
 * names in where.
 */
static bool
secret_ref(const struct allow *a, enum allow_cmd cmd, const char *what,
    const char *where, const char *name, const char *s, char **why)
{
	const struct allow_entries *e = &a->list[ALLOW_SECRET_REF];
	const char *w, *at;
	char *h, *eh, *ent;
	bool ok = false;
	size_t i;

	if (name == NULL || !env_name(name))
		return say(why, xasprintf("the %s credential is not "
		    "allowed: %s does not name an environment "
		    "variable", what, where));
	if ((h = allow_host_normalize(s, &w)) == NULL)
		return say(why, xasprintf("%s credential '%s' is not "
		    "allowed: the URL or host it is sent to %s", what, name,
		    w));
	/* verify sends from the operator's own machine. */
	if (cmd == ALLOW_CMD_VERIFY && loopback(h)) {
		free(h);
		return true;
	}
	for (i = 0; i < e->n && !ok; i++) {
		at = strchr(e->v[i], '@');
		if (at == NULL) {
			ok = strcmp(e->v[i], name) == 0;
			continue;
		}
		if ((size_t)(at - e->v[i]) != strlen(name) ||
		    strncmp(e->v[i], name, strlen(name)) != 0)
			continue;
		if ((eh = allow_host_normalize(at + 1, &w)) == NULL)
			continue;
		ok = strcmp(eh, h) == 0;
		free(eh);
	}
	if (!ok) {
		ent = xasprintf("%s@%s", name, h);
		say(why, with_unread_entry(a, ALLOW_SECRET_REF, refusal(a,
		    ALLOW_SECRET_REF, ent, "%s credential '%s' may not be "
		    "sent to '%s'", what, name, h)));
		free(ent);
	}
	free(h);
	return ok;
}

bool
allow_secret_ref(const struct allow *a, enum allow_cmd cmd,
    const char *name, const char *s, char **why)
{
	return secret_ref(a, cmd, "catalog", "catalogAuth", name, s, why);
}

bool
allow_source_secret_ref(const struct allow *a, const char *name,
    const char *broker, char **why)
{
	/* Only apply checks it, and the pod is where loopback is. */
	return secret_ref(a, ALLOW_CMD_APPLY, "Kafka", "source.security",
	    name, broker, why);
}

/* --- a build's own SQL ------------------------------------------------- */

bool
allow_contract_sql(const struct allow *a, const char *product,
    const char *build, const char *sql, char **why)
{
	const struct allow_entries *e = &a->list[ALLOW_CONTRACT_SQL];
	char digest[DIGEST_STRLEN], *pb, *pin;
	const char *at;
	size_t i, n;
	bool ok = false;

	if (!echoable(product) || !echoable(build) ||
	    strpbrk(product, "/@") != NULL || strchr(build, '@') != NULL)
		return unechoable(why, "product or build name",
		    ALLOW_CONTRACT_SQL);
	digest_bytes(sql != NULL ? sql : "", sql != NULL ? strlen(sql) : 0,
	    digest);
	pb = xasprintf("%s/%s", product, build);
	n = strlen(pb);
	for (i = 0; i < e->n && !ok; i++) {
		at = strchr(e->v[i], '@');
		if (at == NULL)
			ok = strcmp(e->v[i], product) == 0 ||
			    strcmp(e->v[i], pb) == 0;
		else
			ok = (size_t)(at - e->v[i]) == n &&
			    strncmp(e->v[i], pb, n) == 0 &&
			    strcasecmp(at + 1, digest) == 0;
	}
	if (!ok) {
		pin = xasprintf("%s@%s", pb, digest);
		say(why, refusal(a, ALLOW_CONTRACT_SQL, pin, "the SQL of build "
		    "'%s' of product '%s' is not allowed", build, product));
		free(pin);
	}
	free(pb);
	return ok;
}

/* --- which command checks what ----------------------------------------- */

void
allow_refusals_init(struct allow_refusals *r)
{
	memset(r, 0, sizeof(*r));
}

void
allow_refusals_release(struct allow_refusals *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].msg);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static void
add(struct allow_refusals *r, const struct allow_target *t, char *msg)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	r->v[r->n].where = t->where;
	r->v[r->n++].msg = msg;
}

/* A deployment target Kubernetes would fill in when it is not named. */
static bool
named(struct allow_refusals *r, const struct allow_target *t,
    const char *what)
{
	if (t->value != NULL)
		return true;
	add(r, t, xasprintf("the %s is not known: fluid checks what "
	    "Kubernetes will use and does not guess it", what));
	return false;
}

static void
host(const struct allow *a, enum allow_cmd cmd, const struct allow_target *t,
    struct allow_refusals *r)
{
	const char *w;
	char *why = NULL, *h;

	if (t->value == NULL)
		return;
	/* verify contacts a loopback host from the operator's machine. */
	if (cmd == ALLOW_CMD_VERIFY &&
	    (h = allow_host_normalize(t->value, &w)) != NULL) {
		bool lo = loopback(h);

		free(h);
		if (lo)
			return;
	}
	if (!allow_host(a, t->value, &why))
		add(r, t, why);
}

static void
brokers(const struct allow *a, const struct allow_target *t,
    struct allow_refusals *r)
{
	struct allow_entries list;
	char *why = NULL;
	size_t i;

	if (t->value == NULL)
		return;
	split(&list, t->value);
	for (i = 0; i < list.n; i++) {
		if (!allow_host(a, list.v[i], &why))
			add(r, t, why);
		free(list.v[i]);
	}
	free(list.v);
}

/* Every Kafka variable with every broker, which all receive it. */
static void
source_pairing(const struct allow *a, const struct allow_targets *t,
    struct allow_refusals *r)
{
	struct allow_entries list;
	char *why = NULL;
	size_t i, j;

	if (t->bootstrap_servers.value == NULL || t->nsource_secrets == 0)
		return;
	split(&list, t->bootstrap_servers.value);
	for (i = 0; i < t->nsource_secrets; i++)
		for (j = 0; j < list.n; j++)
			if (!allow_source_secret_ref(a,
			    t->source_secrets[i].value, list.v[j], &why))
				add(r, &t->source_secrets[i], why);
	for (j = 0; j < list.n; j++)
		free(list.v[j]);
	free(list.v);
}

static void
https_only(const struct allow_target *t, struct allow_refusals *r)
{
	struct url u;
	const char *w;

	if (t->value == NULL)
		return;
	if (url_parse(t->value, &u, &w) == -1) {
		add(r, t, xasprintf("the OAuth2 token endpoint %s", w));
		return;
	}
	if (strcmp(u.scheme, "https") != 0)
		add(r, t, xstrdup("the OAuth2 token endpoint must be an "
		    "https:// URL: it receives the client credential"));
	url_release(&u);
}

static void
pairing(const struct allow *a, enum allow_cmd cmd,
    const struct allow_targets *t, const struct allow_target *to,
    struct allow_refusals *r)
{
	char *why = NULL;

	if (t->catalog_auth.value == NULL || to->value == NULL)
		return;
	if (!allow_secret_ref(a, cmd, t->catalog_auth.value, to->value, &why))
		add(r, to, why);
}

size_t
allow_check(const struct allow *a, enum allow_cmd cmd,
    const struct allow_targets *t, struct allow_refusals *r)
{
	size_t before = r->n, i;
	char *why = NULL;

#define CHECK(call, target) do {					\
	if (!(call))							\
		add(r, (target), why);					\
} while (0)
	if (cmd != ALLOW_CMD_GATEWAY) {
		if (named(r, &t->context, "kube context"))
			CHECK(allow_kube_context(a, t->context.value, &why),
			    &t->context);
		if (named(r, &t->ns, "namespace"))
			CHECK(allow_namespace(a, t->ns.value, &why), &t->ns);
		if (named(r, &t->image, "image"))
			CHECK(allow_image(a, t->image.value, &why), &t->image);
		if (named(r, &t->service_account, "service account"))
			CHECK(allow_service_account(a, t->ns.value,
			    t->service_account.value, &why),
			    &t->service_account);
		for (i = 0; i < t->nsecrets; i++)
			if (t->secrets[i].value != NULL)
				CHECK(allow_secret(a, t->ns.value,
				    t->secrets[i].value, &why),
				    &t->secrets[i]);
	}
	if (cmd == ALLOW_CMD_DIFF)
		return r->n - before;

	/* apply and verify: where the credential goes. */
	host(a, cmd, &t->catalog, r);
	host(a, cmd, &t->token_endpoint, r);
	https_only(&t->token_endpoint, r);
	pairing(a, cmd, t, &t->token_endpoint, r);
	pairing(a, cmd, t, &t->catalog, r);
	if (cmd == ALLOW_CMD_VERIFY)
		return r->n - before;

	/* apply: everything else the job contacts, and its own SQL. */
	for (i = 0; i < t->nendpoints; i++)
		host(a, cmd, &t->endpoints[i], r);
	brokers(a, &t->bootstrap_servers, r);
	source_pairing(a, t, r);
	host(a, cmd, &t->schema_registry, r);
	if (t->sql.value != NULL)
		CHECK(allow_contract_sql(a, t->product ? t->product : "",
		    t->build ? t->build : "", t->sql.value, &why), &t->sql);
#undef CHECK
	return r->n - before;
}
