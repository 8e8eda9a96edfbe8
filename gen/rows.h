/* rows.h - the fused row family (`kernel: rows`): what its launcher and
 * its runner take from the generator, derived once. */
#ifndef KGEN_ROWS_H
#define KGEN_ROWS_H

#include "family.h"

/* A staged or cluster kernel's block: the spec's threads, twice them (at
 * most 1024) or half. */
#define KGEN_ROWS_SPEC 0
#define KGEN_ROWS_WIDE 1
#define KGEN_ROWS_HALF 2
/* The ops a table entry below serves. */
#define KGEN_ROWS_FOR_SOFTMAX 1  /* softmax and log_softmax */
#define KGEN_ROWS_FOR_RMS     2
#define KGEN_ROWS_FOR_LN      4
#define KGEN_ROWS_FOR_ALL     7  /* the ops that write rows */
#define KGEN_ROWS_FOR_XENT    8

/* strategy: auto's kernels that hold a row in registers, in launch order:
 * a row of up to lanes x vectors loads (of load_width bytes) takes the
 * first of its op's that holds it; lanes 0 is a block per row (threads
 * lanes), lanes above 32 several warps per row and threads / lanes rows a
 * block.  Longer rows take the online kernel.  Chosen from the H200 sweeps
 * of strategies warp and block (bench/rows/sweep.sh, bench/results/
 * nvidia-h200/2026-12-02-rows): the best at 32768 x 256 to 16384, bf16 and
 * f32, was 16 lanes x 2 and x 4 loads up to 64 loads a row, 32 x 4 to 128,
 * 128 lanes to 1024 loads, 256 x 8 to 2048, a block of 512 x 8 to 4096;
 * then (2026-12-04-rows-wide, call 6, bf16 at 512 columns, blocks of 512)
 * a warp a row of 2 loads for softmax (0.97 of a copy against 0.82),
 * log-softmax (0.87 against 0.73) and RMSNorm (0.98 against 0.91), where
 * LayerNorm keeps 16 x 4 (0.78 against 0.74). */
/* Auto's warp kernels that write rows (32 lanes a row or fewer) take
 * blocks of KGEN_ROWS_WARP_THREADS threads where the spec's threads are
 * more: at 32768 x 256 and 32768 x 512, bf16 and f32, softmax,
 * log-softmax, RMSNorm and LayerNorm each ran 1-6% faster in blocks of
 * 128 than of 512 (ncu, an H100, bench/results/nvidia-h100/
 * 2026-12-06-rows-short, choose/); reported with the exact twins from a
 * second H100 run (bench/results/nvidia-h100/2026-12-06-rows-twins:
 * through Python, faster than main at all 16 points by 0.2-7%). */
#define KGEN_ROWS_WARP_THREADS 128
#define KGEN_ROWS_AUTO(X) \
	X(16, 2, KGEN_ROWS_FOR_ALL)                           \
	X(32, 2, KGEN_ROWS_FOR_SOFTMAX | KGEN_ROWS_FOR_RMS)   \
	X(16, 4, KGEN_ROWS_FOR_LN)                            \
	X(32, 4, KGEN_ROWS_FOR_ALL)                           \
	X(128, 4, KGEN_ROWS_FOR_ALL)                          \
	X(128, 8, KGEN_ROWS_FOR_ALL)                          \
	X(256, 8, KGEN_ROWS_FOR_ALL)                          \
	X(0, 8, KGEN_ROWS_FOR_ALL)

