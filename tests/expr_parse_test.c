/*
 * expr_parse_test.c - the expressions' syntax (gen/expr_parse.h) alone:
 * kgen_expr_parse_tree() makes the tree C would (precedence, casts, the
 * numbers' C++ types, each node's place in the text), refuses what is no
 * expression of the key's language at the byte at fault, and leaves the
 * faults of types to expr_type.h; kgen_expr_names() and kgen_expr_uses().
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/expr_parse.h"

/* The tree of text (key k), which must parse. */
static struct kgen_expr
tree(enum kgen_key k, const char *text)
{
	struct kgen_expr e;
	char why[200];
	size_t at;

	ck_assert_msg(kgen_expr_parse_tree(k, text, &e, &at, why, sizeof why) == KGEN_OK, "%s: %s (at %zu)", text, why,
	              at);
	ck_assert_int_eq(e.key, k);
	ck_assert_msg(e.root == e.n - 1, "%s: the root is not the last node", text);
	return e;
}

/* text (key k) must be refused at byte `at` with a message that begins with `why`. */
static void
refused(enum kgen_key k, const char *text, size_t at, const char *why)
{
	struct kgen_expr e;
	char msg[200];
	size_t where = 12345;

	ck_assert_msg(kgen_expr_parse_tree(k, text, &e, &where, msg, sizeof msg) == KGEN_ESPEC, "%s: accepted", text);
	ck_assert_msg(strncmp(msg, why, strlen(why)) == 0, "%s: the message is\n  %s\nnot\n  %s...", text, msg, why);
	ck_assert_msg(where == at, "%s: at %zu, not %zu", text, where, at);
}

/* The text of node n. */
static const char *
text_of(const struct kgen_expr *e, const char *text, int n, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", e->node[n].end - e->node[n].at, text + e->node[n].at);
	return buf;
}

/* C's precedence and associativity; each node after its operands, with its text. */
START_TEST(precedence_makes_c_s_tree)
{
	const char *text = "a + b * 2 - (a << 1 | b) ? a : -b";
	struct kgen_expr e = tree(KGEN_KEY_combine, text);
	const struct kgen_expr_node *root = &e.node[e.root], *sub, *add;
	char buf[64];
	int k;

	ck_assert_int_eq(root->kind, KGEN_N_COND);
	ck_assert_str_eq(text_of(&e, text, root->a, buf, sizeof buf), "a + b * 2 - (a << 1 | b)");
	ck_assert_str_eq(text_of(&e, text, root->c, buf, sizeof buf), "-b");
	sub = &e.node[root->a];
	ck_assert_int_eq(sub->kind, KGEN_N_BINARY);
	ck_assert_int_eq(sub->op, '-');                    /* (a + b * 2) - (...): left to right */
	add = &e.node[sub->a];
	ck_assert_int_eq(add->op, '+');
	ck_assert_int_eq(e.node[add->b].op, '*');          /* * binds tighter than + */
	ck_assert_int_eq(e.node[sub->b].op, '|');          /* the parentheses' content */
	ck_assert_int_eq(e.node[e.node[sub->b].a].op, kgen_expr_op("<<"));
	ck_assert_str_eq(text_of(&e, text, sub->b, buf, sizeof buf), "(a << 1 | b)");
	ck_assert_int_eq(e.node[root->c].kind, KGEN_N_UNARY);
	ck_assert_int_eq(e.node[root->c].op, '-');
	for (k = 0; k < e.n; k++) {
		const struct kgen_expr_node *x = &e.node[k];
		ck_assert(x->a < k && x->b < k && x->c < k);
		ck_assert(x->at <= x->op_at && x->op_at < x->end);
	}
	/* The operator's place is where a fault of it is shown. */
	ck_assert_int_eq(sub->op_at, (int)(strstr(text, "- (") - text));
}
END_TEST

