//! `launch: pdl` and `chain`: programmatic dependent launch between the two kernels,
//! and with `chain` between the first and the work before it (sm_90).
// The first kernel lets the second start launching at once: its blocks are
// placed while the first still runs, instead of after it has drained.
static __device__ __forceinline__ void let_next_kernel_start()
{
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// The second kernel waits here until the first has finished and its writes
// are visible.  Launched without the attribute, both are no-ops.
static __device__ __forceinline__ void wait_for_previous_kernel()
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
}
