/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fluid_completion.c - fluid completion bash|zsh|fish: a completion
 * script made from the driver's table of commands and options
 * (fluid_opts.c), so that it completes what --help lists and nothing
 * else.  What a command's operand is comes from its synopsis' last word
 * (FILE, PLAN: files; [DIR]: directories; a|b|c: those words); what an
 * option's argument is, from its name (values[] below) or its argument's
 * name in the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "cli.h"
#include "fluid_cmd.h"

enum kind { K_NONE, K_FILES, K_DIRS, K_WORDS, K_TEXT };

/*
 * The values an option takes.  Each is offered only if the parser the
 * command uses accepts it (ok), so that a value the code drops stops
 * being completed; --format is parsed in fluid_opts.c alone.
 */
static int
diag_ok(const char *v)
{
	return diag_format_parse(v) != -1;
}

static int
mode_ok(const char *v)
{
	enum k8s_mode m;
	const char *why;

	return k8s_mode_parse(v, &m, &why) == 0;
}

static const struct {
	const char	*opt;
	const char	*words[6];
	int		(*ok)(const char *);
} values[] = {
	{ "diagnostics", { "text", "json", "github", NULL }, diag_ok },
	{ "mode", { "amend", "amend-and-build", "create-only", "dry-run",
	    NULL }, mode_ok },
	{ "format", { "text", "json", NULL }, NULL },
	{ "fragment", { "streamSource", "schema", "recordMapping", NULL },
	    resolve_fragment_kind_ok },
};

/* Arguments that are neither a file nor one of a list (seconds, names). */
static const char *const text_args[] = { "S", "NAME", "ID", "REV",
	"VERSION", NULL };

/* What o's argument is; the words (space-separated) into w. */
static enum kind
opt_kind(const struct cli_opt *o, struct sb *w)
{
	size_t i, j;

	if (o->arg == NULL)
		return K_NONE;
	for (i = 0; i < sizeof(values) / sizeof(*values); i++) {
		if (strcmp(values[i].opt, o->name) != 0)
			continue;
		for (j = 0; values[i].words[j] != NULL; j++)
			if (values[i].ok == NULL ||
			    values[i].ok(values[i].words[j])) {
				if (w->len > 0)
					sb_addc(w, ' ');
				sb_adds(w, values[i].words[j]);
			}
		return K_WORDS;
	}
	for (i = 0; text_args[i] != NULL; i++)
		if (strcmp(text_args[i], o->arg) == 0)
			return K_TEXT;
	return K_FILES;
}

/* What cmd's operand is: its first synopsis' last word; words into w. */
static enum kind
operand_kind(const struct cli_cmd *cmd, struct sb *w)
{
	const char *s = cmd->synopsis, *end, *last = s;
	size_t n, i;

	/* The first synopsis: its line and the lines "    " continues. */
	for (end = s; *end != '\0'; end++)
		if (*end == '\n' && strncmp(end + 1, "    ", 4) != 0)
			break;
	for (n = 0; end - n > s && strchr(" \n", end[-1 - (long)n]) == NULL;
	    n++)
		;
	last = end - n;
	if (strncmp(cmd->name, last, n) == 0 && cmd->name[n] == '\0')
		return K_NONE;	/* no operand: the synopsis is the name */
	if (memchr(last, '|', n) != NULL && memchr(last, '[', n) == NULL) {
		for (; last < end; last++)
			sb_addc(w, *last == '|' ? ' ' : *last);
		return K_WORDS;
	}
	for (i = 0; i + 3 <= n; i++)
		if (strncmp(last + i, "DIR", 3) == 0)
			return K_DIRS;
	return K_FILES;
}

/* The first word of name (w, n); the subcommand after it, or NULL. */
static const char *
split(const char *name, size_t *n)
{
	const char *sp = strchr(name, ' ');

	*n = sp != NULL ? (size_t)(sp - name) : strlen(name);
	return sp != NULL ? sp + 1 : NULL;
}

/* Whether the command before cmd in the table has the same first word. */
static int
seen_first(const struct cli_cmd *cmd)
{
	const struct cli_cmd *c;
	size_t n, m;

	split(cmd->name, &n);
	for (c = fluid_spec.cmds; c != cmd; c++)
		if (c->name != NULL && (split(c->name, &m), m == n) &&
		    strncmp(c->name, cmd->name, n) == 0)
			return 1;
	return 0;
}

