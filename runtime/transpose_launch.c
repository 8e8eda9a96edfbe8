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

/* A 3-D tensor map of `batch` row-major height x width matrices at addr,
 * rows `pitch` and matrices `stride` elements apart, box box_h x box_w x 1,
 * with the spec's swizzle and L2 promotion. */
static kgen_status
tma_map(const struct kgen_cu *cu, const struct kgen_spec *s, CUtensorMap *map, CUdeviceptr addr,
        unsigned long long height, unsigned long long width, unsigned long long batch, unsigned long long pitch,
        unsigned long long stride, long long box_h, long long box_w, kgen_error *err)
{
	static const CUtensorMapL2promotion promotions[] = {
		CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
		CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
	};
	static const CUtensorMapSwizzle swizzles[] = {
		CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B,
	};
	cuuint64_t size = (cuuint64_t)s->r.dtype->size;
	cuuint64_t dims[3] = { width, height, batch }, strides[2] = { pitch * size, (batch > 1 ? stride : height * pitch) * size };
	cuuint32_t box[3] = { (cuuint32_t)box_w, (cuuint32_t)box_h, 1 }, estrides[3] = { 1, 1, 1 };

	KGEN_CU(cu, err, cuTensorMapEncodeTiled,
	        (map, tma_type(s), 3, (void *)addr, dims, strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
	         swizzles[s->swizzle], promotions[s->l2_promotion], CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return KGEN_OK;
}

/* A layout with its zeros filled in (packed), as kgen_transpose_layout says. */
static struct kgen_transpose_layout
resolve_layout(const struct kgen_transpose_layout *given, unsigned long long rows, unsigned long long cols)
{
	struct kgen_transpose_layout l = { 1, cols, rows, 0, 0 };

	if (given) {
		l = *given;
		if (!l.batch)
			l.batch = 1;
		if (!l.in_pitch)
			l.in_pitch = cols;
		if (!l.out_pitch)
			l.out_pitch = rows;
	}
	if (!l.in_stride)
		l.in_stride = rows * l.in_pitch;  /* no wrap: checked by the caller before use */
	if (!l.out_stride)
		l.out_stride = cols * l.out_pitch;
	return l;
}

/* Elements from a batch's first to one past its last: (batch - 1) * stride
 * + (height - 1) * pitch + width, or ~0 when that wraps. */
static unsigned long long
extent(unsigned long long batch, unsigned long long stride, unsigned long long height, unsigned long long pitch,
       unsigned long long width)
{
	unsigned long long a, b;

	if (stride && batch - 1 > ~0ull / stride)
		return ~0ull;
	a = (batch - 1) * stride;
	if (pitch && height - 1 > ~0ull / pitch)
		return ~0ull;
	b = (height - 1) * pitch;
	if (a > ~0ull - b || a + b > ~0ull - width)
		return ~0ull;
	return a + b + width;
}

/* A TMA transpose's launch state (kgen_kernel.state): the tensor maps for
 * the last pointers and layout it ran on, encoded once and reused while
 * they do not change (under the context's lock).  Plain memory: the
 * kernel frees it with free(). */
struct kgen_tma_maps {
	int valid;
	CUdeviceptr in, out;
	unsigned long long rows, cols, batch, in_pitch, out_pitch, in_stride, out_stride;
	CUtensorMap in_map, out_map;
};

const struct kgen_launcher kgen_launcher_transpose = { .free_state = NULL };

/* The TMA maps for these pointers and layout: the kernel's own when they
 * match, else encoded now and kept. */
static kgen_status
tma_maps(kgen_kernel *k, CUdeviceptr in, CUdeviceptr out, unsigned long long rows, unsigned long long cols,
         const struct kgen_transpose_layout *l, CUtensorMap *in_map, CUtensorMap *out_map, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	struct kgen_tma_maps *m;
	kgen_status st = KGEN_OK;

	if (!(m = kgen_kernel_state_lock(k, _Alignof(struct kgen_tma_maps), sizeof *m, err)))
		return KGEN_ENOMEM;
	if (!m->valid || m->in != in || m->out != out || m->rows != rows || m->cols != cols || m->batch != l->batch ||
	    m->in_pitch != l->in_pitch || m->out_pitch != l->out_pitch ||
	    (l->batch > 1 && (m->in_stride != l->in_stride || m->out_stride != l->out_stride))) {
		m->valid = 0;
		if (!(st = tma_map(k->ctx->cu, s, &m->in_map, in, rows, cols, l->batch, l->in_pitch, l->in_stride,
		                   s->tile_rows, s->tile_cols, err)) &&
		    !(st = tma_map(k->ctx->cu, s, &m->out_map, out, cols, rows, l->batch, l->out_pitch, l->out_stride,
		                   s->tile_cols, s->tile_rows, err))) {
			m->in = in, m->out = out, m->rows = rows, m->cols = cols, m->batch = l->batch;
			m->in_pitch = l->in_pitch, m->out_pitch = l->out_pitch;
			m->in_stride = l->in_stride, m->out_stride = l->out_stride;
			m->valid = 1;
		}
	}
	if (!st) {
		*in_map = m->in_map;
		*out_map = m->out_map;
	}
	kgen_kernel_state_unlock(k);
	return st;
}

kgen_status
kgen_transpose(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows, unsigned long long cols,
               kgen_stream stream, kgen_error *err)
{
	return kgen_transpose_batched(k, in, out, rows, cols, NULL, stream, err);
}

/* The arguments' checks before any launch: sizes, pitches, strides and
 * overlap; *l the layout resolved, *in_end and *out_end the bytes each side
 * spans. */
static kgen_status
check_arguments(const struct kgen_spec *s, kgen_devptr in, kgen_devptr out, unsigned long long rows,
                unsigned long long cols, const struct kgen_transpose_layout *layout, struct kgen_transpose_layout *l,
                unsigned long long *in_end, unsigned long long *out_end, kgen_error *err)
{
	unsigned long long size = (unsigned long long)s->r.dtype->size;

	if (layout && ((layout->in_pitch && layout->in_pitch < cols) || (layout->out_pitch && layout->out_pitch < rows)))
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: a pitch shorter than a row (in_pitch %llu < cols %llu or "
		                 "out_pitch %llu < rows %llu)", layout->in_pitch, cols, layout->out_pitch, rows);
	if (rows > ~0ull / cols || (layout && ((layout->in_pitch && rows > ~0ull / layout->in_pitch) ||
	                                      (layout->out_pitch && cols > ~0ull / layout->out_pitch))))
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: a %llu x %llu matrix of %s is too large", rows, cols,
		                 s->r.dtype->name);
	*l = resolve_layout(layout, rows, cols);
	*in_end = extent(l->batch, l->in_stride, rows, l->in_pitch, cols);
	*out_end = extent(l->batch, l->out_stride, cols, l->out_pitch, rows);
	if (*in_end > ~0ull / size || *out_end > ~0ull / size)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: %llu matrices of %llu x %llu %s at these strides are too "
		                 "large", l->batch, rows, cols, s->r.dtype->name);
	if (l->batch > 1 && l->out_stride < extent(1, 0, cols, l->out_pitch, rows))
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: out_stride %llu is shorter than one output matrix "
		                 "(%llu elements): the outputs would overlap", l->out_stride, extent(1, 0, cols, l->out_pitch, rows));
	*in_end *= size;
	*out_end *= size;
	return kgen_refuse_overlaps("kgen_transpose", (const struct kgen_span[]){ { "out", out, *out_end },
	                                                                           { "in", in, *in_end } }, 2, 1, err);
}

