/* transpose_launch.c - kgen_transpose(): a `kernel: transpose` spec on a matrix,
 * with TMA tensor maps encoded for the TMA method. */
#include "config.h"
#include <string.h>
#include "runtime.h"
#include "gen/transpose.h"

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

	if ((st = kgen_kernel_expect(k, KGEN_TRANSPOSE, "kgen_transpose", err)))
		return st;
	s = &k->spec;
	cu = k->ctx->cu;
	if (!rows || !cols)
		return KGEN_OK;
	if (!in || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: NULL in or out");
	size = (unsigned long long)kgen_spec_dtype(s)->size;
	if (rows > ~0ull / cols / size)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: a %llu x %llu matrix of %s is too large", rows, cols,
		                 kgen_spec_dtype(s)->name);
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
		if (s->buffers > 1 && grid > (unsigned long long)k->ctx->sm_count * (unsigned long long)k->occupancy[0])
			grid = (unsigned long long)k->ctx->sm_count * (unsigned long long)(k->occupancy[0] > 0 ? k->occupancy[0] : 1);
		return kgen_launch(cu, k->fn[0], grid, s->threads, (unsigned)k->plan.step[0].dynamic_smem, args, stream, err);
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
		return kgen_launch(cu, k->fn[0], grid, s->threads, 0, args, stream, err);
	}
}
