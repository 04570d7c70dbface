/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_int.h - internal interfaces of the checker, shared by the
 * check_*.c files and by nothing else.
 *
 *	check.c          the contract: versions, builds, exposes, uniqueness
 *	check_util.c     locations, messages, key and value helpers
 *	check_schema.c   column lists -> struct ty trees
 *	check_stream.c   properties.stream and parameters.flink
 *	check_security.c parameters.flink.source.security: TLS and SASL
 *	check_expose.c   the expose binding: catalog, table, partitions
 *	check_mapping.c  output columns: paths, binding, nullability -> IR
 *	check_cdc.c      change streams: landing, primary key, their limits
 *
 * Every name declared here starts with chk_ (CHK_ for macros and
 * enumerators), and check_ is the public check.h's: lib/ is one flat
 * tree of modules linked into one library, so a short name such as
 * get_str() could clash with another module's.  Static functions keep
 * short names.
 *
 * A location carries two spellings of the same place: the JSON pointer
 * that finds the YAML line and column, and the dotted path the spec's
 * messages use ("properties.mapping.columns[0].from").
 */
#ifndef FLUID_CHECK_INT_H
#define FLUID_CHECK_INT_H

#include <stdbool.h>
#include <jansson.h>

#include "diag.h"
#include "path.h"
#include "types.h"
#include "xalloc.h"

struct chk_loc {
	struct sb	ptr;	/* "/builds/0/properties/mapping" */
	struct sb	path;	/* "properties.mapping" */
};

struct chk_loc_mark {
	size_t	ptrlen, pathlen;
};

/*
 * The words of the IR that chk_word() shares: the column origins first,
 * in the order of enum chk_origin.
 */
enum chk_word {
	CHK_WORD_VALUE, CHK_WORD_KEY, CHK_WORD_METADATA, CHK_WORD_ELEMENT,
	CHK_WORD_PATH, CHK_WORD_CAST, CHK_WORD_WIDEN, CHK_WORD_STRUCT,
	CHK_NWORDS
};

struct chk {
	struct diags	*d;
	json_t		*doc;		/* the resolved contract (borrowed) */
	const char	*lane;		/* "Managed Flink: " or "" */
	char		*build;		/* "Flink build ID: " or "" */
	size_t		 suggestions;	/* "did you mean"s over large sets */
	/*
	 * The IR repeats a few strings per column (type names, "path",
	 * "value"): each is made once per run and shared, which saves an
	 * allocation per use and most of the IR's memory for them.
	 */
	struct ty_names	 names;
	json_t		*words[CHK_NWORDS];	/* made on first use */
};

/*
 * Names to numbers, for the lookups made per column (a stream's
 * columns, the names of a list, mapping entries).  Open addressing over
 * names the caller keeps alive for as long as the index (they are
 * borrowed), so that adding one allocates nothing of its own, unlike a
 * JSON object with a JSON integer per name.  With fold, names that
 * differ only by ASCII case are the same name.
 */
struct chk_name_slot;
struct chk_name_index {
	struct chk_name_slot *slots;
	size_t		 n, cap;
	bool		 fold;
};

void	 chk_name_index_init(struct chk_name_index *, bool fold);
void	 chk_name_index_release(struct chk_name_index *);
/* Room for n names in all, so that adding them never rehashes. */
void	 chk_name_index_reserve(struct chk_name_index *, size_t n);
/* Give name (borrowed) the number v, in place of any it had. */
void	 chk_name_index_put(struct chk_name_index *, const char *name,
	    size_t v);
/* Sets *v to name's number; false when name is not there. */
bool	 chk_name_index_get(const struct chk_name_index *, const char *name,
	    size_t *v);

/* Set up and release what a run shares (the fields above). */
void	 chk_init(struct chk *, struct diags *, json_t *doc);
void	 chk_release(struct chk *);
/* The shared JSON string for word (a new reference). */
json_t	*chk_word(struct chk *, enum chk_word);

