/*
 * keys.c - `kgen keys [FAMILY]`: each family's keys and the values they
 * take, printed from the key table (gen/spec.h) and the families' key
 * lists (gen/family.h), so that what reads them cannot fall behind: the
 * man page test (tests/man_test.sh) and bash completion
 * (completions/kgen.bash) ask this command rather than keep lists of
 * their own.
 *
 * One line per key, tab-separated: family, key, type (enum, int, name,
 * expr), values (enum values space-separated, MIN..MAX, NAME or EXPR) and
 * the default as YAML writes it, empty where it is derived from other keys
 * or the key is required (kernel).
 */
#include "config.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "gen/spec.h"
#include "gen/family.h"
#include "gen/util.h"

/* The families, "reduce, transpose, reduce_axis", from the table. */
static void
print_families(FILE *fp)
{
	int i;

	for (i = 0; i < KGEN_FAMILY_COUNT; i++)
		fprintf(fp, "%s%s", i ? ", " : "", kgen_family((enum kgen_family_id)i)->name);
}

static void
usage(FILE *fp)
{
	fputs("usage: kgen keys [FAMILY]\n"
	      "Each key of each kernel family, or of FAMILY, one per line, tab-separated:\n"
	      "family, key, type (enum, int, name, expr, set), the values the family takes\n"
	      "(enum and set values space-separated, a set's given apart by commas; MIN..MAX,\n"
	      "or the integers themselves where the family takes a few; NAME for a C\n"
	      "identifier, EXPR for a C expression)\n"
	      "and the family's default (empty when derived from other keys, and for kernel,\n"
	      "which every spec gives).  No GPU needed; docs/spec.md says what each key does.\n"
	      "The families: ", fp);
	print_families(fp);
	fputs(".\n", fp);
}

/* The type column of key k. */
static const char *
type_name(enum kgen_key_type t)
{
	switch (t) {
	case KT_ENUM: return "enum";
	case KT_INT: return "int";
	case KT_NAME: return "name";
	case KT_EXPR: return "expr";
	case KT_SET: return "set";
	}
	KGEN_ASSERT(!"unknown key type");
	return "?";
}

/* One line: family f's key k. */
static void
print_key(FILE *fp, const struct kgen_family *f, enum kgen_key k)
{
	const struct kgen_key_info *key = &kgen_keys[k];
	const struct kgen_enum *e;

	unsigned long long takes = kgen_family_values(f, k);  /* what the family takes of the language's values */
	const char *sep = "";
	long long v, lo, hi;

	fprintf(fp, "%s\t%s\t%s\t", f->name, key->name, type_name(key->type));
	switch (key->type) {
	case KT_ENUM:
	case KT_SET:  /* a set: any of the names but the first, apart by commas */
		for (e = key->values; e && e->name; e++)
			if (takes & KGEN_BIT(e - key->values)) {
				fprintf(fp, "%s%s", sep, e->name);
				sep = " ";
			}
		break;
	case KT_INT:
		if (!takes)
			fprintf(fp, "%lld..%lld", key->min, key->max);
		else if (kgen_int_run(k, takes, &lo, &hi)) {  /* a run of the integers a row lists */
			fprintf(fp, "%lld..%lld", lo, hi);
			takes = 0;
		}
		for (v = key->min; takes && v <= key->max && v < 64; v++)  /* the integers a row lists */
			if (takes & KGEN_BIT(v)) {
				fprintf(fp, "%s%lld", sep, v);
				sep = " ";
			}
		break;
	case KT_NAME: fputs("NAME", fp); break;
	case KT_EXPR: fputs("EXPR", fp); break;
	}
	/* kernel's "reduce" in the table only fills the struct: a spec must say it. */
	fprintf(fp, "\t%s\n", k == KGEN_KEY_kernel ? "" : kgen_family_default(f, k));
}

/* Every key of family f, in the family's order. */
static void
print_family(FILE *fp, const struct kgen_family *f)
{
	const enum kgen_key *k;

	for (k = f->keys; *k != KGEN_KEY_COUNT; k++)
		print_key(fp, f, *k);
}

/* An unknown family: say which there are (exit 2). */
static int
unknown_family(const char *name)
{
	const char *names[KGEN_FAMILY_COUNT], *near;
	int i;

	for (i = 0; i < KGEN_FAMILY_COUNT; i++)
		names[i] = kgen_family((enum kgen_family_id)i)->name;
	near = kgen_nearest_name(name, names, KGEN_FAMILY_COUNT);
	fprintf(stderr, "kgen keys: no family '%s'%s%s%s; the families: ", name, near ? " (did you mean '" : "",
	        near ? near : "", near ? "'?)" : "");
	print_families(stderr);
	fputc('\n', stderr);
	return 2;
}

/* `kgen keys [FAMILY]`; argv[0] is "kgen keys". */
int
kgen_cmd_keys(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		default: return kgen_cli_usage_error("keys", NULL);  /* getopt has said what */
		}
	}
	if (argc - optind > 1)
		return kgen_cli_usage_error("keys", "one family at a time");
	if (optind == argc) {
		for (i = 0; i < KGEN_FAMILY_COUNT; i++)
			print_family(stdout, kgen_family((enum kgen_family_id)i));
		return 0;
	}
	for (i = 0; i < KGEN_FAMILY_COUNT; i++)
		if (strcmp(argv[optind], kgen_family((enum kgen_family_id)i)->name) == 0) {
			print_family(stdout, kgen_family((enum kgen_family_id)i));
			return 0;
		}
	return unknown_family(argv[optind]);
}
