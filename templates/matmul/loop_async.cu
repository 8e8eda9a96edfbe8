//! stages 2 and up: STAGES buffers; cp.async fills STAGES - 1 tiles ahead
//! of the one being multiplied.
// STAGES - 1 tiles in flight before the first multiply.
const int tiles = (k1 - k0 + TILE_K - 1) / TILE_K;
#pragma unroll
for (int s = 0; s < STAGES - 1; s++) {
    if (s < tiles) {
        load_a(as + s * A_TILE, a, lda, m, row0, k0 + s * TILE_K, k1, aligned & 1, tid);
        load_b(bs + s * B_TILE, b, ldb, n, col0, k0 + s * TILE_K, k1, aligned & 2, tid);
    }
    cp_async_commit();
}
for (int t = 0; t < tiles; t++) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of tile t have landed
    __syncthreads();              // everyone's; and the buffer of tile t - 1 is free
    const int next = t + STAGES - 1, buf = t % STAGES;
    if (next < tiles) {
        load_a(as + next % STAGES * A_TILE, a, lda, m, row0, k0 + next * TILE_K, k1, aligned & 1, tid);
        load_b(bs + next % STAGES * B_TILE, b, ldb, n, col0, k0 + next * TILE_K, k1, aligned & 2, tid);
    }
    cp_async_commit();
{{#simt}}
    multiply_tile(as + buf * A_TILE, bs + buf * B_TILE, acc, tr0, tc0);
{{/simt}}
{{#wmma}}
    multiply_tile(as + buf * A_TILE, bs + buf * B_TILE, acc, wm, wn);
{{/wmma}}
{{#mma}}
    multiply_tile(as + buf * A_TILE, bs + buf * B_TILE, acc, wm, wn, lane);
{{/mma}}
}
cp_async_wait<0>();
