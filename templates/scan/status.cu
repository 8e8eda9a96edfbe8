//! kernel: scan, strategy: lookback: the look-back's status words, which rows
//! (lookback.cu) and columns (columns.cu, columns_ring.cu) publish and wait on.
{{#tiles}}
// One pass, decoupled look-back over groups of tiles.
// Tiles come in groups of GROUP (at most a warp's lanes); the last tile of a group
// stands for it.
{{/tiles}}
// The scratch starts with one header word: the launches
// done on it and the blocks of this launch that have started.  Each block
// reads the launches done as it starts: this launch's mark is one more,
// times 2^24 (a mark of an earlier launch is smaller, whatever rows and
// lengths it had, so the words need no clearing between launches, only
// zeros at first, and a CUDA graph's replay is a launch of its own); once
// it has the mark it counts itself, and the last to do so counts the
// launch as it ends.
{{#tiles}}
// Then each row has its words: each tile and each group
// a status word: what it holds, the launch's mark + what, and the value:
//   tile t's word, AGGREGATE: tile t's total;
//   group g's word, AGGREGATE: group g's total; then PREFIX: the combination
//                   of every tile up to the end of group g.
// A tile's prefix is its group's prefix combined with the totals of the
// tiles before it in the group, scanned across a warp's lanes along one
// fixed tree (a group's total is that scan's lane GROUP - 1); a group's prefix
// is the nearest published group prefix combined, left to right, with the
// totals of the groups after it.  So every prefix is the same combination
// whatever the timing, and floats come out the same run after run.
constexpr unsigned long long AGGREGATE = 1, PREFIX = 2;

// Tiles a group (lookback_group): a tile waits for the totals of those before it in its group.
constexpr int GROUP = {{group}};

{{/tiles}}
// A status word, 16 bytes read and written whole: the value travels with
// its mark, so a reader that sees the mark has the value, and neither side
// needs a fence (relaxed; acquire loads and release stores of a separate
// flag were 0.63 of a copy at 2^28 f32 on an H200, these 0.73).
struct alignas(16) Word {
    unsigned long long what, bits;
};
static_assert(sizeof(Acc) <= sizeof(unsigned long long), "an accumulator fits a status word");

static __device__ __forceinline__ Word load_word(const Word *p)
{
    Word w;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(w.what), "=l"(w.bits) : "l"(p) : "memory");
    return w;
}

static __device__ __forceinline__ void store_word(Word *p, unsigned long long what, unsigned long long bits)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(what), "l"(bits) : "memory");
}

// An accumulator's bytes in a word's value and back.
static __device__ __forceinline__ unsigned long long to_bits(Acc v)
{
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&v);
    unsigned long long bits = 0;

#pragma unroll
    for (int i = 0; i < (int)sizeof(Acc); i++)
        bits |= (unsigned long long)b[i] << (8 * i);
    return bits;
}

static __device__ __forceinline__ Acc from_bits(unsigned long long bits)
{
    Acc v;
    unsigned char *b = reinterpret_cast<unsigned char *>(&v);

#pragma unroll
    for (int i = 0; i < (int)sizeof(Acc); i++)
        b[i] = (unsigned char)(bits >> (8 * i));
    return v;
}

// This launch's mark, from the scratch's header word: the launches done
// on it, plus one, times 2^24: a word's low 24 bits say what it holds (the
// look-back's AGGREGATE or PREFIX; columns_ring.cu's round), and every word
// of an earlier launch, of any of the scan's kernels, is below the mark.
static __device__ __forceinline__ unsigned long long launch_mark(const unsigned char *scratch)
{
    return (load_word(reinterpret_cast<const Word *>(scratch)).what + 1) << 24;
}

// Thread 0's count of its block among the launch's, once its read of the
// mark has returned (`mark`, 0 where the launch has no look-back): an
// atomic on the header's other half, issued only on the mark's value (to
// PTX's memory model the two halves are two locations, so only that
// dependency keeps the count from landing first and the last block's new
// count from reaching a read still in flight), its result not waited on
// until the block ends (count_launch()).
static __device__ __forceinline__ unsigned long long arrive(unsigned char *scratch, unsigned long long mark)
{
    return mark ? atomicAdd(&reinterpret_cast<Word *>(scratch)->bits, 1ull) : 0;
}

// As a block ends, `arrived` thread 0's count: the launch's last block to
// arrive (of every row), every block having read its mark before, counts
// the launch (mark >> 24 launches done) and clears the count of blocks.
static __device__ __forceinline__ void count_launch(unsigned char *scratch, unsigned long long mark,
                                                    unsigned long long arrived)
{
    if (mark && arrived == (unsigned long long)gridDim.x * gridDim.y - 1)
        store_word(reinterpret_cast<Word *>(scratch), mark >> 24, 0);
}

{{#tiles}}
// The words of row `row` (a row's along rows, a band's down columns),
// `tiles` tiles long, in a launch's scratch (gen/scan.c sizes it): the
// header word, then row_scratch bytes a row: a word a tile, then a word a group.
struct Status {
    Word *header, *tiles, *groups;
    unsigned long long mark;

    __device__ Status(unsigned char *scratch, Index row, Index row_scratch, Index n_tiles, unsigned long long launch)
    {
        header = reinterpret_cast<Word *>(scratch);
        tiles = reinterpret_cast<Word *>(scratch + sizeof(Word) + row * row_scratch);
        groups = tiles + n_tiles;
        mark = launch;
    }

    __device__ void publish(Word *w, Acc v, unsigned long long what) const { store_word(w, mark | what, to_bits(v)); }

    // The value of word w once it holds at least `what` (AGGREGATE: either).
    __device__ Word wait(const Word *w, unsigned long long what) const
    {
        Word got;
        while ((got = load_word(w)).what < (mark | what))
            ;
        return got;
    }
};
{{/tiles}}