/* strategy: auto's blocks of `threads` threads a row, each thread holding
 * `elements` / threads of its elements in registers (whole 16-byte loads:
 * the entry is left out where they do not fill `elements` exactly), by the
 * ops of `ops16` for 2-byte elements and of `ops32` for 4-byte ones, where
 * the spec's threads are at least `threads`: in the order of the rows they
 * hold, among the register kernels above (a row takes the first kernel
 * that holds it, on every GPU), sm_90's staged kernels starting past the
 * last of them (kgen_rows_staged_from()).  Chosen from the H200 sweep of
 * bench/results/nvidia-h200/2026-12-06-rows-block (strategy block and
 * warp at 32768 x 1024 against auto, of a copy): a block of 128 x 1 load
 * of bf16 softmax 0.890 against auto's staged 32 x 4 0.842, log-softmax
 * 0.879 against 0.848, RMSNorm 0.941 against 0.885 (LayerNorm 0.753
 * against 0.868: it keeps the staged kernel); f32 128 x 2 loads softmax
 * 0.993 against 0.881, log-softmax 1.002 against 0.892, RMSNorm 1.021
 * against 0.881, LayerNorm 0.960 against 0.857.  A block's loads must
 * fit its row: 128 x 2 bf16 loads at 1024 columns ran at 0.65-0.79.
 * Reported from a second run on an H100 (bench/results/nvidia-h100/
 * 2026-12-06-rows-block: at 32768 x 1024 bf16 softmax 1.011 of a copy
 * against 0.92 before, f32 0.99-1.03 against 0.88-0.94).  The longer
 * blocks from the H100 sweep of 1536 to 8192 columns (bench/results/
 * nvidia-h100/2026-12-06-rows-blocks-long, sweep/: the kernels of a copy,
 * against auto's staged ones): f32, every op, a block of 256 x 2 loads to
 * 2048 (0.97-1.02 against 0.88-0.94), 512 x 2 to 4096 (1.00-1.01 against
 * 0.87-0.95; LayerNorm 0.91 at 3072 against 0.87), 512 x 4 to 8192
 * (1.00-1.01 against 0.91-0.94); bf16 256 x 1 to 2048 (softmax 0.968
 * against 0.914, log-softmax 0.976 against 0.915, RMSNorm 1.011 against
 * 0.856; at 1536 within 2% of auto or above it; LayerNorm 0.75 against
 * 0.87 at 1536: it keeps the staged kernel) and for RMSNorm 256 x 2 to
 * 4096 (0.979 against 0.912, 0.901 against 0.864 at 3072; softmax's 256 x
 * 2 fell to 0.82 against 0.91 at 3072: it keeps the staged kernel).
 * Reported from a second H100 run (that folder's report/, against the
 * kernels before): f32 4-10% faster at 1536-8192, bf16 4-18% at 2048 and
 * RMSNorm 2-5% at 3072-4096; at 1536 bf16 log-softmax 2-3% and RMSNorm 2%
 * slower.  Blocks whose one or two loads a thread hold the row exactly
 * (threads not a power of two), from the H100 sweep of bench/results/
 * nvidia-h100/2026-12-06-rows-exact (sweep/, bf16, of a copy, against
 * auto's kernels then): 192 x 1 load at 1536 softmax 0.983 against 0.905,
 * RMSNorm 1.013 against 0.953 (LayerNorm 0.879 against 0.875: it keeps the
 * staged kernel); RMSNorm 192 x 2 at 3072 0.987 against 0.898 and 384 x 2
 * at 6144 0.953 against 0.868.  Reported from a second H100 run (that
 * folder's report/, against the kernels before): bf16 and f16 at 1536
 * softmax 0.955-0.974 against 0.892-0.895, RMSNorm 0.95-1.02 against
 * 0.95-0.96; RMSNorm at 2560-3072 0.94-0.98 against 0.81-0.89 and at 6144
 * 0.95 against 0.87.  Left out: softmax's 384 x 1 to 3072 (0.930 against
 * 0.916 in the sweep at 3072, but at 2560 0.85 against 0.88 and
 * log-softmax 0.79-0.84 against 0.87-0.90 in the report). */
#define KGEN_ROWS_AUTO_BLOCKS(X) \
	X(128, 1024, KGEN_ROWS_FOR_SOFTMAX | KGEN_ROWS_FOR_RMS, KGEN_ROWS_FOR_ALL) \
	X(192, 1536, KGEN_ROWS_FOR_SOFTMAX | KGEN_ROWS_FOR_RMS, 0)                 \
	X(256, 2048, KGEN_ROWS_FOR_SOFTMAX | KGEN_ROWS_FOR_RMS, KGEN_ROWS_FOR_ALL) \
	X(192, 3072, KGEN_ROWS_FOR_RMS, 0)                                         \
	X(256, 4096, KGEN_ROWS_FOR_RMS, 0)                                         \
	X(512, 4096, 0, KGEN_ROWS_FOR_ALL)                                         \
	X(384, 6144, KGEN_ROWS_FOR_RMS, 0)                                         \
	X(512, 8192, 0, KGEN_ROWS_FOR_ALL)

/* cross_entropy streams its rows whatever the kernel: auto gives rows of
 * up to `upto` loads to `lanes` threads streaming `vectors` loads at a
 * time, longer ones to the online kernel (a block per row).  Fewer lanes
 * won in the same sweeps: 8 x 1 to 512 bf16 columns, 8 x 4 to 1024, 16 x 4
 * to 4096, 64 x 4 to 16384. */
