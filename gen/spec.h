/*
 * spec.h - the spec language: every key, type, enum value and default,
 * written once as X-macro tables and expanded where they are needed
 * (the struct, the loader, the validator, the dump, the docs test).
 */
#ifndef KGEN_SPEC_H
#define KGEN_SPEC_H

#include "kgen.h"
#include "util.h"

/* Rows a build adds to KGEN_FAMILIES and KGEN_KEYS without editing them:
 * tests/toy_test is built with `-include tests/toy/rows.h`, a family whose
 * files all lie under tests/toy/. */
#ifndef KGEN_EXTRA_FAMILIES
#define KGEN_EXTRA_FAMILIES(X)
#endif
#ifndef KGEN_EXTRA_KEYS
#define KGEN_EXTRA_KEYS(X)
#endif

/* Kernel families: the value of `kernel:`.  ident, name, description, the
 * stem of its files and symbols (gen/STEM.c defines kgen_family_STEM). */
#define KGEN_FAMILIES(X) \
	X(REDUCE,    "reduce",    "reduce a vector to one value", reduce) \
	X(TRANSPOSE, "transpose", "transpose a row-major matrix", transpose) \
	X(REDUCE_AXIS, "reduce_axis", "reduce each row or each column of a row-major matrix", reduce_axis) \
	X(MATMUL,    "matmul",    "multiply two matrices: C = alpha A B + beta C, then an epilogue", matmul) \
	X(ROWS,      "rows",      "softmax, log-softmax, RMSNorm, LayerNorm or cross-entropy of each row of a matrix", rows) \
	X(SCAN,      "scan",      "prefix sums (or min, max, prod, an op of your own) of a vector: out[i] = x[0] op ... op x[i]", scan) \
	KGEN_EXTRA_FAMILIES(X)

/* Element and accumulator types.  ident, name, C type in the generated
 * source, size in bytes, class (INT, UINT, FLOAT, HALF, BHALF, FP8), the
 * names other tools give it (NumPy's, PyTorch's, C's), space-separated: a
 * spec that writes one is refused with "did you mean" this name.  The fp8
 * types (OCP's E4M3, finite with NaN and no infinity, and E5M2, IEEE-like)
 * are matmul's operands only (math: wgmma); every other family refuses
 * them (kgen_spec_check). */
#define KGEN_DTYPES(X) \
	X(I32,  "i32",  "int",                4, DT_INT,   "int32 int") \
	X(U32,  "u32",  "unsigned int",       4, DT_UINT,  "uint32 unsigned uint") \
	X(I64,  "i64",  "long long",          8, DT_INT,   "int64 long") \
	X(F32,  "f32",  "float",              4, DT_FLOAT, "float32 float fp32 single") \
	X(F64,  "f64",  "double",             8, DT_FLOAT, "float64 double fp64") \
	X(F16,  "f16",  "unsigned short",     2, DT_HALF,  "float16 half fp16") \
	X(BF16, "bf16", "unsigned short",     2, DT_BHALF, "bfloat16 bfloat") \
	X(E4M3, "e4m3", "unsigned char",      1, DT_FP8,   "float8_e4m3fn float8_e4m3 fp8_e4m3 fp8") \
	X(E5M2, "e5m2", "unsigned char",      1, DT_FP8,   "float8_e5m2 fp8_e5m2")

/* Reduction operators.  ident, name, description, the __reduce_*_sync and
 * atomic* functions of 32-bit integers that do it (NULL: none); then what
 * the op is: what it accumulates (SCALAR values, or PAIRs of a value and
 * its index); its last step (OP_POST_:
 * NONE, MEAN a / n, NORM2 sqrt(a), EXPR the spec's post); its default
 * out_dtype (OP_OUT_: ACC the accumulator's, FRACTION a floating type:
 * acc_dtype if floating, else f64); its identity (OP_ID_: ZERO, ONE, LARGEST
 * and SMALLEST values of the accumulator, EXPR the spec's identity); how
 * the partial results of several GPUs combine (OP_MULTI_: SUM, PROD, MIN,
 * MAX: NCCL's reduction of that name on the accumulators, then the last
 * step; GATHER: NCCL gathers them and combine() takes them in GPU order;
 * kgen_multi_reduce, runtime/multi.c). */
#define KGEN_OPS(X) \
	X(SUM,           "sum",           "a + b", "add", "atomicAdd", SCALAR, NONE, ACC, ZERO, SUM) \
	X(MIN,           "min",           "the smaller", "min", "atomicMin", SCALAR, NONE, ACC, LARGEST, MIN) \
	X(MAX,           "max",           "the larger", "max", "atomicMax", SCALAR, NONE, ACC, SMALLEST, MAX) \
	X(PROD,          "prod",          "a * b", NULL, NULL, SCALAR, NONE, ACC, ONE, PROD) \
	X(MEAN,          "mean",          "the sum divided by n, in floating point (f64 for integers)", NULL, NULL, SCALAR, MEAN, FRACTION, ZERO, SUM) \
	X(SUMSQ,         "sumsq",         "the sum of squares", "add", "atomicAdd", SCALAR, NONE, ACC, ZERO, SUM) \
	X(NORM2,         "norm2",         "the square root of the sum of squares (f64 for integers)", NULL, NULL, SCALAR, NORM2, FRACTION, ZERO, SUM) \
	X(AMAX,          "amax",          "the largest absolute value", "max", "atomicMax", SCALAR, NONE, ACC, ZERO, MAX) \
	X(COUNT_NONZERO, "count_nonzero", "how many elements are not zero, as i64", "add", "atomicAdd", SCALAR, NONE, ACC, ZERO, SUM) \
	X(ANY,           "any",           "1 if any element is not zero, else 0 (integers; i32)", "or", "atomicOr", SCALAR, NONE, ACC, ZERO, MAX) \
	X(ALL,           "all",           "1 if every element is not zero, else 0 (integers; i32)", "and", "atomicAnd", SCALAR, NONE, ACC, ONE, MIN) \
	X(ARGMIN,        "argmin",        "the smallest value and its lowest index, to two outputs", NULL, NULL, PAIR, NONE, ACC, LARGEST, GATHER) \
	X(ARGMAX,        "argmax",        "the largest value and its lowest index, to two outputs", NULL, NULL, PAIR, NONE, ACC, SMALLEST, GATHER) \
	X(CUSTOM,        "custom",        "the spec's map, combine, identity and post expressions", NULL, NULL, SCALAR, EXPR, ACC, EXPR, GATHER)

/* How argmin and argmax treat NaN. */
#define KGEN_NANS(X) \
	X(PROPAGATE, "propagate", "the first NaN wins (NumPy's and PyTorch's argmax)") \
	X(IGNORE,    "ignore",    "NaNs are skipped (nanargmax); all NaN gives index -1")

#define KGEN_STAGES(X) \
	X(TWO_PASS,   "two_pass",   "one partial per block, then a second kernel of one block") \
	X(ATOMIC,     "atomic",     "one pass; partial results combined with atomics")         \
	X(LAST_BLOCK, "last_block", "one pass, deterministic: the last block to finish combines the partials")

/* How a spec's kernels follow each other, and the work before them, on the stream. */
#define KGEN_LAUNCHES(X) \
	X(STREAM, "stream", "each kernel after the one before it has finished, as the stream orders them") \
	X(PDL,    "pdl",    "programmatic dependent launch (sm_90): the second kernel starts while the first runs and waits for its results") \
	X(CHAIN,  "chain",  "pdl, and the first kernel too starts while the work before it in the stream runs, and waits for it (sm_90)")

#define KGEN_ATOMICS(X) \
	X(ELEMENT, "element", "one atomic per element, no block reduction") \
	X(THREAD,  "thread",  "one atomic per thread, no block reduction")  \
	X(BLOCK,   "block",   "one atomic per block")

