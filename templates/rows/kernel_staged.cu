//! A kernel of strategy staged (auto's for long rows on sm_90): {{lanes}}
//! threads per row, the block walking its rows while the TMA unit copies
//! the next ones into shared memory.
// {{doc}}
// Shared memory: STAGES steps of THREADS / LANES rows, a row LANES x VECS
// vectors of room (dynamic, {{smem}} bytes); {{blocks}} block{{blocks_s}} an SM.
extern "C" __global__ void __launch_bounds__(THREADS, {{blocks}})
{{name}}(const Rows a)
{
#if __CUDA_ARCH__ >= 900
    constexpr int LANES = {{lanes}}, VECS = {{vecs}}, STAGES = {{stages}};
    constexpr int GROUPS = THREADS / LANES;  // rows a block takes at once
    constexpr int ROOM = LANES * VECS;       // vectors of a row in a stage
    extern __shared__ Vec<T> stage[];        // STAGES x GROUPS x ROOM
    __shared__ unsigned long long full[STAGES];
    const int group = threadIdx.x / LANES, lane = threadIdx.x % LANES;
    const Index whole = a.aligned & X_ALIGNED ? a.cols / VEC : 0;  // vectors of a row the TMA unit copies
    const Index step = (Index)gridDim.x * GROUPS;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++)
            mbarrier_init(&full[s], 1);
        fence_mbarrier_init();
        for (int s = 0; s < STAGES; s++)
            stage_rows<GROUPS, ROOM>(a, stage + s * GROUPS * ROOM, &full[s], (Index)blockIdx.x * GROUPS + s * step,
                                     whole);
    }
    __syncthreads();

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
        {{call}}<LANES, VECS>(a, row, lane, n, v);
    }
#endif
}
