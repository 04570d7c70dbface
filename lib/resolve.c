/*
 * resolve.c - $ref resolution inside a workspace root (see resolve.h).
 *
 * The walk copies the contract into a new tree.  It carries two
 * pointers: where it is in the file it is reading (to find the line and
 * column in that file's positions) and where it is in the output (the
 * pointer the positions table is keyed by).  Following a $ref switches
 * the first to the target file and leaves the second alone, which is
 * all it takes for every node to remember its own file.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounds.h"
#include "digest.h"
#include "jptr.h"
#include "resolve.h"
#include "yload.h"

struct rfile {
	char	*display;	/* name used in messages */
	char	*real;		/* realpath, or NULL for stdin */
	char	*dir;		/* directory that relative $refs start from */
	json_t	*doc;
	json_t	*pos;		/* pointer -> [line, column] */
};

struct resolver {
	struct diags	*d;
	char		*cwd;
	char		*root;		/* refs may not leave this directory */
	struct rfile	*files;
	size_t		 nfiles;
	json_t		*positions;
	size_t		 load_nodes;	/* nodes loaded from files */
	size_t		 out_nodes;	/* nodes written to the output */
	char		*stack[FL_MAX_REF_DEPTH];	/* refs being followed */
	int		 depth;
	int		 failed;	/* the output would be too large */
};

static const char *const fragment_kinds[] = {
	"streamSource", "schema", "recordMapping"
};

int
resolve_fragment_kind_ok(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(fragment_kinds) / sizeof(*fragment_kinds); i++)
		if (strcmp(kind, fragment_kinds[i]) == 0)
			return 1;
	return 0;
}

static char *
dir_of(const char *path)
{
	const char *s = strrchr(path, '/');

	if (s == NULL)
		return xstrdup(".");
	if (s == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(s - path));
}

/* A short name for messages: relative to the working directory if inside. */
static char *
display_name(const struct resolver *r, const char *real)
{
	size_t n = strlen(r->cwd);

	if (strncmp(real, r->cwd, n) == 0 && real[n] == '/')
		return xstrdup(real + n + 1);
	return xstrdup(real);
}

static int
inside(const char *root, const char *real)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return 1;
	return strncmp(real, root, n) == 0 && (real[n] == '/' ||
	    real[n] == '\0');
}

/* The position of fptr in file fi, as [line, column] (borrowed) or NULL. */
static json_t *
file_pos(const struct resolver *r, size_t fi, const char *fptr)
{
	return json_object_get(r->files[fi].pos, fptr);
}

static void __attribute__((format(printf, 4, 5)))
error_at(struct resolver *r, size_t fi, const char *fptr, const char *fmt, ...)
{
	json_t *p = file_pos(r, fi, fptr);
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	diag_pos(r->d, DIAG_ERROR, r->files[fi].display,
	    p ? (int)json_integer_value(json_array_get(p, 0)) : 0,
	    p ? (int)json_integer_value(json_array_get(p, 1)) : 0, "%s", msg);
	free(msg);
}

/*
 * Load a file once (by real path) and return its index, or -1 after an
 * error has been added.
 */
static ssize_t
load_file(struct resolver *r, const char *real, const char *display,
    FILE *fp)
{
	unsigned char *buf;
	size_t len, i;
	json_t *doc, *pos;
	FILE *own = NULL;
	struct rfile *f;
	int rc;

	for (i = 0; real != NULL && i < r->nfiles; i++)
		if (r->files[i].real && strcmp(r->files[i].real, real) == 0)
			return (ssize_t)i;
	if (r->nfiles == FL_MAX_FILES) {
		diag_pos(r->d, DIAG_ERROR, display, 0, 0,
		    "contract reads more than %d files", FL_MAX_FILES);
		return -1;
	}
	if (fp == NULL && (fp = own = fopen(real, "rb")) == NULL) {
		diag_pos(r->d, DIAG_ERROR, display, 0, 0, "cannot open: %s",
		    strerror(errno));
		return -1;
	}
	rc = yload_slurp(fp, FL_MAX_INPUT_BYTES, &buf, &len);
	if (own != NULL)
		fclose(own);
	if (rc == -1) {
		diag_pos(r->d, DIAG_ERROR, display, 0, 0, "cannot read: %s",
		    errno == EFBIG ? "file larger than 64 MiB" :
		    strerror(errno));
		return -1;
	}
	rc = yload_buffer(display, buf, len, &doc, &pos, &r->load_nodes, r->d);
	free(buf);
	if (rc == -1)
		return -1;
	r->files = xreallocarray(r->files, r->nfiles + 1, sizeof(*r->files));
	f = &r->files[r->nfiles];
	f->display = xstrdup(display);
	f->real = real ? xstrdup(real) : NULL;
	f->dir = real ? dir_of(real) : xstrdup(r->cwd);
	f->doc = doc;
	f->pos = pos;
	return (ssize_t)r->nfiles++;
}

