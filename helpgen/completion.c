// SPDX-License-Identifier: MIT
/*
 * The bash completion script: the options, their arguments and the operands
 * of every command, from the same descriptions as --help.
 */
#include <string.h>

#include "slcscope/helpgen.h"

/* What does not depend on the commands: the lists asked for at completion time. */
static const char prelude[] =
	"# bash completion for slcscope; made by 'slcscope help --completion' from the\n"
	"# option tables of --help: regenerate it, do not edit it.\n"
	"\n"
	"# The simulated drive presets, as 'slcscope sim list' prints them; $1 is a prefix.\n"
	"_slcscope_presets()\n{\n"
	"\tlocal m _\n"
	"\t\"${words[0]}\" sim list 2>/dev/null | while read -r m _; do printf '%s\\n' \"${1-}$m\"; done\n"
	"}\n"
	"\n"
	"_slcscope_devices()\n{\n"
	"\tlocal d\n"
	"\tfor d in /dev/sd* /dev/nvme*n* /dev/vd* /dev/loop[0-9]*; do\n"
	"\t\t[ -b \"$d\" ] && printf '%s\\n' \"$d\"\n"
	"\tdone\n"
	"}\n"
	"\n"
	"# The candidates of a completion spec ($1) for the word $cur.\n"
	"_slcscope_spec()\n{\n"
	"\tcase $1 in\n"
	"\t@none) ;;\n"
	"\t@file) compgen -f -- \"$cur\" ;;\n"
	"\t@dir) compgen -d -- \"$cur\" ;;\n"
	"\t@presets) compgen -W \"$(_slcscope_presets)\" -- \"$cur\"\n"
	"\t\tcompgen -f -- \"$cur\" ;;\n"
	"\t@target) compgen -W \"$(_slcscope_presets sim:) sim: null: $(_slcscope_devices)\" -- \"$cur\"\n"
	"\t\tcompgen -f -- \"$cur\" ;;\n"
	"\t@device) compgen -W \"$(_slcscope_presets sim:) $(_slcscope_devices)\" -- \"$cur\"\n"
	"\t\tcompgen -f -- \"$cur\" ;;\n"
	"\t*) compgen -W \"$1\" -- \"$cur\" ;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"# COMPREPLY for words[cword] (the option tables are in the cases below).\n"
	"_slcscope_reply()\n{\n"
	"\tlocal cmd=${words[1]-} opts= argopts= operands=@file spec= w i n=0\n"
	"\tlocal -a specs\n"
	"\t# --opt=VALUE is three words: '=' breaks words (COMP_WORDBREAKS)\n"
	"\tif [[ $prev == = ]] && ((cword > 1)); then\n"
	"\t\tprev=${words[cword - 2]}\n"
	"\tfi\n";

/* After the commands' cases: an option's argument, options, or the operand at its position. */
static const char postlude[] =
	"\tif [[ -z $spec && \" $argopts \" == *\" $prev \"* ]]; then\n"
	"\t\tspec=@none\n"
	"\tfi\n"
	"\tif [[ -n $spec ]]; then\n"
	"\t\tmapfile -t COMPREPLY < <(_slcscope_spec \"$spec\")\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [[ $cur == -* ]]; then\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\")\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tfor ((i = 2; i < cword; i++)); do\n"
	"\t\tw=${words[i]}\n"
	"\t\tcase $w in\n"
	"\t\t--) ;;\n"
	"\t\t-*) [[ \" $argopts \" == *\" $w \"* ]] && ((i++)) ;;\n"
	"\t\t*) ((n++)) ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tIFS=';' read -ra specs <<<\"$operands\"\n"
	"\t((n >= ${#specs[@]})) && n=$((${#specs[@]} - 1))\n"
	"\tmapfile -t COMPREPLY < <(_slcscope_spec \"${specs[n]}\")\n"
	"}\n"
	"\n"
	"# With bash-completion loaded, sim:MODEL is one word although ':' breaks words.\n"
	"_slcscope()\n{\n"
	"\tlocal cur prev words cword\n"
	"\tif declare -F _get_comp_words_by_ref >/dev/null; then\n"
	"\t\t_get_comp_words_by_ref -n : cur prev words cword\n"
	"\telse\n"
	"\t\twords=(\"${COMP_WORDS[@]}\") cword=$COMP_CWORD\n"
	"\t\tcur=${words[cword]} prev=${words[cword - 1]}\n"
	"\tfi\n"
	"\tCOMPREPLY=()\n"
	"\t_slcscope_reply\n"
	"\tif declare -F __ltrim_colon_completions >/dev/null; then\n"
	"\t\t__ltrim_colon_completions \"$cur\"\n"
	"\tfi\n"
	"}\n"
	"complete -F _slcscope slcscope\n";

struct words {
	FILE *out;
	int with_arg;          /* only the options that take an argument */
	int first;
	const char *(*expand)(const char *name);
};

static void opt_words(const struct slc_help_opt *o, void *ctx)
{
	struct words *w = ctx;

	if ((w->with_arg && (!o->arg || o->arg[0] == '[')) || !strcmp(o->lng, "help"))
		return;
	fprintf(w->out, "%s--%s", w->first ? "" : " ", o->lng);
	if (o->shrt)
		fprintf(w->out, " -%c", o->shrt);
	w->first = 0;
}

/* "--plan|-p) spec='lab seq ...' ;;" for an option with an argument (none: nothing to offer). */
static void opt_case(const struct slc_help_opt *o, void *ctx)
{
	struct words *w = ctx;
	const char *c = o->complete ? o->complete : "@file";

	if (!o->arg || !strcmp(c, "@none"))
		return;
	if (c[0] == '@' && w->expand && w->expand(c + 1))
		c = w->expand(c + 1);
	fprintf(w->out, "\t\t--%s", o->lng);
	if (o->shrt)
		fprintf(w->out, "|-%c", o->shrt);
	fprintf(w->out, ") spec='%s' ;;\n", c);
}

static void command_case(FILE *out, const struct slc_help_cmd *c, const char *(*expand)(const char *name))
{
	struct words w = { .out = out, .first = 1, .expand = expand };

	fprintf(out, "\t%s)\n\t\topts='--help ", c->name);
	slc_help_each(c, opt_words, &w);
	fputs("'\n\t\targopts='", out);
	w.first = 1;
	w.with_arg = 1;
	slc_help_each(c, opt_words, &w);
	fprintf(out, "'\n\t\toperands='%s'\n\t\tcase $prev in\n", c->operands ? c->operands : "@file");
	slc_help_each(c, opt_case, &w);
	fputs("\t\tesac\n\t\t;;\n", out);
}

void slc_help_completion(FILE *out, const struct slc_help_cmd *top, const struct slc_help_cmd *const *cmds,
			 const char *(*words)(const char *name))
{
	struct words w = { .out = out, .first = 0 };

	fputs(prelude, out);
	fputs("\tif ((cword == 1)); then\n\t\tmapfile -t COMPREPLY < <(compgen -W 'help", out);
	for (size_t i = 0; cmds[i]; i++)
		fprintf(out, " %s", cmds[i]->name);
	slc_help_each(top, opt_words, &w);
	fputs("' -- \"$cur\")\n\t\treturn\n\tfi\n\tcase $cmd in\n\thelp)\n\t\toperands='", out);
	for (size_t i = 0; cmds[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", cmds[i]->name);
	fputs(";@none'\n\t\t;;\n", out);
	for (size_t i = 0; cmds[i]; i++)
		command_case(out, cmds[i], words);
	fputs("\t*) return ;;\n\tesac\n", out);
	fputs(postlude, out);
}
