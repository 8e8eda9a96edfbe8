/* util.c - growable strings, errors, files: the small pieces every part uses. */
#define _XOPEN_SOURCE 700  /* realpath() */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "util.h"
#include "yamlin.h"

void
sb_init(strbuf *b)
{
	memset(b, 0, sizeof *b);
}

void
sb_free(strbuf *b)
{
	free(b->s);
	sb_init(b);
}

static int
sb_reserve(strbuf *b, size_t extra)
{
	size_t cap;
	char *s;

	if (b->failed)
		return 0;
	if (b->len + extra + 1 <= b->cap)
		return 1;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	if (!(s = realloc(b->s, cap))) {
		b->failed = 1;
		return 0;
	}
	b->s = s;
	b->cap = cap;
	return 1;
}

void
sb_putn(strbuf *b, const char *s, size_t n)
{
	if (!sb_reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
sb_puts(strbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

/* Formatted into the buffer's free space (at least 255 bytes of it) at
 * once, and again with room enough only when it did not fit: glibc's
 * vsnprintf(NULL, 0, ...) measures a byte at a time through a small
 * buffer, which was most of generation's time.  A "%s" alone is copied. */
void
sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	size_t room;
	int n;

	if (strcmp(fmt, "%s") == 0) {
		const char *v = va_arg(ap, const char *);
		sb_puts(b, v ? v : "(null)");  /* as glibc's printf */
		return;
	}
	if (!sb_reserve(b, 255))
		return;
	room = b->cap - b->len;
	va_copy(aq, ap);
	n = vsnprintf(b->s + b->len, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->s[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		if (!sb_reserve(b, (size_t)n)) {
			b->s[b->len] = '\0';  /* the text that did not fit is not kept */
			return;
		}
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void
sb_printf(strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

char *
sb_take(strbuf *b)
{
	char *s;

	if (b->failed) {
		sb_free(b);
		return NULL;
	}
	if (!b->s) {  /* nothing was written: an empty string, not uninitialised bytes */
		if (!sb_reserve(b, 0))
			return NULL;
		b->s[0] = '\0';
	}
	s = b->s;
	sb_init(b);
	return s;
}

kgen_status
kgen_vfail(kgen_error *err, kgen_status status, const char *fmt, va_list ap)
{
	if (err) {
		memset(err, 0, sizeof *err);
		err->status = status;
		vsnprintf(err->message, sizeof err->message, fmt, ap);
	}
	return status;
}

kgen_status
kgen_fail(kgen_error *err, kgen_status status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kgen_vfail(err, status, fmt, ap);
	va_end(ap);
	return status;
}

void
kgen_error_at(kgen_error *err, const char *file, const char *text, size_t len, int line, int col)
{
	const char *p, *end, *e;
	int l;
	size_t n;

	if (!err)
		return;
	snprintf(err->file, sizeof err->file, "%s", file ? file : "");
	err->line = line;
	err->column = col;
	err->source_line[0] = '\0';
	if (!text || line < 1)
		return;
	p = text;
	end = text + len;
	for (l = 1; l < line && p < end; p++)
		if (*p == '\n')
			l++;
	if (l != line)
		return;
	for (e = p; e < end && *e != '\n' && *e != '\r'; e++)
		;
	n = (size_t)(e - p);
	if (n >= sizeof err->source_line)
		n = sizeof err->source_line - 1;
	memcpy(err->source_line, p, n);
	err->source_line[n] = '\0';
	/* Shown on a terminal under the message: no control character (an
	 * escape sequence) gets through; a tab stays, as the caret counts it. */
	for (e = err->source_line; *e; e++)
		if (((unsigned char)*e < 0x20 && *e != '\t') || *e == 0x7f)
			err->source_line[e - err->source_line] = '?';
}

int
kgen_utf8_length(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	unsigned cp;
	int len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07u;
	else
		return 0;  /* a continuation byte, or a lead byte of no valid form */
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;  /* a NUL ends the text here too */
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;  /* overlong, past U+10FFFF, or a surrogate */
	return len;
}

const char *
kgen_escape(const char *text, char *buf, size_t n, size_t cut)
{
	static const char hex[] = "0123456789abcdef";
	size_t used = 0, chars = 0;
	const char *p = text;

	if (!n)
		return buf;
	while (*p && used + 8 < n) {
		unsigned char c = (unsigned char)*p;
		int len = kgen_utf8_length(p);
		if (cut && chars++ == cut) {  /* enough to recognise it */
			memcpy(buf + used, "...", 3);
			used += 3;
			break;
		}
		if (len == 0 || c < 0x20 || c == 0x7f || c == '\\' || (c == 0xc2 && (unsigned char)p[1] < 0xa0)) {
			/* C0, DEL, C1 (U+0080-U+009F, 0xc2 0x80-0x9f) or no UTF-8:
			 * the first byte as \xNN, the rest looked at on their own. */
			buf[used++] = '\\';
			buf[used++] = 'x';
			buf[used++] = hex[c >> 4];
			buf[used++] = hex[c & 15];
			p++;
			continue;
		}
		memcpy(buf + used, p, (size_t)len);
		used += (size_t)len;
		p += len;
	}
	buf[used] = '\0';
	return buf;
}

const char *
kgen_quote(const char *text, char *buf, size_t n)
{
	return kgen_escape(text, buf, n, 40);
}

static _Thread_local char broken[320];

void
kgen_internal(const char *file, int line, const char *what)
{
	if (!broken[0])
		snprintf(broken, sizeof broken, "internal error at %s:%d: %s (a bug in kgen: please report it)", file, line,
		         what);
}

int
kgen_take_internal(kgen_error *err)
{
	if (!broken[0])
		return 0;
	kgen_fail(err, KGEN_EINTERNAL, "%s", broken);
	broken[0] = '\0';
	return 1;
}

int
kgen_open_regular(const char *path, int flags, struct stat *st)
{
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0644), e;

	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		e = errno;
		close(fd);
		return errno = e, -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return -2;
	}
	if (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		e = errno;
		close(fd);
		return errno = e, -1;
	}
	return fd;
}

kgen_status
kgen_read_file(const char *path, char **text, size_t *len, kgen_error *err)
{
	FILE *fp;
	strbuf b;
	char chunk[8192];
	size_t n;
	int is_stdin = strcmp(path, "-") == 0;

	if (!(fp = is_stdin ? stdin : fopen(path, "rb")))
		return kgen_fail(err, KGEN_EIO, "cannot open %s: %s", path, strerror(errno));
	sb_init(&b);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
		sb_putn(&b, chunk, n);
		if (b.len > KGEN_TEXT_MAX) {  /* /dev/zero, or a file that is no spec */
			if (!is_stdin)
				fclose(fp);
			sb_free(&b);
			return kgen_fail(err, KGEN_ESPEC, "%s is larger than %zu MiB: a spec, plan or space is a few hundred "
			                 "bytes", is_stdin ? "<stdin>" : path, KGEN_TEXT_MAX >> 20);
		}
	}
	if (ferror(fp)) {
		int e = errno;
		if (!is_stdin)
			fclose(fp);
		sb_free(&b);
		return kgen_fail(err, KGEN_EIO, "cannot read %s: %s", path, strerror(e));
	}
	if (!is_stdin)
		fclose(fp);
	*len = b.len;
	if (!(*text = sb_take(&b)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory reading %s", path);
	return KGEN_OK;
}

/* Write all of data to fd. */
static int
write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	ssize_t w;

	while (len) {
		if ((w = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

kgen_status
kgen_write_file(const char *path, const void *data, size_t len, kgen_error *err)
{
	struct stat st;
	strbuf tmp, target;
	const char *slash;
	mode_t mask;
	int fd = -1, e;
	kgen_status status = KGEN_OK;

	/* Not a regular file (a FIFO, /dev/stdout, a terminal): write into it. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return kgen_fail(err, KGEN_EIO, "cannot write %s: it is a directory", path);
		if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0 || write_all(fd, data, len) != 0) {
			e = errno;
			if (fd >= 0)
				close(fd);
			return kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(e));
		}
		return close(fd) == 0 ? KGEN_OK : kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(errno));
	}
	/* A regular file, or none yet: a fresh temporary beside it (O_EXCL,
	 * never a planted file or link), renamed into place.  A symbolic link
	 * is followed: its target is replaced, the link kept. */
	sb_init(&tmp);
	sb_init(&target);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);
		if (!real) {
			e = errno;
			status = kgen_fail(err, KGEN_EIO, "cannot write %s: a symbolic link to nothing (%s)", path, strerror(e));
			goto out;
		}
		sb_puts(&target, real);
		free(real);
	} else {
		sb_puts(&target, path);
	}
	slash = target.s ? strrchr(target.s, '/') : NULL;
	if (slash)
		sb_printf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - target.s), target.s, slash + 1);
	else if (target.s)
		sb_printf(&tmp, ".%s.XXXXXX", target.s);
	if (tmp.failed || target.failed) {
		status = kgen_fail(err, KGEN_ENOMEM, "out of memory");
		goto out;
	}
	if ((fd = mkstemp(tmp.s)) < 0) {
		status = kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || write_all(fd, data, len) != 0) {
		e = errno;
		close(fd);
		fd = -1;
		remove(tmp.s);
		status = kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(e));
		goto out;
	}
	e = close(fd) != 0 ? errno : 0;
	fd = -1;
	if (e) {
		remove(tmp.s);
		status = kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(e));
		goto out;
	}
	if (rename(tmp.s, target.s) != 0) {
		e = errno;
		remove(tmp.s);
		status = kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(e));
	}
out:
	if (fd >= 0)
		close(fd);
	sb_free(&tmp);
	sb_free(&target);
	return status;
}

char *
kgen_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

int
kgen_parse_count(const char *text, unsigned long long *n)
{
	char *end;
	unsigned long long v, add = 0;

	errno = 0;
	if (strncmp(text, "2^", 2) == 0) {
		if (text[2] < '0' || text[2] > '9')
			return -1;
		v = strtoull(text + 2, &end, 10);
		if (errno || v > 62)
			return -1;
		v = 1ull << v;
	} else {
		int shift = 0;
		if (text[0] < '0' || text[0] > '9')
			return -1;  /* no sign or blank: strtoull would take "-1" */
		v = strtoull(text, &end, 10);
		if (errno || end == text)
			return -1;
		if (*end == 'k' || *end == 'K') shift = 10, end++;
		else if (*end == 'M') shift = 20, end++;
		else if (*end == 'G') shift = 30, end++;
		if (shift && v > ~0ull >> shift)
			return -1;
		v <<= shift;
	}
	if (*end == '+' || *end == '-') {
		char sign = *end;
		if (end[1] < '0' || end[1] > '9')
			return -1;
		add = strtoull(end + 1, &end, 10);
		if (errno || (sign == '+' ? v + add < v : add > v))
			return -1;  /* wraps */
		v = sign == '+' ? v + add : v - add;
	}
	if (*end)
		return -1;
	*n = v;
	return 0;
}
