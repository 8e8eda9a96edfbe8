//! The whole generated file for `kernel: scan`.  The header comment, the
//! type and op definitions and the kernel (lookback.cu, columns.cu or block.cu) are
//! filled in by gen/scan.c.
{{header}}

// Elements are {{dtype}}, combined in {{acc_dtype}}; indices are 64-bit.
typedef {{t_ctype}} T;
{{op_types}}
typedef unsigned long long Index;

{{#tile_words}}
// {{threads}} threads per block, each scanning {{items}} adjacent elements of a tile.
{{/tile_words}}
{{#segments}}
// {{threads}} threads per block, a tile of {{items}} elements a thread.
{{/segments}}
{{#columns}}
// {{threads}} threads per block, each scanning {{items}} rows of its columns.
{{/columns}}
constexpr int THREADS = {{threads}};
constexpr int ITEMS = {{items}};
{{^columns}}
constexpr Index TILE = (Index)THREADS * ITEMS;
{{/columns}}
{{#tile_words}}
constexpr int TILE_WORDS = THREADS * ITEMS + THREADS * ITEMS / 32;  // padded()
{{/tile_words}}
{{#smem_tile}}
// The blocks an SM the launch bounds ask for: as many as its shared memory
// holds (1 KB of it each block's own), within its threads and blocks:
// {{blocks}} on sm_90 and sm_100 (228 KB).
#if __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030
constexpr int SM_SMEM = 228 * 1024, SM_THREADS = 2048, SM_BLOCKS = 32;
#elif __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 870
constexpr int SM_SMEM = 164 * 1024, SM_THREADS = 2048, SM_BLOCKS = 32;
#elif __CUDA_ARCH__ == 750
constexpr int SM_SMEM = 64 * 1024, SM_THREADS = 1024, SM_BLOCKS = 16;
#else  // sm_86, sm_89, sm_120 and others: the least of them
constexpr int SM_SMEM = 100 * 1024, SM_THREADS = 1536, SM_BLOCKS = 16;
#endif
constexpr int SMEM = {{smem}};  // this kernel's shared memory
constexpr int fewest(int a, int b) { return a < b ? a : b; }
{{#segments_blocks}}
constexpr int BLOCKS = fewest(fewest(SM_SMEM / (SMEM + 1024), SM_THREADS / THREADS), SM_BLOCKS) > 1
                           ? fewest(fewest(SM_SMEM / (SMEM + 1024), SM_THREADS / THREADS), SM_BLOCKS) : 1;
{{/segments_blocks}}
{{#staged}}
constexpr int SMEM_FIT = fewest(fewest(SM_SMEM / (SMEM + 1024), SM_THREADS / THREADS), SM_BLOCKS);
// (and no more than leave each thread the registers it needs: BLOCKS, below)
{{/staged}}
{{/smem_tile}}

{{activations}}{{op_functions}}

{{#tile_words}}
// A tile's elements in shared memory, one word skipped every 32 so that
// thread t reading its ITEMS adjacent elements (t * ITEMS + j) and the
// warps reading across the tile (j * THREADS + t) meet no bank twice.
static __device__ __forceinline__ constexpr int padded(int i) { return i + i / 32; }

{{/tile_words}}

{{#tile_words}}
// Loads of VEC elements ({{load_width}} bytes) and stores of OUT_VEC results at once.
{{/tile_words}}
{{^tile_words}}
// Loads of VEC elements ({{load_width}} bytes) at once, and as many results stored at once.
{{/tile_words}}
constexpr int VEC = {{vec}};
{{#tile_words}}
constexpr int OUT_VEC = {{out_vec}};
{{/tile_words}}
template <typename E, int N> struct alignas(sizeof(E) * N) Pack { E e[N]; };
template <typename P> struct Pointee;
template <typename E> struct Pointee<E *> { typedef E type; };
typedef Pointee<Results>::type Stored;  // a result as out holds it

static __device__ __forceinline__ bool aligned(const void *p, unsigned bytes)
{
    return reinterpret_cast<unsigned long long>(p) % bytes == 0;
}

{{#sm90_helpers}}
#if __CUDA_ARCH__ >= 900  // {{sm90_why}}
{{ptx}}
#endif

{{/sm90_helpers}}
{{#tile_words}}
// The tile's elements at `first` (n - first of them left) into shared memory
// as accumulators, read across the tile (coalesced): a whole tile at an
// aligned address in loads of VEC elements, every load issued before the
// first is used; otherwise one element a load, the identity past n.
static __device__ __forceinline__ void load_tile(Acc *tile, const T *__restrict__ in, Index first, Index n)
{
    if (first + TILE <= n && aligned(in + first, sizeof(Pack<T, VEC>))) {
        const Pack<T, VEC> *packs = reinterpret_cast<const Pack<T, VEC> *>(in + first);
        Pack<T, VEC> p[ITEMS / VEC];
#pragma unroll
        for (int j = 0; j < ITEMS / VEC; j++)
            p[j] = packs[j * THREADS + threadIdx.x];
#pragma unroll
        for (int j = 0; j < ITEMS / VEC; j++) {
            const int i = (j * THREADS + threadIdx.x) * VEC;
#pragma unroll
            for (int e = 0; e < VEC; e++)
                tile[padded(i + e)] = to_acc(p[j].e[e], first + i + e);
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const int i = j * THREADS + threadIdx.x;
        tile[padded(i)] = first + i < n ? to_acc(in[first + i], first + i) : identity();
    }
}

// A result from the tile, after `prefix` when there is one.
static __device__ __forceinline__ Acc prefixed(const Acc *prefix, Acc v) { return prefix ? combine(*prefix, v) : v; }

{{/tile_words}}
// A pack stored with st.global.cs, streaming: the results are not read
// again here, so L2 keeps what is (the input ahead, the look-back's words)
// rather than them (a probe of 2^28 f32 on an H200: 0.75 of a copy to 0.84).
template <int BYTES> struct Bits;
template <> struct Bits<16> { typedef uint4 type; };
template <> struct Bits<8> { typedef uint2 type; };
template <> struct Bits<4> { typedef unsigned int type; };
template <> struct Bits<2> { typedef unsigned short type; };
template <> struct Bits<1> { typedef unsigned char type; };

template <typename P> static __device__ __forceinline__ void store_streaming(P *dst, const P &v)
{
    constexpr int PIECE = sizeof(P) > 16 ? 16 : (int)sizeof(P);
    typedef typename Bits<PIECE>::type B;
    static_assert(sizeof(P) % PIECE == 0, "a pack is whole pieces");

#pragma unroll
    for (int i = 0; i < (int)(sizeof(P) / PIECE); i++)
        __stcs(reinterpret_cast<B *>(dst) + i, reinterpret_cast<const B *>(&v)[i]);
}

{{#tile_words}}
// The tile's results from shared memory to out, each after *prefix (none:
// NULL), across the tile (coalesced): a whole tile at an aligned address
// in streaming stores of OUT_VEC results.
static __device__ __forceinline__ void store_tile(Results out, const Acc *tile, Index first, Index n,
                                                  const Acc *prefix)
{
    if (first + TILE <= n && aligned(out + first, sizeof(Pack<Stored, OUT_VEC>))) {
        Pack<Stored, OUT_VEC> *packs = reinterpret_cast<Pack<Stored, OUT_VEC> *>(out + first);
#pragma unroll
        for (int j = 0; j < ITEMS / OUT_VEC; j++) {
            const int i = (j * THREADS + threadIdx.x) * OUT_VEC;
            Pack<Stored, OUT_VEC> p;
#pragma unroll
            for (int e = 0; e < OUT_VEC; e++)
                store(p.e, e, prefixed(prefix, tile[padded(i + e)]), n);
            store_streaming(packs + j * THREADS + threadIdx.x, p);
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const int i = j * THREADS + threadIdx.x;
        if (first + i < n)
            store(out, first + i, prefixed(prefix, tile[padded(i)]), n);
    }
}

{{/tile_words}}
{{#warp_inclusive}}
// The inclusive scan of v across the warp's lanes (lane l gets lanes 0..l
// combined, in lane order, along a tree fixed by l): five shuffles up.
static __device__ __forceinline__ Acc warp_inclusive(Acc v)
{
    const int lane = threadIdx.x % 32;

#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const Acc u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v = combine(u, v);
    }
    return v;
}

{{/warp_inclusive}}
{{block_scan}}
{{#tile_words}}
// Thread t's ITEMS adjacent elements of the tile in shared memory scanned
// in place from `running`, what comes before them: {{mode}}.
static __device__ __forceinline__ void scan_items(Acc *tile, Acc running)
{
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const int i = padded(threadIdx.x * ITEMS + j);
        const Acc x = tile[i];
{{#inclusive}}
        running = combine(running, x);
        tile[i] = running;
{{/inclusive}}
{{^inclusive}}
        tile[i] = running;
        running = combine(running, x);
{{/inclusive}}
    }
}

// The combination of thread t's ITEMS adjacent elements of the tile.
static __device__ __forceinline__ Acc items_total(const Acc *tile)
{
    Acc total = tile[padded(threadIdx.x * ITEMS)];

#pragma unroll
    for (int j = 1; j < ITEMS; j++)
        total = combine(total, tile[padded(threadIdx.x * ITEMS + j)]);
    return total;
}

{{/tile_words}}
{{kernel}}
