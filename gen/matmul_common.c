/* matmul_common.c - what matmul_common.h promises. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "matmul_common.h"
#include "tpl.h"

#define X(id, name, doc, cm, cn) [KGEN_CLUSTER_##id] = { cm, cn },
static const int cluster_shape[][2] = { KGEN_CLUSTERS(X) };
#undef X

int
kgen_cluster_m(const struct kgen_spec *s)
{
	return cluster_shape[s->cluster][0];
}

int
kgen_cluster_n(const struct kgen_spec *s)
{
	return cluster_shape[s->cluster][1];
}

int
kgen_matmul_a_box_rows(const struct kgen_spec *s)
{
	return (int)s->tile_m / kgen_cluster_n(s);
}

int
kgen_matmul_a_rows(const struct kgen_spec *s, long long m)
{
	int box = kgen_matmul_a_box_rows(s);

	if (s->math != KGEN_MATH_WGMMA || s->cluster != KGEN_CLUSTER_C1X1 || m >= box)
		return box;
	return (int)((m + 7) / 8 * 8);
}

int
kgen_matmul_b_box_rows(const struct kgen_spec *s)
{
	return (int)s->tile_n / kgen_cluster_m(s);
}

static unsigned long long
ceil_div(unsigned long long a, unsigned long long b)
{
	return (a + b - 1) / b;
}

unsigned long long
kgen_matmul_tiles(const struct kgen_spec *s, unsigned long long m, unsigned long long n)
{
	return ceil_div(m, (unsigned long long)s->tile_m) * ceil_div(n, (unsigned long long)s->tile_n);
}

unsigned long long
kgen_matmul_tile_pairs(const struct kgen_spec *s, unsigned long long m, unsigned long long n)
{
	return ceil_div(m, (unsigned long long)(s->tile_m * kgen_cluster_m(s))) *
	       ceil_div(n, (unsigned long long)(s->tile_n * kgen_cluster_n(s)));
}

unsigned long long
kgen_matmul_k_tiles(const struct kgen_spec *s, unsigned long long k)
{
	return ceil_div(k, (unsigned long long)s->tile_k);
}

void
kgen_matmul_stream_k(unsigned long long tiles, unsigned long long k_tiles, unsigned long long slots,
                     unsigned long long *dp_tiles, unsigned long long *sk_blocks)
{
	unsigned long long runs = tiles * k_tiles / KGEN_MATMUL_MIN_RUN;

	*dp_tiles = tiles;
	*sk_blocks = 0;
	if (!slots || k_tiles < 2 || tiles % slots == 0)
		return;
	if (tiles > slots) {  /* whole tiles but for the last one to two waves' */
		*dp_tiles = tiles - slots - tiles % slots;
		*sk_blocks = slots;
	} else if ((runs < slots ? runs : slots) > tiles) {  /* fewer tiles than blocks: k shared out */
		*dp_tiles = 0;
		*sk_blocks = runs < slots ? runs : slots;
	}
	if (*sk_blocks && (tiles - *dp_tiles) * k_tiles * *sk_blocks >= 1ull << 31) {  /* the kernel's 32-bit numbering */
		*dp_tiles = tiles;
		*sk_blocks = 0;
	}
}

kgen_status
kgen_matmul_group_constant(const struct kgen_spec *s, struct tpl_args *t, kgen_error *err)
{
	struct tpl_args g;

	if (s->order != KGEN_ORDER_GROUPED && s->order != KGEN_ORDER_HILBERT) {
		tpl_set(t, "group", "%s", "");
		return KGEN_OK;
	}
	tpl_init(&g);
	tpl_show(&g, "grouped", s->order == KGEN_ORDER_GROUPED);
	tpl_set(&g, "group", "%lld", s->group);
	return tpl_render_into(t, "group", "matmul/group.cu", &g, err);
}

