/*
 * reserved_test.c - a kernel name cannot meet a name of kgen's own.
 *
 * gen/spec.c refuses as a kernel name what kgen's generated code declares,
 * from a table that tools/reserved.sh writes at build time out of the
 * templates and the emitters' sources.  This test reads the same code with a
 * scanner of its own (tokens, not the script's lines) and asks the refusal
 * itself about every name it finds:
 *   - every file under templates/, subfolders too, walked on disk: each is
 *     embedded as it is (the template list is made from the folder), and
 *     each type, constant, function, macro and template parameter it
 *     declares is refused;
 *   - every golden file (what the emitters write around the templates): the
 *     same, the kernels' own names (extern "C") aside.
 * So a template added under templates/ needs no other edit: make lists,
 * embeds and reserves it, and this test fails, naming the file and the
 * name, if any of the three falls behind.
 */
#include "config.h"
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gen/spec.h"
#include "gen/tpl.h"
#include "gen/util.h"

#define MAX_TOKENS 200000

enum tok_kind { T_IDENT, T_PUNCT, T_STRING, T_HOLE };

/* A token: an identifier, one punctuation character, a string or a
 * {{placeholder}}; `glued` when a hole touches it (no name: {{name}}_init). */
struct tok {
	enum tok_kind kind;
	const char *at;
	size_t len;
	int glued;
};

struct scan {
	struct tok *t;
	size_t n;
	const char *file;
	size_t found, missing;
	char missed[2048]; /* each name once, with the first file that declares it */
};

static int
is_ident(char c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

static void
push(struct scan *s, enum tok_kind kind, const char *at, size_t len)
{
	int glued = kind == T_HOLE || (s->n > 0 && s->t[s->n - 1].kind == T_HOLE &&
	                               s->t[s->n - 1].at + s->t[s->n - 1].len == at);
	ck_assert_uint_lt(s->n, MAX_TOKENS);
	if (glued && s->n > 0 && s->t[s->n - 1].kind == T_IDENT && s->t[s->n - 1].at + s->t[s->n - 1].len == at)
		s->t[s->n - 1].glued = 1;
	s->t[s->n++] = (struct tok){ .kind = kind, .at = at, .len = len, .glued = glued };
}

/* Skip a comment, a string or a character constant at p; where it ends. */
static const char *
skip_quoted(struct scan *s, const char *p)
{
	char q = *p;
	const char *start = p;

	if (p[0] == '/' && p[1] == '/')
		return p + strcspn(p, "\n");
	if (p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");
		return e ? e + 2 : p + strlen(p);
	}
	for (p++; *p && *p != q; p++)
		if (*p == '\\' && p[1])
			p++;
	if (q == '"')
		push(s, T_STRING, start, (size_t)(p - start) + (*p != 0));
	return *p ? p + 1 : p;
}

/* Cut text into tokens; #define NAME becomes the tokens "#define" NAME. */
static void
tokenize(struct scan *s, const char *text)
{
	const char *p = text;
	int bol = 1;

	while (*p) {
		if (*p == '\n' || *p == ' ' || *p == '\t' || *p == '\r') {
			bol = bol || *p == '\n';
			p++;
			continue;
		}
		if (bol && *p == '#') {
			const char *d = p + 1 + strspn(p + 1, " \t");
			if (strncmp(d, "define", 6) == 0 && (d[6] == ' ' || d[6] == '\t')) {
				push(s, T_PUNCT, "#define", 7);
				p = d + 6;
			} else {
				p += strcspn(p, "\n");
			}
		} else if ((p[0] == '/' && (p[1] == '/' || p[1] == '*')) || *p == '"' || *p == '\'') {
			p = skip_quoted(s, p);
		} else if (p[0] == '{' && p[1] == '{') {
			const char *e = strstr(p, "}}");
			push(s, T_HOLE, p, e ? (size_t)(e + 2 - p) : 2);
			p = e ? e + 2 : p + 2;
		} else if (is_ident(*p, 0)) {
			size_t n = 1;
			while (is_ident(p[n], 0))
				n++;
			if (is_ident(*p, 1))
				push(s, T_IDENT, p, n);
			p += n;
		} else {
			push(s, T_PUNCT, p++, 1);
		}
		bol = 0;
	}
}

static int
tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && strncmp(t->at, word, t->len) == 0 && t->kind != T_STRING;
}

