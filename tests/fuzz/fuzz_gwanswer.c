/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_gwanswer.c - what fluid-gateway reads from a SQL Gateway's answer
 * (gw.h), through the path gw.c's requests take (net_answer(), net.h).
 *
 * The input is a status (its first byte picks one) and the body the
 * gateway sent.  The body is judged as a gateway request judges it
 * (JSON kept on an error), then every reading gw.c makes of it is
 * applied: the handles, the job id, nextResultUri, Flink's reason, and
 * gw_reason() on the raw body as an exception chain.
 *
 * Properties: a message is one line without a control character and at
 * most what net_err holds; a job id is escaped (no control character, no
 * C1 control, UTF-8); an accepted handle is a plain token; an accepted
 * nextResultUri is this operation's result path with a page number, no
 * dot segment, fragment, '@' or '\\', and libcurl reads it as that path
 * on the gateway's host.
 */
#include "fuzz.h"
#include "gw.h"
#include "net.h"

#define GW	"http://127.0.0.1:8083"
#define S	"6f1c9e2a-58a4-4b5e-9d2c-7a0e1b3c4d5e"
#define O	"0c4e3f7e-5b1c-4a0e-9d42-1f8a6f4b2c11"
#define R	"/v2/sessions/" S "/operations/" O "/result/"

static const long statuses[] = { 200, 201, 204, 299, 400, 404, 409, 500,
    502, 503, 504, 302, 100, 418, 599, 0 };

static void
one_line(const char *s, const char *what)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			fuzz_fail(what);
}

static void
escaped(const char *s, const char *what)
{
	const unsigned char *p;

	one_line(s, what);
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)
			fuzz_fail(what);
	if (!fuzz_utf8(s))
		fuzz_fail(what);
}

static void
check_handle(json_t *v, const char *key)
{
	const char *h = json_string_value(json_object_get(v, key));

	if (!gw_handle_ok(h))
		return;
	if (strspn(h, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_~-") != strlen(h) || strlen(h) > 128)
		fuzz_fail("a handle accepted that is not a plain token");
}

static void
check_next(json_t *v)
{
	const char *next = json_string_value(json_object_get(v,
	    "nextResultUri"));
	const char *why;
	struct url u;
	char *url;

	if (next == NULL || !gw_next_uri_ok(next, S, O))
		return;
	if (strncmp(next, R, strlen(R)) != 0 || strstr(next, "..") != NULL ||
	    strpbrk(next + strlen(R), "#@\\/") != NULL)
		fuzz_fail("a nextResultUri accepted that leaves its operation");
	url = xasprintf("%s%s", GW, next);
	if (url_parse(url, &u, &why) == 0) {
		if (strcmp(u.host, "127.0.0.1") != 0 || u.port != 8083 ||
		    strncmp(u.path, R, strlen(R)) != 0)
			fuzz_fail("libcurl reads an accepted nextResultUri "
			    "elsewhere");
		url_release(&u);
	}
	free(url);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct net_err e;
	json_t *v = NULL;
	char *s, *body;
	long st;
	int rc;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	st = statuses[data[0] % (sizeof(statuses) / sizeof(statuses[0]))];
	rc = net_answer(GW "/v2/sessions/" S "/operations/" O "/result/0",
	    st, (const char *)data + 1, size - 1, NULL, true, &v, &e);
	if (rc == -1) {
		if (e.msg[0] == '\0' || strlen(e.msg) >= sizeof(e.msg))
			fuzz_fail("a failure without a message");
		one_line(e.msg, "a control character in a message");
		if (!fuzz_utf8(e.msg) && e.failure != NET_HTTP &&
		    e.failure != NET_BAD_BODY)
			fuzz_fail("a message that is not text");
	} else if (v == NULL)
		fuzz_fail("success without an answer");
	if (v != NULL) {
		if ((s = gw_answer_reason(v)) != NULL) {
			one_line(s, "a control character in Flink's reason");
			free(s);
		}
		if ((s = gw_answer_job(v)) != NULL) {
			escaped(s, "a job id that is not escaped");
			free(s);
		}
		check_handle(v, "sessionHandle");
		check_handle(v, "operationHandle");
		check_next(v);
		json_decref(v);
	}
	body = fuzz_cstr(data + 1, size - 1);
	s = gw_reason(body);
	if (s == NULL)
		fuzz_fail("gw_reason() without a reason");
	one_line(s, "a control character in gw_reason()");
	free(s);
	free(body);
	return 0;
}
