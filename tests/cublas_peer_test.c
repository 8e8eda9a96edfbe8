/*
 * cublas_peer_test.c - kgen_cublas_time (cli/timing.c) without a GPU: it
 * starts a stand-in for kgen-cublas (a shell script written here that logs
 * its arguments and answers as the real helper does, chosen by M), and the
 * test checks the argument vector it was given, the fields read back, each
 * exit status turned into a kgen_status with the helper's own message, the
 * jobs refused before anything starts, one run per job per process, and
 * that the helper's path goes to no shell.  Then kgen_cub_scan_ms, CUB's
 * scan through kgen-cub, the same way: the scan form's argument vector
 * for a scan spec's mode, op and types, the scans it has not (nothing
 * started), and a failed check of CUB's result (exit 1) as no time.
 */
#include "config.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kgen.h"
#include "cli/timing.h"

static char dir[256], helper[512], calls[512];

/* The stand-in: it appends its arguments to `calls` beside it and answers
 * by M (the fourth argument from the end): 1 a failed check, 2 a refusal,
 * 4 no algorithm, 5 a CUDA error, 6 killed by a signal, 7 no line, else a
 * time of M / 1000 ms. */
static const char fake[] =
	"#!/bin/sh\n"
	"echo \"$*\" >> \"$(dirname \"$0\")/calls\"\n"
	"m=$(echo \"$*\" | awk '{ print $(NF - 3) }')\n"
	"case $m in\n"
	"1) echo 'cublas dtype=f32 m=1 median_ms=0.002000 tflops=0.000 check=FAIL maxerr=3.5'; exit 1 ;;\n"
	"2) echo 'kgen-cublas: --lda 3 is less than the 4 elements of a column of A' >&2; exit 2 ;;\n"
	"4) echo 'kgen-cublas: cuBLASLt has no algorithm for f64 -> f64, a=row b=row, epilogue=relu' >&2; exit 4 ;;\n"
	"5) echo 'kgen-cublas: cudaSetDevice(j.device): invalid device ordinal' >&2; exit 5 ;;\n"
	"6) kill -9 $$ ;;\n"
	"7) exit 0 ;;\n"
	"esac\n"
	"echo 'some other line'\n"
	"echo \"cublas dtype=bf16 out=bf16 m=$m algo=2 algos=4 api=gemmex median_ms=$m.5 tflops=99.25 check=ok maxerr=0.125\"\n";

static void
write_fake(const char *path)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(fake, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0755), 0);
}

static void
setup(void)
{
	snprintf(dir, sizeof dir, "%s/kgen-cublas-peer.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(helper, sizeof helper, "%s/fake-cublas", dir);
	snprintf(calls, sizeof calls, "%s/calls", dir);
	write_fake(helper);
	unsetenv("KGEN_CUBLAS");
}

static void
teardown(void)
{
	char cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);  /* mkdtemp's name: no quote in it */
	ck_assert_int_eq(system(cmd), 0);
}

/* The lines the stand-in logged, one per run, in `out`; their count. */
static int
logged(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;
	int lines = 0;

	out[0] = '\0';
	if (!f)
		return 0;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
	for (size_t i = 0; i < n; i++)
		lines += out[i] == '\n';
	return lines;
}

START_TEST(the_common_call_reads_short)
{
	struct kgen_cublas_job j = { .m = 4096, .n = 4096, .k = 4096, .dtype = "bf16", .alpha = 1, .runs = 20 };
	struct kgen_cublas_result r;
	kgen_error err;
	char log[1024];

	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	ck_assert_int_eq(logged(calls, log, sizeof log), 1);
	ck_assert_str_eq(log, "bf16 4096 4096 4096 20\n");
	ck_assert_double_eq(r.median_ms, 4096.5);
	ck_assert_double_eq(r.tflops, 99.25);
	ck_assert_double_eq(r.maxerr, 0.125);
	ck_assert_int_eq(r.algo, 2);
	ck_assert_str_eq(r.api, "gemmex");
}
END_TEST

