//! A thread's share of one contiguous span, with vector loads and a chain per vector lane (argmin, argmax).
// Combine x[0..n) into acc: thread t of `count` takes every count-th
// vector of {{load_width}} bytes; the elements before the first {{align}}-byte
// boundary and after the last whole vector go one at a time, so any start
// and length work (rows of any pitch).  x[0] is element `base` of its row.
// Each lane of the vectors is its own chain of compares (VEC independent
// chains instead of one), which keeps vector numbers, not indices, until
// chain_end().
template <int BATCH>
static __device__ __forceinline__ Acc reduce_span(const T *x, Index base, Index n, unsigned int t, unsigned int count, Acc acc)
{
    Index head = (0 - reinterpret_cast<unsigned long long>(x)) % {{align}} / sizeof(T);
    if (head > n)
        head = n;
    const Index nvec = (n - head) / VEC;
    const Vec *v = reinterpret_cast<const Vec *>(x + head);
    Acc part[VEC];

    #pragma unroll
    for (int k = 0; k < VEC; k++)
        part[k] = chain_start(t);
    for (Index i = t; i < head; i += count)
        acc = fold(acc, x[i], base + i);
    // BATCH vectors loaded before any is combined (span_vec.cu says why).
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
                    part[k] = chain_fold(part[k], y[u].v[k], i + u * count);
        }
    }
    #pragma unroll 4
    for (; i < nvec; i += count) {
        const Vec y = v[i];
        #pragma unroll
        for (int k = 0; k < VEC; k++)
            part[k] = chain_fold(part[k], y.v[k], i);
    }
    for (Index i = head + nvec * VEC + t; i < n; i += count)
        acc = fold(acc, x[i], base + i);
    if (t < nvec) {  // a thread without a vector has empty chains
        #pragma unroll
        for (int k = 0; k < VEC; k++)
            acc = combine(acc, chain_end(part[k], base + head + k));
    }
    return acc;
}
