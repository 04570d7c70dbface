/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_resolve.c - $ref resolution (resolve.h) in a temporary workspace.
 *
 * The input is up to four files separated by lines "#@": the contract
 * ws/c.yaml, then ws/a.yaml, ws/sub/b.yaml and ws/sub/c.yaml, which its
 * $refs can name.  The workspace also holds what a hostile contract
 * would reach for: ../outside.yaml (outside the root), a symbolic link
 * to it, a link to the root's parent, a FIFO, a directory and the
 * workspace file itself.  A first line "#!KIND" resolves the contract
 * as a fragment of that kind.
 *
 * Properties: no crash, hang or leak; a section iff no error; every
 * position of a section finds a node of its document and names one of
 * its files; every file it lists lies inside the root.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static const char *const parts[] = {
	"c.yaml", "a.yaml", "sub/b.yaml", "sub/c.yaml"
};
#define NPARTS	(sizeof(parts) / sizeof(parts[0]))

static void
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL || fputs(text, fp) == EOF || fclose(fp) == EOF) {
		perror(path);
		exit(2);
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *t = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/fluid-fuzz-resolve.XXXXXX", t && *t ? t :
	    "/tmp");

	(void)argc;
	(void)argv;
	if (mkdtemp(tmpl) == NULL || chdir(tmpl) == -1) {
		perror("fuzz_resolve: workspace");
		exit(2);
	}
	put("outside.yaml", "secret: outside the root\n");
	if (mkdir("ws", 0777) == -1 || chdir("ws") == -1 ||
	    mkdir("sub", 0777) == -1 || mkdir("dir.yaml", 0777) == -1 ||
	    symlink("../outside.yaml", "link.yaml") == -1 ||
	    symlink("..", "up") == -1 || mkfifo("fifo.yaml", 0666) == -1) {
		perror("fuzz_resolve: workspace");
		exit(2);
	}
	put(RESOLVE_WORKSPACE_FILE, "ref_root: .\n");
	free(tmpl);
	/*
	 * The directory stays behind (libFuzzer has no exit hook); it is
	 * small, and tests/fuzz/run runs the target from a scratch TMPDIR.
	 */
	return 0;
}

/*
 * Was the file named name (as "files" lists it) inside the root?  The
 * root is the working directory, so a file inside it is listed by a
 * relative name; an absolute one lies outside.
 */
static int
inside_root(const char *name)
{
	char *real, *cwd;
	int ok;

	if (name[0] == '/')
		return 0;
	if ((real = realpath(name, NULL)) == NULL ||
	    (cwd = getcwd(NULL, 0)) == NULL)
		fuzz_fail("a file listed that is not there");
	ok = strncmp(real, cwd, strlen(cwd)) == 0 &&
	    real[strlen(cwd)] == '/';
	free(real);
	free(cwd);
	return ok;
}

/*
 * diag_locate() every node of doc (ptr is its pointer): each must be
 * placed, in one of files, at a line and column from 1.  The positions
 * are decoded from resolve's records, the way a later stage places a
 * diagnostic.
 */
static void
place_all(struct diags *d, json_t *files, json_t *node, struct sb *ptr,
    int depth)
{
	const char *file, *k;
	json_t *v;
	size_t i, len = ptr->len;
	int line, col;
	bool known = false;

	if (!diag_locate(d, ptr->buf, &file, &line, &col))
		fuzz_fail("a node of the document that cannot be placed");
	json_array_foreach(files, i, v)
		if (file != NULL && strcmp(json_string_value(v), file) == 0)
			known = true;
	if (!known || line < 1 || col < 1)
		fuzz_fail("a node placed outside the files read");
	if (depth > 64)
		return;
	if (json_is_object(node))
		json_object_foreach(node, k, v) {
			jptr_push_key(ptr, k);
			place_all(d, files, v, ptr, depth + 1);
			sb_truncate(ptr, len);
		}
	else if (json_is_array(node))
		json_array_foreach(node, i, v) {
			jptr_push_index(ptr, i);
			place_all(d, files, v, ptr, depth + 1);
			sb_truncate(ptr, len);
		}
}

static void
check_section(json_t *s)
{
	json_t *doc = json_object_get(s, "document");
	json_t *files = json_object_get(s, "files"), *v;
	struct diags d;
	struct sb ptr;
	size_t i;

	if (doc == NULL || !json_is_array(files) || json_array_size(files) == 0)
		fuzz_fail("a section without its document or files");
	json_array_foreach(files, i, v)
		if (!json_is_string(v) || !inside_root(json_string_value(v)))
			fuzz_fail("a $ref read a file outside the root");
	if (!json_is_string(json_object_get(s, "positions")))
		fuzz_fail("positions that are not one string of records");
	/* Every node is placed in a file that was read, at a real line. */
	diags_init(&d);
	diags_set_resolve(&d, s);
	sb_init(&ptr);
	place_all(&d, files, doc, &ptr, 0);
	sb_release(&ptr);
	diags_release(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct resolve_opts o = { "c.yaml", NULL, NULL };
	static const char *const kinds[] = {
		"streamSource", "schema", "recordMapping"
	};
	char *text, *p, *next;
	json_t *section;
	struct diags d;
	size_t i, n = 0;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	text = fuzz_cstr(data, size);
	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (strncmp(text, "#!", 2) == 0 && strncmp(text + 2, kinds[i],
		    strlen(kinds[i])) == 0) {
			o.fragment = kinds[i];
			o.schema_version = "0.7.7";
		}
	for (p = text; p != NULL && n < NPARTS; p = next) {
		next = strstr(p, "\n#@\n");
		if (next != NULL) {
			*next = '\0';
			next += 4;
		}
		put(parts[n++], p);
	}
	free(text);

	diags_init(&d);
	section = resolve_run(&o, &d);
	fuzz_check_diags(&d);
	if ((section != NULL) != (d.nerrors == 0))
		fuzz_fail("a section with errors, or none without");
	if (section != NULL)
		check_section(section);
	json_decref(section);
	diags_release(&d);
	for (i = 0; i < n; i++)
		if (unlink(parts[i]) == -1 && errno != ENOENT)
			exit(2);
	return 0;
}
