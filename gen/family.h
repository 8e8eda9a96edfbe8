/*
 * family.h - a kernel family as one unit, the way each QBE back end is one
 * `struct Target`: its keys, the keys that apply only with another key's
 * values, its rules, its launch contract and its emitter, reached through
 * kgen_family_of().  Shared code (loader, validator, header comment,
 * runtime, CLI dispatch) names no family; docs/families.md says how to add
 * one.
 *
 * The launch contract (struct kgen_contract) is data: the kernels in launch
 * order, each with its arguments, grid, block and dynamic shared memory.
 * The header comment of a generated file is printed from it, and the
 * runtime finds the kernels' functions and sets their attributes from it.
 */
#ifndef KGEN_FAMILY_H
#define KGEN_FAMILY_H

#include "spec.h"

/* A key that applies only when another key has one of some values: when
 * the spec writes it anyway, `message` is the error ("{v}" is the key's
 * value, "{w}" the other key's), and the header comment leaves it out.
 * Rows for one key are checked in order; all must hold.  A key that does
 * not apply keeps its default, which is what rows about it test. */
struct kgen_only_with {
	enum kgen_key key, when;
	unsigned long long values;       /* bit v set: applies when `when` is v */
	const char *message;
};
#define KGEN_BIT(v) (1ull << (v))
/* Bits lo to hi (at most 63), for an integer key's row: the values lo to hi. */
#define KGEN_BITS_FROM_TO(lo, hi) ((~0ull >> (63 - (hi))) & ~(KGEN_BIT(lo) - 1))

/* A value of a key that needs a newer GPU than kgen's oldest target:
 * refused for an older --arch (kgen_spec_check_arch) with "KEY: VALUE
 * needs sm_MIN or newer (why), not ARCH: use instead", and named in the
 * header comment's "Needs:" line.  An arch_specific row needs the
 * features of sm_MINa alone (wgmma: neither older nor newer GPUs have
 * them): any other architecture is refused ("needs sm_90a"), and the
 * kernels are compiled for sm_MINa where sm_MIN is asked for
 * (kgen_spec_compile_arch).  A family's rows end with min_sm 0. */
struct kgen_arch_need {
	enum kgen_key key;
	unsigned long long values;       /* bit v set: the key's value v needs it */
	int min_sm;                      /* 90 for sm_90 */
	const char *why;                 /* what of that GPU it uses */
	const char *instead;             /* what works on an older one */
	int arch_specific;               /* sm_MINa exactly */
};

/* The newest architecture the spec's rows ask for (0 when none), and the
 * "key: value" of each row that asks, comma-separated, into buf; the
 * architecture an arch_specific row that asks is specific to (90 for
 * sm_90a's wgmma), 0 when none asks. */
int kgen_spec_min_sm(const struct kgen_spec *s, char *buf, size_t n);
int kgen_spec_arch_specific(const struct kgen_spec *s);

/* The number of an architecture kgen compiles for: 90 for "sm_90", "sm_90a"
 * or "compute_90" (two to four digits); -1 for any other text. */
int kgen_arch_number(const char *arch);
#define KGEN_ARCH_UNKNOWN "unknown architecture '%s': expected sm_NN, sm_NNa or compute_NN (e.g. sm_90)"

/* The architecture to compile s for when asked for arch: arch, or its
 * arch-specific form (sm_90 -> sm_90a, compute_90 -> compute_90a) when a
 * row of s needs it; in buf (n bytes), returned. */
/* (kgen_spec_compile_arch() is kgen.h's.) */

/* One kernel of a launch. */
struct kgen_step {
	char suffix[16];                 /* appended to the spec's name: "", "_init", "_final" */
	char args[96];                   /* its arguments, as the header shows them */
	char grid[32];                   /* "1", "grid", ... (the rule is in kgen_contract.notes) */
	long long block;                 /* threads per block */
	long long dynamic_smem;          /* bytes of dynamic shared memory; 0 for none */
	int optional;                    /* for some GPUs only: one without the shared memory it asks loads the
	                                  * rest, and the launcher never takes it there */
	int cluster;                     /* blocks a cluster, compiled into the kernel; 0: none */
	char note[160];                  /* after the launch, on the header's line; may be empty */
};

#define KGEN_MAX_STEPS 24  /* the most: strategy auto of kernel: rows, 18 kernels */

/* How a spec's kernels are launched: what the header comment says, and what
 * the runtime loads. */
