//! A warp kernel's weight and bias, loaded with its row.
// Whether a warp kernel's thread (LANES <= 32 threads a row, VECS vectors
// each) loads its vectors of the weight and bias with its row, ahead of
// the reductions, instead of after them: where they take at most 32 bytes
// of registers an array.  LayerNorm of 32768 x 256 bf16 on an H100 (ncu):
// 12.9 us with this and kernel_regs.cu's exact path, 17.4 us without
// (bench/results/nvidia-h100/2026-12-06-rows-short).
template <int LANES, int VECS>
static __device__ constexpr bool weights_early()
{
    return LANES <= 32 && VECS * VEC * (int)sizeof(W) <= 32;
}

// This thread's vectors of a weight or bias (p) as stored, where `ok` (p
// is there and keeps vectors aligned) and the vector lies whole in the
// row of n (EXACT: it does); the others are loaded later (load_w()).
template <int LANES, int VECS, bool EXACT>
static __device__ __forceinline__ void load_w_early(const W *p, int lane, Index n, bool ok, Vec<W> (&w)[VECS])
{
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        const Index i = (Index)k * LANES + lane;
        if (ok && (EXACT || (i + 1) * VEC <= n))
            w[k] = *reinterpret_cast<const Vec<W> *>(p + i * VEC);
    }
}