#define KGEN_ROWS_AUTO_XENT(X) \
	X(8, 1, 64)   \
	X(8, 4, 128)  \
	X(16, 4, 512) \
	X(64, 4, 2048)

/* strategy: auto's staged kernels (sm_90, x's rows 16-byte aligned,
 * load_width 16): a row longer than KGEN_ROWS_STAGED_FROM elements (than
 * the last of the spec's KGEN_ROWS_AUTO_BLOCKS entries holds, where it has
 * them: see kgen_rows_staged_from()) takes the first of its op's that holds it
 * there, as lanes x vectors above.  `wide` kernels have blocks of twice
 * the spec's threads (at most 1024): more rows a block, sharing one copy of
 * the norms' weight and bias, more bytes in flight an SM.  One whose stages would not fit in shared memory is left
 * out.  Chosen from the H200 runs of bench/results/nvidia-h200/
 * 2026-12-04-rows-wide (bf16, 32768 rows, of a copy): blocks of 512 against
 * 1024: RMSNorm 0.86 against 0.92 at 2048 columns, 0.885 against 0.899 at
 * 16384; LayerNorm 0.87 against 0.88 at 8192, 0.78 against 0.89 at 16384,
 * 0.79 against 0.84 at 32768; bf16 softmax and log-softmax no faster wide.  A
 * warp or two a row (no block barriers in the reductions) to 2048 columns:
 * at 1024, 32 lanes x 4 loads against auto's register kernels: softmax
 * 0.84 against 0.80, log-softmax 0.86 against 0.81, LayerNorm 0.89 against
 * 0.74, RMSNorm 0.92 (wide) against 0.84; at 2048, 64 x 4 against 128 x 2:
 * softmax 0.86 against 0.84, LayerNorm 0.83 against 0.71 (RMSNorm's wide
 * 128 x 2 stays, 0.93); f32 rows of 257-512 elements ran faster on the
 * register kernels (0.95-0.99 against 0.89-0.92 staged, call 5), so the
 * staged kernels start past 512 elements whatever the type (past the
 * KGEN_ROWS_AUTO_BLOCKS entries since 2026-12-06: the entries below that
 * they hold are left for specs without those blocks, as of fewer threads).
 * A wide kernel is left out where a thread would hold more than 32
 * elements (half of the 64 registers a thread of 1024 has), as a wide
 * cluster is.  Softmax's and log-softmax's block of twice the threads, 8
 * loads each, for f32 rows of 16385-32768 elements: 0.926 of a copy
 * against the cluster of 2 blocks' 0.882 (bench/results/nvidia-h100/
 * 2026-12-06-rows-exact, sweep/, 16384 x 32768).  LayerNorm's wide blocks
 * of bf16 and f16 rows of 1025 to 4096, from the H100 sweeps of bench/
 * results/nvidia-h100/2026-12-06-rows-half (sweep/, 32768 rows, of a
 * copy, bf16 / f16, against the kernels of 512 threads then): 64 x 3 at
 * 1536 0.911 / 0.959 against 0.866 / 0.885 (at 1280 0.874 / 0.835 against
 * 0.825 / 0.799), 64 x 4 at 1792 0.932 / 0.926 against 0.828 / 0.825 (at
 * 2048 0.852 / 0.863 against 0.805 / 0.804), 128 x 3 at 3072 0.899 against
 * 0.891, 256 x 2 at 4096 0.955 against 0.843.  Rows a block holds by three
 * quarters or less lose: 128 x 2 ran at 0.735 / 0.699 at 1536, 256 x 2 at
 * 0.797 at 3072. */
#define KGEN_ROWS_AUTO_STAGED(X) \
	X(32, 4, 0, KGEN_ROWS_FOR_SOFTMAX | KGEN_ROWS_FOR_LN)  \
	X(32, 4, 1, KGEN_ROWS_FOR_RMS)                        \
	X(64, 3, 1, KGEN_ROWS_FOR_LN)                         \
	X(64, 4, 0, KGEN_ROWS_FOR_SOFTMAX)                    \
	X(64, 4, 1, KGEN_ROWS_FOR_LN)                         \
	X(128, 2, 1, KGEN_ROWS_FOR_RMS)                       \
	X(128, 3, 1, KGEN_ROWS_FOR_LN)                        \
	X(128, 4, 0, KGEN_ROWS_FOR_SOFTMAX | KGEN_ROWS_FOR_RMS) \
	X(256, 2, 1, KGEN_ROWS_FOR_LN)                        \
	X(256, 4, 0, KGEN_ROWS_FOR_SOFTMAX)                   \
	X(256, 4, 1, KGEN_ROWS_FOR_RMS | KGEN_ROWS_FOR_LN)    \
	X(0, 4, 0, KGEN_ROWS_FOR_SOFTMAX)                     \
	X(512, 4, 1, KGEN_ROWS_FOR_RMS | KGEN_ROWS_FOR_LN)    \
	X(0, 8, 0, KGEN_ROWS_FOR_SOFTMAX)                     \
	X(0, 4, 1, KGEN_ROWS_FOR_RMS | KGEN_ROWS_FOR_LN)      \
	X(0, 8, 1, KGEN_ROWS_FOR_SOFTMAX)
