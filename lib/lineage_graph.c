/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * lineage_graph.c - the column lineage as a graph (lineage.h): Graphviz
 * DOT and mermaid (a flowchart, which GitHub and GitLab render in
 * markdown).  One cluster per build, holding the stream's paths on the
 * left and the table's columns on the right, an edge per column
 * labelled with its operations.
 *
 * No name is ever an identifier of the graph: nodes are b<build>s<n>
 * (a source) and b<build>t<n> (a column), and every name is a label,
 * quoted and escaped for its language, because a map key, and any name
 * of a crafted document, may hold quotes, backslashes, '#', '<' or
 * line breaks.
 */
#include <string.h>

#include "lineage.h"

/* The first column of b that reads from the same source as column j. */
static size_t
first_src(const struct lineage_build *b, size_t j)
{
	size_t k;

	for (k = 0; k < j; k++)
		if (b->cols[k].src != NULL &&
		    strcmp(b->cols[k].src, b->cols[j].src) == 0)
			return k;
	return j;
}

/* The first column of b with a source, or b->ncols. */
static size_t
any_src(const struct lineage_build *b)
{
	size_t k;

	for (k = 0; k < b->ncols && b->cols[k].src == NULL; k++)
		;
	return k;
}

/*
 * A DOT quoted string: '"' and '\' escaped (a backslash would start an
 * escape such as \N or \G in a label), a line break as \n, any other
 * control character as a space.
 */
static void
dot_q(struct sb *out, const char *s)
{
	sb_addc(out, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\') {
			sb_addc(out, '\\');
			sb_addc(out, *s);
		} else if (*s == '\n')
			sb_adds(out, "\\n");
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			sb_addc(out, ' ');
		else
			sb_addc(out, *s);
	}
	sb_addc(out, '"');
}

/* The label of column c in the table: its path, "(build)" for a struct. */
static void
col_label(struct sb *lab, const struct lineage_col *c)
{
	sb_truncate(lab, 0);
	sb_adds(lab, c->out);
	if (c->src == NULL)
		sb_adds(lab, " (build)");
}

/* The label of b's stream: its topic's name, and what it explodes. */
static void
stream_label(struct sb *lab, const struct lineage_build *b)
{
	sb_truncate(lab, 0);
	sb_adds(lab, "stream: ");
	sb_adds(lab, b->stream);
	if (b->explode != NULL) {
		sb_adds(lab, "\nexplode: ");
		sb_adds(lab, b->explode);
	}
}

void
lineage_dot(const struct lineage *l, struct sb *out)
{
	const struct lineage_build *b;
	struct sb lab;
	size_t i, j, s;

	sb_init(&lab);
	sb_adds(out, "digraph lineage {\n\trankdir=LR;\n"
	    "\tnode [shape=box];\n");
	for (i = 0; i < l->n; i++) {
		b = &l->b[i];
		sb_addf(out, "\tsubgraph cluster_%zu {\n\t\tlabel=", i);
		sb_truncate(&lab, 0);
		sb_adds(&lab, "build ");
		sb_adds(&lab, b->id);
		dot_q(out, lab.buf);
		sb_addf(out, ";\n\t\tsubgraph cluster_%zu_stream {\n"
		    "\t\t\tlabel=", i);
		stream_label(&lab, b);
		dot_q(out, lab.buf);
		sb_adds(out, ";\n");
		for (j = 0; j < b->ncols; j++) {
			if (b->cols[j].src == NULL || first_src(b, j) != j)
				continue;
			sb_addf(out, "\t\t\tb%zus%zu [label=", i, j);
			dot_q(out, b->cols[j].src);
			sb_adds(out, "];\n");
		}
		sb_addf(out, "\t\t}\n\t\tsubgraph cluster_%zu_table {\n"
		    "\t\t\tlabel=", i);
		sb_truncate(&lab, 0);
		sb_adds(&lab, "table: ");
		sb_adds(&lab, b->table);
		dot_q(out, lab.buf);
		sb_adds(out, ";\n");
		for (j = 0; j < b->ncols; j++) {
			sb_addf(out, "\t\t\tb%zut%zu [label=", i, j);
			col_label(&lab, &b->cols[j]);
			dot_q(out, lab.buf);
			sb_adds(out, "];\n");
		}
		sb_adds(out, "\t\t}\n");
		s = any_src(b);
		for (j = 0; j < b->ncols; j++) {
			if (b->cols[j].src != NULL) {
				sb_addf(out, "\t\tb%zus%zu -> b%zut%zu [label=",
				    i, first_src(b, j), i, j);
				dot_q(out, b->cols[j].ops);
				sb_adds(out, "];\n");
			} else if (s < b->ncols)
				/* Keeps a built struct on the table's side. */
				sb_addf(out, "\t\tb%zus%zu -> b%zut%zu "
				    "[style=invis];\n", i, first_src(b, s),
				    i, j);
		}
		sb_adds(out, "\t}\n");
	}
	sb_adds(out, "}\n");
	sb_release(&lab);
}

