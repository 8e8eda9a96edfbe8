//! cp.async (sm_80), wrapped once: the copies of math: simt, wmma and mma
//! with stages 2 and up.  smem() comes from smem_addr.cu.
{{#cp_async}}
// Copy BYTES (4, 8 or 16) from global to shared memory without waiting;
// 16-byte copies skip L1 (.cg).
template <int BYTES>
static __device__ __forceinline__ void cp_async(void *dst, const void *src)
{
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem(dst)), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(smem(dst)), "l"(src), "n"(BYTES) : "memory");
}

{{/cp_async}}
{{#cp_async_commit}}
// Close this thread's group of copies.
static __device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}

{{/cp_async_commit}}
{{#cp_async_wait}}
// Wait until at most PENDING of this thread's groups are in flight.
template <int PENDING>
static __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;" :: "n"(PENDING) : "memory");
}

{{/cp_async_wait}}