/* Every option cmd takes, "--name" and "-x", blank-separated. */
static void
cmd_options(const char *cmd, struct sb *o)
{
	const struct cli_opt *t;
	struct cli c;

	cli_init(&c, &fluid_spec, cmd);
	for (t = fluid_spec.opts; t->name != NULL; t++) {
		if (!cli_opt_for(&c, t) || t->id == CLI_VERSION)
			continue;
		sb_addf(o, "%s--%s", o->len > 0 ? " " : "", t->name);
		if (t->letter != 0)
			sb_addf(o, " -%c", t->letter);
	}
}

/* bash's compgen for kind: words, files or directories. */
static void
bash_reply(struct sb *s, enum kind k, const char *words)
{
	switch (k) {
	case K_WORDS:
		sb_addf(s, "COMPREPLY=($(compgen -W '%s' -- \"$cur\"))",
		    words);
		break;
	case K_FILES:
		sb_adds(s, "COMPREPLY=($(compgen -f -- \"$cur\"))");
		break;
	case K_DIRS:
		sb_adds(s, "COMPREPLY=($(compgen -d -- \"$cur\"))");
		break;
	default:
		sb_adds(s, "COMPREPLY=()");
	}
}

static void
bash_script(struct sb *s)
{
	const struct cli_cmd *cmd;
	const struct cli_opt *o;
	struct sb w, tops;
	const char *sub;
	size_t n;
	enum kind k;

	sb_init(&w);
	sb_init(&tops);
	sb_adds(s, "# bash completion for fluid, made by 'fluid completion "
	    "bash' from fluid's\n# own table of commands and options.  "
	    "Load it with\n#   source <(fluid completion bash)\n"
	    "_fluid() {\n"
	    "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= opt= cmd= w i "
	    "skip=0\n"
	    "\t[ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}"
	    "\n\tCOMPREPLY=()\n"
	    "\t# The command so far: the words that are not options or "
	    "their values.\n"
	    "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	    "\t\tw=${COMP_WORDS[i]}\n"
	    "\t\tif [ \"$skip\" = 1 ]; then\n"
	    "\t\t\t[ \"$w\" = = ] || skip=0\n\t\t\tcontinue\n\t\tfi\n"
	    "\t\tcase $w in\n\t\t");
	/* The options that take an argument: their value is no command. */
	n = 0;
	for (o = fluid_spec.opts; o->name != NULL; o++) {
		if (o->arg == NULL)
			continue;
		sb_addf(s, "%s--%s", n++ > 0 ? "|" : "", o->name);
		if (o->letter != 0)
			sb_addf(s, "|-%c", o->letter);
	}
	sb_adds(s, "|=) skip=1 ;;\n\t\t-*) ;;\n\t\t*)\n\t\t\tcase $cmd in\n"
	    "\t\t\t\"\") cmd=$w ;;\n");
	for (cmd = fluid_spec.cmds; cmd->synopsis != NULL; cmd++)
		if (cmd->name != NULL && split(cmd->name, &n) != NULL &&
		    !seen_first(cmd))
			sb_addf(s, "\t\t\t%.*s) cmd=\"$cmd $w\" ;;\n", (int)n,
			    cmd->name);
	sb_adds(s, "\t\t\tesac ;;\n\t\tesac\n\tdone\n"
	    "\t# An option's value: after it, or after its '='.\n"
	    "\tif [ \"$cur\" = = ]; then\n\t\topt=$prev cur=\n"
	    "\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -gt 1 ]; then\n"
	    "\t\topt=${COMP_WORDS[COMP_CWORD-2]}\n"
	    "\telif [ \"$skip\" = 1 ]; then\n\t\topt=$prev\n\tfi\n"
	    "\tcase $opt in\n");
	for (o = fluid_spec.opts; o->name != NULL; o++) {
		if (o->arg == NULL)
			continue;
		sb_truncate(&w, 0);
		k = opt_kind(o, &w);
		sb_addf(s, "\t--%s", o->name);
		if (o->letter != 0)
			sb_addf(s, "|-%c", o->letter);
		sb_adds(s, ") ");
		bash_reply(s, k, w.buf);
		sb_adds(s, "; return ;;\n");
	}
	sb_adds(s, "\tesac\n\tcase $cmd in\n");
	/* No command yet: the commands; a command's subcommands. */
	for (cmd = fluid_spec.cmds; cmd->synopsis != NULL; cmd++) {
		if (cmd->name == NULL || seen_first(cmd))
			continue;
		split(cmd->name, &n);
		sb_addf(&tops, "%s%.*s", tops.len > 0 ? " " : "", (int)n,
		    cmd->name);
		if (split(cmd->name, &n) == NULL)
			continue;
		sb_truncate(&w, 0);
		for (const struct cli_cmd *c = cmd; c->synopsis != NULL; c++)
			if (c->name != NULL && strncmp(c->name, cmd->name,
			    n + 1) == 0 && (sub = split(c->name, &n)) != NULL)
				sb_addf(&w, "%s%s", w.len > 0 ? " " : "", sub);
		sb_addf(s, "\t%.*s) ", (int)n, cmd->name);
		bash_reply(s, K_WORDS, w.buf);
		sb_adds(s, "; return ;;\n");
	}
	sb_addf(s, "\t\"\") COMPREPLY=($(compgen -W '%s --help --version' "
	    "-- \"$cur\")); return ;;\n\tesac\n", tops.buf);
	/* Options, then the operand. */
	sb_adds(s, "\tif [[ $cur == -* ]]; then\n\t\tcase $cmd in\n");
	for (cmd = fluid_spec.cmds; cmd->synopsis != NULL; cmd++) {
		if (cmd->name == NULL)
			continue;
		sb_truncate(&w, 0);
		cmd_options(cmd->name, &w);
		sb_addf(s, "\t\t\"%s\") ", cmd->name);
		bash_reply(s, K_WORDS, w.buf);
		sb_adds(s, " ;;\n");
	}
	sb_adds(s, "\t\tesac\n\t\treturn\n\tfi\n\tcase $cmd in\n");
	for (cmd = fluid_spec.cmds; cmd->synopsis != NULL; cmd++) {
		if (cmd->name == NULL)
			continue;
		sb_truncate(&w, 0);
		k = operand_kind(cmd, &w);
		sb_addf(s, "\t\"%s\") ", cmd->name);
		bash_reply(s, k, w.buf);
		sb_adds(s, " ;;\n");
	}
	sb_adds(s, "\tesac\n}\ncomplete -F _fluid fluid\n");
	sb_release(&w);
	sb_release(&tops);
}

