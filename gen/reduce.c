/*
 * reduce.c - the reduction family: choose the templates of templates/reduce/
 * that a spec's fields name, and fill them in.  Each field maps to one
 * fragment or one line, so that two specs that differ in one field give
 * kernels that differ in one place.
 */
#include "config.h"
#include <string.h>
#include "reduce.h"
#include "acc.h"
#include "op.h"
#include "tpl.h"

static int per_element_atomics(const struct kgen_spec *s);

#define TRY(e) do { if ((st = (e)) != KGEN_OK) goto out; } while (0)

unsigned long long
kgen_reduce_tile(const struct kgen_spec *s)
{
	return (unsigned long long)s->threads * (unsigned long long)s->items_per_thread;
}

unsigned long long
kgen_reduce_grid(const struct kgen_spec *s, unsigned long long n, int sm_count)
{
	unsigned long long tile = kgen_reduce_tile(s), grid = n / tile + (n % tile != 0), cap;

	if (grid < 1)
		grid = 1;
	if (s->grid == KGEN_GRID_PERSISTENT) {
		cap = (unsigned long long)s->blocks_per_sm * (unsigned long long)(sm_count > 0 ? sm_count : 1);
		if (grid > cap)
			grid = cap;
	}
	return grid;
}

size_t
kgen_reduce_scratch(const struct kgen_spec *s, unsigned long long n, int sm_count)
{
	size_t partials = (size_t)kgen_reduce_grid(s, n, sm_count) * (size_t)s->r.acc_bytes;

	/* 16 bytes first, the last block's ticket (two passes leave them alone),
	 * so that one zeroed buffer serves specs of both stages in turn, as a
	 * size plan's entries use it; then the partials, 16-byte aligned. */
	switch (s->stages) {
	case KGEN_STAGES_TWO_PASS: case KGEN_STAGES_LAST_BLOCK: return 16 + partials;
	default: return 0;
	}
}

unsigned long long
kgen_reduce_max_n(const struct kgen_spec *s)
{
	return s->index == 32 ? 0x7fffffffull : ~0ull >> 1;
}

/* What a thread does with one value: fold it into acc, or atomically into *out. */
static int
per_element_atomics(const struct kgen_spec *s)
{
	return s->stages == KGEN_STAGES_ATOMIC && s->atomics == KGEN_ATOMICS_ELEMENT;
}

/* launch: pdl or chain: the second kernel is a programmatic dependent launch. */
static int
second_dependent(const struct kgen_spec *s)
{
	return s->launch == KGEN_LAUNCH_PDL || s->launch == KGEN_LAUNCH_CHAIN;
}

/* launch: chain: the first kernel is one too, after the work before it. */
static int
chain(const struct kgen_spec *s)
{
	return s->launch == KGEN_LAUNCH_CHAIN;
}

/* Where an element comes from: the tiles (of `in` past the unaligned head,
 * each thread's in index order) or the head itself (taken last). */
enum from { TILES, HEAD };

/* value is the element; index its index, passed when the op takes it
 * (pairs, a map of i): a tile element's is head + index when there is a head. */
static void
accumulate(const struct kgen_spec *s, strbuf *b, const char *value, const char *index, enum from from)
{
	char arg[128] = "";

	if (s->r.uses_index)
		snprintf(arg, sizeof arg, ", %s%s", s->load_width > s->r.dtype->size && from == TILES ? "head + " : "",
		         index);
	if (per_element_atomics(s))
		sb_printf(b, "atomic_combine(out, to_acc(%s%s));", value, arg);
	else if (s->r.pair && from == TILES)  /* in index order: fold; the head is not */
		sb_printf(b, "acc = fold(acc, %s%s);", value, arg);
	else
		sb_printf(b, "acc = combine(acc, to_acc(%s%s));", value, arg);
}

/* Does the thread keep an accumulator per vector lane?  A pair's fold is a
 * chain of compares and selects, the latency of which one chain per element
 * exposes: pairs with vector loads keep VEC chains. */
static int
lanes_apart(const struct kgen_spec *s)
{
	return s->r.pair && s->load_width > s->r.dtype->size;
}

