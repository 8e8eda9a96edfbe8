/*
 * multi_test.c - kgen_multi_* (runtime/multi.c) without GPUs: against the
 * fake driver with FAKE_CUDA_DEVICES GPUs and the fake NCCL
 * (tests/fake_nccl/), put first on LD_LIBRARY_PATH by tests/multi_test.sh.
 *
 * The fake driver runs no kernel: each GPU's own reduction is played by the
 * test, which writes the partial that GPU's kernel would have written where
 * NCCL's call reads it (fake_nccl_before_group).  NCCL's collectives then
 * compute for real, so that a sum over GPUs is checked end to end; where the
 * generated combine kernel finishes the work (gathered partials, last
 * steps) its launch is checked: on which GPUs, with which partials, counts
 * and global index offsets.  The kernels themselves (the partial spec's and
 * the combine's) are compiled by NVRTC for real.  What only a GPU can show
 * (the combine's ties and NaNs across GPUs, the numbers) is
 * tests/gpu_verify.sh's and `kgen run --devices`'s.
 */
#include "config.h"
#include <check.h>
#include <dlfcn.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "fake_cuda/fake_cuda.h"

#define NDEV 3

struct fake_nccl_call {
	char name[16];
	int rank, nranks, root;
	const void *send;
	void *recv;
	size_t count;
	int type, op;
	void *stream;
};

static struct fake_launch *launches;
static int *nlaunches, *watch_nparams, *watch_param, *watches;
static char *watch;
static unsigned long long *args;    /* the watched launch's parameters, 8 bytes of each */
static unsigned char *watched;      /* its parameter *watch_param, whole */
static struct fake_nccl_call *calls;
static int *ncalls, *inits, *comms;
static void (**before_group)(struct fake_nccl_call *, int);

static void *
sym(const char *lib, const char *name)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL), *v;

	ck_assert_msg(h != NULL, "%s: %s", lib, dlerror());
	v = dlsym(h, name);
	ck_assert_msg(v != NULL, "%s lacks %s: run tests/multi_test.sh", lib, name);
	return v;
}

static void
setup(void)
{
	launches = sym("libcuda.so.1", "fake_cuda_launches");
	nlaunches = sym("libcuda.so.1", "fake_cuda_nlaunches");
	watch = sym("libcuda.so.1", "fake_cuda_watch");
	watch_nparams = sym("libcuda.so.1", "fake_cuda_watch_nparams");
	watch_param = sym("libcuda.so.1", "fake_cuda_watch_param");
	watches = sym("libcuda.so.1", "fake_cuda_watches");
	args = sym("libcuda.so.1", "fake_cuda_watched_args");
	watched = sym("libcuda.so.1", "fake_cuda_watched");
	calls = sym("libnccl.so.2", "fake_nccl_calls");
	ncalls = sym("libnccl.so.2", "fake_nccl_ncalls");
	inits = sym("libnccl.so.2", "fake_nccl_inits");
	comms = sym("libnccl.so.2", "fake_nccl_comms");
	before_group = sym("libnccl.so.2", "fake_nccl_before_group");
}

static kgen_multi *
open_set(int n)
{
	static const int devices[] = { 0, 1, 2, 3 };
	kgen_multi *m = NULL;
	kgen_error err;

	ck_assert_msg(kgen_multi_create(devices, n, &m, &err) == KGEN_OK, "%s", err.message);
	return m;
}

static kgen_multi_kernel *
build(kgen_multi *m, const char *yaml)
{
	kgen_multi_kernel *k = NULL;
	kgen_spec *s = NULL;
	kgen_error err;

	ck_assert_msg(kgen_spec_load_string(yaml, strlen(yaml), "test.yaml", &s, &err) == KGEN_OK, "%s", err.message);
	ck_assert_msg(kgen_multi_build(m, s, &k, &err) == KGEN_OK, "%s", err.message);
	kgen_spec_free(s);
	return k;
}

/* A failure whose message holds `want`. */
#define ck_fails(call, status, want) \
	do { \
		kgen_error e_; \
		memset(&e_, 0, sizeof e_); \
		ck_assert_int_eq((call), (status)); \
		ck_assert_msg(strstr(e_.message, (want)) != NULL, "message: %s\nwanted: %s", e_.message, (want)); \
	} while (0)
#define ERR (&e_)

