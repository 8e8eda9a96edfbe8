//! strategy staged's loop (sm_90): the rows a block walks, the op's
//! function (its _held one) on each.  Only where the target has it.
#if __CUDA_ARCH__ >= 900
// The rows a block of a staged kernel walks: LANES threads a row, THREADS /
// LANES rows at a time, each thread holding VECS vectors of its row in
// registers, while the TMA unit brings the block's next rows into STAGES
// stages of shared memory: the launch's dynamic shared memory, STAGES x
// THREADS x VECS vectors{{held_doc}}.
{{#weights}}
template <int LANES, int VECS, int STAGES, bool HOLD>
{{/weights}}
{{^weights}}
template <int LANES, int VECS, int STAGES>
{{/weights}}
static __device__ __forceinline__ void staged_rows(const Rows &a)
{
    constexpr int GROUPS = THREADS / LANES;  // rows a block takes at once
    constexpr int ROOM = LANES * VECS;       // vectors of a row in a stage
    extern __shared__ Vec<T> stage[];        // STAGES x GROUPS x ROOM
    __shared__ unsigned long long full[STAGES];
{{#weights}}
    __shared__ unsigned long long weights;
    W *const held = reinterpret_cast<W *>(stage + STAGES * GROUPS * ROOM);  // ROOM * VEC elements each
    const unsigned int wbytes = (unsigned int)(a.cols * sizeof(W));
    // Copied once where they and their length keep 16-byte vectors, else read every row from global memory.
    const bool hold = HOLD && a.weight && (unsigned long long)a.weight % 16 == 0 && wbytes % 16 == 0
{{#bias}}
                      && (unsigned long long)a.bias % 16 == 0
{{/bias}}
                      ;
{{/weights}}
    const int group = threadIdx.x / LANES, lane = threadIdx.x % LANES;
    const Index whole = a.aligned & X_ALIGNED ? a.cols / VEC : 0;  // vectors of a row the TMA unit copies
    const Index step = (Index)gridDim.x * GROUPS;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++)
            mbarrier_init(&full[s], 1);
{{#weights}}
        mbarrier_init(&weights, 1);
{{/weights}}
        fence_mbarrier_init();
{{#weights}}
        if (hold) {
{{#bias}}
            mbarrier_arrive_expect_tx(&weights, a.bias ? 2 * wbytes : wbytes);
            bulk_load(held, a.weight, wbytes, &weights);
            if (a.bias)
                bulk_load(held + ROOM * VEC, a.bias, wbytes, &weights);
{{/bias}}
{{^bias}}
            mbarrier_arrive_expect_tx(&weights, wbytes);
            bulk_load(held, a.weight, wbytes, &weights);
{{/bias}}
        }
{{/weights}}
        for (int s = 0; s < STAGES; s++)
            stage_rows<GROUPS, ROOM>(a, stage + s * GROUPS * ROOM, &full[s], (Index)blockIdx.x * GROUPS + s * step,
                                     whole);
    }
    __syncthreads();
{{#weights}}
    Rows b = a;  // a with the weight and bias it holds in shared memory
    if (hold) {
        mbarrier_wait(&weights, 0);
        b.weight = held;
{{#bias}}
        b.bias = a.bias ? held + ROOM * VEC : nullptr;
{{/bias}}
    }
{{/weights}}

    // The block's groups move on together (their barriers need every
    // thread), so the loop ends by the block's first row.
    unsigned int it = 0;
    for (Index first = (Index)blockIdx.x * GROUPS; first < a.rows; first += step, it++) {
        const int s = it % STAGES;
        const Index row = first + group < a.rows ? first + group : first;
        const Index n = first + group < a.rows ? a.cols : 0;
        Vec<T> v[VECS];

        mbarrier_wait(&full[s], it / STAGES % 2);
        load_staged<LANES, VECS>(a, stage + (s * GROUPS + group) * ROOM, whole, row, lane, n, v, {{pad}});
        __syncthreads();  // the stage is in registers: refill it STAGES steps ahead
        if (threadIdx.x == 0)
            stage_rows<GROUPS, ROOM>(a, stage + s * GROUPS * ROOM, &full[s], first + STAGES * step, whole);
{{#weights}}
        {{call}}<LANES, VECS>(b, row, lane, n, v);
{{/weights}}
{{^weights}}
        {{call}}<LANES, VECS>(a, row, lane, n, v);
{{/weights}}
    }
}
#endif