struct kgen_contract {
	char title[160];                 /* "a sum reduction of f32" */
	char heading[160];               /* "Kernels (extern \"C\"), launched in this order ..." */
	int nsteps;
	int numbered;                    /* number the steps (1., 2., ...) */
	/* The kernels are alternatives (one a launch), each about as much
	 * work for NVRTC as the others: the runtime compiles them a kernel a
	 * program, side by side (runtime/context.c).  Kernels launched in
	 * turn (a tiny _init before the sum) stay one program: apart, the
	 * small one's program would cost a whole front end and save little. */
	int apart;
	/* Kernels launched in turn, each about as much work for NVRTC as the
	 * others (a two-pass reduction's pass and final pass): compiled a
	 * kernel a program, side by side, and all loaded at the build (not
	 * lazily), where the build has more than one thread and is not on a
	 * pool's own (a plan's entries: there they would not run at once). */
	int side_by_side;
	struct kgen_step step[KGEN_MAX_STEPS];
	char notes[3072];                /* the grid rule, result, scratch and alignment, as comment lines */
};

/* What sizes one call of a family: n elements, or a rows x cols matrix
 * (with a batch).  Size plans (kgen_plan) pick a spec by n: only the
 * families sized by n take them yet.  `kgen tune` takes --n or --shape by
 * it (cli/run.h's tuner hooks do the rest). */
#define KGEN_SIZES(X) \
	X(N,     "n elements",    1, "--n N, e.g. 1000, 16M, 2^30") \
	X(SHAPE, "rows and cols", 0, "--shape ROWSxCOLS or BATCHxROWSxCOLS, e.g. 8192x8192, 1x2^20, 64x1024x1024") \
	X(MNK,   "m, n and k",    1, "--shape MxNxK (C is M x N, A M x K, B K x N), e.g. 4096x4096x4096")
#define X(id, text, plans, option) KGEN_SIZE_##id,
enum kgen_size { KGEN_SIZES(X) KGEN_SIZE_COUNT };
#undef X
struct kgen_size_info {
	const char *text;                /* "n elements", for messages */
	int plans;                       /* plans take it (kgen tune --plan): by n, or by shape for m, n and k */
	const char *option;              /* how kgen run and kgen tune are given it, for messages */
};
extern const struct kgen_size_info kgen_sizes[KGEN_SIZE_COUNT];

struct kgen_family;
/* Do size plans (and so kgen tune --plan) take specs of the family? */
int kgen_family_takes_plans(const struct kgen_family *f);
/* The families that do, "kernel: reduce" (or ", "-joined), for messages. */
const char *kgen_plan_families(void);

struct kgen_key_default {
	enum kgen_key key;
	const char *text;
};

/* The default `kgen keys` prints for key k of family f. */
const char *kgen_family_default(const struct kgen_family *f, enum kgen_key k);

struct kgen_family {
	const char *name;                /* the value of `kernel:` */
	enum kgen_size size;             /* what one call's size is */
	const enum kgen_key *keys;       /* the keys it reads, KGEN_KEY_COUNT-terminated */
	/* The keys that say what a spec computes and what a call hands it, not
	 * how (op, the types, axis, ...), KGEN_KEY_COUNT-terminated: every
	 * entry of a size plan and every point of a tuning agree on them, and
	 * on `kernel` (kgen_spec_computes_other, plan.c). */
	const enum kgen_key *computes;
	const struct kgen_only_with *only_with;  /* terminated by a row whose message is NULL */
	const struct kgen_arch_need *arch_needs; /* terminated by a row whose min_sm is 0; may be NULL */
	/* The family's defaults where they are not the key table's (what
	 * `kgen keys` prints): a constant the family's check sets ("512"), or ""
	 * where the family derives it from other keys; terminated by
	 * KGEN_KEY_COUNT; may be NULL.  tests/spec_test.c checks the constants
	 * against a spec of `kernel:` alone. */
	const struct kgen_key_default *defaults;
	/* The keys whose type may be fp8 (e4m3, e5m2), KGEN_KEY_COUNT-terminated;
	 * NULL: none (kgen_spec_check refuses fp8 in every other type key). */
	const enum kgen_key *fp8_keys;
	/* Optional: derived defaults the only-with rows read, resolved after
	 * the op's types and before those rows (reduce: stages follows an op
	 * with a last step). */
	kgen_status (*resolve)(struct kgen_spec *s, kgen_error *err);
	/* The family's rules, after the shared ones; resolves derived defaults
	 * (threads, the kernel name, ...). */
	kgen_status (*check)(struct kgen_spec *s, kgen_error *err);
	/* The launch contract of a checked spec. */
	void (*contract)(const struct kgen_spec *s, struct kgen_contract *p);
	/* The whole CUDA source of a checked spec; `header` is the comment
	 * block kgen_emit_header() made. */
	kgen_status (*emit)(const struct kgen_spec *s, const char *header, strbuf *out, kgen_error *err);
	/* Optional: whether a checked spec runs over several GPUs (kgen_multi_*,
	 * kgen run --devices): NULL when it does, else why not.  A family
	 * without it never does. */
	const char *(*multi_gpu)(const struct kgen_spec *s);
};

