/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * diff.c - the changes between two checked contracts (see diff.h).
 *
 * Both contracts are walked side by side from the new one: each list
 * (builds, stream columns, struct fields, outputs, table columns) is
 * indexed by name once, so that a 10,000-column contract against itself
 * costs a few lookups per column, never a comparison of all pairs.
 * Where a thing stands is kept twice per side, as the checker keeps it
 * (check_int.h's struct chk_loc): a JSON pointer into the resolved
 * document, for file:line, and the contract path its messages use.
 * The check section lists every column and field in the contract's
 * order (fluid-ir(5)), so the n-th field of the section is the n-th of
 * the contract.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "diff.h"
#include "jget.h"
#include "jptr.h"
#include "scale.h"
#include "types.h"
#include "xalloc.h"

enum { OLD, NEW };

struct side {
	struct diags	 d;		/* only to place pointers */
	json_t		*doc;		/* the resolved contract (borrowed) */
	json_t		*builds;	/* id -> check build */
	json_t		*at;		/* id -> index in doc's builds */
	json_t		*exposes;	/* exposeId -> index in doc's exposes */
	json_t		*writers;	/* exposeId -> check build */
};

/* Where the walk stands on one side. */
struct where {
	struct sb	 ptr;		/* "/builds/0/properties/stream" */
	struct sb	 path;		/* "properties.stream" */
};

struct mark {
	size_t		 ptr[2], path[2];
};

struct entry {
	json_t		*e;
	int		 sev;
	int		 expose;	/* 0 build, 1 expose */
	const char	*name;
	size_t		 seq;
};

struct diff {
	struct side	 s[2];
	struct where	 w[2];
	const char	*key;		/* "build" or "expose" */
	const char	*name;		/* its id */
	struct entry	*v;
	size_t		 n, cap;
};

/* Which sides a change has: a thing added has no old side. */
#define HAS_OLD	1
#define HAS_NEW	2
#define HAS_BOTH (HAS_OLD | HAS_NEW)

static const char *const severities[DIFF_NSEVERITIES] = {
	"breaking", "non-breaking", "info"
};

const char *
diff_severity_name(enum diff_severity s)
{
	return s < DIFF_NSEVERITIES ? severities[s] : "?";
}

static bool
req(json_t *o)
{
	return json_is_true(json_object_get(o, "required"));
}

/* name -> position in list, for the objects of list that have one. */
static json_t *
index_by(json_t *list, const char *key)
{
	json_t *ix = json_object(), *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (json_is_string(json_object_get(v, key)))
			json_object_set_new(ix, jstrz(v, key),
			    json_integer((json_int_t)i));
	return ix;
}

/* The position ix gives name, or -1. */
static long long
pos(json_t *ix, const char *name)
{
	json_t *v = json_object_get(ix, name);

	return v != NULL ? (long long)json_integer_value(v) : -1;
}

static struct mark
mark(const struct diff *x)
{
	struct mark m;
	int i;

	for (i = 0; i < 2; i++) {
		m.ptr[i] = x->w[i].ptr.len;
		m.path[i] = x->w[i].path.len;
	}
	return m;
}

static void
reset(struct diff *x, struct mark m)
{
	int i;

	for (i = 0; i < 2; i++) {
		sb_truncate(&x->w[i].ptr, m.ptr[i]);
		sb_truncate(&x->w[i].path, m.path[i]);
	}
}

static void
set(struct diff *x, int side, const char *ptr, const char *path)
{
	sb_truncate(&x->w[side].ptr, 0);
	sb_adds(&x->w[side].ptr, ptr);
	sb_truncate(&x->w[side].path, 0);
	sb_adds(&x->w[side].path, path);
}

/* A step named in both, the pointer's and the path's: "/stream", ".stream" */
static void
step_key(struct diff *x, int side, const char *key)
{
	jptr_push_key(&x->w[side].ptr, key);
	if (x->w[side].path.len > 0)
		sb_addc(&x->w[side].path, '.');
	sb_adds(&x->w[side].path, key);
}

/* A list element: its index in the pointer, its name in the path. */
static void
step_named(struct diff *x, int side, size_t i, const char *name)
{
	jptr_push_index(&x->w[side].ptr, i);
	if (x->w[side].path.len > 0)
		sb_addc(&x->w[side].path, '.');
	sb_adds(&x->w[side].path, name);
}

/* A step of the pointer only: "fields", which the paths leave out. */
static void
both_ptr_key(struct diff *x, const char *key)
{
	jptr_push_key(&x->w[OLD].ptr, key);
	jptr_push_key(&x->w[NEW].ptr, key);
}

static void
both_key(struct diff *x, const char *key)
{
	step_key(x, OLD, key);
	step_key(x, NEW, key);
}

static json_t *
side_json(struct diff *x, int side, json_t *value)
{
	const char *file = NULL;
	int line = 0, col = 0;

	if (diag_locate(&x->s[side].d, x->w[side].ptr.buf, &file, &line,
	    &col) == 0)
		file = NULL;
	return json_pack("{s:s, s:s?, s:i, s:o}", "path", x->w[side].path.buf,
	    "file", file, "line", line, "value", value ? value : json_null());
}

/*
 * Add a change at the places x stands on the sides has names; ov and nv
 * (stolen, NULL for null) are the values on each side.
 */
static void __attribute__((format(printf, 7, 8)))
add(struct diff *x, enum diff_severity sev, const char *change, int has,
    json_t *ov, json_t *nv, const char *fmt, ...)
{
	va_list ap;
	char *reason;
	json_t *e;

	va_start(ap, fmt);
	reason = xvasprintf(fmt, ap);
	va_end(ap);
	e = json_pack("{s:s, s:s, s:s, s:s}", "severity", severities[sev],
	    x->key, x->name, "change", change, "reason", reason);
	free(reason);
	json_object_set_new(e, "old", has & HAS_OLD ? side_json(x, OLD, ov) :
	    json_null());
	json_object_set_new(e, "new", has & HAS_NEW ? side_json(x, NEW, nv) :
	    json_null());
	if (!(has & HAS_OLD))
		json_decref(ov);
	if (!(has & HAS_NEW))
		json_decref(nv);
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 64;
		x->v = xreallocarray(x->v, x->cap, sizeof(*x->v));
	}
	x->v[x->n].e = e;
	x->v[x->n].sev = (int)sev;
	x->v[x->n].expose = strcmp(x->key, "expose") == 0;
	x->v[x->n].name = x->name;
	x->v[x->n].seq = x->n;
	x->n++;
}

static json_t *
jnew_str(const char *s)
{
	return s != NULL ? json_string(s) : NULL;
}

/* A scalar type name as a struct ty, for ty_scalar_widens(). */
static bool
scalar_of(const char *name, struct ty *t)
{
	struct ty_name tn;
	const char *why;

	memset(t, 0, sizeof(*t));
	if (ty_name_parse(name, &tn, &why) == -1 || ty_is_container(tn.kind))
		return false;
	t->kind = tn.kind;
	t->precision = tn.precision;
	t->scale = tn.scale;
	return true;
}

