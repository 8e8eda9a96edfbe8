/*
 * cache.h - the on-disk cache of compiled kernels (internal to libkgen).
 *
 * An entry is keyed by everything that changes the binary: the generated
 * source, the NVRTC options, the NVRTC version, the architecture, kgen's
 * version and the program name (NVRTC writes it into line info).  The file
 * name is a 64-bit hash of the key (8-byte little-endian words, each
 * multiplied in and folded, then the last bytes by FNV-1a); the entry also holds the whole
 * key and source, and a lookup compares them byte for byte, so a hash
 * collision is a miss, never a wrong binary.
 *
 * Entry file "<16 hex digits>.kgenc", all integers little-endian u64:
 *
 *   "KGENC3\n"                                   7 bytes of magic
 *   len(name) len(options) len(arch)
 *   len(nvrtc_version) len(kgen_version)
 *   len(source) len(image)                       7 x 8 bytes
 *   name options arch nvrtc_version kgen_version source image
 *   the same hash of every byte above            8 bytes
 *
 * Anything else (bad magic, wrong size, checksum or key mismatch) is a
 * miss: the file is removed and the caller compiles again.  Writers build
 * "<entry>.tmp.<pid>.<n>" in the same directory and rename() it into place,
 * so readers see a whole old entry or a whole new one.
 */
#ifndef KGEN_CACHE_H
#define KGEN_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "kgen.h"

/* What an entry is keyed by.  name may be NULL (taken as ""); every other
 * field must be set.  nvrtc_version is e.g. "12.4" from nvrtcVersion(),
 * arch e.g. "sm_90", options the NVRTC options joined by spaces. */
struct kgen_cache_key {
	const char *source;
	const char *options;
	const char *arch;
	const char *nvrtc_version;
	const char *kgen_version;
	const char *name;
};

/* "<16 hex digits>.kgenc" plus the NUL. */
#define KGEN_CACHE_NAME_MAX 23

/* The cache directory: $KGEN_CACHE_DIR, else $XDG_CACHE_HOME/kgen, else
 * $HOME/.cache/kgen.  It need not exist yet: kgen_cache_put() creates it. */
kgen_status kgen_cache_dir(char *buf, size_t n, kgen_error *err);

/* 0 when KGEN_CACHE is "0", "off", "no" or "false"; 1 otherwise. */
int kgen_cache_enabled(void);

/* The file name of key's entry, "<16 hex digits>.kgenc", into name. */
void kgen_cache_entry_name(const struct kgen_cache_key *key, char name[KGEN_CACHE_NAME_MAX]);

/* Look key up in dir.  A hit sets *image to a malloc()ed copy of the binary
 * (with a NUL after it) and *size; a miss returns KGEN_OK with *image NULL.
 * A damaged or mismatched entry is removed and counts as a miss.  KGEN_EIO
 * only when an existing entry cannot be read. */
kgen_status kgen_cache_get(const char *dir, const struct kgen_cache_key *key, void **image, size_t *size,
                           kgen_error *err);

/* Store image under key in dir, creating dir (mode 0700) as needed. */
kgen_status kgen_cache_put(const char *dir, const struct kgen_cache_key *key, const void *image, size_t size,
                           kgen_error *err);

/* One line per entry, sorted by file name: "file size name arch age",
 * e.g. "0f3a...c1.kgenc 21480 reduce_sum sm_90 3h".  A missing dir lists
 * nothing. */
kgen_status kgen_cache_list(const char *dir, FILE *fp, kgen_error *err);

/* Remove every entry and every temporary older than a minute (a writer
 * that died); other files are left alone.  *removed (when not NULL)
 * counts the files removed. */
kgen_status kgen_cache_clear(const char *dir, unsigned *removed, kgen_error *err);

#endif