#define KGEN_BLOCK_REDUCES(X) \
	X(INTERLEAVED_DIVERGENT, "interleaved_divergent", "tree in shared memory, `tid % (2*s) == 0` (divergent)") \
	X(INTERLEAVED,           "interleaved",           "tree in shared memory, `index = 2*s*tid` (bank conflicts)") \
	X(SEQUENTIAL,            "sequential",            "tree in shared memory, `tid < s`, s halving") \
	X(WARPS,                 "warps",                 "each warp reduces in registers, then one warp reduces the warp totals")

#define KGEN_WARP_TAILS(X) \
	X(NONE,        "none",        "the tree runs down to one value, a barrier per step") \
	X(VOLATILE,    "volatile",    "one warp finishes in volatile shared memory")          \
	X(SHUFFLE,     "shuffle",     "one warp finishes with __shfl_down_sync")             \
	X(REDUCE_SYNC, "reduce_sync", "one warp finishes with __reduce_<op>_sync (32-bit integers)")

#define KGEN_GRIDS(X) \
	X(TILE,       "tile",       "one tile of threads*items_per_thread elements per block") \
	X(PERSISTENT, "persistent", "blocks_per_sm blocks per SM loop over the tiles")

#define KGEN_METHODS(X) \
	X(SMEM, "smem", "threads load a tile into padded shared memory and store it transposed") \
	X(TMA,  "tma",  "bulk tensor copies (TMA) load and store tiles; threads transpose in shared memory")

/* How a TMA kernel's threads walk the tile in shared memory. */
#define KGEN_WALKS(X) \
	X(ROWS,     "rows",     "thread t moves batch adjacent elements of one row (the post's indexing)") \
	X(DIAGONAL, "diagonal", "each warp moves 32x32 sub-blocks along diagonals: conflict-free without a swizzle")

/* L2 cache policy of the TMA copies. */
#define KGEN_CACHE_HINTS(X) \
	X(NONE,        "none",        "the default policy") \
	X(EVICT_FIRST, "evict_first", "data read or written once: evict it from L2 first")

/* The order in which consecutive blocks take a transpose's or a matmul's tiles. */
#define KGEN_ORDERS(X) \
	X(ROWS,    "rows",    "along a row of tiles, then the next row (the usual 2D grid order)") \
	X(COLS,    "cols",    "down a column of tiles, then the next: the blocks in flight write the same output rows") \
	X(GROUPED, "grouped", "down a group of `group` tile rows, then right") \
	X(HILBERT, "hilbert", "matmul: along a Hilbert curve through each square of `group` x `group` tiles, the " \
	  "squares left to right in strips of `group` tile rows")

/* Cache operators of the shared-memory transpose's global loads (ld.global.*). */
#define KGEN_LOAD_HINTS(X) \
	X(NONE, "none", "plain loads (ld.global, cached in L1 and L2)") \
	X(NC,   "nc",   "the read-only data path (ld.global.nc, __ldg)") \
	X(CG,   "cg",   "cache in L2 only, not L1 (ld.global.cg, __ldcg)") \
	X(CS,   "cs",   "streaming, read once: evict first (ld.global.cs, __ldcs)") \
	X(LU,   "lu",   "last use of the line (ld.global.lu, __ldlu)")

/* Cache operators of the shared-memory transpose's global stores (st.global.*). */
#define KGEN_STORE_HINTS(X) \
	X(NONE, "none", "plain write-back stores (st.global.wb)") \
	X(CS,   "cs",   "streaming, written once: evict first (st.global.cs, __stcs)") \
	X(CG,   "cg",   "cache in L2 only, not L1 (st.global.cg, __stcg)") \
	X(WT,   "wt",   "write through to system memory (st.global.wt, __stwt)")

/* How far TMA loads promote into L2 (CU_TENSOR_MAP_L2_PROMOTION_*). */
#define KGEN_PROMOTIONS(X) \
	X(NONE, "none", "no promotion") \
	X(B64,  "64B",  "64-byte L2 requests")  \
	X(B128, "128B", "128-byte L2 requests") \
	X(B256, "256B", "256-byte L2 requests")

/* TMA swizzle modes; the value is the span in bytes (0 = none). */
#define KGEN_SWIZZLES(X) \
	X(NONE, "none", "no swizzle") \
	X(B32,  "32B",  "16-byte chunks XORed within 32-byte spans")  \
	X(B64,  "64B",  "16-byte chunks XORed within 64-byte spans")  \
	X(B128, "128B", "16-byte chunks XORed within 128-byte spans")

/* Which way a matrix is reduced (kernel: reduce_axis). */
#define KGEN_AXES(X) \
	X(ROWS, "rows", "reduce each row: one result per row (torch.sum(x, dim=1))") \
	X(COLS, "cols", "reduce each column: one result per column (torch.sum(x, dim=0))")

/* How the threads of kernel: reduce_axis share the work. */
#define KGEN_STRATEGIES(X) \
	X(THREAD, "thread", "one thread per result, one element at a time (seed 002's row_sums and column_sums)") \
	X(WARP,   "warp",   "axis rows: `lanes` threads per row, several rows per warp below 32, vector loads, shuffles") \
	X(BLOCK,  "block",  "axis rows: a block per row, or `split` blocks per row and the last one combines") \
	X(TILE,   "tile",   "axis cols: threads own load_width bytes of adjacent columns and walk down the rows, split over blocks") \
	X(AUTO,   "auto",   "chosen at launch by the shape: rows: warp with 1 to 32 lanes or block, by the row's length; cols: tile")

/* What kernel: rows makes of each row (statistics in f32). */
#define KGEN_ROW_OPS(X) \
	X(SOFTMAX,       "softmax",       "exp(x - max) / sum(exp(x - max)) over the row (torch.softmax(x, -1))") \
	X(LOG_SOFTMAX,   "log_softmax",   "x - max - log(sum(exp(x - max))) (torch.log_softmax(x, -1))") \
	X(RMS_NORM,      "rms_norm",      "x / sqrt(mean(x^2) + eps) * weight (torch.nn.functional.rms_norm)") \
	X(LAYER_NORM,    "layer_norm",    "(x - mean) / sqrt(var + eps) * weight + bias, var biased (torch.nn.functional.layer_norm)") \
	X(CROSS_ENTROPY, "cross_entropy", "a loss per row: the row's log-sum-exp minus its label's logit (torch.nn.functional.cross_entropy, reduction='none')")

/* How the threads of kernel: rows share a row. */
#define KGEN_ROW_STRATEGIES(X) \
	X(WARP,    "warp",    "`lanes` threads per row (several rows a warp below 32), the row in registers: rows up to lanes x vectors loads") \
	X(BLOCK,   "block",   "a block per row, the row in registers: rows up to threads x vectors loads") \
	X(CLUSTER, "cluster", "a cluster of `cluster_size` blocks per row (sm_90), each holding its part in registers and reading the others' statistics from their shared memory") \
	X(STAGED,  "staged",  "`lanes` threads per row (32 up to the block), the row in registers, the block walking the rows while the TMA unit copies the next ones into shared memory (sm_90): rows up to lanes x vectors loads") \
	X(ONLINE,  "online",  "a block per row of any length: a pass for the statistics (a running max and sum, or Welford's mean and variance), then a pass that writes (cross_entropy: one pass)") \
	X(AUTO,    "auto",    "kernels of warp, block, staged (on sm_90) and online, one chosen at launch by the row's length")

/* Which prefix kernel: scan writes. */
#define KGEN_SCAN_MODES(X) \
	X(INCLUSIVE, "inclusive", "out[i] combines x[0] to x[i] (torch.cumsum, cub::DeviceScan::InclusiveScan)") \
	X(EXCLUSIVE, "exclusive", "out[i] combines x[0] to x[i - 1]; out[0] is the op's identity (cub::DeviceScan::ExclusiveScan)")