/* --- properties.stream, read as a reader schema ---------------------- */

static void reader_field(struct diff *, json_t *, json_t *);

/* A field the reader starts to read. */
static void
reader_added(struct diff *x, json_t *n)
{
	if (req(n))
		add(x, DIFF_BREAKING, "required", HAS_NEW, NULL,
		    json_string(jstrz(n, "type")), "a field the job newly "
		    "requires: a record without it can no longer be read");
	else
		add(x, DIFF_NON_BREAKING, "added", HAS_NEW, NULL,
		    json_string(jstrz(n, "type")), "a new optional field: a "
		    "record without it reads it as null");
}

static void
reader_dropped(struct diff *x, json_t *o)
{
	add(x, DIFF_NON_BREAKING, "dropped", HAS_OLD,
	    json_string(jstrz(o, "type")), NULL, "a field the job stops "
	    "reading (an output still reading it fails fluid validate)");
}

/* The fields of two structs, by name. */
static void
reader_fields(struct diff *x, json_t *of, json_t *nf)
{
	json_t *oix = index_by(of, "name"), *nix = index_by(nf, "name"), *f;
	struct mark m = mark(x);
	long long j;
	size_t i;

	json_array_foreach(nf, i, f) {
		j = pos(oix, jstrz(f, "name"));
		if (j >= 0)
			step_named(x, OLD, (size_t)j, jstrz(f, "name"));
		step_named(x, NEW, i, jstrz(f, "name"));
		if (j >= 0)
			reader_field(x, json_array_get(of, (size_t)j), f);
		else
			reader_added(x, f);
		reset(x, m);
	}
	json_array_foreach(of, i, f)
		if (pos(nix, jstrz(f, "name")) < 0) {
			step_named(x, OLD, i, jstrz(f, "name"));
			reader_dropped(x, f);
			reset(x, m);
		}
	json_decref(oix);
	json_decref(nix);
}

/* A type the reader reads another way. */
static void
reader_retyped(struct diff *x, const char *ot, const char *nt)
{
	struct ty a, b;

	if (scalar_of(ot, &a) && scalar_of(nt, &b)) {
		if (ty_scalar_widens(&a, &b)) {
			add(x, DIFF_NON_BREAKING, "widened", HAS_BOTH,
			    json_string(ot), json_string(nt), "a widening: "
			    "every value the job read still fits");
			return;
		}
		if (ty_scalar_widens(&b, &a)) {
			add(x, DIFF_BREAKING, "narrowed", HAS_BOTH,
			    json_string(ot), json_string(nt), "a narrowed "
			    "type: a value the job read may no longer fit");
			return;
		}
	}
	add(x, DIFF_BREAKING, "retyped", HAS_BOTH, json_string(ot),
	    json_string(nt), "a changed type: the records the job read no "
	    "longer match it");
}

/* One child of a container: element, key or value. */
static void
reader_child(struct diff *x, json_t *o, json_t *n, const char *key)
{
	struct mark m = mark(x);

	both_key(x, key);
	reader_field(x, json_object_get(o, key), json_object_get(n, key));
	reset(x, m);
}

/* A field or column on both sides, where x stands. */
static void
reader_field(struct diff *x, json_t *o, json_t *n)
{
	const char *ot = jstrz(o, "type"), *nt = jstrz(n, "type");

	if (!req(o) && req(n))
		add(x, DIFF_BREAKING, "required", HAS_BOTH, json_false(),
		    json_true(), "a field that becomes required: a record "
		    "without it can no longer be read");
	else if (req(o) && !req(n))
		add(x, DIFF_NON_BREAKING, "optional", HAS_BOTH, json_true(),
		    json_false(), "a field that becomes optional: every "
		    "record read before still is");
	if (strcmp(ot, nt) != 0) {
		reader_retyped(x, ot, nt);
		return;
	}
	if (strcmp(nt, "struct") == 0) {
		struct mark m = mark(x);

		both_ptr_key(x, "fields");
		reader_fields(x, json_object_get(o, "fields"),
		    json_object_get(n, "fields"));
		reset(x, m);
	} else if (strcmp(nt, "array") == 0)
		reader_child(x, o, n, "element");
	else if (strcmp(nt, "map") == 0) {
		reader_child(x, o, n, "key");
		reader_child(x, o, n, "value");
	}
}

/*
 * Where the column cols[i] of a build's stream is declared: the value
 * schema, the key's schema or the metadata list, at its position among
 * the columns of its origin (ord).
 */
static void
step_column(struct diff *x, int side, json_t *col, size_t ord)
{
	const char *origin = jstrz(col, "origin");

	if (strcmp(origin, "key") == 0) {
		step_key(x, side, "key");
		step_key(x, side, "schema");
	} else if (strcmp(origin, "metadata") == 0)
		step_key(x, side, "metadata");
	else
		step_key(x, side, "schema");
	step_named(x, side, ord, jstrz(col, "name"));
}

/* Each column's position among those of its origin. */
static size_t *
ordinals(json_t *cols)
{
	size_t *ord = xreallocarray(NULL, json_array_size(cols) + 1,
	    sizeof(*ord));
	size_t i, nv = 0, nk = 0, nm = 0;
	const char *origin;
	json_t *c;

	json_array_foreach(cols, i, c) {
		origin = jstrz(c, "origin");
		if (strcmp(origin, "key") == 0)
			ord[i] = nk++;
		else if (strcmp(origin, "metadata") == 0)
			ord[i] = nm++;
		else
			ord[i] = nv++;
	}
	return ord;
}

/* Two columns of the same name; x stands at the stream on each side. */
static void
stream_column(struct diff *x, json_t *o, json_t *n)
{
	if (strcmp(jstrz(o, "origin"), jstrz(n, "origin")) != 0) {
		add(x, DIFF_BREAKING, "origin", HAS_BOTH,
		    json_string(jstrz(o, "origin")),
		    json_string(jstrz(n, "origin")), "read from another part "
		    "of the record (value, key or metadata)");
		return;
	}
	if (strcmp(jstrz(n, "origin"), "metadata") == 0) {
		/* A metadata column's type is its source's. */
		if (strcmp(jstrz(o, "from"), jstrz(n, "from")) != 0)
			add(x, DIFF_BREAKING, "metadata", HAS_BOTH,
			    json_string(jstrz(o, "from")),
			    json_string(jstrz(n, "from")),
			    "another metadata source");
		return;
	}
	reader_field(x, o, n);
}