/* The loop over the thread's items: tile or persistent grid, full tiles by
 * vectors (reduce/vec_load.cu), the partial tile by elements; the
 * accumulators before it (reduce/accumulators.cu). */
static kgen_status
thread_phase(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err)
{
	struct tpl_args t, v, accs;
	long long vec = s->r.vec;
	int contiguous = s->layout == KGEN_LAYOUT_CONTIGUOUS;
	const char *at = contiguous ? "tid * LOADS + j" : "j * THREADS + tid";
	strbuf full, partial;
	kgen_status st = KGEN_OK;

	tpl_init(&t);
	tpl_init(&v);
	tpl_init(&accs);
	sb_init(&full);
	sb_init(&partial);
	if (vec == 1) {
		accumulate(s, &full, contiguous ? "in[base + tid * ITEMS + j]" : "in[base + j * THREADS + tid]",
		           contiguous ? "base + tid * ITEMS + j" : "base + j * THREADS + tid", TILES);
		tpl_set(&t, "full_doc", "%s", s->items_per_thread == 1 ? "one element per thread"
		        : contiguous ? "ITEMS adjacent elements per thread" : "ITEMS elements per thread, THREADS apart");
		t.failed |= full.failed;
		tpl_set(&t, "full", "%s", full.s);
	} else {
		const char *index = contiguous ? "base + (tid * LOADS + j) * VEC + k" : "base + (j * THREADS + tid) * VEC + k";
		if (lanes_apart(s))  /* pairs: a chain per vector lane, folded in index order */
			sb_printf(&full, "part[k] = fold(part[k], x.v[k], head + %s);", index);
		else
			accumulate(s, &full, "x.v[k]", index, TILES);
		v.failed |= full.failed;
		tpl_set(&v, "at", "%s", at);
		tpl_set(&v, "lane", "%s", full.s);
		TRY(tpl_render_into(&t, "full", "reduce/vec_load.cu", &v, err));
		tpl_set(&t, "full_doc", "LOADS vector loads per thread, %s",
		        contiguous ? "adjacent" : "THREADS vectors apart (coalesced)");
	}
	accumulate(s, &partial, "in[i]", "i", TILES);
	t.failed |= partial.failed;
	tpl_set(&t, "partial", "%s", partial.s);
	tpl_show(&accs, "acc", !per_element_atomics(s));
	tpl_show(&accs, "lanes", lanes_apart(s));
	TRY(tpl_render_into(&t, "acc_decl", "reduce/accumulators.cu", &accs, err));
	if (s->grid == KGEN_GRID_PERSISTENT) {
		tpl_set(&t, "unroll", "%lld", s->unroll);
		st = tpl_render_into(parent, "thread", "reduce/persistent.cu", &t, err);
	} else {
		st = tpl_render_into(parent, "thread", "reduce/tile.cu", &t, err);
	}
out:
	tpl_free(&t);
	tpl_free(&v);
	tpl_free(&accs);
	sb_free(&full);
	sb_free(&partial);
	return st;
}

/* The statement that writes the result of n elements. */
static const char *
store(const struct kgen_spec *s, const char *n)
{
	static _Thread_local char buf[64];

	if (!s->r.last_step)
		return "*out = acc;";
	snprintf(buf, sizeof buf, "store(out, 0, acc, %s);", n);
	return buf;
}

/* How the kernel ends: block reduction and the stage's way of combining. */
static kgen_status
finish(const struct kgen_spec *s, struct tpl_args *parent, kgen_error *err)
{
	struct tpl_args t;

	switch (s->stages) {
	case KGEN_STAGES_LAST_BLOCK:
		tpl_init(&t);
		tpl_set(&t, "store", "%s", store(s, s->load_width > s->r.dtype->size ? "head + n" : "n"));
		return tpl_render_into(parent, "finish", "reduce/last_block.cu", &t, err);
	case KGEN_STAGES_TWO_PASS:
		tpl_set(parent, "finish", "acc = block_reduce(acc);\nif (tid == 0)\n    partials[blockIdx.x] = acc;");
		return KGEN_OK;
	default:
		switch (s->atomics) {
		case KGEN_ATOMICS_ELEMENT: tpl_set(parent, "finish", "%s", ""); break;
		case KGEN_ATOMICS_THREAD: tpl_set(parent, "finish", "atomic_combine(out, acc);"); break;
		default: tpl_set(parent, "finish", "acc = block_reduce(acc);\nif (tid == 0)\n    atomic_combine(out, acc);"); break;
		}
		return KGEN_OK;
	}
}

