//! The constants of a simt, wmma or mma kernel (math: wgmma's are
//! wgmma_constants.cu), from the spec's tiles as gen/matmul.c's
//! kgen_matmul_shape() derives them.
constexpr int TILE_M = {{tm}}, TILE_N = {{tn}};  // the block's tile of C
{{#smem}}
constexpr int TILE_K = {{tk}};  // the depth of the tiles of A and B in shared memory
{{/smem}}
constexpr int THREADS = {{threads}};
{{#min_blocks}}
constexpr int MIN_BLOCKS = {{min_blocks}};  // blocks an SM holds at once: at most 65536 / (MIN_BLOCKS * THREADS) registers a thread
{{/min_blocks}}
{{group}}
{{#smem}}
{{stages}}
{{#split_k}}
constexpr int SPLIT_K = {{split_k}};  // blocks sharing one tile's k
{{/split_k}}
{{^tma}}
constexpr int VEC_A = {{vec_a}}, VEC_B = {{vec_b}};  // elements per global load ({{load_width}} bytes)
{{/tma}}
// The tiles in shared memory: A's {{a_rows}} rows of {{a_cols}} ({{a_major}}), B's {{b_rows}} rows of {{b_cols}} ({{b_major}}), each
{{#tma}}
// A_LD and B_LD elements, as TMA lands them: boxes of BOX columns, each row's
// 16-byte chunks swizzled (swizzle_tma).
{{/tma}}
{{^tma}}
{{#swizzled}}
// A_LD and B_LD elements, unpadded, their 16-byte chunks swizzled (swizzle_at).
{{/swizzled}}
{{^swizzled}}
// padded to A_LD and B_LD elements.
{{/swizzled}}
{{/tma}}
constexpr int A_LD = {{a_ld}}, A_TILE = {{a_rows}} * A_LD;
{{#stages_2}}
constexpr int B_LD = {{b_ld}}, B_TILE = {{b_rows}} * B_LD;
{{/stages_2}}
{{^stages_2}}
constexpr int B_LD = {{b_ld}};
{{/stages_2}}
{{#simt}}
constexpr int THREAD_M = {{thread_m}}, THREAD_N = {{thread_n}};  // C elements each thread computes
{{#warptiling}}
constexpr int WARP_M = {{warp_m}}, WARP_N = {{warp_n}}, WARPS_N = TILE_N / WARP_N;  // a warp's tile
{{/warptiling}}
constexpr int RM = {{rm}}, RM_STRIDE = {{rm_stride}};  // a thread's rows: chunks of RM, RM_STRIDE apart
constexpr int CN = {{cn}}, CN_STRIDE = {{cn_stride}};  // its columns: chunks of CN, CN_STRIDE apart
{{/simt}}
{{^simt}}
constexpr int WARP_M = {{warp_m}}, WARP_N = {{warp_n}}, WARPS_N = TILE_N / WARP_N;  // a warp's tile
{{#wmma}}
constexpr int FRAGS_M = WARP_M / 16, FRAGS_N = WARP_N / 16;  // its 16 x 16 fragments
{{/wmma}}
{{^wmma}}
constexpr int MMA_M = WARP_M / 16, MMA_N = WARP_N / 8;  // its 16 x 8 mma tiles
constexpr int KSTEPS = TILE_K / 16;  // k-steps of 16 a tile
{{/wmma}}
{{#tma}}
constexpr int BOX = 128 / sizeof(T);  // the elements of a row of a TMA box (128 bytes)
constexpr int A_BOX = {{a_rows}} * BOX, B_BOX = {{b_rows}} * BOX;  // the elements of one box of A and of B
{{/tma}}
{{/simt}}
{{/smem}}
