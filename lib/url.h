/*
 * url.h - URLs through libcurl's URL parser, and what a host is.
 *
 * Contracts name catalogs, token endpoints, S3 endpoints, registries and
 * object-store locations.  All of them are parsed by libcurl (the same
 * parser the HTTP client uses), never by hand.
 */
#ifndef FLUID_URL_H
#define FLUID_URL_H

#include <stdbool.h>

struct url {
	char	*scheme;	/* lower case */
	char	*host;		/* without brackets for IPv6 */
	char	*path;		/* "/" when empty */
	int	 port;		/* 0 when not given */
	bool	 userinfo;	/* user or password present */
	bool	 query;		/* ?query or #fragment present */
};

/*
 * Parse s.  Returns 0, or -1 with *why a static reason that does not
 * quote s.  Release u with url_release().
 */
int	url_parse(const char *s, struct url *u, const char **why);
void	url_release(struct url *);

/*
 * The host of the absolute URL s in ASCII: IDNA names in their punycode
 * (xn--) form, when this libcurl converts them (CURLU_PUNYCODE, under a
 * UTF-8 locale of this thread only), IPv4 in dotted decimal, IPv6
 * without brackets.  Case and trailing dots are left as written.
 * Returns a new string, or NULL with *why a static reason.
 */
char	*url_host_ascii(const char *s, const char **why);

/* localhost, 127.0.0.0/8 or ::1 (db.localhost is not loopback). */
bool	url_host_is_loopback(const char *host);
/* 169.254.0.0/16 or fe80::/10. */
bool	url_host_is_link_local(const char *host);
/* A literal IPv4 or IPv6 address rather than a name. */
bool	url_host_is_ip(const char *host);

#endif
