/*
 * json.c - the command line's JSON output: `kgen check --json` prints each
 * diagnostic as one JSON object on a line of its own, `kgen run --json
 * FILE` writes each result as one (the columns of --tsv), and `kgen tune`
 * writes its records with the same string escaping.  Output only: kgen
 * reads back nothing but its own records (tune.c).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gen/util.h"

void
kgen_json_string(FILE *fp, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
}

void
kgen_json_error(FILE *fp, const char *path, const kgen_error *err)
{
	fputs("{\"file\": \"", fp);
	kgen_json_string(fp, err->file[0] ? err->file : path ? path : "");
	fprintf(fp, "\", \"line\": %d, \"column\": %d, \"severity\": \"error\", \"status\": \"%s\", \"exit\": %d, "
	        "\"message\": \"", err->line, err->column, kgen_status_name(err->status), kgen_exit_status(err->status));
	kgen_json_string(fp, err->message);
	fputs("\", \"source_line\": \"", fp);
	kgen_json_string(fp, err->source_line);
	fputs("\"}\n", fp);
}

/* Is the whole of text a JSON number (as strtod reads it, finite)? */
static int
is_number(const char *text)
{
	char *end;

	/* strtod also reads hex, inf and nan, which JSON has not: digits, a
	 * sign, a point and an exponent only. */
	if (!*text || text[strspn(text, "0123456789-.eE")] || text[0] == '.')
		return 0;
	strtod(text, &end);
	return *end == '\0';
}

kgen_status
kgen_json_from_tsv(FILE *tsv, FILE *out, kgen_error *err)
{
	char line[4096], head[4096], *names[64], *cell, *save = NULL;
	int nnames = 0, i;

	if (!fgets(head, sizeof head, tsv))
		return KGEN_OK;
	head[strcspn(head, "\n")] = '\0';
	for (cell = strtok_r(head, "\t", &save); cell && nnames < 64; cell = strtok_r(NULL, "\t", &save))
		names[nnames++] = cell;
	while (fgets(line, sizeof line, tsv)) {
		char *p = line, *tab;
		line[strcspn(line, "\n")] = '\0';
		fputc('{', out);
		for (i = 0; p && i < nnames; i++) {
			if ((tab = strchr(p, '\t')))
				*tab = '\0';
			fprintf(out, "%s\"%s\": ", i ? ", " : "", names[i]);
			if (is_number(p)) {
				fputs(p, out);
			} else {
				fputc('"', out);
				kgen_json_string(out, p);
				fputc('"', out);
			}
			p = tab ? tab + 1 : NULL;
		}
		fputs("}\n", out);
	}
	if (ferror(tsv) || ferror(out))
		return kgen_fail(err, KGEN_EIO, "cannot write the JSON results");
	return KGEN_OK;
}
