//! A thread's share of one contiguous span, with vector loads.
// Combine x[0..n) into acc: thread t of `count` takes every count-th
// vector of {{load_width}} bytes; the elements before the first {{align}}-byte
// boundary and after the last whole vector go one at a time, so any start
// and length work (rows of any pitch).  x[0] is element `base` of its row.
template <int BATCH>
static __device__ __forceinline__ Acc reduce_span(const T *x, Index base, Index n, unsigned int t, unsigned int count, Acc acc)
{
    Index head = (0 - reinterpret_cast<unsigned long long>(x)) % {{align}} / sizeof(T);
    if (head > n)
        head = n;
    const Index nvec = (n - head) / VEC;
    const Vec *v = reinterpret_cast<const Vec *>(x + head);

    for (Index i = t; i < head; i += count)
        acc = fold(acc, x[i], base + i);
    // With BATCH > 1, BATCH vectors are loaded before any is combined, so
    // that BATCH loads are in flight (the compiler otherwise waits for the
    // first of an unrolled loop's loads before it issues the last).  Short
    // rows want it; it costs registers, so kernels whose threads take a few
    // vectors of a long row do without (BATCH 1).
    Index i = t;
    if (BATCH > 1) {
        for (; i + (BATCH - 1) * count < nvec; i += BATCH * count) {
            Vec y[BATCH];
            #pragma unroll
            for (int u = 0; u < BATCH; u++)
                y[u] = v[i + u * count];
            #pragma unroll
            for (int u = 0; u < BATCH; u++)
                #pragma unroll
                for (int k = 0; k < VEC; k++)
                    acc = fold(acc, y[u].v[k], base + head + (i + u * count) * VEC + k);
        }
    }
    #pragma unroll 4
    for (; i < nvec; i += count) {
        const Vec y = v[i];
        #pragma unroll
        for (int k = 0; k < VEC; k++)
            acc = fold(acc, y.v[k], base + head + i * VEC + k);
    }
    for (Index i = head + nvec * VEC + t; i < n; i += count)
        acc = fold(acc, x[i], base + i);
    return acc;
}
