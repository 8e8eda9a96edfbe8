/*
 * plot_read.c - the inputs of `kgen plot` (plot.h): kgen run's --tsv table,
 * its --json rows, kgen tune's records and a size plan, told apart by the
 * first line: "spec<TAB>..." is a table, "{" a JSON line (a row when it has
 * "spec" and "gbs", a record when it has "key" and "spec_hash"), and a plan
 * is what kgen check takes as one.  Columns and fields are read by name,
 * so that tables older than the last columns (method, spread) still read.
 * The JSON is kgen's own: one flat object a line, whose values are
 * strings, numbers, true, false or null (nan and inf); no JSON library.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "plot.h"
#include "gen/spec.h"
#include "gen/util.h"

/* The fields a row or a record is read from (a table's columns, a JSON
 * line's names), their values as text; NULL value: JSON's null. */
#define MAX_FIELDS 64
struct fields {
	int n;
	char *name[MAX_FIELDS], *value[MAX_FIELDS];
	int column[MAX_FIELDS];  /* where the value starts on its line, 1-based */
};

/* A failure at file:line:column (column 0: the line's start). */
static kgen_status KGEN_PRINTF(5, 6)
fail_at(kgen_error *err, const char *file, int line, int column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kgen_vfail(err, KGEN_EINVAL, fmt, ap);
	va_end(ap);
	snprintf(err->file, sizeof err->file, "%s", file);
	err->line = line;
	err->column = column > 0 ? column : 1;
	err->source_line[0] = '\0';
	return KGEN_EINVAL;
}

static void
free_fields(struct fields *f)
{
	int i;

	for (i = 0; i < f->n; i++) {
		free(f->name[i]);
		free(f->value[i]);
	}
	f->n = 0;
}

/* The value of field name; NULL when absent or null. */
static const char *
field(const struct fields *f, const char *name, int *column)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->name[i], name) == 0) {
			if (column)
				*column = f->column[i];
			return f->value[i];
		}
	return NULL;
}

/* Field name as a number (a missing or null one: -1, as kgen writes "none"). */
static kgen_status
number(const struct fields *f, const char *name, double *v, const char *file, int line, kgen_error *err)
{
	int col = 0;
	const char *s = field(f, name, &col);
	char *end;

	if (!s) {
		*v = -1;
		return KGEN_OK;
	}
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE) {
		char q[64];
		return fail_at(err, file, line, col, "%s '%s' is no number", name, kgen_quote(s, q, sizeof q));
	}
	if (!isfinite(*v))
		*v = -1;
	return KGEN_OK;
}

/* Append a field (value may be NULL: null); -1 when out of memory or full. */
static int
add_field(struct fields *f, const char *name, size_t nlen, const char *value, size_t vlen, int column)
{
	char *n, *v = NULL;

	if (f->n == MAX_FIELDS || !(n = malloc(nlen + 1)) || (value && !(v = malloc(vlen + 1)))) {
		if (f->n < MAX_FIELDS)
			free(n);
		return -1;
	}
	memcpy(n, name, nlen);
	n[nlen] = '\0';
	if (v) {
		memcpy(v, value, vlen);
		v[vlen] = '\0';
	}
	f->name[f->n] = n;
	f->value[f->n] = v;
	f->column[f->n++] = column;
	return 0;
}

/* One --tsv cell, its \\ \t \n \r read back (kgen_tsv_text), in place. */
static void
tsv_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* The cells of a tab-separated line (len bytes, no newline) as fields named by header. */
static kgen_status
tsv_fields(const char *line, size_t len, const struct fields *header, struct fields *f, const char *file, int no,
           kgen_error *err)
{
	size_t start = 0, i;
	int cell = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != '\t')
			continue;
		if (cell < header->n && add_field(f, header->name[cell], strlen(header->name[cell]), line + start,
		                                  i - start, (int)start + 1))
			return kgen_fail(err, KGEN_ENOMEM, "out of memory");
		if (cell < header->n)
			tsv_unescape(f->value[cell]);
		cell++;
		start = i + 1;
	}
	/* kgen run before 2026-12-05 wrote transpose, reduce_axis and rows rows
	 * without the header's last two cells (method, spread): read as absent. */
	if (cell != header->n && !(cell == header->n - 2 && !strcmp(header->name[cell], "method") &&
	                           !strcmp(header->name[cell + 1], "spread")))
		return fail_at(err, file, no, 0, "%d cells, where the header has %d", cell, header->n);
	return KGEN_OK;
}