kgen_status
kgen_matmul_stages_constant(const struct kgen_spec *s, struct tpl_args *t, kgen_error *err)
{
	struct tpl_args g;

	if (s->staging != KGEN_STAGING_SMEM) {
		tpl_set(t, "stages", "%s", "");
		return KGEN_OK;
	}
	tpl_init(&g);
	tpl_show(&g, "wgmma", s->math == KGEN_MATH_WGMMA);
	tpl_set(&g, "stages", "%lld", s->mm_stages);
	tpl_set(&g, "how", "%s", kgen_matmul_loads_tma(s) ? " (TMA, mbarriers)" : s->mm_stages > 1 ? " (cp.async)" : "");
	return tpl_render_into(t, "stages", "matmul/stages.cu", &g, err);
}

enum kgen_reduce_kind
kgen_matmul_reduce_kind(enum kgen_mm_reduce r)
{
	return r == KGEN_MM_REDUCE_MIN ? KGEN_REDUCE_MIN :
	       r == KGEN_MM_REDUCE_MAX || r == KGEN_MM_REDUCE_ABSMAX ? KGEN_REDUCE_MAX :
	       r == KGEN_MM_REDUCE_LOGSUMEXP ? KGEN_REDUCE_LOGADDEXP : KGEN_REDUCE_ADD;
}

const char *
kgen_matmul_reduce_map(enum kgen_mm_reduce r)
{
	return r == KGEN_MM_REDUCE_SUMSQ ? "x * x" : r == KGEN_MM_REDUCE_ABSMAX ? "fabs(x)" : "x";
}

int
kgen_matmul_reduce_list(const struct kgen_spec *s, enum kgen_mm_reduce *which, int *by_row)
{
	int n = 0, line, r;

	for (line = 0; line < 2; line++) {
		long long mask = line ? s->col_reduce : s->row_reduce;
		for (r = 1; r < KGEN_MM_REDUCE_COUNT; r++)
			if (mask > 0 && (mask & 1LL << r)) {
				which[n] = (enum kgen_mm_reduce)r;
				by_row[n++] = !line;
			}
	}
	return n;
}

void
kgen_matmul_ep_note(const struct kgen_spec *s, char *buf, size_t n)
{
	int bias = s->bias != KGEN_MM_BIAS_NONE, residual = s->residual != KGEN_MM_RESIDUAL_NONE;
	char text[400], b[96] = "", r[96] = "";
	size_t used = 0, line = 0;
	const char *w = text;

	if (bias)
		snprintf(b, sizeof b, ", bias (%s %s values, bias[%s])", s->bias == KGEN_MM_BIAS_ROW ? "m" : "n",
		         kgen_dtype_info[s->bias_dtype].name, s->bias == KGEN_MM_BIAS_ROW ? "row" : "col");
	if (residual)
		snprintf(r, sizeof r, ", residual (m x n %s, row-major) and ldr (its row pitch in elements)",
		         kgen_dtype_info[s->residual_dtype].name);
	snprintf(text, sizeof text, "ep: a struct Epilogue of alpha and beta (%s)%s%s%s; C is read only when beta != 0.",
	         s->r.acc->name, b, r, kgen_matmul_reduces(s) ? ", and the reductions' vectors (the launcher sets each "
	         "to its identity before the kernels add to it)" : "");
	/* As comment lines of at most 100 columns, broken between words. */
	buf[0] = '\0';
	while (*w && used + 8 < n) {
		size_t word = strcspn(w, " ");
		if (line && line + 1 + word > 100) {
			used += (size_t)snprintf(buf + used, n - used, "\n");
			line = 0;
		}
		if (!line) {
			used += (size_t)snprintf(buf + used, n - used, "//");
			line = 2;
		}
		used += (size_t)snprintf(buf + used, n - used, " %.*s", (int)word, w);
		line += 1 + word;
		w += word;
		w += *w == ' ';
	}
	if (used + 1 < n)
		snprintf(buf + used, n - used, "\n");
}