START_TEST(every_field_becomes_a_flag)
{
	struct kgen_cublas_job j = { .m = 70, .n = 5, .k = 3, .dtype = "bf16", .out_dtype = "f32", .a_layout = "col",
	                             .b_layout = "col", .lda = 80, .ldb = 9, .ldc = 6, .alpha = 0.5, .beta = -1.25,
	                             .relu = 1, .runs = 10, .device = 1, .method = KGEN_TIME_EVENTS, .algos = 4 };
	struct kgen_cublas_result r;
	kgen_error err;
	char log[1024];

	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	logged(calls, log, sizeof log);
	ck_assert_str_eq(log, "--out=f32 --a=col --b=col --lda=80 --ldb=9 --ldc=6 --alpha=0.5 --beta=-1.25 "
	                      "--epilogue=relu --method=events --algos=4 --device=1 bf16 70 5 3 10\n");
	ck_assert_double_eq(r.median_ms, 70.5);
	j.relu = 0;
	j.gelu_bias = 1;  /* cuBLASLt's GELU_BIAS, the peer of bias: col and epilogue: gelu(v + bias) */
	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	logged(calls, log, sizeof log);
	ck_assert_ptr_nonnull(strstr(log, "\n--out=f32 --a=col --b=col --lda=80 --ldb=9 --ldc=6 --alpha=0.5 --beta=-1.25 "
	                                  "--epilogue=gelu_bias --method=events --algos=4 --device=1 bf16 70 5 3 10\n"));
	/* The defaults are left out: the same type out, row layouts, per-call, one algorithm. */
	j = (struct kgen_cublas_job){ .m = 8, .n = 8, .k = 8, .dtype = "f16", .out_dtype = "f16", .a_layout = "row",
	                              .b_layout = "row", .alpha = 1, .runs = 3, .algos = 1 };
	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	logged(calls, log, sizeof log);
	ck_assert_ptr_nonnull(strstr(log, "\nf16 8 8 8 3\n"));
	/* alpha is always what the job says: 0 is passed, not taken for a default. */
	j.alpha = 0;
	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	logged(calls, log, sizeof log);
	ck_assert_ptr_nonnull(strstr(log, "\n--alpha=0 f16 8 8 8 3\n"));
}
END_TEST

START_TEST(each_job_runs_once_per_process)
{
	struct kgen_cublas_job j = { .m = 300, .n = 300, .k = 300, .dtype = "f32", .alpha = 1, .runs = 5 };
	struct kgen_cublas_result r;
	kgen_error err;
	char log[1024];

	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	ck_assert_double_eq(r.median_ms, 300.5);
	ck_assert_int_eq(logged(calls, log, sizeof log), 1);
	j.relu = 1;  /* another job */
	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_OK);
	ck_assert_int_eq(logged(calls, log, sizeof log), 2);
	/* A failure is remembered too, with its message. */
	j.m = 5;
	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_ECUDA);
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), KGEN_ECUDA);
	ck_assert_ptr_nonnull(strstr(err.message, "invalid device ordinal"));
	ck_assert_int_eq(logged(calls, log, sizeof log), 3);
}
END_TEST

/* Each way the helper can end, as a status and a message. */
static const struct {
	unsigned long long m;
	kgen_status status;
	const char *message;
} endings[] = {
	{ 1, KGEN_EVERIFY, "kgen-cublas f64 1 2 3 4: cuBLAS's result is off at a sampled element (3.5 of the error bound)" },
	{ 2, KGEN_EINVAL, "kgen-cublas f64 2 2 3 4: --lda 3 is less than the 4 elements of a column of A" },
	{ 4, KGEN_ECUDA, "kgen-cublas f64 4 2 3 4: cuBLASLt has no algorithm for f64 -> f64, a=row b=row, epilogue=relu" },
	{ 5, KGEN_ECUDA, "kgen-cublas f64 5 2 3 4: cudaSetDevice(j.device): invalid device ordinal" },
	{ 6, KGEN_ECUDA, "kgen-cublas f64 6 2 3 4: killed by a signal" },
	{ 7, KGEN_EINTERNAL, "kgen-cublas f64 7 2 3 4 printed no time" },
};

