/* util.h - growable strings, error filling and the internal-bug check. */
#ifndef KGEN_UTIL_H
#define KGEN_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>
#include "kgen.h"

#define KGEN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define KGEN_HIDDEN __attribute__((visibility("hidden")))
#define KGEN_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A growable, always NUL-terminated string.  On allocation failure `failed`
 * is set and later appends do nothing; check it once at the end. */
typedef struct strbuf {
	char *s;
	size_t len, cap;
	int failed;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_putn(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) KGEN_PRINTF(2, 3);
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
/* Hand the string over (the buffer is left empty); NULL if allocation failed. */
char *sb_take(strbuf *b);

/* The length in bytes of the valid UTF-8 sequence that text starts with (1
 * for ASCII, NUL included), or 0 when its first byte starts none (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF). */
int kgen_utf8_length(const char *text);

/* text as one line that is safe on a terminal: control characters (C0,
 * DEL and C1), backslashes and bytes of no valid UTF-8 sequence as \xNN,
 * valid UTF-8 kept; cut after `cut` characters with "..." (0: only where
 * buf ends, never inside a character or an escape: text gets n - 9 bytes
 * at most); into buf (n >= 1), returned. */
const char *kgen_escape(const char *text, char *buf, size_t n, size_t cut);

/* text as a message may quote it: kgen_escape() cut after 40 characters. */
const char *kgen_quote(const char *text, char *buf, size_t n);

/* Fill err (when not NULL) with status and a message; returns status. */
kgen_status kgen_fail(kgen_error *err, kgen_status status, const char *fmt, ...) KGEN_PRINTF(3, 4);
kgen_status kgen_vfail(kgen_error *err, kgen_status status, const char *fmt, va_list ap) KGEN_PRINTF(3, 0);

/* Fill err with a position in a spec: file, 1-based line and column, and
 * the text of that line taken from the spec's source. */
void kgen_error_at(kgen_error *err, const char *file, const char *text, size_t len, int line, int col);

/* kgen's own bugs, never a user's mistake. */
#define KGEN_ASSERT(c) ((c) ? (void)0 : kgen_internal(__FILE__, __LINE__, #c))
/* A broken invariant of kgen's own: recorded (the first one per thread),
 * never printed and never an exit, as kgen.h promises; the call that took
 * it (kgen_generate, the spec loaders, kgen_kernel_build) then fails with
 * KGEN_EINTERNAL.  The code after a KGEN_ASSERT must go on safely. */
void kgen_internal(const char *file, int line, const char *what);
/* 1, with err filled (KGEN_EINTERNAL), when an invariant broke on this
 * thread since the last call; 0 otherwise. */
int kgen_take_internal(kgen_error *err);

/* Open a file that kgen names itself (records, shipped plans) without ever
 * blocking: O_NONBLOCK for the open (a FIFO planted there would hold a
 * plain open for ever), then fstat() of what was opened.  flags as
 * open(2)'s (O_CLOEXEC is added; O_CREAT makes the file 0644 less the
 * umask).  A regular file's descriptor, blocking again; -1 with errno when
 * the open fails; -2 when it is not a regular file (*st says what it is,
 * nothing is left open). */
int kgen_open_regular(const char *path, int flags, struct stat *st);

/* Read a whole file ("-" is standard input) into a NUL-terminated buffer;
 * KGEN_ESPEC for one over KGEN_TEXT_MAX bytes (yamlin.h: every file kgen
 * reads is a YAML input), read no further than that. */
kgen_status kgen_read_file(const char *path, char **text, size_t *len, kgen_error *err);

/* Write data to path through a fresh temporary file beside it (O_EXCL, so
 * never through a planted file or link) renamed into place, so that a
 * failure leaves no partial file; a symbolic link's target is replaced, the
 * link kept; a path that is not a regular file (a FIFO, /dev/stdout) is
 * written directly. */
kgen_status kgen_write_file(const char *path, const void *data, size_t len, kgen_error *err);

char *kgen_strdup(const char *s);

/* A count of elements: "1000", "16k", "16M", "1G" (powers of 1024),
 * "2^30", "2^24+7", "2^20-1"; 0 on success, -1 when malformed or out of range. */
int kgen_parse_count(const char *text, unsigned long long *n);

#endif