/* The header of a table: the names of its columns, which kgen run's
 * are (n, time_us and gbs at least). */
static kgen_status
tsv_header(const char *line, size_t len, struct fields *header, const char *file, int no, kgen_error *err)
{
	size_t start = 0, i;

	for (i = 0; i <= len; i++)
		if (i == len || line[i] == '\t') {
			if (add_field(header, line + start, i - start, "", 0, (int)start + 1))
				return kgen_fail(err, KGEN_ENOMEM, "out of memory");
			start = i + 1;
		}
	if (!field(header, "n", NULL) || !field(header, "gbs", NULL) || !field(header, "time_us", NULL))
		return fail_at(err, file, no, 0, "a header without n, time_us and gbs: not kgen run's --tsv table");
	return KGEN_OK;
}

/* The hex digit's value; -1 when c is none. */
static int
hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A JSON string at *p (after its opening quote) into buf, UTF-8; *p past
 * the closing quote.  -1 when it is not one (an escape, an end). */
static int
json_string(const char **p, strbuf *buf)
{
	const char *s = *p;

	for (; *s && *s != '"'; s++) {
		unsigned cp = 0;
		int i;
		if ((unsigned char)*s < 0x20)
			return -1;
		if (*s != '\\') {
			char c[2] = { *s, 0 };
			sb_puts(buf, c);
			continue;
		}
		switch (*++s) {
		case '"': case '\\': case '/': { char c[2] = { *s, 0 }; sb_puts(buf, c); continue; }
		case 'b': sb_puts(buf, "\b"); continue;
		case 'f': sb_puts(buf, "\f"); continue;
		case 'n': sb_puts(buf, "\n"); continue;
		case 'r': sb_puts(buf, "\r"); continue;
		case 't': sb_puts(buf, "\t"); continue;
		case 'u': break;
		default: return -1;
		}
		for (i = 1; i <= 4; i++)
			if (hex(s[i]) < 0)
				return -1;
			else
				cp = cp << 4 | (unsigned)hex(s[i]);
		s += 4;
		if (cp >= 0xd800 && cp < 0xdc00 && s[1] == '\\' && s[2] == 'u') {  /* a surrogate pair */
			unsigned lo = 0;
			for (i = 3; i <= 6; i++)
				lo = hex(s[i]) < 0 ? 0x10000 : lo << 4 | (unsigned)hex(s[i]);
			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				s += 6;
			}
		}
		if (cp >= 0xd800 && cp < 0xe000)
			cp = 0xfffd;
		if (cp < 0x80)
			sb_printf(buf, "%c", cp ? (int)cp : '?');
		else if (cp < 0x800)
			sb_printf(buf, "%c%c", 0xc0 | cp >> 6, 0x80 | (cp & 0x3f));
		else if (cp < 0x10000)
			sb_printf(buf, "%c%c%c", 0xe0 | cp >> 12, 0x80 | (cp >> 6 & 0x3f), 0x80 | (cp & 0x3f));
		else
			sb_printf(buf, "%c%c%c%c", 0xf0 | cp >> 18, 0x80 | (cp >> 12 & 0x3f), 0x80 | (cp >> 6 & 0x3f),
			          0x80 | (cp & 0x3f));
	}
	if (*s != '"')
		return -1;
	*p = s + 1;
	return 0;
}

