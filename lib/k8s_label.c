/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_label.c - the names the API server accepts, and whether an object
 * carries fluid's labels (k8s.h): the one answer for the renderers, for
 * apply and drift and for verify.  Pure: no kubectl, no network.
 */
#include <string.h>

#include "jget.h"
#include "k8s.h"

#define LOWER	"abcdefghijklmnopqrstuvwxyz0123456789"
#define ALNUM	LOWER "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/* Whether c is one of set (never the NUL). */
static int
in(int c, const char *set)
{
	return c != '\0' && strchr(set, c) != NULL;
}

int
k8s_dns_subdomain(const char *s, size_t max)
{
	size_t n = s != NULL ? strlen(s) : 0, i;

	if (n == 0 || n > max || strspn(s, LOWER "-.") != n ||
	    !in(s[0], LOWER) || !in(s[n - 1], LOWER))
		return 0;
	for (i = 1; i < n - 1; i++)
		if (s[i] == '.' && (!in(s[i - 1], LOWER) ||
		    !in(s[i + 1], LOWER)))
			return 0;
	return 1;
}

int
k8s_dns_label(const char *s, size_t max)
{
	return k8s_dns_subdomain(s, max) && strchr(s, '.') == NULL;
}

int
k8s_label_value(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	return n > 0 && n <= 63 && strspn(s, ALNUM "-_.") == n &&
	    in(s[0], ALNUM) && in(s[n - 1], ALNUM);
}

int
k8s_configmap_key(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	return n > 0 && n <= 253 && strspn(s, ALNUM "-_.") == n &&
	    strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

int
k8s_owned(const json_t *obj, const char *product, const char *id)
{
	const json_t *l = json_object_get(json_object_get(obj, "metadata"),
	    "labels");

	return jstreq(jstr(l, K8S_LABEL_MANAGED_BY), K8S_MANAGER) &&
	    jstreq(jstr(l, K8S_LABEL_NAME), product) &&
	    jstreq(jstr(l, K8S_LABEL_BUILD), id);
}