/*
 * Whether an error may still look for a "did you mean" among a large
 * set of names (a stream's columns, a struct's fields): the first
 * CHK_MAX_SUGGESTIONS errors of a contract may, the rest say none.
 * Each look costs time in the size of the set, so without the bound a
 * contract with thousands of wrong names would be checked in quadratic
 * time; a person fixing that many does not need each suggestion.
 */
#define CHK_MAX_SUGGESTIONS	100
bool	 chk_suggest(struct chk *);

/* A column a mapping path can start from. */
enum chk_origin {
	CHK_ORIGIN_VALUE,
	CHK_ORIGIN_KEY,
	CHK_ORIGIN_METADATA,
	CHK_ORIGIN_ELEMENT		/* the explode's "as" */
};

struct chk_scol {
	char		*name;		/* as the query sees it (key
					   prefixed) */
	json_t		*jname;		/* the same, for the IR to share */
	enum chk_origin	 origin;
	char		*from;		/* metadata key, or the key's own
					   name */
	struct ty	*type;		/* nullable where the source can be */
};

struct chk_stream {
	struct chk_scol	*cols;
	size_t		 ncols;
	size_t		 capcols;	/* allocated */
	struct chk_name_index index;	/* name, any case -> column index */
	json_t		*bad;		/* lower-cased names declared with
					   errors (already reported) */
	bool		 broken;	/* no usable value schema at all */
	json_t		*ir;		/* the stream part of the build IR */
};

/* check_util.c */
void	 chk_loc_init(struct chk_loc *);
void	 chk_loc_release(struct chk_loc *);
struct chk_loc_mark chk_loc_mark(const struct chk_loc *);
void	 chk_loc_reset(struct chk_loc *, struct chk_loc_mark);
void	 chk_loc_key(struct chk_loc *, const char *key);
void	 chk_loc_idx(struct chk_loc *, size_t i);
/* Pointer step to index i, path step ".name" (columns named in paths). */
void	 chk_loc_named(struct chk_loc *, size_t i, const char *name);
void	 chk_loc_set(struct chk_loc *, const char *ptr, const char *path);

