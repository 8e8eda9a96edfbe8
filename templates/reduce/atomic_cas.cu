//! Atomic combine for ops the hardware has no atomic for: a compare-and-swap loop.
// Combine v into *p atomically: there is no native atomic {{op}} for {{acc_dtype}},
// so retry a compare-and-swap until no other thread changed *p in between.
static __device__ __forceinline__ void atomic_combine(Acc *p, Acc v)
{
    {{bits}} *q = reinterpret_cast<{{bits}} *>(p);
    {{bits}} old = *q, assumed;
    do {
        assumed = old;
        old = atomicCAS(q, assumed, {{to_bits}}(combine({{from_bits}}(assumed), v)));
    } while (old != assumed);
}