static const char *
params(const struct kgen_spec *s)
{
	switch (s->stages) {
	case KGEN_STAGES_TWO_PASS: return "const T *__restrict__ in, Acc *__restrict__ partials, Index n";
	case KGEN_STAGES_LAST_BLOCK:
		if (s->r.last_step)
			return "const T *__restrict__ in, Results out, Index n,\n"
			       "    Acc *__restrict__ partials, unsigned int *__restrict__ ticket";
		return "const T *__restrict__ in, Acc *__restrict__ out, Index n,\n"
		       "    Acc *__restrict__ partials, unsigned int *__restrict__ ticket";
	default: return "const T *__restrict__ in, Acc *__restrict__ out, Index n";
	}
}

static int
needs_block_reduce(const struct kgen_spec *s)
{
	return !(s->stages == KGEN_STAGES_ATOMIC && s->atomics != KGEN_ATOMICS_BLOCK);
}

static int
needs_warp_reduce(const struct kgen_spec *s)
{
	return needs_block_reduce(s) && (s->warp_tail == KGEN_WT_SHUFFLE || s->warp_tail == KGEN_WT_REDUCE_SYNC);
}

/* The launch contract: the kernels in order, the grid, scratch and alignment. */
static void
plan(const struct kgen_spec *s, struct kgen_contract *p)
{
	unsigned long long tile = kgen_reduce_tile(s);
	const struct kgen_dtype_info *acc = s->r.acc;

	memset(p, 0, sizeof *p);
	kgen_contract_printf(p->title, sizeof p->title, "%s %s reduction of %s", s->op == KGEN_OP_ARGMIN ||
	                 s->op == KGEN_OP_ARGMAX || s->op == KGEN_OP_AMAX || s->op == KGEN_OP_ANY || s->op == KGEN_OP_ALL ?
	                 "an" : "a", kgen_ops[s->op].name, s->r.dtype->name);
	kgen_contract_printf(p->heading, sizeof p->heading,
	                 "Kernels (extern \"C\"), launched in this order on one stream, for n elements:");
	p->numbered = 1;
	if (s->stages == KGEN_STAGES_ATOMIC)
		kgen_contract_step(p, "_init", "Acc *out", "1", 1);
	kgen_contract_step(p, "", s->stages == KGEN_STAGES_TWO_PASS ? "in, partials, n" :
	               s->stages == KGEN_STAGES_LAST_BLOCK ? "in, out, n, partials, ticket" : "in, out, n", "grid",
	               s->threads);
	if (s->stages == KGEN_STAGES_TWO_PASS)
		kgen_contract_step(p, "_final", s->r.last_step ? "partials, out, grid, n" : "partials, out, grid", "1",
		               s->threads);
	/* The final pass is a block's reduction of the partials, about as much
	 * for NVRTC as the pass (0.77-0.91 of its time on the 2-core machine):
	 * in one program the two cost 1.27-1.43x the larger alone, so they
	 * compile apart, side by side. */
	p->side_by_side = s->stages == KGEN_STAGES_TWO_PASS;
	if (s->grid == KGEN_GRID_PERSISTENT)
		kgen_contract_note(p, "// where grid = min(max(1, ceil(n / %llu)), %lld * SMs).\n", tile, s->blocks_per_sm);
	else
		kgen_contract_note(p, "// where grid = max(1, ceil(n / %llu)).\n", tile);
	if (s->launch == KGEN_LAUNCH_PDL)
		kgen_contract_note(p, "// Launch kernel 2 with the launch attribute programmatic stream serialization\n"
		                  "// (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, cuLaunchKernelEx): it starts\n"
		                  "// while kernel 1 runs and waits for it (sm_90); launched plainly it works the same.\n");
	else if (chain(s))
		kgen_contract_note(p, "// Launch %s with the launch attribute programmatic stream serialization\n"
		                  "// (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, cuLaunchKernelEx): %s starts\n"
		                  "// while the work before it in the stream runs and waits for it (sm_90); launched\n"
		                  "// plainly %s the same.\n", p->nsteps > 1 ? "both kernels" : "the kernel",
		               p->nsteps > 1 ? "each" : "it", p->nsteps > 1 ? "they work" : "it works");
	if (s->r.pair)
		kgen_contract_note(p, "// The result is out = { value, index }: *value (one %s) and *index (one i64, the\n"
		                  "// lowest index of the %s; -1 for n = 0%s).", acc->name,
		               s->op == KGEN_OP_ARGMAX ? "maximum" : "minimum",
		               s->nan == KGEN_NAN_IGNORE && acc->cls == DT_FLOAT ? " or only NaNs" : "");
	else if (s->r.last_step)
		kgen_contract_note(p, "// The result is *out (one %s).", s->r.out->name);
	else
		kgen_contract_note(p, "// The result is *out (one %s).", acc->name);
	if (s->stages == KGEN_STAGES_TWO_PASS)
		kgen_contract_note(p, "  Scratch: partials, grid x %d bytes.\n", s->r.acc_bytes);
	else if (s->stages == KGEN_STAGES_LAST_BLOCK)
		kgen_contract_note(p, "  Scratch: partials, grid x %d bytes, and ticket,\n"
		                  "// an unsigned int that is zero before the first launch (each launch leaves it zero).\n",
		               s->r.acc_bytes);
	else
		kgen_contract_note(p, "  Scratch: none.\n");
	if (s->load_width > s->r.dtype->size)
		kgen_contract_note(p, "// `in` may start at any element (aligned to its element size): the vector loads\n"
		                  "// start at its first %lld-byte boundary.", s->load_width > 16 ? 16 : s->load_width);
	else
		kgen_contract_note(p, "// `in` must be aligned to its element size.");
	if (s->index == 32)
		kgen_contract_note(p, "  Index is 32-bit: n < 2^31.");
	kgen_contract_note(p, "\n// Every n from 0 up is handled; no load reads past in[n - 1].");
}

