/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * outdir.c - stage, lock, rename, record (see outdir.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "digest.h"
#include "outdir.h"
#include "xalloc.h"

/*
 * Staging directories are BASE.XXXXXX, as mkdtemp() fills them in: six
 * characters, which BASE.lock and BASE.manifest are not.
 */
#define STAGE_SUFFIX	"XXXXXX"
/* A manifest is a short list of names; more is not one of ours. */
#define MANIFEST_MAX	(1024 * 1024)
/* A file larger than this is not hashed again: it is simply kept. */
#define REHASH_MAX	((off_t)256 * 1024 * 1024)

/* Record a failure: errno e (0: none) and a message; returns -1. */
static int fail(struct outdir *, int, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct outdir *od, int e, const char *fmt, ...)
{
	va_list ap;

	free(od->msg);
	va_start(ap, fmt);
	od->msg = xvasprintf(fmt, ap);
	va_end(ap);
	od->err = e;
	outdir_abort(od);
	errno = e != 0 ? e : EINVAL;
	return -1;
}

/* A name a caller may add, and one a manifest may list. */
static int
plain_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (*p == '\0' || *p == '.')
		return 0;
	for (; *p != '\0'; p++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

static int
has_name(char **names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* Remove a directory and the files in it (staged files, no subtree). */
static void
remove_stage(const char *path)
{
	DIR *d;
	struct dirent *e;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(path);
}

/*
 * The staging directories of earlier runs.  The caller holds the lock,
 * and a run makes its staging directory only while it holds it, so any
 * that is there belongs to a run that was killed: its owner is gone.
 */
static void
remove_stale(struct outdir *od)
{
	const char *stem = strrchr(od->base, '/') + 1;
	size_t len = strlen(stem);
	struct dirent *e;
	struct stat st;
	DIR *d;
	char *p;

	if ((d = opendir(od->dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, stem, len) != 0 ||
		    e->d_name[len] != '.' ||
		    strlen(e->d_name + len + 1) != strlen(STAGE_SUFFIX))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    -1 || !S_ISDIR(st.st_mode))
			continue;
		p = xasprintf("%s/%s", od->dir, e->d_name);
		remove_stage(p);
		free(p);
	}
	closedir(d);
}

/*
 * Take BASE.lock.  The lock file is removed by the run that holds it,
 * when it is done, so that DIR keeps only the generated files; a run
 * that got the lock of a file removed meanwhile takes it again, on
 * the file now there, as the lock is the file's and not the name's.
 */
static int
lock(struct outdir *od)
{
	char *path = xasprintf("%s.lock", od->base);
	struct stat a, b;
	int fd, e;

	for (;;) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0644);
		if (fd == -1)
			break;
		while ((e = flock(fd, LOCK_EX)) == -1 && errno == EINTR)
			;
		if (e == -1 || fstat(fd, &a) == -1)
			break;
		if (lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			free(path);
			od->lock = fd;
			return 0;
		}
		close(fd);
	}
	e = errno;
	if (fd != -1)
		close(fd);
	free(path);
	return fail(od, e, "cannot write into '%s'", od->dir);
}

/* Remove the lock file, then let go of it: see lock(). */
static void
unlock(struct outdir *od)
{
	char *path;

	if (od->lock == -1)
		return;
	path = xasprintf("%s.lock", od->base);
	unlink(path);
	free(path);
	close(od->lock);
	od->lock = -1;
}

/*
 * Where this machine keeps what runs into dir wrote, with each file's
 * inode: outside dir, so that dir holds only what two runs on the same
 * contract write byte for byte alike (a committed DIR does not change
 * when generated again, in another clone too), and so that nobody who
 * can commit to a checkout can plant it.  $XDG_STATE_HOME/fluid/outdir/
 * (default ~/.local/state), one file per directory and tag, named after
 * the sha256 of dir's real path and tag.  NULL when there is no such
 * place: then no run removes an old file, as none can prove it wrote it.
 */