static void
stream_columns(struct diff *x, json_t *ocols, json_t *ncols)
{
	json_t *oix = index_by(ocols, "name"), *nix = index_by(ncols, "name");
	size_t *oord = ordinals(ocols), *nord = ordinals(ncols), i;
	struct mark m = mark(x);
	json_t *c, *o;
	long long j;

	json_array_foreach(ncols, i, c) {
		/* append-with-op's operation: the landing's, not read. */
		if (strcmp(jstrz(c, "from"), "operation") == 0)
			continue;
		j = pos(oix, jstrz(c, "name"));
		o = j >= 0 ? json_array_get(ocols, (size_t)j) : NULL;
		if (o != NULL)
			step_column(x, OLD, o, oord[j]);
		step_column(x, NEW, c, nord[i]);
		if (o != NULL)
			stream_column(x, o, c);
		else if (strcmp(jstrz(c, "origin"), "metadata") == 0)
			add(x, DIFF_NON_BREAKING, "added", HAS_NEW, NULL,
			    json_string(jstrz(c, "from")), "a new metadata "
			    "column: Kafka gives it with every record");
		else
			reader_added(x, c);
		reset(x, m);
	}
	json_array_foreach(ocols, i, c)
		if (pos(nix, jstrz(c, "name")) < 0 &&
		    strcmp(jstrz(c, "from"), "operation") != 0) {
			step_column(x, OLD, c, oord[i]);
			reader_dropped(x, c);
			reset(x, m);
		}
	free(oord);
	free(nord);
	json_decref(oix);
	json_decref(nix);
}

/* A string member of the stream on both sides: topic, format. */
static void
stream_word(struct diff *x, json_t *os, json_t *ns, const char *key,
    const char *reason)
{
	struct mark m = mark(x);

	if (strcmp(jstrz(os, key), jstrz(ns, key)) == 0)
		return;
	both_key(x, key);
	add(x, DIFF_BREAKING, key, HAS_BOTH, json_string(jstrz(os, key)),
	    json_string(jstrz(ns, key)), "%s", reason);
	reset(x, m);
}

static void
stream_key(struct diff *x, json_t *ok, json_t *nk)
{
	struct mark m = mark(x);
	const char *of = json_is_object(ok) ? jstrz(ok, "format") : NULL;
	const char *nf = json_is_object(nk) ? jstrz(nk, "format") : NULL;
	int has = (of ? HAS_OLD : 0) | (nf ? HAS_NEW : 0);

	if (of == NULL && nf == NULL)
		return;
	if (of != NULL && nf != NULL && strcmp(of, nf) == 0)
		return;
	if (of != NULL) {
		step_key(x, OLD, "key");
		step_key(x, OLD, "format");
	}
	if (nf != NULL) {
		step_key(x, NEW, "key");
		step_key(x, NEW, "format");
	}
	add(x, DIFF_BREAKING, "key-format", has, jnew_str(of), jnew_str(nf),
	    "%s", of == NULL ? "the job starts reading the record key" :
	    nf == NULL ? "the job stops reading the record key" :
	    "another key format");
	reset(x, m);
}

/*
 * How a stream's changes land: "append" (an append-only stream),
 * "upsert", or "append-with-op (COLUMN)", allocated.
 */
static char *
landing_text(json_t *st)
{
	json_t *ch = json_object_get(st, "changes");
	const char *l = json_string_value(json_object_get(ch, "landing"));
	const char *op = json_string_value(json_object_get(ch,
	    "operationColumn"));

	if (l == NULL)
		return xstrdup("append");
	return op != NULL ? xasprintf("%s (%s)", l, op) : xstrdup(l);
}

/*
 * Another landing gives the table's rows another meaning (each key's
 * last row, or one row per change), and other rows are already there.
 */
static void
landing(struct diff *x, json_t *os, json_t *ns)
{
	struct mark m = mark(x);
	char *o = landing_text(os), *n = landing_text(ns);

	if (strcmp(o, n) != 0) {
		both_key(x, "landing");
		add(x, DIFF_BREAKING, "landing", HAS_BOTH, json_string(o),
		    json_string(n), "another landing of the changes: the "
		    "table's rows would mean something else than the rows "
		    "already written");
		reset(x, m);
	}
	free(o);
	free(n);
}

/* --- the source's security and the change stream's parse errors ---------- */

/* Does a protocol (NULL: no security block, Kafka's PLAINTEXT) use TLS? */
static bool
tls_protocol(const char *p)
{
	return p != NULL && (strcmp(p, "SSL") == 0 ||
	    strcmp(p, "SASL_SSL") == 0);
}

/*
 * Step each side to the source's security block and on down keys (a
 * NULL-terminated path), as far as that side's contract has them (the
 * IR fills in what the contract leaves out), so that each side names
 * the deepest place it holds.
 */
static void
security_at(struct diff *x, json_t *osec, json_t *nsec,
    const char *const *keys)
{
	json_t *sec[2] = { osec, nsec }, *o;
	size_t i;
	int side;

	for (side = OLD; side <= NEW; side++) {
		step_key(x, side, "parameters");
		step_key(x, side, "flink");
		step_key(x, side, "source");
		if (sec[side] == NULL)
			continue;
		o = jptr_get(x->s[side].doc, x->w[side].ptr.buf);
		for (i = 0; (o = json_object_get(o, i == 0 ? "security" :
		    keys[i - 1])) != NULL; i++) {
			step_key(x, side, i == 0 ? "security" : keys[i - 1]);
			if (keys[i] == NULL)
				break;
		}
	}
}

/* The sides that have the security block. */
static int
security_sides(json_t *osec, json_t *nsec)
{
	return (json_is_object(osec) ? HAS_OLD : 0) |
	    (json_is_object(nsec) ? HAS_NEW : 0);
}

/*
 * A protocol without TLS sends the records, and with SASL the
 * credential, in clear text: a move to one from TLS (or the block's
 * removal, which is PLAINTEXT) is breaking, as the contract promised
 * the brokers more than the job now gives them.  Any other move is not.
 */
static void
security_protocol(struct diff *x, json_t *osec, json_t *nsec)
{
	struct mark m = mark(x);
	const char *op = json_is_object(osec) ? jstrz(osec, "protocol") : NULL;
	const char *np = json_is_object(nsec) ? jstrz(nsec, "protocol") : NULL;
	const char *o = op != NULL ? op : "PLAINTEXT";
	const char *n = np != NULL ? np : "PLAINTEXT";
	bool weaker = tls_protocol(op) && !tls_protocol(np);

	if (strcmp(o, n) == 0)
		return;
	security_at(x, osec, nsec, (const char *const[]){ "protocol",
	    NULL });
	add(x, weaker ? DIFF_BREAKING : DIFF_NON_BREAKING, "security-protocol",
	    security_sides(osec, nsec), jnew_str(op), jnew_str(np),
	    "%s%s to %s%s%s", weaker ? "a weaker protocol: " :
	    "another protocol: ", o, n, np == NULL ? " (no source.security)" :
	    "", weaker ? ": the job would send the records, and with SASL "
	    "the credential, to the brokers without TLS" : "");
	reset(x, m);
}