/* The file's types, constants and op functions: every hole of
 * reduce/file.cu but the helpers and the kernels. */
static kgen_status
file_args(const struct kgen_spec *s, const char *header, struct tpl_args *file, kgen_error *err)
{
	const struct kgen_dtype_info *dt = s->r.dtype, *acc = s->r.acc;
	long long vec = s->load_width / dt->size;
	struct tpl_args h;
	kgen_status st = KGEN_OK;
	char call[96];
	int flags;

	tpl_init(&h);
	tpl_set(file, "header", "%s", header);
	tpl_set(file, "t_ctype", "%s", dt->ctype);
	tpl_set(file, "dtype", "%s", dt->name);
	tpl_set(file, "acc_dtype", "%s", acc->name);
	tpl_set(file, "index_ctype", "%s", s->index == 32 ? "unsigned int" : "unsigned long long");
	tpl_set(file, "index", "%lld", s->index);
	tpl_set(file, "threads", "%lld", s->threads);
	tpl_set(file, "items", "%lld", s->items_per_thread);
	tpl_set(file, "items_elements", "%lld element%s", s->items_per_thread, s->items_per_thread == 1 ? "" : "s");
	tpl_set(file, "vec", "%lld", vec);
	tpl_set(file, "load_width", "%lld", s->load_width);
	/* Per-element atomics with a native atomic never call combine(). */
	flags = needs_warp_reduce(s) && s->warp_tail == KGEN_WT_SHUFFLE ? KGEN_OP_SHFL_DOWN : 0;
	if (per_element_atomics(s) && kgen_op_native_atomic(s, call, sizeof call))
		flags |= KGEN_OP_NO_COMBINE;
	if (s->stages == KGEN_STAGES_LAST_BLOCK)
		flags |= KGEN_OP_LDCG;
	if (s->r.pair)
		flags |= KGEN_OP_FOLD;
	TRY(kgen_op_render(s, flags, file, err));
	if (vec > 1) {
		tpl_set(&h, "load_width", "%lld", s->load_width);
		tpl_set(&h, "align", "%lld", s->load_width > 16 ? 16 : s->load_width);
		tpl_set(&h, "how", "%s", s->load_width > 16 ? "several 16-byte loads" : "one load");
		TRY(tpl_render_into(file, "vec_struct", "reduce/vec.cu", &h, err));
	} else {
		tpl_set(file, "vec_struct", "%s", "");
	}
out:
	tpl_free(&h);
	return st;
}

