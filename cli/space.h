/* space.h - spec spaces (space.c): a spec whose values may be lists or
 * ranges, expanded into the points the validator accepts. */
#ifndef KGEN_SPACE_H
#define KGEN_SPACE_H

#include <stdio.h>
#include "kgen.h"

#define KGEN_SPACE_REASONS 64

/* An accepted point: its spec text, and the keys that vary, "threads=256 items_per_thread=8". */
struct kgen_point {
	char *yaml;
	char *label;
};

struct kgen_points {
	struct kgen_point *v;
	int n;                   /* accepted */
	long long total;         /* expanded */
	struct {
		char text[256], example[1024];
		int count;
	} reasons[KGEN_SPACE_REASONS];  /* the refusals, grouped by rule */
	int nreasons;
};

/* Expand the space at path, each --set KEY=VALUE replacing the key's
 * values (or adding the key), and validate every point. */
kgen_status kgen_space_expand(const char *path, char **sets, int nsets, struct kgen_points *pts, kgen_error *err);
/* The same from text (len bytes; path names it in errors), refusing a
 * space of more than max_points points (kgen_space_expand: 200000). */
kgen_status kgen_space_expand_text(const char *text, size_t len, const char *path, char **sets, int nsets,
                                   long long max_points, struct kgen_points *pts, kgen_error *err);

/* "PATH: N points, A accepted, R refused", then a line per refusal rule. */
void kgen_space_print_counts(const char *path, const struct kgen_points *pts, FILE *fp);

void kgen_points_free(struct kgen_points *pts);

#endif
