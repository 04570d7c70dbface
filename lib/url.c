/*
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
url_host_is_ip(const char *host)
{
	unsigned char buf[16];

	return inet_pton(AF_INET, host, buf) == 1 ||
	    inet_pton(AF_INET6, host, buf) == 1;
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

bool
url_host_is_link_local(const char *host)
{
	unsigned char a[16];

	if (inet_pton(AF_INET, host, a) == 1)
		return a[0] == 169 && a[1] == 254;
	if (inet_pton(AF_INET6, host, a) == 1)
		return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
	return false;
}
