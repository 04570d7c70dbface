/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * resolve.c - $ref resolution inside a workspace root (see resolve.h).
 *
 * The walk copies the contract into a new tree.  It carries the pointer
 * of where it is in the file it is reading, to find the line and column
 * in that file's positions, and writes them down in the order it builds
 * the output, which is the output's own order: the positions need no
 * pointer of their own (see put_pos()).  Following a $ref switches the
 * pointer to the target file, which is all it takes for every node to
 * remember its own file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif
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
	struct ypos *yp;	/* positions in the order of the file */
	struct jptab *pos;	/* pointer -> (line, column), made when
				   first needed */
};

/* What a subtree expands to, $refs followed (measure()). */
struct msize {
	size_t		 nodes;
	size_t		 bytes;		/* of strings and keys (bounds.h) */
	int		 depth;		/* deepest $ref nesting inside */
};

/* A subtree measure() has seen whole. */
struct memo {
	const json_t	*node;		/* NULL: a free slot */
	struct msize	 size;
};

struct resolver {
	struct diags	*d;
	const struct resolve_source *src;	/* NULL: the file system */
	char		*cwd;
	char		*root;		/* refs may not leave this directory */
	int		 rootfd;	/* it, open; -1 before find_root() */
	struct rfile	*files;
	size_t		 nfiles;
	json_t		*byreal;	/* real path -> index in files */
	struct sb	 positions;	/* the section's "positions" */
	size_t		 pos_file;	/* file and line of its last record */
	long long	 pos_line;
	size_t		 load_nodes;	/* nodes loaded from files */
	size_t		 out_nodes;	/* nodes written to the output */
	char		*stack[FL_MAX_REF_DEPTH];	/* refs being followed */
	int		 depth;
	int		 failed;	/* the output would be too large */
	struct memo	*memo;		/* measured subtrees (measure()) */
	size_t		 nmemo, memocap;
	size_t		 seen;		/* nodes measured so far */
	size_t		 seen_bytes;	/* bytes of strings and keys so far */
	struct sb	 opath;		/* where measure() is in the output,
					   as messages spell it */
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

/*
 * path (relative to base when not absolute) with ".", ".." and empty
 * components taken out by their names, as a source is given paths
 * (resolve.h): into out, PATH_MAX bytes.  -1 (ENAMETOOLONG) if longer.
 */
static int
lexical(const char *base, const char *path, char *out)
{
	char *all = path[0] == '/' ? xstrdup(path) :
	    xasprintf("%s/%s", base, path), *c, *save;
	size_t n = 0, k;

	for (c = strtok_r(all, "/", &save); c != NULL;
	    c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		k = strlen(c);
		if (n + 1 + k >= PATH_MAX) {
			free(all);
			return errno = ENAMETOOLONG, -1;
		}
		out[n++] = '/';
		memcpy(out + n, c, k);
		n += k;
	}
	free(all);
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return 0;
}

/* What is at path in r's source: RESOLVE_*, or -1 after a fatal. */
static int
src_kind(const struct resolver *r, const char *path)
{
	return r->src->kind(r->src->ctx, path, r->d);
}

/*
 * The position of fptr in file fi, as {line, column} (borrowed) or NULL.
 * A node inside the copy of a YAML alias has no position of its own
 * (see yload.c): it stands where the alias does, its nearest ancestor
 * with a position.
 */
/* The positions of file fi by pointer. */
static const struct jptab *
ftab(struct resolver *r, size_t fi)
{
	struct rfile *f = &r->files[fi];

	if (f->pos == NULL)
		f->pos = ypos_table(f->yp, f->doc);
	return f->pos;
}

static const int *
file_pos(struct resolver *r, size_t fi, const char *fptr)
{
	const struct jptab *pos = ftab(r, fi);
	size_t n = strlen(fptr);
	const int *p;

	while ((p = jptab_get(pos, fptr, n)) == NULL && n > 0)
		while (n > 0 && fptr[--n] != '/')
			;
	return p;
}

static void __attribute__((format(printf, 4, 5)))
error_at(struct resolver *r, size_t fi, const char *fptr, const char *fmt, ...)
{
	const int *p = file_pos(r, fi, fptr);
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	diag_pos(r->d, DIAG_ERROR, r->files[fi].display,
	    p ? p[0] : 0, p ? p[1] : 0, "%s", msg);
	free(msg);
}

/*
 * Open path for reading if it is a regular file.  Anything else is
 * refused before it is read: a FIFO (or /dev/stdin) would block, a
 * device such as /dev/zero would never end.  Returns NULL with errno
 * set, EISDIR for a directory and ENODEV for any other kind of file.
 */
static FILE *
fd_regular(int fd)
{
	struct stat st;
	FILE *fp;
	int e;

	if (fstat(fd, &st) == -1)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
		goto fail;
	}
	/* Regular files do not block; reads are ordinary from here. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == -1 ||
	    (fp = fdopen(fd, "rb")) == NULL)
		goto fail;
	return fp;
fail:
	e = errno;
	close(fd);
	errno = e;
	return NULL;
}

static FILE *
open_regular(const char *path)
{
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return NULL;
	return fd_regular(fd);
}

/*
 * Is the file open on fd, whose real path is real, one of the kernel's
 * own?  /proc, /sys and /dev are never read as fragments, whatever the
 * root: their files are not what they seem.  /proc/self/environ and
 * /proc/self/cmdline hold the process's own secrets (the tokens in its
 * environment would end up in the resolved document, then in the IR,
 * a CI log or a bundle), /proc/self/fd/N and /dev/fd/N reach any file
 * the process has open, wherever it is, /sys and /proc files are made
 * as they are read and may change the kernel's state when read, and
 * /dev holds devices that never end or block.  By path, and by the
 * file system's type, so that a procfs or sysfs mounted elsewhere (in a
 * container, under the workspace) is refused too.
 */
static int
kernel_file(int fd, const char *real)
{
	static const char *const dirs[] = { "/proc", "/sys", "/dev" };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		if (inside(dirs[i], real))
			return 1;
#ifdef __linux__
	{
		/* linux/magic.h: proc, sysfs, devpts, debugfs, tracefs,
		 * securityfs, cgroup and cgroup2. */
		static const unsigned long magic[] = {
			0x9fa0, 0x62656572, 0x1cd1, 0x64626720, 0x74726163,
			0x73636673, 0x27e0eb, 0x63677270
		};
		struct statfs sf;

		if (fstatfs(fd, &sf) == 0)
			for (i = 0; i < sizeof(magic) / sizeof(*magic); i++)
				if ((unsigned long)sf.f_type == magic[i])
					return 1;
	}
#else
	(void)fd;
#endif
	return 0;
}

/* Symbolic links one $ref may go through, as the kernel's MAXSYMLINKS. */
#define REF_MAX_LINKS	40
/* Directories deep below the root that a $ref may reach. */
#define REF_MAX_DIRS	256

/*
 * Open the file at the absolute path path, which must lie beneath the
 * root, for reading, without a gap between checking where it is and
 * opening it: the path is walked a component at a time from the open
 * root, with openat(O_NOFOLLOW), so no component is ever looked up by
 * the kernel's own path walk.  A symbolic link is read (readlinkat())
 * and its target walked in turn: ".." past the root, or an absolute
 * target that does not lie beneath it, fails with EXDEV, whatever is
 * swapped in while the walk goes on.  (openat2()'s RESOLVE_BENEATH does
 * the same in the kernel, but refuses every absolute link, even one
 * into the root, and does not say where the file is, which the $refs
 * inside it need.)  Returns the descriptor, O_NONBLOCK set, with the
 * real path in *realp (a new string), or -1 with errno set.
 */
static int
open_beneath(const struct resolver *r, const char *path, char **realp)
{
	size_t rlen = strcmp(r->root, "/") ? strlen(r->root) : 0;
	int fds[REF_MAX_DIRS + 1], depth = 0, links = 0, fd = -1, e;
	size_t names[REF_MAX_DIRS + 1];	/* where each dir ends in real */
	char *pend, *c, *rest, link[PATH_MAX];
	struct sb real;
	ssize_t n;

	if (strncmp(path, r->root, rlen) != 0 || (path[rlen] != '/' &&
	    path[rlen] != '\0'))
		return errno = EXDEV, -1;
	sb_init(&real);
	sb_addn(&real, r->root, rlen);
	names[0] = real.len;
	fds[0] = r->rootfd;
	pend = xstrdup(path + rlen);
	rest = pend;
	for (;;) {
		while (*rest == '/')
			rest++;
		if (*rest == '\0') {
			/* Ends in a directory: the root itself, "x/", "x/.". */
			errno = EISDIR;
			goto fail;
		}
		c = rest;
		rest += strcspn(rest, "/");
		if (*rest == '/')
			*rest++ = '\0';
		while (*rest == '/')
			rest++;
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			if (depth == 0) {
				errno = EXDEV;
				goto fail;
			}
			close(fds[depth--]);
			sb_truncate(&real, names[depth]);
			continue;
		}
		fd = openat(fds[depth], c, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    (*rest ? O_DIRECTORY : O_NONBLOCK));
		if (fd == -1) {
			e = errno;
			if ((e != ELOOP && e != ENOTDIR && e != EMLINK) ||
			    (n = readlinkat(fds[depth], c, link,
			    sizeof(link))) < 0) {
				errno = e;
				goto fail;
			}
			if ((size_t)n == sizeof(link) || ++links >
			    REF_MAX_LINKS) {
				errno = (size_t)n == sizeof(link) ?
				    ENAMETOOLONG : ELOOP;
				goto fail;
			}
			link[n] = '\0';
			if (link[0] == '/') {
				/* Absolute: from the root again, if inside. */
				if (strncmp(link, r->root, rlen) != 0 ||
				    (link[rlen] != '/' && link[rlen] != '\0')) {
					errno = EXDEV;
					goto fail;
				}
				while (depth > 0)
					close(fds[depth--]);
				sb_truncate(&real, names[0]);
				memmove(link, link + rlen, (size_t)n - rlen + 1);
			}
			c = xasprintf("%s/%s", link, rest);
			free(pend);
			pend = rest = c;
			continue;
		}
		sb_addc(&real, '/');
		sb_adds(&real, c);
		if (*rest == '\0')
			break;
		if (depth == REF_MAX_DIRS) {
			close(fd);
			errno = ENAMETOOLONG;
			goto fail;
		}
		fds[++depth] = fd;
		names[depth] = real.len;
		fd = -1;
	}
	while (depth > 0)
		close(fds[depth--]);
	free(pend);
	*realp = sb_steal(&real);
	return fd;
fail:
	e = errno;
	while (depth > 0)
		close(fds[depth--]);
	free(pend);
	sb_release(&real);
	errno = e;
	return -1;
}