static const char *
skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* A JSON line, one flat object, as fields. */
static kgen_status
json_fields(const char *line, struct fields *f, const char *file, int no, kgen_error *err)
{
	const char *p = skip_space(line);
	strbuf name, value;
	kgen_status st = KGEN_OK;

	if (*p++ != '{')
		return fail_at(err, file, no, (int)(p - line), "expected a JSON object, one a line");
	sb_init(&name);
	sb_init(&value);
	for (p = skip_space(p); *p != '}';) {
		const char *v;
		size_t vlen = 0;
		int col;
		name.len = value.len = 0;
		if (name.s)
			name.s[0] = '\0';
		if (value.s)
			value.s[0] = '\0';
		if (*p != '"' || (++p, json_string(&p, &name)) || *(p = skip_space(p)) != ':') {
			st = fail_at(err, file, no, (int)(p - line) + 1, "expected \"NAME\": VALUE");
			break;
		}
		v = p = skip_space(p + 1);
		col = (int)(p - line) + 1;
		if (*p == '"') {
			p++;
			if (json_string(&p, &value)) {
				st = fail_at(err, file, no, col, "a string that does not end, or a bad escape");
				break;
			}
			v = value.s ? value.s : "";
			vlen = value.len;
		} else if (strncmp(p, "null", 4) == 0) {
			v = NULL;
			p += 4;
		} else {
			p += strcspn(p, ",} \t\r");
			if (p == v || *v == '{' || *v == '[') {
				st = fail_at(err, file, no, col, "expected a string, a number or null (kgen writes no nested values)");
				break;
			}
			vlen = (size_t)(p - v);
		}
		if (add_field(f, name.s ? name.s : "", name.len, v, vlen, col)) {
			st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
			break;
		}
		if (*(p = skip_space(p)) == ',')
			p = skip_space(p + 1);
		else if (*p != '}') {
			st = fail_at(err, file, no, (int)(p - line) + 1, "expected ',' or '}'");
			break;
		}
	}
	if (!st && *skip_space(p + 1))
		st = fail_at(err, file, no, (int)(p - line) + 2, "text after the object");
	if (name.failed || value.failed)
		st = kgen_fail(err, KGEN_ENOMEM, "out of memory");
	sb_free(&name);
	sb_free(&value);
	return st;
}

