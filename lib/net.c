/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * net.c - bounded JSON requests through libcurl (see net.h).
 *
 * One easy handle per attempt: nothing (a connection, a cookie, a
 * header) survives from one request to the next, so a credential is
 * sent exactly where the caller said, once per attempt.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>

#include "net.h"
#include "clock.h"
#include "url.h"
#include "xalloc.h"

#define NET_MAX_SECRETS	3
/* Bytes of a server's reason kept in a message, after redaction. */
#define NET_MAX_REASON	200

struct req {
	const struct net_opts	*o;
	const char		*url;
	const char		*bearer;	/* NULL: no Authorization */
	const char		*body;		/* NULL: GET */
	const char		*ctype;		/* of body */
	const char		*secrets[NET_MAX_SECRETS]; /* to scrub */
	const char		*method;	/* NULL: GET, or POST with body */
	bool			 keep_error;	/* *out: a 4xx/5xx's JSON */
};

struct body {
	struct sb	sb;
	size_t		max;
	bool		too_big;
};

static long
opt_or(long v, long dflt)
{
	return v > 0 ? v : dflt;
}

int
net_init(void)
{
	return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

void
net_cleanup(void)
{
	curl_global_cleanup();
}

char *
net_display_url(const char *url)
{
	struct url u;
	const char *why;
	char *s;

	if (url_parse(url, &u, &why) == -1)
		return xstrdup("(a malformed URL)");
	if (u.port != 0)
		s = xasprintf("%s://%s%s%s%s:%d%s", u.scheme,
		    strchr(u.host, ':') ? "[" : "", u.host,
		    strchr(u.host, ':') ? "]" : "", "", u.port, u.path);
	else
		s = xasprintf("%s://%s%s%s%s", u.scheme,
		    strchr(u.host, ':') ? "[" : "", u.host,
		    strchr(u.host, ':') ? "]" : "", u.path);
	url_release(&u);
	return s;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* c as a message shows it: a control character is a blank. */
static char
shown(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f ? ' ' : c;
}

/*
 * How many bytes of p spell secret, each of its bytes as itself, as a
 * %XX escape (either case) or, for a blank, '+': so the secret is found
 * however a server echoes a form it was sent.  Bytes are compared as
 * the message shows them (shown()), so that no control character made
 * a blank completes a secret after the search.  0 when p does not.
 */
static size_t
spells(const char *p, const char *secret)
{
	const char *q = p;
	int hi, lo;

	/* Most bytes start no secret: say so at once. */
	if (*p != '%' && *p != '+' && shown(*p) != shown(*secret))
		return 0;
	for (; *secret != '\0'; secret++) {
		/* An escape first: "%25" is a '%' of the secret. */
		if (*q == '%' && (hi = hexval(q[1])) >= 0 &&
		    (lo = hexval(q[2])) >= 0 &&
		    shown((char)(hi * 16 + lo)) == shown(*secret))
			q += 3;
		else if (*q != '\0' && shown(*q) == shown(*secret))
			q++;
		else if (*q == '+' && shown(*secret) == ' ')
			q++;
		else
			return 0;
	}
	return (size_t)(q - p);
}

/* A form key whose value is a secret whatever it is. */
static size_t
secret_key(const char *p)
{
	static const char *const keys[] = { "client_secret=",
	    "client_secret%3D", "client_secret%3d", NULL };
	size_t i, n;

	if (*p != 'c')
		return 0;
	for (i = 0; keys[i] != NULL; i++) {
		n = strlen(keys[i]);
		if (strncmp(p, keys[i], n) == 0)
			return n;
	}
	return 0;
}

char *
net_redact(const char *s, const char *const *secrets, size_t nsecrets)
{
	static const char mark[] = "[redacted]";
	struct sb out;
	size_t k, n;
	const char *p;

	sb_init(&out);
	for (p = s; *p != '\0';) {
		for (k = 0, n = 0; k < nsecrets && n == 0; k++)
			if (secrets[k] != NULL && *secrets[k] != '\0')
				n = spells(p, secrets[k]);
		if (n > 0) {
			sb_adds(&out, mark);
			p += n;
			continue;
		}
		if ((n = secret_key(p)) > 0) {
			sb_addn(&out, p, n);
			p += n;
			n = strcspn(p, "&\"', ;}\t\r\n");
			if (n > 0)
				sb_adds(&out, mark);
			p += n;
			continue;
		}
		sb_addc(&out, shown(*p));
		p++;
	}
	return out.buf != NULL ? sb_steal(&out) : xstrdup("");
}

/*
 * The message of e: formatted whole, every credential redacted
 * (net_redact()), and only then cut to the size of e->msg, so that no
 * cut leaves the first characters of a credential behind.
 */
static void __attribute__((format(printf, 4, 5)))
fail(struct net_err *e, const struct req *r, enum net_failure f,
    const char *fmt, ...)
{
	va_list ap;
	char *where = net_display_url(r->url), *msg, *full, *clean;

	e->failure = f;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	full = xasprintf("'%s': %s", where, msg);
	clean = net_redact(full, r->secrets, NET_MAX_SECRETS);
	snprintf(e->msg, sizeof(e->msg), "%s", clean);
	explicit_bzero(msg, strlen(msg));
	explicit_bzero(full, strlen(full));
	free(where);
	free(msg);
	free(full);
	free(clean);
}

/* libcurl's progress callback: non-zero stops the transfer. */
static int
on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	const volatile sig_atomic_t *stop = arg;

	(void)dt, (void)dn, (void)ut, (void)un;
	return *stop != 0;
}

static size_t
on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	struct body *b = arg;
	size_t n = size * nmemb;

	if (b->sb.len + n > b->max) {
		b->too_big = true;
		return 0;	/* CURLE_WRITE_ERROR: stop reading */
	}
	sb_addn(&b->sb, p, n);
	return n;
}

