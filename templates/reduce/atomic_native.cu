//! Atomic combine through a native atomic function.
// Combine v into *p atomically.
static __device__ __forceinline__ void atomic_combine(Acc *p, Acc v) { {{call}}; }
