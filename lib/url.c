/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * url.c - libcurl's URL API wrapped for fluid (see url.h).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <curl/curl.h>

#include "url.h"

#include "xalloc.h"

static char *
part(CURLU *h, CURLUPart what)
{
	char *s = NULL, *copy;

	if (curl_url_get(h, what, &s, 0) != CURLUE_OK || s == NULL)
		return NULL;
	copy = xstrdup(s);
	curl_free(s);
	return copy;
}

/* Whether h[0..n) is one number as libcurl reads a part: decimal or 0x. */
static bool
number(const char *h, size_t n)
{
	size_t i = 0;

	if (n >= 2 && h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) {
		for (i = 2; i < n; i++)
			if (!isxdigit((unsigned char)h[i]))
				return false;
		return true;
	}
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)h[i]))
			return false;
	return n > 0;
}

/*
 * Whether h[0..n) reads as an IPv4 address to someone: every label (one
 * trailing dot aside) is a number or empty, and one is a number.
 */
static bool
ipv4_form(const char *h, size_t n)
{
	const char *p, *end, *dot;
	bool one = false;

	if (n > 0 && h[n - 1] == '.')
		n--;
	for (p = h, end = h + n; p < end; p = dot + 1) {
		if ((dot = memchr(p, '.', (size_t)(end - p))) == NULL)
			dot = end;
		if (dot > p && !number(p, (size_t)(dot - p)))
			return false;
		one |= dot > p;
		if (dot == end)
			break;
	}
	return one;
}

/* Four decimal numbers 0-255 without leading zeros, nothing else. */
static bool
ipv4_canonical(const char *h, size_t n)
{
	const char *p = h, *end = h + n;
	int parts, v;
	size_t k;

	for (parts = 0; parts < 4; parts++) {
		for (k = 0, v = 0; p + k < end && isdigit((unsigned char)p[k]) &&
		    k < 4; k++)
			v = v * 10 + (p[k] - '0');
		if (k == 0 || k > 3 || v > 255 || (k > 1 && p[0] == '0'))
			return false;
		p += k;
		if (parts < 3) {
			if (p == end || *p != '.')
				return false;
			p++;
		}
	}
	return p == end;
}

bool
url_host_literal_ok(const char *host, size_t n, const char **why)
{
	if (!ipv4_form(host, n) || ipv4_canonical(host, n))
		return true;
	*why = URL_IPV4_WHY;
	return false;
}

/*
 * The host of the absolute URL s as written: after "://" and any
 * userinfo, before the port, path, query or fragment.  A bracketed IPv6
 * literal is returned with its brackets.
 */
static void
written_host(const char *s, const char **host, size_t *n)
{
	const char *a = strstr(s, "://"), *end, *p, *colon;

	a = a != NULL ? a + 3 : s;
	end = a + strcspn(a, "/?#\\");
	for (p = a; p < end; p++)
		if (*p == '@')
			a = p + 1;
	if (*a == '[') {
		p = memchr(a, ']', (size_t)(end - a));
		*host = a;
		*n = p != NULL ? (size_t)(p - a) + 1 : (size_t)(end - a);
		return;
	}
	colon = memchr(a, ':', (size_t)(end - a));
	*host = a;
	*n = (size_t)((colon != NULL ? colon : end) - a);
}

/*
 * Whether the host libcurl read from s (got, without brackets) is read
 * the same way by everyone: neither it nor the host as written is an
 * IPv4 address in another form than canonical dotted decimal, and an
 * address libcurl read is the very text written (not 0177.1.2.3 read as
 * 127.1.2.3, nor %31%32%37.0.0.1 or full-width digits decoded).
 */
static bool
read_alike(const char *s, const char *got, const char **why)
{
	const char *h;
	size_t n, k = strlen(got);

	written_host(s, &h, &n);
	if (!url_host_literal_ok(h, n, why) || !url_host_literal_ok(got, k,
	    why))
		return false;
	if (ipv4_form(got, k) && (k != n || memcmp(got, h, n) != 0)) {
		*why = URL_IPV4_WHY;
		return false;
	}
	return true;
}

