//! kernel: scan, strategy: block: one block a row, the tiles in order.
// One block walks a row's tiles in order, carrying the combination of the
// tiles before (no scratch, the same result every run).
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index n, Index in_pitch, Index out_pitch)
{
    __shared__ Acc tile[TILE_WORDS];
    Acc carry = identity();

    in += blockIdx.y * in_pitch;  // row blockIdx.y of a matrix (row 0 of a vector)
    out += blockIdx.y * out_pitch;

    for (Index first = 0; first < n; first += TILE) {
        Acc all;
        load_tile(tile, in, first, n);
        __syncthreads();
        const Acc before = block_exclusive(items_total(tile), &all);
        scan_items(tile, combine(carry, before));
        carry = combine(carry, all);
        __syncthreads();
        store_tile(out, tile, first, n, nullptr);
        __syncthreads();  // the tile is stored before the next one is loaded
    }
}