static json_t *walk(struct resolver *, json_t *, size_t, struct sb *,
    struct sb *);

/* Follow the $ref object node found in file fi at fptr. */
static json_t *
follow(struct resolver *r, json_t *node, size_t fi, struct sb *fptr,
    struct sb *optr)
{
	json_t *ref = json_object_get(node, "$ref"), *target, *out;
	const char *s, *hash;
	char *file = NULL, *joined, real[PATH_MAX], *key, *disp;
	struct sb tptr;
	ssize_t tfi;
	int i;

	if (!json_is_string(ref))
		return error_at(r, fi, fptr->buf, "'$ref' must be a string"), NULL;
	if (json_object_size(node) != 1)
		return error_at(r, fi, fptr->buf, "'$ref' must be the only key "
		    "of its mapping"), NULL;
	s = json_string_value(ref);
	hash = strchr(s, '#');
	file = hash ? xstrndup(s, (size_t)(hash - s)) : xstrdup(s);
	if (hash != NULL && hash[1] != '\0' && hash[1] != '/') {
		error_at(r, fi, fptr->buf, "'$ref' '%s': the part after '#' "
		    "must be a JSON pointer such as #/a/b", s);
		return free(file), NULL;
	}
	if (*file == '\0') {
		tfi = (ssize_t)fi;
	} else {
		joined = file[0] == '/' ? xstrdup(file) :
		    xasprintf("%s/%s", r->files[fi].dir, file);
		if (realpath(joined, real) == NULL) {
			error_at(r, fi, fptr->buf, "'$ref' '%s': %s", s,
			    strerror(errno));
			free(joined);
			return free(file), NULL;
		}
		free(joined);
		if (!inside(r->root, real)) {
			error_at(r, fi, fptr->buf, "'$ref' '%s' leaves the "
			    "workspace root %s", s, r->root);
			return free(file), NULL;
		}
		disp = display_name(r, real);
		tfi = load_file(r, real, disp, NULL);
		free(disp);
		if (tfi == -1) {
			error_at(r, fi, fptr->buf, "'$ref' '%s' cannot be "
			    "resolved", s);
			return free(file), NULL;
		}
	}
	free(file);
	target = jptr_get(r->files[tfi].doc, hash ? hash + 1 : "");
	if (target == NULL) {
		error_at(r, fi, fptr->buf, "'$ref' '%s': no such pointer in "
		    "%s", s, r->files[tfi].display);
		return NULL;
	}
	key = xasprintf("%s#%s", r->files[tfi].real ? r->files[tfi].real :
	    "-", hash ? hash + 1 : "");
	for (i = 0; i < r->depth; i++)
		if (strcmp(r->stack[i], key) == 0) {
			error_at(r, fi, fptr->buf, "'$ref' '%s' is a cycle: "
			    "it leads back to itself through %s", s,
			    r->files[tfi].display);
			return free(key), NULL;
		}
	if (r->depth == FL_MAX_REF_DEPTH) {
		error_at(r, fi, fptr->buf, "'$ref' '%s' nests more than 64 "
		    "$refs deep", s);
		return free(key), NULL;
	}
	r->stack[r->depth++] = key;
	sb_init(&tptr);
	sb_adds(&tptr, hash ? hash + 1 : "");
	out = walk(r, target, (size_t)tfi, &tptr, optr);
	sb_release(&tptr);
	free(r->stack[--r->depth]);
	return out;
}