/* The file's device helpers, in the order they are used. */
static kgen_status
helpers_arg(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err)
{
	long long vec = s->r.vec;
	struct tpl_args parts, head, none;
	strbuf helpers;
	kgen_status st = KGEN_OK;
	int i;

	tpl_init(&parts);
	tpl_init(&head);
	tpl_init(&none);
	sb_init(&helpers);
	if (vec > 1) {
		tpl_set(&head, "align", "%lld", s->load_width > 16 ? 16 : s->load_width);
		TRY(tpl_render_into(&parts, "aligned_head", "reduce/head.cu", &head, err));
	}
	if (needs_warp_reduce(s))
		TRY(kgen_acc_warp_reduce_helper(s, &parts, err));
	if (needs_block_reduce(s))
		TRY(kgen_acc_block_helper(s, &parts, err));
	if (s->stages == KGEN_STAGES_ATOMIC)
		TRY(kgen_acc_atomic_helper(s, &parts, err));
	if (second_dependent(s))
		TRY(tpl_render_into(&parts, "pdl", "reduce/pdl.cu", &none, err));
	for (i = 0; i < (int)parts.n; i++)
		sb_printf(&helpers, "\n%s\n", parts.v[i].value);
	if (helpers.len)
		helpers.s[--helpers.len] = '\0';  /* the placeholder's line ends it */
	helpers.failed |= parts.failed;  /* a helper that could not be made is no file */
	if (helpers.failed) {
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
		goto out;
	}
	tpl_set(file, "helpers", "%s", helpers.s ? helpers.s : "");
out:
	tpl_free(&parts);
	tpl_free(&head);
	tpl_free(&none);
	sb_free(&helpers);
	return st;
}

/* The main kernel's body: reduce/body.cu, its sections chosen by the spec. */
static kgen_status
main_body(const struct kgen_spec *s, struct tpl_args *k, kgen_error *err)
{
	long long vec = s->r.vec;
	struct tpl_args body;
	strbuf head;
	kgen_status st = KGEN_OK;

	tpl_init(&body);
	sb_init(&head);
	TRY(thread_phase(s, &body, err));
	TRY(finish(s, &body, err));
	tpl_show(&body, "unaligned", vec > 1);
	if (vec > 1) {
		tpl_set(&body, "align", "%lld", s->load_width > 16 ? 16 : s->load_width);
		accumulate(s, &head, "unaligned[tid]", "tid", HEAD);
		body.failed |= head.failed;
		tpl_set(&body, "head", "%s", head.s);
	}
	/* chain: the main kernel waits at its top whatever the stages (with
	 * atomic too, though _init waited before letting it start: what the
	 * work before _init wrote is promised visible to the grids that wait). */
	tpl_show(&body, "wait_first", chain(s));
	tpl_show(&body, "start_next", s->launch == KGEN_LAUNCH_PDL && s->stages == KGEN_STAGES_TWO_PASS);
	tpl_show(&body, "wait_init", s->launch == KGEN_LAUNCH_PDL && per_element_atomics(s));
	tpl_show(&body, "lanes", lanes_apart(s));
	tpl_show(&body, "wait_atomic", s->launch == KGEN_LAUNCH_PDL && s->stages == KGEN_STAGES_ATOMIC &&
	                               !per_element_atomics(s));
	st = tpl_render_into(k, "body", "reduce/body.cu", &body, err);
out:
	tpl_free(&body);
	sb_free(&head);
	return st;
}

