//! Grid policy `persistent`: a grid sized to the GPU loops over the full tiles.
// The full tiles, grid-stride: {{full_doc}}, no bounds checks.
const Index full_tiles = n / TILE;
{{acc_decl}}
#pragma unroll {{unroll}}
for (Index t = blockIdx.x; t < full_tiles; t += gridDim.x) {
    const Index base = t * TILE;
    #pragma unroll
    for (int j = 0; j < LOADS; j++) {
        {{full}}
    }
}
// The partial tile at the end, if any: the next block in turn takes it,
// one element at a time, bounds-checked.
if (blockIdx.x == full_tiles % gridDim.x)
    for (Index i = full_tiles * TILE + tid; i < n; i += THREADS)
        {{partial}}
