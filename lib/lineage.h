/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * lineage.h - the column lineage of a checked contract: each output
 * column of each build, nested fields included, back to the stream,
 * key or metadata path it is read from and the operations on the way.
 *
 * A renderer, as odcs and sqlgen are (fluid.h): made offline from the
 * check section alone, the binding fluid-check already wrote (each
 * output's "expr", fluid-ir(5)), so the lineage cannot say anything the
 * checker did not decide.  Nothing here contacts anything.
 *
 * lineage_make() reads the document into struct lineage; the writers
 * (lineage.c for text, lineage_graph.c for Graphviz DOT and mermaid)
 * only print it, every name quoted for the format it goes into.
 */
#ifndef FLUID_LINEAGE_H
#define FLUID_LINEAGE_H

#include <jansson.h>

#include "diag.h"
#include "xalloc.h"

enum lineage_format { LINEAGE_TEXT, LINEAGE_DOT, LINEAGE_MERMAID };

/* One output column, or one field of a nested output. */
struct lineage_col {
	char	*out;	/* its dotted path in the table: "order.id" */
	/*
	 * Where it is read from: "value customer.address.city",
	 * "key order_key", "metadata(partition) kafka_partition",
	 * "value items[].sku" (the explode's element), "own SQL"; NULL for
	 * a struct built from several places (its fields say where).
	 */
	char	*src;
	char	*ops;	/* "by name", "explode, lift", "map entry, cast ..." */
};

struct lineage_build {
	char	*id;
	char	*stream;	/* "kafka topic orders (json)" */
	char	*table;		/* "commerce.orders" */
	char	*explode;	/* "value items as item", or NULL */
	struct lineage_col *cols;
	size_t	 ncols;
};

struct lineage {
	struct lineage_build *b;
	size_t	 n;
};

/*
 * Read doc (a pipeline document after fluid-check) into l: 0, or -1
 * with an error in d (a contract with no managed build, or a check
 * section that is not what fluid-check writes, a fatal one); l is then
 * empty.  lineage_release() frees what l holds.
 */
int	lineage_make(json_t *doc, struct lineage *l, struct diags *d);
void	lineage_release(struct lineage *l);

/* Append l in format f to out. */
void	lineage_write(const struct lineage *l, enum lineage_format f,
	    struct sb *out);
/* "text", "dot" or "mermaid" as a format; -1 for any other word. */
int	lineage_format_parse(const char *word);

/* The graph writers (lineage_graph.c), for lineage_write(). */
void	lineage_dot(const struct lineage *l, struct sb *out);
void	lineage_mermaid(const struct lineage *l, struct sb *out);

#endif
