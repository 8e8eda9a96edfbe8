/* step_source.c - kgen_step_source(): the source of one kernel of a
 * generated file, for compiling a spec's kernels apart.
 *
 * NVRTC compiles every extern "C" kernel of a program, one after another:
 * a file of six kernels (strategy: auto rows) costs six kernels' NVVM and
 * ptxas time on one thread.  Compiled as one program each, side by side,
 * a cold build costs about its slowest kernel (runtime/context.c), and each
 * kernel's code is the same as in the whole file (bench/jit/nvrtc_options
 * --steps compares the cubins' sections), but where kernels share a
 * file-scope __shared__ array (the row family's clusters): the whole file
 * places it at another offset.
 *
 * This works on the text because every template writes a kernel the same
 * way, which tests/sample_test holds every sampled spec to: a line that
 * begins `extern "C" __global__`, the kernel's name followed by `(` before
 * the body's `{`, and the body closed by a `}` alone at the start of a
 * line.  The comment lines right above a kernel are its own and go with
 * it.  Nothing else of the file changes: shared helpers a slice no longer
 * calls cost NVRTC next to nothing (templates are not instantiated,
 * static functions are not emitted). */
#include "config.h"
#include <ctype.h>
#include <string.h>
#include "family.h"

#define KERNEL_START "extern \"C\" __global__"

/* One kernel definition in the text: [from, to) with the comment lines
 * above it, and the step it defines. */
struct def {
	size_t from, to;
	int step;
};

/* Whether `name` followed by '(' (spaces between allowed) occurs in
 * [p, end) as a whole word. */
static int
names(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name);
	const char *q;

	for (q = p; q + n <= end; q++) {
		const char *r = q + n;
		if (*q != *name || memcmp(q, name, n) != 0)  /* a call per byte was most of a build's generation */
			continue;
		if (q > p && (q[-1] == '_' || isalnum((unsigned char)q[-1])))
			continue;
		while (r < end && (*r == ' ' || *r == '\n'))
			r++;
		if (r < end && *r == '(')
			return 1;
	}
	return 0;
}

/* The start of the comment lines ("//") right above line start `at`. */
static size_t
comment_above(const char *src, size_t at)
{
	while (at > 0) {
		size_t prev = at - 1;  /* the '\n' ending the line above */
		while (prev > 0 && src[prev - 1] != '\n')
			prev--;
		if (strncmp(src + prev, "//", 2) != 0)
			break;
		at = prev;
	}
	return at;
}

kgen_status
kgen_step_source(const struct kgen_spec *s, const struct kgen_contract *p, const char *source, int step, char **out,
                 kgen_error *err)
{
	struct def defs[KGEN_MAX_STEPS];
	char name[KGEN_MAX_STEPS][128];
	int ndefs = 0, seen[KGEN_MAX_STEPS] = { 0 }, i;
	const char *line;
	strbuf b;
	size_t at;

	*out = NULL;
	if (step < 0 || step >= p->nsteps)
		return kgen_fail(err, KGEN_EINVAL, "kgen_step_source: step %d of %d", step, p->nsteps);
	for (i = 0; i < p->nsteps; i++)
		snprintf(name[i], sizeof name[i], "%s%s", kgen_spec_kernel_name(s), p->step[i].suffix);
	for (line = source; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *body, *close;
		int which = -1, j;

		if (strncmp(line, KERNEL_START, strlen(KERNEL_START)) != 0)
			continue;
		body = strstr(line, "\n{");
		close = body ? strstr(body, "\n}") : NULL;
		if (!close || (close[2] != '\n' && close[2] != '\0') || ndefs == KGEN_MAX_STEPS)
			goto malformed;
		/* The longest name that matches: "k_init(" is not "k(". */
		for (j = 0; j < p->nsteps; j++)
			if (names(line, body, name[j]) && (which < 0 || strlen(name[j]) > strlen(name[which])))
				which = j;
		if (which < 0 || seen[which]++)
			goto malformed;
		defs[ndefs].from = comment_above(source, (size_t)(line - source));
		defs[ndefs].to = (size_t)(close - source) + (close[2] ? 3 : 2);
		defs[ndefs].step = which;
		ndefs++;
		line = close + 1;
	}
	if (ndefs != p->nsteps)
		goto malformed;

	sb_init(&b);
	at = 0;
	for (i = 0; i < ndefs; i++) {
		if (defs[i].step == step)
			continue;
		sb_putn(&b, source + at, defs[i].from - at);
		at = defs[i].to;
	}
	sb_puts(&b, source + at);
	if (b.failed || !(*out = sb_take(&b))) {
		sb_free(&b);
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	return KGEN_OK;

malformed:
	return kgen_fail(err, KGEN_EINTERNAL,
	                 "kgen_step_source: %s's file does not hold each of its %d kernels once, as " KERNEL_START
	                 " ... (...) { ... } lines",
	                 kgen_spec_kernel_name(s), p->nsteps);
}
