/*
 * fuzz_expr_nvrtc.c - libFuzzer over op: custom's expressions, with NVRTC
 * as the oracle: an expression kgen accepts must compile.  kgen checks an
 * expression's text and C++ types (gen/expr_parse.c, gen/expr_type.c) so
 * that `kgen check` and `kgen compile` agree; a disagreement is a crash here, the expression and
 * NVRTC's log on stderr.  What must hold, for every input:
 *   - no memory error or undefined behaviour (built with ASan and UBSan);
 *   - an expression refused is KGEN_ESPEC with a message;
 *   - an expression accepted (kgen_spec_set(), then kgen_expr_check()
 *     with the spec's types) generates, and NVRTC compiles the source for
 *     sm_90 (kgen_compile(): no GPU needed).
 * The input's first byte picks the family, the key (map, combine, identity,
 * post), the element type, the accumulator's and the index's; the rest is
 * either the expression's text as it is (the lexer's cases: 0xe+1, 1e39f)
 * or, when the first byte's top bit is set, bytes that choose an
 * expression from the language's grammar (every node kind, function, cast
 * and literal form), so that most inputs parse and reach NVRTC.  NVRTC
 * takes tens of milliseconds a spec, so this is built by `make fuzz` only,
 * not by `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/expr.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/* NVRTC's own allocations are not ours to account for. */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

/* How many expressions kgen refused, and how many NVRTC compiled: said at exit. */
static unsigned long refused, compiled;

static void
report(void)
{
	fprintf(stderr, "fuzz_expr_nvrtc: %lu expressions refused by kgen, %lu accepted and compiled by NVRTC\n",
	        refused, compiled);
}

static const char *const keys[] = { "map", "combine", "identity", "post" };
static const char *const dtypes[] = { "f32", "f64", "i32", "u32", "i64", "f16", "bf16", "f32" };
static const char *const accs[] = { NULL, "f32", "f64", "i32", "u32", "i64", NULL, "f64" };

/* The grammar's pieces: literals of every form, casts, functions with their arguments. */
static const char *const literals[] = {
	"0", "1", "2", "7", "-1", "2147483647", "2147483648", "4294967295", "4294967296", "0x7fffffff", "0xffffffff",
	"0x8000000000000000", "9223372036854775807", "017", "1u", "1U", "1l", "1L", "1ul", "1lu", "1ll", "1LL",
	"1ull", "0xffu", "1.0", "1.5f", "0.5F", ".5", "5.", "1e3", "1E-3f", "2.e-1l", "1.0l", "3.L", "1e38f",
	"3.4028235e38f", "1.4e-45f", "1e-45f", "1e308", "4.9e-324", "0xe", "0x1E", "0.0f", "1e5",
};
static const char *const casts[] = {
	"bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "long",
	"unsigned long", "long long", "unsigned long long", "float", "double", "long double", "Acc", "Index",
	"Out", "long int", "short int", "signed",
};
static const struct { const char *name; int args; } calls[] = {
	{ "abs", 1 }, { "fabs", 1 }, { "fabsf", 1 }, { "llabs", 1 }, { "min", 2 }, { "max", 2 }, { "fmin", 2 },
	{ "fminf", 2 }, { "fmax", 2 }, { "fmaxf", 2 }, { "fmod", 2 }, { "fmodf", 2 }, { "sqrt", 1 }, { "sqrtf", 1 },
	{ "rsqrt", 1 }, { "cbrt", 1 }, { "exp", 1 }, { "expf", 1 }, { "exp2", 1 }, { "log", 1 }, { "log2f", 1 },
	{ "pow", 2 }, { "powf", 2 }, { "hypot", 2 }, { "sin", 1 }, { "tanh", 1 }, { "atan2", 2 }, { "erf", 1 },
	{ "floor", 1 }, { "ceilf", 1 }, { "round", 1 }, { "trunc", 1 }, { "fma", 3 }, { "fmaf", 3 },
	{ "copysign", 2 }, { "copysignf", 2 }, { "isnan", 1 }, { "isinf", 1 }, { "isfinite", 1 }, { "signbit", 1 },
	{ "__int_as_float", 1 }, { "__float_as_int", 1 }, { "__longlong_as_double", 1 },
	{ "__double_as_longlong", 1 },
};
static const char *const binaries[] = {
	"+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||",
};
static const char *const unaries[] = { "-", "+", "!", "~" };

/* The bytes that choose an expression, read one at a time (0 once used up). */
struct source {
	const uint8_t *p, *end;
};

static unsigned
pick(struct source *src, unsigned n)
{
	return src->p < src->end ? *src->p++ % n : 0;
}

struct text {
	char s[512];
	size_t len;
};

static void
put(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n < sizeof t->s) {
		memcpy(t->s + t->len, s, n + 1);
		t->len += n;
	}
}

/* Has this (spec, key, expression) been compiled already?  Many inputs
 * make one expression, and NVRTC is the slow part: each is compiled once. */
