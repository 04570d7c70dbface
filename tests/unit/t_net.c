/*
 * t_net.c - lib/net.c's refusals, which happen before anything is sent:
 * a credential over http:// to a host other than this machine, a token
 * endpoint over http://, a malformed URL.  No server is needed (nothing
 * may be sent); the error paths with a server are in
 * tests/bats/fluid-verify.bats, against tests/net/fake_catalog.py.
 */
#include <string.h>

#include "net.h"
#include "xalloc.h"
#include "tap.h"

#define TOKEN	"tok-SECRET-4711"

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
	net_cleanup();
	return done_testing();
}