/* strerror(), but ENODEV as open_regular() means it. */
static const char *
open_error(int e)
{
	return e == ENODEV ? "not a regular file" : strerror(e);
}

static ssize_t	load_source(struct resolver *, const char *, const char *);
static ssize_t	add_file(struct resolver *, const char *, const char *,
		    json_t *, struct ypos *);

/*
 * Load a file once (by real path) and return its index, or -1 after an
 * error has been added.
 */
static ssize_t
load_file(struct resolver *r, const char *real, const char *display,
    FILE *fp)
{
	unsigned char *buf;
	size_t len;
	json_t *doc, *v;
	struct ypos *pos;
	FILE *own = NULL;
	struct stat st;
	int rc, e;

	/* Loaded already?  A lookup, not a scan: a contract may read
	 * thousands of files through many more $refs. */
	if (real != NULL && (v = json_object_get(r->byreal, real)) != NULL)
		return (ssize_t)json_integer_value(v);
	if (r->nfiles == FL_MAX_FILES) {
		diag_pos(r->d, DIAG_ERROR, display, 0, 0,
		    "contract reads more than %d files", FL_MAX_FILES);
		return -1;
	}
	if (r->src != NULL && real != NULL)
		return load_source(r, real, display);
	if (fp == NULL && (fp = own = open_regular(real)) == NULL) {
		e = errno;
		diag_pos(r->d, DIAG_ERROR, display, 0, 0, "cannot %s: %s",
		    e == EISDIR || e == ENODEV ? "read" : "open",
		    open_error(e));
		return -1;
	}
	if (real != NULL) {
		/*
		 * A regular file (open_regular() or the caller made sure):
		 * parsed as it is read, never held whole in memory.  Its
		 * size is tested first, so that a file over the limit is
		 * refused before anything in it is.
		 */
		if (fstat(fileno(fp), &st) == 0 &&
		    st.st_size > (off_t)FL_MAX_INPUT_BYTES) {
			errno = EFBIG;
			rc = -2;
		} else
			rc = yload_file_pos(display, fp, FL_MAX_INPUT_BYTES,
			    &doc, &pos, &r->load_nodes, r->d);
	} else if ((rc = slurp(fp, FL_MAX_INPUT_BYTES, &buf,
	    &len)) == -1)
		rc = -2;
	else {
		/* Standard input: it may be a pipe, read it whole first. */
		rc = yload_buffer_pos(display, buf, len, &doc, &pos,
		    &r->load_nodes, r->d);
		free(buf);
	}
	e = errno;
	if (own != NULL)
		fclose(own);
	if (rc == -2) {
		diag_pos(r->d, DIAG_ERROR, display, 0, 0, "cannot read: %s",
		    e == EFBIG ? "file larger than 64 MiB" : strerror(e));
		return -1;
	}
	if (rc == -1)
		return -1;
	return add_file(r, real, display, doc, pos);
}

