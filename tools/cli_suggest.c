/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * cli_suggest.c - "did you mean" for a mistyped command, subcommand or
 * option, from the same tables as --help (cli.h), by the checker's own
 * test of closeness (suggest.h): one way to catch a typo everywhere.
 */
#include <string.h>

#include "cli.h"
#include "suggest.h"

#define MAX_CANDS	128

/* " (did you mean 'PFXnear'?)" in buf, or "" when nothing is near. */
static const char *
hint(char *buf, size_t n, const char *pfx, const char *near)
{
	buf[0] = '\0';
	if (near != NULL)
		snprintf(buf, n, " (did you mean '%s%s'?)", pfx, near);
	return buf;
}

const char *
cli_opt_hint(const struct cli *c, const char *arg)
{
	static char buf[160], name[64];
	const char *cands[MAX_CANDS], *near = NULL, *eq;
	const struct cli_opt *o;
	size_t n = 0, len;
	int pass;

	if (strncmp(arg, "--", 2) != 0)
		return "";
	arg += 2;
	len = (eq = strchr(arg, '=')) != NULL ? (size_t)(eq - arg) :
	    strlen(arg);
	if (len >= sizeof(name))
		return "";
	memcpy(name, arg, len);
	name[len] = '\0';
	/* The command's own options first: the likelier meaning. */
	for (pass = 0; pass < 2 && near == NULL; pass++) {
		n = 0;
		for (o = c->spec->opts; o->name != NULL && n < MAX_CANDS; o++)
			if (pass == 1 || cli_opt_for(c, o))
				cands[n++] = o->name;
		near = suggest_near(name, cands, n);
	}
	return hint(buf, sizeof(buf), "--", near);
}

const char *
cli_cmd_hint(const struct cli_spec *s, const char *parent, const char *word)
{
	static char buf[160], words[MAX_CANDS][32];
	const char *cands[MAX_CANDS], *w, *sp;
	const struct cli_cmd *cmd;
	size_t n = 0, len, plen = parent != NULL ? strlen(parent) : 0;

	for (cmd = s->cmds; cmd->synopsis != NULL && n < MAX_CANDS; cmd++) {
		if ((w = cmd->name) == NULL)
			continue;
		if (parent != NULL) {
			if (strncmp(w, parent, plen) != 0 || w[plen] != ' ')
				continue;
			w += plen + 1;
		}
		len = (sp = strchr(w, ' ')) != NULL ? (size_t)(sp - w) :
		    strlen(w);
		if (len >= sizeof(*words))
			continue;
		memcpy(words[n], w, len);
		words[n][len] = '\0';
		cands[n] = words[n];
		n++;
	}
	return hint(buf, sizeof(buf), "", suggest_near(word, cands, n));
}