/* Why a checked spec cannot run over several GPUs: its family's reason, or
 * that the family does not; NULL when it can. */
const char *kgen_multi_gpu_refusal(const struct kgen_spec *s);

/* The family of a spec whose `kernel` is set. */
const struct kgen_family *kgen_family_of(const struct kgen_spec *s);
const struct kgen_family *kgen_family(enum kgen_family_id id);

/* Is key k one of the family's keys?  Does it apply to this spec (its
 * family's, every only-with row for it holds, and, for an integer, the
 * checked spec's value is in its range: not a derived "none")? */
int kgen_family_has_key(const struct kgen_family *f, enum kgen_key k);
int kgen_key_applies(const struct kgen_spec *s, enum kgen_key k);

/* The index of key `name` among the keys of family `kernel` (an enum
 * kgen_family_id) first, then among all (the key of the first family that
 * has one by that name: the family's rules then say it does not apply),
 * or -1; two families may each have a key of one name. */
int kgen_key_lookup_for(long long kernel, const char *name);

/* Whether family f takes the fp8 types in key k (its fp8_keys). */
int kgen_family_takes_fp8(const struct kgen_family *f, enum kgen_key k);

/* The values family f takes in key k, a bit a value: of an enum or a set,
 * its values less those the family's rows of k on k itself refuse (an
 * only-with row whose key and when are k: "order: {v} is matmul's") and
 * the fp8 types where the family has none; of an integer key with such a
 * row, the integers it lists; 0 for an integer key that takes its range. */
unsigned long long kgen_family_values(const struct kgen_family *f, enum kgen_key k);

/* The key of family `kernel` nearest to `name`, for "did you mean" (another
 * family's would only be refused next), or NULL. */
const char *kgen_key_nearest_for(long long kernel, const char *name);

/* The only-with rows: an error for the first key the spec writes that does
 * not apply. */
kgen_status kgen_check_only_with(const struct kgen_spec *s, kgen_error *err);

/* The header comment of a generated file: title, the applicable keys, the
 * plan's kernels and notes. */
void kgen_emit_header(const struct kgen_spec *s, const struct kgen_contract *p, strbuf *b);

/* printf into a fixed buffer of a plan (truncation is a bug: the buffers
 * are sized for the longest text). */
void kgen_contract_printf(char *buf, size_t n, const char *fmt, ...) KGEN_PRINTF(3, 4);
/* Append to p->notes. */
void kgen_contract_note(struct kgen_contract *p, const char *fmt, ...) KGEN_PRINTF(2, 3);
/* Add a step; returns it. */
struct kgen_step *kgen_contract_step(struct kgen_contract *p, const char *suffix, const char *args, const char *grid,
                                 long long block);

/* Shared rules (check.c). */
int kgen_is_pow2(long long v);
/* Was key k written in the spec (or set), as opposed to defaulted? */
#define KGEN_GIVEN(s, k) ((s)->pos[KGEN_KEY_##k].line != 0)

/* One extern const struct kgen_family per row of KGEN_FAMILIES. */
#define X(id, name, doc, stem) extern const struct kgen_family kgen_family_##stem;
KGEN_FAMILIES(X)
#undef X

/* The source of kernel `step` of p alone: source (s's file, from
 * kgen_generate) less every other kernel's definition and the comment
 * lines right above it, for NVRTC to compile a spec's kernels apart, side
 * by side (step_source.c).  KGEN_EINTERNAL when source does not hold each
 * of p's kernels once in the templates' form. */
kgen_status kgen_step_source(const struct kgen_spec *s, const struct kgen_contract *p, const char *source, int step,
                             char **out, kgen_error *err);

/* An NVRTC error in the log of source (generated from s) that lies in an
 * expression of op: custom, reported at the expression in the spec
 * (KGEN_ESPEC); KGEN_OK when the log has none. */
kgen_status kgen_locate_log(const struct kgen_spec *s, const char *source, const char *log, kgen_error *err);

#endif
