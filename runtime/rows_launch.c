/*
 * rows_launch.c - kgen_rows(): a `kernel: rows` spec on a rows x cols
 * matrix.  Which kernel of the contract takes the row length, the grid and
 * whose arrays keep their vectors aligned are chosen here, and every
 * argument is checked before anything is launched.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "gen/rows.h"

/* Its launch state (runtime.h): the spec's kernels as kgen_rows_kernels()
 * lists them and the row length its staged ones start past, made at the
 * first launch and the same ever after (plain memory, freed with free()). */
const struct kgen_launcher kgen_launcher_rows = { .free_state = NULL };

struct rows_state {
	int n;
	unsigned long long staged_from;
	struct kgen_rows_choice c[KGEN_MAX_STEPS];
};

/* The kernels' one argument, struct Rows of templates/rows/file.cu, field
 * for field. */
struct rows_kernel_args {
	kgen_devptr x, y, weight, bias, labels, loss, lse;
	unsigned long long rows, cols, x_pitch, y_pitch;
	long long ignore_index;
	float eps;
	unsigned int aligned;
};
_Static_assert(sizeof(struct rows_kernel_args) == 104, "struct Rows of templates/rows/file.cu");

enum { X_ALIGNED = 1, Y_ALIGNED = 2, W_ALIGNED = 4 };

#define GRID_MAX 0x7fffffffull

/* Bytes of one vector of VEC elements of size esize, as Vec<E> moves it
 * (wider than 16 bytes: 16-byte halves). */
static unsigned long long
vector_align(const struct kgen_spec *s, int esize)
{
	unsigned long long b = (unsigned long long)s->r.vec * (unsigned long long)esize;
	return b < 16 ? b : 16;
}

/* Do the array at p and its rows `pitch` elements apart keep vectors aligned? */
static int
keeps_aligned(kgen_devptr p, unsigned long long pitch, int esize, unsigned long long align)
{
	return p % align == 0 && (pitch * (unsigned long long)esize) % align == 0;
}

/* k's kernels, listed once (they are the spec's, which never changes) and
 * published for every later launch: the first launches of two threads may
 * both list them, and one keeps its copy.  Listed into *mine where there
 * is no memory for the copy. */