/* method: tma: a vector copied as it is, else the checks TMA adds and the
 * launch (pipelined kernels persistent, over every tile of the batch). */
static kgen_status
launch_tma(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows, unsigned long long cols,
           const struct kgen_transpose_layout *l, unsigned long long tiles, unsigned int gy, unsigned int gz,
           CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	const struct kgen_cu *cu = k->ctx->cu;
	unsigned long long size = (unsigned long long)s->r.dtype->size;
	CUtensorMap in_map, out_map;
	unsigned int r32 = (unsigned)rows, c32 = (unsigned)cols, b32 = (unsigned)l->batch;
	void *args[] = { &in_map, &out_map, &r32, &c32, &b32 };
	unsigned long long grid = tiles;
	kgen_status st;

	if ((rows == 1 || cols == 1) && l->batch == 1 && l->in_pitch == cols && l->out_pitch == rows) {
		/* A vector's transpose has the same bytes in the same order. */
		KGEN_CU(cu, err, cuMemcpyDtoDAsync, (out, in, rows * cols * size, stream));
		return KGEN_OK;
	}
	if (rows > 0x7fffffffull || cols > 0x7fffffffull || l->batch > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "TMA coordinates are 32-bit: %llu x %llu (batch %llu) is too large",
		                 rows, cols, l->batch);
	if (in % 16 || out % 16)
		return kgen_fail(err, KGEN_EINVAL, "method: tma needs 16-byte aligned matrices");
	if ((l->in_pitch * size) % 16 || (l->out_pitch * size) % 16)
		return kgen_fail(err, KGEN_EINVAL,
		                 "method: tma needs row pitches of a multiple of 16 bytes in `in` and `out`: %llu and "
		                 "%llu elements of %s are %llu and %llu bytes; use method: smem", l->in_pitch, l->out_pitch,
		                 s->r.dtype->name, l->in_pitch * size, l->out_pitch * size);
	if (l->batch > 1 && ((l->in_stride * size) % 16 || (l->out_stride * size) % 16))
		return kgen_fail(err, KGEN_EINVAL,
		                 "method: tma needs matrix strides of a multiple of 16 bytes: %llu and %llu elements of "
		                 "%s are not; use method: smem", l->in_stride, l->out_stride, s->r.dtype->name);
	if ((st = tma_maps(k, in, out, rows, cols, l, &in_map, &out_map, err)))
		return st;
	if (s->buffers > 1) {
		/* Pipelined kernels are persistent: as many blocks as the GPU holds at once, over every tile of the batch. */
		unsigned long long resident = (unsigned long long)k->ctx->sm_count *
		                              (unsigned long long)(k->occupancy[0] > 0 ? k->occupancy[0] : 1);
		if (tiles * l->batch > 0xffffffffull)
			return kgen_fail(err, KGEN_EINVAL, "a batch of %llu tiles is more than a pipelined kernel counts "
			                 "(2^32)", tiles * l->batch);
		grid = tiles * l->batch < resident ? tiles * l->batch : resident;
		return kgen_launch(cu, k->fn[0], grid, s->threads, (unsigned)k->contract.step[0].dynamic_smem, args, stream,
		                   err);
	}
	return kgen_launch_3d(cu, k->fn[0], (unsigned)grid, gy, gz, s->threads, (unsigned)k->contract.step[0].dynamic_smem,
	                      args, stream, err);
}

