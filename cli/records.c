/* records.c - reading back one line of kgen tune's records (records.h). */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "records.h"

/* The text of field "name" (a string) of a record line, unescaped, into buf; NULL when absent. */
static const char *
json_field_string(const char *line, const char *name, char *buf, size_t n)
{
	char pat[64];
	const char *p;
	size_t used = 0;

	snprintf(pat, sizeof pat, "\"%s\":\"", name);
	if (!(p = strstr(line, pat)))
		return NULL;
	for (p += strlen(pat); *p && *p != '"' && used + 1 < n; p++) {
		if (*p == '\\' && p[1])
			p++;
		buf[used++] = *p;
	}
	buf[used] = '\0';
	return *p == '"' ? buf : NULL;
}

/* Field "name" (a number) of a record line; -1 when absent. */
static double
json_field_number(const char *line, const char *name)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof pat, "\"%s\":", name);
	return (p = strstr(line, pat)) ? strtod(p + strlen(pat), NULL) : -1;
}

int
kgen_record_parse(const char *line, size_t len, struct kgen_record *r)
{
	char verify[16];

	/* A record is a whole line, "{...}\n": a cut-off one (an interrupted run) is skipped. */
	if (len < 3 || line[len - 1] != '\n' || line[len - 2] != '}' || memchr(line, '\0', len))
		return 0;
	if (!json_field_string(line, "key", r->key, sizeof r->key) ||
	    !json_field_string(line, "verify", verify, sizeof verify))
		return 0;
	r->ok = strcmp(verify, "ok") == 0;
	r->median_us = r->ok ? json_field_number(line, "median_us") : -1;
	r->spread = json_field_number(line, "spread");
	if (r->ok && !(isfinite(r->median_us) && r->median_us > 0))
		return 0;
	return 1;
}