/* What the main kernel's comment says it does. */
static const char *
main_doc(const struct kgen_spec *s)
{
	if (s->stages == KGEN_STAGES_TWO_PASS)
		return "First pass: each block writes its partial result to partials[blockIdx.x].";
	if (s->stages == KGEN_STAGES_LAST_BLOCK)
		return "One pass: each block publishes its partial; the last block combines them into *out.";
	if (s->atomics == KGEN_ATOMICS_ELEMENT)
		return "One pass: every element is combined into *out with an atomic.";
	if (s->atomics == KGEN_ATOMICS_THREAD)
		return "One pass: each thread combines its items, then into *out with one atomic.";
	return "One pass: each block reduces its tile, then combines into *out with one atomic.";
}

/* The file's kernels, in launch order: _init (stages: atomic), the main
 * kernel, _final (stages: two_pass). */
static kgen_status
kernels_arg(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err)
{
	const char *name = kgen_spec_kernel_name(s);
	struct tpl_args k;
	strbuf kernels;
	kgen_status st = KGEN_OK;

	tpl_init(&k);
	sb_init(&kernels);
	if (s->stages == KGEN_STAGES_ATOMIC) {
		tpl_set(&k, "op", "%s", kgen_ops[s->op].name);
		tpl_set(&k, "name", "%s", name);
		tpl_set(&k, "start_next", "%s", chain(s) ? "// launch: chain: wait for the work before this kernel, then let the main\n"
		                                           "// kernel start (it waits for this one at its top).\n"
		                                           "wait_for_previous_kernel();\n"
		                                           "let_next_kernel_start();"
		                                : second_dependent(s) ? "let_next_kernel_start();  // the main kernel waits for *out below" : "");
		TRY(tpl_render(&kernels, "reduce/init.cu", &k, err));
		sb_puts(&kernels, "\n");
	}
	TRY(main_body(s, &k, err));
	tpl_set(&k, "name", "%s", name);
	tpl_set(&k, "params", "%s", params(s));
	tpl_set(&k, "doc", "%s", main_doc(s));
	TRY(tpl_render(&kernels, "reduce/kernel.cu", &k, err));
	if (s->stages == KGEN_STAGES_TWO_PASS) {
		tpl_set(&k, "name", "%s", name);
		tpl_set(&k, "out_params", "%s", s->r.last_step ? "Results out, unsigned int count, Index n"
		                                                           : "Acc *__restrict__ out, unsigned int count");
		tpl_set(&k, "store", "%s", store(s, "n"));
		tpl_set(&k, "wait", "%s", second_dependent(s) ? "// Launched while the first pass runs: wait for all of its partials.\n"
		                                   "wait_for_previous_kernel();" : "");
		sb_puts(&kernels, "\n");
		TRY(tpl_render(&kernels, "reduce/final.cu", &k, err));
	}
	if (kernels.failed) {
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
		goto out;
	}
	if (kernels.len && kernels.s[kernels.len - 1] == '\n')
		kernels.s[--kernels.len] = '\0';
	tpl_set(file, "kernels", "%s", kernels.s);
out:
	tpl_free(&k);
	sb_free(&kernels);
	return st;
}

/* The whole file: reduce/file.cu with its holes filled. */
static kgen_status
emit(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err)
{
	struct tpl_args file;
	kgen_status st;

	tpl_init(&file);
	if ((st = file_args(s, header, &file, err)) || (st = helpers_arg(s, &file, err)) ||
	    (st = kernels_arg(s, &file, err))) {
		tpl_free(&file);
		return st;
	}
	return tpl_render(out, "reduce/file.cu", &file, err);
}

/* Keys that apply only with another key's values. */
/* kgen_reduce_check()'s constants (the key table's threads and items
 * are other families' derived ones) */
static const struct kgen_key_default defaults[] = {
	{ KGEN_KEY_threads, "512" },
	{ KGEN_KEY_items_per_thread, "8" },
	{ KGEN_KEY_COUNT, NULL },
};

