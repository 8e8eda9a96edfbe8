/*
 * plan_test.c - size plans (gen/plan.c): loading, the entry each n takes,
 * and every rule with its message, line and column in the plan file.
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kgen.h"
#include "gen/parallel.h"

static const char good[] =
	"# sum of f32: a block for small n, the best large-n spec above\n"
	"plan:\n"
	"  - upto: 2^14\n"
	"    spec:\n"
	"      kernel: reduce\n"
	"      threads: 1024\n"
	"      stages: last_block\n"
	"  - upto: 1M\n"
	"    spec: { kernel: reduce, threads: 256, stages: last_block }\n"
	"  - spec:\n"
	"      kernel: reduce\n"
	"      threads: 512\n";

static kgen_plan *
load(const char *yaml)
{
	kgen_plan *p = NULL;
	kgen_error err;

	ck_assert_msg(kgen_plan_load_string(yaml, strlen(yaml), "p.yaml", &p, &err) == KGEN_OK, "%s:%d:%d: %s",
	              err.file, err.line, err.column, err.message);
	return p;
}

/* yaml fails to load with message msg at line:col. */
static void
refuse(const char *yaml, int line, int col, const char *msg)
{
	kgen_plan *p = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_plan_load_string(yaml, strlen(yaml), "p.yaml", &p, &err), KGEN_ESPEC);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(err.message, msg);
	ck_assert_str_eq(err.file, "p.yaml");
	ck_assert_msg(err.line == line && err.column == col, "%s at %d:%d, expected %d:%d", msg, err.line, err.column,
	              line, col);
}

static const char *
get(const kgen_spec *s, const char *key)
{
	static char buf[64];
	return kgen_spec_get(s, key, buf, sizeof buf);
}

START_TEST(entries_and_picks)
{
	kgen_plan *p = load(good);
	unsigned long long upto;

	ck_assert_int_eq(kgen_plan_count(p), 3);
	ck_assert_str_eq(get(kgen_plan_spec(p, 0, &upto), "threads"), "1024");
	ck_assert_uint_eq(upto, 16384);
	ck_assert_str_eq(get(kgen_plan_spec(p, 1, &upto), "threads"), "256");
	ck_assert_uint_eq(upto, 1048576);
	ck_assert_str_eq(get(kgen_plan_spec(p, 2, &upto), "threads"), "512");
	ck_assert_uint_eq(upto, ~0ull);
	ck_assert_ptr_null(kgen_plan_spec(p, 3, NULL));
	ck_assert_ptr_null(kgen_plan_spec(p, -1, NULL));
	ck_assert_int_eq(kgen_plan_pick(p, 0), 0);
	ck_assert_int_eq(kgen_plan_pick(p, 16384), 0);
	ck_assert_int_eq(kgen_plan_pick(p, 16385), 1);
	ck_assert_int_eq(kgen_plan_pick(p, 1048576), 1);
	ck_assert_int_eq(kgen_plan_pick(p, 1048577), 2);
	ck_assert_int_eq(kgen_plan_pick(p, ~0ull), 2);
	/* The source of each spec is the plan file. */
	ck_assert_str_eq(kgen_spec_source(kgen_plan_spec(p, 1, NULL)), "p.yaml");
	kgen_plan_free(p);
	kgen_plan_free(NULL);
	ck_assert_int_eq(kgen_plan_count(NULL), 0);
	ck_assert_int_eq(kgen_plan_pick(NULL, 5), -1);
}
END_TEST

