//! Register reallocation between warpgroups (sm_90a), wrapped once: math:
//! wgmma's producer warpgroup gives registers to its two consumers.
{{#setmaxnreg_dec}}
// This warpgroup's threads give registers up to REGS ...
template <int REGS>
static __device__ __forceinline__ void setmaxnreg_dec()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(REGS));
}

{{/setmaxnreg_dec}}
{{#setmaxnreg_inc}}
// ... or take them, up to REGS each, from those given up.
template <int REGS>
static __device__ __forceinline__ void setmaxnreg_inc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(REGS));
}

{{/setmaxnreg_inc}}