START_TEST(each_exit_status_is_a_kgen_status)
{
	struct kgen_cublas_job j = { .m = endings[_i].m, .n = 2, .k = 3, .dtype = "f64", .alpha = 1, .runs = 4 };
	struct kgen_cublas_result r;
	kgen_error err;

	ck_assert_int_eq(kgen_cublas_time(helper, &j, &r, &err), endings[_i].status);
	ck_assert_int_eq(err.status, endings[_i].status);
	ck_assert_str_eq(err.message, endings[_i].message);
	if (endings[_i].status != KGEN_EVERIFY)
		ck_assert_double_eq(r.median_ms, -1);
	ck_assert_str_eq(r.api, "");  /* no api= in the line: not known */
}
END_TEST

/* Jobs refused before the helper starts. */
static const struct {
	struct kgen_cublas_job job;
	const char *message;
} refused[] = {
	{ { .m = 8, .n = 8, .k = 8, .dtype = "i32", .runs = 1 }, "kgen_cublas_time: dtype is f32, f64, f16, bf16, e4m3 or e5m2, not i32" },
	{ { .m = 8, .n = 8, .k = 8, .runs = 1 }, "kgen_cublas_time: dtype is f32, f64, f16, bf16, e4m3 or e5m2, not (none)" },
	{ { .m = 8, .n = 8, .k = 8, .dtype = "bf16", .out_dtype = "f16", .runs = 1 },
	  "kgen_cublas_time: out_dtype is bf16 or f32, not f16" },
	{ { .m = 8, .n = 8, .k = 8, .dtype = "f32", .out_dtype = "f64", .runs = 1 },
	  "kgen_cublas_time: out_dtype is f32, not f64" },
	{ { .m = 8, .n = 8, .k = 8, .dtype = "f32", .a_layout = "rows", .runs = 1 },
	  "kgen_cublas_time: layouts are row or col, not a=rows b=row" },
	{ { .m = 0, .n = 8, .k = 8, .dtype = "f32", .runs = 1 },
	  "kgen_cublas_time: m, n and k are from 1 to 2^31 - 1, not 0 8 8" },
	{ { .m = 8, .n = 8, .k = 1ull << 31, .dtype = "f32", .runs = 1 },
	  "kgen_cublas_time: m, n and k are from 1 to 2^31 - 1, not 8 8 2147483648" },
	{ { .m = 8, .n = 8, .k = 8, .dtype = "f32", .runs = 0 },
	  "kgen_cublas_time: runs 0 (1 to 100000), device 0, algos 0 (0 to 1000), method 0" },
	{ { .m = 8, .n = 8, .k = 8, .dtype = "f32", .runs = 1, .device = -1 },
	  "kgen_cublas_time: runs 1 (1 to 100000), device -1, algos 0 (0 to 1000), method 0" },
	{ { .m = 8, .n = 8, .k = 8, .dtype = "f32", .runs = 1, .method = KGEN_TIME_COUNT },
	  "kgen_cublas_time: runs 1 (1 to 100000), device 0, algos 0 (0 to 1000), method 4" },
	{ { .m = 8, .n = 8, .k = 8, .dtype = "f32", .runs = 1, .beta = INFINITY },
	  "kgen_cublas_time: alpha and beta are finite, not 0 and inf" },
};