/* How kernel: scan's blocks share the vector. */
#define KGEN_SCAN_STRATEGIES(X) \
	X(LOOKBACK, "lookback", "one pass: a block a tile, each publishing its total, then its prefix, for the tiles after it to look back on (decoupled look-back, Merrill and Garland)") \
	X(BLOCK,    "block",    "one block walks the tiles in order, carrying the prefix: no scratch, for short vectors")

/* How kernel: scan's block scans its threads' totals (the ladder of the
 * scan posts, each step a value). */
#define KGEN_BLOCK_SCANS(X) \
	X(HILLIS_STEELE, "hillis_steele", "log2(threads) steps over two buffers in shared memory, every thread adding the total d before it (Hillis and Steele: n log n work)") \
	X(BLELLOCH,      "blelloch",      "an up-sweep and a down-sweep of a tree in shared memory (Blelloch: work-efficient, 2n combines; a power-of-two block)") \
	X(WARPS,         "warps",         "each warp by five shuffles, then warp 0 the warp totals (no tree in shared memory)") \
	X(SEGMENTS,      "segments",      "the tile read whole into shared memory as it is (one TMA bulk copy on sm_90), each warp scanning a contiguous segment of it 32 x a load's elements a step by shuffles and storing from registers (strategy: lookback)")

/* How an operand of kernel: matmul lies in memory. */
#define KGEN_MM_LAYOUTS(X) \
	X(ROW, "row", "row-major: a row's elements are adjacent, rows ld elements apart (C's and torch's)") \
	X(COL, "col", "column-major: a column's elements are adjacent, columns ld apart (BLAS's, or a transposed view)")

/* What multiplies in kernel: matmul. */
#define KGEN_MATHS(X) \
	X(SIMT, "simt", "one fused multiply-add per thread and element pair, on the CUDA cores (any float dtype)") \
	X(WMMA, "wmma", "warp 16x16x16 tensor-core tiles (the wmma instructions; f16 or bf16 in, f32 accumulate)") \
	X(MMA,  "mma",  "mma.sync m16n8k16 tensor-core tiles fed by ldmatrix (f16 or bf16 in, f32 accumulate)") \
	X(WGMMA, "wgmma", "Hopper's warpgroup wgmma.mma_async from 128-byte-swizzled TMA tiles (sm_90a; f16 or bf16 in, f32 accumulate)")

/* Where kernel: matmul's operands are read from. */
#define KGEN_STAGINGS(X) \
	X(NONE, "none", "every thread reads its operands from global memory: matmul, its row of A and column of B (seed 002's first kernels); a column scan, its rows of the tile into registers") \
	X(SMEM, "smem", "blocks copy tiles to shared memory and work from there: matmul, tiles of A and B; a column scan, its tile (a TMA bulk copy a row on sm_90)") \
	X(RING, "ring", "a column scan (sm_90): persistent blocks stream their tiles through a ring of `stages` shared-memory stages that TMA fills ahead, so loads go on while a block waits for what comes before its tile")

/* Which C element consecutive threads take (kernel: matmul, staging: none). */
#define KGEN_THREAD_MAPS(X) \
	X(ROWS, "rows", "consecutive threads take consecutive rows of C: strided, uncoalesced reads of A (the naive kernel)") \
	X(COLS, "cols", "consecutive threads take consecutive columns of C: coalesced reads of B and stores of C")

/* How A's tile lies in shared memory (kernel: matmul, math: simt). */
#define KGEN_A_SMEMS(X) \
	X(ROW,        "row",        "as A's rows: a thread reads its rows' elements one at a time") \
	X(TRANSPOSED, "transposed", "k-major: a thread reads its rows' elements of one k as one vector")

/* Who issues kernel: matmul's TMA loads (math: wgmma). */
#define KGEN_PRODUCERS(X) \
	X(NONE,      "none",      "every warpgroup multiplies; one thread also issues the loads; a block per tile of C") \
	X(WARPGROUP, "warpgroup", "a producer warpgroup issues the loads, `consumers` warpgroups multiply; one block per SM loops over the tiles")
/* How the tensor-core tiles lie in shared memory (kernel: matmul, math: mma). */
#define KGEN_SMEM_LAYOUTS(X) \
	X(PADDED,   "padded",   "each row 16 bytes longer: an odd count of 16-byte chunks, so ldmatrix's 8 rows miss each other's banks") \
	X(SWIZZLED, "swizzled", "rows unpadded, their 16-byte chunks XORed with the row's low bits: conflict-free cp.async writes and ldmatrix reads in less memory")

/* The blocks of a cluster of kernel: matmul's wgmma kernel, as tiles of C
 * down x across (math: wgmma, producer: warpgroup); the last columns say
 * how many along m and along n. */
#define KGEN_CLUSTERS(X) \
	X(C1X1, "1x1", "no clusters: a block loads all of its A and B", 1, 1) \
	X(C2X1, "2x1", "two blocks with tiles one above the other: each loads its A and half of their shared B, multicast to both", 2, 1) \
	X(C1X2, "1x2", "two blocks with tiles side by side: each loads its B and half of their shared A, multicast to both", 1, 2)

/* Which blocks of kernel: matmul compute which tiles of C (math: simt, mma). */
#define KGEN_SCHEDULES(X) \
	X(TILES,    "tiles",    "a block per tile of C, all of its k") \
	X(STREAM_K, "stream_k", "whole tiles for all but the last one to two waves of blocks; the tiles of those are shared out evenly, k tile by k tile, among one wave of blocks, and the block that finishes a shared tile adds the others' partial sums (scratch)") \
	X(PINGPONG, "pingpong", "math: wgmma with a producer and two consumer warpgroups: the consumers take the block's tiles in turn, each a whole tile, so that one multiplies while the other runs its epilogue and stores")

/* matmul's epilogue operands: a vector `bias` and a matrix `residual`. */
#define KGEN_MM_BIASES(X) \
	X(NONE, "none", "no bias") \
	X(ROW,  "row",  "a vector of m values, bias[row]: the same for a row of C") \
	X(COL,  "col",  "a vector of n values, bias[col]: the same for a column of C (a linear layer's bias)")

#define KGEN_MM_RESIDUALS(X) \
	X(NONE,   "none",   "no residual") \
	X(MATRIX, "matrix", "an m x n row-major matrix, residual[row][col], its row pitch ldr a launch argument")

/* matmul's reductions of the values it stores (row_reduce, col_reduce): a
 * set of them, written as names apart by commas ("sum, max"), held as a
 * mask of bit i for value i; none, alone, is the empty set. */
#define KGEN_MM_REDUCES(X) \
	X(NONE,   "none",   "no reduction") \
	X(SUM,    "sum",    "the sum of the values") \
	X(SUMSQ,  "sumsq",  "the sum of their squares (a norm's statistic)") \
	X(MAX,    "max",    "the largest value (a softmax's); NaN if any is NaN") \
	X(MIN,    "min",    "the smallest value; NaN if any is NaN") \
	X(ABSMAX, "absmax", "the largest magnitude (an fp8 scale's amax); NaN if any is NaN") \
	X(LOGSUMEXP, "logsumexp", "log(sum(exp(x))) without overflow (a softmax's statistic: softmax(x) = exp(x - logsumexp)); -inf for a line of -inf or none, +inf if any is +inf, NaN if any is NaN")

/* What a matmul kernel that loads A and B by TMA (math: wgmma, loads: tma)
 * does with a call whose operands TMA cannot load. */
#define KGEN_MM_UNALIGNED(X) \
	X(REPACK,   "repack",   "copies each operand TMA cannot load into a buffer the kernel keeps, its rows padded to 16-byte multiples (a second kernel, NAME_repack, on the call's stream), and runs the kernel on the copies") \
	X(FALLBACK, "fallback", "runs an mma.sync kernel of the same computation (types, layouts, epilogue and operands; specs/matmul/best/mma_<dtype>.yaml's tiles, cp.async loads), built at the first such call") \
	X(REFUSE,   "refuse",   "refuses the call (KGEN_EINVAL), saying why")

