//! strategy staged's loop (sm_90): the rows a block walks, the op's
//! function (its _held one) on each.  Only where the target has it.
#if __CUDA_ARCH__ >= 900
// The rows a block of NT threads (THREADS, or twice that for a wide
// kernel) walks: LANES threads a row, NT / LANES rows at a time, each
// thread holding VECS vectors of its row in registers, while the TMA unit
// brings the block's next rows into STAGES stages of shared memory: the
// launch's dynamic shared memory, STAGES x NT x VECS vectors{{held_doc}}.
{{#cluster}}
// LANES above NT is a row over a cluster of LANES / NT blocks (strategy
// cluster): block r holds its part of each row, the `part` vectors from
// r x part on (thread t the part's t, t + NT, ...), and the clusters walk
// the rows.  The parts are even (a row's vectors over the blocks, in
// steps of 8 vectors: 128-byte lines of x), so a row shorter than the
// cluster holds keeps every block busy.
{{/cluster}}
{{#weights}}
template <int LANES, int VECS, int NT, int STAGES, bool HOLD>
{{/weights}}
{{^weights}}
template <int LANES, int VECS, int NT, int STAGES>
{{/weights}}
static __device__ __forceinline__ void staged_rows(const Rows &a)
{
    constexpr int BLOCK = LANES < NT ? LANES : NT;  // a row's threads in this block
    constexpr int GROUPS = NT / BLOCK;              // rows a block takes at once
    constexpr int ROOM = BLOCK * VECS;              // vectors of a row's part in a stage
{{#cluster}}
    constexpr int BLOCKS = LANES / BLOCK;  // blocks a row
    // (in 32 bits: a cluster's row is at most BLOCKS x ROOM vectors)
    const unsigned int even = ((unsigned int)((a.cols + VEC - 1) / VEC) + BLOCKS - 1) / BLOCKS;
    const unsigned int part = BLOCKS > 1 ? min((even + 7) / 8 * 8, (unsigned int)ROOM) : ROOM;  // vectors
    const unsigned int from = BLOCKS > 1 ? cluster_rank() * part : 0;  // the first vector of this block's part
    const Index ends = min((Index)(from + part) * VEC, a.cols);        // the part's end, in elements
{{/cluster}}
{{^cluster}}
    constexpr int BLOCKS = 1;              // blocks a row
    const Index part = ROOM, from = 0;     // the vectors of this block's part, its first
    const Index ends = a.cols;             // the part's end, in elements
{{/cluster}}
    extern __shared__ __align__(128) Vec<T> stage[];  // STAGES x GROUPS x ROOM, on whole 128-byte lines
    __shared__ unsigned long long full[STAGES];
{{#weights}}
    __shared__ unsigned long long weights;
    W *const held = reinterpret_cast<W *>(stage + STAGES * GROUPS * ROOM);  // ROOM * VEC elements each
    const Index wfrom = from * VEC, wn = ends > wfrom ? ends - wfrom : 0;  // the part's first element, count
    const unsigned int wbytes = (unsigned int)(wn * sizeof(W));
    // Copied once where they and their length keep 16-byte vectors, else read every row from global memory.
    const bool hold = HOLD && a.weight && (unsigned long long)a.weight % 16 == 0 && a.cols * sizeof(W) % 16 == 0
{{#bias}}
                      && (unsigned long long)a.bias % 16 == 0
{{/bias}}
                      ;
{{/weights}}
    const int group = threadIdx.x / BLOCK, lane = (int)from + threadIdx.x % BLOCK;
    const Index whole = a.aligned & X_ALIGNED ? a.cols / VEC : 0;  // vectors of a row the TMA unit copies
    const Index step = (Index)gridDim.x / BLOCKS * GROUPS;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++)
            mbarrier_init(&full[s], 1);
{{#weights}}
        mbarrier_init(&weights, 1);
{{/weights}}
{{#cluster}}
        if (BLOCKS > 1)
            exchange_init();
{{/cluster}}
        fence_mbarrier_init();
{{#weights}}
        if (hold) {
{{#bias}}
            mbarrier_arrive_expect_tx(&weights, a.bias ? 2 * wbytes : wbytes);
            if (wbytes)
                bulk_load(held, a.weight + wfrom, wbytes, &weights);
            if (a.bias && wbytes)
                bulk_load(held + ROOM * VEC, a.bias + wfrom, wbytes, &weights);
{{/bias}}
{{^bias}}
            mbarrier_arrive_expect_tx(&weights, wbytes);
            if (wbytes)
                bulk_load(held, a.weight + wfrom, wbytes, &weights);
{{/bias}}
        }
{{/weights}}
        for (int s = 0; s < STAGES; s++)
            stage_rows<GROUPS, ROOM>(a, stage + s * GROUPS * ROOM, &full[s],
                                     (Index)blockIdx.x / BLOCKS * GROUPS + s * step, from, part, whole);
    }
    __syncthreads();
{{#weights}}
    Rows b = a;  // a with the weight and bias it holds in shared memory
    if (hold) {
        mbarrier_wait(&weights, 0);
        b.weight = held - wfrom;  // element i of the row at b.weight[i], for the part's i
{{#bias}}
        b.bias = a.bias ? held + ROOM * VEC - wfrom : nullptr;
{{/bias}}
    }
{{/weights}}
{{#cluster}}
    if constexpr (BLOCKS > 1)
        cluster_sync();  // every block's slots are ready for the others' statistics
{{/cluster}}

    // The block's groups move on together (their barriers need every
    // thread), so the loop ends by the block's first row.
    unsigned int it = 0;
    for (Index first = (Index)blockIdx.x / BLOCKS * GROUPS; first < a.rows; first += step, it++) {
        const int s = it % STAGES;
        const Index row = first + group < a.rows ? first + group : first;
        const Index n = first + group < a.rows ? ends : 0;  // the bound of this block's vectors (the statistics take a.cols)
        Vec<T> v[VECS];

        mbarrier_wait(&full[s], it / STAGES % 2);
        load_staged<LANES, VECS, NT>(a, stage + (s * GROUPS + group) * ROOM, from, whole, row, lane, n, v, {{pad}});
        __syncthreads();  // the stage is in registers: refill it STAGES steps ahead
        if (threadIdx.x == 0)
            stage_rows<GROUPS, ROOM>(a, stage + s * GROUPS * ROOM, &full[s], first + STAGES * step, from, part, whole);
{{#weights}}
        {{call}}<LANES, VECS, NT, !HOLD>(b, row, lane, n, v);
{{/weights}}
{{^weights}}
        {{call}}<LANES, VECS, NT>(a, row, lane, n, v);
{{/weights}}
    }
{{#cluster}}
    if constexpr (BLOCKS > 1)
        cluster_sync();  // no block exits while another's statistics may be on their way to it
{{/cluster}}
}
#endif
