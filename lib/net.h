/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * net.h - the one HTTP client of fluid (libcurl): JSON over HTTP(S) for
 * the Iceberg REST catalog (verify) and the Flink SQL Gateway (gw.h).
 *
 * Every request is bounded: a connect timeout, a total timeout per
 * attempt, a response size bound, and a number of attempts with a
 * deadline over all of them.  Only transient failures are tried again
 * (a connection that could not be made, 502, 503, 504), after a backoff
 * that doubles; a timeout, a 4xx or any other 5xx is reported at once.
 * Redirects are not followed: an Authorization header must never reach
 * a host the caller did not choose.
 *
 * Credentials: a request that carries one (a bearer token, or the
 * client secret of an OAuth2 exchange) needs https://, except to a
 * loopback host (url_host_is_loopback()).  TLS verification is never
 * turned off; the CA bundle can be replaced (struct net_opts.ca_bundle,
 * which the tools take from FLUID_CA_BUNDLE).
 *
 * Nothing here prints or exits.  A failure fills struct net_err with one
 * line that names the endpoint without its query or user part and says
 * what happened ("401 Unauthorized: the credential was refused"); it
 * never holds a token, a secret or a header: libcurl's verbose output is
 * never turned on, and a server's error text is copied only after every
 * occurrence of the credential in it is replaced.
 */
#ifndef FLUID_NET_H
#define FLUID_NET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

struct net_opts {
	long		 connect_ms;	/* per attempt; 0: 5000 */
	long		 total_ms;	/* per attempt; 0: 30000 */
	long		 deadline_ms;	/* over all attempts; 0: 60000 */
	size_t		 max_body;	/* bytes; 0: 16 MiB */
	int		 attempts;	/* 0: 3 */
	long		 backoff_ms;	/* before the 2nd attempt; 0: 250 */
	const char	*ca_bundle;	/* a PEM file, or NULL: libcurl's */
	/*
	 * When not NULL, a request stops (NET_CANCELED) soon after *stop
	 * becomes non-zero: a signal handler sets it, so that a tool can
	 * close what it opened instead of waiting out a timeout.
	 */
	const volatile sig_atomic_t *stop;
};

enum net_failure {
	NET_OK,
	NET_REFUSED,	/* not sent: a credential over http, a bad URL */
	NET_CONNECT,	/* no connection (after the retries) */
	NET_TLS,	/* the certificate or the handshake failed */
	NET_TIMEOUT,
	NET_TOO_BIG,	/* the response exceeded max_body */
	NET_HTTP,	/* a status other than 2xx; see status */
	NET_BAD_BODY,	/* not the JSON that was expected */
	NET_CANCELED,	/* *stop was set (struct net_opts) */
	NET_OTHER
};

struct net_err {
	enum net_failure failure;
	long		 status;	/* the HTTP status, 0 when none */
	int		 attempts;	/* how many were made */
	char		 msg[512];	/* one line, no credential */
};

/*
 * Once per process, before any other call (libcurl's global init);
 * returns 0 or -1.  net_cleanup() at the end.  Call it before anything
 * else starts OpenSSL: digest.c starts it without the digest table
 * that certificate checks need ("CA signature digest algorithm too
 * weak"), and OpenSSL starts only once.
 */
int	net_init(void);
void	net_cleanup(void);

/*
 * GET url and parse the body as JSON.  bearer, when not NULL, is sent as
 * "Authorization: Bearer ..." (https:// or a loopback host only).
 * Returns 0 with *out a new reference, or -1 with e filled.
 */
int	net_get_json(const struct net_opts *, const char *url,
	    const char *bearer, json_t **out, struct net_err *e);
/* POST body (JSON text) to url; as net_get_json() otherwise. */
int	net_post_json(const struct net_opts *, const char *url,
	    const char *bearer, const char *body, json_t **out,
	    struct net_err *e);

/*
 * method ("GET", "POST" or "DELETE") url, with body (JSON text) or
 * none (NULL), and no credential: the SQL Gateway's REST API.  As
 * net_get_json(), but on NET_HTTP *out is the server's answer when it
 * is JSON (a new reference, or NULL): a gateway's reason is longer than
 * e->msg keeps, and the caller decides what of it to show.
 */
int	net_request_json(const struct net_opts *, const char *method,
	    const char *url, const char *body, json_t **out,
	    struct net_err *e);

/*
 * OAuth2 client credentials (RFC 6749 4.4, as Iceberg's REST client
 * sends them): credential is "client_id:client_secret" (or a secret
 * alone), posted form-encoded to token_url with grant_type and scope
 * (NULL: "catalog").  Returns 0 with *token the access token (a new
 * string the caller frees, after clearing it), or -1 with e filled.
 * token_url must be https:// or a loopback host.
 */
int	net_oauth2_token(const struct net_opts *, const char *token_url,
	    const char *credential, const char *scope, char **token,
	    struct net_err *e);

/*
 * What a complete answer becomes, without a network: status and body
 * (len bytes) as a server sent them to url, for a request that carried
 * secrets (up to 3, the list ends at a NULL; NULL: none).  As the
 * requests above from there on: 0 with *out the JSON of a 2xx, or -1
 * with e filled (NET_HTTP, with *out the error's JSON when keep_error,
 * as net_request_json(); NET_BAD_BODY).  The requests use it; so do the
 * unit tests and tests/fuzz/fuzz_catalog.c.
 */
int	net_answer(const char *url, long status, const char *body, size_t len,
	    const char *const *secrets, bool keep_error, json_t **out,
	    struct net_err *e);

/*
 * s (a server's text) with every occurrence of each of the nsecrets
 * secrets (NULL ones skipped) replaced by "[redacted]", found as
 * written, %XX-escaped in either case or with '+' for a blank (a form
 * echoed back), the value of any client_secret= replaced too, and every
 * control character made a blank.  A new string.  Messages are built
 * whole, redacted, and only then cut, so no cut keeps part of a secret.
 */
char	*net_redact(const char *s, const char *const *secrets,
	    size_t nsecrets);

/*
 * url as messages show it: scheme://host[:port]/path, without user,
 * password, query or fragment.  A new string.
 */
char	*net_display_url(const char *url);

#endif