/* Where kernel: matmul's split_k blocks of a tile meet (split_k above 1). */
#define KGEN_MM_SPLIT_REDUCES(X) \
	X(CLUSTER, "cluster", "the split_k blocks of a tile are one cluster; block 0 gathers the others' f32 sums in its shared memory (st.async) and adds them in rank order as it stores the tile (math: wgmma; split_k up to 8, the sums beside the stages)") \
	X(KERNEL,  "kernel",  "each block writes its sums to its slice of the scratch (split_k x m x n accumulators) and a second kernel, NAME_reduce, adds the slices in split order and applies the epilogue (simt, wmma and mma always; wgmma with store: direct, for tiles whose sums would not fit beside the stages)")

/* kernel: matmul of fp8 operands: how A B is scaled back (dequantised). */
#define KGEN_MM_SCALES(X) \
	X(NONE,   "none",   "A B as the fp8 values multiply, unscaled") \
	X(TENSOR, "tensor", "one f32 scale for all of A and one for B, each read from device memory at launch (kgen_matmul_operands' scale_a, scale_b): acc = scale_a scale_b A B, as torch._scaled_mm and cuBLASLt's per-tensor scales") \
	X(BLOCK,  "block",  "DeepGEMM's fine-grained scales: A's one f32 a row and 128 of k (scale_a[kb * m + row], kb = l / 128), B's one a block of 128 x 128 (scale_b[(col / 128) * ceil(k / 128) + kb]), applied to each k tile's sums as fp8_accum: promote adds them")

/* kernel: matmul of fp8 operands: how the tensor cores' sums reach f32. */
#define KGEN_MM_FP8_ACCUMS(X) \
	X(FAST,    "fast",    "the tensor cores add every product of k into the accumulators themselves, whose fp8 adds keep about 14 bits of the sum's mantissa (cuBLASLt's FAST_ACCUM): the fastest, least exact as k grows") \
	X(PROMOTE, "promote", "each k tile's (128 of k) products are summed by the tensor cores from zero and then added to f32 registers by the CUDA cores, so the rounding of the fp8 adds spans one k tile, not all of k (cuBLASLt's default, DeepGEMM's promotion)")

/* How kernel: matmul's mma.sync kernel fills its shared-memory tiles
 * (math: mma, stages 2 to 4). */
#define KGEN_MM_LOADS(X) \
	X(CP_ASYNC, "cp_async", "every thread copies its share of each tile with cp.async (sm_80); a block barrier a tile") \
	X(TMA,      "tma",      "one thread copies each tile as 128-byte-swizzled TMA boxes (sm_90), completing on the stage's full mbarrier; each warp releases a stage on its empty mbarrier, no block barrier")

/* How kernel: matmul's wgmma consumers write their results to C (math: wgmma). */
#define KGEN_MM_STORES(X) \
	X(DIRECT, "direct", "one element at a time, each checked against m and n") \
	X(PAIRS,  "pairs",  "a tile inside C (and C and ldc aligned to two elements) as each thread's neighbouring pairs, one store each, unchecked; others as direct") \
	X(TMA,    "tma",    "through two 128-byte-swizzled buffers in shared memory a consumer warpgroup, each written to C by a TMA store while the warpgroup goes on (producer: warpgroup); as pairs where C is not 16-byte aligned or ldc not a multiple of 16 bytes")

#define KGEN_LAYOUTS(X) \
	X(STRIDED,    "strided",    "a thread's loads are `threads` vectors apart (coalesced)") \
	X(CONTIGUOUS, "contiguous", "a thread's items are adjacent in memory")

/*
 * Keys.  ident, name as written in YAML, value type, enum table (NULL
 * unless ENUM), minimum, maximum, default as written in YAML ("" = derived
 * from other fields), description.  Which keys a family reads is its own
 * list (struct kgen_family.keys); two families may each have a key of the
 * same name (two rows, two idents), and a name is looked up among the keys
 * of the spec's family.
 */