void	 chk_err(struct chk *, const struct chk_loc *, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 chk_warn(struct chk *, const struct chk_loc *, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/*
 * The error at l's child key (at l itself when key is NULL), leaving l
 * as it was: the mark, key, error, reset that most errors are.
 */
void	 chk_err_at(struct chk *, struct chk_loc *, const char *key,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A " (did you mean 'x'?)" suffix if one candidate is one edit away. */
const char *chk_didyoumean(const char *name, const char *const *cands,
	    size_t n, char *buf, size_t buflen);

/* The index of s in the NULL-terminated list words (NULL: none), or -1. */
int	 chk_word_index(const char *s, const char *const *words);
/*
 * Refuse keys of obj not in the NULL-terminated list allowed (with a
 * did-you-mean).  Returns the number refused.
 */
int	 chk_only_keys(struct chk *, struct chk_loc *, json_t *obj,
	    const char *const *allowed);
/* Likewise, passing over the keys in ignored (reported elsewhere). */
int	 chk_only_keys_except(struct chk *, struct chk_loc *, json_t *obj,
	    const char *const *allowed, const char *const *ignored);
/* Typed getters: NULL/-1 and an error when present but of another type,
 * or when absent and required. */
json_t	*chk_get_obj(struct chk *, struct chk_loc *, json_t *o, const char *key,
	    bool required);
json_t	*chk_get_arr(struct chk *, struct chk_loc *, json_t *o, const char *key,
	    bool required);
const char *chk_get_str(struct chk *, struct chk_loc *, json_t *o,
	    const char *key, bool required);
/* 1 true, 0 false or absent, -1 wrong type (error added). */
int	 chk_get_bool(struct chk *, struct chk_loc *, json_t *o,
	    const char *key);
/* chk_get_str() and chk_get_bool() of v, the value at key (NULL: absent). */
const char *chk_str_at(struct chk *, struct chk_loc *, const char *key,
	    json_t *v, bool required);
int	 chk_bool_at(struct chk *, struct chk_loc *, const char *key,
	    json_t *v);
/* Returns 0 and sets *v, 1 when absent, -1 on a wrong type. */
int	 chk_get_int(struct chk *, struct chk_loc *, json_t *o, const char *key,
	    json_int_t *v);
/* One of the NULL-terminated words, or an error listing them. */
const char *chk_get_enum(struct chk *, struct chk_loc *, json_t *o,
	    const char *key, bool required, const char *const *words);
bool	 chk_has_control(const char *s);
/* Loopback, or a name of one label or under .svc or .cluster.local. */
bool	 chk_host_in_cluster(const char *host);
/*
 * The name of st's field i as a new JSON reference: names[i] when names
 * (the contract's own strings, see chk_schema_columns()) has it, else made.
 */
json_t	*chk_field_name_json(json_t *names, const struct ty *st, size_t i);
/* st's fields in IR column form, in order, named as chk_field_name_json(). */
json_t	*chk_columns_json(struct chk *, const struct ty *st, json_t *names);
/* s in lower case (ASCII), for case-insensitive name indexes. */
char	*chk_lower_dup(const char *s);
/*
 * The same in buf when it fits (names are short and looked up per
 * column), else allocated in *to_free (NULL when not).
 */
#define CHK_LOWER_BUF	136
const char *chk_lower_in(const char *s, char buf[CHK_LOWER_BUF],
	    char **to_free);
/* a followed by b, allocated: what xasprintf("%s%s") makes, faster. */
char	*chk_str_join(const char *a, const char *b);
/* Is name, lower-cased, a key of set (which may be NULL)? */
bool	 chk_name_in(json_t *set, const char *name);
/*
 * A location or catalog URI in the one spelling that tells whether two
 * name the same place, allocated: "scheme://host[:port]/seg/seg", the
 * host in lower case, without the scheme's default port, with every
 * percent-escape decoded (%2F is a '/', %2E%2E a ".." segment), without
 * empty or "." segments, each ".." dropping the segment before it, and
 * without a trailing '/'.  That is how Flink's Path and the S3 clients
 * read a location (s3://b/x/../c is s3://b/c, s3://b//x is s3://b/x);
 * where they differ among themselves, two spellings that one of them
 * reads as one place are one place here.  User info, a query and a
 * fragment are not part of it: URIs that differ only there are one.
 * NULL with *why a reason that does not quote s when s is no URL or
 * encodes a control character.
 */
char	*chk_uri_norm(const char *s, const char **why);

/* check_schema.c */
/*
 * A column list (contract.schema, stream.schema, key.schema) to a
 * struct of its columns, at l.  A column with an error is reported and
 * left out, and its name, lower-cased, is added to bad (if not NULL):
 * whatever refers to it then stays quiet instead of calling it missing,
 * so that one mistake makes one error.  Any error sets *ok to false.
 * NULL (and an error) when list is not a list of at least one column.
 * names (if not NULL) gets the contract's JSON string of each field's
 * name, in order: the IR shares them instead of copying.
 */
struct ty *chk_schema_columns(struct chk *, struct chk_loc *, json_t *list,
	    json_t *bad, bool *ok, json_t *names);
/* One column or element/key/value (name may be NULL). */
struct ty *chk_schema_column(struct chk *, struct chk_loc *, json_t *col,
	    int depth);

/* check_stream.c */
/*
 * properties.stream + parameters.flink.source/eventTime; false on error.
 * With props NULL, flink is a streamSource fragment checked on its own.
 */
bool	 chk_stream_check(struct chk *, struct chk_loc *build, json_t *props,
	    json_t *flink, struct chk_stream *out);

/* check_scol.c: the stream's column table. */
void	 chk_stream_release(struct chk_stream *);
struct chk_scol *chk_stream_col(const struct chk_stream *, const char *name);
/*
 * Is name a column whose declaration was already refused, or is the
 * stream unusable?  A reference to it is then not reported again.
 */
bool	 chk_stream_unknown(const struct chk_stream *, const char *name);
/*
 * Add column name (t stolen) to s, at l; false and an
 * error when the name is taken.  jname is name's JSON string in the
 * contract, to share, or NULL; from is a metadata key, or what else
 * fills it.
 */
bool	 chk_stream_add(struct chk *, struct chk_loc *, struct chk_stream *,
	    const char *name, json_t *jname, enum chk_origin,
	    const char *from, struct ty *t);

/* check_security.c */
/*
 * src.security (l at the source): the protocol, SASL and TLS, every
 * credential a named variable of the pod.  servers is the checked
 * bootstrapServers (NULL when refused), for the clear-text warnings;
 * flink's deployment.secretRefs must feed the variables.  Adds
 * "security" to source_ir when declared; false after errors.
 */
bool	 chk_security_check(struct chk *, struct chk_loc *, json_t *flink,
	    json_t *src, const char *servers, json_t *source_ir);

/* check_expose.c */
/*
 * The binding of an expose; returns the table IR or NULL.  bad holds
 * the lower-cased names of the schema's refused columns, names its
 * columns' names (see chk_schema_columns()).
 */
json_t	*chk_expose_check(struct chk *, struct chk_loc *, json_t *expose,
	    struct ty *schema, json_t *names, json_t *bad);
/* s is written s3://BUCKET..., with the bucket right after the slashes. */
bool	 chk_s3_names_bucket(const char *s);

/* check_mapping.c */
/*
 * Bind every output column of schema (the expose's, its names as
 * chk_schema_columns() gives them) for a build; adds "explode" and
 * "outputs" to the build IR.  expose_ptr and expose_path are where the
 * expose's schema is; xbad holds the lower-cased names of its refused
 * columns.  Returns false after errors.
 */
bool	 chk_mapping_check(struct chk *, struct chk_loc *build, json_t *props,
	    struct chk_stream *, struct ty *schema, json_t *names, json_t *xbad,
	    const char *expose_ptr, const char *expose_path,
	    json_t *build_ir);
/* A recordMapping fragment on its own: keys, entries, paths. */
bool	 chk_mapping_shape_check(struct chk *, struct chk_loc *,
	    json_t *mapping);
/* properties.sql: one SELECT from source_events; false after errors. */
bool	 chk_sql_check(struct chk *, struct chk_loc *build, const char *sql);

/* check_cdc.c */
/* Is fmt a change format (debezium-json, canal-json)? */
bool	 chk_cdc_format(const char *fmt);
/*
 * properties.landing and properties.stream.maxParseErrors, with l at
 * the build (props NULL: a fragment, which has no landing).  Adds the
 * operation column of append-with-op to s and sets *added; sets the
 * stream IR's "changes".  False after errors.
 */
bool	 chk_cdc_stream(struct chk *, struct chk_loc *build, json_t *props,
	    json_t *stream, const char *fmt, struct chk_stream *s,
	    bool *added);
/*
 * What a change stream needs of its build and expose (xi, at x):
 * contract.primaryKey, partitions inside the key, no explode, no own
 * SQL; adds "primaryKey" to table (which may be NULL).  Refuses a
 * primaryKey on an expose written by an append-only stream.
 */
bool	 chk_cdc_build(struct chk *, struct chk_loc *build, json_t *props,
	    const struct chk_stream *, json_t *x, int xi,
	    const struct ty *schema, json_t *xbad, json_t *table);

/*
 * The sizing of the deployment dep (l at it): parallelism and
 * maxParallelism, and unless cfk the taskManager, jobManager and
 * autoscaler blocks (fluid-check(1), SCALING).  What the contract sets
 * goes into ir, the autoscaler with its defaults; false after errors.
 */
bool	 chk_scale(struct chk *, struct chk_loc *, json_t *dep, json_t *ir,
	    bool cfk);

#endif