/* A credential goes over https://, or to this machine. */
static bool
may_send_secret(const char *url, const char **why)
{
	struct url u;
	bool ok;

	if (url_parse(url, &u, why) == -1)
		return false;
	ok = strcmp(u.scheme, "https") == 0 || url_host_is_loopback(u.host);
	if (!ok)
		*why = "a credential is sent over https:// only (or to a "
		    "loopback host); not sent";
	url_release(&u);
	return ok;
}

static bool
is_loopback_url(const char *url)
{
	struct url u;
	const char *why;
	bool lo;

	if (url_parse(url, &u, &why) == -1)
		return false;
	lo = url_host_is_loopback(u.host);
	url_release(&u);
	return lo;
}

/* One attempt; CURLE_OK with *status set, or the libcurl code. */
static CURLcode
attempt(const struct req *r, long timeout_ms, struct body *b, long *status,
    char *errbuf)
{
	const struct net_opts *o = r->o;
	struct curl_slist *h = NULL, *t;
	CURL *c;
	CURLcode cc;
	char *auth = NULL;

	if ((c = curl_easy_init()) == NULL)
		return CURLE_OUT_OF_MEMORY;
	errbuf[0] = '\0';
	h = curl_slist_append(h, "Accept: application/json");
	if (r->body != NULL && h != NULL) {
		auth = xasprintf("Content-Type: %s", r->ctype);
		if ((t = curl_slist_append(h, auth)) != NULL)
			h = t;
		free(auth);
		auth = NULL;
	}
	if (r->bearer != NULL && h != NULL) {
		auth = xasprintf("Authorization: Bearer %s", r->bearer);
		if ((t = curl_slist_append(h, auth)) != NULL)
			h = t;
		explicit_bzero(auth, strlen(auth));
		free(auth);
	}
	curl_easy_setopt(c, CURLOPT_URL, r->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 0L);
	/* Never off; stated so that no default can change it. */
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (o->ca_bundle != NULL && *o->ca_bundle != '\0')
		curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_bundle);
	/* This machine is never reached through a proxy. */
	if (is_loopback_url(r->url))
		curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
	    opt_or(o->connect_ms, 5000) < timeout_ms ?
	    opt_or(o->connect_ms, 5000) : timeout_ms);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)b->max);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "fluid");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	if (r->body != NULL) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, r->body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE,
		    (long)strlen(r->body));
	}
	if (r->method != NULL)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, r->method);
	if (o->stop != NULL) {
		curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
		curl_easy_setopt(c, CURLOPT_XFERINFODATA, (void *)o->stop);
		curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	}
	cc = curl_easy_perform(c);
	*status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_easy_cleanup(c);
	/* The header list holds the token: clear it before it is freed. */
	for (t = h; t != NULL; t = t->next)
		explicit_bzero(t->data, strlen(t->data));
	curl_slist_free_all(h);
	return cc;
}

static const char *
status_text(long st)
{
	switch (st) {
	case 400: return "400 Bad Request";
	case 401: return "401 Unauthorized: the credential was refused, "
	    "or none was sent";
	case 403: return "403 Forbidden: the credential may not read this";
	case 404: return "404 Not Found";
	case 409: return "409 Conflict";
	case 419: return "419 Authentication Timeout: the credential expired";
	case 500: return "500 Internal Server Error: the server failed";
	case 502: return "502 Bad Gateway";
	case 503: return "503 Service Unavailable";
	case 504: return "504 Gateway Timeout";
	default: return NULL;
	}
}