#define KGEN_KEYS(X) \
	X(kernel,           "kernel",           KT_ENUM, kgen_families,      0, 0,     "reduce",  "kernel family") \
	X(name,             "name",             KT_NAME, NULL,               0, 0,     "",        "prefix of the extern \"C\" kernel names; default reduce_<op>_<dtype>, transpose_<dtype>, reduce_<axis>_<op>_<dtype> (reduce_axis), matmul_<math>_<dtype> (matmul), rows_<op>_<dtype> (rows), scan_<op>_<dtype> (scan)") \
	X(op,               "op",               KT_ENUM, kgen_ops,           0, 0,     "sum",     "reduction operator") \
	X(dtype,            "dtype",            KT_ENUM, kgen_dtypes,        0, 0,     "f32",     "element type of the input") \
	X(acc_dtype,        "acc_dtype",        KT_ENUM, kgen_dtypes,        0, 0,     "",        "accumulator and result type; default f32 for f16 and bf16, else dtype") \
	X(threads,          "threads",          KT_INT,  NULL,               32, 1024, "",        "threads per block, a multiple of 32; default 512 (reduce, reduce_axis), 256 (scan), tile_rows * tile_cols / batch (transpose); derived from the tiles (matmul)") \
	X(items_per_thread, "items_per_thread", KT_INT,  NULL,               1, 64,    "",        "input elements each thread reads per tile; default 8 (reduce), 128 bytes of accumulators (scan: 32 of 4 bytes, 16 of 8)") \
	X(load_width,       "load_width",       KT_INT,  NULL,               1, 32,    "16",      "bytes per vector load: 2, 4, 8, 16 or 32 (two 16-byte loads)") \
	X(layout,           "layout",           KT_ENUM, kgen_layouts,       0, 0,     "strided", "where a thread's items lie in its tile") \
	X(unroll,           "unroll",           KT_INT,  NULL,               1, 16,    "1",       "tiles in flight per iteration of the persistent loop") \
	X(grid,             "grid",             KT_ENUM, kgen_grids,         0, 0,     "tile",    "grid policy") \
	X(blocks_per_sm,    "blocks_per_sm",    KT_INT,  NULL,               0, 32,    "0",       "blocks per SM for grid: persistent; 0 = 2048 / threads") \
	X(stages,           "stages",           KT_ENUM, kgen_stages,        0, 0,     "atomic",  "how the per-block results become one") \
	X(atomics,          "atomics",          KT_ENUM, kgen_atomics,       0, 0,     "block",   "where the atomics happen (stages: atomic)") \
	X(launch,           "launch",           KT_ENUM, kgen_launches,      0, 0,     "stream",  "how the kernels follow each other and the work before them (pdl: stages atomic or two_pass)") \
	X(block_reduce,     "block_reduce",     KT_ENUM, kgen_block_reduces, 0, 0,     "warps",   "block-level algorithm") \
	X(warp_tail,        "warp_tail",        KT_ENUM, kgen_warp_tails,    0, 0,     "shuffle", "how the last warp reduces") \
	X(warp_tail_from,   "warp_tail_from",   KT_INT,  NULL,               32, 64,   "64",      "partials left in shared memory when the warp tail starts: 32 or 64") \
	X(index,            "index",            KT_INT,  NULL,               32, 64,   "64",      "bits of the element index: 32 (n < 2^31) or 64") \
	X(method,           "method",           KT_ENUM, kgen_methods,       0, 0,     "smem",    "how tiles move between global and shared memory") \
	X(tile_rows,        "tile_rows",        KT_INT,  NULL,               1, 256,   "32",      "rows of the input tile one block transposes") \
	X(tile_cols,        "tile_cols",        KT_INT,  NULL,               1, 256,   "32",      "columns of the input tile one block transposes") \
	X(batch,            "batch",            KT_INT,  NULL,               1, 256,   "4",       "elements each thread moves (thread coarsening)") \
	X(swizzle,          "swizzle",          KT_ENUM, kgen_swizzles,      0, 0,     "none",    "TMA shared-memory swizzle (method: tma)") \
	X(walk,             "walk",             KT_ENUM, kgen_walks,         0, 0,     "rows",    "how threads walk the tile in shared memory (method: tma)") \
	X(buffers,          "buffers",          KT_INT,  NULL,               1, 4,     "1",       "tiles in flight per block (method: tma); above 1 the grid is persistent and pipelined") \
	X(cache_hint,       "cache_hint",       KT_ENUM, kgen_cache_hints,   0, 0,     "none",    "L2 policy of the TMA loads and stores (method: tma)") \
	X(l2_promotion,     "l2_promotion",     KT_ENUM, kgen_promotions,    0, 0,     "128B",    "L2 request size of the TMA loads (method: tma)") \
	X(order,            "order",            KT_ENUM, kgen_orders,        0, 0,     "rows",    "the order in which consecutive blocks take tiles (transpose, matmul)") \
	X(group,            "group",            KT_INT,  NULL,               1, 256,   "8",       "tile rows consecutive blocks walk down before moving right (order: grouped); the side of a square of tiles (order: hilbert, a power of two)") \
	X(load_hint,        "load_hint",        KT_ENUM, kgen_load_hints,    0, 0,     "none",    "cache operator of the global loads (method: smem)") \
	X(store_hint,       "store_hint",       KT_ENUM, kgen_store_hints,   0, 0,     "none",    "cache operator of the global stores (method: smem)") \
	X(pad,              "pad",              KT_INT,  NULL,               0, 16,    "1",       "elements added to each shared-memory row against bank conflicts (method: smem)") \
	X(axis,             "axis",             KT_ENUM, kgen_axes,          0, 0,     "rows",    "reduce (reduce_axis) or scan (scan) each row (rows) or each column (cols)") \
	X(strategy,         "strategy",         KT_ENUM, kgen_strategies,    0, 0,     "auto",    "how threads share the work") \
	X(lanes,            "lanes",            KT_INT,  NULL,               1, 1024,  "32",      "threads per row, a power of two (strategy: warp, up to 32; staged, 32 up to threads); scan, axis cols: threads across a tile's columns, dividing threads, default 128 bytes' worth") \
	X(split,            "split",            KT_INT,  NULL,               0, 65535, "0",       "blocks that share one row (block) or the rows of a column tile (tile); 0 = chosen at launch") \
	X(out_dtype,        "out_dtype",        KT_ENUM, kgen_dtypes,        0, 0,     "",        "type of the result; default: the op's (acc_dtype for sum, f64 for a mean of integers, i64 for count_nonzero); matmul: C's type, default dtype") \
	X(nan,              "nan",              KT_ENUM, kgen_nans,          0, 0,     "propagate", "how argmin and argmax treat NaN") \
	X(map,              "map",              KT_EXPR, NULL,               0, 0,     "x",       "op: custom: each element x (its index i) to the accumulator type") \
	X(combine,          "combine",          KT_EXPR, NULL,               0, 0,     "",        "op: custom: two partial results a and b to one (associative and commutative)") \
	X(identity,         "identity",         KT_EXPR, NULL,               0, 0,     "",        "op: custom: the partial result of no elements: combine(identity, a) is a") \
	X(post,             "post",             KT_EXPR, NULL,               0, 0,     "a",       "op: custom: the result a of n elements to the output") \
	X(a_layout,         "a_layout",         KT_ENUM, kgen_mm_layouts,    0, 0,     "row",     "how A (m x k) lies in memory; its leading dimension lda is a launch argument") \
	X(b_layout,         "b_layout",         KT_ENUM, kgen_mm_layouts,    0, 0,     "row",     "how B (k x n) lies in memory; its leading dimension ldb is a launch argument") \
	X(math,             "math",             KT_ENUM, kgen_maths,         0, 0,     "simt",    "what multiplies: CUDA cores or tensor cores") \
	X(staging,          "staging",          KT_ENUM, kgen_stagings,      0, 0,     "smem",    "where the operands are read from") \
	X(thread_map,       "thread_map",       KT_ENUM, kgen_thread_maps,   0, 0,     "cols",    "which C element consecutive threads take (staging: none)") \
	X(tile_m,           "tile_m",           KT_INT,  NULL,               1, 256,   "",        "rows of C a block computes; default 32 (staging: none), 64 (simt), 128 (wmma, mma)") \
	X(tile_n,           "tile_n",           KT_INT,  NULL,               1, 256,   "",        "columns of C a block computes; default 32 (staging: none), 64 (simt), 128 (wmma, mma)") \
	X(tile_k,           "tile_k",           KT_INT,  NULL,               1, 128,   "",        "the depth of the A and B tiles in shared memory; default 8 (simt), 32 (wmma, mma)") \
	X(thread_m,         "thread_m",         KT_INT,  NULL,               1, 16,    "4",       "rows of C each thread computes (math: simt), a power of two") \
	X(thread_n,         "thread_n",         KT_INT,  NULL,               1, 16,    "4",       "columns of C each thread computes (math: simt), a power of two") \
	X(warp_m,           "warp_m",           KT_INT,  NULL,               1, 256,   "",        "rows of C a warp computes; default none for simt (no warp tiling), tile_m / 2 for wmma and mma") \
	X(warp_n,           "warp_n",           KT_INT,  NULL,               1, 256,   "",        "columns of C a warp computes; default none for simt (no warp tiling), tile_n / 2 for wmma and mma") \
	X(a_smem,           "a_smem",           KT_ENUM, kgen_a_smems,       0, 0,     "row",     "how A's tile lies in shared memory (math: simt)") \
	X(smem_layout,      "smem_layout",      KT_ENUM, kgen_smem_layouts,  0, 0,     "padded",  "how the tiles of A and B lie in shared memory (math: mma): padded rows or XOR-swizzled 16-byte chunks") \
	X(mm_stages,        "stages",           KT_INT,  NULL,               1, 16,    "1",       "tiles of A and B in flight per block: 1, one buffer and plain loads; 2 to 4, cp.async multi-buffering, or TMA with loads: tma (math: wgmma: 2 to 16 TMA stages as shared memory allows, default 4); scan's staging: ring: the tiles a block has in shared memory at once (default 3)") \
	X(mm_blocks_per_sm, "blocks_per_sm",    KT_INT,  NULL,               0, 32,    "0",       "matmul, and scan's axis: cols with staging: smem or ring: blocks per SM whose registers the compiler must fit (__launch_bounds__); 0 = its own choice (math: simt, wmma, mma; the column scan: as many as shared memory and 40 + 5 K registers a thread leave, K the columns a warp looks back on; staging: ring: 2, or 1 where 2 do not fit)") \
	X(split_k,          "split_k",          KT_INT,  NULL,               1, 64,    "1",       "blocks that share the k dimension of one C tile; above 1 they write partial sums and a second kernel adds them") \
	X(b_dtype,          "b_dtype",          KT_ENUM, kgen_dtypes,        0, 0,     "",        "matmul: B's type where it differs from A's (dtype): e4m3 or e5m2 beside an fp8 dtype; default dtype") \
	X(scale,            "scale",            KT_ENUM, kgen_mm_scales,     0, 0,     "",        "matmul of fp8 (e4m3, e5m2): the scales A B is multiplied by; default tensor") \
	X(fp8_accum,        "fp8_accum",        KT_ENUM, kgen_mm_fp8_accums, 0, 0,     "",        "matmul of fp8: where the tensor cores' sums are added, in their own fp8 accumulation (fast) or in f32 registers each k tile (promote); default promote") \
	X(split_reduce,     "split_reduce",     KT_ENUM, kgen_mm_split_reduces, 0, 0,  "",        "matmul, split_k above 1: where a tile's split sums are added: in its cluster (math: wgmma's default) or by a second kernel from the scratch (the others')") \
	X(epilogue,         "epilogue",         KT_EXPR, NULL,               0, 0,     "v",       "matmul: the stored value, an expression of v (alpha acc + beta c), acc, c, row and col") \
	X(aux,              "aux",              KT_EXPR, NULL,               0, 0,     "",        "matmul: an auxiliary output beside C, of C's type: an expression of the epilogue's names (e.g. v + bias, the value before the activation) stored to an m x n row-major matrix of its own pitch; none when not given") \
	X(producer,         "producer",         KT_ENUM, kgen_producers,     0, 0,     "none",    "who issues the TMA loads (math: wgmma)") \
	X(consumers,        "consumers",        KT_INT,  NULL,               1, 2,     "1",       "warpgroups that multiply, each tile_m / consumers rows of the tile (math: wgmma)") \
	X(mm_store,         "store",            KT_ENUM, kgen_mm_stores,     0, 0,     "direct",  "how the results go to C (math: mma, wgmma)") \
	X(cluster,          "cluster",          KT_ENUM, kgen_clusters,      0, 0,     "1x1",     "blocks of a cluster, as tiles down x across, sharing an operand by TMA multicast (math: wgmma, producer: warpgroup)") \
	X(schedule,         "schedule",         KT_ENUM, kgen_schedules,     0, 0,     "tiles",   "which blocks (and warpgroups) compute which tiles of C: stream_k evens out the last wave (math: simt, mma); pingpong alternates a block's tiles between its consumer warpgroups (math: wgmma)") \
	X(bias,             "bias",             KT_ENUM, kgen_mm_biases,     0, 0,     "none",    "matmul: an operand the epilogue names bias: a vector indexed by row (m values) or by col (n values)") \
	X(bias_dtype,       "bias_dtype",       KT_ENUM, kgen_dtypes,        0, 0,     "",        "matmul: bias's type; default out_dtype") \
	X(residual,         "residual",         KT_ENUM, kgen_mm_residuals,  0, 0,     "none",    "matmul: an operand the epilogue names residual: an m x n row-major matrix of C's shape") \
	X(residual_dtype,   "residual_dtype",   KT_ENUM, kgen_dtypes,        0, 0,     "",        "matmul: residual's type; default out_dtype") \
	X(row_reduce,       "row_reduce",       KT_SET,  kgen_mm_reduces,    0, 0,     "none",    "matmul: reductions of each row of the values stored (after the epilogue, before rounding to C's type), each an m-vector of the accumulator type: sum, sumsq, max, min, absmax, logsumexp, several apart by commas") \
	X(col_reduce,       "col_reduce",       KT_SET,  kgen_mm_reduces,    0, 0,     "none",    "matmul: reductions of each column of the values stored, each an n-vector of the accumulator type, as row_reduce") \
	X(unaligned,        "unaligned",        KT_ENUM, kgen_mm_unaligned,  0, 0,     "repack", "matmul, math: wgmma or loads: tma: a call whose A or B is not 16-byte aligned, or whose lda or ldb is not a multiple of 16 bytes, runs on aligned copies of them, runs an mma.sync fallback or is refused") \
	X(mm_loads,         "loads",            KT_ENUM, kgen_mm_loads,      0, 0,     "cp_async", "how the tiles of A and B reach shared memory (math: mma, stages 2 to 4): cp.async by every thread, or TMA") \
	X(row_op,           "op",               KT_ENUM, kgen_row_ops,       0, 0,     "softmax", "kernel: rows: what each row becomes") \
	X(row_strategy,     "strategy",         KT_ENUM, kgen_row_strategies, 0, 0,    "auto",    "kernel: rows: how threads share a row") \
	X(vectors,          "vectors",          KT_INT,  NULL,               1, 32,    "4",       "kernel: rows: loads of load_width bytes each thread holds in registers (strategy: warp, block, cluster): the longest row") \
	X(cluster_size,     "cluster_size",     KT_INT,  NULL,               1, 16,    "2",       "kernel: rows: blocks of a cluster that share one row (strategy: cluster); kernel: scan, axis: cols: tiles of a band a cluster of blocks looks back for as one (1: none)") \
	X(weight_dtype,     "weight_dtype",     KT_ENUM, kgen_dtypes,        0, 0,     "",        "kernel: rows: type of the norms' weight and bias vectors; default dtype") \
	X(label_dtype,      "label_dtype",      KT_ENUM, kgen_dtypes,        0, 0,     "i64",     "kernel: rows: type of cross_entropy's labels, i32 or i64") \
	X(scan_mode,        "mode",             KT_ENUM, kgen_scan_modes,    0, 0,     "inclusive", "kernel: scan: which prefix each element gets") \
	X(scan_strategy,    "strategy",         KT_ENUM, kgen_scan_strategies, 0, 0,   "lookback", "kernel: scan: how blocks share the vector") \
	X(block_scan,       "block_scan",       KT_ENUM, kgen_block_scans,   0, 0,     "warps",   "kernel: scan: how a block scans its tile; default segments with strategy: lookback, warps with block") \
	X(lookback_group,   "lookback_group",   KT_INT,  NULL,               1, 32,    "32",      "kernel: scan, strategy: lookback: tiles a group of the look-back; a tile waits for the totals of those before it in its group") \
	KGEN_EXTRA_KEYS(X)