/*
 * load_file() from r's source: the file read whole, then parsed, its
 * name in messages after the source's label.
 */
static ssize_t
load_source(struct resolver *r, const char *real, const char *display)
{
	unsigned char *buf;
	struct ypos *pos;
	json_t *doc;
	char *shown = xasprintf("%s%s", r->src->label, display);
	size_t len;
	ssize_t fi = -1;
	int rc;

	rc = r->src->read(r->src->ctx, real, FL_MAX_INPUT_BYTES, &buf, &len,
	    r->d);
	if (rc == -1)
		diag_pos(r->d, DIAG_ERROR, shown, 0, 0, "cannot %s: %s",
		    errno == EISDIR || errno == ENODEV || errno == EFBIG ?
		    "read" : "open",
		    errno == EFBIG ? "file larger than 64 MiB" :
		    open_error(errno));
	else if (rc == 0) {
		if (yload_buffer_pos(shown, buf, len, &doc, &pos,
		    &r->load_nodes, r->d) == 0)
			fi = add_file(r, real, shown, doc, pos);
		free(buf);
	}
	free(shown);
	return fi;
}

/* Take a loaded file as r's next (doc and pos stolen): its index. */
static ssize_t
add_file(struct resolver *r, const char *real, const char *display,
    json_t *doc, struct ypos *pos)
{
	struct rfile *f;

	r->files = xreallocarray(r->files, r->nfiles + 1, sizeof(*r->files));
	f = &r->files[r->nfiles];
	f->display = xstrdup(display);
	f->real = real ? xstrdup(real) : NULL;
	f->dir = real ? dir_of(real) : xstrdup(r->cwd);
	f->doc = doc;
	f->yp = pos;
	f->pos = NULL;
	if (real != NULL)
		json_object_set_new(r->byreal, real,
		    json_integer((json_int_t)r->nfiles));
	return (ssize_t)r->nfiles++;
}

