//! math: wgmma: the kernel's constants (gen/matmul_hopper.c fills them in).
constexpr int TILE_M = {{tile_m}}, TILE_N = {{tile_n}};  // the block's tile of C
constexpr int TILE_K = {{tile_k}};  // the depth of a stage's tiles of A and B
{{#producer}}
constexpr int THREADS = {{threads}};  // a producer warpgroup and {{consumers}} consumer warpgroup{{plural}}
{{/producer}}
{{^producer}}
constexpr int THREADS = {{threads}};  // {{consumers}} consumer warpgroup{{plural}}
{{/producer}}
{{group}}
{{stages}}
{{^pingpong}}
constexpr int CONSUMERS = {{consumers}}, WG_M = TILE_M / CONSUMERS;  // warpgroups that multiply, and the rows of each
{{/pingpong}}
{{#pingpong}}
constexpr int CONSUMERS = {{consumers}}, WG_M = TILE_M;  // warpgroups that multiply, each a whole tile in turn
{{/pingpong}}
constexpr int MMA_M = WG_M / 64;  // a warpgroup's m64nTILE_Nk16 wgmmas per 16 of k
// A stage: A's tile, then B's; rows of 128 bytes, swizzled.  A_BOX, B_BOX: the bytes of one TMA box;
// A_LBO, A_SBO, B_LBO, B_SBO: the descriptors' leading and stride byte offsets (gen/matmul_hopper.c).
constexpr int A_STAGE = TILE_M * 128, B_STAGE = TILE_N * 128;
{{#split}}
// split_k: a cluster of SPLIT_K blocks a tile, each its share of k; block 0 keeps the others' sums
// of the tile, PARTIAL_FLOATS each.
constexpr int SPLIT_K = {{split_k}}, PARTIAL_FLOATS = TILE_M * TILE_N;
{{/split}}
{{#partials}}
// split_k, split_reduce: kernel: SPLIT_K blocks a tile, each its share of k, each writing its sums to its slice
// of the partials, which the _reduce kernel adds in split order.
constexpr int SPLIT_K = {{split_k}};
{{/partials}}
{{#cluster}}
constexpr int CLUSTER_M = {{cluster_m}}, CLUSTER_N = {{cluster_n}};  // a cluster's blocks, as tiles down x across; they share {{shared}}
{{/cluster}}
{{#a_k_major}}
{{#a_halves}}
constexpr int A_BOX = A_STAGE / 2;  // A K-major: TILE_M rows of 64 k, each block of the cluster loading half
{{/a_halves}}
{{^a_halves}}
constexpr int A_BOX = A_STAGE;  // A K-major: TILE_M rows of 64 k
{{/a_halves}}
{{/a_k_major}}
{{^a_k_major}}
constexpr int A_BOX = TILE_K * 128;  // A M-major: TILE_M / 64 boxes of 64 k rows of 64 m
{{/a_k_major}}
{{#b_k_major}}
{{#b_halves}}
constexpr int B_BOX = B_STAGE / 2;  // B K-major: TILE_N rows of 64 k, each block of the cluster loading half
{{/b_halves}}
{{^b_halves}}
constexpr int B_BOX = B_STAGE;  // B K-major: TILE_N rows of 64 k
{{/b_halves}}
{{/b_k_major}}
{{^b_k_major}}
constexpr int B_BOX = TILE_K * 128;  // B N-major: TILE_N / 64 boxes of 64 k rows of 64 n
{{/b_k_major}}
{{#a_k_major}}
constexpr unsigned int A_LBO = 16, A_SBO = 1024;
{{/a_k_major}}
{{^a_k_major}}
constexpr unsigned int A_LBO = A_BOX, A_SBO = 1024;
{{/a_k_major}}
{{#b_k_major}}
constexpr unsigned int B_LBO = 16, B_SBO = 1024;
{{/b_k_major}}
{{^b_k_major}}
constexpr unsigned int B_LBO = B_BOX, B_SBO = 1024;
{{/b_k_major}}