/* fish's complete when the command's last word was seen: FISH_IF "W' ...". */
#define FISH_IF	"complete -c fluid -n '__fish_seen_subcommand_from "

/* s as a fish single-quoted string: \ and ' escaped. */
static void
fish_quote(struct sb *s, const char *t, size_t n)
{
	size_t i;

	sb_addc(s, '\'');
	for (i = 0; i < n; i++) {
		if (t[i] == '\\' || t[i] == '\'')
			sb_addc(s, '\\');
		sb_addc(s, t[i]);
	}
	sb_addc(s, '\'');
}

/* The first line of text, quoted for fish. */
static void
fish_line(struct sb *s, const char *t)
{
	fish_quote(s, t, strcspn(t, "\n"));
}

static void
fish_script(struct sb *s)
{
	const struct cli_cmd *cmd;
	const struct cli_opt *o;
	const char *sub, *last;
	struct sb w;
	struct cli c;
	size_t n;
	enum kind k;

	sb_init(&w);
	sb_adds(s, "# fish completion for fluid, made by 'fluid completion "
	    "fish' from fluid's\n# own table of commands and options.  "
	    "Load it with\n#   fluid completion fish | source\n"
	    "complete -c fluid -e\ncomplete -c fluid -f\n");
	for (cmd = fluid_spec.cmds; cmd->synopsis != NULL; cmd++) {
		if (cmd->name == NULL)
			continue;
		sub = split(cmd->name, &n);
		if (!seen_first(cmd)) {
			sb_addf(s, "complete -c fluid -n __fish_use_subcommand "
			    "-a %.*s -d ", (int)n, cmd->name);
			fish_line(s, sub != NULL ? cmd->name : cmd->about);
			sb_addc(s, '\n');
		}
		/* The condition: the command's last word was seen. */
		last = sub != NULL ? sub : cmd->name;
		if (sub != NULL) {
			sb_addf(s, FISH_IF
			    "%.*s; and not __fish_seen_subcommand_from %s' "
			    "-a %s -d ", (int)n, cmd->name, sub, sub);
			fish_line(s, cmd->about);
			sb_addc(s, '\n');
		}
		sb_truncate(&w, 0);
		k = operand_kind(cmd, &w);
		if (k == K_FILES)
			sb_addf(s, FISH_IF "%s' -F\n", last);
		else if (k == K_DIRS)
			sb_addf(s, FISH_IF
			    "%s' -a '(__fish_complete_directories)'\n",
			    last);
		else if (k == K_WORDS)
			sb_addf(s, FISH_IF
			    "%s; and not __fish_seen_subcommand_from %s' "
			    "-a '%s'\n", last, w.buf, w.buf);
		cli_init(&c, &fluid_spec, cmd->name);
		for (o = fluid_spec.opts; o->name != NULL; o++) {
			if (!cli_opt_for(&c, o) || o->id == CLI_VERSION)
				continue;
			sb_addf(s, FISH_IF "%s' -l %s", last, o->name);
			if (o->letter != 0)
				sb_addf(s, " -s %c", o->letter);
			sb_truncate(&w, 0);
			k = opt_kind(o, &w);
			if (k == K_WORDS)
				sb_addf(s, " -x -a '%s'", w.buf);
			else if (k == K_FILES)
				sb_adds(s, " -r -F");
			else if (k == K_TEXT)
				sb_adds(s, " -x");
			sb_adds(s, " -d ");
			fish_line(s, o->help);
			sb_addc(s, '\n');
		}
	}
	sb_adds(s, "complete -c fluid -n __fish_use_subcommand -l help -s h "
	    "-d 'print the usage and exit'\n"
	    "complete -c fluid -n __fish_use_subcommand -l version "
	    "-d 'print the version and exit'\n");
	sb_release(&w);
}