#define X(id, ...) KGEN_##id,
enum kgen_family_id { KGEN_FAMILIES(X) KGEN_FAMILY_COUNT };
#undef X
#define X(id, ...) KGEN_DT_##id,
enum kgen_dtype { KGEN_DTYPES(X) KGEN_DTYPE_COUNT };
#undef X
#define X(id, ...) KGEN_OP_##id,
enum kgen_op { KGEN_OPS(X) KGEN_OP_COUNT };
#undef X
#define X(id, ...) KGEN_STAGES_##id,
enum kgen_stages { KGEN_STAGES(X) KGEN_STAGES_COUNT };
#undef X
#define X(id, ...) KGEN_ATOMICS_##id,
enum kgen_atomics { KGEN_ATOMICS(X) KGEN_ATOMICS_COUNT };
#undef X
#define X(id, ...) KGEN_LAUNCH_##id,
enum kgen_launch { KGEN_LAUNCHES(X) KGEN_LAUNCH_COUNT };
#undef X
#define X(id, ...) KGEN_BR_##id,
enum kgen_block_reduce { KGEN_BLOCK_REDUCES(X) KGEN_BR_COUNT };
#undef X
#define X(id, ...) KGEN_WT_##id,
enum kgen_warp_tail { KGEN_WARP_TAILS(X) KGEN_WT_COUNT };
#undef X
#define X(id, ...) KGEN_GRID_##id,
enum kgen_grid { KGEN_GRIDS(X) KGEN_GRID_COUNT };
#undef X
#define X(id, ...) KGEN_METHOD_##id,
enum kgen_method { KGEN_METHODS(X) KGEN_METHOD_COUNT };
#undef X
#define X(id, ...) KGEN_WALK_##id,
enum kgen_walk { KGEN_WALKS(X) KGEN_WALK_COUNT };
#undef X
#define X(id, ...) KGEN_HINT_##id,
enum kgen_cache_hint { KGEN_CACHE_HINTS(X) KGEN_HINT_COUNT };
#undef X
#define X(id, ...) KGEN_ORDER_##id,
enum kgen_order { KGEN_ORDERS(X) KGEN_ORDER_COUNT };
#undef X
#define X(id, ...) KGEN_LOAD_##id,
enum kgen_load_hint { KGEN_LOAD_HINTS(X) KGEN_LOAD_COUNT };
#undef X
#define X(id, ...) KGEN_STORE_##id,
enum kgen_store_hint { KGEN_STORE_HINTS(X) KGEN_STORE_COUNT };
#undef X
#define X(id, ...) KGEN_PROMOTION_##id,
enum kgen_promotion { KGEN_PROMOTIONS(X) KGEN_PROMOTION_COUNT };
#undef X
#define X(id, ...) KGEN_SWIZZLE_##id,
enum kgen_swizzle { KGEN_SWIZZLES(X) KGEN_SWIZZLE_COUNT };
#undef X
#define X(id, ...) KGEN_AXIS_##id,
enum kgen_axis { KGEN_AXES(X) KGEN_AXIS_COUNT };
#undef X
#define X(id, ...) KGEN_STRATEGY_##id,
enum kgen_strategy { KGEN_STRATEGIES(X) KGEN_STRATEGY_COUNT };
#undef X
#define X(id, ...) KGEN_NAN_##id,
enum kgen_nan { KGEN_NANS(X) KGEN_NAN_COUNT };
#undef X
#define X(id, ...) KGEN_PRODUCER_##id,
enum kgen_producer { KGEN_PRODUCERS(X) KGEN_PRODUCER_COUNT };
#undef X
#define X(id, ...) KGEN_CLUSTER_##id,
enum kgen_cluster { KGEN_CLUSTERS(X) KGEN_CLUSTER_COUNT };
#undef X
#define X(id, ...) KGEN_MM_STORE_##id,
enum kgen_mm_store { KGEN_MM_STORES(X) KGEN_MM_STORE_COUNT };
#undef X
#define X(id, ...) KGEN_SCHEDULE_##id,
enum kgen_schedule { KGEN_SCHEDULES(X) KGEN_SCHEDULE_COUNT };
#undef X
#define X(id, ...) KGEN_MM_LOADS_##id,
enum kgen_mm_loads { KGEN_MM_LOADS(X) KGEN_MM_LOADS_COUNT };
#undef X
#define X(id, ...) KGEN_MM_UNALIGNED_##id,
enum kgen_mm_unaligned { KGEN_MM_UNALIGNED(X) KGEN_MM_UNALIGNED_COUNT };
#undef X
#define X(id, ...) KGEN_MM_SCALE_##id,
enum kgen_mm_scale { KGEN_MM_SCALES(X) KGEN_MM_SCALE_COUNT };
#undef X
#define X(id, ...) KGEN_MM_FP8_##id,
enum kgen_mm_fp8_accum { KGEN_MM_FP8_ACCUMS(X) KGEN_MM_FP8_COUNT };
#undef X
#define X(id, ...) KGEN_MM_SPLIT_##id,
enum kgen_mm_split_reduce { KGEN_MM_SPLIT_REDUCES(X) KGEN_MM_SPLIT_COUNT };
#undef X
#define X(id, ...) KGEN_MM_BIAS_##id,
enum kgen_mm_bias { KGEN_MM_BIASES(X) KGEN_MM_BIAS_COUNT };
#undef X
#define X(id, ...) KGEN_MM_REDUCE_##id,
enum kgen_mm_reduce { KGEN_MM_REDUCES(X) KGEN_MM_REDUCE_COUNT };
#undef X
#define X(id, ...) KGEN_MM_RESIDUAL_##id,
enum kgen_mm_residual { KGEN_MM_RESIDUALS(X) KGEN_MM_RESIDUAL_COUNT };
#undef X
#define X(id, ...) KGEN_LAYOUT_##id,
enum kgen_layout { KGEN_LAYOUTS(X) KGEN_LAYOUT_COUNT };
#undef X
#define X(id, ...) KGEN_ROW_##id,
enum kgen_row_op { KGEN_ROW_OPS(X) KGEN_ROW_OP_COUNT };
#undef X
#define X(id, ...) KGEN_ROWS_##id,
enum kgen_row_strategy { KGEN_ROW_STRATEGIES(X) KGEN_ROW_STRATEGY_COUNT };
#undef X
#define X(id, ...) KGEN_SCAN_##id,
enum kgen_scan_mode { KGEN_SCAN_MODES(X) KGEN_SCAN_MODE_COUNT };
#undef X
#define X(id, ...) KGEN_SCAN_STRATEGY_##id,
enum kgen_scan_strategy { KGEN_SCAN_STRATEGIES(X) KGEN_SCAN_STRATEGY_COUNT };
#undef X
#define X(id, ...) KGEN_BS_##id,
enum kgen_block_scan { KGEN_BLOCK_SCANS(X) KGEN_BS_COUNT };
#undef X
#define X(id, ...) KGEN_MM_##id,
enum kgen_mm_layout { KGEN_MM_LAYOUTS(X) KGEN_MM_COUNT };
#undef X
#define X(id, ...) KGEN_MATH_##id,
enum kgen_math { KGEN_MATHS(X) KGEN_MATH_COUNT };
#undef X
#define X(id, ...) KGEN_STAGING_##id,
enum kgen_staging { KGEN_STAGINGS(X) KGEN_STAGING_COUNT };
#undef X
#define X(id, ...) KGEN_THREAD_MAP_##id,
enum kgen_thread_map { KGEN_THREAD_MAPS(X) KGEN_THREAD_MAP_COUNT };
#undef X
#define X(id, ...) KGEN_A_SMEM_##id,
enum kgen_a_smem { KGEN_A_SMEMS(X) KGEN_A_SMEM_COUNT };
#undef X
#define X(id, ...) KGEN_SMEM_LAYOUT_##id,
enum kgen_smem_layout { KGEN_SMEM_LAYOUTS(X) KGEN_SMEM_LAYOUT_COUNT };
#undef X
#define X(id, ...) KGEN_KEY_##id,
enum kgen_key { KGEN_KEYS(X) KGEN_KEY_COUNT };
#undef X