static json_t *walk(struct resolver *, json_t *, size_t, struct sb *,
    const int *);

/*
 * The file of $ref s (its file part file), from file fi at fptr, out of
 * r's source: by its path, which must lie beneath the root.  Its index,
 * or -1 after an error.
 */
static ssize_t
ref_source(struct resolver *r, size_t fi, const char *fptr, const char *s,
    const char *file)
{
	char real[PATH_MAX], *disp;
	ssize_t tfi;

	if (lexical(r->files[fi].dir, file, real) == -1) {
		error_at(r, fi, fptr, "'$ref' '%s': %s", s, strerror(errno));
		return -1;
	}
	if (!inside(r->root, real)) {
		error_at(r, fi, fptr, "'$ref' '%s' leaves the workspace root "
		    "%s", s, r->root);
		return -1;
	}
	disp = display_name(r, real);
	tfi = load_file(r, real, disp, NULL);
	free(disp);
	if (tfi == -1)
		error_at(r, fi, fptr, "'$ref' '%s' cannot be resolved", s);
	return tfi;
}

/*
 * What the $ref object node, found in file fi at fptr, points at:
 * loads the target's file when needed and refuses what may not be
 * followed (a bad $ref, a file outside the root, a missing pointer, a
 * cycle, too deep a nesting).  Returns the target (borrowed) with its
 * file in *tfip, its pointer in *tptrp (borrowed from node) and the key
 * for r->stack in *keyp (the caller frees it), or NULL after an error.
 * measure() and follow() both come here, so they refuse alike.
 */
static json_t *
ref_target(struct resolver *r, json_t *node, size_t fi, const char *fptr,
    size_t *tfip, const char **tptrp, char **keyp)
{
	json_t *ref = json_object_get(node, "$ref"), *target;
	const char *s, *hash;
	char *file = NULL, *joined, *real, *key, *disp;
	ssize_t tfi = -1;
	FILE *fp;
	int i, fd;

	if (!json_is_string(ref))
		return error_at(r, fi, fptr, "'$ref' must be a string"), NULL;
	if (json_object_size(node) != 1)
		return error_at(r, fi, fptr, "'$ref' must be the only key "
		    "of its mapping"), NULL;
	s = json_string_value(ref);
	hash = strchr(s, '#');
	file = hash ? xstrndup(s, (size_t)(hash - s)) : xstrdup(s);
	if (hash != NULL && hash[1] != '\0' && hash[1] != '/') {
		error_at(r, fi, fptr, "'$ref' '%s': the part after '#' "
		    "must be a JSON pointer such as #/a/b", s);
		return free(file), NULL;
	}
	if (*file == '\0') {
		tfi = (ssize_t)fi;
	} else if (r->src != NULL) {
		tfi = ref_source(r, fi, fptr, s, file);
		if (tfi == -1)
			return free(file), NULL;
	} else {
		joined = file[0] == '/' ? xstrdup(file) :
		    xasprintf("%s/%s", r->files[fi].dir, file);
		fd = open_beneath(r, joined, &real);
		free(joined);
		if (fd == -1 && errno == EXDEV) {
			error_at(r, fi, fptr, "'$ref' '%s' leaves the "
			    "workspace root %s", s, r->root);
			return free(file), NULL;
		}
		if (fd == -1) {
			error_at(r, fi, fptr, "'$ref' '%s': %s", s,
			    strerror(errno));
			return free(file), NULL;
		}
		if (kernel_file(fd, real)) {
			error_at(r, fi, fptr, "'$ref' '%s': fragments are "
			    "never read from /proc, /sys or /dev", s);
			close(fd);
			free(real);
			return free(file), NULL;
		}
		disp = display_name(r, real);
		if (json_object_get(r->byreal, real) != NULL) {
			/* Loaded already: load_file() looks it up. */
			close(fd);
			tfi = load_file(r, real, disp, NULL);
		} else if ((fp = fd_regular(fd)) == NULL) {
			diag_pos(r->d, DIAG_ERROR, disp, 0, 0, "cannot read: "
			    "%s", open_error(errno));
			tfi = -1;
		} else {
			tfi = load_file(r, real, disp, fp);
			fclose(fp);
		}
		free(disp);
		free(real);
		if (tfi == -1) {
			error_at(r, fi, fptr, "'$ref' '%s' cannot be "
			    "resolved", s);
			return free(file), NULL;
		}
	}
	free(file);
	target = jptr_get(r->files[tfi].doc, hash ? hash + 1 : "");
	if (target == NULL) {
		error_at(r, fi, fptr, "'$ref' '%s': no such pointer in "
		    "%s", s, r->files[tfi].display);
		return NULL;
	}
	key = xasprintf("%s#%s", r->files[tfi].real ? r->files[tfi].real :
	    "-", hash ? hash + 1 : "");
	for (i = 0; i < r->depth; i++)
		if (strcmp(r->stack[i], key) == 0) {
			error_at(r, fi, fptr, "'$ref' '%s' is a cycle: "
			    "it leads back to itself through %s", s,
			    r->files[tfi].display);
			return free(key), NULL;
		}
	if (r->depth == FL_MAX_REF_DEPTH) {
		error_at(r, fi, fptr, "'$ref' '%s' nests more than 64 "
		    "$refs deep", s);
		return free(key), NULL;
	}
	*tfip = (size_t)tfi;
	*tptrp = hash ? hash + 1 : "";
	*keyp = key;
	return target;
}

