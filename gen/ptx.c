/* ptx.c - the PTX helpers of ptx.h, from templates/ptx/. */
#include "config.h"
#include "ptx.h"
#include "tpl.h"

enum ptx_file {
#define X(name) PTX_FILE_##name,
	KGEN_PTX_FILES(X)
#undef X
	PTX_FILE_COUNT
};

static const char *const file_names[] = {
#define X(name) "ptx/" #name ".cu",
	KGEN_PTX_FILES(X)
#undef X
};

static const struct helper {
	const char *name;
	enum ptx_file file;
} helpers[] = {
#define X(name, file) { #name, PTX_FILE_##file },
	KGEN_PTX_HELPERS(X)
#undef X
};
_Static_assert(KGEN_PTX_HELPER_COUNT <= 64, "a helper a bit of struct kgen_ptx's uses");

/* The register lists of the wgmma wrapper: its n / 2 accumulators as
 * "{%0, %1, ...}," in rows of 16 and their "+f"(d[i]) operands in rows of
 * 8, then the descriptors' and scale-d's operand numbers. */
static void
wgmma_lists(const struct kgen_ptx *p, struct tpl_args *t)
{
	strbuf regs, ops;
	int n = p->wgmma_n / 2, i;

	sb_init(&regs);
	sb_init(&ops);
	for (i = 0; i < n; i++) {
		sb_printf(&regs, "%s%%%d%s", i == 0 ? "\"{" : i % 16 == 0 ? "\"" : "", i,
		          i == n - 1 ? "}," : i % 16 == 15 ? ", \"\n" : ", ");
		sb_printf(&ops, "%s\"+f\"(d[%d])%s", i == 0 ? ": " : i % 8 == 0 ? "  " : "", i,
		          i == n - 1 ? "" : i % 8 == 7 ? ",\n" : ", ");
	}
	sb_puts(&regs, "\"");
	tpl_set(t, "d_list", "%s", regs.s ? regs.s : "");
	tpl_set(t, "d_operands", "%s", ops.s ? ops.s : "");
	tpl_set(t, "desc_a", "%d", n);
	tpl_set(t, "desc_b", "%d", n + 1);
	tpl_set(t, "scale_d", "%d", n + 2);
	if (regs.failed || ops.failed)
		t->failed = 1;
	sb_free(&regs);
	sb_free(&ops);
}

/* The values of file f's placeholders beside its sections. */
static void
parameters(enum ptx_file f, const struct kgen_ptx *p, struct tpl_args *t)
{
	int fp8;

	if (f == PTX_FILE_mma && (p->uses & KGEN_PTX_BIT(mma_16816)))
		tpl_set(t, "ptx_type", "%s", p->mma_type);
	if (f != PTX_FILE_wgmma || !(p->uses & KGEN_PTX_BIT(wgmma)))
		return;
	KGEN_ASSERT(p->wgmma_n >= 8 && p->wgmma_n <= 256 && p->wgmma_n % 8 == 0);
	tpl_set(t, "n", "%d", p->wgmma_n);
	tpl_set(t, "ptx_type", "%s", p->mma_type);
	tpl_set(t, "ptx_type_b", "%s", p->mma_type_b ? p->mma_type_b : p->mma_type);
	/* 16-bit types: k16 a wgmma, either operand may be read transposed; fp8: k32 (32 bytes of k either way), both
	 * operands K-major, and the instruction takes no transpose immediates. */
	fp8 = p->mma_type[0] == 'e';
	KGEN_ASSERT(!fp8 || (!p->wgmma_trans_a && !p->wgmma_trans_b));
	tpl_set(t, "k", "%d", fp8 ? 32 : 16);
	tpl_show(t, "transposes", !fp8);
	tpl_set(t, "a_major", "%s", p->wgmma_trans_a ? "M-major" : "K-major");
	tpl_set(t, "b_major", "%s", p->wgmma_trans_b ? "N-major" : "K-major");
	tpl_set(t, "tnsp_a", "%d", p->wgmma_trans_a);
	tpl_set(t, "tnsp_b", "%d", p->wgmma_trans_b);
	tpl_set(t, "a_why", "%s", p->wgmma_trans_a ? "transposed on the way" : "as stored");
	tpl_set(t, "b_why", "%s", p->wgmma_trans_b ? "transposed on the way" : "as stored");
	wgmma_lists(p, t);
}

/* File f with the sections of the helpers p->uses shown, after what `out`
 * holds (a blank line apart). */
static kgen_status
render_file(enum ptx_file f, const struct kgen_ptx *p, strbuf *out, kgen_error *err)
{
	struct tpl_args t;
	size_t i;
	int any = 0;

	tpl_init(&t);
	for (i = 0; i < KGEN_COUNT(helpers); i++)
		if (helpers[i].file == f) {
			any |= (p->uses >> i) & 1;
			tpl_show(&t, helpers[i].name, (p->uses >> i) & 1);
		}
	if (!any) {
		tpl_free(&t);
		return KGEN_OK;
	}
	parameters(f, p, &t);
	if (out->len)
		sb_puts(out, "\n\n");
	return tpl_render(out, file_names[f], &t, err);
}

kgen_status
kgen_ptx_render_into(struct tpl_args *parent, const char *name, const struct kgen_ptx *p, kgen_error *err)
{
	strbuf b;
	kgen_status st = KGEN_OK;
	int f;

	sb_init(&b);
	for (f = 0; f < PTX_FILE_COUNT && !st; f++)
		if (!(st = render_file((enum ptx_file)f, p, &b, err)))
			while (b.len && b.s[b.len - 1] == '\n')  /* each file's last section ends in a blank line */
				b.s[--b.len] = '\0';
	if (!st && b.failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	if (!st)
		tpl_set(parent, name, "%s", b.s ? b.s : "");
	sb_free(&b);
	return st;
}