enum kgen_dtype_class { DT_INT, DT_UINT, DT_FLOAT, DT_HALF, DT_BHALF, DT_FP8 };
/* The longest expression a spec may hold, in bytes. */
#define KGEN_EXPR_MAX 200

/* KT_SET: names of an enum table apart by commas, held as a mask (bit i:
 * value i); the table's first value (none) alone is the empty set. */
enum kgen_key_type { KT_ENUM, KT_INT, KT_NAME, KT_EXPR, KT_SET };

/* One allowed value of an enum key. */
struct kgen_enum {
	const char *name;
	const char *doc;
	const char *aliases;  /* what others call it, space-separated, for "did you mean"; NULL: none */
};

/* The columns of KGEN_OPS after its name and description. */
enum kgen_op_acc { OP_ACC_SCALAR, OP_ACC_PAIR };
enum kgen_op_post { OP_POST_NONE, OP_POST_MEAN, OP_POST_NORM2, OP_POST_EXPR };
enum kgen_op_out { OP_OUT_ACC, OP_OUT_FRACTION };
enum kgen_op_identity { OP_ID_ZERO, OP_ID_ONE, OP_ID_LARGEST, OP_ID_SMALLEST, OP_ID_EXPR };
enum kgen_op_multi { OP_MULTI_SUM, OP_MULTI_PROD, OP_MULTI_MIN, OP_MULTI_MAX, OP_MULTI_GATHER };

/* What the hardware has for an op on 32-bit integers: the name in
 * __reduce_<name>_sync and the atomic function (NULL: none); and what the
 * op is (KGEN_OPS). */
struct kgen_op_info {
	const char *reduce_sync;
	const char *atomic;
	int pair;
	enum kgen_op_post post;
	enum kgen_op_out out;
	enum kgen_op_identity identity;
	enum kgen_op_multi multi;
};

struct kgen_dtype_info {
	const char *name;
	const char *ctype;
	int size;
	enum kgen_dtype_class cls;
};

struct kgen_key_info {
	const char *name;
	enum kgen_key_type type;
	const struct kgen_enum *values;  /* NULL-terminated, for ENUM and SET */
	long long min, max;
	const char *def;
	const char *doc;
};

