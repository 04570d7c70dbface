/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_operr.c - the operator's status.error, read (kube_operr.h).  It is
 * the cluster's text: parsed, never trusted to be well formed, and only
 * ever returned bounded.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "clock.h"
#include "jget.h"
#include "kube_operr.h"
#include "xalloc.h"

/* How much of the operator's words are quoted. */
#define OPERR_MAX	400

/* s cut to at most OPERR_MAX bytes, at a character boundary, "..." (new). */
static char *
cut(const char *s)
{
	size_t n = strlen(s);

	if (n <= OPERR_MAX)
		return xstrdup(s);
	n = OPERR_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return xasprintf("%.*s...", (int)n, s);
}

char *
kube_operator_error(const char *error)
{
	json_t *e, *list, *last;
	const char *msg, *cause;
	char *a, *b, *r;

	if (error == NULL || *error == '\0')
		return NULL;
	e = json_loads(error, 0, NULL);
	if (!json_is_object(e)) {
		json_decref(e);
		return cut(error);
	}
	msg = jstr(e, "message") != NULL ? jstr(e, "message") : jstr(e, "type");
	list = json_object_get(e, "throwableList");
	last = json_array_get(list, json_array_size(list) - 1);
	cause = jstr(last, "message");
	if (msg == NULL && cause == NULL)
		r = xstrdup("(status.error names no message)");
	else if (msg == NULL || (cause != NULL && strstr(msg, cause) == NULL)) {
		a = cut(msg != NULL ? msg : "(no message)");
		b = cut(cause);
		r = xasprintf("%s (its cause: %s)", a, b);
		free(a);
		free(b);
	} else
		r = cut(msg);
	json_decref(e);
	return r;
}

/* When an event last happened, as the API server writes it, or "". */
static const char *
when(const json_t *ev)
{
	const char *t = jstr(ev, "lastTimestamp");

	if (t == NULL)
		t = jstr(ev, "eventTime");
	if (t == NULL)
		t = jstr(json_object_get(ev, "metadata"), "creationTimestamp");
	return t != NULL ? t : "";
}

char *
kube_savepoint_event(const json_t *list, const char *name,
    long long since_ms)
{
	const json_t *ev, *obj, *newest = NULL;
	const char *type, *msg;
	/* The events' times are RFC 3339 in UTC: compared as text. */
	char *since = since_ms >= 0 ? clk_utc_at(since_ms / 1000) :
	    xstrdup("");
	size_t i;

	json_array_foreach(json_object_get(list, "items"), i, ev) {
		obj = json_object_get(ev, "involvedObject");
		type = jstr(obj, "kind");
		if (type == NULL || strcmp(type, "FlinkDeployment") != 0 ||
		    jstr(obj, "name") == NULL || strcmp(jstr(obj, "name"),
		    name) != 0 || !jstreq(jstr(ev, "type"), "Warning") ||
		    !jstreq(jstr(ev, "reason"), "SavepointError"))
			continue;
		/* To the second: one in the same second as since counts. */
		if (strncmp(when(ev), since, 19) < 0)
			continue;
		if (newest == NULL || strcmp(when(ev), when(newest)) >= 0)
			newest = ev;
	}
	free(since);
	if (newest == NULL)
		return NULL;
	msg = jstr(newest, "message");
	return cut(msg != NULL ? msg : "(no message)");
}