/* Names are the key's own (as KGEN_V_*), calls the table's functions. */
START_TEST(names_and_calls)
{
	struct kgen_expr e = tree(KGEN_KEY_epilogue, "fmaf(v, acc, c) + row + col");
	int k, vars = 0, calls = 0;

	for (k = 0; k < e.n; k++) {
		if (e.node[k].kind == KGEN_N_VAR)
			vars |= 1 << e.node[k].op;
		if (e.node[k].kind == KGEN_N_CALL) {
			calls++;
			ck_assert_int_eq(e.node[k].op, KGEN_EXPR_FN_fmaf);
			ck_assert_int_ge(e.node[k].c, 0);
		}
	}
	ck_assert_int_eq(vars, (1 << KGEN_V_V) | (1 << KGEN_V_ACC) | (1 << KGEN_V_C) | (1 << KGEN_V_ROW) |
	                       (1 << KGEN_V_COL));
	ck_assert_int_eq(calls, 1);
	e = tree(KGEN_KEY_map, "x + i");
	ck_assert_int_eq(e.node[0].op, KGEN_V_X);
	ck_assert_int_eq(e.node[1].op, KGEN_V_I);
	refused(KGEN_KEY_map, "x + a", 4, "'a' is not a name of map, which has x and i");
	refused(KGEN_KEY_identity, "x", 0, "'x' is not a name of identity, which has none (a constant)");
	refused(KGEN_KEY_map, "foo(x)", 0, "unknown name 'foo'");
	refused(KGEN_KEY_map, "sqrt", 4, "'sqrt' is a function: call it, as name(...)");
	refused(KGEN_KEY_map, "sqrt(x, x)", 8, "too many arguments to sqrt");
	refused(KGEN_KEY_map, "fma(x, x)", 8, "fma takes 3 arguments");
	refused(KGEN_KEY_map, "return x", 0, "'return' is a C++ keyword");
	refused(KGEN_KEY_map, "float", 0, "'float' is a type: write a cast as (type)value");
}
END_TEST

/* Every function of the table is called with its number of arguments. */
START_TEST(every_function_parses)
{
	char text[96];
	int f, k;

	for (f = 0; f < KGEN_EXPR_FN_COUNT; f++) {
		struct kgen_expr e;
		snprintf(text, sizeof text, "%s(", kgen_expr_funcs[f].name);
		for (k = 0; k < kgen_expr_funcs[f].args; k++)
			strcat(text, k ? ", x" : "x");
		strcat(text, ")");
		e = tree(KGEN_KEY_map, text);
		ck_assert_int_eq(e.node[e.root].kind, KGEN_N_CALL);
		ck_assert_int_eq(e.node[e.root].op, f);
	}
}
END_TEST

/* A number has the type C++ gives its literal; a cast the type its words make. */
START_TEST(numbers_and_casts_have_their_types)
{
	static const struct { const char *text; int type; } cases[] = {
		{ "1", KGEN_EXPR_INT }, { "2147483648", KGEN_EXPR_LONG }, { "0x80000000", KGEN_EXPR_UINT },
		{ "1u", KGEN_EXPR_UINT }, { "4294967296u", KGEN_EXPR_ULONG }, { "1ll", KGEN_EXPR_LLONG },
		{ "1ULL", KGEN_EXPR_ULLONG }, { "0xffffffffffffffff", KGEN_EXPR_ULONG }, { "1.5", KGEN_EXPR_DOUBLE },
		{ "1.5f", KGEN_EXPR_FLOAT }, { "1e3", KGEN_EXPR_DOUBLE }, { "1.0l", KGEN_EXPR_LDOUBLE },
		{ "(unsigned long long)x", KGEN_EXPR_ULLONG }, { "(long int)x", KGEN_EXPR_LONG },
		{ "(int long long unsigned)x", KGEN_EXPR_ULLONG }, { "(signed char)x", KGEN_EXPR_SCHAR },
		{ "(short unsigned int)x", KGEN_EXPR_USHORT }, { "(long double)x", KGEN_EXPR_LDOUBLE },
		{ "(unsigned)x", KGEN_EXPR_UINT }, { "(bool)x", KGEN_EXPR_BOOL }, { "(Acc)x", KGEN_EXPR_ACC },
		{ "(Index)x", KGEN_EXPR_INDEX },
	};
	size_t k;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct kgen_expr e = tree(KGEN_KEY_map, cases[k].text);
		ck_assert_msg(e.node[e.root].type == cases[k].type, "%s: type %d, not %d", cases[k].text,
		              e.node[e.root].type, cases[k].type);
	}
	ck_assert_int_eq(tree(KGEN_KEY_map, "0x10").node[0].i, 16);
	ck_assert(tree(KGEN_KEY_map, "2.5").node[0].f == 2.5L);
	ck_assert_int_eq(tree(KGEN_KEY_post, "(Out)a").node[1].type, KGEN_EXPR_OUT);
	refused(KGEN_KEY_map, "(Out)x", 1, "Out, the result type, is post's");
	refused(KGEN_KEY_map, "(long char)x", 1, "'long char' is not a C type");
	refused(KGEN_KEY_map, "18446744073709551616", 0, "'18446744073709551616' is out of range");
	refused(KGEN_KEY_map, "9223372036854775808", 0, "'9223372036854775808' is too large for long long");
	refused(KGEN_KEY_map, "1.5u", 0, "'1.5u': C has no suffix u for a floating number");
	refused(KGEN_KEY_map, "1f", 0, "'1f': C has no suffix f for an integer: write 1.0f");
	refused(KGEN_KEY_map, "x + 1e39f", 4, "'1e39f' is too large for a float");
}
END_TEST