/* Watch k's combine kernel: its 7 parameters, the offsets (the 5th) whole. */
static void
watch_combine(const kgen_multi_kernel *k)
{
	char name[48];

	kgen_spec_get(kgen_multi_kernel_spec(k), "name", name, sizeof name);
	snprintf(watch, 64, "%s_multi", name);
	*watch_nparams = 7;
	*watch_param = 4;
	*watches = 0;
}

/* Launches named `name` since launch `from`. */
static int
launches_of(const char *name, int from)
{
	int i, n = 0;

	for (i = from; i < *nlaunches; i++)
		n += !strcmp(launches[i % 256].name, name);
	return n;
}

/* ---- the set ---- */

START_TEST(create_checks_the_devices)
{
	const int twice[] = { 0, 1, 0 }, missing[] = { 0, 7 }, negative[] = { 1, -1 };
	kgen_multi *m = (kgen_multi *)1;

	ck_fails(kgen_multi_create(NULL, 2, &m, ERR), KGEN_EINVAL, "devices is NULL");
	ck_assert_ptr_null(m);
	ck_fails(kgen_multi_create(twice, 0, &m, ERR), KGEN_EINVAL, "no devices");
	ck_fails(kgen_multi_create(twice, 3, &m, ERR), KGEN_EINVAL, "device 0 is listed twice (at 0 and 2)");
	ck_fails(kgen_multi_create(negative, 2, &m, ERR), KGEN_EINVAL, "device -1 is negative");
	ck_fails(kgen_multi_create(missing, 2, &m, ERR), KGEN_ECUDA, "no GPU number 7: this machine has 4");
	ck_assert_int_eq(*inits, 0);  /* nothing reached NCCL */
}
END_TEST

/* Without NCCL: an error that names the library, and how to give one. */
START_TEST(missing_nccl_is_named)
{
	const int devices[] = { 0, 1 };
	kgen_multi *m = NULL;

	setenv("KGEN_NCCL_LIBRARY", "libnccl-not-here.so.2", 1);
	ck_fails(kgen_multi_create(devices, 2, &m, ERR), KGEN_ECUDA, "no NCCL: dlopen(libnccl-not-here.so.2)");
	ck_fails(kgen_multi_create(devices, 2, &m, ERR), KGEN_ECUDA, "KGEN_NCCL_LIBRARY");
	ck_assert_ptr_null(m);
	unsetenv("KGEN_NCCL_LIBRARY");
}
END_TEST

/* A library that is not NCCL (here the fake CUDA driver): the first call
 * it lacks, named. */
START_TEST(a_library_without_nccl_calls_is_refused)
{
	const int devices[] = { 0, 1 };
	kgen_multi *m = NULL;

	setenv("KGEN_NCCL_LIBRARY", "libcuda.so.1", 1);
	ck_fails(kgen_multi_create(devices, 2, &m, ERR), KGEN_ECUDA, "libcuda.so.1 lacks nccl");
	ck_fails(kgen_multi_create(devices, 2, &m, ERR), KGEN_ECUDA, "(NCCL too old?)");
	ck_assert_ptr_null(m);
	unsetenv("KGEN_NCCL_LIBRARY");
}
END_TEST

START_TEST(nccl_failure_is_an_error)
{
	const int devices[] = { 0, 1 };
	kgen_multi *m = NULL;

	setenv("FAKE_NCCL_FAIL", "ncclCommInitAll", 1);
	ck_fails(kgen_multi_create(devices, 2, &m, ERR), KGEN_ECUDA, "ncclCommInitAll(): NCCL error 3: internal error");
	unsetenv("FAKE_NCCL_FAIL");
	ck_assert_int_eq(*comms, 0);
}
END_TEST

