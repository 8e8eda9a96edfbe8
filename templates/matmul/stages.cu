//! STAGES, the tiles of A and B a kernel keeps in shared memory at once
//! (every staging: smem kernel's; gen/matmul_common.c).
{{#wgmma}}
constexpr int STAGES = {{stages}};  // k tiles in flight (TMA, mbarriers)
{{/wgmma}}
{{^wgmma}}
constexpr int STAGES = {{stages}};  // tiles in flight{{how}}
{{/wgmma}}
