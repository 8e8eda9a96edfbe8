//! math: wgmma: what both kernels do with a stage: the TMA loads into it,
//! the wgmmas that read it and its release (wgmma_store_*.cu store the
//! results).
// Ask the TMA unit for the k tile at k0 of A's rows from row0 and of B's
// columns from col0, into one stage's tiles; `full` completes when every
// byte has landed.  TMA fills what lies outside the matrices with zeros; a
// box that would start past them is not asked for (the rows or columns of C
// it would feed are not stored).
static __device__ __forceinline__ void load_stage(const CUtensorMap *a_map, const CUtensorMap *b_map, unsigned char *as,
                                                  unsigned char *bs, unsigned long long *full, int m, int n, int row0,
                                                  int col0, int k0)
{
    {{a_boxes}}
    {{b_boxes}}
    mbarrier_arrive_expect_tx(full, a_boxes * A_BOX + b_boxes * B_BOX);
    {{a_copy}}
    {{b_copy}}
}

// Load number i of the block (the k tile at k0 of its tile at row0, col0)
// into stage i % STAGES, once the consumers have released the load before it
// there (i - STAGES).
static __device__ __forceinline__ void issue_load(unsigned int i, const CUtensorMap *a_map, const CUtensorMap *b_map,
                                                  unsigned char *as, unsigned char *bs, unsigned long long *full,
                                                  unsigned long long *empty, int m, int n, int row0, int col0, int k0)
{
    const int s = i % STAGES;

    if (i >= STAGES)
        mbarrier_wait(&empty[s], (i / STAGES - 1) % 2);
    load_stage(a_map, b_map, as + s * A_STAGE, bs + s * B_STAGE, &full[s], m, n, row0, col0, k0);
}

{{multiply_stage}}

// This warpgroup is done with a stage: its arrival, one of the CONSUMERS
// that free the stage for the next load.  One thread arrives for the
// warpgroup, as CUTLASS's TMA pipeline does: its wgmma_wait_group has waited
// for the warpgroup's wgmmas, which are one operation of all four warps.
static __device__ __forceinline__ void release_stage(unsigned long long *empty)
{
    if (threadIdx.x % 128 == 0)
        mbarrier_arrive(empty);
}

{{store_tile}}