/* Follow the $ref object node found in file fi at fptr. */
static json_t *
follow(struct resolver *r, json_t *node, size_t fi, struct sb *fptr)
{
	json_t *target, *out;
	const char *tp;
	struct sb tptr;
	size_t tfi;
	char *key;

	if ((target = ref_target(r, node, fi, fptr->buf, &tfi, &tp,
	    &key)) == NULL)
		return NULL;
	r->stack[r->depth++] = key;
	sb_init(&tptr);
	sb_adds(&tptr, tp);
	out = walk(r, target, tfi, &tptr, file_pos(r, tfi, tp));
	sb_release(&tptr);
	free(r->stack[--r->depth]);
	return out;
}

/* The memo's slot for node: its entry, or the free slot it would take. */
static struct memo *
memo_slot(const struct resolver *r, const json_t *node)
{
	size_t h = ((uintptr_t)node >> 4) * 0x9E3779B97F4A7C15u;
	struct memo *m;

	for (h &= r->memocap - 1;; h = (h + 1) & (r->memocap - 1)) {
		m = &r->memo[h];
		if (m->node == NULL || m->node == node)
			return m;
	}
}

/* What node was measured to, if it was, and it may be used at r->depth. */
static const struct memo *
memo_get(const struct resolver *r, const json_t *node)
{
	const struct memo *m;

	if (r->memocap == 0 || (m = memo_slot(r, node))->node == NULL ||
	    r->depth + m->size.depth > FL_MAX_REF_DEPTH)
		return NULL;
	return m;
}

static void
memo_put(struct resolver *r, const json_t *node, const struct msize *size)
{
	struct memo *old = r->memo, *m;
	size_t oldcap = r->memocap, i;

	if (2 * (r->nmemo + 1) > r->memocap) {
		r->memocap = oldcap ? 2 * oldcap : 1024;
		r->memo = xcalloc(r->memocap, sizeof(*r->memo));
		for (i = 0; i < oldcap; i++)
			if (old[i].node != NULL)
				*memo_slot(r, old[i].node) = old[i];
		free(old);
	}
	m = memo_slot(r, node);
	if (m->node == NULL)
		r->nmemo++;
	m->node = node;
	m->size = *size;
}

/* Has the pre-pass gone past a bound? */
static int
over(const struct resolver *r)
{
	return r->seen > FL_MAX_NODES || r->seen_bytes > FL_MAX_EXPANDED_BYTES;
}

/*
 * The error for a bound passed at node fptr of file fi: placed there,
 * with the contract path (r->opath) and, when a $ref took it past the
 * bound, that $ref (ref, or NULL).
 */
static void
too_big(struct resolver *r, size_t fi, const char *fptr, const char *ref)
{
	const char *p = r->opath.buf, *sep = r->opath.len ? ": " : "";

	if (r->seen > FL_MAX_NODES)
		error_at(r, fi, fptr, "%s%sresolved contract has more than %u "
		    "nodes", p, sep, FL_MAX_NODES);
	else if (ref != NULL)
		error_at(r, fi, fptr, "%s%s'$ref' '%s' takes the resolved "
		    "contract past %u MiB of strings and keys (aliases and "
		    "$refs expanded)", p, sep, ref,
		    FL_MAX_EXPANDED_BYTES >> 20);
	else
		error_at(r, fi, fptr, "%s%sresolved contract holds more than "
		    "%u MiB of strings and keys (aliases and $refs expanded)",
		    p, sep, FL_MAX_EXPANDED_BYTES >> 20);
	r->failed = 1;
}

/*
 * The pre-pass: what walk() would build from node, found in file fi at
 * fptr, into *out: its nodes, the bytes of its strings and keys, and
 * the deepest $ref nesting below it.  Returns 0, or -1 after adding the
 * error walk() would add first, so that nothing is built for a contract
 * that is refused.
 *
 * A subtree met again (a YAML alias, a fragment that many $refs name)
 * is looked up instead of measured again, so a "$ref bomb" of nine
 * levels of ten $refs, or a large fragment named a thousand times, is
 * refused in time proportional to its files, not to what it would
 * expand to; the $ref (or alias) whose copy passes a bound is where
 * the error is placed.  The lookup is sound for cycles: a subtree
 * measured whole reaches no $ref that leads back into it, whatever
 * $refs led to it.  It is not used where it would pass
 * FL_MAX_REF_DEPTH, so that the error is found in place.
 */
