//! A kernel of strategy staged (auto's for long rows on sm_90): {{lanes}}
//! threads per row, the block walking its rows while the TMA unit copies
//! the next ones into shared memory (staged_rows()).
// {{doc}}
// Dynamic shared memory {{smem}} bytes: {{stages}} stage{{stages_s}} of {{stage_bytes}} bytes{{held}}; {{blocks}} block{{blocks_s}} an SM.
extern "C" __global__ void __launch_bounds__({{threads}}, {{blocks}})
{{name}}(const Rows a)
{
#if __CUDA_ARCH__ >= 900
    staged_rows<{{lanes}}, {{vecs}}, {{threads}}, {{stages}}{{hold_arg}}>(a);
#endif
}