static char *
proof_path(const char *dir, const char *tag)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char d[DIGEST_STRLEN], *real, *key, *root;

	if (state != NULL && state[0] == '/')
		root = xasprintf("%s/fluid/outdir", state);
	else if (home != NULL && home[0] == '/')
		root = xasprintf("%s/.local/state/fluid/outdir", home);
	else
		return NULL;
	if ((real = realpath(dir, NULL)) == NULL) {
		free(root);
		return NULL;
	}
	key = xasprintf("%s%c%s", real, '\0', tag);
	digest_bytes(key, strlen(real) + 1 + strlen(tag), d);
	free(key);
	free(real);
	key = xasprintf("%s/%s", root, d + strlen("sha256:"));
	free(root);
	return key;
}

int
outdir_open(struct outdir *od, const char *dir, const char *tag)
{
	struct stat st;

	memset(od, 0, sizeof(*od));
	od->lock = -1;
	od->dir = xstrdup(dir);
	od->base = xasprintf("%s/.fluid-%s", dir, tag);
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return fail(od, 0, "'%s' is not a directory", dir);
	if (atomic_mkdirs(dir) == -1)
		return fail(od, errno, "cannot create '%s'", dir);
	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode))
		return fail(od, 0, "'%s' is not a directory", dir);
	if (lock(od) == -1)
		return -1;
	remove_stale(od);
	od->proof = proof_path(dir, tag);
	od->stage = xasprintf("%s.%s", od->base, STAGE_SUFFIX);
	if (mkdtemp(od->stage) == NULL) {
		free(od->stage);
		od->stage = NULL;
		return fail(od, errno, "cannot write into '%s'", dir);
	}
	return 0;
}

int
outdir_add(struct outdir *od, const char *name, const void *buf,
    size_t len)
{
	char d[DIGEST_STRLEN], *p;
	struct stat st;
	int e;

	if (od->stage == NULL)
		return fail(od, EINVAL, "cannot write '%s/%s'", od->dir, name);
	if (!plain_name(name) || has_name(od->names, od->n, name))
		return fail(od, plain_name(name) ? EEXIST : EINVAL,
		    "cannot write '%s/%s'", od->dir, name);
	p = xasprintf("%s/%s", od->stage, name);
	if (atomic_write(p, buf, len) == -1 || lstat(p, &st) == -1) {
		e = errno;
		free(p);
		return fail(od, e, "cannot write '%s/%s'", od->dir, name);
	}
	free(p);
	/* The rename into DIR keeps the inode: the stamp is the final file's. */
	digest_bytes(buf, len, d);
	od->names = xreallocarray(od->names, od->n + 1, sizeof(*od->names));
	od->stamps = xreallocarray(od->stamps, od->n + 1,
	    sizeof(*od->stamps));
	od->stamps[od->n] = xasprintf("%s %ju", d, (uintmax_t)st.st_ino);
	od->names[od->n++] = xstrdup(name);
	return 0;
}

/*
 * A line of the proof (proof_path()): "sha256:<64 hex> <inode> <name>".  Sets *name to
 * the name in line and ends the stamp before it; 0 when line is not one.
 */
static int
parse_line(char *line, char **name)
{
	char *p = line + strlen("sha256:");
	size_t i;

	if (strncmp(line, "sha256:", 7) != 0)
		return 0;
	for (i = 0; i < 64; i++)
		if (!((p[i] >= '0' && p[i] <= '9') ||
		    (p[i] >= 'a' && p[i] <= 'f')))
			return 0;
	p += 64;
	if (*p++ != ' ' || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != ' ')
		return 0;
	*p = '\0';
	*name = p + 1;
	return 1;
}

/*
 * The files the runs on this machine recorded (the proof, outside DIR),
 * plain names with a stamp only: even that is not trusted, and whatever it says, nothing outside DIR
 * is removed, nor anything inside that is not what a run wrote (see
 * still_ours()).  0, or -1 with errno set; a missing manifest lists
 * nothing.
 */
