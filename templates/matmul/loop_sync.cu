//! stages: 1: one buffer; load a tile, wait, multiply, wait.
for (int kt = k0; kt < k1; kt += TILE_K) {
    load_a(as, a, lda, m, row0, kt, k1, aligned & 1, tid);
    load_b(bs, b, ldb, n, col0, kt, k1, aligned & 2, tid);
    __syncthreads();
{{#simt}}
    multiply_tile(as, bs, acc, tr0, tc0);
{{/simt}}
{{#wmma}}
    multiply_tile(as, bs, acc, wm, wn);
{{/wmma}}
{{#mma}}
    multiply_tile(as, bs, acc, wm, wn, lane);
{{/mma}}
    __syncthreads();
}