static int
seen(const char *yaml, int k, const char *expr)
{
	static uint64_t table[1 << 16];
	static size_t used;
	uint64_t h = 1469598103934665603ull + (uint64_t)k;
	const char *p;
	size_t i;

	for (p = yaml; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (p = expr; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	h |= 1;
	for (i = h % (1 << 16); table[i]; i = (i + 1) % (1 << 16))
		if (table[i] == h)
			return 1;
	if (used < (1 << 15)) {  /* half full at most: then each is compiled again */
		table[i] = h;
		used++;
	}
	return 0;
}

/* An expression of key k's names, chosen by src's bytes, at most `depth` deep. */
static void
generate(struct source *src, struct text *t, int k, int depth)
{
	static const char *const names[4][2] = { { "x", "i" }, { "a", "b" }, { NULL, NULL }, { "a", "n" } };
	unsigned what = depth <= 0 || src->p >= src->end ? pick(src, 2) : pick(src, 9), j;

	switch (what) {
	case 0:
		put(t, literals[pick(src, (unsigned)(sizeof literals / sizeof literals[0]))]);
		return;
	case 1:
		put(t, names[k][0] ? names[k][pick(src, 2)] : literals[pick(src, 8)]);
		return;
	case 2:
		put(t, unaries[pick(src, 4)]);
		put(t, pick(src, 2) ? "(" : " (");
		generate(src, t, k, depth - 1);
		put(t, ")");
		return;
	case 3: case 4:
		put(t, "(");
		generate(src, t, k, depth - 1);
		put(t, " ");
		put(t, binaries[pick(src, (unsigned)(sizeof binaries / sizeof binaries[0]))]);
		put(t, " ");
		generate(src, t, k, depth - 1);
		put(t, ")");
		return;
	case 5: case 6:
		j = pick(src, (unsigned)(sizeof calls / sizeof calls[0]));
		put(t, calls[j].name);
		put(t, "(");
		generate(src, t, k, depth - 1);
		if (calls[j].args > 1) {
			put(t, ", ");
			generate(src, t, k, depth - 1);
		}
		if (calls[j].args > 2) {
			put(t, ", ");
			generate(src, t, k, depth - 1);
		}
		put(t, ")");
		return;
	case 7:
		j = pick(src, (unsigned)(sizeof casts / sizeof casts[0]));
		put(t, "(");
		put(t, casts[j][0] == 'O' && k != 3 ? "Acc" : casts[j]);
		put(t, ")");
		generate(src, t, k, depth - 1);
		return;
	default:
		put(t, "(");
		generate(src, t, k, depth - 1);
		put(t, " ? ");
		generate(src, t, k, depth - 1);
		put(t, " : ");
		generate(src, t, k, depth - 1);
		put(t, ")");
		return;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int registered;
	char yaml[256], *src = NULL, *log = NULL;
	struct text expr = { "", 0 };
	kgen_spec *spec = NULL;
	kgen_error err;
	kgen_status st;
	void *image = NULL;
	size_t image_size;
	unsigned sel;
	int k;

	if (!registered) {
		registered = 1;
		atexit(report);
	}
	if (size < 2 || size > 512)
		return 0;
	sel = data[0] | (unsigned)data[1] << 8;
	k = (int)(sel & 3);
	if (sel & 0x8000) {
		struct source s = { data + 2, data + size };
		generate(&s, &expr, k, 6);
	} else if (size - 2 < sizeof expr.s) {
		memcpy(expr.s, data + 2, size - 2);
		expr.s[size - 2] = '\0';
		if (strlen(expr.s) != size - 2)
			return 0;  /* a NUL: not text */
	}
	/* A spec of op: custom of these types, then the expression set as its key. */
	snprintf(yaml, sizeof yaml, "kernel: %s\nop: custom\ndtype: %s\n%s%s%s%scombine: a + b\nidentity: 0\n",
	         sel & 0x4000 ? "reduce_axis" : "reduce", dtypes[(sel >> 2) & 7], accs[(sel >> 5) & 7] ? "acc_dtype: " : "",
	         accs[(sel >> 5) & 7] ? accs[(sel >> 5) & 7] : "", accs[(sel >> 5) & 7] ? "\n" : "",
	         sel & 0x4000 ? "" : sel & 0x100 ? "index: 32\n" : "");
	if (kgen_spec_load_string(yaml, strlen(yaml), "fuzz.yaml", &spec, &err) != KGEN_OK)
		return 0;  /* a pair the op refuses (no such types) */
	st = kgen_spec_set(spec, keys[k], expr.s, &err);
	if (st == KGEN_OK)
		st = kgen_expr_check((const struct kgen_spec *)spec, &err);
	if (st != KGEN_OK) {
		CHECK(st == KGEN_ESPEC && err.status == st && err.message[0]);
		refused++;
		kgen_spec_free(spec);
		return 0;
	}
	CHECK(kgen_generate(spec, &src, &err) == KGEN_OK && src);
	if (seen(yaml, k, expr.s)) {
		free(src);
		kgen_spec_free(spec);
		return 0;
	}
	st = kgen_compile(src, "fuzz.cu", "sm_90", KGEN_IMAGE_PTX, &image, &image_size, &log, &err);
	if (st != KGEN_OK) {
		fprintf(stderr, "kgen accepts %s: %s (%s) but NVRTC refuses it:\n%s\n", keys[k], expr.s, yaml,
		        log ? log : err.message);
		CHECK(st == KGEN_OK);
	}
	compiled++;
	free(image);
	free(log);
	free(src);
	kgen_spec_free(spec);
	return 0;
}