START_TEST(one_entry_and_files)
{
	kgen_plan *p = load("plan:\n  - spec: {kernel: reduce, dtype: i32}\n");
	kgen_error err;
	FILE *fp;
	char path[] = "/tmp/kgen-plan-test-XXXXXX";
	int fd;

	ck_assert_int_eq(kgen_plan_count(p), 1);
	ck_assert_int_eq(kgen_plan_pick(p, 123456789), 0);
	kgen_plan_free(p);
	/* From a file; a missing one is an I/O error. */
	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_ptr_nonnull(fp = fdopen(fd, "w"));
	fputs(good, fp);
	fclose(fp);
	p = NULL;
	ck_assert_int_eq(kgen_plan_load_file(path, &p, &err), KGEN_OK);
	ck_assert_int_eq(kgen_plan_count(p), 3);
	kgen_plan_free(p);
	remove(path);
	ck_assert_int_eq(kgen_plan_load_file(path, &p, &err), KGEN_EIO);
	ck_assert_int_eq(kgen_plan_load_file(NULL, &p, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_plan_load_string(NULL, 0, "x", &p, &err), KGEN_EINVAL);
}
END_TEST

START_TEST(spec_errors_point_into_the_plan)
{
	/* A spec error is the spec loader's, at its place in the plan file. */
	refuse("plan:\n  - upto: 100\n    spec:\n      kernel: reduce\n      threads: 7\n  - spec: {kernel: reduce}\n",
	       5, 16, "threads: 7 is out of range: expected an integer from 32 to 1024");
	refuse("plan:\n  - spec: {kernel: reduce, thread: 256}\n", 2, 28,
	       "unknown key 'thread' (did you mean 'threads'?)");
}
END_TEST

START_TEST(rules)
{
	refuse("kernel: reduce\n", 1, 1, "unknown key 'kernel' (a plan file has one key, plan)");
	refuse("- 1\n", 1, 1, "expected a plan: a mapping with the key plan");
	refuse("plan: 3\n", 1, 7, "plan: expected a list of entries (- upto: N, spec: ...)");
	refuse("plan: []\n", 1, 7, "plan: the list is empty");
	refuse("plan:\n  - 3\n", 2, 5, "expected an entry: a mapping of upto (the largest n it serves) and spec");
	refuse("plan:\n  - upto: 5\n", 2, 5, "the entry has no spec");
	refuse("plan:\n  - spec: 3\n", 2, 11, "spec: expected a mapping (the spec's keys)");
	refuse("plan:\n  - spec: {}\n    speed: 3\n", 3, 5, "unknown key 'speed' in a plan entry (expected upto and spec; a matmul plan's m_upto, n_upto, k_upto and spec)");
	refuse("plan:\n  - spec: {}\n    spec: {}\n", 3, 5, "duplicate key 'spec'");
	refuse("plan:\n  - upto: 5\n    spec: {kernel: reduce}\n", 2, 11,
	       "the last entry serves every larger n: drop its upto");
	refuse("plan:\n  - spec: {kernel: reduce}\n  - spec: {kernel: reduce}\n", 2, 5,
	       "upto: every entry but the last says the largest n it serves");
	refuse("plan:\n  - upto: many\n    spec: {kernel: reduce}\n  - spec: {kernel: reduce}\n", 2, 11,
	       "upto: expected a count of elements such as 16384, 16k or 2^14");
	refuse("plan:\n  - upto: 0\n    spec: {kernel: reduce}\n  - spec: {kernel: reduce}\n", 2, 11,
	       "upto: expected a count of elements such as 16384, 16k or 2^14");
	refuse("plan:\n  - upto: 2^20\n    spec: {kernel: reduce}\n  - upto: 1M\n    spec: {kernel: reduce}\n"
	       "  - spec: {kernel: reduce}\n", 4, 11,
	       "upto: 1M is not above the entry before's 1048576: list entries by rising n");
	/* Every entry computes the same thing. */
	refuse("plan:\n  - upto: 9\n    spec: {kernel: reduce}\n  - spec: {kernel: reduce, op: max}\n", 4, 11,
	       "entry 2 has op: max, the first entry op: sum: every spec of a plan must compute the same (kernel, op, "
	       "dtype, acc_dtype, out_dtype, nan, map, combine, identity, post)");
	refuse("plan:\n  - upto: 9\n    spec: {kernel: reduce}\n  - spec: {kernel: reduce, dtype: i32}\n", 4, 11,
	       "entry 2 has dtype: i32, the first entry dtype: f32: every spec of a plan must compute the same (kernel, "
	       "op, dtype, acc_dtype, out_dtype, nan, map, combine, identity, post)");
	refuse("plan:\n  - spec: {kernel: transpose}\n", 2, 11,
	       "a plan's specs must be kernel: reduce, matmul or scan (plans by n, and matmul's by shape; kernel: transpose "
	       "is sized by rows and cols, which plans do not take yet)");
	refuse("plan:\n  - spec: {kernel: reduce_axis}\n", 2, 11,
	       "a plan's specs must be kernel: reduce, matmul or scan (plans by n, and matmul's by shape; kernel: "
	       "reduce_axis is sized by rows and cols, which plans do not take yet)");
	refuse("plan:\n  - spec: {kernel: reduce\n", 2, 11,  /* where the unclosed '{' opened */
	       "YAML: did not find expected ',' or '}' while parsing a flow mapping");
	/* One document, no tags, anchors or aliases, bounded nesting (yamlin.h). */
	refuse("plan:\n  - spec: {kernel: reduce}\n---\n@@ not even YAML\n", 3, 1,
	       "a second YAML document: a plan is one document (drop the second '---' and what follows)");
	refuse("plan:\n  - spec: !!map {kernel: reduce}\n", 2, 11,
	       "YAML tags (tag:yaml.org,2002:map) are not used in a plan: write the value alone");
	refuse("plan:\n  - spec: &s {kernel: reduce}\n  - spec: *s\n", 2, 11,
	       "YAML anchors (&s) are not used in a plan: write each value out");
	refuse("plan: [[[[[[[[[[]]]]]]]]]]\n", 1, 15,
	       "YAML nested more than 8 levels deep: a plan is a list of entries of single values");
}
END_TEST

/* A matmul plan picks by shape: the first entry whose m_upto, n_upto and
 * k_upto hold, the last for every other shape; its rules. */
START_TEST(matmul_plans_pick_by_shape)
{
	kgen_plan *p = load("plan:\n"
	                    "  - m_upto: 128\n"
	                    "    n_upto: 2k\n"
	                    "    spec: {kernel: matmul, dtype: bf16, math: wgmma, producer: warpgroup, tile_m: 64, "
	                    "tile_n: 64, split_k: 4}\n"
	                    "  - m_upto: 128\n"
	                    "    spec: {kernel: matmul, dtype: bf16, math: wgmma, tile_m: 64, tile_n: 64, stages: 12}\n"
	                    "  - k_upto: 64\n"
	                    "    spec: {kernel: matmul, dtype: bf16, math: mma}\n"
	                    "  - spec: {kernel: matmul, dtype: bf16, math: wgmma}\n");
	unsigned long long b[3];

	ck_assert_int_eq(kgen_plan_count(p), 4);
	ck_assert_int_eq(kgen_plan_shape(p, 0, b), 1);
	ck_assert_uint_eq(b[0], 128);
	ck_assert_uint_eq(b[1], 2048);
	ck_assert_uint_eq(b[2], ~0ull);
	ck_assert_int_eq(kgen_plan_shape(p, 3, b), 1);
	ck_assert_uint_eq(b[0] & b[1] & b[2], ~0ull);
	ck_assert_int_eq(kgen_plan_shape(p, 4, b), 0);
	ck_assert_int_eq(kgen_plan_pick_shape(p, 64, 1024, 16384), 0);
	ck_assert_int_eq(kgen_plan_pick_shape(p, 128, 2048, 1), 0);
	ck_assert_int_eq(kgen_plan_pick_shape(p, 128, 2049, 8192), 1);
	ck_assert_int_eq(kgen_plan_pick_shape(p, 1, 8192, 8192), 1);
	ck_assert_int_eq(kgen_plan_pick_shape(p, 129, 64, 64), 2);
	ck_assert_int_eq(kgen_plan_pick_shape(p, 4096, 4096, 65), 3);
	ck_assert_int_eq(kgen_plan_pick_shape(NULL, 1, 1, 1), -1);
	kgen_plan_free(p);
	p = load(good);
	ck_assert_int_eq(kgen_plan_shape(p, 0, b), 0);  /* a plan by n */
	kgen_plan_free(p);
	refuse("plan:\n  - upto: 9\n    spec: {kernel: matmul}\n  - spec: {kernel: matmul}\n", 2, 11,
	       "upto bounds n of a plan by n; a matmul plan's entries bound m_upto, n_upto or k_upto");
	refuse("plan:\n  - spec: {kernel: matmul}\n  - spec: {kernel: matmul}\n", 2, 5,
	       "every entry but the last bounds the shapes it serves: m_upto, n_upto or k_upto");
	refuse("plan:\n  - m_upto: 4\n    spec: {kernel: matmul}\n", 2, 5,
	       "the last entry serves every other shape: drop its m_upto, n_upto and k_upto");
	refuse("plan:\n  - n_upto: 0\n    spec: {kernel: matmul}\n  - spec: {kernel: matmul}\n", 2, 13,
	       "n_upto: expected the largest size it serves, a count such as 128, 4k or 2^12");
	refuse("plan:\n  - k_upto: 8\n    k_upto: 9\n    spec: {kernel: matmul}\n  - spec: {kernel: matmul}\n", 3, 5,
	       "duplicate key 'k_upto'");
	refuse("plan:\n  - m_upto: 8\n    spec: {kernel: reduce}\n  - spec: {kernel: reduce}\n", 2, 13,
	       "m_upto bounds a matmul plan's shapes; a plan of kernel: reduce picks by n (upto)");
	refuse("plan:\n  - m_upto: 8\n    spec: {kernel: matmul}\n  - spec: {kernel: matmul, dtype: bf16}\n", 4, 11,
	       "entry 2 has dtype: bf16, the first entry dtype: f32: every spec of a plan must compute the same (kernel, "
	       "dtype, b_dtype, acc_dtype, out_dtype, a_layout, b_layout, scale, fp8_accum, epilogue, bias, bias_dtype, "
	       "residual, residual_dtype, aux, row_reduce, col_reduce)");
}
END_TEST

/* The spec loader, given a plan, says what it is. */
START_TEST(a_plan_is_not_a_spec)
{
	static const char text[] = "# a plan\nplan:\n  - spec: {kernel: reduce}\n";
	kgen_spec *s = NULL;
	kgen_error err;

	ck_assert_int_eq(kgen_spec_load_string(text, strlen(text), "p.yaml", &s, &err), KGEN_ESPEC);
	ck_assert_str_eq(err.message, "this is a size plan, not a spec: load it with kgen_plan_load_file() (kgen check and "
	                 "kgen run take either)");
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.column, 1);
}
END_TEST

