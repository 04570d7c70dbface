/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_allow.c - the operator allowlists (allow.h).
 *
 * The input is a matcher's number (its first byte), a list value, then
 * the values to match, separated by newlines.  Properties:
 *
 *  - a matcher never admits what its list does not name: every admitted
 *    value is admitted by a slow reference written here from the rules
 *    of fluid(7), with nothing but string comparisons and inet_pton();
 *  - for the exact and namespaced lists the reference and the matcher
 *    agree both ways on every value that a list entry can hold;
 *  - a link-local address is never admitted, an unset list admits no
 *    name, and an admitted host is normalised (lower case, no trailing
 *    dot, ASCII) and stays the same when normalised again;
 *  - a refusal is one line of printable ASCII (it never echoes a value
 *    an entry could not hold).
 */
#include <arpa/inet.h>
#include <ctype.h>

#include "fuzz.h"

static const char *fuzz_var, *fuzz_val;

static char *
fuzz_getenv(const char *name)
{
	return fuzz_var != NULL && strcmp(name, fuzz_var) == 0 ?
	    (char *)(uintptr_t)fuzz_val : NULL;
}

/* The list's entries, split the plain way. */
struct ref_list {
	char	**v;
	size_t	  n;
};

static void
ref_split(struct ref_list *l, const char *s)
{
	const char *p = s, *end, *a, *b;

	l->n = 0;
	l->v = NULL;
	while (p != NULL) {
		end = strchr(p, ',');
		a = p;
		b = end ? end : p + strlen(p);
		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b > a) {
			l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
			l->v[l->n++] = xstrndup(a, (size_t)(b - a));
		}
		p = end ? end + 1 : NULL;
	}
}

