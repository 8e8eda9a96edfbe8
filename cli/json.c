/*
 * json.c - the command line's JSON output: `kgen check --json` prints each
 * diagnostic as one JSON object on a line of its own, `kgen run --json
 * FILE` writes each result as one (the columns of --tsv), and `kgen tune`
 * writes its records with the same string escaping.  Output only: kgen
 * reads back nothing but its own records (tune.c).
 */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gen/util.h"

void
kgen_json_string(FILE *fp, const char *s)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int len = kgen_utf8_length(s);
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\u%04x", c);
		else if (len == 0)  /* no UTF-8 (a Latin-1 file name): the byte read as Latin-1 */
			fprintf(fp, "\\u%04x", c);
		else
			fwrite(s, 1, (size_t)len, fp);
		s += len ? len : 1;
	}
}

void
kgen_json_error(FILE *fp, const char *path, const kgen_error *err)
{
	const char *file = err->file[0] ? err->file : path ? path : "";
	size_t n = path ? strlen(path) : 0, len = strlen(file);
	char overrides[sizeof err->file];

	/* An error of the overrides, without a line: "s.yaml (--set x=1)" is
	 * the file s.yaml and the overrides "--set x=1", each a member. */
	fputs("{\"file\": \"", fp);
	if (n && len > n + 3 && strncmp(file, path, n) == 0 && strncmp(file + n, " (", 2) == 0 && file[len - 1] == ')') {
		snprintf(overrides, sizeof overrides, "%.*s", (int)(len - n - 3), file + n + 2);
		kgen_json_string(fp, path);
		fputs("\", \"overrides\": \"", fp);
		kgen_json_string(fp, overrides);
	} else {
		kgen_json_string(fp, file);
	}
	fprintf(fp, "\", \"line\": %d, \"column\": %d, \"severity\": \"error\", \"status\": \"%s\", \"exit\": %d, "
	        "\"message\": \"", err->line, err->column, kgen_status_name(err->status), kgen_exit_status(err->status));
	kgen_json_string(fp, err->message);
	fputs("\", \"source_line\": \"", fp);
	kgen_json_string(fp, err->source_line);
	fputs("\"}\n", fp);
}

/* Is the whole of text a number in JSON's grammar: -?(0|[1-9][0-9]*)
 * (.[0-9]+)?([eE][+-]?[0-9]+)?  ("01", "1.", "1e5" as a spec path, hex,
 * inf and nan are not)? */
static int
is_json_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		p += strspn(p, "0123456789");
	else
		return 0;
	if (*p == '.') {
		if (!isdigit((unsigned char)p[1]))
			return 0;
		p += 1 + strspn(p + 1, "0123456789");
	}
	if (*p == 'e' || *p == 'E') {
		p += p[1] == '+' || p[1] == '-' ? 2 : 1;
		if (!isdigit((unsigned char)*p))
			return 0;
		p += strspn(p, "0123456789");
	}
	return *p == '\0';
}

void
kgen_tsv_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", fp);
		else if (*s == '\t')
			fputs("\\t", fp);
		else if (*s == '\n')
			fputs("\\n", fp);
		else if (*s == '\r')
			fputs("\\r", fp);
		else
			fputc(*s, fp);
	}
}

/* A cell of kgen_tsv_text() back as it was, in place. */
static void
tsv_unescape(char *cell)
{
	char *in = cell, *out = cell;

	for (; *in; in++) {
		if (*in == '\\' && in[1]) {
			in++;
			*out++ = *in == 't' ? '\t' : *in == 'n' ? '\n' : *in == 'r' ? '\r' : *in;
		} else {
			*out++ = *in;
		}
	}
	*out = '\0';
}

/* The columns that hold names, never numbers, whatever they look like. */
static int
text_column(const char *name)
{
	static const char *const text[] = { "spec", "dtype", "op", "verify", "method" };
	size_t i;

	for (i = 0; i < KGEN_COUNT(text); i++)
		if (strcmp(name, text[i]) == 0)
			return 1;
	return 0;
}

/* One cell as a JSON value: a text column's as a string; a number as
 * itself; a measurement printf wrote as nan or inf (JSON has neither) as
 * null; anything else (a shape, 1000x3001) as a string. */
static void
json_value(FILE *out, const char *column, char *cell)
{
	const char *p = cell + (*cell == '-');

	tsv_unescape(cell);
	if (!text_column(column) && is_json_number(cell)) {
		fputs(cell, out);
	} else if (!text_column(column) && (strcmp(p, "nan") == 0 || strcmp(p, "inf") == 0)) {
		fputs("null", out);
	} else {
		fputc('"', out);
		kgen_json_string(out, cell);
		fputc('"', out);
	}
}

kgen_status
kgen_json_from_tsv(FILE *tsv, FILE *out, kgen_error *err)
{
	char *line = NULL, head[4096], *names[64], *cell, *save = NULL;
	size_t cap = 0;
	int nnames = 0, i;

	if (!fgets(head, sizeof head, tsv))
		return KGEN_OK;
	head[strcspn(head, "\n")] = '\0';
	for (cell = strtok_r(head, "\t", &save); cell && nnames < 64; cell = strtok_r(NULL, "\t", &save))
		names[nnames++] = cell;
	/* Rows of any length: a spec path may be long. */
	while (getline(&line, &cap, tsv) > 0) {
		char *p = line, *tab;
		line[strcspn(line, "\n")] = '\0';
		fputc('{', out);
		for (i = 0; p && i < nnames; i++) {
			if ((tab = strchr(p, '\t')))
				*tab = '\0';
			fputs(i ? ", \"" : "\"", out);
			kgen_json_string(out, names[i]);
			fputs("\": ", out);
			json_value(out, names[i], p);
			p = tab ? tab + 1 : NULL;
		}
		fputs("}\n", out);
	}
	free(line);
	if (ferror(tsv) || ferror(out))
		return kgen_fail(err, KGEN_EIO, "cannot write the JSON results");
	return KGEN_OK;
}
