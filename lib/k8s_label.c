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

static int
lower_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static int
alnum(int c)
{
	return lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

int
k8s_dns_label(const char *s, size_t max)
{
	size_t n = s != NULL ? strlen(s) : 0, i;

	if (n == 0 || n > max || !lower_alnum(s[0]) ||
	    !lower_alnum(s[n - 1]))
		return 0;
	for (i = 0; i < n; i++)
		if (!lower_alnum(s[i]) && s[i] != '-')
			return 0;
	return 1;
}

int
k8s_dns_subdomain(const char *s, size_t max)
{
	size_t n = s != NULL ? strlen(s) : 0, i;

	if (n == 0 || n > max || !lower_alnum(s[0]) ||
	    !lower_alnum(s[n - 1]))
		return 0;
	for (i = 0; i < n; i++)
		if (!lower_alnum(s[i]) && s[i] != '-' && s[i] != '.')
			return 0;
		else if (s[i] == '.' && (!lower_alnum(s[i - 1]) ||
		    !lower_alnum(s[i + 1])))
			return 0;
	return 1;
}

int
k8s_label_value(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0, i;

	if (n == 0 || n > 63 || !alnum(s[0]) || !alnum(s[n - 1]))
		return 0;
	for (i = 0; i < n; i++)
		if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
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
