//! schedule: stream_k (math: simt, mma): the launch's k tiles shared out
//! evenly.  The k tiles are numbered tile by tile over C (tile t's k tile q
//! is number t * k_tiles + q).  Block b below dp_tiles computes tile b
//! whole; the sk_blocks blocks after them share the k tiles of the tiles
//! from dp_tiles on, each a run of them in order.  A tile whose k tiles fall
//! to several blocks is finished by the last of them to arrive: each writes
//! its sums to its slot of the partials, and the last adds every block's, in
//! k order, and stores C.
// The launch's division of work, from the kernel's arguments.  The shared
// k tiles are numbered from 0 in the stream-K blocks' own arithmetic: the
// launch keeps shared * sk_blocks below 2^31.
struct Schedule {
    int k_tiles, dp_tiles, sk_blocks;
    unsigned int shared;  // the k tiles the stream-K blocks share: those of the tiles from dp_tiles on
};

static __device__ __forceinline__ Schedule schedule(int m, int n, int k, int dp_tiles, int sk_blocks)
{
    const int tiles = (m + TILE_M - 1) / TILE_M * ((n + TILE_N - 1) / TILE_N), k_tiles = (k + TILE_K - 1) / TILE_K;
    return { k_tiles, dp_tiles, sk_blocks, (unsigned int)(tiles - dp_tiles) * (unsigned int)k_tiles };
}

// The first shared k tile of stream-K block j (j = sk_blocks: their end).
static __device__ __forceinline__ unsigned int run_start(const Schedule &w, int j)
{
    return (unsigned int)j * w.shared / (unsigned int)w.sk_blocks;
}

// The block that computes shared k tile r: the last whose run starts at or before it.
static __device__ __forceinline__ int owner(const Schedule &w, unsigned int r)
{
    return w.dp_tiles + (int)(((r + 1) * (unsigned int)w.sk_blocks - 1) / w.shared);
}

// A unit of a block's work: k tiles [kt0, kt1) of tile `tile` of C.
struct Unit {
    int tile, kt0, kt1;
};

// Stream-K block j's unit that starts at shared k tile r: its k tiles up to
// the end of their tile of C or of the block's run; tile -1 past the run.
static __device__ __forceinline__ Unit unit_at(const Schedule &w, int j, unsigned int r)
{
    const unsigned int end = run_start(w, j + 1), k_tiles = w.k_tiles;

    if (r >= end)
        return { -1, 0, 0 };
    const int kt0 = (int)(r % k_tiles);
    return { w.dp_tiles + (int)(r / k_tiles), kt0, end - r < k_tiles - kt0 ? kt0 + (int)(end - r) : (int)k_tiles };
}

// This block's first unit: a whole tile below dp_tiles (and with k = 0,
// where there are no k tiles), else the start of its run.
static __device__ __forceinline__ Unit first_unit(int m, int n, int k, int dp_tiles, int sk_blocks)
{
    const Schedule w = schedule(m, n, k, dp_tiles, sk_blocks);
    const int b = blockIdx.x;

    if (b < w.dp_tiles || w.k_tiles == 0)
        return { b, 0, w.k_tiles };
    return unit_at(w, b - w.dp_tiles, run_start(w, b - w.dp_tiles));
}

// The block's unit after u (tile -1 when u was its last).
static __device__ __forceinline__ Unit next_unit(const Unit &u, int m, int n, int k, int dp_tiles, int sk_blocks)
{
    const Schedule w = schedule(m, n, k, dp_tiles, sk_blocks);
    const int b = blockIdx.x;

    if (b < w.dp_tiles || w.k_tiles == 0)
        return { -1, 0, 0 };
    return unit_at(w, b - w.dp_tiles, (unsigned int)(u.tile - w.dp_tiles) * w.k_tiles + u.kt1);
}

// Block b's slot of the partials for `tile`: two a stream-K block, for the
// tile its run starts in and the one it ends in, TILE_M * TILE_N sums each.
static __device__ __forceinline__ Acc *partial_slot(Acc *partials, const Schedule &w, int b, int tile)
{
    const int j = b - w.dp_tiles;
    const bool first = tile == w.dp_tiles + (int)(run_start(w, j) / (unsigned int)w.k_tiles);
    return partials + (2ll * j + (first ? 0 : 1)) * (TILE_M * TILE_N);
}

// After a unit's products (N sums a thread in acc): true when the block
// stores the tile, either its unit covered all of the tile's k or it is the
// last of the tile's blocks to finish, acc then holding all of their sums,
// added in k order (the same whichever block is last).  The tickets, one a
// shared tile, follow the slots; the launch starts them at 0.
template <int N>
static __device__ __forceinline__ bool finish_tile(Acc *acc, Acc *partials, const Unit &u, int m, int n, int k,
                                                   int dp_tiles, int sk_blocks)
{
    __shared__ int last;  // this block is the last to arrive
    const Schedule w = schedule(m, n, k, dp_tiles, sk_blocks);
    if (u.kt0 == 0 && u.kt1 == w.k_tiles)
        return true;
    unsigned int *const tickets = reinterpret_cast<unsigned int *>(partials + 2ll * w.sk_blocks * (TILE_M * TILE_N));
    const unsigned int first_k = (unsigned int)(u.tile - w.dp_tiles) * w.k_tiles;
    const int from = owner(w, first_k), to = owner(w, first_k + w.k_tiles - 1);  // the tile's blocks

    Acc *p = partial_slot(partials, w, blockIdx.x, u.tile);
#pragma unroll
    for (int e = 0; e < N; e++)
        p[e * THREADS + threadIdx.x] = acc[e];
    __threadfence();  // the sums in L2 before the ticket
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(&tickets[u.tile - w.dp_tiles], 1u) == (unsigned int)(to - from);
    __syncthreads();
    if (!last)
        return false;
    __threadfence();
    // Every block's sums (this one's too), from L2 (this SM's L1 may hold old copies).
    p = partial_slot(partials, w, from, u.tile);
#pragma unroll
    for (int e = 0; e < N; e++)
        acc[e] = __ldcg(p + e * THREADS + threadIdx.x);
    for (int b = from + 1; b <= to; b++) {
        p = partial_slot(partials, w, b, u.tile);
#pragma unroll
        for (int e = 0; e < N; e++)
            acc[e] += __ldcg(p + e * THREADS + threadIdx.x);
    }
    return true;
}