/*
 * The server's own reason, when the body says one: Iceberg's
 * {"error": {"message": ...}}, OAuth2's {"error_description": ...},
 * Flink's {"errors": [...]}.  Borrowed from v, or NULL.
 */
static const char *
server_reason(json_t *v)
{
	json_t *x;

	if ((x = json_object_get(json_object_get(v, "error"), "message")))
		return json_string_value(x);
	if ((x = json_object_get(v, "error_description")))
		return json_string_value(x);
	if ((x = json_array_get(json_object_get(v, "errors"), 0)))
		return json_string_value(x);
	return json_string_value(json_object_get(v, "error"));
}

/*
 * What a complete answer means: 0 with *out the JSON of a 2xx, or -1
 * with e filled (and *out the JSON of an error answer when the request
 * keeps it).  The server's reason is redacted before it is cut.
 */
static int
judge(const struct req *r, long st, const char *body, size_t len,
    json_t **out, struct net_err *e)
{
	const char *reason;
	json_error_t jerr;
	char *rs = NULL;
	json_t *v;

	*out = NULL;
	v = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (st < 200 || st > 299) {
		if ((reason = server_reason(v)) != NULL) {
			rs = net_redact(reason, r->secrets, NET_MAX_SECRETS);
			if (strlen(rs) > NET_MAX_REASON)
				memcpy(rs + NET_MAX_REASON - 3, "...", 4);
		}
		if (status_text(st) != NULL)
			fail(e, r, NET_HTTP, "%s%s%s", status_text(st),
			    rs ? ": " : "", rs ? rs : "");
		else
			fail(e, r, NET_HTTP, "HTTP status %ld%s%s", st,
			    rs ? ": " : "", rs ? rs : "");
		free(rs);
		if (r->keep_error)
			*out = v;
		else
			json_decref(v);
		return -1;
	}
	if (v == NULL) {
		fail(e, r, NET_BAD_BODY, "the answer is not JSON (%d:%d: %s)",
		    jerr.line, jerr.column, jerr.text);
		return -1;
	}
	*out = v;
	return 0;
}

int
net_answer(const char *url, long status, const char *body, size_t len,
    const char *const *secrets, bool keep_error, json_t **out,
    struct net_err *e)
{
	struct req r;
	size_t i;

	memset(&r, 0, sizeof(r));
	memset(e, 0, sizeof(*e));
	r.url = url;
	r.keep_error = keep_error;
	for (i = 0; secrets != NULL && secrets[i] != NULL &&
	    i < NET_MAX_SECRETS; i++)
		r.secrets[i] = secrets[i];
	e->status = status;
	return judge(&r, status, body, len, out, e);
}

static int
request(const struct req *r, json_t **out, struct net_err *e)
{
	const struct net_opts *o = r->o;
	long deadline = clk_mono_ms() + opt_or(o->deadline_ms, 60000);
	long backoff = opt_or(o->backoff_ms, 250), left, st;
	int max = (int)opt_or(o->attempts, 3);
	char errbuf[CURL_ERROR_SIZE];
	struct body b;
	const char *why;
	struct url u;
	CURLcode cc;

	memset(e, 0, sizeof(*e));
	*out = NULL;
	if ((r->bearer != NULL || r->secrets[0] != NULL) &&
	    !may_send_secret(r->url, &why)) {
		fail(e, r, NET_REFUSED, "%s", why);
		return -1;
	}
	if (url_parse(r->url, &u, &why) == -1) {
		fail(e, r, NET_REFUSED, "%s", why);
		return -1;
	}
	url_release(&u);
	for (;;) {
		if (o->stop != NULL && *o->stop) {
			fail(e, r, NET_CANCELED, "stopped by a signal");
			return -1;
		}
		left = deadline - clk_mono_ms();
		if (left <= 0)
			left = 1;
		sb_init(&b.sb);
		b.max = o->max_body > 0 ? o->max_body : 16u << 20;
		b.too_big = false;
		e->attempts++;
		cc = attempt(r, left < opt_or(o->total_ms, 30000) ? left :
		    opt_or(o->total_ms, 30000), &b, &st, errbuf);
		/* Transient: no connection, or a gateway that had none. */
		if ((cc == CURLE_COULDNT_CONNECT || (cc == CURLE_OK &&
		    (st == 502 || st == 503 || st == 504))) &&
		    e->attempts < max && clk_mono_ms() + backoff < deadline &&
		    (o->stop == NULL || !*o->stop)) {
			sb_release(&b.sb);
			clk_sleep_ms(backoff);
			backoff *= 2;
			continue;
		}
		break;
	}
	e->status = st;
	if (b.too_big || cc == CURLE_FILESIZE_EXCEEDED) {
		fail(e, r, NET_TOO_BIG, "the response is larger than %zu "
		    "bytes; not read", b.max);
		goto bad;
	}
	switch (cc) {
	case CURLE_OK:
		break;
	case CURLE_ABORTED_BY_CALLBACK:
		fail(e, r, NET_CANCELED, "stopped by a signal");
		goto bad;
	case CURLE_OPERATION_TIMEDOUT:
		fail(e, r, NET_TIMEOUT, "no complete answer within %ld ms "
		    "(%d attempt%s)", opt_or(o->total_ms, 30000), e->attempts,
		    e->attempts == 1 ? "" : "s");
		goto bad;
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		fail(e, r, NET_CONNECT, "cannot connect: %s (%d attempt%s)",
		    *errbuf ? errbuf : curl_easy_strerror(cc), e->attempts,
		    e->attempts == 1 ? "" : "s");
		goto bad;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_ISSUER_ERROR:
		fail(e, r, NET_TLS, "TLS: %s (the certificate is checked; "
		    "FLUID_CA_BUNDLE names another CA)",
		    *errbuf ? errbuf : curl_easy_strerror(cc));
		goto bad;
	default:
		fail(e, r, NET_OTHER, "%s", *errbuf ? errbuf :
		    curl_easy_strerror(cc));
		goto bad;
	}
	if (judge(r, st, b.sb.buf ? b.sb.buf : "", b.sb.len, out, e) == -1)
		goto bad;
	sb_release(&b.sb);
	return 0;
bad:
	if (b.sb.buf != NULL)
		explicit_bzero(b.sb.buf, b.sb.len);
	sb_release(&b.sb);
	return -1;
}

