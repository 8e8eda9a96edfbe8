/*
 * multi.c - reductions over data spread on several GPUs of one process
 * (kgen_multi_*; issue 26).  Each GPU reduces its own part with kgen's
 * kernel (the spec's partial, gen/multi.h) into a buffer of the multi
 * kernel; NCCL then combines the accumulators (ncclAllReduce, or
 * ncclReduce to a root) where the op's KGEN_OPS row says it can, or
 * gathers them (ncclAllGather, or ncclSend/ncclRecv to a root); a small
 * generated kernel combines gathered partials in GPU order, moving each
 * pair's index by the elements of the GPUs before it, and takes the last
 * step once.  Everything is launched asynchronously on one stream per GPU,
 * and every argument is checked before anything is launched.
 *
 * The communicators are made once per set (ncclCommInitAll) in
 * kgen_multi_create and destroyed with the set.
 */
#include "config.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "nccl.h"
#include "cache.h"
#include "gen/multi.h"

struct kgen_multi_kernel {
	struct kgen_multi_kernel *next;        /* in the set's list */
	kgen_multi *m;
	struct kgen_spec spec;                 /* a copy; text is NULL */
	uint64_t hash;
	int gather;                            /* NCCL gathers the partials (else it reduces them) */
	ncclDataType_t type;                   /* of the accumulator, when NCCL reduces */
	ncclRedOp_t op;
	int needs_combine;                     /* gathered partials, or a last step */
	size_t acc_size;                       /* bytes of an accumulator (a pair's value) */
	kgen_kernel *local[KGEN_MULTI_MAX];    /* each GPU's kernel of the partial spec */
	CUmodule module[KGEN_MULTI_MAX];       /* the combine kernel's, when needs_combine */
	CUfunction combine[KGEN_MULTI_MAX];
	CUdeviceptr buf[KGEN_MULTI_MAX];       /* each GPU's partials (all the GPUs' when gathered) */
	size_t buf_bytes[KGEN_MULTI_MAX];
};

struct kgen_multi {
	int count;
	int devices[KGEN_MULTI_MAX];
	kgen_context *ctx[KGEN_MULTI_MAX];
	const struct kgen_nccl *nccl;
	ncclComm_t comm[KGEN_MULTI_MAX];
	pthread_mutex_t lock;
	struct kgen_multi_kernel *kernels;
};

/* ---- the set ---- */

/* Each device once, each a GPU of this machine (kgen_context_create says
 * which is not). */
static kgen_status
check_devices(const int *devices, int count, kgen_error *err)
{
	int i, j;

	if (!devices || count < 1)
		return kgen_fail(err, KGEN_EINVAL, "kgen_multi_create: %s", devices ? "no devices" : "devices is NULL");
	if (count > KGEN_MULTI_MAX)
		return kgen_fail(err, KGEN_EINVAL, "kgen_multi_create: %d devices, more than %d", count, KGEN_MULTI_MAX);
	for (i = 0; i < count; i++) {
		if (devices[i] < 0)
			return kgen_fail(err, KGEN_EINVAL, "kgen_multi_create: device %d is negative", devices[i]);
		for (j = 0; j < i; j++)
			if (devices[j] == devices[i])
				return kgen_fail(err, KGEN_EINVAL, "kgen_multi_create: device %d is listed twice (at %d and %d)",
				                 devices[i], j, i);
	}
	return KGEN_OK;
}

