//! The whole generated file for `kernel: reduce_axis`.  The header comment,
//! the type and op definitions, the helpers and the kernel are filled in by
//! gen/reduce_axis.c.
{{header}}

// Elements are {{dtype}}, accumulated and written in {{acc_dtype}}; indices are 64-bit.
typedef {{t_ctype}} T;
typedef {{acc_ctype}} Acc;
typedef unsigned long long Index;

{{constants}}
{{vec_struct}}
// op: {{op}}
static __device__ __forceinline__ Acc identity() { return {{identity}}; }
static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return {{combine}}; }
static __device__ __forceinline__ Acc to_acc(T x) { {{to_acc}}; }
{{helpers}}

{{kernel}}