static json_t *
walk(struct resolver *r, json_t *node, size_t fi, struct sb *fptr,
    struct sb *optr)
{
	size_t flen = fptr->len, olen = optr->len, i;
	json_t *p, *out, *child, *v;
	const char *k;

	if (++r->out_nodes > FL_MAX_NODES) {
		if (!r->failed)
			error_at(r, fi, fptr->buf, "resolved contract has more "
			    "than %u nodes", FL_MAX_NODES);
		r->failed = 1;
		return NULL;
	}
	if (json_is_object(node) && json_object_get(node, "$ref") != NULL)
		return follow(r, node, fi, fptr, optr);
	if ((p = file_pos(r, fi, fptr->buf)) != NULL)
		json_object_set_new(r->positions, optr->buf,
		    json_pack("[I, O, O]", (json_int_t)fi,
		    json_array_get(p, 0), json_array_get(p, 1)));
	if (json_is_object(node)) {
		out = json_object();
		json_object_foreach(node, k, v) {
			jptr_push_key(fptr, k);
			jptr_push_key(optr, k);
			child = walk(r, v, fi, fptr, optr);
			sb_truncate(fptr, flen);
			sb_truncate(optr, olen);
			if (child == NULL)
				return json_decref(out), NULL;
			json_object_set_new(out, k, child);
		}
		return out;
	}
	if (json_is_array(node)) {
		out = json_array();
		json_array_foreach(node, i, v) {
			jptr_push_index(fptr, i);
			jptr_push_index(optr, i);
			child = walk(r, v, fi, fptr, optr);
			sb_truncate(fptr, flen);
			sb_truncate(optr, olen);
			if (child == NULL)
				return json_decref(out), NULL;
			json_array_append_new(out, child);
		}
		return out;
	}
	/* Scalars are never modified, so sharing them is safe. */
	return json_incref(node);
}

/*
 * Find the nearest workspace file at or above dir and set r->root.
 * Without one, the root is dir itself.  Returns -1 after an error.
 */
static int
find_root(struct resolver *r, const char *dir)
{
	char *d = xstrdup(dir), *ws, *up, real[PATH_MAX];
	const char *rr = ".";
	json_t *v;
	ssize_t fi;

	for (;;) {
		ws = xasprintf("%s/%s", strcmp(d, "/") ? d : "",
		    RESOLVE_WORKSPACE_FILE);
		if (access(ws, F_OK) == 0)
			break;
		free(ws);
		ws = NULL;
		if (strcmp(d, "/") == 0)
			break;
		up = dir_of(d);
		free(d);
		d = up;
	}
	if (ws == NULL) {
		r->root = xstrdup(dir);
		free(d);
		return 0;
	}
	up = display_name(r, ws);
	fi = load_file(r, ws, up, NULL);
	free(up);
	free(ws);
	if (fi == -1)
		return free(d), -1;
	v = json_object_get(r->files[fi].doc, "ref_root");
	if (!json_is_object(r->files[fi].doc) || (v != NULL &&
	    !json_is_string(v))) {
		error_at(r, (size_t)fi, v ? "/ref_root" : "", "workspace file "
		    "must be a mapping whose ref_root is a directory");
		return free(d), -1;
	}
	if (v != NULL)
		rr = json_string_value(v);
	ws = rr[0] == '/' ? xstrdup(rr) : xasprintf("%s/%s", d, rr);
	free(d);
	if (realpath(ws, real) == NULL) {
		error_at(r, (size_t)fi, "/ref_root", "ref_root '%s': %s", rr,
		    strerror(errno));
		return free(ws), -1;
	}
	free(ws);
	r->root = xstrdup(real);
	return 0;
}

