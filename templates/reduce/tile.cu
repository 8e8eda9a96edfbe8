//! Grid policy `tile`: block b reduces tile b.
const Index base = (Index)blockIdx.x * TILE;
{{acc_decl}}

if (base + TILE <= n) {
    // A full tile: {{full_doc}}, no bounds checks.
    #pragma unroll
    for (int j = 0; j < LOADS; j++) {
        {{full}}
    }
} else {
    // The last, partial tile: one element at a time, bounds-checked.
    for (Index i = base + tid; i < n; i += THREADS)
        {{partial}}
}
