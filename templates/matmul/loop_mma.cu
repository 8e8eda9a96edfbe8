//! math: mma, stages 2 and up: loop_async's pipeline, the warp's fragments
//! double-buffered in registers.  K-step ks + 1's fragments load while ks
//! multiplies; at the last k-step of a tile the wait for the next tile comes
//! first, then its first fragments load while the last k-step multiplies,
//! so the tensor cores have work across the wait.  The copies of a new tile
//! start after the first k-step's multiply, when one k-step's fragments are
//! live, not two.  loads: cp_async: every thread copies its share, and a
//! block barrier a tile says the tile has landed and the stage it refills
//! is free.  loads: tma: thread 0 issues each tile's boxes, completing on
//! the stage's full mbarrier, where each warp waits for its next tile; a
//! warp that has loaded its last fragments of a tile releases the stage on
//! its empty mbarrier, which thread 0 waits on before it refills the stage:
//! no block barrier.
const int tiles = (k1 - k0 + TILE_K - 1) / TILE_K;
int read = 0, write = 0;  // the buffers of the tile being multiplied and of the next one fetched
{{^tma}}
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
{{/tma}}
{{#tma}}
// The next tile to fetch (if there is one) to stage `write`: thread 0 waits
// until every warp has released the stage, then issues its boxes.
int fetched = 0;
auto fetch = [&]() {
    if (fetched < tiles && tid == 0) {
        if (fetched >= STAGES)
            mbarrier_wait(&empty[write], (fetched / STAGES - 1) % 2);  // every warp is done with tile fetched - STAGES
        mbarrier_arrive_expect_tx(&full[write], (A_TILE + B_TILE) * sizeof(T));
        load_a(as + write * A_TILE, &a_map, row0, k0 + fetched * TILE_K, &full[write]);
        load_b(bs + write * B_TILE, &b_map, col0, k0 + fetched * TILE_K, &full[write]);
    }
    fetched++;
    write = write + 1 == STAGES ? 0 : write + 1;
};
{{/tma}}
// STAGES - 1 tiles in flight before the first multiply.
#pragma unroll
for (int s = 0; s < STAGES - 1; s++)
    fetch();
{{^tma}}
cp_async_wait<STAGES - 2>();  // tile 0 has landed
__syncthreads();
{{/tma}}
{{#tma}}
if (tiles > 0)
    mbarrier_wait(&full[0], 0);  // tile 0 has landed
{{/tma}}
Fragments f[2];
const unsigned int as_at = smem(as), bs_at = smem(bs);  // the stages' shared-memory addresses
constexpr unsigned int A_BYTES = A_TILE * sizeof(T), B_BYTES = B_TILE * sizeof(T);
load_fragments(f[0], as_at, bs_at, 0, wm, wn, lane);
for (int t = 0; t < tiles; t++) {
    const unsigned int at = as_at + read * A_BYTES, bt = bs_at + read * B_BYTES;
{{#tma}}
    const int stage = read;
{{/tma}}
    read = read + 1 == STAGES ? 0 : read + 1;
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ks++) {
        if (ks + 1 < KSTEPS)
            load_fragments(f[(ks + 1) % 2], at, bt, ks + 1, wm, wn, lane);
        if (ks + 1 == KSTEPS) {
            if (KSTEPS == 1)
{{^tma}}
                fetch();  // its group must be committed before the wait below
{{/tma}}
{{#tma}}
                fetch();
{{/tma}}
            if (t + 1 < tiles) {
{{^tma}}
                cp_async_wait<STAGES - 2>();  // this thread's copies of tile t + 1 have landed
                __syncthreads();              // everyone's; and every warp holds tile t's last fragments
{{/tma}}
{{#tma}}
                __syncwarp();  // every lane's ldmatrix of tile t is done
                if (lane == 0)
                    mbarrier_arrive(&empty[stage]);  // this warp releases tile t's stage
                mbarrier_wait(&full[read], (t + 1) / STAGES % 2);  // tile t + 1 has landed
{{/tma}}
                load_fragments(f[(ks + 1) % 2], as_at + read * A_BYTES, bs_at + read * B_BYTES, 0, wm, wn, lane);
            }
        }
        multiply_fragments(acc, f[ks % 2]);
{{^tma}}
        // Tile t + STAGES - 1 to the buffer of tile t - 1, which every warp
        // finished reading before the last barrier.
{{/tma}}
{{#tma}}
        // Tile t + STAGES - 1 to the buffer of tile t - 1, once every warp
        // has released it (fetch waits for that).
{{/tma}}
        if (ks == 0 && KSTEPS > 1)
            fetch();
    }
    if (KSTEPS % 2)
        f[0] = f[1];  // an odd count of k-steps left the next tile's first fragments in f[1]
}
{{^tma}}
cp_async_wait<0>();
{{/tma}}