int
url_parse(const char *s, struct url *u, const char **why)
{
	CURLU *h;
	char *port, *user, *pass, *query, *frag, *p;
	size_t n;

	memset(u, 0, sizeof(*u));
	if (strchr(s, ':') == NULL || strstr(s, "://") == NULL) {
		*why = "must be an absolute URL such as https://host/path";
		return -1;
	}
	for (p = (char *)(uintptr_t)s; *p != '\0'; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f) {
			*why = "must not contain spaces or control characters";
			return -1;
		}
	if ((h = curl_url()) == NULL) {
		*why = "out of memory";
		return -1;
	}
	if (curl_url_set(h, CURLUPART_URL, s, CURLU_NON_SUPPORT_SCHEME) !=
	    CURLUE_OK) {
		curl_url_cleanup(h);
		*why = "is not a well-formed URL";
		return -1;
	}
	u->scheme = part(h, CURLUPART_SCHEME);
	u->host = part(h, CURLUPART_HOST);
	u->path = part(h, CURLUPART_PATH);
	port = part(h, CURLUPART_PORT);
	user = part(h, CURLUPART_USER);
	pass = part(h, CURLUPART_PASSWORD);
	query = part(h, CURLUPART_QUERY);
	frag = part(h, CURLUPART_FRAGMENT);
	curl_url_cleanup(h);
	u->port = port ? atoi(port) : 0;
	u->userinfo = user != NULL || pass != NULL;
	u->query = query != NULL || frag != NULL;
	free(port);
	free(user);
	free(pass);
	free(query);
	free(frag);
	if (u->path == NULL)
		u->path = xstrdup("/");
	if (u->scheme == NULL || u->host == NULL || *u->host == '\0') {
		url_release(u);
		*why = "must name a host";
		return -1;
	}
	if (!read_alike(s, u->host[0] == '[' ? "" : u->host, why)) {
		url_release(u);
		return -1;
	}
	for (p = u->scheme; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	n = strlen(u->host);
	if (n >= 2 && u->host[0] == '[' && u->host[n - 1] == ']') {
		memmove(u->host, u->host + 1, n - 2);
		u->host[n - 2] = '\0';
	}
	return 0;
}

char *
url_host_ascii(const char *s, const char **why)
{
	CURLU *h;
	CURLUcode rc;
	char *host = NULL, *copy;
	const unsigned char *p;
	size_t n;

	if ((h = curl_url()) == NULL) {
		*why = "out of memory";
		return NULL;
	}
	if (curl_url_set(h, CURLUPART_URL, s, CURLU_NON_SUPPORT_SCHEME) !=
	    CURLUE_OK) {
		curl_url_cleanup(h);
		*why = "is not a well-formed URL";
		return NULL;
	}
	rc = curl_url_get(h, CURLUPART_HOST, &host, 0);
	for (p = (const unsigned char *)(host ? host : ""); *p; p++)
		if (*p >= 0x80)
			break;
	if (rc == CURLUE_OK && host != NULL && *p != '\0') {
		curl_free(host);
		host = NULL;
#ifdef CURLU_PUNYCODE
		{
			/*
			 * libidn2 reads the host in the locale's charset: UTF-8
			 * for this call, on this thread only, whatever the
			 * program's locale is.
			 */
			locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8",
			    (locale_t)0), old;

			rc = CURLUE_BAD_HOSTNAME;
			if (utf8 != (locale_t)0) {
				old = uselocale(utf8);
				rc = curl_url_get(h, CURLUPART_HOST, &host,
				    CURLU_PUNYCODE);
				uselocale(old);
				freelocale(utf8);
			}
		}
#else
		rc = CURLUE_BAD_HOSTNAME;
#endif
		if (rc != CURLUE_OK) {
			curl_free(host);
			curl_url_cleanup(h);
			*why = "has a host name that cannot be converted to "
			    "its ASCII (IDNA) form";
			return NULL;
		}
	}
	curl_url_cleanup(h);
	if (rc != CURLUE_OK || host == NULL || *host == '\0') {
		curl_free(host);
		*why = "must name a host";
		return NULL;
	}
	n = strlen(host);
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']')
		copy = xstrndup(host + 1, n - 2);
	else
		copy = xstrdup(host);
	curl_free(host);
	if (!read_alike(s, copy, why)) {
		free(copy);
		return NULL;
	}
	return copy;
}

void
url_release(struct url *u)
{
	free(u->scheme);
	free(u->host);
	free(u->path);
	memset(u, 0, sizeof(*u));
}

bool
url_host_is_loopback(const char *host)
{
	unsigned char a[16];

	if (strcasecmp(host, "localhost") == 0 ||
	    strcasecmp(host, "localhost.") == 0)
		return true;
	if (inet_pton(AF_INET, host, a) == 1)
		return a[0] == 127;
	if (inet_pton(AF_INET6, host, a) == 1) {
		static const unsigned char one[16] = { [15] = 1 };

		return memcmp(a, one, 16) == 0;
	}
	return false;
}