START_TEST(bad_jobs_start_nothing)
{
	struct kgen_cublas_result r;
	kgen_error err;
	char log[64];

	ck_assert_int_eq(kgen_cublas_time(helper, &refused[_i].job, &r, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, refused[_i].message);
	ck_assert_double_eq(r.median_ms, -1);
	ck_assert_int_eq(logged(calls, log, sizeof log), 0);
}
END_TEST

START_TEST(where_the_helper_is_found)
{
	struct kgen_cublas_job j = { .m = 9, .n = 9, .k = 9, .dtype = "f32", .alpha = 1, .runs = 1 };
	struct kgen_cublas_result r;
	kgen_error err;
	char log[1024], missing[600];

	ck_assert_int_eq(kgen_cublas_time("", &j, &r, &err), KGEN_EIO);
	ck_assert_str_eq(err.message, "no kgen-cublas to time cuBLAS with (none given)");
	snprintf(missing, sizeof missing, "%s/nonexistent", dir);
	j.m = 10;
	ck_assert_int_eq(kgen_cublas_time(missing, &j, &r, &err), KGEN_EIO);
	ck_assert_ptr_nonnull(strstr(err.message, "cannot start"));
	/* $KGEN_CUBLAS when none is given; empty means none. */
	setenv("KGEN_CUBLAS", helper, 1);
	j.m = 11;
	ck_assert_int_eq(kgen_cublas_time(NULL, &j, &r, &err), KGEN_OK);
	ck_assert_double_eq(r.median_ms, 11.5);
	ck_assert_int_eq(logged(calls, log, sizeof log), 1);
	setenv("KGEN_CUBLAS", "", 1);
	j.m = 12;
	ck_assert_int_eq(kgen_cublas_time(NULL, &j, &r, &err), KGEN_EIO);
	ck_assert_str_eq(err.message, "no kgen-cublas to time cuBLAS with (KGEN_CUBLAS is empty)");
}
END_TEST

/* The helper is started with an argument vector: a quote and a command in
 * its directory's name are only a name. */
START_TEST(no_shell_reads_the_path)
{
	struct kgen_cublas_job j = { .m = 13, .n = 9, .k = 9, .dtype = "f32", .alpha = 1, .runs = 1 };
	struct kgen_cublas_result r;
	kgen_error err;
	char odd[600], path[700], log[1024];
	struct stat st;

	ck_assert_int_eq(chdir(dir), 0);  /* where a shell would touch pwned */
	snprintf(odd, sizeof odd, "%s/kg'$(touch pwned)'", dir);
	ck_assert_int_eq(mkdir(odd, 0755), 0);
	snprintf(path, sizeof path, "%s/fake-cublas", odd);
	write_fake(path);
	ck_assert_int_eq(kgen_cublas_time(path, &j, &r, &err), KGEN_OK);
	ck_assert_double_eq(r.median_ms, 13.5);
	snprintf(path, sizeof path, "%s/calls", odd);
	ck_assert_int_eq(logged(path, log, sizeof log), 1);
	ck_assert_int_ne(stat("pwned", &st), 0);
}
END_TEST

/* ---- kgen_cub_scan_ms: CUB's scan through kgen-cub ---- */

/* kgen-cub's stand-in: it logs its arguments and prints a scan line with
 * median_ms N.25 (N: the third argument from the end), offsets 32; N 13
 * is a failed check (the line, then exit 1). */
static const char fake_cub[] =
	"#!/bin/sh\n"
	"echo \"$*\" >> \"$(dirname \"$0\")/calls\"\n"
	"n=$(echo \"$*\" | awk '{ print $(NF - 2) }')\n"
	"echo \"cub scan mode=inclusive op=sum dtype=f32 out=f32 n=$n offsets=32 median_ms=$n.25 ms32=$n.25 ms64=-1 "
	"last=0 check=$([ $n = 13 ] && echo FAIL || echo ok) checked=64 wrong=0\"\n"
	"[ $n != 13 ]\n";

/* The stand-in for kgen-cub, in the fixture's directory, as helper. */
static void
write_fake_cub(void)
{
	FILE *f;

	snprintf(helper, sizeof helper, "%s/fake-cub", dir);
	ck_assert_ptr_nonnull(f = fopen(helper, "w"));
	fputs(fake_cub, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(helper, 0755), 0);
}

/* A scan spec of YAML `body` (after kernel: scan), loaded. */
static kgen_spec *
scan_spec(const char *body)
{
	char yaml[512];
	kgen_spec *s = NULL;
	kgen_error err;
	int len = snprintf(yaml, sizeof yaml, "kernel: scan\n%s", body);

	ck_assert_msg(kgen_spec_load_string(yaml, (size_t)len, "scan.yaml", &s, &err) == KGEN_OK, "%s", err.message);
	return s;
}

/* Each spec, its argument list (NULL: none of kgen-cub's, nothing started). */
static const struct {
	const char *yaml, *args;
} scans[] = {
	{ "op: sum\ndtype: f32\n", "scan inclusive sum f32 1000 20 52428800" },
	{ "op: sum\ndtype: i32\nacc_dtype: i64\nmode: exclusive\n", "--out=i64 scan exclusive sum i32 1000 20 52428800" },
	{ "op: max\ndtype: bf16\n", "scan inclusive max bf16 1000 20 52428800" },
	{ "op: min\ndtype: f16\nout_dtype: f16\nmode: exclusive\n", "--out=f16 scan exclusive min f16 1000 20 52428800" },
	{ "op: sum\ndtype: f32\nacc_dtype: f64\n", "--out=f64 scan inclusive sum f32 1000 20 52428800" },
	{ "op: min\ndtype: u32\n", "scan inclusive min u32 1000 20 52428800" },
	{ "op: prod\ndtype: f32\n", NULL },                      /* no op of its scans */
	{ "op: sum\ndtype: f32\nacc_dtype: f64\nout_dtype: f32\n", NULL },  /* it accumulates in the output's type */
	{ "op: sum\ndtype: i32\nacc_dtype: f64\n", NULL },       /* i32 into f64: not one of its pairs */
	{ "op: custom\ndtype: bf16\nacc_dtype: f32\nmap: x * x\ncombine: a + b\nidentity: 0\n", NULL },
};

START_TEST(a_scan_spec_becomes_the_scan_form)
{
	kgen_spec *s = scan_spec(scans[_i].yaml);
	char want[256], log[1024];
	int offsets = -1;
	double ms;

	write_fake_cub();
	ms = kgen_cub_scan_ms(helper, KGEN_TIME_PER_CALL, 20, s, 1000, 50u << 20, &offsets);
	if (scans[_i].args) {
		snprintf(want, sizeof want, "%s\n", scans[_i].args);
		ck_assert_int_eq(logged(calls, log, sizeof log), 1);
		ck_assert_str_eq(log, want);
		ck_assert_double_eq(ms, 1000.25);
		ck_assert_int_eq(offsets, 32);
	} else {
		ck_assert_int_eq(logged(calls, log, sizeof log), 0);
		ck_assert_double_eq(ms, -1);
		ck_assert_int_eq(offsets, 0);
	}
	kgen_spec_free(s);
}
END_TEST

/* --method is passed as the reductions' peer gets it; a failed check is no time. */
START_TEST(a_scan_under_a_method_and_a_failed_check)
{
	kgen_spec *s = scan_spec("op: sum\ndtype: f32\n");
	char log[1024];
	int offsets = -1;

	write_fake_cub();
	ck_assert_double_eq(kgen_cub_scan_ms(helper, KGEN_TIME_GRAPH, 5, s, 7, 1024, &offsets), 7.25);
	ck_assert_int_eq(offsets, 32);
	logged(calls, log, sizeof log);
	ck_assert_str_eq(log, "--method=graph scan inclusive sum f32 7 5 1024\n");
	ck_assert_double_eq(kgen_cub_scan_ms(helper, KGEN_TIME_PER_CALL, 5, s, 13, 1024, &offsets), -1);
	ck_assert_int_eq(offsets, 0);
	/* Without the helper: -1, as for a reduction. */
	ck_assert_double_eq(kgen_cub_scan_ms("", KGEN_TIME_PER_CALL, 5, s, 14, 1024, &offsets), -1);
	ck_assert_int_eq(logged(calls, log, sizeof log), 2);
	kgen_spec_free(s);
}
END_TEST

static Suite *
peer_suite(void)
{
	Suite *s = suite_create("cublas peer");
	TCase *tc = tcase_create("kgen_cublas_time");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, the_common_call_reads_short);
	tcase_add_test(tc, every_field_becomes_a_flag);
	tcase_add_test(tc, each_job_runs_once_per_process);
	tcase_add_loop_test(tc, each_exit_status_is_a_kgen_status, 0, (int)(sizeof endings / sizeof *endings));
	tcase_add_loop_test(tc, bad_jobs_start_nothing, 0, (int)(sizeof refused / sizeof *refused));
	tcase_add_test(tc, where_the_helper_is_found);
	tcase_add_test(tc, no_shell_reads_the_path);
	suite_add_tcase(s, tc);
	tc = tcase_create("kgen_cub_scan_ms");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, a_scan_spec_becomes_the_scan_form, 0, (int)(sizeof scans / sizeof *scans));
	tcase_add_test(tc, a_scan_under_a_method_and_a_failed_check);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(peer_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