/*
 * zsh runs the bash script through its own bashcompinit, which gives
 * it compgen and complete: one script, one set of rules to keep right.
 */
static void
zsh_script(struct sb *s)
{
	sb_adds(s, "#compdef fluid\n# zsh completion for fluid, made by "
	    "'fluid completion zsh': the bash\n# script, through zsh's "
	    "bashcompinit.  Load it with\n"
	    "#   source <(fluid completion zsh)\n"
	    "autoload -U +X compinit && compinit\n"
	    "autoload -U +X bashcompinit && bashcompinit\n");
	bash_script(s);
}

/* The shells, and their scripts: "completion bash|zsh|fish". */
static const struct {
	const char	*name;
	void		(*write)(struct sb *);
} shells[] = {
	{ "bash", bash_script },
	{ "zsh", zsh_script },
	{ "fish", fish_script },
};

int
cmd_completion(int argc, char *argv[])
{
	struct cli cli;
	struct sb s;
	const char *names[sizeof(shells) / sizeof(*shells)], *near;
	size_t i;
	int c, st;

	cli_init(&cli, &fluid_spec, "completion");
	while ((c = cli_next(&cli, argc, argv)) != -1)
		cli_usage_error(&cli, "completion takes no --%s",
		    cli_opt_name(&cli, c));
	if (argc - optind != 1)
		cli_usage_error(&cli, "completion expects one shell: bash, "
		    "zsh or fish");
	for (i = 0; i < sizeof(shells) / sizeof(*shells); i++)
		if (strcmp(argv[optind], (names[i] = shells[i].name)) == 0)
			break;
	if (i == sizeof(shells) / sizeof(*shells)) {
		near = suggest_near(argv[optind], names, i);
		cli_usage_error(&cli, "completion knows bash, zsh and fish, "
		    "not '%s'%s%s%s", argv[optind], near ? " (did you mean '" :
		    "", near ? near : "", near ? "'?)" : "");
	}
	sb_init(&s);
	shells[i].write(&s);
	fwrite(s.buf, 1, s.len, stdout);
	sb_release(&s);
	st = cli_flush();
	return st;
}