/* method: smem: the alignment and index checks, and the launch with the
 * sizes as 32- or 64-bit arguments, as index: says. */
static kgen_status
launch_smem(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows, unsigned long long cols,
            const struct kgen_transpose_layout *l, unsigned long long in_end, unsigned long long out_end,
            unsigned long long tiles, unsigned int gy, unsigned int gz, CUstream stream, kgen_error *err)
{
	const struct kgen_spec *s = &k->spec;
	unsigned long long size = (unsigned long long)s->r.dtype->size, align = (unsigned long long)s->load_width;
	unsigned long long a64[7] = { rows, cols, l->batch, l->in_pitch, l->out_pitch, l->in_stride, l->out_stride };
	unsigned int a32[7];
	void *args[9] = { &in, &out };
	int i;

	if (in % align || out % align)
		return kgen_fail(err, KGEN_EINVAL, "`in` and `out` must be aligned to %llu bytes, as load_width: %lld needs",
		                 align, s->load_width);
	if (s->index == 32 && (in_end / size > 0x7fffffffull || out_end / size > 0x7fffffffull))
		return kgen_fail(err, KGEN_EINVAL, "%llu x %llu elements (batch %llu, with these pitches) are too many for "
		                 "index: 32; use index: 64", rows, cols, l->batch);
	for (i = 0; i < 7; i++) {
		a32[i] = (unsigned)a64[i];
		args[2 + i] = s->index == 32 ? (void *)&a32[i] : (void *)&a64[i];
	}
	return kgen_launch_3d(k->ctx->cu, k->fn[0], (unsigned)tiles, gy, gz, s->threads, 0, args, stream, err);
}

/* Check the kernel and the arguments, size the grid (tiles across, the
 * batch over y and z), launch by the method. */
static kgen_status
kgen_transpose_batched_body(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows,
                       unsigned long long cols, const struct kgen_transpose_layout *layout, kgen_stream stream_,
                       kgen_error *err)
{
	const struct kgen_spec *s;
	CUstream stream = (CUstream)stream_;
	struct kgen_transpose_layout l = { .batch = 0 };
	unsigned long long tiles, in_end = 0, out_end = 0;
	unsigned int gy, gz;
	kgen_status st;

	if ((st = kgen_kernel_expect(k, KGEN_TRANSPOSE, "kgen_transpose", err)))
		return st;
	s = &k->spec;
	if (!rows || !cols)
		return KGEN_OK;
	if (!in || !out)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: NULL in or out");
	if ((st = check_arguments(s, in, out, rows, cols, layout, &l, &in_end, &out_end, err)))
		return st;
	if ((st = kgen_context_enter(k->ctx, err)) != KGEN_OK)
		return st;
	tiles = kgen_transpose_grid(s, rows, cols);
	if (tiles > 0x7fffffffull)
		return kgen_fail(err, KGEN_EINVAL, "a %llu x %llu matrix needs %llu tiles, more than a grid holds", rows, cols,
		                 tiles);
	if (l.batch > 65535ull * 65535ull)
		return kgen_fail(err, KGEN_EINVAL, "kgen_transpose: %llu matrices are more than a launch holds (65535^2)",
		                 l.batch);
	gy = l.batch > 65535 ? 65535 : (unsigned)l.batch;
	gz = (unsigned)((l.batch + gy - 1) / gy);
	if (s->method == KGEN_METHOD_TMA)
		return launch_tma(k, in, out, rows, cols, &l, tiles, gy, gz, stream, err);
	return launch_smem(k, in, out, rows, cols, &l, in_end, out_end, tiles, gy, gz, stream, err);
}

/* The work above, leaving the caller's current context as it was. */
kgen_status
kgen_transpose_batched(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows,
                       unsigned long long cols, const struct kgen_transpose_layout *layout, kgen_stream stream,
                       kgen_error *err)
{
	CUcontext saved;
	kgen_status st;

	if (!k)
		return kgen_transpose_batched_body(k, in, out, rows, cols, layout, stream, err);
	saved = kgen_context_save(k->ctx);
	st = kgen_transpose_batched_body(k, in, out, rows, cols, layout, stream, err);
	kgen_context_restore(k->ctx, saved);
	return st;
}
