/* scan.h - what kernel: scan's launcher and runner take from its
 * generator (scan.c): a tile's size and the look-back's status bytes. */
#ifndef KGEN_SCAN_H
#define KGEN_SCAN_H

#include "spec.h"

/* Elements a block scans at once: threads * items_per_thread. */
unsigned long long kgen_scan_tile(const struct kgen_spec *s);

/* Tiles of n elements: ceil(n / tile). */
unsigned long long kgen_scan_tiles(const struct kgen_spec *s, unsigned long long n);

/* A status word of the look-back (templates/scan/lookback.cu): what it
 * holds, marked by the launch, and the value, read and written whole; a
 * row's scratch starts with a header word counting the launches. */
#define KGEN_SCAN_WORD_BYTES 16ull

/* Bytes of scratch a row (or a vector) of n elements needs, a multiple of
 * 16: 0 for strategy: block and for one tile; else the look-back's status,
 * the header, a word a tile and a word a group. */
unsigned long long kgen_scan_scratch_bytes(const struct kgen_spec *s, unsigned long long n);

#endif
