//! math: mma, stages 2 and up: loop_async's pipeline, the warp's fragments
//! double-buffered in registers.  K-step ks + 1's fragments load while ks
//! multiplies; at the last k-step of a tile the barrier comes first, then
//! the next tile's first fragments load while the last k-step multiplies,
//! so the tensor cores have work across the barrier.  The copies of a new
//! tile start after the first k-step's multiply, when one k-step's
//! fragments are live, not two.
const int tiles = (k1 - k0 + TILE_K - 1) / TILE_K;
int read = 0, write = 0;  // the buffers of the tile being multiplied and of the next one fetched
// The next tile to fetch (if there is one) to buffer `write`, as one group of cp.async.
int fetched = 0;
auto fetch = [&]() {
    if (fetched < tiles) {
        load_a(as + write * A_TILE, a, lda, m, row0, k0 + fetched * TILE_K, k1, aligned & 1, tid);
        load_b(bs + write * B_TILE, b, ldb, n, col0, k0 + fetched * TILE_K, k1, aligned & 2, tid);
    }
    cp_async_commit();
    fetched++;
    write = write + 1 == STAGES ? 0 : write + 1;
};
// STAGES - 1 tiles in flight before the first multiply.
#pragma unroll
for (int s = 0; s < STAGES - 1; s++)
    fetch();
cp_async_wait<STAGES - 2>();  // tile 0 has landed
__syncthreads();
Fragments f[2];
const unsigned int as_at = smem(as), bs_at = smem(bs);  // the stages' shared-memory addresses
constexpr unsigned int A_BYTES = A_TILE * sizeof(T), B_BYTES = B_TILE * sizeof(T);
load_fragments(f[0], as_at, bs_at, 0, wm, wn, lane);
for (int t = 0; t < tiles; t++) {
    const unsigned int at = as_at + read * A_BYTES, bt = bs_at + read * B_BYTES;
    read = read + 1 == STAGES ? 0 : read + 1;
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ks++) {
        if (ks + 1 < KSTEPS)
            load_fragments(f[(ks + 1) % 2], at, bt, ks + 1, wm, wn, lane);
        if (ks + 1 == KSTEPS) {
            if (KSTEPS == 1)
                fetch();  // its group must be committed before the wait below
            if (t + 1 < tiles) {
                cp_async_wait<STAGES - 2>();  // this thread's copies of tile t + 1 have landed
                __syncthreads();              // everyone's; and every warp holds tile t's last fragments
                load_fragments(f[(ks + 1) % 2], as_at + read * A_BYTES, bs_at + read * B_BYTES, 0, wm, wn, lane);
            }
        }
        multiply_fragments(acc, f[ks % 2]);
        // Tile t + STAGES - 1 to the buffer of tile t - 1, which every warp
        // finished reading before the last barrier.
        if (ks == 0 && KSTEPS > 1)
            fetch();
    }
    if (KSTEPS % 2)
        f[0] = f[1];  // an odd count of k-steps left the next tile's first fragments in f[1]
}
cp_async_wait<0>();
