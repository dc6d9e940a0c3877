// SPDX-License-Identifier: MIT
/*
 * Commands' descriptions printed as --help text, getopt_long() tables, man
 * pages and a bash completion script (slcscope/helpgen.h).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "slcscope/helpgen.h"

#define MAX_ENTRIES 128
#define HEAD_MAX 24      /* the widest "-o, --output FILE" column of --help */

static int sect_end(const struct slc_help_sect *s)
{
	return !s->title && !s->text && !s->opt && !s->more;
}

/* A section's entries, the static ones then the dynamic ones: their number. */
static size_t entries(const struct slc_help_sect *s, struct slc_help_opt *e)
{
	size_t n = 0;

	for (; s->opt && s->opt[n].lng && n < MAX_ENTRIES; n++)
		e[n] = s->opt[n];
	if (s->more)
		n += s->more(e + n, MAX_ENTRIES - n);
	return n;
}

static int optional_arg(const struct slc_help_opt *o)
{
	return o->arg && o->arg[0] == '[';
}

/* "-o, --output FILE", "    --lab[=DB]" or a list's term. */
static void head(char *b, size_t len, const struct slc_help_opt *o, int list)
{
	if (list)
		snprintf(b, len, "%s", o->lng);
	else
		snprintf(b, len, "%c%c%c --%s%s%s", o->shrt ? '-' : ' ', o->shrt ? o->shrt : ' ', o->shrt ? ',' : ' ',
			 o->lng, o->arg && !optional_arg(o) ? " " : "", o->arg ? o->arg : "");
}

/* The column of the entries' text: after the widest head, at most HEAD_MAX. */
static int text_column(const struct slc_help_cmd *c)
{
	struct slc_help_opt e[MAX_ENTRIES];
	char h[128];
	int col = 0;

	for (const struct slc_help_sect *s = c->sect; !sect_end(s); s++)
		for (size_t i = 0, n = entries(s, e); i < n; i++) {
			head(h, sizeof(h), &e[i], s->list);
			if ((int)strlen(h) > col)
				col = (int)strlen(h) > HEAD_MAX ? HEAD_MAX : (int)strlen(h);
		}
	return col;
}

static void text_entries(FILE *out, const struct slc_help_opt *e, size_t n, int list, int col)
{
	char h[128];

	for (size_t i = 0; i < n; i++) {
		const char *p = e[i].help;
		head(h, sizeof(h), &e[i], list);
		if ((int)strlen(h) > col)
			fprintf(out, "  %s\n", h);
		fprintf(out, "  %-*s  ", col, (int)strlen(h) > col ? "" : h);
		for (size_t k; (k = strcspn(p, "\n")), p[k]; p += k + 1)
			fprintf(out, "%.*s\n  %-*s  ", (int)k, p, col, "");
		fprintf(out, "%s\n", p);
	}
}

void slc_help_text(FILE *out, const struct slc_help_cmd *c)
{
	struct slc_help_opt e[MAX_ENTRIES];
	const char *u = c->usage;
	int col = text_column(c);

	for (int first = 1; *u; first = 0) {
		size_t k = strcspn(u, "\n");
		fprintf(out, "%s%s%.*s\n", first ? "Usage: " : "       ", u[0] == ' ' ? "" : "slcscope ", (int)k, u);
		u += k + !!u[k];
	}
	for (const struct slc_help_sect *s = c->sect; !sect_end(s); s++) {
		size_t n = entries(s, e);
		fprintf(out, "\n");
		if (s->title)
			fprintf(out, "%s:\n", s->title);
		if (s->text)
			fprintf(out, "%s", s->text);
		text_entries(out, e, n, s->list, col);
	}
}

/*
 * Roff text: backslashes as \e, a '-' that starts a word (an option, a
 * negative number, a lone dash) as \-, a line starting with '.' or '\''
 * guarded by \&.
 */