/* What is no expression is refused at its byte; the first fault wins. */
START_TEST(what_is_no_expression)
{
	char longest[KGEN_EXPR_MAX + 2];

	refused(KGEN_KEY_map, "", 0, "the expression is empty");
	refused(KGEN_KEY_map, "x;", 1, "';' ends a statement");
	refused(KGEN_KEY_map, "x = 1", 2, "'=' assigns");
	refused(KGEN_KEY_map, "x += 1", 2, "'+=' assigns");
	refused(KGEN_KEY_map, "x++", 1, "'++' assigns");
	refused(KGEN_KEY_map, "x, i", 1, "',' after a whole expression");
	refused(KGEN_KEY_map, "x)", 1, "')' closes no '('");
	refused(KGEN_KEY_map, "(x", 2, "expected ')' to close a '('");
	refused(KGEN_KEY_map, "x ? i", 5, "expected ':' of the '?'");
	refused(KGEN_KEY_map, "x +", 3, "the expression ends where a value is expected");
	refused(KGEN_KEY_map, "x[0]", 1, "subscripts");
	refused(KGEN_KEY_map, "x->y", 1, "'->': members");
	refused(KGEN_KEY_map, "x /* c */", 2, "a comment has no place");
	refused(KGEN_KEY_map, "\"x\"", 0, "a string literal has no place");
	refused(KGEN_KEY_map, "x\n", 1, "an expression is one line");
	refused(KGEN_KEY_map, "x @ 1", 2, "'@' has no place in an expression");
	refused(KGEN_KEY_map, "0xe+1", 0, "'0xe+1' is one number to C++ (a pp-number): write 0xe + 1");
	memset(longest, 'x', sizeof longest - 1);
	longest[sizeof longest - 1] = '\0';
	refused(KGEN_KEY_map, longest, KGEN_EXPR_MAX, "the expression is longer than 200 characters");
}
END_TEST

/* The tree holds at most KGEN_EXPR_NODES nodes, and nests 64 levels. */
START_TEST(limits)
{
	char text[KGEN_EXPR_MAX + 1] = "";
	int k;

	/* expression() is a level, and each unary minus one more: the 63rd minus is the 65th level. */
	for (k = 0; k < 70; k++)
		strcat(text, "- ");
	strcat(text, "x");
	refused(KGEN_KEY_map, text, 2 * 63, "the expression nests more than 64 levels deep");
	/* x+x+...: the 64th + is node 128 (the 129th), made at the end of the text. */
	strcpy(text, "x");
	for (k = 0; k < 64; k++)
		strcat(text, "+x");
	refused(KGEN_KEY_map, text, strlen(text), "the expression is too long (more than 128 nodes)");
}
END_TEST

/* A fault of types is not the parser's: sqrt(1) and 1.5 % 2 are trees. */
START_TEST(types_are_left_to_the_typer)
{
	ck_assert_int_eq(tree(KGEN_KEY_map, "sqrt(1)").n, 2);
	ck_assert_int_eq(tree(KGEN_KEY_map, "1.5 % 2").n, 3);
	ck_assert_int_eq(tree(KGEN_KEY_map, "~x").n, 2);
}
END_TEST

START_TEST(names_and_uses)
{
	ck_assert_str_eq(kgen_expr_names(KGEN_KEY_map), "x and i");
	ck_assert_str_eq(kgen_expr_names(KGEN_KEY_combine), "a and b");
	ck_assert_str_eq(kgen_expr_names(KGEN_KEY_post), "a and n");
	ck_assert_str_eq(kgen_expr_names(KGEN_KEY_epilogue), "v, acc, c, row, col, bias and residual");
	ck_assert_str_eq(kgen_expr_names(KGEN_KEY_identity), "none (a constant)");
	ck_assert(kgen_expr_uses("x * i", "i"));
	ck_assert(kgen_expr_uses("i", "i"));
	ck_assert(!kgen_expr_uses("x * 2", "i"));
	ck_assert(!kgen_expr_uses("min(x, 1)", "i"));     /* inside a name */
	ck_assert(!kgen_expr_uses("x * i2", "i"));
	ck_assert(!kgen_expr_uses("x * _i", "i"));
	ck_assert(!kgen_expr_uses("x * 1.e", "e"));       /* after a '.' */
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("expr_parse");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, precedence_makes_c_s_tree);
	tcase_add_test(tc, names_and_calls);
	tcase_add_test(tc, every_function_parses);
	tcase_add_test(tc, numbers_and_casts_have_their_types);
	tcase_add_test(tc, what_is_no_expression);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, types_are_left_to_the_typer);
	tcase_add_test(tc, names_and_uses);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