/* The member at keys (NULL-terminated) of the security block. */
static void
security_member(struct diff *x, json_t *osec, json_t *nsec,
    const char *const *keys, const char *change, const char *reason)
{
	struct mark m = mark(x);
	json_t *o = osec, *n = nsec;
	size_t i;

	for (i = 0; keys[i] != NULL; i++) {
		o = json_object_get(o, keys[i]);
		n = json_object_get(n, keys[i]);
	}
	if (json_is_null(o))
		o = NULL;
	if (json_is_null(n))
		n = NULL;
	if ((o == NULL && n == NULL) || (o != NULL && n != NULL &&
	    json_equal(o, n)))
		return;
	security_at(x, osec, nsec, keys);
	add(x, DIFF_NON_BREAKING, change, security_sides(osec, nsec),
	    json_incref(o), json_incref(n), "%s", reason);
	reset(x, m);
}

/* The variables the job reads, as a set. */
static bool
same_names(json_t *a, json_t *b)
{
	json_t *e, *f;
	size_t i, j;

	if (json_array_size(a) != json_array_size(b))
		return false;
	json_array_foreach(a, i, e) {
		json_array_foreach(b, j, f)
			if (json_equal(e, f))
				break;
		if (j == json_array_size(b))
			return false;
	}
	return true;
}

static void
security(struct diff *x, json_t *os, json_t *ns)
{
	struct mark m = mark(x);
	json_t *osec = json_object_get(json_object_get(os, "source"),
	    "security");
	json_t *nsec = json_object_get(json_object_get(ns, "source"),
	    "security");
	json_t *ov = json_object_get(osec, "variables");
	json_t *nv = json_object_get(nsec, "variables");

	if (!json_is_object(osec))
		osec = NULL;
	if (!json_is_object(nsec))
		nsec = NULL;
	if (osec == NULL && nsec == NULL)
		return;
	security_protocol(x, osec, nsec);
	security_member(x, osec, nsec, (const char *const[]){ "sasl",
	    "mechanism", NULL }, "security-mechanism", "another SASL mechanism: the brokers "
	    "must accept it for the job's user");
	security_member(x, osec, nsec, (const char *const[]){ "tls",
	    "truststore", NULL }, "security-truststore", "another truststore: the pod must hold "
	    "it, and it must trust the brokers' certificates");
	security_member(x, osec, nsec, (const char *const[]){ "tls",
	    "keystore", NULL }, "security-keystore", "another client keystore: the pod must "
	    "hold it, and the brokers must accept its certificate");
	if (!same_names(ov, nv)) {
		security_at(x, osec, nsec, (const char *const[]){ NULL });
		add(x, DIFF_NON_BREAKING, "security-variables",
		    security_sides(osec, nsec), ov ? json_incref(ov) : NULL,
		    nv ? json_incref(nv) : NULL, "other credential variables: "
		    "the Secrets in deployment.secretRefs must hold them, and "
		    "fluid apply pairs each with every broker");
		reset(x, m);
	}
}

/*
 * maxParseErrors of a change stream: 0 fails the job on a malformed
 * record, unbounded skips it.  From 0 to unbounded rows go missing
 * without a failure, which a consumer relying on every change cannot
 * see: breaking.  Back to 0 the job fails instead of losing: not.
 */
static void
parse_errors(struct diff *x, json_t *os, json_t *ns)
{
	struct mark m = mark(x);
	json_t *och = json_object_get(os, "changes");
	json_t *nch = json_object_get(ns, "changes");
	bool oi = json_is_true(json_object_get(och, "ignoreParseErrors"));
	bool ni = json_is_true(json_object_get(nch, "ignoreParseErrors"));
	int side;

	if (!json_is_object(och) || !json_is_object(nch) || oi == ni)
		return;
	for (side = OLD; side <= NEW; side++)
		if (jptr_get(x->s[side].doc, x->w[side].ptr.buf) != NULL &&
		    json_object_get(jptr_get(x->s[side].doc,
		    x->w[side].ptr.buf), "maxParseErrors") != NULL)
			step_key(x, side, "maxParseErrors");
	add(x, ni ? DIFF_BREAKING : DIFF_NON_BREAKING, "max-parse-errors",
	    HAS_BOTH, oi ? json_string("unbounded") : json_integer(0),
	    ni ? json_string("unbounded") : json_integer(0), "%s", ni ?
	    "from 0 to unbounded: a malformed change is skipped, and its row "
	    "goes missing from the table without the job failing" :
	    "from unbounded to 0: a malformed change fails the job instead "
	    "of being skipped");
	reset(x, m);
}

static void
stream(struct diff *x, json_t *os, json_t *ns)
{
	struct mark m = mark(x);

	both_key(x, "properties");
	landing(x, os, ns);
	security(x, os, ns);
	both_key(x, "stream");
	parse_errors(x, os, ns);
	stream_word(x, os, ns, "topic", "another topic");
	stream_word(x, os, ns, "format", "another value format");
	stream_key(x, json_object_get(os, "key"), json_object_get(ns, "key"));
	stream_columns(x, json_object_get(os, "columns"),
	    json_object_get(ns, "columns"));
	reset(x, m);
}

/* --- the mapping: explode and outputs -------------------------------- */

/* A path expression as the contract writes it: customer.address, m['k']. */
static void
path_text(json_t *e, struct sb *sb)
{
	json_t *s;
	size_t i;

	sb_adds(sb, jstrz(e, "root"));
	json_array_foreach(json_object_get(e, "steps"), i, s) {
		if (json_is_string(json_object_get(s, "field"))) {
			sb_addc(sb, '.');
			sb_adds(sb, jstrz(s, "field"));
		} else {
			sb_adds(sb, "['");
			sb_adds(sb, jstrz(s, "key"));
			sb_adds(sb, "']");
		}
	}
}

/*
 * An output's expression in two parts: where it is read from (src) and
 * the conversion on the way ("" for none).  A struct built field by
 * field reads from its fields: its own text is its field names.
 */
static void
expr_text(json_t *e, struct sb *src, struct sb *conv)
{
	const char *op = jstrz(e, "op");
	json_t *f;
	size_t i;

	if (strcmp(op, "cast") == 0 || strcmp(op, "widen") == 0) {
		if (conv->len > 0)
			sb_adds(conv, ", ");
		sb_adds(conv, strcmp(op, "cast") == 0 ? "cast: " :
		    "widened to ");
		sb_adds(conv, jstrz(e, "type"));
		expr_text(json_object_get(e, "arg"), src, conv);
	} else if (strcmp(op, "path") == 0)
		path_text(e, src);
	else if (strcmp(op, "struct") == 0) {
		sb_addc(src, '{');
		json_array_foreach(json_object_get(e, "fields"), i, f) {
			if (i > 0)
				sb_adds(src, ", ");
			sb_adds(src, jstrz(f, "name"));
		}
		sb_addc(src, '}');
	} else
		sb_adds(src, op);
}

