/*
 * ptx.h - the PTX helpers of templates/ptx/, shared by every family whose
 * kernels use them (as CuTe's copy_sm90_tma.hpp and cutlass/arch/barrier.h
 * are): each PTX instruction wrapped once in a small named device function,
 * one template file per PTX family, one section per helper.  An emitter
 * names the helpers its kernel calls (struct kgen_ptx's `uses`) and gets
 * exactly those, in the table's order: an unused static helper would be an
 * NVRTC warning.
 */
#ifndef KGEN_PTX_H
#define KGEN_PTX_H

#include "util.h"

/* The PTX families, in the order their helpers are written: one template
 * file each, templates/ptx/<name>.cu. */
#define KGEN_PTX_FILES(X) \
	X(smem_addr) \
	X(mbarrier) \
	X(barrier) \
	X(dsmem) \
	X(tma) \
	X(cp_async) \
	X(ldmatrix) \
	X(mma) \
	X(wgmma) \
	X(setmaxnreg)

/* The helpers: name (the section of its file, and the device function it
 * defines but where said) and file. */
#define KGEN_PTX_HELPERS(X) \
	X(smem, smem_addr)                      /* the shared-memory address of a generic pointer */ \
	X(mbarrier_init, mbarrier) \
	X(fence_mbarrier_init, mbarrier) \
	X(mbarrier_arrive_expect_tx, mbarrier) \
	X(mbarrier_arrive, mbarrier) \
	X(mbarrier_arrive_cluster, mbarrier)    /* on the other block of a cluster's mbarrier */ \
	X(mbarrier_wait, mbarrier) \
	X(warpgroup_sync, barrier)              /* a named barrier of a warpgroup's 128 threads */ \
	X(pair_arrive, barrier)                 /* a named barrier of two warpgroups: arrive, not waiting */ \
	X(pair_wait, barrier)                   /* and wait there for the other warpgroup's arrival */ \
	X(cluster_sync, barrier) \
	X(dsmem_load, dsmem)                    /* a float of another block of the cluster's shared memory */ \
	X(dsmem_store_async, dsmem)             /* a float into it, completing on its mbarrier */ \
	X(dsmem_store_async_v4, dsmem)          /* four floats into it, likewise */ \
	X(dsmem_load_u64, dsmem)                /* 8 bytes of another block of the cluster's shared memory */ \
	X(dsmem_store_u64, dsmem)               /* 8 bytes into it (seen after the cluster's barrier) */ \
	X(tensor_map, tma)                      /* struct CUtensorMap */ \
	X(fence_proxy_async_shared, tma) \
	X(l2_evict_first, tma)                  /* an L2 cache policy for the _hint copies */ \
	X(bulk_load, tma)                       /* bytes from global to shared memory, no tensor map */ \
	X(tma_load_2d, tma) \
	X(tma_prefetch_2d, tma)                 /* a box of a tensor map into L2 */ \
	X(tma_load_2d_multicast, tma) \
	X(tma_load_3d, tma) \
	X(tma_load_3d_hint, tma)                /* tma_load_3d with an L2 cache policy */ \
	X(tma_store_2d, tma) \
	X(tma_store_3d, tma) \
	X(tma_store_3d_hint, tma)               /* tma_store_3d with an L2 cache policy */ \
	X(bulk_commit_group, tma) \
	X(bulk_wait_group_read, tma) \
	X(bulk_wait_group, tma) \
	X(cp_async, cp_async) \
	X(cp_async_commit, cp_async) \
	X(cp_async_wait, cp_async) \
	X(ldmatrix_x4, ldmatrix) \
	X(mma_16816, mma)                       /* mma.sync m16n8k16 of struct kgen_ptx's mma_type */ \
	X(wgmma_fence, wgmma) \
	X(wgmma_commit_group, wgmma) \
	X(wgmma_wait_group, wgmma) \
	X(wgmma_fence_operand, wgmma) \
	X(smem_desc, wgmma) \
	X(wgmma, wgmma)                         /* wgmma.mma_async m64nNk16 (fp8: k32) of struct kgen_ptx's wgmma_* */ \
	X(setmaxnreg_dec, setmaxnreg) \
	X(setmaxnreg_inc, setmaxnreg)

#define X(name, file) KGEN_PTX_##name,
enum kgen_ptx_helper { KGEN_PTX_HELPERS(X) KGEN_PTX_HELPER_COUNT };
#undef X

#define KGEN_PTX_BIT(name) (1ull << KGEN_PTX_##name)

/* What a kernel takes from templates/ptx/. */
struct kgen_ptx {
	unsigned long long uses;  /* KGEN_PTX_BIT() of each helper it calls */
	const char *mma_type;     /* mma_16816 and wgmma: the element type, "f16" or "bf16"; wgmma also "e4m3", "e5m2" */
	const char *mma_type_b;   /* wgmma: B's, where it differs (fp8: e4m3 x e5m2); NULL: mma_type */
	int wgmma_n;              /* wgmma: N of m64nNk16 (the tile's columns, 8 to 256) */
	int wgmma_trans_a;        /* wgmma: A is read transposed (M-major in shared memory) */
	int wgmma_trans_b;        /* and B (N-major) */
};

struct tpl_args;
/* The helpers p->uses, each file's a blank line apart, into placeholder
 * `name` of parent (empty when p->uses is 0). */
kgen_status kgen_ptx_render_into(struct tpl_args *parent, const char *name, const struct kgen_ptx *p, kgen_error *err);

#endif
