//! math: wgmma, store: tma: the kernels, each the work function above for
//! one beta (0, or C read and scaled) and one way C leaves (by TMA, or,
//! where TMA cannot take it, copied out of the buffers element by element:
//! copy_chunk).  The runtime compiles each apart, at its first launch, so a
//! call compiles the code it runs and no more: NAME (beta 0, C aligned)
//! alone took 0.36 of the NVRTC time of the one kernel it replaced, which
//! held all four cases, on the 2-core machine
//! (bench/results/cpu-dev/2026-12-05-wgmma-variants).  The first two take
//! no c_tma (or r_tma): their calls pass 1, and what tests it folds away.
// beta 0, {{what}} by TMA: the usual call.
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}(
    {{tma_params}}
{
    wgmma_work<false>({{tma_args}});
}

// beta != 0, {{what}} by TMA.
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}_beta(
    {{tma_params}}
{
    wgmma_work<true>({{tma_args}});
}

// beta 0, where TMA cannot take {{either}} ({{flags}} 0).
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}_unaligned(
    {{params}}
{
    wgmma_work<false>({{args}});
}

// beta != 0, where TMA cannot take {{either}} ({{flags}} 0).
extern "C" __global__ void __launch_bounds__(THREADS, 1) {{name}}_beta_unaligned(
    {{params}}
{
    wgmma_work<true>({{args}});
}