static int
measure(struct resolver *r, json_t *node, size_t fi, struct sb *fptr,
    struct msize *out)
{
	size_t flen = fptr->len, olen = r->opath.len, i, klen;
	struct msize n = { 1, 0, 0 }, c;
	const char *k, *tp;
	const struct memo *m;
	struct sb tptr;
	json_t *v, *target;
	int rc = 0;
	size_t tfi;
	char *key;

	if (!json_is_object(node) && !json_is_array(node)) {
		out->nodes = 1;
		out->bytes = json_is_string(node) ? json_string_length(node) : 0;
		out->depth = 0;
		goto count;
	}
	if ((m = memo_get(r, node)) != NULL) {
		*out = m->size;
		goto count;
	}
	if (++r->seen > FL_MAX_NODES)
		goto toobig;
	if (json_is_object(node) && json_object_get(node, "$ref") != NULL) {
		if ((target = ref_target(r, node, fi, fptr->buf, &tfi, &tp,
		    &key)) == NULL)
			return -1;
		r->stack[r->depth++] = key;
		if ((m = memo_get(r, target)) != NULL ||
		    (!json_is_object(target) && !json_is_array(target))) {
			/*
			 * Counted here, so a bound passed is placed here:
			 * at the $ref, not in the fragment it names.
			 */
			if (m != NULL)
				c = m->size;
			else {
				c.nodes = 1;
				c.bytes = json_is_string(target) ?
				    json_string_length(target) : 0;
				c.depth = 0;
			}
			r->seen += c.nodes;
			r->seen_bytes += c.bytes;
			if (over(r))
				rc = -1;
		} else {
			sb_init(&tptr);
			sb_adds(&tptr, tp);
			rc = measure(r, target, tfi, &tptr, &c);
			sb_release(&tptr);
		}
		free(r->stack[--r->depth]);
		if (rc == -1 && over(r) && !r->failed) {
			too_big(r, fi, fptr->buf, json_string_value(
			    json_object_get(node, "$ref")));
			return -1;
		}
		if (rc == -1)
			return -1;
		n.nodes += c.nodes;
		n.bytes += c.bytes;
		n.depth = c.depth + 1;
	} else if (json_is_object(node)) {
		json_object_keylen_foreach(node, k, klen, v) {
			jptr_push_key(fptr, k);
			ypath_key(&r->opath, k);
			n.bytes += klen;
			if ((r->seen_bytes += klen) > FL_MAX_EXPANDED_BYTES) {
				too_big(r, fi, fptr->buf, NULL);
				return -1;
			}
			rc = measure(r, v, fi, fptr, &c);
			sb_truncate(fptr, flen);
			sb_truncate(&r->opath, olen);
			if (rc == -1)
				return -1;
			n.nodes += c.nodes;
			n.bytes += c.bytes;
			n.depth = c.depth > n.depth ? c.depth : n.depth;
		}
	} else {
		json_array_foreach(node, i, v) {
			jptr_push_index(fptr, i);
			ypath_index(&r->opath, i);
			rc = measure(r, v, fi, fptr, &c);
			sb_truncate(fptr, flen);
			sb_truncate(&r->opath, olen);
			if (rc == -1)
				return -1;
			n.nodes += c.nodes;
			n.bytes += c.bytes;
			n.depth = c.depth > n.depth ? c.depth : n.depth;
		}
	}
	memo_put(r, node, &n);
	*out = n;
	return 0;

count:
	/* A node measured before counts whole, and counts here. */
	r->seen += out->nodes;
	r->seen_bytes += out->bytes;
	if (!over(r))
		return 0;
toobig:
	too_big(r, fi, fptr->buf, NULL);
	return -1;
}

/*
 * Add the position of the next node of the output, in the order of the
 * document (a node, then its children): "[FILE@][LINES],COLUMN" with the
 * file index only when it changes and the line as the difference from
 * the record before ("" for none), or "-" for a node without one.  See
 * diag.h and fluid-ir(5).  A record is made whole here and added at
 * once: one call per node, not one per piece.
 */
static void
put_pos(struct resolver *r, size_t fi, int line, int col)
{
	char rec[4 + 3 * 24], *p = rec;
	long long dl;

	if (r->positions.len > 0)
		*p++ = ' ';
	if (line == 0) {
		*p++ = '-';
		sb_addn(&r->positions, rec, (size_t)(p - rec));
		return;
	}
	if (fi != r->pos_file) {
		p = put_digits(p, fi);
		*p++ = '@';
		r->pos_file = fi;
	}
	dl = (long long)line - r->pos_line;
	if (dl < 0) {
		*p++ = '-';
		p = put_digits(p, (unsigned long long)-dl);
	} else if (dl > 0)
		p = put_digits(p, (unsigned long long)dl);
	r->pos_line = line;
	*p++ = ',';
	p = put_digits(p, (unsigned long long)col);
	sb_addn(&r->positions, rec, (size_t)(p - rec));
}

/*
 * Copy node, found in file fi at fptr, to the output.  inherit
 * is the position of its parent, which it takes when it has none of
 * its own (inside the copy of a YAML alias).
 */