#define KGEN_ROWS_STAGED_FROM 512

/* strategy: auto's kernels of clusters (sm_90, as the staged ones): rows
 * longer than every staged kernel holds take the first cluster of
 * `blocks` blocks (lanes: a block's threads each) that holds them, each
 * block its part of vectors x threads loads; `wide` ones have blocks of
 * twice the spec's threads (at most 1024), where a thread's part of the
 * row is at most 32 floats (half of the 64 registers a thread of 1024
 * has: 4-byte elements; bf16's spilled 232-450 bytes).  Rows of 32768 to
 * 262144 bf16 (16384 to 262144 f32; f32 softmax's from 32769, past its
 * wide staged block) at threads 512; longer ones take the online kernel.  The wide cluster from the H100 run of bench/results/
 * nvidia-h100/2026-12-06-rows-blocks-long (f32, 8192 x 262144, of a copy):
 * softmax and log-softmax 0.96 against the online kernel's 0.64, RMSNorm
 * 0.85 against 0.64, LayerNorm 0.79 against 0.61 (8 x 512 threads x 16
 * loads: 0.96, 0.69, 0.63); reported inside auto from a second H100 run
 * (bench/results/nvidia-h100/2026-12-06-rows-exact, report/: softmax
 * 0.966 against the online kernel's 0.537).  Softmax's and log-softmax's
 * wide clusters of 2 and 4 blocks for f32 (that folder's sweep/, of a
 * copy, against the clusters of 512 threads): at 8192 x 65536 0.966
 * against 0.847, at 4096 x 131072 0.938 against 0.875; the norms keep
 * blocks of 512 there (wide 0.82-0.86 against 0.94-0.96).  Softmax's and
 * log-softmax's `half` clusters (blocks of half the spec's threads, 16
 * loads each), from the H100 sweep of bench/results/nvidia-h100/
 * 2026-12-06-rows-half (sweep/, bf16, of a copy, against the clusters of
 * 512 threads x 8): at 32768 x 65536 2 x 256 x 16 0.942 against 0.888,
 * at 8192 x 262144 8 x 256 x 16 0.936 against 0.854; taken for 2-byte
 * elements where the spec has 512 threads, the default (what was
 * measured: half of fewer would leave an SM 4 warps or less): f32 keeps
 * the wide clusters, other threads the spec's.  The norms' wide cluster
 * of 16 blocks x 4 loads (not portable: sm_90 GPUs that allow it; an H100
 * holds 7 at once, 112 SMs, against 15 clusters of 8) holds its part of
 * the weight and bias beside its stages, where 8 blocks of 8 loads (128 KB
 * of x a block) leave no room and read them from L2 every row: f32 of a
 * copy on an H100 (bench/results/nvidia-h100/2026-12-06-rows-cluster16,
 * fixed/, parts of 4096 vectors), RMSNorm 0.960-0.962 against 0.873-0.874
 * at 8192 x 262144, 0.945-0.948 against 0.824-0.829 at 4096 x 196608;
 * LayerNorm 0.951-0.954 against 0.872-0.876 and 0.772-0.774 against
 * 0.738-0.748; reported with even parts from a second run (even/): 0.957-
 * 0.959 at 8192 x 262144 both, LayerNorm of 140000 slower (0.583 against
 * 0.637), bf16 RMSNorm of 393216 0.956 against the online kernel's 0.581.
 * LayerNorm's cluster of 16 has the spec's threads (512) x 8 loads: the
 * blocks of 1024 were bound by instructions, not memory (ncu on an H200
 * at 4096 x 140000 f32: 1.40 G warp instructions at 2.44 an SM-cycle,
 * 2.61 ms, where RMSNorm's kernel executes 0.87 G), each thread's part of
 * a row's reductions repeated by twice the threads; 16 x 512 x 8 on an
 * H200 (bench/results/nvidia-h200/2026-12-06-rows-ln-cluster16), of a
 * copy, 0.557, 0.764 and 0.900 at 4096 x 140000, 196608 and 262144
 * against 0.417, 0.580 and 0.711.
 * A cluster that holds no longer rows than the kernel before
 * it is left out, but for the cluster of 8 after one of 16 (a GPU that
 * refuses 16 takes it). */