/* One ncclCommInitAll per set, kept across builds and calls, destroyed with it. */
START_TEST(communicators_made_once)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *a, *b;
	kgen_devptr in[NDEV], out[NDEV];
	unsigned long long n[NDEV] = { 10, 20, 30 };
	float x[64], r[NDEV];
	kgen_error err;
	int i, call;

	ck_assert_int_eq(*inits, 1);
	ck_assert_int_eq(*comms, NDEV);
	ck_assert_int_eq(kgen_multi_count(m), NDEV);
	ck_assert_ptr_nonnull(kgen_multi_context(m, 2));
	ck_assert_ptr_null(kgen_multi_context(m, 3));
	a = build(m, "kernel: reduce\nop: sum\ndtype: f32\n");
	b = build(m, "kernel: reduce\nop: sum\ndtype: f32\n");
	ck_assert_ptr_eq(a, b);
	for (i = 0; i < NDEV; i++) {
		in[i] = (kgen_devptr)(uintptr_t)x;
		out[i] = (kgen_devptr)(uintptr_t)&r[i];
	}
	for (call = 0; call < 3; call++)
		ck_assert_msg(kgen_multi_reduce(a, in, n, out, KGEN_MULTI_ALL, NULL, &err) == KGEN_OK, "%s", err.message);
	ck_assert_int_eq(*inits, 1);
	kgen_multi_destroy(m);
	ck_assert_int_eq(*comms, 0);
}
END_TEST

/* ---- NCCL reduces ---- */

/* The test's stand-in for GPU r's kernel: its partial, where NCCL reads it. */
static void
partial_sums(struct fake_nccl_call *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (c[i].send)
			*(float *)c[i].send = 1.5f * (float)(c[i].rank + 1);
}

/* A sum: the GPUs' partials all-reduced by NCCL straight into every out. */
START_TEST(sum_is_all_reduced_into_every_out)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *k = build(m, "kernel: reduce\nop: sum\ndtype: f32\n");
	kgen_stream streams[NDEV] = { (kgen_stream)0x10, (kgen_stream)0x20, (kgen_stream)0x30 };
	unsigned long long n[NDEV] = { 1000, 0, 5 };
	float x[8], r[NDEV] = { 0 };
	kgen_devptr in[NDEV] = { (kgen_devptr)(uintptr_t)x, 0, (kgen_devptr)(uintptr_t)x }, out[NDEV];
	kgen_error err;
	int i, l0 = *nlaunches;

	for (i = 0; i < NDEV; i++)
		out[i] = (kgen_devptr)(uintptr_t)&r[i];
	*ncalls = 0;
	*before_group = partial_sums;
	ck_assert_msg(kgen_multi_reduce(k, in, n, out, KGEN_MULTI_ALL, streams, &err) == KGEN_OK, "%s", err.message);
	*before_group = NULL;
	ck_assert_int_eq(*ncalls, NDEV);
	for (i = 0; i < NDEV; i++) {
		ck_assert_str_eq(calls[i].name, "ncclAllReduce");
		ck_assert_int_eq(calls[i].rank, i);
		ck_assert_uint_eq(calls[i].count, 1);
		ck_assert_int_eq(calls[i].type, 7);  /* ncclFloat32 */
		ck_assert_int_eq(calls[i].op, 0);    /* ncclSum */
		ck_assert_ptr_eq(calls[i].recv, &r[i]);
		ck_assert_ptr_eq(calls[i].stream, streams[i]);
		ck_assert_float_eq(r[i], 9.0f);      /* 1.5 + 3 + 4.5 */
	}
	ck_assert_int_eq(launches_of("reduce_sum_f32_multi", l0), 0);  /* no last step: no combine kernel */
	for (i = l0; i < *nlaunches; i++)  /* each GPU's own kernels on its own stream */
		ck_assert(launches[i % 256].stream == streams[0] || launches[i % 256].stream == streams[1] ||
		          launches[i % 256].stream == streams[2]);
	kgen_multi_destroy(m);
}
END_TEST

/* To one root: ncclReduce; the others' out is not read. */
START_TEST(sum_to_a_root)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *k = build(m, "kernel: reduce\nop: sum\ndtype: f32\n");
	unsigned long long n[NDEV] = { 4, 4, 4 };
	float x[8], r = 0;
	kgen_devptr in[NDEV], out[NDEV] = { 0, (kgen_devptr)(uintptr_t)&r, 0 };
	kgen_error err;
	int i;

	for (i = 0; i < NDEV; i++)
		in[i] = (kgen_devptr)(uintptr_t)x;
	*ncalls = 0;
	*before_group = partial_sums;
	ck_assert_msg(kgen_multi_reduce(k, in, n, out, 1, NULL, &err) == KGEN_OK, "%s", err.message);
	*before_group = NULL;
	for (i = 0; i < NDEV; i++) {
		ck_assert_str_eq(calls[i].name, "ncclReduce");
		ck_assert_int_eq(calls[i].root, 1);
	}
	ck_assert_float_eq(r, 9.0f);
	kgen_multi_destroy(m);
}
END_TEST

