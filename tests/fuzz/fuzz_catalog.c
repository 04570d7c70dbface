/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_catalog.c - what fluid makes of an Iceberg REST catalog's answer
 * and of an OAuth2 token endpoint's (net.h: net_answer(), the judge
 * every request of net.c ends in, and net_redact()).
 *
 * The input is a status (its first byte picks one) and the body.  The
 * request carried a bearer token, or an OAuth2 client credential (the
 * credential, its secret and the form, as net_oauth2_token() passes
 * them); the dictionary and the seeds hold them, raw and encoded, so
 * that answers echo them.
 *
 * Properties: a 2xx with a JSON body is an answer, anything else a
 * failure with one line of message, within net_err; no message holds a
 * secret, raw or %-encoded in either case, and redacting it again
 * changes nothing; net_redact() of the raw body holds no secret either.
 */
#include <ctype.h>

#include "fuzz.h"
#include "net.h"

#define TOKEN	"tok-SECRET-4711"
#define CRED	"client:s3cr+t/=x y"
#define SECRET	"s3cr+t/=x y"
#define FORM	"grant_type=client_credentials&client_id=client&" \
		"client_secret=s3cr%2Bt%2F%3Dx%20y&scope=catalog"

static const long statuses[] = { 200, 201, 204, 299, 400, 401, 403, 404,
    409, 419, 500, 502, 503, 504, 302, 0 };

/* s with every byte %XX-escaped but [A-Za-z0-9-._~], hex in case. */
static char *
encoded(const char *s, bool upper)
{
	struct sb sb;
	const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	sb_init(&sb);
	for (; *s != '\0'; s++)
		if (isalnum((unsigned char)*s) || strchr("-._~", *s))
			sb_addc(&sb, *s);
		else {
			sb_addc(&sb, '%');
			sb_addc(&sb, hex[(unsigned char)*s >> 4]);
			sb_addc(&sb, hex[*s & 15]);
		}
	return sb_steal(&sb);
}

/*
 * Each secret of a request (which: 0 bearer, 1 OAuth2), and it
 * %-encoded in upper and lower case: made once, kept for the run.
 */
static char *forms[2][3][3];

static void
no_secret(const char *msg, const char *const *secrets, int which)
{
	size_t i, k;

	for (i = 0; secrets[i] != NULL; i++) {
		if (forms[which][i][0] == NULL) {
			forms[which][i][0] = xstrdup(secrets[i]);
			forms[which][i][1] = encoded(secrets[i], true);
			forms[which][i][2] = encoded(secrets[i], false);
		}
		for (k = 0; k < 3; k++)
			if (strstr(msg, forms[which][i][k]) != NULL)
				fuzz_fail("a secret, raw or encoded, in a "
				    "message");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const bearer[] = { TOKEN, NULL };
	static const char *const oauth[] = { CRED, SECRET, FORM, NULL };
	const char *const *secrets;
	size_t nsecrets;
	struct net_err e;
	const unsigned char *p;
	json_t *v = NULL;
	char *again, *body;
	long st;
	int rc;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	st = statuses[data[0] % (sizeof(statuses) / sizeof(statuses[0]))];
	secrets = data[0] & 0x80 ? oauth : bearer;
	nsecrets = data[0] & 0x80 ? 3 : 1;
	rc = net_answer("https://catalog.example.com/v1/config", st,
	    (const char *)data + 1, size - 1, secrets, false, &v, &e);
	if (rc == 0) {
		if (v == NULL || st < 200 || st > 299)
			fuzz_fail("an answer that is not a 2xx's JSON");
		json_decref(v);
	} else {
		if (v != NULL)
			fuzz_fail("an error's JSON kept without keep_error");
		if (e.msg[0] == '\0' || strlen(e.msg) >= sizeof(e.msg))
			fuzz_fail("a failure without a message");
		for (p = (const unsigned char *)e.msg; *p != '\0'; p++)
			if (*p < 0x20 || *p == 0x7f)
				fuzz_fail("a control character in a message");
		no_secret(e.msg, secrets, data[0] >> 7);
		again = net_redact(e.msg, secrets, nsecrets);
		if (strcmp(again, e.msg) != 0)
			fuzz_fail("a message that redaction still changes");
		free(again);
	}
	body = fuzz_cstr(data + 1, size - 1);
	again = net_redact(body, secrets, nsecrets);
	no_secret(again, secrets, data[0] >> 7);
	free(again);
	free(body);
	return 0;
}
