/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * url.h - URLs through libcurl's URL parser, and what a host is.
 *
 * Contracts name catalogs, token endpoints, S3 endpoints, registries and
 * object-store locations.  All of them are parsed by libcurl (the same
 * parser the HTTP client uses), never by hand; the host as written is
 * only compared with what libcurl read, so that no one reads an address
 * differently (url_host_literal_ok()).
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
 * quote s.  Release u with url_release().  A host written as an IPv4
 * address in any form but canonical dotted decimal is refused
 * (url_host_literal_ok()).
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

/*
 * Whether host (n bytes, as written: no brackets, no port) may be read
 * as a host at all.  libcurl reads 0177.1.2.3 as 127.1.2.3 and 012.0.0.5
 * as 10.0.0.5 (octal), 0x7f.1 and 2130706433 as 127.0.0.1; the job's Java
 * clients read the first two as 177.1.2.3 and 12.0.0.5.  So a host whose
 * labels are all numbers (decimal, or 0x hex; one trailing dot ignored)
 * is an IPv4 address, and must be canonical dotted decimal: four decimal
 * numbers 0-255 without leading zeros and no trailing dot.  Returns
 * true, or false with *why URL_IPV4_WHY.  url_parse() and
 * url_host_ascii() call it; so does a reader of bare host:port lists.
 */
bool	url_host_literal_ok(const char *host, size_t n, const char **why);

#define URL_IPV4_WHY	"names an IPv4 address that is not canonical dotted " \
	"decimal (four numbers 0-255 without leading zeros, such as " \
	"10.0.0.5): libcurl and the job's Java clients read other forms " \
	"(leading zeros, octal, hex, fewer parts) as different addresses"

#endif
