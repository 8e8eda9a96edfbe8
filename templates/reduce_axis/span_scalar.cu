//! A thread's share of one contiguous span, one element at a time.
// Combine x[0..n) into acc: thread t of `count` takes every count-th element.
// x[0] is element `base` of its row or column.  (BATCH is the vector
// versions' knob; one element at a time has nothing to batch.)
template <int BATCH>
static __device__ __forceinline__ Acc reduce_span(const T *x, Index base, Index n, unsigned int t, unsigned int count, Acc acc)
{
    #pragma unroll 4
    for (Index i = t; i < n; i += count)
        acc = fold(acc, x[i], base + i);
    return acc;
}
