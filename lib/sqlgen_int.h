/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen_int.h - internal interfaces of fluid-sqlgen's writer, shared by
 * sqlgen.c and sqlgen_cdc.c (change streams) and by nothing else.
 *
 * sqlgen.c writes every script; sqlgen_cdc.c writes what a change
 * stream changes in it, through the hooks below.  Both write with the
 * helpers of sqlgen_emit.c (sqlgen_ident() and the rest), so that every
 * identifier and literal still goes through sqlq.h, and the modules
 * depend one way: sqlgen -> sqlgen_cdc -> sqlgen_emit.
 */
#ifndef FLUID_SQLGEN_INT_H
#define FLUID_SQLGEN_INT_H

#include <stdbool.h>
#include <jansson.h>

#include "diag.h"
#include "types.h"
#include "xalloc.h"

struct gen {
	struct sb	 out;
	struct diags	*d;
	const char	*build;
	int		 failed;
	/*
	 * Set while writing the rows of null elements (null_rows()): the
	 * element's type, so that every read of the element becomes a
	 * NULL of the type it would have had.
	 */
	const struct ty	*null_elem;
	/*
	 * Whether UNNEST names a struct element's fields as columns of
	 * `x` (1) or the element as `x`.`<as>` (0), for the paths of origin
	 * "element" in the select list; -1 elsewhere, where such a path
	 * (fluid-check writes none there) goes by its own "elementFields",
	 * normally absent.
	 */
	int		 elem_fields;
	json_t		*bare;	/* column_type()'s copy, emptied after use */
	/*
	 * The CFK target's (sqlgen_cfk.c), NULL for the operator's: the
	 * sink's name, quoted, for the INSERT's; and the WITH clause
	 * written before its SELECT, which names the source table
	 * source_events for the query.
	 */
	const char	*cfk_sink;
	const char	*cfk_with;
};

/* sqlgen_emit.c: the writer's helpers, which call neither writer. */
void	 sqlgen_fail(struct gen *, const char *what);
void	 sqlgen_ident(struct gen *, const char *name);
void	 sqlgen_literal(struct gen *, const char *s);
/* "'key' = 'value'", after a comma unless *first. */
void	 sqlgen_option(struct gen *, const char *key, const char *value,
	    int *first);
/* The Flink SQL spelling of a type tree. */
void	 sqlgen_sql_type(struct gen *, const struct ty *);
/* The type of a column in its IR form (a new tree), or NULL. */
struct ty *sqlgen_column_type(struct gen *, const json_t *col);
/* "`name` TYPE" of a column in its IR form. */
void	 sqlgen_column(struct gen *, const json_t *col);
/*
 * A catalog option, refused when its text would make Iceberg read the
 * job's environment (env:NAME, ${...}) or holds a control character.
 */
void	 sqlgen_catalog_option(struct gen *, const char *key,
	    const char *value, int *first);
/* The contract's catalog properties, sorted bytewise, each as above. */
void	 sqlgen_catalog_properties(struct gen *, const json_t *props,
	    int *first);
/* " - INTERVAL ..." of a watermark's delay of secs seconds. */
void	 sqlgen_interval(struct gen *, json_int_t secs);
/* The Kafka source's scan.startup.mode (and a new group's reset). */
void	 sqlgen_kafka_startup(struct gen *, const json_t *src, int *first);
/* The Kafka source's key.* options for key (none when it is no object). */
void	 sqlgen_kafka_key(struct gen *, const json_t *key, const char *reg,
	    int *first);
/* The INSERT INTO the table ... SELECT of build b. */
void	 sqlgen_insert(struct gen *, const json_t *b);

/*
 * sqlgen.c: an Iceberg table's body, as CREATE TABLE writes it after
 * the table's name, for both targets: " (" its columns (col writes
 * each), its upsert key, ")", its PARTITIONED BY, and " WITH (" with
 * (when not NULL: the connector's options), its format version, file
 * format and a change table's options, and ")".
 */
void	 sqlgen_iceberg_body(struct gen *, const json_t *table,
	    void (*col)(struct gen *, const json_t *),
	    void (*with)(struct gen *, const json_t *, int *first));

/* sqlgen_cdc.c: the hooks, each a no-op for an append-only stream. */
/* ", PRIMARY KEY (...) NOT ENFORCED" of a table with a primaryKey. */
void	 sqlgen_cdc_key(struct gen *, const json_t *table);
/* The table's upsert options. */
void	 sqlgen_cdc_table_options(struct gen *, const json_t *table,
	    int *first);
/* The name of the Kafka table: dflt, or the raw table of changes. */
const char *sqlgen_cdc_source_name(const json_t *stream, const char *dflt);
/* Writes the Kafka table's columns and returns true, or false. */
bool	 sqlgen_cdc_columns(struct gen *, const json_t *stream, bool conv);
/* The value.format: fmt, or what the raw table of changes reads. */
const char *sqlgen_cdc_value_format(const json_t *stream, const char *fmt);
/* Writes the value format's options and returns true, or false. */
bool	 sqlgen_cdc_value_options(struct gen *, const json_t *stream,
	    int *first);
/* Writes the view source_events over the changes; true if it did. */
bool	 sqlgen_cdc_view(struct gen *, const json_t *stream);

#endif