static const struct rows_state *
rows_state(kgen_kernel *k, struct rows_state *mine)
{
	void *kept = __atomic_load_n(&k->state, __ATOMIC_ACQUIRE), *none = NULL;
	struct rows_state *st, *made;

	if (kept)
		return kept;
	made = malloc(sizeof *made);
	st = made ? made : mine;
	st->n = kgen_rows_kernels(&k->spec, st->c, KGEN_MAX_STEPS);
	st->staged_from = kgen_rows_staged_from(&k->spec);
	if (made && !__atomic_compare_exchange_n(&k->state, &none, made, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		free(made);  /* another launch published its list first */
		return none;
	}
	return st;
}

/* The kernel of the contract for rows of cols elements: strategy auto's
 * first staged one (a cluster's among them) that takes them where it may
 * (sm_90, x's rows 16-byte aligned, rows longer than kgen_rows_staged_from()
 * elements, the kernel loaded: occupancy above 0; a lazy kernel's is built
 * to be counted), else its first other whose `upto` takes them (the
 * online one takes any; a warp kernel's exact twin only rows of exactly
 * its loads where `aligned` has every array's bit), or the spec's one
 * kernel when it holds them (or streams); -1 when it does not, -2 when a
 * build failed (*st, err). */
static int
choose(kgen_kernel *k, unsigned long long cols, int x16, unsigned aligned, struct kgen_rows_choice *choice,
       kgen_status *st, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	struct rows_state mine;
	const struct rows_state *list = rows_state(k, &mine);
	const struct kgen_rows_choice *c = list->c;
	int n = list->n, i;
	unsigned long long loads = cols / (unsigned long long)s->r.vec + (cols % (unsigned long long)s->r.vec != 0);
	int staged = n > 1 && x16 && k->ctx->cc_major >= 9 && cols > list->staged_from;

	for (i = 0; staged && i < n; i++) {
		if (!c[i].stages || loads > c[i].upto)
			continue;
		if ((*st = kgen_kernel_step(k, i, err)) != KGEN_OK)
			return -2;
		if (k->occupancy[i] > 0)
			goto found;
	}
	for (i = 0; i < n; i++) {
		unsigned long long cap = c[i].upto ? c[i].upto : kgen_rows_capacity(s, &c[i]);
		if (n > 1 && c[i].stages)
			continue;
		if (c[i].exact) {
			if (aligned == (X_ALIGNED | Y_ALIGNED | W_ALIGNED) && cols == cap * (unsigned long long)s->r.vec)
				break;
			continue;
		}
		if (!cap || loads <= cap)  /* 0: any row */
			break;
	}
found:
	if (i == n)
		return -1;
	*choice = c[i];
	return i;
}

static kgen_status
check_args(const kgen_kernel *k, const struct kgen_rows_args *a, unsigned long long x_pitch,
           unsigned long long y_pitch, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	int esize = s->r.dtype->size, osize = s->r.out->size, wsize = kgen_dtype_info[s->weight_dtype].size;
	int lsize = kgen_dtype_info[s->label_dtype].size, y = kgen_rows_writes_y(s);
	unsigned long long rows = a->rows, cols = a->cols, xbytes, ybytes;
	struct kgen_span spans[8];
	int n = 0, written;

	if (!a->x)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: x is NULL");
	if (y && !a->y)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: op: %s writes y, and y is NULL", kgen_row_ops[s->row_op].name);
	if (!y && (!a->loss || !a->labels))
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: op: cross_entropy reads labels and writes loss, and %s is NULL",
		                 a->labels ? "loss" : "labels");
	if (y && (a->labels || a->loss || a->lse))
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: op: %s takes no labels, loss or lse (cross_entropy's)",
		                 kgen_row_ops[s->row_op].name);
	if (!y && a->y)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: op: cross_entropy writes loss, and takes no y");
	if (!kgen_rows_has_weight(s) && a->weight)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: op: %s takes no weight (rms_norm's and layer_norm's)",
		                 kgen_row_ops[s->row_op].name);
	if (!kgen_rows_has_bias(s) && a->bias)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: op: %s takes no bias (layer_norm's)", kgen_row_ops[s->row_op].name);
	if (!y && !cols && rows)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: cross_entropy of rows of 0 classes");
	if (x_pitch < cols || (y && y_pitch < cols))
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: %s_pitch %llu is less than cols %llu", x_pitch < cols ? "x" : "y",
		                 x_pitch < cols ? x_pitch : y_pitch, cols);
	if (a->x % (unsigned)esize || (y && a->y % (unsigned)osize) || a->weight % (unsigned)wsize ||
	    a->bias % (unsigned)wsize || a->labels % (unsigned)lsize || a->loss % (unsigned)osize || a->lse % 4)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: an array is not aligned to its element size (x %s, y %s, "
		                 "weight and bias %s, labels %s, loss %s, lse f32)", s->r.dtype->name, s->r.out->name,
		                 kgen_dtype_info[s->weight_dtype].name, kgen_dtype_info[s->label_dtype].name, s->r.out->name);
	if (rows && (x_pitch > ~0ull / (unsigned long long)esize / rows || y_pitch > ~0ull / 8 / rows))
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: %llu rows of pitch %llu overflow the address space", rows,
		                 x_pitch > y_pitch ? x_pitch : y_pitch);
	xbytes = rows ? ((rows - 1) * x_pitch + cols) * (unsigned long long)esize : 0;
	ybytes = rows ? ((rows - 1) * y_pitch + cols) * (unsigned long long)osize : 0;
	/* In place: y is x, row for row, each element read before it is written by its own thread; the
	 * weight and bias may still not meet them. */
	int in_place = y && a->y == a->x && y_pitch == x_pitch && osize == esize;
	if (y)
		spans[n++] = (struct kgen_span){ "y", a->y, ybytes };
	else {
		spans[n++] = (struct kgen_span){ "loss", a->loss, rows * (unsigned long long)osize };
		if (a->lse)
			spans[n++] = (struct kgen_span){ "lse", a->lse, rows * 4ull };
	}
	written = n;
	if (!in_place)
		spans[n++] = (struct kgen_span){ "x", a->x, xbytes };
	if (a->weight)
		spans[n++] = (struct kgen_span){ "weight", a->weight, cols * (unsigned long long)wsize };
	if (a->bias)
		spans[n++] = (struct kgen_span){ "bias", a->bias, cols * (unsigned long long)wsize };
	if (a->labels)
		spans[n++] = (struct kgen_span){ "labels", a->labels, rows * (unsigned long long)lsize };
	return kgen_refuse_overlaps("kgen_rows", spans, n, written, err);
}