extern const struct kgen_enum kgen_families[], kgen_ops[], kgen_stages[], kgen_atomics[], kgen_launches[],
	kgen_block_reduces[], kgen_warp_tails[], kgen_grids[], kgen_layouts[], kgen_dtypes[], kgen_methods[],
	kgen_swizzles[], kgen_walks[], kgen_cache_hints[], kgen_promotions[], kgen_axes[], kgen_strategies[],
	kgen_orders[], kgen_load_hints[], kgen_store_hints[], kgen_nans[], kgen_mm_layouts[], kgen_maths[],
	kgen_stagings[], kgen_thread_maps[], kgen_a_smems[], kgen_producers[], kgen_smem_layouts[], kgen_mm_stores[],
	kgen_clusters[], kgen_schedules[], kgen_mm_loads[], kgen_mm_biases[], kgen_mm_residuals[], kgen_mm_reduces[], kgen_mm_unaligned[], kgen_mm_split_reduces[], kgen_mm_scales[], kgen_mm_fp8_accums[], kgen_row_ops[], kgen_row_strategies[], kgen_scan_modes[],
	kgen_scan_strategies[], kgen_block_scans[];

extern const struct kgen_dtype_info kgen_dtype_info[KGEN_DTYPE_COUNT];
extern const struct kgen_op_info kgen_op_info[KGEN_OP_COUNT];
extern const struct kgen_key_info kgen_keys[KGEN_KEY_COUNT];

/* Where a key and its value were written; line 0 when the key was not given. */
struct kgen_pos {
	int line, col;           /* of the key */
	int vline, vcol;         /* of the value */
};

#define KGEN_EXPR_NODES 128

/* A parsed expression of key `key` (expr.h); its nodes come after their operands. */
struct kgen_expr {
	int n, root;
	enum kgen_key key;
	struct kgen_expr_node {
		int kind;        /* enum kgen_expr_kind (expr_parse.h) */
		int op;          /* operator, function or variable */
		int a, b, c;     /* operands, -1 when absent */
		int type;        /* a number's or a cast's type, an enum kgen_expr_type */
		long double f;   /* a floating number's value */
		long long i;     /* an integer number's bits */
		int at, end;     /* its text, text[at..end), the parentheses around it included */
		int op_at;       /* where a fault of it is shown: its operator, function or first character */
	} node[KGEN_EXPR_NODES];
};

/* What validation derives from a spec's fields, once: kgen_spec_check()
 * fills it when the types are resolved, before the family's rules (which
 * may refine it), so that emitters, launchers and the CPU reference read
 * plain fields instead of deriving them again.  Valid in a checked spec. */
struct kgen_resolved {
	const struct kgen_dtype_info *dtype;  /* the elements' type */
	const struct kgen_dtype_info *acc;    /* the accumulator's (NULL in a family without an op) */
	const struct kgen_dtype_info *out;    /* the result's; a pair's value (NULL without an op) */
	long long vec;     /* elements per vector load: load_width / the element's size (reduce_axis: 1
	                    * with strategy: thread) */
	int pair;          /* the op accumulates a (value, index) pair: argmin, argmax */
	int last_step;     /* the result needs a last step: a post, a conversion to out_dtype, a pair's outputs */
	int uses_index;    /* to_acc() takes the element's index: pairs, a map of i */
	int acc_bytes;     /* of one accumulator: a partial in scratch */
	/* op: custom: map, combine, identity and post, parsed and typed with the
	 * spec's types (n == 0 for another op). */
	struct kgen_expr expr[4];
};

/* A loaded spec: one long long per key (enum index, integer), defaults
 * resolved by kgen_spec_check(), and what it derives in r. */
struct kgen_spec {
#define X(id, ...) long long id;
	KGEN_KEYS(X)
#undef X
	char name_text[64];          /* value of `name` */
	char expr_text[6][KGEN_EXPR_MAX + 1];  /* map, combine, identity, post (op: custom); epilogue, aux (matmul) */
	struct kgen_resolved r;
	struct kgen_pos pos[KGEN_KEY_COUNT];
	char *file;                  /* as given to the loader */
	char *text;                  /* the YAML, for source lines in errors */
	size_t text_len;
};

/* The text of an expression key (map, combine, identity, post, epilogue, aux); NULL for another key. */
char *kgen_spec_expr(struct kgen_spec *s, enum kgen_key k);
const char *kgen_spec_expr_text(const struct kgen_spec *s, enum kgen_key k);

/* The value of key k in spec s, as an lvalue. */
long long *kgen_spec_field(struct kgen_spec *s, enum kgen_key k);
long long kgen_spec_value(const struct kgen_spec *s, enum kgen_key k);

/* Fill every field with its default (derived defaults stay unresolved);
 * spec_value.c, above the expressions, which a default may be. */
void kgen_spec_defaults(struct kgen_spec *s);

/* Parse one value for key k, as written in YAML, into *out (spec_value.c:
 * an expression is parsed by expr_type.h's kgen_expr_parse()). */
kgen_status kgen_spec_parse_value(enum kgen_key k, const char *text, long long *out, char *why, size_t n);

/* A set's mask as its names apart by ", " in the table's order ("none"
 * for the empty set), into buf (spec_value.c). */
void kgen_set_format(enum kgen_key k, long long mask, char *buf, size_t n);

/* Why C identifier `name` cannot name a kernel ("is a C++ keyword", ...),
 * or NULL when it can. */
const char *kgen_name_reserved(const char *name);

/* The index of key `name`, or -1; the nearest key name for a suggestion.
 * (kgen_key_lookup_for(), family.h, looks among a family's keys first.) */
int kgen_key_lookup(const char *name);
const char *kgen_key_nearest(const char *name);

/* The name among names[0..n) nearest to `name`, if near enough to be a typo
 * (or one it begins), else NULL: for "did you mean". */
const char *kgen_nearest_name(const char *name, const char *const *names, size_t n);

/* "sum, min, max or prod" (or the integer range) for messages
 * (spec_value.c); the allowed value nearest to text, for "did you mean". */
void kgen_key_allowed(enum kgen_key k, char *buf, size_t n);
/* The same of the values family `kernel` takes (kgen_family_values(),
 * family.h), or of those in takes (bit v: value v). */
void kgen_key_allowed_for(long long kernel, enum kgen_key k, char *buf, size_t n);
void kgen_key_allowed_of(enum kgen_key k, unsigned long long takes, char *buf, size_t n);
/* Whether the integers of takes (bit v: v) within key k's range are one run
 * of three or more, *lo to *hi: said as a range, not one by one. */
int kgen_int_run(enum kgen_key k, unsigned long long takes, long long *lo, long long *hi);
const char *kgen_key_nearest_value(enum kgen_key k, const char *text);

/* Validate the spec and resolve derived defaults (see check.c). */
kgen_status kgen_spec_check(struct kgen_spec *s, kgen_error *err);

/* Report an error at key k of spec s (at its value when at_value). */
kgen_status kgen_spec_error(const struct kgen_spec *s, enum kgen_key k, int at_value, kgen_error *err,
                            const char *fmt, ...) KGEN_PRINTF(5, 6);

/* The value of key k as text ("512", "sum"). */
const char *kgen_spec_format_value(const struct kgen_spec *s, enum kgen_key k, char *buf, size_t n);

/* The same as a YAML value that loads back as that text: plain where YAML
 * reads it so ("a + b"), else single-quoted ('a < b ? b : a', a quote
 * doubled); the header comment's spec block is written with it.  n of
 * 2 * KGEN_EXPR_MAX + 8 holds any value. */
const char *kgen_spec_yaml_value(const struct kgen_spec *s, enum kgen_key k, char *buf, size_t n);

/* Helpers the generators use. */
const struct kgen_dtype_info *kgen_spec_dtype(const struct kgen_spec *s);
const struct kgen_dtype_info *kgen_spec_acc(const struct kgen_spec *s);
const char *kgen_spec_kernel_name(const struct kgen_spec *s);

/* The first key in which a and b compute something different (kernel, op,
 * the types, nan, the expressions), their values in va and vb; NULL when
 * any of them may stand for the other (a size plan's entries). */
const char *kgen_spec_computes_other(const kgen_spec *a, const kgen_spec *b, char *va, char *vb, size_t n);

/* Is text a size plan (a mapping with the key plan) rather than a spec? */
int kgen_plan_text_is_plan(const char *text, size_t len);

#endif
