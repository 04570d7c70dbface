/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_net.c - lib/net.c's refusals, which happen before anything is sent:
 * a credential over http:// to a host other than this machine, a token
 * endpoint over http://, a malformed URL.  No server is needed (nothing
 * may be sent); the error paths with a server are in
 * tests/bats/fluid-verify.bats, against tests/net/fake_catalog.py.
 * What an answer becomes (net_answer(): the server's reason redacted,
 * then cut) needs no server either.
 */
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "xalloc.h"
#include "tap.h"

#define TOKEN	"tok-SECRET-4711"

/* Whether any 4 consecutive characters of secret are in msg. */
static bool
leaks(const char *msg, const char *secret)
{
	char piece[5];
	size_t i, n = strlen(secret);

	for (i = 0; i + 4 <= n; i++) {
		memcpy(piece, secret + i, 4);
		piece[4] = '\0';
		if (strstr(msg, piece) != NULL)
			return true;
	}
	return false;
}

/* A 401 whose Iceberg error message is text; e filled. */
static int
answer401(const char *text, const char *const *secrets, struct net_err *e)
{
	json_t *v = json_pack("{s:{s:s}}", "error", "message", text), *out;
	char *body = json_dumps(v, JSON_COMPACT);
	int rc;

	rc = net_answer("https://catalog.example.com/v1/config", 401, body,
	    strlen(body), secrets, false, &out, e);
	free(body);
	json_decref(v);
	return rc;
}

static void
t_redaction(void)
{
	const char *const bearer[] = { TOKEN, NULL };
	/* As net_oauth2_token() sends it: credential, secret, form. */
	const char *const oauth[] = { "client:s3cr+t/=x y", "s3cr+t/=x y",
	    "grant_type=client_credentials&client_id=client&client_secret="
	    "s3cr%2Bt%2F%3Dx%20y&scope=catalog", NULL };
	struct net_err e;
	char text[600], *r;
	size_t cut;

	/* The token straddles the 200 bytes of reason that are kept. */
	for (cut = 190; cut <= 200; cut += 5) {
		memset(text, 'x', cut);
		snprintf(text + cut, sizeof(text) - cut, "%s rejected", TOKEN);
		ok(answer401(text, bearer, &e) == -1 && e.failure == NET_HTTP,
		    "a 401 is NET_HTTP");
		ok(!leaks(e.msg, TOKEN), "a token at byte %zu of the reason "
		    "leaves nothing of itself: %s", cut, e.msg + 200);
	}
	/* ... and the 512 bytes of the message. */
	memset(text, 'y', 500);
	text[500] = '\0';
	snprintf(text + 150, sizeof(text) - 150, "%s", TOKEN);
	text[150 + strlen(TOKEN)] = 'y';
	ok(answer401(text, bearer, &e) == -1 && !leaks(e.msg, TOKEN),
	    "nor one near the end of the message");
	ok(strstr(e.msg, "[redacted]") != NULL, "it is marked redacted");

	/* An OAuth2 endpoint that echoes the form back, however encoded. */
	ok(answer401("invalid_client: grant_type=client_credentials&"
	    "client_id=client&client_secret=s3cr%2Bt%2F%3Dx%20y&"
	    "scope=catalog", oauth, &e) == -1, "an echoed form");
	ok(!leaks(e.msg, "s3cr%2Bt%2F%3Dx%20y") && !leaks(e.msg, "s3cr+t"),
	    "is redacted: %s", e.msg);
	ok(answer401("bad secret 's3cr%2bt%2f%3dx+y' for client", oauth,
	    &e) == -1 && !leaks(e.msg, "s3cr%2bt") && strstr(e.msg,
	    "for client") != NULL, "in lower-case escapes with '+' for the "
	    "blank: %s", e.msg);
	ok(answer401("client_secret=anything-else-entirely&scope=x", oauth,
	    &e) == -1 && !leaks(e.msg, "anything-else"), "a client_secret= "
	    "value is redacted whatever it is: %s", e.msg);
	r = net_redact("a\x1b[31mred\nline client_secret%3Dabc", NULL, 0);
	is_str(r, "a [31mred line client_secret%3D[redacted]", "control "
	    "characters become blanks; an encoded key is found too");
	free(r);
	r = net_redact("secret s3cr+t/=x\x1fy echoed", oauth + 1, 1);
	ok(!leaks(r, "s3cr+t/=x y"), "a control character in place of a "
	    "blank does not hide the secret, then become its blank: %s", r);
	free(r);
	r = net_redact("tok-SECRET\t4711", (const char *const[]){
	    "tok-SECRET 4711" }, 1);
	is_str(r, "[redacted]", "compared as shown, both ways");
	free(r);
	r = net_redact("nothing to hide here", bearer, 1);
	is_str(r, "nothing to hide here", "other text is kept");
	free(r);
}

int
main(void)
{
	struct net_opts o = { 0 };
	struct net_err e;
	json_t *v = NULL;
	char *tok = NULL, *s;

	if (net_init() == -1)
		return 1;
	ok(net_get_json(&o, "http://catalog.example.com/v1/config", TOKEN,
	    &v, &e) == -1, "a bearer token over http:// is not sent");
	is_int(e.failure, NET_REFUSED, "refused, not attempted");
	is_int(e.attempts, 0, "no attempt was made");
	ok(strstr(e.msg, "https://") != NULL, "the message says https: %s",
	    e.msg);
	ok(strstr(e.msg, TOKEN) == NULL, "the message holds no token");
	ok(v == NULL, "no body");

	ok(net_post_json(&o, "http://10.0.0.8:8181/v1/x", TOKEN, "{}", &v,
	    &e) == -1 && e.failure == NET_REFUSED,
	    "a private address is not this machine: refused");
	ok(net_oauth2_token(&o, "http://identity.example/token",
	    "client:" TOKEN, NULL, &tok, &e) == -1 &&
	    e.failure == NET_REFUSED && tok == NULL,
	    "client credentials over http:// are not sent");
	ok(strstr(e.msg, TOKEN) == NULL && strstr(e.msg, "client") == NULL,
	    "the message holds neither the secret nor the client id: %s",
	    e.msg);
	ok(net_get_json(&o, "http://db.localhost:1/v1/config", TOKEN, &v,
	    &e) == -1 && e.failure == NET_REFUSED,
	    "db.localhost is not loopback: refused");
	ok(net_get_json(&o, "not a url", NULL, &v, &e) == -1 &&
	    e.failure == NET_REFUSED, "a malformed URL is refused");

	s = net_display_url("https://user:pw@cat.example:8443/api/v1/c?"
	    "token=" TOKEN "#f");
	is_str(s, "https://cat.example:8443/api/v1/c",
	    "the display URL drops user, password, query and fragment");
	free(s);
	t_redaction();
	net_cleanup();
	return done_testing();
}