static kgen_status
rows_body(kgen_kernel *k, const struct kgen_rows_args *a, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long x_pitch = a->x_pitch ? a->x_pitch : a->cols, y_pitch = a->y_pitch ? a->y_pitch : a->cols;
	struct rows_kernel_args ka;
	struct kgen_rows_choice c;
	unsigned long long grid;
	void *args[1] = { &ka };
	kgen_status st;
	int fn;

	if ((st = check_args(k, a, x_pitch, y_pitch, err)))
		return st;
	if (!a->rows || !a->cols)
		return KGEN_OK;
	memset(&ka, 0, sizeof ka);
	if (keeps_aligned(a->x, x_pitch, s->r.dtype->size, vector_align(s, s->r.dtype->size)))
		ka.aligned |= X_ALIGNED;
	if (keeps_aligned(a->y, y_pitch, s->r.out->size, vector_align(s, s->r.out->size)))
		ka.aligned |= Y_ALIGNED;
	if (keeps_aligned(a->weight, 0, 1, vector_align(s, kgen_dtype_info[s->weight_dtype].size)) &&
	    keeps_aligned(a->bias, 0, 1, vector_align(s, kgen_dtype_info[s->weight_dtype].size)))
		ka.aligned |= W_ALIGNED;
	fn = choose(k, a->cols, keeps_aligned(a->x, x_pitch, s->r.dtype->size, 16), ka.aligned, &c, &st, err);
	if (fn == -2)
		return st;
	if (fn < 0) {
		struct kgen_rows_choice one[KGEN_MAX_STEPS];
		kgen_rows_kernels(s, one, KGEN_MAX_STEPS);
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: rows of %llu elements are longer than %s holds (%llu): use "
		                 "strategy: online or auto, or more vectors", a->cols, kgen_spec_kernel_name(s),
		                 kgen_rows_capacity(s, &one[0]) * (unsigned long long)s->r.vec);
	}
	if ((st = kgen_kernel_step(k, fn, err)))  /* a lazy kernel's first launch of it builds it */
		return st;
	ka.x = a->x;
	ka.y = a->y;
	ka.weight = a->weight;
	ka.bias = a->bias;
	ka.labels = a->labels;
	ka.loss = a->loss;
	ka.lse = a->lse;
	ka.rows = a->rows;
	ka.cols = a->cols;
	ka.x_pitch = x_pitch;
	ka.y_pitch = y_pitch;
	ka.ignore_index = a->ignore_index;
	ka.eps = (float)a->eps;
	if (c.cluster > 1) {
		/* A cluster a row, as many clusters as the GPU holds at once, each walking its rows. */
		unsigned long long most = (unsigned long long)(k->clusters[fn] > 0 ? k->clusters[fn] : 1);
		grid = (a->rows < most ? a->rows : most) * (unsigned long long)c.cluster;
	} else {
		/* A block per group of rows, at most 2^31 - 1; a staged kernel's blocks at most as many as the GPU
		 * holds at once, each walking its rows. */
		unsigned long long per = (unsigned long long)kgen_rows_per_block(s, &c), most = GRID_MAX;
		if (c.stages)
			most = (unsigned long long)k->ctx->sm_count * (unsigned long long)(k->occupancy[fn] > 0 ? k->occupancy[fn] : 1);
		grid = a->rows / per + (a->rows % per != 0);
		if (grid > most)
			grid = most;
	}
	if ((st = kgen_context_enter(k->ctx, err)))
		return st;
	return kgen_launch(k->ctx->cu, k->fn[fn], grid, k->contract.step[fn].block,
	                   (unsigned int)k->contract.step[fn].dynamic_smem, args, stream, err);
}

kgen_status
kgen_rows(kgen_kernel *k, const struct kgen_rows_args *args, kgen_stream stream, kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	if ((st = kgen_kernel_expect(k, KGEN_ROWS, "kgen_rows", err)))
		return st;
	if (!args)
		return kgen_fail(err, KGEN_EINVAL, "kgen_rows: args is NULL");
	saved = kgen_context_save(k->ctx);
	st = rows_body(k, args, (CUstream)stream, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}