kgen_status
kgen_multi_create(const int *devices, int count, kgen_multi **out, kgen_error *err)
{
	kgen_multi *m;
	kgen_status st;
	int i;

	if (!out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_multi_create: NULL argument");
	*out = NULL;
	if ((st = check_devices(devices, count, err)))
		return st;
	if (!(m = calloc(1, sizeof *m)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	pthread_mutex_init(&m->lock, NULL);
	for (i = 0; i < count; i++, m->count++) {
		m->devices[i] = devices[i];
		if ((st = kgen_context_create(devices[i], &m->ctx[i], err)))
			goto fail;
	}
	if ((st = kgen_nccl_load(&m->nccl, err)))
		goto fail;
	{
		const struct kgen_cu *cu = m->ctx[0]->cu;
		CUcontext saved = NULL;
		ncclResult_t r;

		cu->cuCtxGetCurrent(&saved);
		r = m->nccl->ncclCommInitAll(m->comm, count, devices);
		cu->cuCtxSetCurrent(saved);
		if (r != 0) {
			memset(m->comm, 0, sizeof m->comm);
			st = kgen_nccl_fail(m->nccl, err, "ncclCommInitAll", r);
			goto fail;
		}
	}
	*out = m;
	return KGEN_OK;
fail:
	kgen_multi_destroy(m);
	return st;
}

static void free_kernel(struct kgen_multi_kernel *k);

void
kgen_multi_destroy(kgen_multi *m)
{
	struct kgen_multi_kernel *k, *next;
	int i;

	if (!m)
		return;
	for (k = m->kernels; k; k = next) {
		next = k->next;
		free_kernel(k);
	}
	for (i = 0; i < m->count; i++)
		if (m->comm[i])
			m->nccl->ncclCommDestroy(m->comm[i]);
	for (i = 0; i < m->count; i++)
		kgen_context_destroy(m->ctx[i]);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

int kgen_multi_count(const kgen_multi *m) { return m ? m->count : 0; }

kgen_context *
kgen_multi_context(const kgen_multi *m, int i)
{
	return m && i >= 0 && i < m->count ? m->ctx[i] : NULL;
}

/* ---- building ---- */

static void
free_kernel(struct kgen_multi_kernel *k)
{
	kgen_multi *m = k->m;
	int i;

	for (i = 0; i < m->count; i++) {
		const struct kgen_cu *cu = m->ctx[i]->cu;
		if (!k->buf[i] && !k->module[i])
			continue;
		cu->cuCtxSetCurrent(m->ctx[i]->cuctx);
		if (k->buf[i])
			cu->cuMemFree(k->buf[i]);
		if (k->module[i])
			cu->cuModuleUnload(k->module[i]);
	}
	free(k->spec.file);
	free(k);
}

/* The combine kernel's cubin for arch: from the disk cache, or compiled by
 * NVRTC and then cached. */
static kgen_status
combine_image(const struct kgen_spec *s, const char *arch, void **image, kgen_error *err)
{
	struct kgen_cache_key key;
	char dir[4096], name[96], *source = NULL, *log = NULL;
	size_t size;
	int cached = kgen_cache_enabled();
	kgen_status st;

	if ((st = kgen_compile_options_check(err)) || (st = kgen_multi_generate(s, &source, err)))
		return st;
	key = (struct kgen_cache_key){ .source = source, .options = kgen_compile_options(), .arch = arch,
	                               .nvrtc_version = kgen_nvrtc_version(), .kgen_version = KGEN_VERSION,
	                               .name = kgen_multi_kernel_name(s, name, sizeof name) };
	if (cached && kgen_cache_dir(dir, sizeof dir, NULL) != KGEN_OK)
		cached = 0;
	*image = NULL;
	if (cached && kgen_cache_get(dir, &key, image, &size, NULL) == KGEN_OK && *image) {
		free(source);
		return KGEN_OK;
	}
	st = kgen_compile(source, key.name, arch, KGEN_IMAGE_CUBIN, image, &size, &log, err);
	if (st == KGEN_ECOMPILE && err && log) {
		size_t len = strlen(err->message);
		snprintf(err->message + len, sizeof err->message - len, " (the multi-GPU combine kernel)\n%s", log);
	}
	if (st == KGEN_OK && cached)
		kgen_cache_put(dir, &key, *image, size, NULL);  /* a cache that cannot be written is no error */
	free(log);
	free(source);
	return st;
}

/* NCCL's type of an accumulator; -1 for one it has no reduction of (a
 * half, whose sum kgen keeps in its own type). */
static int
nccl_type(const struct kgen_dtype_info *t)
{
	switch (t->cls) {
	case DT_INT: return t->size == 4 ? ncclInt32 : ncclInt64;
	case DT_UINT: return t->size == 4 ? ncclUint32 : -1;
	case DT_FLOAT: return t->size == 4 ? ncclFloat32 : ncclFloat64;
	default: return -1;
	}
}

/* How the partials combine: NCCL's reduction of the op's KGEN_OPS row
 * (OP_MULTI_*), else gathered; the combine kernel after it when gathered
 * or when the op has a last step. */
static void
plan(struct kgen_multi_kernel *k)
{
	static const ncclRedOp_t ops[] = {
		[OP_MULTI_SUM] = ncclSum, [OP_MULTI_PROD] = ncclProd, [OP_MULTI_MIN] = ncclMin, [OP_MULTI_MAX] = ncclMax
	};
	const struct kgen_spec *s = &k->spec;
	enum kgen_op_multi how = kgen_op_info[s->op].multi;
	int type = nccl_type(s->r.acc);

	k->gather = how == OP_MULTI_GATHER || type < 0;
	if (!k->gather) {
		k->type = (ncclDataType_t)type;
		k->op = ops[how];
	}
	k->needs_combine = k->gather || s->r.last_step;
	k->acc_size = (size_t)s->r.acc->size;
}

/* GPU i's kernels: the partial spec's kernel and the combine kernel. */
static kgen_status
build_on(struct kgen_multi_kernel *k, int i, const kgen_spec *partial, kgen_error *err)
{
	kgen_context *ctx = k->m->ctx[i];
	char name[96];
	void *image = NULL;
	kgen_status st;
	CUresult r;

	if ((st = kgen_kernel_build(ctx, partial, &k->local[i], err)) || !k->needs_combine)
		return st;
	if ((st = combine_image(&k->spec, ctx->arch, &image, err)) || (st = kgen_context_enter(ctx, err))) {
		free(image);
		return st;
	}
	r = ctx->cu->cuModuleLoadData(&k->module[i], image);
	free(image);
	if (r != CUDA_SUCCESS)
		return kgen_cu_fail(ctx->cu, err, "cuModuleLoadData", r);
	KGEN_CU(ctx->cu, err, cuModuleGetFunction,
	        (&k->combine[i], k->module[i], kgen_multi_kernel_name(&k->spec, name, sizeof name)));
	return KGEN_OK;
}

/* The spec's family runs it over several GPUs (its multi_gpu hook). */
static kgen_status
check_family(const struct kgen_spec *s, kgen_error *err)
{
	const char *why = kgen_multi_gpu_refusal(s);

	if (!why)
		return KGEN_OK;
	return kgen_fail(err, KGEN_EINVAL, "kgen_multi_build: %s is a %s kernel: %s", kgen_spec_kernel_name(s),
	                 kgen_families[s->kernel].name, why);
}

static kgen_status
build_body(kgen_multi *m, const kgen_spec *spec, struct kgen_multi_kernel **out, kgen_error *err)
{
	struct kgen_multi_kernel *k;
	struct kgen_spec *partial = NULL;
	uint64_t h = kgen_spec_hash(spec);
	kgen_status st;
	int i;

	for (k = m->kernels; k; k = k->next)
		if (k->hash == h && kgen_spec_same(&k->spec, spec)) {
			*out = k;
			return KGEN_OK;
		}
	if ((st = check_family(spec, err)) || (st = kgen_multi_partial_spec(spec, &partial, err)))
		return st;
	if (!(k = calloc(1, sizeof *k)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	k->m = m;
	k->hash = h;
	k->spec = *spec;
	k->spec.text = NULL;
	k->spec.text_len = 0;
	k->spec.file = kgen_strdup(spec->file ? spec->file : "<spec>");
	plan(k);
	if (!k->spec.file)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	for (i = 0; !st && i < m->count; i++)
		st = build_on(k, i, partial ? partial : spec, err);
	kgen_spec_free(partial);
	if (st) {
		free_kernel(k);
		return st;
	}
	k->next = m->kernels;
	m->kernels = k;
	*out = k;
	return KGEN_OK;
}

kgen_status
kgen_multi_build(kgen_multi *m, const kgen_spec *spec, kgen_multi_kernel **out, kgen_error *err)
{
	CUcontext saved = NULL;
	kgen_status st;

	if (!m || !spec || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_multi_build: NULL argument");
	m->ctx[0]->cu->cuCtxGetCurrent(&saved);
	pthread_mutex_lock(&m->lock);
	st = build_body(m, spec, out, err);
	pthread_mutex_unlock(&m->lock);
	m->ctx[0]->cu->cuCtxSetCurrent(saved);
	return st;
}

kgen_kernel *
kgen_multi_local(const kgen_multi_kernel *k, int i)
{
	return k && i >= 0 && i < k->m->count ? k->local[i] : NULL;
}

const kgen_spec *kgen_multi_kernel_spec(const kgen_multi_kernel *k) { return k ? &k->spec : NULL; }

/* ---- running ---- */

/* One call, as the public functions take it. */
struct call {
	const char *who;
	int axis, arg;                     /* a reduce_axis call; an _arg call */
	const kgen_devptr *in;
	const unsigned long long *n;       /* elements (reduce) or rows (reduce_axis) of each GPU */
	unsigned long long cols, pitch;    /* reduce_axis; 1 and 0 for reduce */
	const kgen_devptr *out, *index;    /* out is the value of an _arg call */
	int root;                          /* KGEN_MULTI_ALL, or the GPU that gets the result */
	const kgen_stream *streams;        /* NULL: each GPU's default stream */
	/* Derived by check_call(): */
	unsigned long long total;          /* every GPU's n */
	long long offset[KGEN_MULTI_MAX];  /* the elements (rows) of the GPUs before each */
	size_t chunk;                      /* bytes of one GPU's partials in the buffer */
};

static size_t
round8(size_t x)
{
	return (x + 7) / 8 * 8;
}

static CUstream
stream_of(const struct call *c, int i)
{
	return c->streams ? (CUstream)c->streams[i] : NULL;
}

/* Does GPU i get the result? */
static int
gets_result(const struct call *c, int i)
{
	return c->root == KGEN_MULTI_ALL || c->root == i;
}

/* The pointers a call was given: NULL ones, n without in, results where they go. */
static kgen_status
check_pointers(const kgen_multi *m, const struct call *c, kgen_error *err)
{
	int i;

	if (!c->in || !c->n || !c->out || (c->arg && !c->index))
		return kgen_fail(err, KGEN_EINVAL, "%s: %s is NULL", c->who,
		                 !c->in ? "in" : !c->n ? (c->axis ? "rows" : "n") : !c->out ? (c->arg ? "value" : "out") : "index");
	if (c->root != KGEN_MULTI_ALL && (c->root < 0 || c->root >= m->count))
		return kgen_fail(err, KGEN_EINVAL, "%s: root %d is not one of the %d GPUs (0 to %d), nor KGEN_MULTI_ALL",
		                 c->who, c->root, m->count, m->count - 1);
	for (i = 0; i < m->count; i++) {
		if (c->n[i] && !c->in[i])
			return kgen_fail(err, KGEN_EINVAL, "%s: in[%d] is NULL, with %s[%d] = %llu", c->who, i,
			                 c->axis ? "rows" : "n", i, c->n[i]);
		if (gets_result(c, i) && !c->out[i])
			return kgen_fail(err, KGEN_EINVAL, "%s: %s[%d] is NULL, and GPU %d (device %d) gets the result", c->who,
			                 c->arg ? "value" : "out", i, i, m->devices[i]);
		if (gets_result(c, i) && c->arg && !c->index[i])
			return kgen_fail(err, KGEN_EINVAL, "%s: index[%d] is NULL, and GPU %d (device %d) gets the result",
			                 c->who, i, i, m->devices[i]);
	}
	return KGEN_OK;
}

/* GPU i's results aligned to their types and apart from one another and
 * from its input, as kgen_reduce() and kgen_reduce_axis() ask of theirs
 * (the result is written where the GPU's input may still be read). */
static kgen_status
outputs_apart(const kgen_multi_kernel *k, const struct call *c, int i, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long osize = (unsigned long long)s->r.out->size, isize = (unsigned long long)s->r.dtype->size;
	unsigned long long count = c->axis ? c->cols : 1, row = c->axis ? (c->pitch ? c->pitch : c->cols) : 1;
	/* the last row's padding is no part of in, as for kgen_reduce_axis() */
	unsigned long long in_bytes = !c->n[i] ? 0 : c->n[i] - 1 > (~0ull - count) / row / isize ? ~0ull :
	                              ((c->n[i] - 1) * row + count) * isize;
	struct kgen_span spans[3];
	kgen_status st;
	size_t len;

	if (c->out[i] % osize)
		return kgen_fail(err, KGEN_EINVAL, "%s: %s[%d] (0x%llx) is not aligned to its %llu-byte %s", c->who,
		                 c->arg ? "value" : "out", i, c->out[i], osize, s->r.out->name);
	if (c->arg && c->index[i] % 8)
		return kgen_fail(err, KGEN_EINVAL, "%s: index[%d] (0x%llx) is not aligned to its 8-byte i64", c->who, i,
		                 c->index[i]);
	spans[0] = (struct kgen_span){ c->arg ? "value" : "out", c->out[i], count * osize };
	spans[1] = (struct kgen_span){ "index", c->arg ? c->index[i] : 0, c->arg ? count * 8 : 0 };
	spans[2] = (struct kgen_span){ "in", c->in[i], in_bytes };
	if ((st = kgen_refuse_overlaps(c->who, spans, 3, 2, err)) && err) {
		len = strlen(err->message);
		snprintf(err->message + len, sizeof err->message - len, " (on GPU %d, device %d)", i, k->m->devices[i]);
	}
	return st;
}

/* Everything about a call that can be wrong, before anything is launched:
 * the kernel's family and outputs, the pointers, each GPU's size against
 * its kernel (kgen_*_scratch_size checks them), the total. */
static kgen_status
check_call(const kgen_multi_kernel *k, struct call *c, kgen_error *err)
{
	const kgen_multi *m = k->m;
	const struct kgen_spec *s = &k->spec;
	unsigned long long before = 0;
	size_t bytes;
	kgen_status st;
	int i;

	if ((st = kgen_kernel_expect(k->local[0], c->axis ? KGEN_REDUCE_AXIS : KGEN_REDUCE, c->who, err)))
		return st;
	if (s->r.pair && !c->arg)
		return kgen_fail(err, KGEN_EINVAL, "%s: op: %s writes a value and an index: call %s_arg()", c->who,
		                 kgen_ops[s->op].name, c->who);
	if (!s->r.pair && c->arg)
		return kgen_fail(err, KGEN_EINVAL, "%s: op: %s writes one result, not an index: call %.*s()", c->who,
		                 kgen_ops[s->op].name, (int)strlen(c->who) - 4, c->who);
	if ((st = check_pointers(m, c, err)))
		return st;
	if (c->axis && c->pitch && c->pitch < c->cols)
		return kgen_fail(err, KGEN_EINVAL, "%s: pitch %llu is less than cols %llu", c->who, c->pitch, c->cols);
	for (i = 0; i < m->count; i++) {
		st = c->axis ? kgen_reduce_axis_scratch_size(k->local[i], c->n[i], c->cols, &bytes, err)
		             : kgen_reduce_scratch_size(k->local[i], c->n[i], &bytes, err);
		if (st) {
			size_t len = strlen(err ? err->message : "");
			if (err)
				snprintf(err->message + len, sizeof err->message - len, " (on GPU %d, device %d)", i, m->devices[i]);
			return st;
		}
		if (c->n[i] && c->in[i] % (unsigned long long)s->r.dtype->size)
			return kgen_fail(err, KGEN_EINVAL, "%s: in[%d] (0x%llx) is not aligned to its %d-byte %s elements", c->who,
			                 i, c->in[i], s->r.dtype->size, s->r.dtype->name);
		if (gets_result(c, i) && (st = outputs_apart(k, c, i, err)))
			return st;
		if (before > 0x7fffffffffffffffull - c->n[i])
			return kgen_fail(err, KGEN_EINVAL, "%s: the GPUs' %s add up to more than 2^63", c->who,
			                 c->axis ? "rows" : "elements");
		c->offset[i] = (long long)before;
		before += c->n[i];
	}
	c->total = before;
	c->chunk = c->arg ? c->cols * 8 + round8(c->cols * k->acc_size) : round8(c->cols * k->acc_size);
	return KGEN_OK;
}

/* GPU i's buffer holds bytes (zero-filled when grown: nothing reads it
 * before it is written; the fill is for the tests' eyes). */
static kgen_status
grow(struct kgen_multi_kernel *k, int i, size_t bytes, CUstream stream, kgen_error *err)
{
	const struct kgen_cu *cu = k->m->ctx[i]->cu;

	if (k->buf_bytes[i] >= bytes)
		return KGEN_OK;
	if (k->buf[i]) {
		KGEN_CU(cu, err, cuStreamSynchronize, (stream));
		KGEN_CU(cu, err, cuMemFree, (k->buf[i]));
		k->buf[i] = 0;
		k->buf_bytes[i] = 0;
	}
	KGEN_CU(cu, err, cuMemAlloc, (&k->buf[i], bytes));
	k->buf_bytes[i] = bytes;
	KGEN_CU(cu, err, cuMemsetD8Async, (k->buf[i], 0, bytes, stream));
	return KGEN_OK;
}

/* Where GPU i's own partials go in its buffer: its slot when gathered. */
static CUdeviceptr
own_slot(const struct kgen_multi_kernel *k, const struct call *c, int i)
{
	return k->buf[i] + (k->gather ? (size_t)i * c->chunk : 0);
}

/* GPU i's own reduction, into its slot: a pair's indices first, then its values. */
static kgen_status
reduce_local(struct kgen_multi_kernel *k, const struct call *c, int i, kgen_error *err)
{
	CUdeviceptr slot = own_slot(k, c, i), value = c->arg ? slot + c->cols * 8 : slot;
	kgen_kernel *local = k->local[i];
	kgen_stream stream = stream_of(c, i);

	if (c->axis && c->arg)
		return kgen_reduce_axis_arg(local, c->in[i], c->n[i], c->cols, c->pitch ? c->pitch : c->cols, value, slot, 0, 0,
		                            stream, err);
	if (c->axis)
		return kgen_reduce_axis(local, c->in[i], c->n[i], c->cols, c->pitch ? c->pitch : c->cols, value, 0, 0, stream,
		                        err);
	if (c->arg)
		return kgen_reduce_arg(local, c->in[i], c->n[i], value, slot, 0, 0, stream, err);
	return kgen_reduce(local, c->in[i], c->n[i], value, 0, 0, stream, err);
}

/* NCCL's part, one group over the GPUs: reduce the accumulators (into out,
 * or in place when the combine kernel reads them), or gather them. */
static kgen_status
collective(struct kgen_multi_kernel *k, const struct call *c, int i, kgen_error *err)
{
	const struct kgen_nccl *nc = k->m->nccl;
	ncclComm_t comm = k->m->comm[i];
	void *buf = (void *)(uintptr_t)k->buf[i], *to = k->needs_combine ? buf : (void *)(uintptr_t)c->out[i];
	ncclStream stream = stream_of(c, i);
	int p;

	if (!k->gather && c->root == KGEN_MULTI_ALL)
		KGEN_NCCL(nc, err, ncclAllReduce, (buf, to, c->cols, k->type, k->op, comm, stream));
	else if (!k->gather)
		KGEN_NCCL(nc, err, ncclReduce, (buf, c->root == i ? to : buf, c->cols, k->type, k->op, c->root, comm, stream));
	else if (c->root == KGEN_MULTI_ALL)  /* in place: GPU i's slot is its part of the whole */
		KGEN_NCCL(nc, err, ncclAllGather, ((char *)buf + (size_t)i * c->chunk, buf, c->chunk, ncclInt8, comm, stream));
	else if (c->root != i)
		KGEN_NCCL(nc, err, ncclSend, ((char *)buf + (size_t)i * c->chunk, c->chunk, ncclInt8, c->root, comm, stream));
	else
		for (p = 0; p < k->m->count; p++)
			if (p != i)
				KGEN_NCCL(nc, err, ncclRecv, ((char *)buf + (size_t)p * c->chunk, c->chunk, ncclInt8, p, comm, stream));
	return KGEN_OK;
}

/* Every GPU's collective in one NCCL group (one thread drives them all). */
static kgen_status
collectives(struct kgen_multi_kernel *k, const struct call *c, kgen_error *err)
{
	const struct kgen_nccl *nc = k->m->nccl;
	kgen_status st = KGEN_OK;
	ncclResult_t r;
	int i;

	KGEN_NCCL(nc, err, ncclGroupStart, ());
	for (i = 0; i < k->m->count && !st; i++)
		st = collective(k, c, i, err);
	r = nc->ncclGroupEnd();  /* ends the group on failure too */
	if (!st && r != 0)
		st = kgen_nccl_fail(nc, err, "ncclGroupEnd", r);
	return st;
}

/* On GPU i: combine the partials in its buffer (every GPU's when gathered,
 * NCCL's reduction otherwise) and store the result of all total elements. */
static kgen_status
combine_on(struct kgen_multi_kernel *k, const struct call *c, int i, kgen_error *err)
{
	kgen_context *ctx = k->m->ctx[i];
	CUdeviceptr parts = k->buf[i];
	unsigned long long stride = c->chunk, count = c->cols, n = c->total, grid = (count + 255) / 256;
	unsigned int nparts = k->gather ? (unsigned int)k->m->count : 1;
	long long offsets[KGEN_MULTI_MAX] = { 0 };
	struct { CUdeviceptr value, index; } pair = { c->out[i], c->arg ? c->index[i] : 0 };
	void *results = c->arg ? (void *)&pair : (void *)&c->out[i];
	void *args[] = { &parts, &stride, &nparts, &count, offsets, results, &n };
	kgen_status st;

	if (k->gather)
		memcpy(offsets, c->offset, sizeof offsets);
	if ((st = kgen_context_enter(ctx, err)))
		return st;
	return kgen_launch(ctx->cu, k->combine[i], grid > 4096 ? 4096 : grid, 256, 0, args, stream_of(c, i), err);
}

static kgen_status
run_body(struct kgen_multi_kernel *k, struct call *c, kgen_error *err)
{
	kgen_multi *m = k->m;
	kgen_status st;
	int i;

	if ((st = check_call(k, c, err)))
		return st;
	if (!c->cols)
		return KGEN_OK;  /* no outputs: nothing to launch */
	for (i = 0; i < m->count; i++)
		if ((st = kgen_context_enter(m->ctx[i], err)) ||
		    (st = grow(k, i, k->gather ? (size_t)m->count * c->chunk : c->chunk, stream_of(c, i), err)))
			return st;
	for (i = 0; i < m->count; i++)
		if ((st = reduce_local(k, c, i, err)))
			return st;
	if ((st = collectives(k, c, err)))
		return st;
	for (i = 0; k->needs_combine && i < m->count; i++)
		if (gets_result(c, i) && (st = combine_on(k, c, i, err)))
			return st;
	return KGEN_OK;
}

/* The work above, one call at a time per set, leaving the caller's current
 * context as it was. */
static kgen_status
run(kgen_multi_kernel *k, struct call *c, kgen_error *err)
{
	const struct kgen_cu *cu;
	CUcontext saved = NULL;
	kgen_status st;

	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "%s: NULL kernel", c->who);
	cu = k->m->ctx[0]->cu;
	cu->cuCtxGetCurrent(&saved);
	pthread_mutex_lock(&k->m->lock);
	st = run_body(k, c, err);
	pthread_mutex_unlock(&k->m->lock);
	cu->cuCtxSetCurrent(saved);
	return st;
}

kgen_status
kgen_multi_reduce(kgen_multi_kernel *k, const kgen_devptr *in, const unsigned long long *n, const kgen_devptr *out,
                  int root, const kgen_stream *streams, kgen_error *err)
{
	struct call c = { .who = "kgen_multi_reduce", .in = in, .n = n, .cols = 1, .out = out, .root = root,
	                  .streams = streams };

	return run(k, &c, err);
}

kgen_status
kgen_multi_reduce_arg(kgen_multi_kernel *k, const kgen_devptr *in, const unsigned long long *n,
                      const kgen_devptr *value, const kgen_devptr *index, int root, const kgen_stream *streams,
                      kgen_error *err)
{
	struct call c = { .who = "kgen_multi_reduce_arg", .arg = 1, .in = in, .n = n, .cols = 1, .out = value,
	                  .index = index, .root = root, .streams = streams };

	return run(k, &c, err);
}

kgen_status
kgen_multi_reduce_axis(kgen_multi_kernel *k, const kgen_devptr *in, const unsigned long long *rows,
                       unsigned long long cols, unsigned long long pitch, const kgen_devptr *out, int root,
                       const kgen_stream *streams, kgen_error *err)
{
	struct call c = { .who = "kgen_multi_reduce_axis", .axis = 1, .in = in, .n = rows, .cols = cols, .pitch = pitch,
	                  .out = out, .root = root, .streams = streams };

	return run(k, &c, err);
}

kgen_status
kgen_multi_reduce_axis_arg(kgen_multi_kernel *k, const kgen_devptr *in, const unsigned long long *rows,
                           unsigned long long cols, unsigned long long pitch, const kgen_devptr *value,
                           const kgen_devptr *index, int root, const kgen_stream *streams, kgen_error *err)
{
	struct call c = { .who = "kgen_multi_reduce_axis_arg", .axis = 1, .arg = 1, .in = in, .n = rows, .cols = cols,
	                  .pitch = pitch, .out = value, .index = index, .root = root, .streams = streams };

	return run(k, &c, err);
}
