/* matmul_hopper.h - `kernel: matmul` with `math: wgmma` (gen/matmul_hopper.c):
 * the parts of the family that are its own, which gen/matmul.c calls: its
 * rules (the threads they make into *threads), the dynamic shared memory of
 * `stages` stages, its launch contract (`order`: how blocks take tiles),
 * and the parts of the source that are its own: the constants (into
 * placeholder "constants" of the file), the helpers (into parts) and the
 * kernel. */
#ifndef KGEN_GEN_MATMUL_HOPPER_H
#define KGEN_GEN_MATMUL_HOPPER_H

#include "family.h"
#include "matmul_common.h"

struct tpl_args;

kgen_status kgen_matmul_wgmma_check(struct kgen_spec *s, long long *threads, kgen_error *err);
long long kgen_matmul_wgmma_smem(const struct kgen_spec *s, long long stages);
void kgen_matmul_wgmma_contract(const struct kgen_spec *s, struct kgen_contract *p, const char *order);
/* The contract's lines on A's and B's tensor maps (math: wgmma; math: mma
 * with loads: tma). */
void kgen_matmul_map_notes(const struct kgen_spec *s, struct kgen_contract *p);
/* unaligned: repack's kernel NAME_repack as a step of the contract, with
 * its note (kgen_matmul_repacks(); nothing otherwise). */
void kgen_matmul_repack_step(const struct kgen_spec *s, struct kgen_contract *p);
kgen_status kgen_matmul_wgmma_constants(const struct kgen_spec *s, struct tpl_args *file, kgen_error *err);
kgen_status kgen_matmul_wgmma_helpers(const struct kgen_spec *s, struct tpl_args *parts, kgen_error *err);
kgen_status kgen_matmul_wgmma_kernel(const struct kgen_spec *s, strbuf *out, kgen_error *err);

#endif
