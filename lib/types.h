/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * types.h - FLUID column types: names, trees, widening, IR form.
 *
 * A contract spells a type as a name ("string", "decimal(18,2)",
 * "timestamp_ltz(3)", "struct", "array", "map") plus, for the three
 * containers, children spelled out: struct has fields, array an element,
 * map a key and a value.  The checker turns contract columns into
 * struct ty trees (it owns the diagnostics, since they need contract
 * paths); this module parses and prints names, compares trees and
 * converts them to and from the IR's normalised JSON form.
 *
 * IR form (what fluid-check writes): a column is
 *	{"name": N, "type": T, "required": B, ["description": D,] ...children}
 * with T the canonical name ("decimal(18,2)", "timestamp(6)") and the
 * children as in the contract: "fields" (array of columns), "element",
 * "key", "value" (columns without "name").  required is always present;
 * description only when the contract gives one (ty_doc_why() says what
 * one may hold).
 *
 * Ownership: ty_* constructors return a tree the caller frees with
 * ty_free(); a tree owns its children and field names.
 */
#ifndef FLUID_TYPES_H
#define FLUID_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "xalloc.h"

#define TY_MAX_DECIMAL_PRECISION	38
#define TY_MAX_TIMESTAMP_PRECISION	6	/* microseconds */
#define TY_MAX_DEPTH			32	/* nesting of containers */
#define TY_MAX_DOC_BYTES		1024	/* one description, UTF-8 */

enum ty_kind {
	TY_STRING,
	TY_BOOLEAN,
	TY_INT,		/* 32 bit */
	TY_LONG,	/* 64 bit */
	TY_FLOAT,
	TY_DOUBLE,
	TY_DECIMAL,	/* p 1..38, s 0..p */
	TY_DATE,
	TY_TIME,
	TY_TIMESTAMP,	/* p 0..6, without time zone */
	TY_TIMESTAMP_LTZ, /* p 0..6, an instant */
	TY_BINARY,
	TY_STRUCT,
	TY_ARRAY,
	TY_MAP
};

/* A parsed type name: the kind and its parameters. */
struct ty_name {
	enum ty_kind	kind;
	int		precision;	/* decimal, timestamp, timestamp_ltz */
	int		scale;		/* decimal */
};

struct ty;

struct ty_field {
	char		*name;
	struct ty	*type;
};

struct ty {
	enum ty_kind	 kind;
	int		 precision;
	int		 scale;
	bool		 required;	/* false: the value may be null */
	struct ty_field	*fields;	/* TY_STRUCT */
	size_t		 nfields;
	struct ty	*element;	/* TY_ARRAY */
	struct ty	*key;		/* TY_MAP */
	struct ty	*value;		/* TY_MAP */
	char		*doc;		/* the description, or NULL */
};

/*
 * Parse a type name.  "timestamp" and "timestamp_ltz" without a
 * precision mean 6; "decimal" needs both precision and scale.  Returns 0,
 * or -1 with *why set to a static reason that does not quote the input.
 */
int	 ty_name_parse(const char *s, struct ty_name *out, const char **why);
/* Append the canonical name of t's kind and parameters ("decimal(18,2)"). */
void	 ty_name_print(const struct ty *t, struct sb *sb);
bool	 ty_is_container(enum ty_kind);

struct ty *ty_new(enum ty_kind);	/* zeroed, nullable */
struct ty *ty_copy(const struct ty *);
void	 ty_free(struct ty *);
/* Append a field (takes over name and type). */
void	 ty_add_field(struct ty *st, char *name, struct ty *type);
/* The field of st called name, or NULL. */
struct ty_field *ty_field(const struct ty *st, const char *name);
/* Nesting depth: 0 for a scalar, 1 + the deepest child otherwise. */
int	 ty_depth(const struct ty *);

/*
 * Why s cannot be a column's description, as a static phrase that does
 * not quote it, or NULL when it can: 1 to TY_MAX_DOC_BYTES bytes on one
 * line, without control characters (C0, DEL, C1), line or paragraph
 * separators or bidirectional controls (U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069), and without "${", which the job's runner
 * reads anywhere in a script as a variable reference.  s must be UTF-8
 * (jansson's strings are); len is its length, so that a NUL inside is
 * refused.  Every stage that reads a description holds it to this.
 */
const char *ty_doc_why(const char *s, size_t len);

/*
 * Same kind, parameters, children and nullability, recursively; the
 * descriptions are not compared (they do not change what a value is).
 */
bool	 ty_equal(const struct ty *a, const struct ty *b);
/*
 * Can every value of scalar type from be held by to without loss?
 * The spec's widenings: equal, int->long, float->double, a decimal with
 * more precision at the same scale, a timestamp (or timestamp_ltz) with
 * finer precision.  Nullability is not considered.  Containers: false.
 */
bool	 ty_scalar_widens(const struct ty *from, const struct ty *to);

/* The IR form (see above); name may be NULL for element/key/value. */
json_t	*ty_to_json(const struct ty *, const char *name);

/*
 * Canonical type names as JSON strings, each made once and then shared:
 * an IR of ten thousand columns of a dozen types holds a dozen "type"
 * strings instead of ten thousand.  Shared strings are never changed
 * in place (jansson's are immutable unless json_string_set() is called,
 * which nothing in fluid does).  Zero it to set it up.
 */
struct ty_names {
	json_t	*plain[TY_MAP + 1];	/* kinds without parameters */
	json_t	*timestamp[2][TY_MAX_TIMESTAMP_PRECISION + 1];
	json_t	**decimal;	/* [precision][scale], made on first use */
};

void	 ty_names_release(struct ty_names *);
/* The canonical name of t's kind and parameters: a new reference. */
json_t	*ty_name_json(struct ty_names *, const struct ty *);
/*
 * ty_to_json() with its "type" strings from names, and its "name" the
 * string name (borrowed; NULL for element/key/value).
 */
json_t	*ty_to_json_shared(const struct ty *, json_t *name,
	    struct ty_names *names);
/* Parse the IR form back; NULL if it is not well formed. */
struct ty *ty_from_json(const json_t *);

/*
 * The whole tree as one string, FLUID's type syntax (fluid-odcs(1)
 * writes it as fluid.recursiveType, since ODCS has no typed maps):
 *
 *	type	name [" not null"]
 *		"struct<" [field {", " field}] ">" [" not null"]
 *		"array<" type ">" [" not null"]
 *		"map<" type ", " type ">" [" not null"]
 *	field	plain-name ": " type
 *
 * with name as ty_name_print() writes it.  No " not null": the value
 * may be null.  "map<string not null, array<struct<sku: string not
 * null, qty: int>>>" is a nullable map of nullable arrays.
 */
void	 ty_print(const struct ty *, struct sb *);
/*
 * Parse what ty_print() writes, and only that spelling, so that
 * printing and parsing round trip exactly.  NULL with *why set to a
 * static reason.
 */
struct ty *ty_parse(const char *s, const char **why);

#endif
