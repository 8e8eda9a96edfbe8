//! One vector load of a full tile (tile.cu, persistent.cu), each lane
//! accumulated: into acc, or into its own chain (pairs, reduce/accumulators.cu).
const Vec x = reinterpret_cast<const Vec *>(in + base)[{{at}}];
#pragma unroll
for (int k = 0; k < VEC; k++)
    {{lane}}