/* mean: each GPU sums (in i64 for i32), NCCL sums the sums in place, and
 * the combine kernel divides by every GPU's count, on every GPU. */
START_TEST(mean_sums_then_divides_by_the_total)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *k = build(m, "kernel: reduce\nop: mean\ndtype: i32\n");
	unsigned long long n[NDEV] = { 100, 200, 300 };
	int x[8];
	double r[NDEV];
	kgen_devptr in[NDEV], out[NDEV];
	kgen_error err;
	int i, l0 = *nlaunches;

	for (i = 0; i < NDEV; i++) {
		in[i] = (kgen_devptr)(uintptr_t)x;
		out[i] = (kgen_devptr)(uintptr_t)&r[i];
	}
	ck_assert_str_eq(kgen_spec_get(kgen_kernel_spec(kgen_multi_local(k, 0)), "op", (char[32]){ 0 }, 32), "sum");
	*ncalls = 0;
	watch_combine(k);
	ck_assert_msg(kgen_multi_reduce(k, in, n, out, KGEN_MULTI_ALL, NULL, &err) == KGEN_OK, "%s", err.message);
	for (i = 0; i < NDEV; i++) {
		ck_assert_str_eq(calls[i].name, "ncclAllReduce");
		ck_assert_int_eq(calls[i].type, 4);  /* ncclInt64: mean of i32 accumulates in i64 */
		ck_assert_ptr_eq(calls[i].send, calls[i].recv);
	}
	ck_assert_int_eq(*watches, NDEV);
	ck_assert_int_eq(launches_of(watch, l0), NDEV);
	ck_assert_ptr_eq((void *)(uintptr_t)args[0], calls[NDEV - 1].recv);  /* NCCL's sum, on the last GPU */
	ck_assert_uint_eq(args[2] & 0xffffffffu, 1);  /* nparts: NCCL's sum */
	ck_assert_uint_eq(args[3], 1);                 /* count */
	ck_assert_uint_eq(args[5], out[NDEV - 1]);     /* out */
	ck_assert_uint_eq(args[6], 600);               /* n: every GPU's */
	kgen_multi_destroy(m);
}
END_TEST

/* ---- gathered partials ---- */

/* GPU r's argmax: value 7 at local index r (GPU 1 had no element: -1). */
static void
partial_pairs(struct fake_nccl_call *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (c[i].send) {
			long long idx = c[i].rank == 1 ? -1 : c[i].rank;
			float v = 7.0f;
			memcpy((char *)c[i].send, &idx, 8);
			memcpy((char *)c[i].send + 8, &v, 4);
		}
}

/* argmax: every GPU's (index, value) gathered in place on every GPU, then
 * combined there with the global offsets 0, 5, 5 (GPU 1 holds nothing). */