/* Ask the spec's refusal about the name at token i. */
static void
check_name(struct scan *s, size_t i)
{
	const struct tok *t = &s->t[i];
	char name[64], why[256];
	long long v;

	if (t->kind != T_IDENT || t->glued || t->len >= sizeof name)
		return;
	memcpy(name, t->at, t->len);
	name[t->len] = 0;
	if (name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')))
		return;
	s->found++;
	if (kgen_spec_parse_value(KGEN_KEY_name, name, &v, why, sizeof why) == KGEN_OK) {
		char line[sizeof name + 8];
		size_t used = strlen(s->missed);
		snprintf(line, sizeof line, ": '%s'\n", name);
		if (!strstr(s->missed, line)) {
			s->missing++;
			if (used + strlen(s->file) + strlen(line) + 4 < sizeof s->missed)
				snprintf(s->missed + used, sizeof s->missed - used, "  %s%s", s->file, line);
		}
	}
}

/* The token after the bracketed group opening at i ((, [, { or <). */
static size_t
skip_group(const struct scan *s, size_t i)
{
	const char open = s->t[i].at[0], close = open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
	int depth = 0;

	for (; i < s->n; i++)
		if (s->t[i].kind == T_PUNCT && s->t[i].at[0] == open)
			depth++;
		else if (s->t[i].kind == T_PUNCT && s->t[i].at[0] == close && --depth == 0)
			return i + 1;
	return s->n;
}

static int
punct(const struct scan *s, size_t i, char c)
{
	return i < s->n && s->t[i].kind == T_PUNCT && s->t[i].at[0] == c;
}

/* typedef ... NAME;  the last name before the ';' (an array's [N] aside). */
static void
scan_typedef(struct scan *s, size_t i)
{
	size_t last = 0;

	for (i++; i < s->n && !punct(s, i, ';');)
		if (punct(s, i, '(') || punct(s, i, '[') || punct(s, i, '{'))
			i = skip_group(s, i);
		else if (s->t[i].kind == T_IDENT)
			last = i++;
		else
			i++;
	if (last)
		check_name(s, last);
}

/* constexpr TYPE NAME = ..., NAME = ...;  each name before a lone '='. */
static void
scan_constexpr(struct scan *s, size_t i)
{
	for (i++; i < s->n && !punct(s, i, ';');)
		if (punct(s, i, '(') || punct(s, i, '[') || punct(s, i, '{'))
			i = skip_group(s, i);
		else if (s->t[i].kind == T_IDENT && punct(s, i + 1, '=') && !punct(s, i + 2, '='))
			check_name(s, i++);
		else
			i++;
}

/* template <int NAME, bool NAME = ...>: the parameters. */
static void
scan_template(struct scan *s, size_t i)
{
	size_t end, last = 0;
	int in_default = 0;

	if (!punct(s, i + 1, '<'))
		return;
	end = skip_group(s, i + 1);
	for (i += 2; i < end; i++) {
		if (punct(s, i, ',') || i + 1 == end) {
			if (last)
				check_name(s, last);
			last = 0;
			in_default = 0;
		} else if (punct(s, i, '=')) {
			in_default = 1;
		} else if (s->t[i].kind == T_IDENT && !in_default) {
			last = i;
		}
	}
}

/* struct|class|union|enum [alignas(...)] NAME followed by {, : or ;. */
static void
scan_type(struct scan *s, size_t i)
{
	i++;
	if (i < s->n && (tok_is(&s->t[i], "alignas") || tok_is(&s->t[i], "__align__")) && punct(s, i + 1, '('))
		i = skip_group(s, i + 1);
	if (i < s->n && s->t[i].kind == T_IDENT && (punct(s, i + 1, '{') || punct(s, i + 1, ':') || punct(s, i + 1, ';')))
		check_name(s, i);
}

/* ... __device__|__global__ ... NAME(: the function's name, unless it is a
 * kernel's own (extern "C", named by the spec). */
static void
scan_function(struct scan *s, size_t from, size_t i)
{
	size_t k;

	for (k = from; k < i; k++)
		if (tok_is(&s->t[k], "extern") && k + 1 < s->n && s->t[k + 1].kind == T_STRING)
			return;
	for (i++; i < s->n && !punct(s, i, ';') && !punct(s, i, '{') && !punct(s, i, '='); i++) {
		if ((tok_is(&s->t[i], "__launch_bounds__") || tok_is(&s->t[i], "alignas")) && punct(s, i + 1, '(')) {
			i = skip_group(s, i + 1) - 1;
			continue;
		}
		if (punct(s, i, '(')) {
			if (i > 0)
				check_name(s, i - 1);
			return;
		}
	}
}

/* Every declaration of text, checked; the start of a declaration is the
 * token after the last ';', '{' or '}'. */
static void
scan_text(struct scan *s, const char *file, const char *text)
{
	size_t i, start = 0;

	s->file = file;
	s->n = 0;
	tokenize(s, text);
	for (i = 0; i < s->n; i++) {
		const struct tok *t = &s->t[i];
		if (punct(s, i, ';') || punct(s, i, '{') || punct(s, i, '}'))
			start = i + 1;
		else if (tok_is(t, "#define") && i + 1 < s->n)
			check_name(s, i + 1);
		else if (tok_is(t, "typedef"))
			scan_typedef(s, i);
		else if (tok_is(t, "using") && i + 2 < s->n && punct(s, i + 2, '='))
			check_name(s, i + 1);
		else if (tok_is(t, "constexpr") && !(i > 0 && tok_is(&s->t[i - 1], "if")))
			scan_constexpr(s, i);
		else if (tok_is(t, "template"))
			scan_template(s, i);
		else if (tok_is(t, "struct") || tok_is(t, "class") || tok_is(t, "union") || tok_is(t, "enum"))
			scan_type(s, i);
		else if (tok_is(t, "__device__") || tok_is(t, "__global__"))
			scan_function(s, start, i);
	}
}

static char *
slurp(const char *path)
{
	char *text;
	size_t len;
	kgen_error err;

	ck_assert_msg(kgen_read_file(path, &text, &len, &err) == KGEN_OK, "%s: %s", path, err.message);
	return text;
}

/* Each *.cu under dir (rel: its path under templates/, "" at the top):
 * embedded as it is on disk, and its declarations checked. */
static void
walk_templates(struct scan *s, const char *dir, const char *rel, size_t *files)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((e = readdir(d)) != NULL) {
		char path[1024], name[512];
		struct stat st;
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		ck_assert_int_eq(stat(path, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			walk_templates(s, path, name, files);
		} else if (len > 3 && strcmp(e->d_name + len - 3, ".cu") == 0) {
			char *text = slurp(path);
			const char *embedded = kgen_template(name);
			ck_assert_msg(embedded != NULL, "templates/%s is not embedded: templates/list.am is behind the "
			              "folder (make rewrites it; ./bootstrap does too)", name);
			ck_assert_msg(strcmp(embedded, text) == 0, "templates/%s is embedded as an older text", name);
			scan_text(s, path, text);
			free(text);
			(*files)++;
		}
	}
	closedir(d);
}

static struct scan *
scan_new(void)
{
	struct scan *s = calloc(1, sizeof *s);
	ck_assert_ptr_nonnull(s);
	s->t = calloc(MAX_TOKENS, sizeof *s->t);
	ck_assert_ptr_nonnull(s->t);
	return s;
}

static void
scan_free(struct scan *s)
{
	free(s->t);
	free(s);
}

/* The scanner itself finds each kind of declaration (a scanner that found
 * nothing would pass every file). */
START_TEST(scanner_finds_each_kind)
{
	struct scan *s = scan_new();

	scan_text(s, "inline", "#define M 1\ntypedef unsigned short *Ptr;\nusing U = int;\n"
	          "struct alignas(VEC * sizeof(T)) Vec { T v[VEC]; };\nconstexpr int A = 1, B = A == 1 ? 2 : 3;\n"
	          "template <int P, bool Q = true>\nstatic __device__ __forceinline__ Acc helper(Acc a) { int local = 0; }\n"
	          "extern \"C\" __global__ void __launch_bounds__(THREADS) {{name}}_init(Acc *out) {}\n"
	          "extern \"C\" __global__ void user_kernel(Acc *out) {}\n"
	          "static __device__ __forceinline__ Acc {{fn}}(unsigned short x) {}\n");
	/* M Ptr U Vec A B P Q helper: nine; not local, {{name}}_init, user_kernel, {{fn}}. */
	ck_assert_uint_eq(s->found, 9);
	scan_free(s);
}
END_TEST

START_TEST(every_template_is_embedded_and_its_names_reserved)
{
	struct scan *s = scan_new();
	size_t files = 0;

	walk_templates(s, TOP_SRCDIR "/templates", "", &files);
	ck_assert_uint_gt(files, 50);
	ck_assert_uint_gt(s->found, 150);
	ck_assert_msg(s->missing == 0, "%zu names the templates declare are not reserved (tools/reserved.sh missed "
	              "them):\n%s", s->missing, s->missed);
	scan_free(s);
}
END_TEST

/* What the emitters write around the templates (Acc, identity(), TILE_M,
 * matmul's c_to_acc named through {{fn}}) shows in the golden files. */
START_TEST(every_golden_file_declares_only_reserved_names)
{
	struct scan *s = scan_new();
	DIR *d = opendir(TOP_SRCDIR "/tests/golden");
	struct dirent *e;
	size_t files = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL) {
		char path[1024];
		char *text;
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 3, ".cu") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", TOP_SRCDIR "/tests/golden", e->d_name);
		text = slurp(path);
		scan_text(s, path, text);
		free(text);
		files++;
	}
	closedir(d);
	ck_assert_uint_gt(files, 50);
	ck_assert_msg(s->missing == 0, "%zu names the generated code declares are not reserved (tools/reserved.sh "
	              "missed them):\n%s", s->missing, s->missed);
	scan_free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("reserved");
	TCase *tc = tcase_create("names");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, scanner_finds_each_kind);
	tcase_add_test(tc, every_template_is_embedded_and_its_names_reserved);
	tcase_add_test(tc, every_golden_file_declares_only_reserved_names);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