START_TEST(at_most_sixteen_entries)
{
	char yaml[4096];
	size_t used = 0;
	int i;

	used += (size_t)snprintf(yaml + used, sizeof yaml - used, "plan:\n");
	for (i = 0; i < KGEN_PLAN_MAX; i++)
		used += (size_t)snprintf(yaml + used, sizeof yaml - used, "  - upto: %d\n    spec: {kernel: reduce}\n",
		                         (i + 1) * 100);
	used += (size_t)snprintf(yaml + used, sizeof yaml - used, "  - spec: {kernel: reduce}\n");
	refuse(yaml, 2 + 2 * KGEN_PLAN_MAX, 5, "a plan has at most 16 entries");
}
END_TEST

/* A plans folder of our own: dir/nvidia-MODEL/OP-DTYPE.yaml with header. */
static void
write_plan(const char *dir, const char *folder, const char *file, const char *header)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof path, "mkdir -p '%s/%s'", dir, folder);
	ck_assert_int_eq(system(path), 0);
	snprintf(path, sizeof path, "%s/%s/%s", dir, folder, file);
	ck_assert_ptr_nonnull(fp = fopen(path, "w"));
	fprintf(fp, "%s", header);
	fprintf(fp, "plan:\n  - spec: {kernel: reduce}\n");
	ck_assert_int_eq(fclose(fp), 0);
}

