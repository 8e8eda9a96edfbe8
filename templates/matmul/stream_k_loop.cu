//! schedule: stream_k: a simt or mma kernel's loop over its block's units
//! (stream_k.cu), each a tile's part of the block's k tiles, {{tile}} the
//! kernel's body for one.
for (Unit u = first_unit(m, n, k, dp_tiles, sk_blocks); u.tile >= 0; u = next_unit(u, m, n, k, dp_tiles, sk_blocks)) {
    __syncthreads();  // every warp is done with the stages of the block's last unit
    tile_origin(u.tile, m, n, row0, col0);
    k0 = u.kt0 * TILE_K;
    k1 = u.kt1 < (k + TILE_K - 1) / TILE_K ? u.kt1 * TILE_K : k;
    {{tile}}
}