START_TEST(argmax_gathers_pairs_with_global_offsets)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *k = build(m, "kernel: reduce\nop: argmax\ndtype: f32\n");
	unsigned long long n[NDEV] = { 5, 0, 7 };
	float x[8], v[NDEV];
	long long idx[NDEV];
	kgen_devptr in[NDEV] = { (kgen_devptr)(uintptr_t)x, 0, (kgen_devptr)(uintptr_t)x }, value[NDEV], index[NDEV];
	const long long *offsets = (const long long *)watched;
	kgen_error err;
	int i, p, l0 = *nlaunches;

	for (i = 0; i < NDEV; i++) {
		value[i] = (kgen_devptr)(uintptr_t)&v[i];
		index[i] = (kgen_devptr)(uintptr_t)&idx[i];
	}
	ck_fails(kgen_multi_reduce(k, in, n, value, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "kgen_multi_reduce: op: argmax writes a value and an index: call kgen_multi_reduce_arg()");
	*ncalls = 0;
	watch_combine(k);
	*before_group = partial_pairs;
	ck_assert_msg(kgen_multi_reduce_arg(k, in, n, value, index, KGEN_MULTI_ALL, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	*before_group = NULL;
	ck_assert_int_eq(*ncalls, NDEV);
	for (i = 0; i < NDEV; i++) {
		const char *all = calls[i].recv;
		ck_assert_str_eq(calls[i].name, "ncclAllGather");
		ck_assert_uint_eq(calls[i].count, 16);  /* bytes: an index and a value, 8-aligned */
		ck_assert_ptr_eq(calls[i].send, all + 16 * i);
		for (p = 0; p < NDEV; p++) {  /* every GPU's pair, on every GPU */
			long long got;
			memcpy(&got, all + 16 * p, 8);
			ck_assert_int_eq(got, p == 1 ? -1 : p);
			ck_assert_float_eq(*(const float *)(all + 16 * p + 8), 7.0f);
		}
	}
	ck_assert_int_eq(*watches, NDEV);
	ck_assert_int_eq(launches_of(watch, l0), NDEV);
	ck_assert_ptr_eq((void *)(uintptr_t)args[0], calls[NDEV - 1].recv);  /* the gathered pairs */
	ck_assert_uint_eq(args[1], 16);                  /* stride */
	ck_assert_uint_eq(args[2] & 0xffffffffu, NDEV);  /* nparts */
	ck_assert_uint_eq(args[3], 1);                   /* count */
	ck_assert_uint_eq(args[5], value[NDEV - 1]);     /* Results: value first, then index */
	ck_assert_uint_eq(args[6], 12);                  /* n */
	ck_assert_int_eq(offsets[0], 0);
	ck_assert_int_eq(offsets[1], 5);
	ck_assert_int_eq(offsets[2], 5);
	kgen_multi_destroy(m);
}
END_TEST

/* To a root: the others send their pair, the root receives each and alone combines. */
START_TEST(argmax_to_a_root_sends_and_receives)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *k = build(m, "kernel: reduce\nop: argmax\ndtype: f32\n");
	unsigned long long n[NDEV] = { 5, 6, 7 };
	float x[8], v;
	long long idx;
	kgen_devptr in[NDEV], value[NDEV] = { 0, 0, (kgen_devptr)(uintptr_t)&v }, index[NDEV] = { 0, 0, (kgen_devptr)(uintptr_t)&idx };
	kgen_error err;
	int i, sends = 0, recvs = 0, l0 = *nlaunches;
	const char *all = NULL;

	for (i = 0; i < NDEV; i++)
		in[i] = (kgen_devptr)(uintptr_t)x;
	*ncalls = 0;
	*before_group = partial_pairs;
	ck_assert_msg(kgen_multi_reduce_arg(k, in, n, value, index, 2, NULL, &err) == KGEN_OK, "%s", err.message);
	*before_group = NULL;
	for (i = 0; i < *ncalls; i++) {
		if (!strcmp(calls[i].name, "ncclSend")) {
			sends++;
			ck_assert_int_eq(calls[i].root, 2);
		} else {
			recvs++;  /* matched receives are renamed "xcclRecv" by the fake */
			ck_assert_int_eq(calls[i].rank, 2);
			all = (const char *)calls[i].recv - 16 * calls[i].root;
		}
	}
	ck_assert_int_eq(sends, 2);
	ck_assert_int_eq(recvs, 2);
	{
		long long got;
		memcpy(&got, all, 8);
		ck_assert_int_eq(got, 0);  /* GPU 0's pair, received into its slot on GPU 2 */
	}
	ck_assert_int_eq(launches_of("reduce_argmax_f32_multi", l0), 1);
	ck_assert_ptr_null(launches[(*nlaunches - 1) % 256].stream);  /* the default stream of GPU 2 */
	kgen_multi_destroy(m);
}
END_TEST

/* reduce_axis along columns: cols partials per GPU; argmax's offsets are rows. */
START_TEST(columns_over_gpus)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *k = build(m, "kernel: reduce_axis\naxis: cols\nop: argmin\ndtype: f32\n");
	kgen_multi_kernel *s = build(m, "kernel: reduce_axis\naxis: cols\nop: sum\ndtype: f32\n");
	unsigned long long rows[NDEV] = { 3, 4, 5 };
	float x[64 * 12], v[NDEV][10], sums[NDEV][10];
	long long idx[NDEV][10];
	kgen_devptr in[NDEV], value[NDEV], index[NDEV], out[NDEV];
	const long long *offsets = (const long long *)watched;
	kgen_error err;
	int i, l0 = *nlaunches;

	for (i = 0; i < NDEV; i++) {
		in[i] = (kgen_devptr)(uintptr_t)x;
		value[i] = (kgen_devptr)(uintptr_t)v[i];
		index[i] = (kgen_devptr)(uintptr_t)idx[i];
		out[i] = (kgen_devptr)(uintptr_t)sums[i];
	}
	*ncalls = 0;
	watch_combine(k);
	ck_assert_msg(kgen_multi_reduce_axis_arg(k, in, rows, 10, 0, value, index, KGEN_MULTI_ALL, NULL, &err) == KGEN_OK,
	              "%s", err.message);
	ck_assert_str_eq(calls[0].name, "ncclAllGather");
	ck_assert_uint_eq(calls[0].count, 10 * 8 + 40);  /* 10 indices, 10 f32 values */
	ck_assert_int_eq(*watches, NDEV);
	ck_assert_int_eq(launches_of(watch, l0), NDEV);
	ck_assert_uint_eq(args[3], 10);  /* count: the columns */
	ck_assert_uint_eq(args[6], 12);  /* n: every GPU's rows */
	ck_assert_int_eq(offsets[1], 3);
	ck_assert_int_eq(offsets[2], 7);
	*ncalls = 0;
	ck_assert_msg(kgen_multi_reduce_axis(s, in, rows, 10, 16, out, KGEN_MULTI_ALL, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	ck_assert_str_eq(calls[0].name, "ncclAllReduce");
	ck_assert_uint_eq(calls[0].count, 10);
	ck_assert_ptr_eq(calls[0].recv, sums[0]);
	kgen_multi_destroy(m);
}
END_TEST

/* ---- what is refused, before anything is launched ---- */

START_TEST(calls_are_checked_first)
{
	kgen_multi *m = open_set(NDEV);
	kgen_multi_kernel *k = build(m, "kernel: reduce\nop: sum\ndtype: f32\n"), *out_k = NULL;
	unsigned long long n[NDEV] = { 4, 4, 4 }, zero[NDEV] = { 0, 0, 0 };
	float x[8], r[NDEV];
	kgen_devptr in[NDEV], out[NDEV], holes[NDEV] = { 0 };
	kgen_spec *t = NULL;
	kgen_error err;
	int i, l0, c0;

	for (i = 0; i < NDEV; i++) {
		in[i] = (kgen_devptr)(uintptr_t)x;
		out[i] = (kgen_devptr)(uintptr_t)&r[i];
	}
	l0 = *nlaunches;
	c0 = *ncalls;
	ck_fails(kgen_multi_reduce(NULL, in, n, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL, "NULL kernel");
	ck_fails(kgen_multi_reduce(k, NULL, n, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL, "kgen_multi_reduce: in is NULL");
	ck_fails(kgen_multi_reduce(k, holes, n, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "kgen_multi_reduce: in[0] is NULL, with n[0] = 4");
	ck_fails(kgen_multi_reduce(k, in, n, holes, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "out[0] is NULL, and GPU 0 (device 0) gets the result");
	ck_fails(kgen_multi_reduce(k, in, n, out, 3, NULL, ERR), KGEN_EINVAL, "root 3 is not one of the 3 GPUs (0 to 2)");
	ck_fails(kgen_multi_reduce(k, in, n, out, -2, NULL, ERR), KGEN_EINVAL, "root -2");
	ck_fails(kgen_multi_reduce_arg(k, in, n, out, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "op: sum writes one result, not an index: call kgen_multi_reduce()");
	ck_fails(kgen_multi_reduce_axis(k, in, n, 4, 0, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "is a reduce kernel");
	in[2] = (kgen_devptr)(uintptr_t)x + 2;
	ck_fails(kgen_multi_reduce(k, in, n, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "in[2] (0x");
	in[2] = (kgen_devptr)(uintptr_t)x;
	/* Each GPU's results aligned and apart from its input, as kgen_reduce() asks (they launched). */
	out[1] = (kgen_devptr)(uintptr_t)&r[1] + 1;
	ck_fails(kgen_multi_reduce(k, in, n, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "kgen_multi_reduce: out[1] (0x");
	out[1] = (kgen_devptr)(uintptr_t)&x[2];
	ck_fails(kgen_multi_reduce(k, in, n, out, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
	         "must have memory of its own (on GPU 1, device 1)");
	ck_assert_int_eq(kgen_multi_reduce(k, in, n, out, 0, NULL, &err), KGEN_OK);  /* only GPU 0 writes */
	l0 = *nlaunches;
	c0 = *ncalls;
	out[1] = (kgen_devptr)(uintptr_t)&r[1];
	{
		kgen_multi_kernel *a = build(m, "kernel: reduce\nop: argmax\ndtype: f32\n");
		long long idx[NDEV];
		kgen_devptr index[NDEV];
		for (i = 0; i < NDEV; i++)
			index[i] = (kgen_devptr)(uintptr_t)&idx[i];
		ck_fails(kgen_multi_reduce_arg(a, in, n, index, index, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
		         "must have memory of its own (on GPU 0, device 0)");  /* value and index one place */
		index[2] = (kgen_devptr)(uintptr_t)&idx[2] + 4;
		ck_fails(kgen_multi_reduce_arg(a, in, n, out, index, KGEN_MULTI_ALL, NULL, ERR), KGEN_EINVAL,
		         "index[2] (0x");
	}
	ck_assert_int_eq(*nlaunches, l0);  /* nothing launched, nothing reached NCCL */
	ck_assert_int_eq(*ncalls, c0);
	/* No elements anywhere: every in may be NULL; the identity, as n = 0 on one GPU. */
	ck_assert_msg(kgen_multi_reduce(k, holes, zero, out, KGEN_MULTI_ALL, NULL, &err) == KGEN_OK, "%s", err.message);
	/* Families a set does not run. */
	ck_assert_int_eq(kgen_spec_load_string("kernel: transpose\n", 18, "t.yaml", &t, &err), KGEN_OK);
	ck_fails(kgen_multi_build(m, t, &out_k, ERR), KGEN_EINVAL, "kgen_multi_build: transpose_f32 is a transpose kernel: "
	         "only reduce and reduce_axis (axis: cols) kernels run over several GPUs");
	kgen_spec_free(t);
	ck_assert_int_eq(kgen_spec_load_string("kernel: reduce_axis\naxis: rows\n", 31, "r.yaml", &t, &err), KGEN_OK);
	ck_fails(kgen_multi_build(m, t, &out_k, ERR), KGEN_EINVAL, "kgen_multi_build: reduce_rows_sum_f32 is a "
	         "reduce_axis kernel: a reduce_axis over several GPUs needs axis: cols");
	kgen_spec_free(t);
	kgen_multi_destroy(m);
}
END_TEST

/* Every op spec of specs/reduce/ops: the partial spec's kernel and the
 * combine kernel build (NVRTC compiles both) on a one-GPU set. */
START_TEST(every_op_builds)
{
	kgen_multi *m = open_set(1);
	glob_t g;
	size_t i;

	ck_assert_int_eq(glob(TOP_SRCDIR "/specs/reduce/ops/*.yaml", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 10);
	for (i = 0; i < g.gl_pathc; i++) {
		kgen_spec *s = NULL;
		kgen_multi_kernel *k = NULL;
		kgen_error err;
		ck_assert_msg(kgen_spec_load_file(g.gl_pathv[i], &s, &err) == KGEN_OK, "%s", err.message);
		ck_assert_msg(kgen_multi_build(m, s, &k, &err) == KGEN_OK, "%s: %s", g.gl_pathv[i], err.message);
		kgen_spec_free(s);
	}
	globfree(&g);
	kgen_multi_destroy(m);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("multi");
	TCase *t = tcase_create("multi");
	SRunner *r;
	int failed;

	tcase_add_checked_fixture(t, setup, NULL);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, create_checks_the_devices);
	tcase_add_test(t, missing_nccl_is_named);
	tcase_add_test(t, a_library_without_nccl_calls_is_refused);
	tcase_add_test(t, nccl_failure_is_an_error);
	tcase_add_test(t, communicators_made_once);
	tcase_add_test(t, sum_is_all_reduced_into_every_out);
	tcase_add_test(t, sum_to_a_root);
	tcase_add_test(t, mean_sums_then_divides_by_the_total);
	tcase_add_test(t, argmax_gathers_pairs_with_global_offsets);
	tcase_add_test(t, argmax_to_a_root_sends_and_receives);
	tcase_add_test(t, columns_over_gpus);
	tcase_add_test(t, calls_are_checked_first);
	tcase_add_test(t, every_op_builds);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_set_fork_status(r, CK_FORK);  /* each test loads NCCL afresh (the missing-library test) */
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