static int
read_manifest(struct outdir *od, char ***names, char ***stamps, size_t *n)
{
	char *line = NULL, *name;
	size_t cap = 0, total = 0;
	ssize_t len;
	FILE *fp;
	int fd;

	*names = *stamps = NULL;
	*n = 0;
	if (od->proof == NULL)
		return 0;
	fd = open(od->proof, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return errno == ENOENT || errno == ELOOP ? 0 : -1;
	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return -1;
	}
	while ((len = getline(&line, &cap, fp)) != -1 &&
	    (total += (size_t)len) <= MANIFEST_MAX) {
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (!parse_line(line, &name) || !plain_name(name) ||
		    has_name(*names, *n, name))
			continue;
		*names = xreallocarray(*names, *n + 1, sizeof(**names));
		*stamps = xreallocarray(*stamps, *n + 1, sizeof(**stamps));
		(*names)[*n] = xstrdup(name);
		(*stamps)[(*n)++] = xstrdup(line);
	}
	free(line);
	if (ferror(fp)) {
		fclose(fp);
		errno = EIO;
		return -1;
	}
	fclose(fp);
	return 0;
}

/*
 * Whether path (DIR/name) is still the file a run wrote as stamp says: the
 * same inode (which a planted manifest cannot know ahead of the run)
 * and the same bytes (which a user's edit changes).
 */
static int
still_ours(const char *path, const char *stamp)
{
	char d[DIGEST_STRLEN], *buf, *have;
	struct stat st;
	ssize_t got;
	size_t off = 0;
	int fd, ok = 0;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd == -1)
		return 0;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > REHASH_MAX) {
		close(fd);
		return 0;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (off < (size_t)st.st_size &&
	    (got = read(fd, buf + off, (size_t)st.st_size - off)) > 0)
		off += (size_t)got;
	close(fd);
	if (off == (size_t)st.st_size) {
		digest_bytes(buf, off, d);
		have = xasprintf("%s %ju", d, (uintmax_t)st.st_ino);
		ok = strcmp(have, stamp) == 0;
		free(have);
	}
	free(buf);
	return ok;
}

/*
 * Record names, then more, with their stamps, outside DIR (proof_path()),
 * whole or not at all.  Failing to is no failure of the run: the next
 * run then removes fewer files, never more.
 */
static void
write_proof(struct outdir *od, char **names, char **stamps, size_t n,
    char **more, char **mstamps, size_t nmore)
{
	struct sb m;
	size_t i;

	if (od->proof == NULL)
		return;
	sb_init(&m);
	for (i = 0; i < n + nmore; i++) {
		sb_adds(&m, i < n ? stamps[i] : mstamps[i - n]);
		sb_addc(&m, ' ');
		sb_adds(&m, i < n ? names[i] : more[i - n]);
		sb_addc(&m, '\n');
	}
	if (m.buf == NULL)
		sb_adds(&m, "");
	if (atomic_mkparents(od->proof) == 0)
		(void)atomic_write(od->proof, m.buf, m.len);
	sb_release(&m);
}

/*
 * The manifest in DIR: the names this run wrote, each after the sha256
 * of its bytes, by rename into place.  Nothing in it depends on the
 * machine, the directory or the time: two runs on the same contract
 * write the same manifest.
 */
static int
write_manifest(struct outdir *od)
{
	const char *tag = strrchr(od->base, '/') + strlen("/.fluid-");
	char *tmp, *path;
	struct sb m;
	size_t i;
	int rc, e;

	sb_init(&m);
	sb_adds(&m, "# fluid ");
	sb_adds(&m, tag);
	sb_adds(&m, ": the files it wrote here, one a line, each after its\n"
	    "# sha256.  A run removes the files an earlier run on this\n"
	    "# machine wrote here and it does not write again, if they are\n"
	    "# still that file (the proof is kept outside this directory);\n"
	    "# no other file.\n");
	for (i = 0; i < od->n; i++) {
		sb_addn(&m, od->stamps[i], strcspn(od->stamps[i], " "));
		sb_addc(&m, ' ');
		sb_adds(&m, od->names[i]);
		sb_addc(&m, '\n');
	}
	tmp = xasprintf("%s/.manifest", od->stage);
	path = xasprintf("%s.manifest", od->base);
	rc = atomic_write(tmp, m.buf, m.len);
	if (rc == 0 && (rc = rename(tmp, path)) == -1) {
		e = errno;
		unlink(tmp);
		errno = e;
	}
	free(tmp);
	free(path);
	sb_release(&m);
	return rc;
}

