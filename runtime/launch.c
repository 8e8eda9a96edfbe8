/* launch.c - kgen_reduce(): every stage of a reduction spec, on one stream. */
#include "config.h"
#include <string.h>
#include "runtime.h"
#include "gen/reduce.h"
#include "gen/transpose.h"

kgen_status
kgen_reduce_scratch_size(const kgen_kernel *k, unsigned long long n, size_t *bytes, kgen_error *err)
{
	if (!k || !bytes)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_scratch_size: NULL argument");
	*bytes = kgen_reduce_scratch(&k->spec, n, k->ctx->sm_count);
	return KGEN_OK;
}

/* Grow the kernel's own scratch to bytes, zero-filled (the ticket starts at 0). */
static kgen_status
own_scratch(kgen_kernel *k, size_t bytes, CUstream stream, kgen_error *err)
{
	const struct kgen_cu *cu = k->ctx->cu;

	if (k->scratch_bytes >= bytes)
		return KGEN_OK;
	if (k->scratch) {
		KGEN_CU(cu, err, cuStreamSynchronize, (stream));
		KGEN_CU(cu, err, cuMemFree, (k->scratch));
		k->scratch = 0;
		k->scratch_bytes = 0;
	}
	KGEN_CU(cu, err, cuMemAlloc, (&k->scratch, bytes));
	k->scratch_bytes = bytes;
	KGEN_CU(cu, err, cuMemsetD8Async, (k->scratch, 0, bytes, stream));
	return KGEN_OK;
}

static kgen_status
launch_smem(const struct kgen_cu *cu, CUfunction f, unsigned long long grid, long long block, unsigned int smem,
            void **args, CUstream stream, kgen_error *err)
{
	KGEN_CU(cu, err, cuLaunchKernel, (f, (unsigned)grid, 1, 1, (unsigned)block, 1, 1, smem, stream, args, NULL));
	return KGEN_OK;
}

static kgen_status
launch(const struct kgen_cu *cu, CUfunction f, unsigned long long grid, long long block, void **args, CUstream stream,
       kgen_error *err)
{
	return launch_smem(cu, f, grid, block, 0, args, stream, err);
}