static json_t *
expr_value(struct sb *src, struct sb *conv)
{
	json_t *v;
	char *s;

	if (conv->len == 0)
		return json_string(src->buf);
	s = xasprintf("%s (%s)", src->buf, conv->buf);
	v = json_string(s);
	free(s);
	return v;
}

/*
 * Where output name (a dotted name for a nested one) is decided on side:
 * its mapping entry, or, read by name, the expose's column.
 */
static void
step_output(struct diff *x, int side, json_t *mix, json_t *xpos,
    const char *build_ptr, const char *name, const char *top)
{
	long long k = pos(mix, name);
	char *p;

	if (k >= 0) {
		p = xasprintf("%s/properties/mapping/columns/%lld/from",
		    build_ptr, (long long)k);
		sb_truncate(&x->w[side].ptr, 0);
		sb_adds(&x->w[side].ptr, p);
		free(p);
		sb_truncate(&x->w[side].path, 0);
		sb_addf(&x->w[side].path, "properties.mapping.columns[%lld]"
		    ".from", k);
		return;
	}
	k = pos(json_object_get(xpos, "columns"), top);
	sb_truncate(&x->w[side].ptr, 0);
	sb_truncate(&x->w[side].path, 0);
	sb_addf(&x->w[side].ptr, "/exposes/%lld/contract/schema",
	    (long long)json_integer_value(json_object_get(xpos, "at")));
	sb_addf(&x->w[side].path, "exposes[%lld].contract.schema",
	    (long long)json_integer_value(json_object_get(xpos, "at")));
	if (k >= 0)
		step_named(x, side, (size_t)k, top);
}

struct outputs {
	json_t		*mix[2];	/* mapping entry name -> index */
	json_t		*xpos[2];	/* {"at": expose index, "columns": ix} */
	const char	*bptr[2];	/* the build's pointer */
};

static void
output(struct diff *x, struct outputs *ou, const char *name,
    const char *top, json_t *oe, json_t *ne)
{
	struct sb os, oc, ns, nc, sub;
	json_t *oix, *f;
	long long j;
	size_t i;
	int s;

	if (strcmp(jstrz(oe, "op"), "sql") == 0 ||
	    strcmp(jstrz(ne, "op"), "sql") == 0)
		return;		/* the SQL is compared whole */
	if (strcmp(jstrz(oe, "op"), "struct") == 0 &&
	    strcmp(jstrz(ne, "op"), "struct") == 0) {
		/* Added and removed fields are the table's changes. */
		oix = index_by(json_object_get(oe, "fields"), "name");
		sb_init(&sub);
		json_array_foreach(json_object_get(ne, "fields"), i, f) {
			j = pos(oix, jstrz(f, "name"));
			if (j < 0)
				continue;
			sb_truncate(&sub, 0);
			sb_addf(&sub, "%s.%s", name, jstrz(f, "name"));
			output(x, ou, sub.buf, top, json_object_get(
			    json_array_get(json_object_get(oe, "fields"),
			    (size_t)j), "expr"), json_object_get(f, "expr"));
		}
		sb_release(&sub);
		json_decref(oix);
		return;
	}
	sb_init(&os);
	sb_init(&oc);
	sb_init(&ns);
	sb_init(&nc);
	expr_text(oe, &os, &oc);
	expr_text(ne, &ns, &nc);
	if (strcmp(os.buf, ns.buf) != 0 ||
	    strcmp(oc.buf, nc.buf) != 0) {
		for (s = OLD; s <= NEW; s++)
			step_output(x, s, ou->mix[s], ou->xpos[s],
			    ou->bptr[s], name, top);
		add(x, DIFF_NON_BREAKING, "read-from", HAS_BOTH,
		    expr_value(&os, &oc), expr_value(&ns, &nc),
		    "output %s is read %s: review that it is the same data",
		    name, strcmp(os.buf, ns.buf)
		    != 0 ? "from another path" : "with another conversion");
	}
	sb_release(&os);
	sb_release(&oc);
	sb_release(&ns);
	sb_release(&nc);
}

/* {"at": the expose's index, "columns": its schema's name -> index} */
static json_t *
expose_pos(struct side *sd, json_t *b)
{
	const char *xid = jstrz(b, "expose");
	long long at = pos(sd->exposes, xid);

	return json_pack("{s:I, s:o}", "at", (json_int_t)at, "columns",
	    index_by(json_object_get(json_object_get(b, "table"), "columns"),
	    "name"));
}

static void
outputs(struct diff *x, json_t *ob, json_t *nb, const char *obptr,
    const char *nbptr)
{
	struct outputs ou;
	json_t *oix, *o, *n, *props;
	struct mark m = mark(x);
	long long j;
	size_t i;
	int s;

	ou.bptr[OLD] = obptr;
	ou.bptr[NEW] = nbptr;
	for (s = OLD; s <= NEW; s++) {
		props = json_object_get(jptr_get(x->s[s].doc, ou.bptr[s]),
		    "properties");
		ou.mix[s] = index_by(json_object_get(json_object_get(props,
		    "mapping"), "columns"), "name");
		ou.xpos[s] = expose_pos(&x->s[s], s == OLD ? ob : nb);
	}
	o = json_object_get(ob, "outputs");
	oix = index_by(o, "name");
	json_array_foreach(json_object_get(nb, "outputs"), i, n) {
		j = pos(oix, jstrz(n, "name"));
		if (j >= 0)
			output(x, &ou, jstrz(n, "name"), jstrz(n, "name"),
			    json_object_get(json_array_get(o, (size_t)j),
			    "expr"), json_object_get(n, "expr"));
		reset(x, m);
	}
	json_decref(oix);
	for (s = OLD; s <= NEW; s++) {
		json_decref(ou.mix[s]);
		json_decref(ou.xpos[s]);
	}
}

static void
explode(struct diff *x, json_t *oe, json_t *ne)
{
	struct mark m = mark(x);
	struct sb a, b, c;
	int has = (json_is_object(oe) ? HAS_OLD : 0) |
	    (json_is_object(ne) ? HAS_NEW : 0);
	json_t *ov, *nv;

	if (has == 0)
		return;
	sb_init(&a);
	sb_init(&b);
	sb_init(&c);
	if (has & HAS_OLD)
		expr_text(json_object_get(oe, "path"), &a, &c);
	if (has & HAS_NEW)
		expr_text(json_object_get(ne, "path"), &b, &c);
	ov = has & HAS_OLD ? json_string(a.buf) : NULL;
	nv = has & HAS_NEW ? json_string(b.buf) : NULL;
	both_key(x, "properties");
	both_key(x, "mapping");
	both_key(x, "explode");
	both_key(x, "path");
	if (has != HAS_BOTH || strcmp(a.buf, b.buf) != 0)
		add(x, DIFF_BREAKING, "explode", has, ov, nv, "an explode %s: "
		    "it changes how many rows a record becomes",
		    has == HAS_NEW ? "added" : has == HAS_OLD ? "removed" :
		    "moved");
	else {
		json_decref(ov);
		json_decref(nv);
	}
	reset(x, m);
	sb_release(&a);
	sb_release(&b);
	sb_release(&c);
}