static const char *
json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:	return "a mapping";
	case JSON_ARRAY:	return "a list";
	case JSON_STRING:	return "a string";
	case JSON_NULL:		return "empty";
	default:		return "a scalar";
	}
}

static void
resolver_release(struct resolver *r)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++) {
		free(r->files[i].display);
		free(r->files[i].real);
		free(r->files[i].dir);
		json_decref(r->files[i].doc);
		json_decref(r->files[i].pos);
	}
	free(r->files);
	free(r->cwd);
	free(r->root);
	json_decref(r->positions);
}

json_t *
resolve_run(const struct resolve_opts *o, struct diags *d)
{
	struct resolver r;
	char real[PATH_MAX], *dir, digest[DIGEST_STRLEN];
	json_t *doc = NULL, *files, *section = NULL, *v;
	struct sb fptr, optr;
	ssize_t fi;
	size_t i;
	int want_list;

	memset(&r, 0, sizeof(r));
	r.d = d;
	r.positions = json_object();
	if ((r.cwd = getcwd(NULL, 0)) == NULL)
		fl_fatal("cannot get the working directory:");
	if (o->path != NULL) {
		if (realpath(o->path, real) == NULL)
			fl_fatal("cannot open '%s':", o->path);
		dir = dir_of(real);
	} else
		dir = xstrdup(r.cwd);
	if (find_root(&r, dir) == -1)
		goto out;
	if (o->path != NULL && !inside(r.root, real)) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "file lies outside the "
		    "workspace root %s", r.root);
		goto out;
	}
	if (o->path != NULL) {
		/*
		 * The file the user named must be readable: if it is not,
		 * that is the environment's fault (status 2), not the
		 * contract's.
		 */
		struct stat st;
		FILE *fp = fopen(real, "rb");

		if (fp == NULL)
			fl_fatal("cannot open '%s':", o->path);
		if (fstat(fileno(fp), &st) == -1 || !S_ISREG(st.st_mode)) {
			fclose(fp);
			fl_fatal("cannot read '%s': not a regular file",
			    o->path);
		}
		fi = load_file(&r, real, o->path, fp);
		fclose(fp);
	} else
		fi = load_file(&r, NULL, "<stdin>", stdin);
	if (fi == -1)
		goto out;
	/* The workspace file, if any, was loaded first: move the contract
	 * to index 0 so that "files" starts with what the user named. */
	if (fi != 0) {
		struct rfile t = r.files[0];

		r.files[0] = r.files[fi];
		r.files[fi] = t;
		fi = 0;
	}
	want_list = o->fragment && strcmp(o->fragment, "schema") == 0;
	v = r.files[0].doc;
	if (want_list ? !json_is_array(v) : !json_is_object(v)) {
		error_at(&r, 0, "", "%s must be %s at the top level, not %s",
		    o->fragment ? o->fragment : "a contract",
		    want_list ? "a list" : "a mapping", json_kind(v));
		goto out;
	}
	sb_init(&fptr);
	sb_init(&optr);
	doc = walk(&r, r.files[0].doc, 0, &fptr, &optr);
	sb_release(&fptr);
	sb_release(&optr);
	if (doc == NULL)
		goto out;
	files = json_array();
	for (i = 0; i < r.nfiles; i++)
		json_array_append_new(files, json_string(r.files[i].display));
	digest_json(doc, digest);
	section = json_pack("{s:s}", "kind", o->fragment ? "fragment" :
	    "contract");
	if (o->fragment)
		json_object_set_new(section, "fragment",
		    json_string(o->fragment));
	if (o->schema_version)
		v = json_string(o->schema_version);
	else if (json_is_string(json_object_get(doc, "fluidVersion")))
		v = json_incref(json_object_get(doc, "fluidVersion"));
	else
		v = json_null();
	json_object_set_new(section, "schemaVersion", v);
	json_object_set_new(section, "document", doc);
	json_object_set_new(section, "files", files);
	json_object_set(section, "positions", r.positions);
	json_object_set_new(section, "digest", json_string(digest));
out:
	free(dir);
	resolver_release(&r);
	return section;
}