/*
 * A mermaid quoted string.  Mermaid has no backslash escape: '"' and
 * the characters that are markup in a label ('#' starts an entity,
 * '<', '>' and '&' are HTML, '`' a markdown string, '|' ends an edge's
 * text) become entity codes; a line break is a <br>, any other control
 * character a space.
 */
static void
mmd_q(struct sb *out, const char *s)
{
	sb_addc(out, '"');
	for (; *s != '\0'; s++) {
		if (strchr("\"#<>&`|", *s) != NULL)
			sb_addf(out, "#%d;", (unsigned char)*s);
		else if (*s == '\n')
			sb_adds(out, "<br>");
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			sb_addc(out, ' ');
		else
			sb_addc(out, *s);
	}
	sb_addc(out, '"');
}

void
lineage_mermaid(const struct lineage *l, struct sb *out)
{
	const struct lineage_build *b;
	struct sb lab;
	size_t i, j;

	sb_init(&lab);
	sb_adds(out, "flowchart LR\n");
	for (i = 0; i < l->n; i++) {
		b = &l->b[i];
		sb_truncate(&lab, 0);
		sb_adds(&lab, "build ");
		sb_adds(&lab, b->id);
		sb_addf(out, "  subgraph b%zu[", i);
		mmd_q(out, lab.buf);
		sb_addf(out, "]\n    direction LR\n    subgraph b%zus[", i);
		stream_label(&lab, b);
		mmd_q(out, lab.buf);
		sb_adds(out, "]\n");
		for (j = 0; j < b->ncols; j++) {
			if (b->cols[j].src == NULL || first_src(b, j) != j)
				continue;
			sb_addf(out, "      b%zus%zu[", i, j);
			mmd_q(out, b->cols[j].src);
			sb_adds(out, "]\n");
		}
		sb_addf(out, "    end\n    subgraph b%zut[", i);
		sb_truncate(&lab, 0);
		sb_adds(&lab, "table: ");
		sb_adds(&lab, b->table);
		mmd_q(out, lab.buf);
		sb_adds(out, "]\n");
		for (j = 0; j < b->ncols; j++) {
			sb_addf(out, "      b%zut%zu[", i, j);
			col_label(&lab, &b->cols[j]);
			mmd_q(out, lab.buf);
			sb_adds(out, "]\n");
		}
		sb_adds(out, "    end\n");
		for (j = 0; j < b->ncols; j++) {
			if (b->cols[j].src == NULL)
				continue;
			sb_addf(out, "    b%zus%zu -->|", i, first_src(b, j));
			mmd_q(out, b->cols[j].ops);
			sb_addf(out, "| b%zut%zu\n", i, j);
		}
		sb_adds(out, "  end\n");
	}
	sb_release(&lab);
}