static void
own_sql(struct diff *x, json_t *ob, json_t *nb)
{
	struct mark m = mark(x);
	const char *os = json_string_value(json_object_get(ob, "sql"));
	const char *ns = json_string_value(json_object_get(nb, "sql"));

	if (os == NULL && ns == NULL)
		return;
	if (os != NULL && ns != NULL && strcmp(os, ns) == 0)
		return;
	both_key(x, "properties");
	both_key(x, "sql");
	if (os == NULL)
		add(x, DIFF_BREAKING, "sql", HAS_BOTH, NULL, json_string(ns),
		    "the build starts running its own SQL, with the job's "
		    "catalog identity");
	else if (ns == NULL)
		add(x, DIFF_NON_BREAKING, "sql", HAS_BOTH, json_string(os),
		    NULL, "the build stops running its own SQL: review the "
		    "mapping that replaces it");
	else
		add(x, DIFF_BREAKING, "sql", HAS_BOTH, json_string(os),
		    json_string(ns), "the build's own SQL changes");
	reset(x, m);
}

/* The deployment's sizing (scale.h, with its defaults) at key. */
static void
scale_change(struct diff *x, enum diff_severity sev, const char *key,
    json_t *ov, json_t *nv, const char *why)
{
	struct mark m = mark(x);

	if (json_equal(ov, nv)) {
		json_decref(ov);
		json_decref(nv);
		return;
	}
	both_key(x, key);
	add(x, sev, key, HAS_BOTH, ov, nv, "%s", why);
	reset(x, m);
}

static json_t *
scale_pod_json(const struct scale *s, const struct scale_pod *p)
{
	json_t *r = scale_resource(p);

	if (p == &s->tm)
		json_object_set_new(r, "slots", json_integer(s->slots));
	return r;
}

static json_t *
scale_as_json(const struct scale *s)
{
	if (!s->autoscaler)
		return json_null();
	return json_pack("{s:b, s:I, s:I, s:f}", "enabled", s->as_enabled,
	    "minParallelism", (json_int_t)s->as_min, "maxParallelism",
	    (json_int_t)s->as_max, "targetUtilization", s->as_target);
}

/*
 * A rescale is a savepoint upgrade: the state comes along, for review.
 * The key groups are the state's own: a change cannot restore.
 */
static void
scaling(struct diff *x, json_t *ob, json_t *nb)
{
	struct mark m = mark(x);
	struct scale o, n;

	if (scale_read(json_object_get(ob, "deployment"), &o) != NULL)
		return;
	if (scale_read(json_object_get(nb, "deployment"), &n) != NULL) {
		scale_release(&o);
		return;
	}
	both_key(x, "properties");
	both_key(x, "parameters");
	both_key(x, "flink");
	both_key(x, "deployment");
	scale_change(x, DIFF_BREAKING, "maxParallelism",
	    json_integer(o.max_parallelism), json_integer(n.max_parallelism),
	    "the job's key groups change: its keyed state is stored by key "
	    "group and cannot be restored with another number (fluid apply "
	    "refuses it for a live deployment): start a new deployment, "
	    "under a new name");
	scale_change(x, DIFF_NON_BREAKING, "parallelism",
	    json_integer(o.parallelism), json_integer(n.parallelism),
	    "the job rescales: the operator stops it with a savepoint and "
	    "starts it from there at the new parallelism, for review");
	scale_change(x, DIFF_NON_BREAKING, "taskManager",
	    scale_pod_json(&o, &o.tm), scale_pod_json(&n, &n.tm),
	    "the TaskManagers' resources change: a savepoint upgrade, for "
	    "review (the namespace's quota must hold them)");
	scale_change(x, DIFF_NON_BREAKING, "jobManager",
	    scale_resource(&o.jm), scale_resource(&n.jm),
	    "the JobManager's resources change: a savepoint upgrade, for "
	    "review (the namespace's quota must hold them)");
	scale_change(x, DIFF_NON_BREAKING, "autoscaler", scale_as_json(&o),
	    scale_as_json(&n), "the operator's autoscaler changes: it "
	    "rescales the job within its bounds by savepoint upgrades, for "
	    "review");
	scale_release(&o);
	scale_release(&n);
	reset(x, m);
}

/* The pointer to the build id on side (a new string). */
static char *
build_ptr(struct diff *x, int side, const char *id)
{
	return xasprintf("/builds/%lld", pos(x->s[side].at, id));
}

static void
build_both(struct diff *x, json_t *ob, json_t *nb)
{
	char *op = build_ptr(x, OLD, x->name), *np = build_ptr(x, NEW,
	    x->name);

	set(x, OLD, op, "");
	set(x, NEW, np, "");
	stream(x, json_object_get(ob, "stream"), json_object_get(nb,
	    "stream"));
	explode(x, json_object_get(ob, "explode"), json_object_get(nb,
	    "explode"));
	outputs(x, ob, nb, op, np);
	set(x, OLD, op, "");
	set(x, NEW, np, "");
	own_sql(x, ob, nb);
	scaling(x, ob, nb);
	free(op);
	free(np);
}

/* A build on one side only: a new (or renamed) build, or one gone. */
static void
build_one(struct diff *x, int side, json_t *b)
{
	char *p = build_ptr(x, side, x->name);
	const char *sql = json_string_value(json_object_get(b, "sql"));
	const char *topic = jstrz(json_object_get(b, "stream"), "topic");

	set(x, side, p, "");
	step_key(x, side, "properties");
	if (side == NEW && sql != NULL) {
		step_key(x, side, "sql");
		add(x, DIFF_BREAKING, "sql", HAS_NEW, NULL, json_string(sql),
		    "a new or renamed build that runs its own SQL, with the "
		    "job's catalog identity");
	} else {
		step_key(x, side, "stream");
		if (side == NEW)
			add(x, DIFF_INFO, "stream", HAS_NEW, NULL,
			    json_string(topic), "a new or renamed build "
			    "declares its stream");
		else
			add(x, DIFF_INFO, "stream", HAS_OLD,
			    json_string(topic), NULL, "a build that is gone "
			    "drops its stream");
	}
	free(p);
}

/* --- the output table: the expose rules ------------------------------ */

static void table_column(struct diff *, json_t *, json_t *);

/* Two columns alike but for their names (a rename's two halves). */
static bool
alike(json_t *a, json_t *b)
{
	json_t *ca = json_copy(a), *cb = json_copy(b);
	bool eq;

	json_object_del(ca, "name");
	json_object_del(cb, "name");
	eq = json_equal(ca, cb);
	json_decref(ca);
	json_decref(cb);
	return eq;
}