/* The plan found for gpu, op and dtype, relative to dir ("" for none). */
static const char *
found(const char *dir, const char *gpu, const char *op, const char *dtype)
{
	static char path[4096];
	kgen_error err;

	ck_assert_msg(kgen_plan_shipped_path(NULL, gpu, op, dtype, path, sizeof path, &err) == KGEN_OK, "%s", err.message);
	if (!path[0])
		return "";
	ck_assert_msg(strncmp(path, dir, strlen(dir)) == 0 && path[strlen(dir)] == '/', "%s not in %s", path, dir);
	return path + strlen(dir) + 1;
}

START_TEST(shipped_plans_by_gpu_model)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4200];
	kgen_error err;

	snprintf(dir, sizeof dir, "%s/kgen-plans.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(setenv("KGEN_PLANS_DIR", dir, 1), 0);
	ck_assert_str_eq(kgen_plans_dir(), dir);
	write_plan(dir, "nvidia-h100", "sum-f32.yaml", "# NVIDIA H100 80GB HBM3|driver 13.0|cub 3.0\n");
	write_plan(dir, "nvidia-h100", "max-f32.yaml", "# NVIDIA H200|driver 13.0|cub 3.0\n");  /* another model's */
	write_plan(dir, "nvidia-h100", "min-f32.yaml", "# tuned somewhere\n");                  /* says no GPU */
	write_plan(dir, "nvidia-a100", "sum-f32.yaml", "# NVIDIA A100-SXM4-80GB|driver 12.4\n");
	{	/* kgen tune's command line above the GPU's, longer than any buffer a line might get */
		char header[3000];
		memset(header, 'x', sizeof header);
		memcpy(header, "#   kgen tune --records ", 24);
		snprintf(header + 2000, sizeof header - 2000, "\n# NVIDIA H100 80GB HBM3|driver 13.0\n");
		write_plan(dir, "nvidia-h100", "sum-bf16.yaml", header);
	}

	ck_assert_str_eq(found(dir, "NVIDIA H100 80GB HBM3", "sum", "f32"), "nvidia-h100/sum-f32.yaml");
	ck_assert_str_eq(found(dir, "NVIDIA H100 PCIe", "sum", "f32"), "nvidia-h100/sum-f32.yaml");
	ck_assert_str_eq(found(dir, "NVIDIA A100-SXM4-80GB", "sum", "f32"), "nvidia-a100/sum-f32.yaml");
	ck_assert_str_eq(found(dir, "NVIDIA H100 80GB HBM3", "max", "f32"), "");  /* tuned on an H200 */
	ck_assert_str_eq(found(dir, "NVIDIA H100 80GB HBM3", "min", "f32"), "");  /* tuned on no GPU it names */
	ck_assert_str_eq(found(dir, "NVIDIA H100 80GB HBM3", "sum", "bf16"), "nvidia-h100/sum-bf16.yaml");
	ck_assert_str_eq(found(dir, "NVIDIA H100 80GB HBM3", "sum", "i32"), ""); /* not tuned */
	ck_assert_str_eq(found(dir, "NVIDIA H200", "sum", "f32"), "");           /* no folder */
	ck_assert_str_eq(found(dir, "NVIDIA GeForce", "sum", "f32"), "");        /* no model */
	ck_assert_str_eq(found(dir, "NVIDIA H1/00", "sum", "f32"), "");          /* not a folder's name */

	ck_assert_int_eq(kgen_plan_shipped_path(NULL, "NVIDIA H100", "../nvidia-h100/sum", "f32", path, sizeof path, &err),
	                 KGEN_EINVAL);
	ck_assert_str_eq(err.message, "no shipped plan is named '../nvidia-h100/sum-f32': an op and a dtype, e.g. sum-f32");
	ck_assert_int_eq(kgen_plan_shipped_path(NULL, "NVIDIA H100", "sum", "", path, sizeof path, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_plan_shipped_path(NULL, "NVIDIA H100 80GB HBM3", "sum", "f32", path, 8, &err), KGEN_EINVAL);
	ck_assert_str_eq(path, "");
	ck_assert_int_eq(kgen_plan_shipped_path(NULL, NULL, "sum", "f32", path, sizeof path, &err), KGEN_EINVAL);

	/* A folder named in the call, whatever KGEN_PLANS_DIR says. */
	ck_assert_int_eq(unsetenv("KGEN_PLANS_DIR"), 0);
	{
		char where[4096];
		ck_assert_int_eq(kgen_plan_shipped_path(dir, "NVIDIA H100 80GB HBM3", "sum", "f32", where, sizeof where, &err),
		                 KGEN_OK);
		ck_assert_str_eq(where + strlen(dir), "/nvidia-h100/sum-f32.yaml");
	}
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

/* The source tree's plans: each in the folder of the model its header names. */
START_TEST(the_trees_plans_serve_their_models)
{
	static const char *const gpus[] = { "NVIDIA H100 80GB HBM3", "NVIDIA H200" };
	static const char *const ops[] = { "sum", "min", "max" }, *const dtypes[] = { "f32", "bf16", "i32" };
	char want[4096], path[4096];
	kgen_error err;
	size_t g, o, d;
	int n = 0;
	FILE *fp;

	ck_assert_int_eq(setenv("KGEN_PLANS_DIR", TOP_SRCDIR "/specs/plans", 1), 0);
	for (g = 0; g < 2; g++)
		for (o = 0; o < 3; o++)
			for (d = 0; d < 3; d++) {
				snprintf(want, sizeof want, "%s/specs/plans/nvidia-h%s/%s-%s.yaml", TOP_SRCDIR, g ? "200" : "100",
				         ops[o], dtypes[d]);
				ck_assert_int_eq(kgen_plan_shipped_path(NULL, gpus[g], ops[o], dtypes[d], path, sizeof path, &err), KGEN_OK);
				if ((fp = fopen(want, "r"))) {
					fclose(fp);
					ck_assert_str_eq(path, want);
					n++;
				} else {
					ck_assert_str_eq(path, "");
				}
			}
	ck_assert_int_eq(n, 18);  /* the H200's nine and the H100's nine */
	ck_assert_int_eq(unsetenv("KGEN_PLANS_DIR"), 0);
}
END_TEST

/* kgen_parallel_for(), which builds a plan's entries side by side: every
 * item once, on at most the threads asked for and items there are. */
static void
count_item(void *arg, int i)
{
	((int *)arg)[i]++;
}

START_TEST(parallel_for_takes_every_item_once)
{
	static int seen[1000];
	int i, used;

	used = kgen_parallel_for(1000, 4, count_item, seen);
	ck_assert_int_ge(used, 2);  /* side by side: the caller and at least one thread */
	ck_assert_int_le(used, 4);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(seen[i], 1);
	ck_assert_int_le(kgen_parallel_for(3, 0, count_item, seen), 3);  /* 0: the online CPUs, at most the items */
	ck_assert_int_le(kgen_parallel_for(3, 64, count_item, seen), 3);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(seen[i], i < 3 ? 3 : 1);
	ck_assert_int_eq(kgen_parallel_for(0, 8, count_item, NULL), 1);  /* nothing to do: the caller alone */
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, entries_and_picks);
	tcase_add_test(tc, one_entry_and_files);
	tcase_add_test(tc, spec_errors_point_into_the_plan);
	tcase_add_test(tc, rules);
	tcase_add_test(tc, matmul_plans_pick_by_shape);
	tcase_add_test(tc, at_most_sixteen_entries);
	tcase_add_test(tc, a_plan_is_not_a_spec);
	tcase_add_test(tc, shipped_plans_by_gpu_model);
	tcase_add_test(tc, the_trees_plans_serve_their_models);
	tcase_add_test(tc, parallel_for_takes_every_item_once);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