/* A field that must be there, as text. */
static kgen_status
text(const struct fields *f, const char *name, char **out, const char *file, int line, kgen_error *err)
{
	const char *s = field(f, name, NULL);

	if (!s)
		return fail_at(err, file, line, 0, "no %s", name);
	if (!(*out = kgen_strdup(s)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	return KGEN_OK;
}

double
kgen_plot_size_count(const char *size, int *plain)
{
	double count = 1;
	const char *p = size;
	int parts = 0;

	for (;;) {
		char *end;
		if (!isdigit((unsigned char)*p))
			return 0;
		count *= (double)strtoull(p, &end, 10);
		p = end;
		parts++;
		if (*p != 'x')
			break;
		p++;
	}
	if (*p)
		return 0;
	if (plain)
		*plain = parts == 1;
	return count;
}

int
kgen_plot_cmp_size(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	double cx = kgen_plot_size_count(x, NULL), cy = kgen_plot_size_count(y, NULL);

	return cx < cy ? -1 : cx > cy ? 1 : strcmp(x, y);
}

/* One row of kgen run's table, from its fields: appended to in->rows when
 * it was timed and verified (or not checked: "-"), else counted. */
static kgen_status
add_row(struct plot_input *in, const struct fields *f, const char *file, int line, kgen_error *err)
{
	struct plot_row r = { .file = file, .line = line };
	const char *verify = field(f, "verify", NULL), *method = field(f, "method", NULL);
	double peer_us, peer_gbs;
	kgen_status st;
	int col = 0;
	void *grown;

	if ((st = number(f, "time_us", &r.time_us, file, line, err)) || (st = number(f, "gbs", &r.rate, file, line, err)) ||
	    (st = number(f, "cub_us", &peer_us, file, line, err)) || (st = number(f, "cub_gbs", &peer_gbs, file, line, err)))
		return st;
	if (!field(f, "n", &col) || kgen_plot_size_count(field(f, "n", NULL), NULL) <= 0)
		return fail_at(err, file, line, col, "n is no size (N, RxC or MxNxK)");
	if (r.rate <= 0 || r.time_us <= 0) {
		in->untimed++;
		return KGEN_OK;
	}
	if (verify && strcmp(verify, "ok") != 0 && strcmp(verify, "-") != 0) {
		in->unverified++;
		return KGEN_OK;
	}
	/* The peer did the same work: its rate is kgen's scaled by the times where the table gives none (matmul). */
	r.peer_rate = peer_gbs > 0 ? peer_gbs : peer_us > 0 ? r.rate * r.time_us / peer_us : -1;
	if (!(grown = realloc(in->rows, (size_t)(in->nrows + 1) * sizeof *in->rows)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	in->rows = grown;
	if ((st = text(f, "spec", &r.spec, file, line, err)) || (st = text(f, "dtype", &r.dtype, file, line, err)) ||
	    (st = text(f, "op", &r.op, file, line, err)) || (st = text(f, "n", &r.size, file, line, err)) ||
	    !(r.method = kgen_strdup(method ? method : ""))) {
		free(r.spec);
		free(r.dtype);
		free(r.op);
		free(r.size);
		return st ? st : kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	in->rows[in->nrows++] = r;
	return KGEN_OK;
}

/* One of kgen tune's records: appended when it verified with a time. */
static kgen_status
add_record(struct plot_input *in, const struct fields *f, const char *file, int line, kgen_error *err)
{
	struct plot_record r = { .file = file, .line = line };
	const char *verify = field(f, "verify", NULL), *m = field(f, "m", NULL), *n = field(f, "n", NULL);
	const char *rows = field(f, "rows", NULL), *cols = field(f, "cols", NULL), *k = field(f, "k", NULL);
	char size[96];
	kgen_status st;
	void *grown;

	if ((st = number(f, "median_us", &r.us, file, line, err)))
		return st;
	if (!verify || strcmp(verify, "ok") != 0 || r.us <= 0) {
		in->unverified++;
		return KGEN_OK;
	}
	if (m && n && k)
		snprintf(size, sizeof size, "%sx%sx%s", m, n, k);
	else if (rows && cols)
		snprintf(size, sizeof size, "%sx%s", rows, cols);
	else if (n)
		snprintf(size, sizeof size, "%s", n);
	else
		return fail_at(err, file, line, 0, "a record with no size (n, rows and cols, or m, n and k)");
	if ((r.order = kgen_plot_size_count(size, NULL)) <= 0)
		return fail_at(err, file, line, 0, "the record's size %s is no size", size);
	r.n = !m && !rows ? strtoull(n, NULL, 10) : 0;
	if (!(grown = realloc(in->recs, (size_t)(in->nrecs + 1) * sizeof *in->recs)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	in->recs = grown;
	if (field(f, "peer", NULL) && !field(f, "spec_hash", NULL))  /* kgen tune --against cub's own measurement */
		st = text(f, "peer", &r.label, file, line, err);
	else if (!(st = text(f, "spec_hash", &r.hash, file, line, err)))
		st = text(f, "label", &r.label, file, line, err);
	if (st || (st = text(f, "method", &r.method, file, line, err)) || !(r.size = kgen_strdup(size))) {
		free(r.hash);
		free(r.label);
		free(r.method);
		return st ? st : kgen_fail(err, KGEN_ENOMEM, "out of memory");
	}
	in->recs[in->nrecs++] = r;
	return KGEN_OK;
}

/* Which kind of line: 1 a table row, 2 a record, 0 neither. */
static int
json_kind(const struct fields *f)
{
	if (field(f, "key", NULL) && (field(f, "spec_hash", NULL) || field(f, "peer", NULL)))
		return 2;
	if (field(f, "spec", NULL) && field(f, "n", NULL) && field(f, "gbs", NULL))
		return 1;
	return 0;
}

/* The lines of a table or of JSON lines. */
static kgen_status
read_lines(char *text, const char *file, struct plot_input *in, kgen_error *err)
{
	struct fields header = { 0 }, f = { 0 };
	char *line = text, *nl;
	int no = 0, tsv = strncmp(text, "spec\t", 5) == 0, kind = 0, taken = 0;
	kgen_status st = KGEN_OK;

	for (; *line && !st; line = nl) {
		size_t len;
		no++;
		nl = line + strcspn(line, "\n");
		len = (size_t)(nl - line);
		if (*nl)
			*nl++ = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (tsv && no == 1) {
			st = tsv_header(line, len, &header, file, no, err);
			continue;
		}
		if (tsv) {
			st = tsv_fields(line, len, &header, &f, file, no, err);
			kind = 1;
		} else {
			int k;
			if (!(st = json_fields(line, &f, file, no, err)) && !(k = json_kind(&f)))
				st = fail_at(err, file, no, 0, "neither a row of kgen run --json (spec, n, gbs) nor a record of "
				             "kgen tune (key, spec_hash or peer)");
			else if (!st && kind && k != kind)
				st = fail_at(err, file, no, 0, "a %s among %s", k == 2 ? "record of kgen tune" : "row of kgen run",
				             kind == 2 ? "kgen tune's records" : "kgen run's rows");
			else if (!st)
				kind = k;
		}
		if (!st)
			st = kind == 2 ? add_record(in, &f, file, no, err) : add_row(in, &f, file, no, err);
		free_fields(&f);
		taken++;
	}
	free_fields(&header);
	free_fields(&f);
	if (!st && !taken)
		st = fail_at(err, file, no ? no : 1, 0, "no rows: %s", tsv ? "a header alone" : "an empty file");
	return st;
}

kgen_status
kgen_plot_read(const char *path, struct plot_input *in, kgen_error *err)
{
	const char *file = strcmp(path, "-") == 0 ? "<stdin>" : path;
	char *text = NULL, **grown, *name;
	size_t len = 0, skip;
	kgen_status st;

	if (!(grown = realloc(in->files, (size_t)(in->nfiles + 1) * sizeof *in->files)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	in->files = grown;
	if (!(name = kgen_strdup(file)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	in->files[in->nfiles++] = name;
	if ((st = kgen_read_file(path, &text, &len, err)))
		return st;
	if (memchr(text, '\0', len)) {
		free(text);
		return fail_at(err, name, 1, 0, "a NUL byte: not a table, records or a plan");
	}
	skip = strspn(text, " \t\r\n");
	if (text[skip] == '\0') {
		free(text);
		return fail_at(err, name, 1, 0, "an empty file: expected kgen run's --tsv or --json, kgen tune's records "
		               "or a size plan");
	}
	if (strncmp(text, "spec\t", 5) == 0 || text[skip] == '{') {
		st = read_lines(text, name, in, err);
	} else if (kgen_plan_text_is_plan(text, len)) {
		if (in->plan)
			st = kgen_fail(err, KGEN_EINVAL, "two plans, %s and %s: give one", in->plan_file, name);
		else if (!(st = kgen_plan_load_string(text, len, name, &in->plan, err)))
			in->plan_file = name;
	} else {
		st = fail_at(err, name, 1, 0, "not kgen run's --tsv table (a header \"spec<TAB>dtype...\"), its --json "
		             "rows or kgen tune's records (JSON objects), nor a size plan");
	}
	free(text);
	return st;
}

void
kgen_plot_free(struct plot_input *in)
{
	int i;

	for (i = 0; i < in->nrows; i++) {
		free(in->rows[i].spec);
		free(in->rows[i].dtype);
		free(in->rows[i].op);
		free(in->rows[i].size);
		free(in->rows[i].method);
	}
	for (i = 0; i < in->nrecs; i++) {
		free(in->recs[i].hash);
		free(in->recs[i].label);
		free(in->recs[i].size);
		free(in->recs[i].method);
	}
	for (i = 0; i < in->nfiles; i++)
		free(in->files[i]);
	free(in->rows);
	free(in->recs);
	free(in->files);
	kgen_plan_free(in->plan);
	memset(in, 0, sizeof *in);
}
