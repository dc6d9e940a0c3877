/* SPDX-License-Identifier: MIT */
/*
 * A command's description, once: its --help text, its getopt_long() table,
 * its man page and its bash completion are all printed from it, so that an
 * option cannot be parsed without being documented, nor documented in one
 * place and not the other.
 */
#ifndef SLCSCOPE_HELPGEN_H
#define SLCSCOPE_HELPGEN_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* An option, or in a list section (.list) a term and its meaning. */
struct slc_help_opt {
	const char *lng;       /* long name without "--" (a list's term); NULL ends a table */
	char shrt;             /* its letter, 0 for none */
	const char *arg;       /* the argument's name; NULL: a flag; "[=NAME]": optional */
	int val;               /* what getopt_long() returns for it */
	const char *help;      /* '\n' breaks the --help line; the man page fills it */
	/* the argument's completion: NULL files, "@dir", "@none", "@presets",
	 * words, or "@NAME" for slc_help_completion()'s @words to expand */
	const char *complete;
};

struct slc_help_sect {
	const char *title;     /* NULL: paragraphs of the description */
	const char *text;      /* printed before the entries; lines indented by
	                          spaces are kept as they are in the man page */
	const struct slc_help_opt *opt;    /* entries, or NULL */
	int list;              /* the entries are terms, not options */
	/* entries known at run time, after .opt's: their number, at most @max */
	size_t (*more)(struct slc_help_opt *out, size_t max);
};

struct slc_help_cmd {
	const char *name;      /* "run"; NULL for the program itself */
	const char *summary;   /* one line */
	const char *usage;     /* synopsis lines after "slcscope ", '\n' between them */
	/* the operands' completion, by position (';' between positions, the last
	 * repeats): words, "@file", "@dir", "@presets", "@target", "@device" */
	const char *operands;
	const struct slc_help_sect *sect;  /* ends with an entry without title, text, opt and more */
};

/* slc_help_text() - the --help text of @c. */
void slc_help_text(FILE *out, const struct slc_help_cmd *c);

/* slc_help_man() - @c's man page (roff, man(7) macros); @cmds: the commands, NULL-terminated, for SEE ALSO. */
void slc_help_man(FILE *out, const struct slc_help_cmd *c, const struct slc_help_cmd *const *cmds, const char *version);

/*
 * slc_help_completion() - a bash completion script for the program @top and
 * its commands @cmds (NULL-terminated); @words expands the completion
 * "@NAME" of an option known only when the script is made (NULL: left to
 * the script).
 */
void slc_help_completion(FILE *out, const struct slc_help_cmd *top, const struct slc_help_cmd *const *cmds,
			 const char *(*words)(const char *name));

/*
 * slc_help_getopt() - @c's options as getopt_long() wants them: @lo (ended by
 * a zero entry) and the letters in @so; -1 when @lo (@nlo entries) or @so
 * (@nso bytes) is too small.
 */
int slc_help_getopt(const struct slc_help_cmd *c, struct option *lo, size_t nlo, char *so, size_t nso);

/*
 * slc_help_parse() - the options of another library's --help lines in @text
 * ("-q, --qd N  text", "    --seq-bytes SIZE  text", the text going on in
 * lines not starting with '-'), each taking an argument: their number, at
 * most @max.  @text is cut up in place and holds the strings.
 */
size_t slc_help_parse(char *text, struct slc_help_opt *e, size_t max);

/* slc_help_each() - call @fn on every option of @c (list sections aside), dynamic ones too. */
void slc_help_each(const struct slc_help_cmd *c, void (*fn)(const struct slc_help_opt *o, void *ctx), void *ctx);

/**
 * slc_help_main() - "slcscope help ARGS": with @argv none or a command's
 * name, its --help; "--man [CMD]" a man page; "--options [CMD]" the long
 * options getopt_long() is given; "--completion" the bash completion;
 * "help" or "--help" the program's help.  @docs[0] is the program's,
 * NULL-terminated.  Return: 0; -ENOENT an unknown command, -EINVAL a bad
 * request, with the reason in @why.
 */
int slc_help_main(FILE *out, int argc, char **argv, const struct slc_help_cmd *const *docs,
		  const char *(*words)(const char *name), const char *version, char *why, size_t len);

/**
 * slc_help_bad_option() - why getopt_long() (with opterr 0) returned '?' for
 * @arg, in one line into @buf, given the command's table @lo and getopt's
 * @optopt: "unknown option '--x'", "option '--p' is ambiguous: --plan,
 * --purge", "option '-o' needs a value", "option '--quiet' takes no value".
 */
void slc_help_bad_option(char *buf, size_t len, const struct option *lo, const char *arg, int optopt);

#endif