static json_t *
walk(struct resolver *r, json_t *node, size_t fi, struct sb *fptr,
    const int *inherit)
{
	size_t flen = fptr->len, i;
	json_t *out, *child, *v;
	const int *p;
	const char *k;

	if (++r->out_nodes > FL_MAX_NODES) {
		if (!r->failed)
			error_at(r, fi, fptr->buf, "resolved contract has more "
			    "than %u nodes", FL_MAX_NODES);
		r->failed = 1;
		return NULL;
	}
	if (json_is_object(node) && json_object_get(node, "$ref") != NULL)
		return follow(r, node, fi, fptr);
	if ((p = jptab_get(ftab(r, fi), fptr->buf, fptr->len)) == NULL)
		p = inherit;
	put_pos(r, fi, p ? p[0] : 0, p ? p[1] : 0);
	if (json_is_object(node)) {
		out = json_object();
		json_object_foreach(node, k, v) {
			jptr_push_key(fptr, k);
			child = walk(r, v, fi, fptr, p);
			sb_truncate(fptr, flen);
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
			child = walk(r, v, fi, fptr, p);
			sb_truncate(fptr, flen);
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
 * Where the search for a workspace file ends: at d when it is the top
 * of a repository (it holds a .git entry: a directory, or the file of
 * a worktree or submodule) or of the file system, or when its parent
 * lies on another file system (a mount point: a workspace file above
 * a mounted checkout, or in "/" of a build container, is not the
 * project's).
 */
static int
search_ends(const char *d)
{
	struct stat here, up;
	char *git, *parent;
	int end;

	if (strcmp(d, "/") == 0)
		return 1;
	git = xasprintf("%s/.git", d);
	end = lstat(git, &here) == 0;
	free(git);
	if (end)
		return 1;
	parent = dir_of(d);
	end = stat(d, &here) == -1 || stat(parent, &up) == -1 ||
	    here.st_dev != up.st_dev;
	free(parent);
	return end;
}

/*
 * The ref_root ws (rr as written, in the workspace file fi) out of r's
 * source: its path into real, which must be a directory there.  0, or
 * -1 after an error.
 */
static int
ref_root_source(struct resolver *r, size_t fi, const char *ws,
    const char *rr, char *real)
{
	int k;

	if (lexical("/", ws, real) == -1) {
		error_at(r, fi, "/ref_root", "ref_root '%s': %s", rr,
		    strerror(errno));
		return -1;
	}
	if ((k = src_kind(r, real)) == -1)
		return -1;
	if (k != RESOLVE_DIR) {
		error_at(r, fi, "/ref_root", "ref_root '%s' is not a "
		    "directory", rr);
		return -1;
	}
	return 0;
}

/*
 * Find the nearest workspace file at or above dir, up to the top of its
 * repository or file system (search_ends()), and set r->root; without
 * one, the root is dir itself.  Returns -1 after an error.
 */
static int
find_root(struct resolver *r, const char *dir)
{
	char *d = xstrdup(dir), *ws, *up, real[PATH_MAX];
	const char *rr = ".";
	struct stat st;
	json_t *v;
	ssize_t fi;

	for (;;) {
		ws = xasprintf("%s/%s", strcmp(d, "/") ? d : "",
		    RESOLVE_WORKSPACE_FILE);
		if (r->src == NULL ? access(ws, F_OK) == 0 :
		    src_kind(r, ws) != RESOLVE_NONE)
			break;
		free(ws);
		ws = NULL;
		if (r->src == NULL ? search_ends(d) : strcmp(d, "/") == 0 ||
		    strcmp(d, r->src->top) == 0)
			break;
		up = dir_of(d);
		free(d);
		d = up;
	}
	if (ws == NULL) {
		free(d);
		r->root = xstrdup(dir);
		goto open_root;
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
	if (r->src != NULL && ref_root_source(r, (size_t)fi, ws, rr,
	    real) == -1) {
		free(d);
		return free(ws), -1;
	}
	if (r->src == NULL && realpath(ws, real) == NULL) {
		error_at(r, (size_t)fi, "/ref_root", "ref_root '%s': %s", rr,
		    strerror(errno));
		free(d);
		return free(ws), -1;
	}
	free(ws);
	if (r->src == NULL && (stat(real, &st) == -1 ||
	    !S_ISDIR(st.st_mode))) {
		error_at(r, (size_t)fi, "/ref_root", "ref_root '%s' is not a "
		    "directory", rr);
		return free(d), -1;
	}
	/*
	 * The workspace file speaks for its own directory and what lies
	 * below it, never for what lies above: a ref_root of "..", "/" or
	 * a link out would let every contract below read files the
	 * project does not own.  d is a real path (the contract's
	 * directory came from realpath()), real is too.
	 */
	if (!inside(d, real)) {
		error_at(r, (size_t)fi, "/ref_root", "ref_root '%s' lies above "
		    "the workspace file's directory %s", rr, d);
		return free(d), -1;
	}
	free(d);
	r->root = xstrdup(real);
open_root:
	/* A source is read by paths: no directory to walk beneath. */
	if (r->src != NULL)
		return 0;
	if ((r->rootfd = open(r->root, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1) {
		diag_fatal(r->d, "cannot open the workspace root '%s':",
		    r->root);
		return -1;
	}
	return 0;
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
		jptab_free(r->files[i].pos);
		ypos_free(r->files[i].yp);
	}
	free(r->files);
	json_decref(r->byreal);
	free(r->memo);
	free(r->cwd);
	free(r->root);
	if (r->rootfd != -1)
		close(r->rootfd);
	sb_release(&r->positions);
	sb_release(&r->opath);
	/* Released: releasing again does nothing. */
	memset(r, 0, sizeof(*r));
	r->rootfd = -1;
}

json_t *
resolve_run(const struct resolve_opts *o, struct diags *d)
{
	return resolve_run_from(o, NULL, d);
}

json_t *
resolve_run_from(const struct resolve_opts *o,
    const struct resolve_source *src, struct diags *d)
{
	struct resolver r;
	char real[PATH_MAX], *dir, digest[DIGEST_STRLEN];
	json_t *doc = NULL, *files, *section = NULL, *v, *pos;
	struct sb fptr;
	struct msize size;
	ssize_t fi;
	size_t i;
	int want_list, kind;

	memset(&r, 0, sizeof(r));
	r.d = d;
	r.src = src;
	r.rootfd = -1;
	sb_init(&r.positions);
	sb_init(&r.opath);
	r.byreal = json_object();
	dir = NULL;
	if ((r.cwd = getcwd(NULL, 0)) == NULL) {
		diag_fatal(d, "cannot get the working directory:");
		goto out;
	}
	if (src != NULL && o->path == NULL) {
		diag_fatal(d, "a contract read from %s is named, not read "
		    "from standard input", src->label);
		goto out;
	}
	if (src != NULL) {
		if (lexical(r.cwd, o->path, real) == -1) {
			diag_fatal(d, "cannot open '%s':", o->path);
			goto out;
		}
		dir = dir_of(real);
	} else if (o->path != NULL) {
		if (realpath(o->path, real) == NULL) {
			diag_fatal(d, "cannot open '%s':", o->path);
			goto out;
		}
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
	if (src != NULL) {
		/* As below: the file named must be there (status 2). */
		if ((kind = src_kind(&r, real)) != RESOLVE_FILE) {
			if (kind != -1)
				diag_fatal(d, "cannot open '%s%s': %s",
				    src->label, o->path,
				    kind == RESOLVE_NONE ?
				    "No such file" : "not a regular file");
			goto out;
		}
		fi = load_file(&r, real, o->path, NULL);
	} else if (o->path != NULL) {
		/*
		 * The file the user named must be readable: if it is not,
		 * that is the environment's fault (status 2), not the
		 * contract's.
		 */
		FILE *fp = open_regular(real);

		if (fp == NULL && (errno == EISDIR || errno == ENODEV)) {
			diag_fatal(d, "cannot read '%s': not a regular file",
			    o->path);
			goto out;
		}
		if (fp == NULL) {
			diag_fatal(d, "cannot open '%s':", o->path);
			goto out;
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
		if (r.files[0].real != NULL)
			json_object_set_new(r.byreal, r.files[0].real,
			    json_integer(0));
		if (r.files[fi].real != NULL)
			json_object_set_new(r.byreal, r.files[fi].real,
			    json_integer((json_int_t)fi));
		fi = 0;
	}
	want_list = o->fragment && strcmp(o->fragment, "schema") == 0;
	v = r.files[0].doc;
	if (want_list ? !json_is_array(v) : !json_is_object(v)) {
		error_at(&r, 0, "", "%s must be %s at the top level, not %s",
		    o->fragment ? o->fragment : "a contract",
		    want_list ? "a list" : "a mapping", diag_json_kind(v));
		goto out;
	}
	if (r.files[0].yp->refs == 0 && r.files[0].yp->aliases == 0) {
		/*
		 * Nothing to follow and nothing shared: the loaded tree is
		 * the output as it is, within the node limit since it
		 * loaded, and its positions are already in its order.
		 */
		doc = json_incref(r.files[0].doc);
		for (i = 0; i < r.files[0].yp->n; i++)
			put_pos(&r, 0, (int)r.files[0].yp->v[i].line,
			    (int)r.files[0].yp->v[i].col);
		ypos_free(r.files[0].yp);
		r.files[0].yp = NULL;
	} else {
		sb_init(&fptr);
		if (measure(&r, r.files[0].doc, 0, &fptr, &size) == 0)
			doc = walk(&r, r.files[0].doc, 0, &fptr, NULL);
		sb_release(&fptr);
	}
	if (doc == NULL)
		goto out;
	files = json_array();
	for (i = 0; i < r.nfiles; i++)
		json_array_append_new(files, json_string(r.files[i].display));
	/* Digits, '@', ',', '-' and spaces: nothing to check or escape. */
	pos = json_stringn_nocheck(r.positions.buf, r.positions.len);
	/* What was loaded is not needed any more: less to hold at the peak. */
	resolver_release(&r);
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
	json_object_set_new(section, "positions", pos);
	json_object_set_new(section, "digest", json_string(digest));
out:
	free(dir);
	resolver_release(&r);
	return section;
}