kgen_status
kgen_reduce(kgen_kernel *k, kgen_devptr in, unsigned long long n, kgen_devptr out, kgen_devptr scratch,
            size_t scratch_bytes, kgen_stream stream_, kgen_error *err)
{
	const struct kgen_spec *s;
	const struct kgen_cu *cu;
	CUstream stream = (CUstream)stream_;
	unsigned long long grid, n64 = n;
	unsigned int n32 = (unsigned int)n, g32, align;
	size_t need;
	CUdeviceptr partials, ticket;
	void *nptr, *args[5];
	kgen_status st;

	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce: NULL kernel");
	s = &k->spec;
	if (s->kernel != KGEN_REDUCE)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce: %s is a %s kernel", kgen_spec_kernel_name(s),
		                 kgen_families[s->kernel].name);
	cu = k->ctx->cu;
	if (!out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce: out is NULL");
	if (n > kgen_reduce_max_n(s))
		return kgen_fail(err, KGEN_EINVAL, "n = %llu is too large for index: %lld (at most %llu); use index: 64",
		                 n, s->index, kgen_reduce_max_n(s));
	align = (unsigned)(s->load_width > 16 ? 16 : s->load_width);
	if (n && in % align)
		return kgen_fail(err, KGEN_EINVAL,
		                 "in (0x%llx) is not aligned to %u bytes, as load_width: %lld needs; pass an aligned pointer "
		                 "or use a spec with a smaller load_width", in, align, s->load_width);
	if (n && !in)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce: in is NULL");
	if (out % (unsigned long long)kgen_spec_acc(s)->size)
		return kgen_fail(err, KGEN_EINVAL, "out (0x%llx) is not aligned to its %d-byte %s", out,
		                 kgen_spec_acc(s)->size, kgen_spec_acc(s)->name);
	if ((st = kgen_context_enter(k->ctx, err)) != KGEN_OK)
		return st;
	grid = kgen_reduce_grid(s, n, k->ctx->sm_count);
	if (grid > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "n = %llu needs %llu blocks, more than a grid holds; use grid: persistent",
		                 n, grid);
	g32 = (unsigned)grid;
	need = kgen_reduce_scratch(s, n, k->ctx->sm_count);
	if (need && !scratch) {
		if ((st = own_scratch(k, need, stream, err)) != KGEN_OK)
			return st;
		scratch = k->scratch;
	} else if (need && scratch_bytes < need) {
		return kgen_fail(err, KGEN_EINVAL, "scratch of %zu bytes is too small: %zu needed for n = %llu",
		                 scratch_bytes, need, n);
	}
	nptr = s->index == 32 ? (void *)&n32 : (void *)&n64;
	/* last_block: the ticket first, at a fixed place, then the partials.  A
	 * ticket placed after the partials would move with n (the grid), onto
	 * bytes an earlier, larger launch left holding partials. */
	if (s->stages == KGEN_STAGES_LAST_BLOCK) {
		ticket = scratch;
		partials = scratch + 16;
	} else {
		ticket = 0;
		partials = scratch;
	}

	switch (s->stages) {
	case KGEN_STAGES_ATOMIC:
		args[0] = &out;
		if ((st = launch(cu, k->init, 1, 1, args, stream, err)))
			return st;
		args[0] = &in;
		args[1] = &out;
		args[2] = nptr;
		return launch(cu, k->main, grid, s->threads, args, stream, err);
	case KGEN_STAGES_TWO_PASS:
		args[0] = &in;
		args[1] = &partials;
		args[2] = nptr;
		if ((st = launch(cu, k->main, grid, s->threads, args, stream, err)))
			return st;
		args[0] = &partials;
		args[1] = &out;
		args[2] = &g32;
		return launch(cu, k->final, 1, s->threads, args, stream, err);
	default:
		args[0] = &in;
		args[1] = &out;
		args[2] = nptr;
		args[3] = &partials;
		args[4] = &ticket;
		return launch(cu, k->main, grid, s->threads, args, stream, err);
	}
}

/* The driver's element type for a dtype, for tensor maps. */
static CUtensorMapDataType
tma_type(const struct kgen_spec *s)
{
	switch (s->dtype) {
	case KGEN_DT_I32: return CU_TENSOR_MAP_DATA_TYPE_INT32;
	case KGEN_DT_U32: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
	case KGEN_DT_I64: return CU_TENSOR_MAP_DATA_TYPE_INT64;
	case KGEN_DT_F64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
	case KGEN_DT_F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
	case KGEN_DT_BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
	default: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
	}
}

/* A 2-D tensor map of a row-major height x width matrix at addr, box
 * box_h x box_w, with the spec's swizzle. */