static void
free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
outdir_commit(struct outdir *od)
{
	char **old, **ostamp, *from, *to;
	char **gone = NULL, **gstamp = NULL, **keep = NULL, **kstamp = NULL;
	size_t nold, ngone = 0, nkeep = 0, i;
	int e;

	if (od->stage == NULL)
		return fail(od, EINVAL, "cannot write into '%s'", od->dir);
	/* Before anything is renamed: a failure here changes nothing. */
	for (i = 0; i < od->n; i++) {
		to = xasprintf("%s/%s", od->dir, od->names[i]);
		if (atomic_replaceable(to) == -1) {
			e = errno;
			fail(od, e == EEXIST || e == EISDIR ? 0 : e,
			    e == EEXIST || e == EISDIR ? "'%s' is not a "
			    "regular file: not replaced" : "cannot write '%s'",
			    to);
			free(to);
			return -1;
		}
		free(to);
	}
	if (read_manifest(od, &old, &ostamp, &nold) == -1)
		return fail(od, errno, "cannot read '%s.manifest'", od->base);
	for (i = 0; i < nold; i++)
		if (!has_name(od->names, od->n, old[i])) {
			gone = xreallocarray(gone, ngone + 1, sizeof(*gone));
			gstamp = xreallocarray(gstamp, ngone + 1,
			    sizeof(*gstamp));
			gstamp[ngone] = ostamp[i];
			gone[ngone++] = old[i];
		}
	/*
	 * First a manifest of the old files and the new ones, so that
	 * whatever happens next, every file that a run of ours put in DIR
	 * is listed there for the next run to find.
	 */
	if (nold < od->n + ngone)
		write_proof(od, od->names, od->stamps, od->n, gone, gstamp,
		    ngone);
	for (i = 0; i < od->n; i++) {
		from = xasprintf("%s/%s", od->stage, od->names[i]);
		to = xasprintf("%s/%s", od->dir, od->names[i]);
		if (rename(from, to) == -1) {
			e = errno;
			free(from);
			free(gone);
			free(gstamp);
			free_names(old, nold);
			free_names(ostamp, nold);
			fail(od, e, "cannot write '%s'", to);
			free(to);
			return -1;
		}
		free(from);
		free(to);
	}
	/*
	 * The last run's files that this one did not write, if they are
	 * still what it wrote; one that is not is no longer ours, and is
	 * forgotten, not removed.
	 */
	for (i = 0; i < ngone; i++) {
		to = xasprintf("%s/%s", od->dir, gone[i]);
		if (still_ours(to, gstamp[i]) && unlink(to) == -1 &&
		    errno != ENOENT) {
			keep = xreallocarray(keep, nkeep + 1, sizeof(*keep));
			kstamp = xreallocarray(kstamp, nkeep + 1,
			    sizeof(*kstamp));
			kstamp[nkeep] = gstamp[i];
			keep[nkeep++] = gone[i];
		}
		free(to);
	}
	write_proof(od, od->names, od->stamps, od->n, keep, kstamp, nkeep);
	e = write_manifest(od) == -1 ? errno : 0;
	free(keep);
	free(kstamp);
	free(gone);
	free(gstamp);
	free_names(old, nold);
	free_names(ostamp, nold);
	if (e != 0)
		return fail(od, e, "cannot write '%s.manifest'", od->base);
	rmdir(od->stage);
	free(od->stage);
	od->stage = NULL;
	unlock(od);
	return 0;
}

void
outdir_abort(struct outdir *od)
{
	if (od->stage != NULL) {
		remove_stage(od->stage);
		free(od->stage);
		od->stage = NULL;
	}
	unlock(od);
}

void
outdir_close(struct outdir *od)
{
	outdir_abort(od);
	free_names(od->names, od->n);
	free_names(od->stamps, od->n);
	free(od->dir);
	free(od->base);
	free(od->proof);
	free(od->msg);
	memset(od, 0, sizeof(*od));
	od->lock = -1;
}