static const struct kgen_only_with only_with[] = {
	{ KGEN_KEY_atomics, KGEN_KEY_stages, KGEN_BIT(KGEN_STAGES_ATOMIC),
	  "atomics has no effect with stages: {w}; drop it, or use stages: atomic" },
	{ KGEN_KEY_block_reduce, KGEN_KEY_atomics, KGEN_BIT(KGEN_ATOMICS_BLOCK),
	  "block_reduce has no effect with atomics: {w} (no block reduction); drop it" },
	{ KGEN_KEY_warp_tail, KGEN_KEY_atomics, KGEN_BIT(KGEN_ATOMICS_BLOCK),
	  "warp_tail has no effect with atomics: {w} (no block reduction); drop it" },
	{ KGEN_KEY_warp_tail_from, KGEN_KEY_atomics, KGEN_BIT(KGEN_ATOMICS_BLOCK),
	  "warp_tail_from has no effect with atomics: {w} (no block reduction); drop it" },
	{ KGEN_KEY_warp_tail_from, KGEN_KEY_block_reduce, ~KGEN_BIT(KGEN_BR_WARPS),
	  "warp_tail_from has no effect with block_reduce: {w}; drop it" },
	{ KGEN_KEY_warp_tail_from, KGEN_KEY_warp_tail, ~KGEN_BIT(KGEN_WT_NONE),
	  "warp_tail_from has no effect with warp_tail: {w}; drop it" },
	{ KGEN_KEY_blocks_per_sm, KGEN_KEY_grid, KGEN_BIT(KGEN_GRID_PERSISTENT), "blocks_per_sm needs grid: persistent" },
	{ KGEN_KEY_unroll, KGEN_KEY_grid, KGEN_BIT(KGEN_GRID_PERSISTENT),
	  "unroll {v} needs grid: persistent (a tile grid runs one tile per block)" },
	KGEN_OP_ONLY_WITH,
	{ KGEN_KEY_COUNT, KGEN_KEY_COUNT, 0, NULL },
};

static const enum kgen_key keys[] = {
	KGEN_KEY_kernel, KGEN_KEY_name, KGEN_KEY_op, KGEN_KEY_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_threads,
	KGEN_KEY_items_per_thread, KGEN_KEY_load_width, KGEN_KEY_layout, KGEN_KEY_unroll, KGEN_KEY_grid,
	KGEN_KEY_blocks_per_sm, KGEN_KEY_stages, KGEN_KEY_atomics, KGEN_KEY_launch, KGEN_KEY_block_reduce, KGEN_KEY_warp_tail,
	KGEN_KEY_warp_tail_from, KGEN_KEY_index, KGEN_OP_KEYS, KGEN_KEY_COUNT,
};

/* The values that need a newer GPU (family.h). */
static const struct kgen_arch_need arch_needs[] = {
	{ KGEN_KEY_launch, KGEN_BIT(KGEN_LAUNCH_PDL) | KGEN_BIT(KGEN_LAUNCH_CHAIN), 90, "griddepcontrol", "launch: stream", 0 },
	{ KGEN_KEY_warp_tail, KGEN_BIT(KGEN_WT_REDUCE_SYNC), 80, "__reduce_*_sync", "warp_tail: shuffle", 0 },
	{ .min_sm = 0 },
};

/* Every reduce spec runs over several GPUs: each reduces its part, and the
 * partials combine (runtime/multi.c). */
static const char *
multi_gpu(const struct kgen_spec *s)
{
	(void)s;
	return NULL;
}

/* What a spec computes (family.h): plans' entries and tunings' points agree on it. */
static const enum kgen_key computes[] = {
	KGEN_KEY_op, KGEN_KEY_dtype, KGEN_KEY_acc_dtype, KGEN_KEY_out_dtype, KGEN_KEY_nan, KGEN_KEY_map,
	KGEN_KEY_combine, KGEN_KEY_identity, KGEN_KEY_post, KGEN_KEY_COUNT,
};

const struct kgen_family kgen_family_reduce = {
	.name = "reduce",
	.size = KGEN_SIZE_N,
	.keys = keys,
	.computes = computes,
	.only_with = only_with,
	.arch_needs = arch_needs,
	.defaults = defaults,
	.resolve = kgen_reduce_resolve,
	.check = kgen_reduce_check,
	.contract = plan,
	.emit = emit,
	.multi_gpu = multi_gpu,
};
