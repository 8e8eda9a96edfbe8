//! strategy staged (sm_90): the TMA unit copies rows into shared memory
//! while the threads work on others.  Only where the target has it (auto
//! writes a staged kernel for every GPU, and the launcher takes it on sm_90).
#if __CUDA_ARCH__ >= 900
{{ptx}}

// This thread's vectors of row `row` (those below element n: the row's
// end, or its block's part's; 0 for a group past the last row) into v, as
// load_row() loads them, from the copy of its part of the row (from
// vector `from` on) that the TMA unit made in shared memory: the row's
// `whole` first vectors (none where x's rows are not 16-byte aligned); the
// vectors past them from x.  NT: the block's threads.
template <int LANES, int VECS, int NT>
static __device__ __forceinline__ void load_staged(const Rows &a, const Vec<T> *stage, Index from, Index whole, Index row,
                                                   int lane, Index n, Vec<T> (&v)[VECS], T pad)
{
    constexpr Index STRIDE = LANES < NT ? LANES : NT;  // from one of a thread's vectors to the next
    const T *x = a.x + row * a.x_pitch;
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        const Index i = k * STRIDE + lane;
        if (i < whole && i * VEC < n)
            v[k] = stage[i - from];
        else
            load_raw(x, i, n, a.aligned & X_ALIGNED, v[k], pad);
    }
}

// Start the TMA unit's copies of rows first to first + GROUPS - 1 (those
// there are) into dst, a row every ROOM vectors, completing on bar: of
// each, the part of its `whole` first vectors from `from` on (`room`, at
// most ROOM), or none (an arrival that expects no bytes).
template <int GROUPS, int ROOM>
static __device__ __forceinline__ void stage_rows(const Rows &a, Vec<T> *dst, unsigned long long *bar, Index first,
                                                  Index from, Index room, Index whole)
{
    if (first >= a.rows)
        return;
    const int rows = a.rows - first < GROUPS ? (int)(a.rows - first) : GROUPS;
    const Index part = whole > from ? (whole - from < room ? whole - from : room) : 0;
    const unsigned int bytes = (unsigned int)(part * sizeof(Vec<T>));
    mbarrier_arrive_expect_tx(bar, bytes * rows);
    if (bytes)
        for (int r = 0; r < rows; r++)
            bulk_load(dst + r * ROOM, a.x + (first + r) * a.x_pitch + from * VEC, bytes, bar);
}
#endif