static kgen_status
tma_map(const struct kgen_cu *cu, const struct kgen_spec *s, CUtensorMap *map, CUdeviceptr addr,
        unsigned long long height, unsigned long long width, long long box_h, long long box_w, kgen_error *err)
{
	static const CUtensorMapL2promotion promotions[] = {
		CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
		CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
	};
	static const CUtensorMapSwizzle swizzles[] = {
		CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B,
	};
	cuuint64_t dims[2] = { width, height }, strides[1] = { width * (cuuint64_t)kgen_spec_dtype(s)->size };
	cuuint32_t box[2] = { (cuuint32_t)box_w, (cuuint32_t)box_h }, estrides[2] = { 1, 1 };

	KGEN_CU(cu, err, cuTensorMapEncodeTiled,
	        (map, tma_type(s), 2, (void *)addr, dims, strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
	         swizzles[s->swizzle], promotions[s->l2_promotion], CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return KGEN_OK;
}

kgen_status
kgen_transpose(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows, unsigned long long cols,
               kgen_stream stream_, kgen_error *err)
{
	const struct kgen_spec *s;
	const struct kgen_cu *cu;
	CUstream stream = (CUstream)stream_;
	unsigned long long grid, bytes, size, align;
	kgen_status st;

	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: NULL kernel");
	s = &k->spec;
	cu = k->ctx->cu;
	if (s->kernel != KGEN_TRANSPOSE)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: %s is a %s kernel", kgen_spec_kernel_name(s),
		                 kgen_families[s->kernel].name);
	if (!rows || !cols)
		return KGEN_OK;
	if (!in || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: NULL in or out");
	size = (unsigned long long)kgen_spec_dtype(s)->size;
	bytes = rows * cols * size;
	if ((in < out && in + bytes > out) || (out <= in && out + bytes > in))
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: in and out overlap");
	if ((st = kgen_context_enter(k->ctx, err)) != KGEN_OK)
		return st;
	grid = kgen_transpose_grid(s, rows, cols);
	if (grid > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "a %llu x %llu matrix needs %llu tiles, more than a grid holds", rows, cols,
		                 grid);
	if (s->method == KGEN_METHOD_TMA) {
		CUtensorMap in_map, out_map;
		unsigned int r32 = (unsigned)rows, c32 = (unsigned)cols;
		void *args[] = { &in_map, &out_map, &r32, &c32 };

		if (rows == 1 || cols == 1) {
			/* A vector's transpose has the same bytes in the same order. */
			KGEN_CU(cu, err, cuMemcpyDtoDAsync, (out, in, bytes, stream));
			return KGEN_OK;
		}
		if (rows > 0x7fffffffull || cols > 0x7fffffffull)
			return kgen_fail(err, KGEN_EINVAL, "TMA coordinates are 32-bit: %llu x %llu is too large", rows, cols);
		if (in % 16 || out % 16)
			return kgen_fail(err, KGEN_EINVAL, "method: tma needs 16-byte aligned matrices");
		if ((cols * size) % 16 || (rows * size) % 16)
			return kgen_fail(err, KGEN_EINVAL,
			                 "method: tma needs rows of a multiple of 16 bytes in `in` and `out`: a %llu x %llu "
			                 "matrix of %s has rows of %llu and %llu bytes; use method: smem", rows, cols,
			                 kgen_spec_dtype(s)->name, cols * size, rows * size);
		if ((st = tma_map(cu, s, &in_map, in, rows, cols, s->tile_rows, s->tile_cols, err)) ||
		    (st = tma_map(cu, s, &out_map, out, cols, rows, s->tile_cols, s->tile_rows, err)))
			return st;
		/* Pipelined kernels are persistent: as many blocks as the GPU holds at once. */
		if (s->buffers > 1 && grid > (unsigned long long)k->ctx->sm_count * (unsigned long long)k->occupancy)
			grid = (unsigned long long)k->ctx->sm_count * (unsigned long long)(k->occupancy > 0 ? k->occupancy : 1);
		return launch_smem(cu, k->main, grid, s->threads, k->dynamic_smem, args, stream, err);
	}
	align = (unsigned long long)s->load_width;
	if (in % align || out % align)
		return kgen_fail(err, KGEN_EINVAL, "`in` and `out` must be aligned to %llu bytes, as load_width: %lld needs",
		                 align, s->load_width);
	if (s->index == 32 && rows * cols > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "%llu x %llu elements are too many for index: 32; use index: 64", rows,
		                 cols);
	{
		unsigned long long r64 = rows, c64 = cols;
		unsigned int r32 = (unsigned)rows, c32 = (unsigned)cols;
		void *args[] = { &in, &out, s->index == 32 ? (void *)&r32 : (void *)&r64,
		                 s->index == 32 ? (void *)&c32 : (void *)&c64 };
		return launch(cu, k->main, grid, s->threads, args, stream, err);
	}
}