static void
ref_free(struct ref_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static bool
ref_named(const struct ref_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

/* What an entry can hold (allow.h): printable, no blank, quote, comma. */
static bool
ref_holdable(const char *s)
{
	const char *p;

	if (*s == '\0' || strlen(s) > 512)
		return false;
	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._:/@+=~-", *p))
			return false;
	return true;
}

static void
check_msg(const char *why)
{
	const unsigned char *p;

	if (why == NULL || *why == '\0')
		fuzz_fail("a refusal without a message");
	for (p = (const unsigned char *)why; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			fuzz_fail("a refusal that is not one line of "
			    "printable ASCII");
}

/* The classes of an address, from its bytes. */
static int
ref_v4(const unsigned char *b)
{
	if (b[0] == 169 && b[1] == 254)
		return 'L';	/* link-local */
	if (b[0] == 127 || b[0] == 10 || (b[0] == 172 && b[1] >= 16 &&
	    b[1] <= 31) || (b[0] == 192 && b[1] == 168))
		return 'P';	/* private or loopback: no entry needed */
	return 'U';		/* public */
}

static int
ref_class(const char *h)
{
	unsigned char b[16];
	static const unsigned char one[16] = { [15] = 1 };
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (inet_pton(AF_INET, h, b) == 1)
		return ref_v4(b);
	if (inet_pton(AF_INET6, h, b) != 1)
		return 'N';	/* a name */
	if (memcmp(b, mapped, 12) == 0)
		return ref_v4(b + 12);
	if (b[0] == 0xfe && b[1] >= 0x80 && b[1] <= 0xbf)
		return 'L';
	if (memcmp(b, one, 16) == 0 || b[0] == 0xfc || b[0] == 0xfd)
		return 'P';
	return 'U';
}

static bool
ref_loopback(const char *h)
{
	unsigned char b[16];
	static const unsigned char one[16] = { [15] = 1 };

	if (strcmp(h, "localhost") == 0)
		return true;
	if (inet_pton(AF_INET, h, b) == 1)
		return b[0] == 127;
	return inet_pton(AF_INET6, h, b) == 1 && memcmp(b, one, 16) == 0;
}

/* An admitted host h (normalised) is named by an entry of l. */
static bool
ref_host_named(const struct ref_list *l, const char *h)
{
	const char *w;
	char *e;
	size_t i, he, hh = strlen(h);
	bool yes = false;

	for (i = 0; i < l->n && !yes; i++) {
		if ((e = allow_host_normalize(l->v[i], &w)) == NULL)
			continue;
		he = strlen(e);
		yes = strcmp(e, h) == 0 || (ref_class(e) == 'N' &&
		    ref_class(h) == 'N' && hh > he + 1 &&
		    h[hh - he - 1] == '.' && strcmp(h + hh - he, e) == 0);
		free(e);
	}
	return yes;
}

static void
check_host(const struct ref_list *l, const char *s, bool admitted)
{
	const char *w;
	char *h, *again;
	const char *p;

	h = allow_host_normalize(s, &w);
	if (h == NULL) {
		if (admitted)
			fuzz_fail("a host admitted that does not normalise");
		return;
	}
	for (p = h; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
		    !strchr(".-_:", *p))
			fuzz_fail("a normalised host with another character");
	if (strlen(h) > 1 && h[strlen(h) - 1] == '.')
		fuzz_fail("a normalised host with a trailing dot");
	again = allow_host_normalize(h, &w);
	if (again == NULL || strcmp(again, h) != 0)
		fuzz_fail("normalising a normalised host changes it");
	free(again);
	if (admitted) {
		switch (ref_class(h)) {
		case 'L':
			fuzz_fail("a link-local address admitted");
		case 'P':
			break;
		default:
			if (!ref_host_named(l, h))
				fuzz_fail("a host admitted that no entry names");
		}
	}
	free(h);
}

/*
 * The repository Kubernetes pulls, written the slow way: the registry
 * is the first component when it has a '.' or a ':' or is localhost.
 */
static char *
ref_repo(const char *s, bool entry)
{
	char *name = xstrdup(s), *slash, *colon, *out;
	size_t i, reglen;
	bool reg, prefix;

	slash = strrchr(name, '/');
	colon = strrchr(name, ':');
	if (!entry && colon && (!slash || colon > slash))
		*colon = '\0';
	prefix = entry && *name && name[strlen(name) - 1] == '/';
	if (prefix)
		name[strlen(name) - 1] = '\0';
	reglen = strcspn(name, "/");
	reg = (name[reglen] == '/' || prefix) &&
	    (memchr(name, '.', reglen) || memchr(name, ':', reglen) ||
	    (reglen == 9 && strncmp(name, "localhost", 9) == 0));
	for (i = 0; reg && i < reglen; i++)
		name[i] = (char)tolower((unsigned char)name[i]);
	if (reg && reglen == 15 && strncmp(name, "index.docker.io", 15) == 0)
		out = xasprintf("docker.io%s", name + 15);
	else if (reg)
		out = xstrdup(name);
	else
		out = xasprintf("docker.io/%s", name);
	free(name);
	if (strncmp(out, "docker.io/", 10) == 0 && !prefix &&
	    strchr(out + 10, '/') == NULL) {
		name = out;
		out = xasprintf("docker.io/library/%s", name + 10);
		free(name);
	}
	if (prefix) {
		name = out;
		out = xasprintf("%s/", name);
		free(name);
	}
	return out;
}

static void
check_image(const struct ref_list *l, const char *s, bool admitted)
{
	const char *at = strrchr(s, '@');
	char *name, *repo, *e;
	size_t i, n, k;
	bool yes = false;

	if (!admitted)
		return;
	if (at == NULL || strncmp(at, "@sha256:", 8) != 0 ||
	    strlen(at + 8) != 64)
		fuzz_fail("an image admitted without a digest");
	for (k = 8; at[k]; k++)
		if (!strchr("0123456789abcdef", at[k]))
			fuzz_fail("an image admitted with a digest that is not "
			    "hex");
	name = xstrndup(s, (size_t)(at - s));
	repo = ref_repo(name, false);
	for (i = 0; i < l->n && !yes; i++) {
		if (strchr(l->v[i], '@'))
			continue;
		e = ref_repo(l->v[i], true);
		n = strlen(e);
		yes = strcmp(e, repo) == 0 ||
		    (n > 0 && e[n - 1] == '/' && strncmp(repo, e, n) == 0 &&
		    repo[n] != '\0');
		free(e);
	}
	if (!yes)
		fuzz_fail("an image admitted that no entry names");
	free(repo);
	free(name);
}

static void
check_ref(const struct ref_list *l, enum allow_cmd cmd, const char *name,
    const char *s, bool admitted)
{
	const char *w;
	char *h, *eh;
	size_t i, n = strlen(name);
	bool yes = false;

	if (!admitted)
		return;
	if ((h = allow_host_normalize(s, &w)) == NULL)
		fuzz_fail("a credential admitted for a host that does not "
		    "normalise");
	yes = cmd == ALLOW_CMD_VERIFY && ref_loopback(h);
	for (i = 0; i < l->n && !yes; i++) {
		if (strcmp(l->v[i], name) == 0) {
			yes = true;
			break;
		}
		if (strncmp(l->v[i], name, n) != 0 || l->v[i][n] != '@')
			continue;
		eh = allow_host_normalize(l->v[i] + n + 1, &w);
		yes = eh != NULL && strcmp(eh, h) == 0;
		free(eh);
	}
	if (!yes)
		fuzz_fail("a credential paired with a host no entry names");
	free(h);
}

static void
check_sql(const struct ref_list *l, const char *product, const char *build,
    const char *sql, bool admitted)
{
	char d[DIGEST_STRLEN], *pb, *pin;
	size_t i;
	bool yes = false;

	if (!admitted)
		return;
	digest_bytes(sql, strlen(sql), d);
	pb = xasprintf("%s/%s", product, build);
	pin = xasprintf("%s@%s", pb, d);
	for (i = 0; i < l->n && !yes; i++)
		yes = strcmp(l->v[i], product) == 0 ||
		    strcmp(l->v[i], pb) == 0 || strcasecmp(l->v[i], pin) == 0;
	if (!yes)
		fuzz_fail("SQL admitted that no entry names");
	free(pb);
	free(pin);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum allow_list lists[] = {
		ALLOW_KUBE_CONTEXT, ALLOW_NAMESPACE, ALLOW_SERVICE_ACCOUNT,
		ALLOW_IMAGE, ALLOW_HOST, ALLOW_SECRET_REF, ALLOW_SECRET_REF,
		ALLOW_CONTRACT_SQL, ALLOW_HOST
	};
	struct allow a;
	struct ref_list l;
	char *s, *f[4] = { NULL, NULL, NULL, NULL }, *p, *why = NULL;
	unsigned sel;
	size_t i;
	bool ok, unset;

	if (size < 1 || size > 4096)
		return 0;
	sel = data[0] % (sizeof(lists) / sizeof(lists[0]));
	s = fuzz_cstr(data + 1, size - 1);
	/* list value, then up to three values, one a line */
	for (i = 0, p = s; i < 4; i++) {
		f[i] = p;
		if (p == NULL)
			continue;
		if ((p = strchr(p, '\n')) != NULL)
			*p++ = '\0';
	}
	for (i = 1; i < 4; i++)
		if (f[i] == NULL)
			f[i] = (char *)(uintptr_t)"";
	fuzz_var = allow_variable(lists[sel]);
	fuzz_val = f[0];
	allow_load(&a, fuzz_getenv);
	fuzz_var = fuzz_val = NULL;
	ref_split(&l, f[0]);
	unset = l.n == 0;

	switch (sel) {
	case 0:
	case 1:
		ok = sel == 0 ? allow_kube_context(&a, f[1], &why) :
		    allow_namespace(&a, f[1], &why);
		if (ok != (ref_holdable(f[1]) && ref_named(&l, f[1])))
			fuzz_fail("an exact list and its reference disagree");
		break;
	case 2: {
		char *full = xasprintf("%s/%s", f[1], f[2]);
		bool want = ref_holdable(f[1]) && ref_holdable(f[2]) &&
		    !strchr(f[1], '/') && !strchr(f[2], '/') &&
		    (ref_named(&l, f[2]) || ref_named(&l, full));

		ok = allow_service_account(&a, f[1], f[2], &why);
		if (ok != want)
			fuzz_fail("a namespaced list and its reference "
			    "disagree");
		free(full);
		break;
	}
	case 3:
		ok = allow_image(&a, f[1], &why);
		check_image(&l, f[1], ok);
		break;
	case 4:
	case 8:
		ok = allow_host(&a, f[1], &why);
		check_host(&l, f[1], ok);
		if (ok && unset && ref_class(f[1]) == 'N') {
			char *h = allow_host_normalize(f[1], &(const char *){0});

			if (h != NULL && ref_class(h) == 'N')
				fuzz_fail("an unset list admitted a name");
			free(h);
		}
		break;
	case 5:
	case 6:
		ok = allow_secret_ref(&a, sel == 5 ? ALLOW_CMD_APPLY :
		    ALLOW_CMD_VERIFY, f[1], f[2], &why);
		check_ref(&l, sel == 5 ? ALLOW_CMD_APPLY : ALLOW_CMD_VERIFY,
		    f[1], f[2], ok);
		break;
	default:
		ok = allow_contract_sql(&a, f[1], f[2], f[3], &why);
		check_sql(&l, f[1], f[2], f[3], ok);
		break;
	}
	if (ok && why != NULL)
		fuzz_fail("an admitted value with a refusal");
	if (!ok)
		check_msg(why);
	free(why);
	ref_free(&l);
	allow_release(&a);
	free(s);
	return 0;
}
