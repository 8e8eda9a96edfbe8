//! math: mma, loads: tma: loop_mma's pipeline, its tiles copied by TMA.
//! Thread 0 issues each tile's boxes, completing on the stage's full
//! mbarrier; each warp waits there for the tile it needs.  A warp that has
//! loaded its last fragments of a tile arrives on the stage's empty
//! mbarrier, which thread 0 waits on before it refills the stage.  No block
//! barrier: a warp waits for its own next tile, and thread 0 for the
//! slowest warp to release a stage it read a tile ago.
const int tiles = (k1 - k0 + TILE_K - 1) / TILE_K;
int read = 0, write = 0;  // the stages of the tile being multiplied and of the next one fetched
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
// STAGES - 1 tiles in flight before the first multiply.
#pragma unroll
for (int s = 0; s < STAGES - 1; s++)
    fetch();
if (tiles > 0)
    mbarrier_wait(&full[0], 0);  // tile 0 has landed
Fragments f[2];
const unsigned int as_at = smem(as), bs_at = smem(bs);  // the stages' shared-memory addresses
constexpr unsigned int A_BYTES = A_TILE * sizeof(T), B_BYTES = B_TILE * sizeof(T);
load_fragments(f[0], as_at, bs_at, 0, wm, wn, lane);
for (int t = 0; t < tiles; t++) {
    const unsigned int at = as_at + read * A_BYTES, bt = bs_at + read * B_BYTES;
    const int stage = read;
    read = read + 1 == STAGES ? 0 : read + 1;
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ks++) {
        if (ks + 1 < KSTEPS)
            load_fragments(f[(ks + 1) % 2], at, bt, ks + 1, wm, wn, lane);
        if (ks + 1 == KSTEPS) {
            if (KSTEPS == 1)
                fetch();
            if (t + 1 < tiles) {
                __syncwarp();  // every lane's ldmatrix of tile t is done
                if (lane == 0)
                    mbarrier_arrive(&empty[stage]);  // this warp releases tile t's stage
                mbarrier_wait(&full[read], (t + 1) / STAGES % 2);  // tile t + 1 has landed
                load_fragments(f[(ks + 1) % 2], as_at + read * A_BYTES, bs_at + read * B_BYTES, 0, wm, wn, lane);
            }
        }
        multiply_fragments(acc, f[ks % 2]);
        // Tile t + STAGES - 1 to the stage of tile t - 1, once every warp has released it.
        if (ks == 0 && KSTEPS > 1)
            fetch();
    }
    if (KSTEPS % 2)
        f[0] = f[1];  // an odd count of k-steps left the next tile's first fragments in f[1]
}
