/*
 * tpl.h - fill the templates of templates/ (embedded at build time).
 *
 * A template is CUDA C with placeholders {{name}}.  A placeholder alone on
 * its line takes a value of any number of lines, each indented like the
 * placeholder; an empty value removes the line.  The lines between
 * {{#name}} and {{/name}} (each alone on its line) are a section, shown
 * when name's value is not empty (tpl_show()); those between {{^name}} and
 * {{/name}} when it is empty.  The placeholders of a hidden section need no
 * value.  Lines starting with "//!"
 * document the template and are not copied.  Rendering fails on a
 * placeholder that has no value and on a value that no placeholder uses:
 * both are bugs in kgen, caught by the golden tests.
 */
#ifndef KGEN_TPL_H
#define KGEN_TPL_H

#include "util.h"

#define TPL_MAX_ARGS 48

struct tpl_args {
	size_t n;
	struct {
		const char *name;
		char *value;
		int used;
	} v[TPL_MAX_ARGS];
	int failed;
};

void tpl_init(struct tpl_args *a);
void tpl_free(struct tpl_args *a);
/* Set placeholder `name` to a formatted value. */
void tpl_set(struct tpl_args *a, const char *name, const char *fmt, ...) KGEN_PRINTF(3, 4);
/* Show section `name` of the template when `shown`, else hide it. */
#define tpl_show(a, name, shown) tpl_set(a, name, "%s", (shown) ? "1" : "")
/* Render template `tpl` (a path under templates/) with args a, appending to out.
 * The args are freed. */
kgen_status tpl_render(strbuf *out, const char *tpl, struct tpl_args *a, kgen_error *err);
/* Render template `tpl` with args `a` into placeholder `name` of `parent`. */
kgen_status tpl_render_into(struct tpl_args *parent, const char *name, const char *tpl, struct tpl_args *a,
                            kgen_error *err);

/* The text of an embedded template; NULL if there is none of that name. */
const char *kgen_template(const char *name);

#endif