int
net_get_json(const struct net_opts *o, const char *url, const char *bearer,
    json_t **out, struct net_err *e)
{
	struct req r = { o, url, bearer, NULL, NULL, { bearer }, NULL,
	    false };

	return request(&r, out, e);
}

int
net_post_json(const struct net_opts *o, const char *url, const char *bearer,
    const char *body, json_t **out, struct net_err *e)
{
	struct req r = { o, url, bearer, body, "application/json",
	    { bearer }, NULL, false };

	return request(&r, out, e);
}

int
net_request_json(const struct net_opts *o, const char *method,
    const char *url, const char *body, json_t **out, struct net_err *e)
{
	struct req r;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.url = url;
	r.body = body;
	r.ctype = "application/json";
	r.method = method;
	r.keep_error = true;
	return request(&r, out, e);
}

/* s form-encoded (application/x-www-form-urlencoded) onto sb. */
static void
form_add(struct sb *sb, const char *key, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;
	unsigned char ch;

	if (sb->len > 0)
		sb_addc(sb, '&');
	sb_adds(sb, key);
	sb_addc(sb, '=');
	for (i = 0; i < n; i++) {
		ch = (unsigned char)s[i];
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' ||
		    ch == '_' || ch == '~')
			sb_addc(sb, (char)ch);
		else {
			sb_addc(sb, '%');
			sb_addc(sb, hex[ch >> 4]);
			sb_addc(sb, hex[ch & 15]);
		}
	}
}

int
net_oauth2_token(const struct net_opts *o, const char *token_url,
    const char *credential, const char *scope, char **token,
    struct net_err *e)
{
	const char *colon = strchr(credential, ':'), *secret;
	struct sb form;
	struct req r;
	json_t *v = NULL, *t;
	char *id = NULL;
	int rc;

	*token = NULL;
	sb_init(&form);
	sb_adds(&form, "grant_type=client_credentials");
	if (colon != NULL) {
		id = xstrndup(credential, (size_t)(colon - credential));
		form_add(&form, "client_id", credential,
		    (size_t)(colon - credential));
		secret = colon + 1;
	} else
		secret = credential;
	form_add(&form, "client_secret", secret, strlen(secret));
	scope = scope != NULL ? scope : "catalog";
	form_add(&form, "scope", scope, strlen(scope));
	memset(&r, 0, sizeof(r));
	r.o = o;
	r.url = token_url;
	r.body = form.buf;
	r.ctype = "application/x-www-form-urlencoded";
	/* The whole credential, its secret, and the form (encoded). */
	r.secrets[0] = credential;
	r.secrets[1] = secret;
	r.secrets[2] = form.buf;
	rc = request(&r, &v, e);
	explicit_bzero(form.buf, form.len);
	sb_release(&form);
	free(id);
	if (rc == -1)
		return -1;
	t = json_object_get(v, "access_token");
	if (!json_is_string(t) || json_string_length(t) == 0) {
		r.secrets[2] = NULL;
		fail(e, &r, NET_BAD_BODY, "the token endpoint answered "
		    "without an access_token");
		json_decref(v);
		return -1;
	}
	*token = xstrdup(json_string_value(t));
	json_decref(v);
	return 0;
}