static void roff(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char prev = i ? s[i - 1] : ' ';
		if ((i == 0 || prev == '\n') && (s[i] == '.' || s[i] == '\''))
			fputs("\\&", out);
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-' && (isspace((unsigned char)prev) || strchr("([|,-=/", prev)))
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

/* Paragraphs (blank lines between them), indented lines kept as they are. */
static void roff_text(FILE *out, const char *t)
{
	int nf = 0;

	fputs(".PP\n", out);
	while (*t) {
		size_t k = strcspn(t, "\n");
		if (k == 0) {
			fputs(nf ? ".fi\n.PP\n" : ".PP\n", out);
			nf = 0;
		} else {
			if ((t[0] == ' ') != nf)
				fputs(nf ? ".fi\n" : ".nf\n", out);
			nf = t[0] == ' ';
			roff(out, t, k);
			fputc('\n', out);
		}
		t += k + !!t[k];
	}
	if (nf)
		fputs(".fi\n", out);
}

static void roff_upper(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc(toupper((unsigned char)s[i]), out);
}

static void roff_entries(FILE *out, const struct slc_help_opt *e, size_t n, int list)
{
	for (size_t i = 0; i < n; i++) {
		fputs(".TP\n", out);
		if (list) {
			fputs("\\fB", out);
			roff(out, e[i].lng, strlen(e[i].lng));
			fputs("\\fR\n", out);
		} else {
			if (e[i].shrt)
				fprintf(out, "\\fB\\-%c\\fR, ", e[i].shrt);
			fputs("\\fB\\-\\-", out);
			roff(out, e[i].lng, strlen(e[i].lng));
			fputs("\\fR", out);
			if (e[i].arg) {
				fputs(optional_arg(&e[i]) ? "" : " ", out);
				fputs("\\fI", out);
				roff(out, e[i].arg, strlen(e[i].arg));
				fputs("\\fR", out);
			}
			fputc('\n', out);
		}
		roff(out, e[i].help, strlen(e[i].help));
		fputc('\n', out);
	}
}

void slc_help_man(FILE *out, const struct slc_help_cmd *c, const struct slc_help_cmd *const *cmds, const char *version)
{
	struct slc_help_opt e[MAX_ENTRIES];
	int described = 0, titled = 0;

	fputs(".TH ", out);
	roff_upper(out, c->name ? "slcscope-" : "slcscope", c->name ? 9 : 8);
	if (c->name)
		roff_upper(out, c->name, strlen(c->name));
	/* no hyphenation: command and option names are read as they are */
	fprintf(out, " 1 \"\" \"slcscope %s\" \"slcscope manual\"\n.nh\n.SH NAME\nslcscope%s", version,
		c->name ? "\\-" : "");
	if (c->name)
		roff(out, c->name, strlen(c->name));
	fputs(" \\- ", out);
	roff(out, c->summary, strlen(c->summary));
	fputs("\n.SH SYNOPSIS\n.nf\n", out);
	for (const char *u = c->usage; *u;) {
		size_t k = strcspn(u, "\n");
		fputs(u[0] == ' ' ? "" : "\\fBslcscope\\fR ", out);
		roff(out, u, k);
		fputc('\n', out);
		u += k + !!u[k];
	}
	fputs(".fi\n", out);
	for (const struct slc_help_sect *s = c->sect; !sect_end(s); s++) {
		size_t n = entries(s, e);
		if (s->title) {            /* "Plans (--plan; ...)": a heading, then what is in brackets */
			size_t k = strcspn(s->title, "(");
			fputs(".SH ", out);
			roff_upper(out, s->title, k && s->title[k] ? k - 1 : k);
			fputc('\n', out);
			if (s->title[k]) {
				fputs(".PP\n", out);
				roff(out, s->title + k, strlen(s->title + k));
				fputc('\n', out);
			}
			titled = 1;
		} else if (!described || titled) {
			fputs(described ? ".SH NOTES\n" : ".SH DESCRIPTION\n", out);
			described = 1;
			titled = 0;
		}
		if (s->text)
			roff_text(out, s->text);
		roff_entries(out, e, n, s->list);
	}
	fputs(".SH SEE ALSO\n", out);
	for (size_t i = 0; cmds[i]; i++)
		if (cmds[i] != c)
			fprintf(out, "%s\\fBslcscope%s%s\\fR(1)", i && (cmds[0] != c || i > 1) ? ",\n" : "",
				cmds[i]->name ? "\\-" : "", cmds[i]->name ? cmds[i]->name : "");
	fputc('\n', out);
}

int slc_help_getopt(const struct slc_help_cmd *c, struct option *lo, size_t nlo, char *so, size_t nso)
{
	struct slc_help_opt e[MAX_ENTRIES];
	size_t n = 0, m = 0;

	for (const struct slc_help_sect *s = c->sect; !sect_end(s); s++) {
		size_t k = s->list ? 0 : entries(s, e);
		for (size_t i = 0; i < k; i++) {
			if (n + 1 >= nlo || m + 3 >= nso)
				return -1;
			lo[n++] = (struct option){ e[i].lng, !e[i].arg ? no_argument : optional_arg(&e[i]) ?
						   optional_argument : required_argument, NULL, e[i].val };
			if (e[i].shrt) {
				so[m++] = e[i].shrt;
				if (e[i].arg)
					so[m++] = ':';
			}
		}
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	so[m] = 0;
	return 0;
}

size_t slc_help_parse(char *text, struct slc_help_opt *e, size_t max)
{
	char *end = text;
	size_t n = 0;

	for (char *line = text, *next, *p; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = 0;
		p = line + strspn(line, " ");
		if (*p == '-' && n < max) {              /* "-q, --qd N  text" or "    --seq-bytes SIZE text" */
			struct slc_help_opt *o = &e[n++];
			*o = (struct slc_help_opt){ .complete = "@none" };
			if (p[1] != '-') {
				o->shrt = p[1];
				p += strspn(p + 2, ", ") + 2;
			}
			o->lng = p + 2;
			p += strcspn(p, " ");
			*p++ = 0;
			o->arg = p;
			p += strcspn(p, " ");
			if (*p)
				*p++ = 0;
			o->help = end = p + strspn(p, " ");
			end += strlen(end);
		} else if (n && *p) {                    /* the text goes on */
			if (*e[n - 1].help)
				*end++ = '\n';
			memmove(end, p, strlen(p) + 1);
			end += strlen(end);
		}
	}
	return n;
}

void slc_help_each(const struct slc_help_cmd *c, void (*fn)(const struct slc_help_opt *o, void *ctx), void *ctx)
{
	struct slc_help_opt e[MAX_ENTRIES];

	for (const struct slc_help_sect *s = c->sect; !sect_end(s); s++) {
		size_t k = s->list ? 0 : entries(s, e);
		for (size_t i = 0; i < k; i++)
			fn(&e[i], ctx);
	}
}

void slc_help_bad_option(char *buf, size_t len, const struct option *lo, const char *arg, int optopt)
{
	char names[256] = "";
	size_t nlen, n = 0, exact = 0, hit = 0;

	if (strncmp(arg, "--", 2) != 0) {
		/* a short option: getopt left the letter in optopt */
		for (size_t i = 0; optopt && lo[i].name; i++)
			if (lo[i].val == optopt && lo[i].has_arg == required_argument) {
				snprintf(buf, len, "option '-%c' needs a value", optopt);
				return;
			}
		snprintf(buf, len, "unknown option '-%c'", optopt ? optopt : arg[1]);
		return;
	}
	nlen = strcspn(arg + 2, "=");
	for (size_t i = 0; lo[i].name; i++) {
		if (strncmp(lo[i].name, arg + 2, nlen)) continue;
		if (strlen(lo[i].name) == nlen) exact = i + 1;
		hit = i;
		n++;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s--%s", n > 1 ? ", " : "", lo[i].name);
	}
	if (exact) hit = exact - 1;
	if (!exact && n > 1) snprintf(buf, len, "option '%.*s' is ambiguous: %s", (int)nlen + 2, arg, names);
	else if (n == 0) snprintf(buf, len, "unknown option '%.*s'", (int)nlen + 2, arg);
	else if (lo[hit].has_arg == no_argument && arg[2 + nlen] == '=')
		snprintf(buf, len, "option '--%s' takes no value", lo[hit].name);
	else snprintf(buf, len, "option '--%s' needs a value", lo[hit].name);
}

int slc_help_main(FILE *out, int argc, char **argv, const struct slc_help_cmd *const *docs,
		  const char *(*words)(const char *name), const char *version, char *why, size_t len)
{
	const char *mode = argc > 0 && argv[0][0] == '-' ? argv[0] : NULL, *name = argc > 0 ? argv[argc - 1] : NULL;
	const struct slc_help_cmd *cmd = docs[0];
	struct option lo[128];
	char so[128];
	int nargs = argc - !!mode;

	if ((mode && (!strcmp(mode, "--help") || !strcmp(mode, "-h"))) || (nargs == 1 && !mode && !strcmp(name, "help"))) {
		slc_help_text(out, docs[0]);    /* "slcscope help --help", "slcscope help help" */
		return 0;
	}
	if (nargs > 1 || (mode && strcmp(mode, "--man") && strcmp(mode, "--options") && strcmp(mode, "--completion"))) {
		snprintf(why, len, "takes one command name");
		return -EINVAL;
	}
	for (size_t i = 1; nargs == 1 && docs[i]; i++)
		if (!strcmp(docs[i]->name, name)) cmd = docs[i];
	if (nargs == 1 && cmd == docs[0]) {
		snprintf(why, len, "unknown command '%s'", name);
		return -ENOENT;
	}
	if (mode && !strcmp(mode, "--completion"))
		slc_help_completion(out, docs[0], docs + 1, words);
	else if (mode && !strcmp(mode, "--man"))
		slc_help_man(out, cmd, docs, version);
	else if (mode && !slc_help_getopt(cmd, lo, sizeof(lo) / sizeof(lo[0]), so, sizeof(so)))
		for (const struct option *o = lo; o->name; o++) fprintf(out, "--%s\n", o->name);  /* what is parsed */
	else
		slc_help_text(out, cmd);
	return 0;
}