/* Each column's rank among those both lists have. */
static long long *
ranks(json_t *list, json_t *other)
{
	long long *r = xreallocarray(NULL, json_array_size(list) + 1,
	    sizeof(*r)), k = 0;
	json_t *c;
	size_t i;

	json_array_foreach(list, i, c)
		r[i] = pos(other, jstrz(c, "name")) >= 0 ? k++ : -1;
	return r;
}

static void
table_columns(struct diff *x, json_t *oc, json_t *nc)
{
	json_t *oix = index_by(oc, "name"), *nix = index_by(nc, "name"), *c;
	json_t *o;
	long long *orank = ranks(oc, nix), *nrank = ranks(nc, oix), j;
	bool *renamed = xcalloc(json_array_size(oc) + 1, sizeof(*renamed));
	struct mark m = mark(x);
	size_t i;

	json_array_foreach(nc, i, c) {
		j = pos(oix, jstrz(c, "name"));
		o = json_array_get(oc, j >= 0 ? (size_t)j : i);
		step_named(x, NEW, i, jstrz(c, "name"));
		if (j >= 0) {
			step_named(x, OLD, (size_t)j, jstrz(c, "name"));
			if (orank[j] != nrank[i])
				add(x, DIFF_BREAKING, "reordered", HAS_BOTH,
				    json_integer(j), json_integer(
				    (json_int_t)i), "a column in another "
				    "place: the table's columns must be in "
				    "the contract's order");
			table_column(x, o, c);
		} else if (o != NULL && pos(nix, jstrz(o, "name")) < 0 &&
		    alike(o, c)) {
			/* The same column in the same place, named anew. */
			renamed[i] = true;
			step_named(x, OLD, i, jstrz(o, "name"));
			add(x, DIFF_BREAKING, "renamed", HAS_BOTH,
			    json_string(jstrz(o, "name")),
			    json_string(jstrz(c, "name")), "a renamed column "
			    "needs an Iceberg migration");
		} else if (req(c))
			add(x, DIFF_BREAKING, "added", HAS_NEW, NULL,
			    json_string(jstrz(c, "type")), "a column added as "
			    "required: the table's rows have no value for it");
		else
			add(x, DIFF_NON_BREAKING, "added", HAS_NEW, NULL,
			    json_string(jstrz(c, "type")), "a column added as "
			    "optional (the table still needs the column "
			    "added before the job starts)");
		reset(x, m);
	}
	json_array_foreach(oc, i, c)
		if (pos(nix, jstrz(c, "name")) < 0 && !renamed[i]) {
			step_named(x, OLD, i, jstrz(c, "name"));
			add(x, DIFF_BREAKING, "removed", HAS_OLD,
			    json_string(jstrz(c, "type")), NULL, "a removed "
			    "column needs an Iceberg migration");
			reset(x, m);
		}
	free(orank);
	free(nrank);
	free(renamed);
	json_decref(oix);
	json_decref(nix);
}

static void
table_child(struct diff *x, json_t *o, json_t *n, const char *key)
{
	struct mark m = mark(x);

	both_key(x, key);
	table_column(x, json_object_get(o, key), json_object_get(n, key));
	reset(x, m);
}

static void
table_column(struct diff *x, json_t *o, json_t *n)
{
	const char *ot = jstrz(o, "type"), *nt = jstrz(n, "type");
	json_t *od = json_object_get(o, "description");
	json_t *nd = json_object_get(n, "description");

	/* Seen, not judged: a comment changes no value of the table. */
	if (!json_equal(od, nd) && (od != NULL || nd != NULL))
		add(x, DIFF_INFO, "described", HAS_BOTH, json_incref(od),
		    json_incref(nd), "another description: a table the job "
		    "creates has it as its comment and doc, an existing table "
		    "keeps its own");
	if (req(o) != req(n))
		add(x, DIFF_BREAKING, "requiredness", HAS_BOTH,
		    json_boolean(req(o)), json_boolean(req(n)), "a change of "
		    "requiredness needs an Iceberg migration");
	if (strcmp(ot, nt) != 0) {
		add(x, DIFF_BREAKING, "retyped", HAS_BOTH, json_string(ot),
		    json_string(nt), "a type change needs an Iceberg "
		    "migration, a widening too: the runner compares the "
		    "table exactly");
		return;
	}
	if (strcmp(nt, "struct") == 0) {
		struct mark m = mark(x);

		both_ptr_key(x, "fields");
		table_columns(x, json_object_get(o, "fields"),
		    json_object_get(n, "fields"));
		reset(x, m);
	} else if (strcmp(nt, "array") == 0)
		table_child(x, o, n, "element");
	else if (strcmp(nt, "map") == 0) {
		table_child(x, o, n, "key");
		table_child(x, o, n, "value");
	}
}

static void
expose_set(struct diff *x, int side, const char *xid)
{
	char *p = xasprintf("/exposes/%lld", pos(x->s[side].exposes, xid));
	char *q = xasprintf("exposes[%lld]", pos(x->s[side].exposes, xid));

	set(x, side, p, q);
	free(p);
	free(q);
}

static json_t *
table_name(json_t *t)
{
	char *s = xasprintf("%s.%s", jstrz(t, "namespace"), jstrz(t, "name"));
	json_t *v = json_string(s);

	free(s);
	return v;
}

static void
expose_both(struct diff *x, json_t *ot, json_t *nt)
{
	struct mark m;
	int s;

	for (s = OLD; s <= NEW; s++)
		expose_set(x, s, x->name);
	m = mark(x);
	if (!json_equal(json_object_get(ot, "namespace"),
	    json_object_get(nt, "namespace")) || !json_equal(
	    json_object_get(ot, "name"), json_object_get(nt, "name"))) {
		both_key(x, "binding");
		both_key(x, "location");
		add(x, DIFF_INFO, "table", HAS_BOTH, table_name(ot),
		    table_name(nt), "another table: the job creates it if it "
		    "is missing, and the old one receives no more rows");
		reset(x, m);
	}
	both_key(x, "contract");
	both_key(x, "schema");
	table_columns(x, json_object_get(ot, "columns"),
	    json_object_get(nt, "columns"));
	reset(x, m);
	if (!json_equal(json_object_get(ot, "partitionBy"),
	    json_object_get(nt, "partitionBy"))) {
		both_key(x, "binding");
		both_key(x, "icebergConfig");
		both_key(x, "partitionSpec");
		add(x, DIFF_BREAKING, "partition", HAS_BOTH,
		    json_incref(json_object_get(ot, "partitionBy")),
		    json_incref(json_object_get(nt, "partitionBy")),
		    "a partition change needs an Iceberg migration");
		reset(x, m);
	}
	/* json_equal() of two NULLs is false: no key on either side. */
	if ((json_object_get(ot, "primaryKey") != NULL ||
	    json_object_get(nt, "primaryKey") != NULL) &&
	    !json_equal(json_object_get(ot, "primaryKey"),
	    json_object_get(nt, "primaryKey"))) {
		both_key(x, "contract");
		both_key(x, "primaryKey");
		add(x, DIFF_BREAKING, "primary-key", HAS_BOTH,
		    json_incref(json_object_get(ot, "primaryKey")),
		    json_incref(json_object_get(nt, "primaryKey")),
		    "a key change: the table's identifier fields change, "
		    "which needs an Iceberg migration, and the rows already "
		    "written were upserted by the old key");
		reset(x, m);
	}
}