#define KGEN_ROWS_AUTO_CLUSTER(X) /* blocks, vectors, width, ops */ \
	X(2, 16, KGEN_ROWS_HALF, KGEN_ROWS_FOR_SOFTMAX) \
	X(2, 8, KGEN_ROWS_SPEC, KGEN_ROWS_FOR_ALL)      \
	X(2, 8, KGEN_ROWS_WIDE, KGEN_ROWS_FOR_SOFTMAX)  \
	X(4, 16, KGEN_ROWS_HALF, KGEN_ROWS_FOR_SOFTMAX) \
	X(4, 8, KGEN_ROWS_SPEC, KGEN_ROWS_FOR_ALL)      \
	X(4, 8, KGEN_ROWS_WIDE, KGEN_ROWS_FOR_SOFTMAX)  \
	X(8, 16, KGEN_ROWS_HALF, KGEN_ROWS_FOR_SOFTMAX) \
	X(8, 8, KGEN_ROWS_SPEC, KGEN_ROWS_FOR_ALL)      \
	X(16, 8, KGEN_ROWS_SPEC, KGEN_ROWS_FOR_LN)     \
	X(16, 4, KGEN_ROWS_WIDE, KGEN_ROWS_FOR_RMS)    \
	X(8, 8, KGEN_ROWS_WIDE, KGEN_ROWS_FOR_ALL)

/* Shared memory a staged kernel's stages may take, in bytes (of the 227 KB
 * a block of sm_90 may have). */
#define KGEN_ROWS_STAGE_BYTES (200 * 1024)

struct kgen_rows_choice {
	int lanes;                /* threads per row; 0: the block's; -1: the online kernel */
	int vectors;              /* loads each thread holds, or streams at a time */
	unsigned long long upto;  /* strategy: auto: the longest row it is given, in loads (0: any) */
	int stages;               /* a staged kernel's stages of rows in shared memory; 0: not staged */
	int cluster;              /* blocks a row, of a cluster (strategy cluster's staged kernels); 0: one */
	int threads;              /* the block's threads; 0: the spec's */
	int exact;                /* strategy: auto: a warp kernel's twin for rows of exactly its loads, x, y, the
	                           * weight and bias keeping whole vectors aligned (no bounds checked) */
};

/* The kernels of a checked spec in launch-table order, as the contract
 * lists them (its steps): for strategy auto every row of KGEN_ROWS_AUTO
 * the op takes, then the online kernel (lanes -1, vectors the online
 * batch), then the staged ones, then the clusters; for another strategy
 * its one kernel.
 * Returns the count. */
int kgen_rows_kernels(const struct kgen_spec *s, struct kgen_rows_choice *out, int max);

/* The longest row, in elements, that strategy auto's register kernels
 * take on sm_90 too (KGEN_ROWS_STAGED_FROM, or the longest row of the
 * spec's KGEN_ROWS_AUTO_BLOCKS entry): its staged kernels take longer ones. */
unsigned long long kgen_rows_staged_from(const struct kgen_spec *s);

/* The longest row, in loads of load_width bytes, that a kernel of choice c
 * holds (0: any: the online and the streaming cross_entropy kernels). */
unsigned long long kgen_rows_capacity(const struct kgen_spec *s, const struct kgen_rows_choice *c);

/* The threads of a block of a kernel of choice c. */
long long kgen_rows_block(const struct kgen_spec *s, const struct kgen_rows_choice *c);

/* Bytes of dynamic shared memory a kernel of choice c takes (its stages). */
long long kgen_rows_smem(const struct kgen_spec *s, const struct kgen_rows_choice *c);

/* Rows one block of choice c takes at once. */
long long kgen_rows_per_block(const struct kgen_spec *s, const struct kgen_rows_choice *c);

/* The ops' outputs and inputs: does op write y (else a loss), read a weight, a bias, labels? */
int kgen_rows_writes_y(const struct kgen_spec *s);
int kgen_rows_has_weight(const struct kgen_spec *s);
int kgen_rows_has_bias(const struct kgen_spec *s);

#endif
