//! A kernel of strategy cluster (auto's for the longest rows on sm_90): a
//! row over a cluster of {{blocks_a_row}} blocks, each holding its part of it,
//! the clusters walking their rows while the TMA unit copies each block's
//! part of the next ones into shared memory (staged_rows()).
// {{doc}}
// Dynamic shared memory {{smem}} bytes: {{stages}} stage{{stages_s}} of {{stage_bytes}} bytes{{held}}.
extern "C" __global__ void CLUSTER_DIMS({{blocks_a_row}}) __launch_bounds__({{threads}}, 1)
{{name}}(const Rows a)
{
#if __CUDA_ARCH__ >= 900
    staged_rows<{{lanes}}, {{vecs}}, {{threads}}, {{stages}}{{hold_arg}}>(a);
#endif
}
