/* shipped.c - the size plans kgen ships, one folder a GPU model
 * (specs/plans/nvidia-h200/OP-DTYPE.yaml, installed in
 * $(pkgdatadir)/plans/), found for a GPU by its name.
 *
 * A GPU's model is the first word of its name with a digit in it, words cut
 * at spaces and '-' ("NVIDIA H100 80GB HBM3" -> H100, "NVIDIA
 * A100-SXM4-80GB" -> A100), and its folder nvidia-<model in lower case>.
 * `kgen tune` writes the GPU a plan was tuned on in its header comment
 * ("# NVIDIA H200|driver 13.0|..."): a plan serves only a GPU of that
 * model.  Python's kgen.reduce asks this file too, of the package's own
 * copy (python/kgen/_plans.py). */
#include "config.h"
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kgen.h"
#include "gen/util.h"

#ifndef KGEN_PLANSDIR
#define KGEN_PLANSDIR "/usr/local/share/kgen/plans"
#endif

/* The model in a GPU's name, into out (at most size - 1 characters); 0
 * when the name has none, or one that is not letters and digits alone. */
static int
gpu_model(const char *name, char *out, size_t size)
{
	const char *p = name, *w;
	size_t len, i;
	int digit, word;

	while (*p) {
		while (*p && (isspace((unsigned char)*p) || *p == '-'))
			p++;
		for (w = p, digit = 0, word = 1; *p && !isspace((unsigned char)*p) && *p != '-'; p++) {
			digit |= isdigit((unsigned char)*p) != 0;
			word &= isalnum((unsigned char)*p) != 0;
		}
		if (!digit)
			continue;
		if (!word || (len = (size_t)(p - w)) >= size)
			return 0;
		for (i = 0; i < len; i++)
			out[i] = (char)tolower((unsigned char)w[i]);
		out[len] = '\0';
		return 1;
	}
	return 0;
}

/* The model of the GPU a plan file says it was tuned on (its header's
 * "# NAME|driver ..." line), into out; 0 when it says none. */
static int
tuned_model(const char *path, char *out, size_t size)
{
	char *line = NULL, *bar;
	size_t cap = 0;
	const char *p;
	struct stat st;
	FILE *fp;
	int found = 0, fd;

	/* A path kgen made: only a regular file, opened without blocking. */
	if ((fd = kgen_open_regular(path, O_RDONLY, &st)) < 0)
		return 0;
	if (!(fp = fdopen(fd, "r"))) {
		close(fd);
		return 0;
	}
	/* Whole lines, however long: kgen tune's command line comes first. */
	while (getline(&line, &cap, fp) > 0 && line[0] == '#') {
		if (!(bar = strstr(line, "|driver ")))
			continue;
		*bar = '\0';
		for (p = line + 1; isspace((unsigned char)*p); p++)
			;
		found = gpu_model(p, out, size);
		break;
	}
	free(line);
	fclose(fp);
	return found;
}

/* An op or dtype name as a file name takes it: letters, digits and '_'. */
static int
plain_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

const char *
kgen_plans_dir(void)
{
	const char *env = getenv("KGEN_PLANS_DIR");

	return env && *env ? env : KGEN_PLANSDIR;
}

kgen_status
kgen_plan_shipped_path(const char *dir, const char *gpu, const char *op, const char *dtype, char *path, size_t size,
                       kgen_error *err)
{
	char model[64], tuned[64];
	int n;

	if (!gpu || !op || !dtype || !path || !size)
		return kgen_fail(err, KGEN_EINVAL, "kgen_plan_shipped_path: NULL argument");
	if (!dir || !*dir)
		dir = kgen_plans_dir();
	path[0] = '\0';
	if (!plain_name(op) || !plain_name(dtype))
		return kgen_fail(err, KGEN_EINVAL, "no shipped plan is named '%.40s-%.40s': an op and a dtype, e.g. sum-f32",
		                 op, dtype);
	if (!gpu_model(gpu, model, sizeof model))
		return KGEN_OK;  /* a GPU without a model has no folder */
	n = snprintf(path, size, "%s/nvidia-%s/%s-%s.yaml", dir, model, op, dtype);
	if (n < 0 || (size_t)n >= size) {
		path[0] = '\0';
		return kgen_fail(err, KGEN_EINVAL, "the shipped plans' folder %.200s makes a path over %zu bytes", dir,
		                 size - 1);
	}
	if (!tuned_model(path, tuned, sizeof tuned) || strcmp(tuned, model) != 0)
		path[0] = '\0';  /* none, or not tuned on this model: not its plan */
	return KGEN_OK;
}
