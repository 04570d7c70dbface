/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * target.c - the targets a project declares (see target.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "target.h"
#include "bounds.h"
#include "jptr.h"
#include "resolve.h"
#include "url.h"
#include "xalloc.h"
#include "yload.h"

/* One file's targets as it is read: positions for the messages. */
struct tload {
	const char	*path;
	struct jptab	*pos;
	struct diags	*d;
	int		 bad;
};

static void __attribute__((format(printf, 3, 4)))
terr(struct tload *l, const char *ptr, const char *fmt, ...)
{
	const int *p = l->pos ? jptab_get(l->pos, ptr, strlen(ptr)) : NULL;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = fl_vmessage(fmt, ap);
	va_end(ap);
	diag_pos(l->d, DIAG_ERROR, l->path, p ? p[0] : 0, p ? p[1] : 0, "%s",
	    msg);
	free(msg);
	l->bad = 1;
}

static char *
parent_dir(const char *d)
{
	const char *s = strrchr(d, '/');

	if (s == NULL)
		return xstrdup(".");
	if (s == d)
		return xstrdup("/");
	return xstrndup(d, (size_t)(s - d));
}

char *
target_find_file(const char *dir)
{
	char *d = xstrdup(dir), *f, *up;
	struct stat st;
	int top;

	for (;;) {
		f = xasprintf("%s/%s", d, TARGET_FILE);
		if (access(f, F_OK) == 0)
			break;
		free(f);
		f = xasprintf("%s/%s", d, RESOLVE_WORKSPACE_FILE);
		if (access(f, F_OK) == 0)
			break;
		free(f);
		f = NULL;
		up = xasprintf("%s/.git", d);
		top = strcmp(d, "/") == 0 || strcmp(d, ".") == 0 ||
		    lstat(up, &st) == 0;
		free(up);
		if (top)
			break;
		up = parent_dir(d);
		free(d);
		d = up;
	}
	free(d);
	return f;
}

/* The target at ptr ("/targets/NAME"), appended to t when it is sound. */
static void
one_target(struct tload *l, struct targets *t, const char *name, json_t *v,
    const char *ptr)
{
	const char *k, *why, *be, *gw;
	struct target *x;
	struct url u;
	json_t *m, *fl;
	char *p;
	const int *pos;

	if (!json_is_object(v)) {
		terr(l, ptr, "targets.%s must be a mapping, not %s", name,
		    diag_json_kind(v));
		return;
	}
	json_object_foreach(v, k, m)
		if (strcmp(k, "backend") != 0 && strcmp(k, "flink") != 0 &&
		    strcmp(k, "kafka") != 0) {
			p = xasprintf("%s/%s", ptr, k);
			terr(l, p, "targets.%s: unknown key '%s' (known: "
			    "backend, flink, kafka)", name, k);
			free(p);
		}
	be = json_string_value(json_object_get(v, "backend"));
	p = xasprintf("%s/backend", ptr);
	if (be == NULL)
		terr(l, json_object_get(v, "backend") ? p : ptr, "targets.%s"
		    ".backend must be flink", name);
	else if (strcmp(be, "flink") != 0)
		terr(l, p, "targets.%s.backend: '%s' is not a backend fluid "
		    "applies to (flink)", name, be);
	free(p);
	fl = json_object_get(v, "flink");
	p = xasprintf("%s/flink", ptr);
	if (!json_is_object(fl)) {
		terr(l, fl ? p : ptr, "targets.%s.flink must be a mapping "
		    "with the gateway's URL", name);
		free(p);
		return;
	}
	json_object_foreach(fl, k, m)
		if (strcmp(k, "gateway") != 0) {
			free(p);
			p = xasprintf("%s/flink/%s", ptr, k);
			terr(l, p, "targets.%s.flink: unknown key '%s' "
			    "(known: gateway)", name, k);
		}
	free(p);
	p = xasprintf("%s/flink/gateway", ptr);
	gw = json_string_value(json_object_get(fl, "gateway"));
	if (gw == NULL) {
		terr(l, json_object_get(fl, "gateway") ? p : ptr, "targets.%s"
		    ".flink.gateway must be the SQL Gateway's URL", name);
		free(p);
		return;
	}
	if (url_parse(gw, &u, &why) == -1) {
		terr(l, p, "targets.%s.flink.gateway: %s", name, why);
		free(p);
		return;
	}
	if (strcmp(u.scheme, "http") != 0 && strcmp(u.scheme, "https") != 0)
		terr(l, p, "targets.%s.flink.gateway: the gateway is reached "
		    "over http:// or https://, not %s://", name, u.scheme);
	else if (strcmp(u.path, "/") != 0)
		terr(l, p, "targets.%s.flink.gateway: give the gateway's "
		    "scheme, host and port, without a path (%s)", name, u.path);
	url_release(&u);
	free(p);
	if (l->bad)
		return;
	t->v = xreallocarray(t->v, t->n + 1, sizeof(*t->v));
	x = &t->v[t->n++];
	x->name = xstrdup(name);
	x->backend = xstrdup(be);
	x->gateway = xstrdup(gw);
	pos = l->pos ? jptab_get(l->pos, ptr, strlen(ptr)) : NULL;
	x->line = pos ? pos[0] : 0;
	x->col = pos ? pos[1] : 0;
}

int
target_load(const char *path, struct targets *t, struct diags *d)
{
	struct tload l = { path, NULL, d, 0 };
	struct ypos *ypos = NULL;
	struct sb ptr;
	size_t nodes = 0;
	json_t *doc = NULL, *ts, *v;
	const char *k;
	FILE *fp;
	int rc;

	memset(t, 0, sizeof(*t));
	t->file = xstrdup(path);
	if ((fp = fopen(path, "r")) == NULL) {
		diag_fatal(d, "cannot open '%s':", path);
		return -1;
	}
	rc = yload_file_pos(path, fp, FL_MAX_INPUT_BYTES, &doc, &ypos, &nodes,
	    d);
	if (rc == -2)
		diag_fatal(d, "cannot read '%s':", path);
	fclose(fp);
	if (rc != 0)
		return -1;
	l.pos = ypos_table(ypos, doc);
	ypos_free(ypos);
	if (!json_is_object(doc)) {
		terr(&l, "", "%s must be a mapping", path);
		goto out;
	}
	ts = json_object_get(doc, "targets");
	if (ts == NULL || json_is_null(ts))
		goto out;
	if (!json_is_object(ts)) {
		terr(&l, "/targets", "targets must be a mapping of names to "
		    "targets, not %s", diag_json_kind(ts));
		goto out;
	}
	sb_init(&ptr);
	json_object_foreach(ts, k, v) {
		sb_truncate(&ptr, 0);
		sb_adds(&ptr, "/targets");
		jptr_push_key(&ptr, k);
		one_target(&l, t, k, v, ptr.buf);
	}
	sb_release(&ptr);
out:
	jptab_free(l.pos);
	json_decref(doc);
	return l.bad ? -1 : 0;
}

void
targets_release(struct targets *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].name);
		free(t->v[i].backend);
		free(t->v[i].gateway);
	}
	free(t->v);
	free(t->file);
	memset(t, 0, sizeof(*t));
}

/* "'a', 'b'" for a message. */
static char *
names(const struct targets *t)
{
	struct sb sb;
	size_t i;

	sb_init(&sb);
	for (i = 0; i < t->n; i++)
		sb_addf(&sb, "%s'%s'", i ? ", " : "", t->v[i].name);
	return sb.buf ? sb.buf : xstrdup("");
}

const struct target *
target_pick(const struct targets *t, const char *name, struct diags *d)
{
	char *all;
	size_t i;

	if (t->n == 0) {
		diag_fatal(d, "%s declares no target (a targets: section "
		    "naming a flink gateway)", t->file);
		return NULL;
	}
	if (name == NULL && t->n == 1)
		return &t->v[0];
	for (i = 0; name != NULL && i < t->n; i++)
		if (strcmp(t->v[i].name, name) == 0)
			return &t->v[i];
	all = names(t);
	if (name == NULL)
		diag_fatal(d, "%s declares %zu targets (%s): name one with "
		    "--target", t->file, t->n, all);
	else
		diag_fatal(d, "%s declares no target '%s' (there %s %s)",
		    t->file, name, t->n == 1 ? "is" : "are", all);
	free(all);
	return NULL;
}
