//! math: wgmma: the pipeline of STAGES stages between the TMA loads and the
//! consumer warpgroups, in the names of CUTLASS's PipelineTmaAsync.  Stage
//! s has two mbarriers: full[s] completes when the producer has arrived,
//! expecting the bytes of its boxes, and they have landed (the producer's
//! commit is its mbarrier_arrive_expect_tx in load_stage); empty[s] when
//! every consumer warpgroup has released it.  Load number i of a block goes
//! to stage i % STAGES, in its (i / STAGES)th use: the phase whose parity
//! the waits name.
// The producer: wait until the consumers have released stage i % STAGES
// from load i - STAGES (the first STAGES loads find their stages free).
static __device__ __forceinline__ void producer_acquire(unsigned long long *empty, unsigned int i)
{
    const int s = i % STAGES;

    if (i >= STAGES)
        mbarrier_wait(&empty[s], (i / STAGES - 1) % 2);
}

// A consumer: wait until load i has landed in its stage.
static __device__ __forceinline__ void consumer_wait(unsigned long long *full, unsigned int i)
{
    mbarrier_wait(&full[i % STAGES], i / STAGES % 2);
}

{{^cluster}}
// A consumer warpgroup is done with load i's stage: its arrival, one of
// the CONSUMERS that free the stage for the next load.  One thread arrives
// for the warpgroup, as CUTLASS's TMA pipeline does: its wgmma_wait_group
// has waited for the warpgroup's wgmmas, which are one operation of all
// four warps.
static __device__ __forceinline__ void consumer_release(unsigned long long *empty, unsigned int i)
{
    if (threadIdx.x % 128 == 0)
        mbarrier_arrive(&empty[i % STAGES]);
}
{{/cluster}}
{{#cluster}}
// A consumer warpgroup is done with load i's stage: its arrivals in this
// block and in the other (rank ^ 1), two of the 2 * CONSUMERS in each that
// free the stage for either block's next load.  One thread arrives for the
// warpgroup, as CUTLASS's TMA pipeline does: its wgmma_wait_group has waited
// for the warpgroup's wgmmas, which are one operation of all four warps.
static __device__ __forceinline__ void consumer_release(unsigned long long *empty, unsigned int i, unsigned int rank)
{
    if (threadIdx.x % 128 == 0) {
        mbarrier_arrive(&empty[i % STAGES]);
        mbarrier_arrive_cluster(&empty[i % STAGES], rank ^ 1);
    }
}
{{/cluster}}