static void
expose_one(struct diff *x, int side, json_t *t)
{
	expose_set(x, side, x->name);
	if (side == NEW)
		add(x, DIFF_INFO, "table", HAS_NEW, NULL, table_name(t),
		    "a new table: the job creates it when it first starts");
	else
		add(x, DIFF_INFO, "table", HAS_OLD, table_name(t), NULL,
		    "no build writes this table any more: it is left as it is");
}

/* --- the whole ------------------------------------------------------- */

static void
side_init(struct side *sd, json_t *check, json_t *resolve)
{
	json_t *b;
	size_t i;

	diags_init(&sd->d);
	diags_set_resolve(&sd->d, resolve);
	sd->doc = json_object_get(resolve, "document");
	sd->builds = json_object();
	sd->writers = json_object();
	json_array_foreach(json_object_get(check, "builds"), i, b) {
		json_object_set(sd->builds, jstrz(b, "id"), b);
		if (json_is_object(json_object_get(b, "table")))
			json_object_set(sd->writers, jstrz(b, "expose"), b);
	}
	sd->at = index_by(json_object_get(sd->doc, "builds"), "id");
	sd->exposes = index_by(json_object_get(sd->doc, "exposes"),
	    "exposeId");
}

static void
side_release(struct side *sd)
{
	diags_release(&sd->d);
	json_decref(sd->builds);
	json_decref(sd->writers);
	json_decref(sd->at);
	json_decref(sd->exposes);
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c;

	if (x->sev != y->sev)
		return x->sev - y->sev;
	if (x->expose != y->expose)
		return x->expose - y->expose;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

json_t *
diff_contracts(json_t *old_check, json_t *old_resolve, json_t *new_check,
    json_t *new_resolve)
{
	struct diff x;
	json_t *b, *o, *out;
	size_t i;
	int s;

	memset(&x, 0, sizeof(x));
	side_init(&x.s[OLD], old_check, old_resolve);
	side_init(&x.s[NEW], new_check, new_resolve);
	for (s = OLD; s <= NEW; s++) {
		sb_init(&x.w[s].ptr);
		sb_init(&x.w[s].path);
	}
	x.key = "build";
	json_array_foreach(json_object_get(new_check, "builds"), i, b) {
		x.name = jstrz(b, "id");
		if ((o = json_object_get(x.s[OLD].builds, x.name)) != NULL)
			build_both(&x, o, b);
		else
			build_one(&x, NEW, b);
	}
	json_array_foreach(json_object_get(old_check, "builds"), i, b) {
		x.name = jstrz(b, "id");
		if (json_object_get(x.s[NEW].builds, x.name) == NULL)
			build_one(&x, OLD, b);
	}
	x.key = "expose";
	json_array_foreach(json_object_get(new_check, "builds"), i, b) {
		if (!json_is_object(json_object_get(b, "table")))
			continue;
		x.name = jstrz(b, "expose");
		o = json_object_get(x.s[OLD].writers, x.name);
		if (o != NULL)
			expose_both(&x, json_object_get(o, "table"),
			    json_object_get(b, "table"));
		else
			expose_one(&x, NEW, json_object_get(b, "table"));
	}
	json_array_foreach(json_object_get(old_check, "builds"), i, b) {
		if (!json_is_object(json_object_get(b, "table")))
			continue;
		x.name = jstrz(b, "expose");
		if (json_object_get(x.s[NEW].writers, x.name) == NULL)
			expose_one(&x, OLD, json_object_get(b, "table"));
	}
	if (x.n > 0)
		qsort(x.v, x.n, sizeof(*x.v), entry_cmp);
	out = json_array();
	for (i = 0; i < x.n; i++)
		json_array_append_new(out, x.v[i].e);
	free(x.v);
	for (s = OLD; s <= NEW; s++) {
		sb_release(&x.w[s].ptr);
		sb_release(&x.w[s].path);
		side_release(&x.s[s]);
	}
	return out;
}

size_t
diff_count(const json_t *changes, enum diff_severity s)
{
	size_t i, n = 0;

	for (i = 0; i < json_array_size(changes); i++)
		if (strcmp(jstrz(json_array_get(changes, i), "severity"),
		    diff_severity_name(s)) == 0)
			n++;
	return n;
}

/* A side's value for a person: the JSON text, or "(none)". */
static void
value_text(json_t *side, struct sb *out)
{
	json_t *v = json_object_get(side, "value");
	char *t;

	if (side == NULL || json_is_null(side)) {
		sb_adds(out, "(none)");
		return;
	}
	if (json_is_string(v)) {
		sb_adds(out, json_string_value(v));
		return;
	}
	t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	sb_adds(out, t != NULL ? t : "?");
	free(t);
}

static void
place_text(json_t *side, struct sb *out)
{
	if (json_is_string(json_object_get(side, "file")))
		sb_addf(out, "%s:%lld", jstrz(side, "file"), (long long)
		    json_integer_value(json_object_get(side, "line")));
	else
		sb_adds(out, "?");
}

void
diff_summary(const json_t *changes, struct sb *out)
{
	json_t *e, *o, *n, *at;
	size_t i;
	int s;

	if (json_array_size(changes) == 0) {
		sb_adds(out, "no changes\n");
		return;
	}
	for (s = 0; s < DIFF_NSEVERITIES; s++) {
		if (diff_count(changes, s) == 0)
			continue;
		sb_addf(out, "%s (%zu):\n", severities[s],
		    diff_count(changes, s));
		for (i = 0; i < json_array_size(changes); i++) {
			e = json_array_get(changes, i);
			if (strcmp(jstrz(e, "severity"), severities[s]) != 0)
				continue;
			o = json_object_get(e, "old");
			n = json_object_get(e, "new");
			at = json_is_object(n) ? n : o;
			sb_addf(out, "  %s %s: %s: ", json_object_get(e,
			    "build") ? "build" : "expose",
			    json_object_get(e, "build") ? jstrz(e, "build") :
			    jstrz(e, "expose"), jstrz(at, "path"));
			value_text(o, out);
			sb_adds(out, " -> ");
			value_text(n, out);
			sb_addf(out, ": %s\n    at ", jstrz(e, "reason"));
			if (json_is_object(o)) {
				place_text(o, out);
				if (json_is_object(n))
					sb_adds(out, " -> ");
			}
			if (json_is_object(n))
				place_text(n, out);
			sb_addc(out, '\n');
		}
	}
}
