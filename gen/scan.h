/* scan.h - what kernel: scan's launcher and runner take from its
 * generator (scan.c): a tile's size and the look-back's status bytes. */
#ifndef KGEN_SCAN_H
#define KGEN_SCAN_H

#include "spec.h"

/* Elements a block scans at once along a row: threads * items_per_thread;
 * axis: cols, the rows of a tile: threads / lanes * items_per_thread. */
unsigned long long kgen_scan_tile(const struct kgen_spec *s);

/* Columns a tile spans: axis: cols, lanes x a load's elements; 1 for rows. */
unsigned long long kgen_scan_tile_cols(const struct kgen_spec *s);

/* Tiles of n elements: ceil(n / tile). */
unsigned long long kgen_scan_tiles(const struct kgen_spec *s, unsigned long long n);

/* A status word of the look-back (templates/scan/lookback.cu): what it
 * holds, marked by the launch, and the value, read and written whole; a
 * launch's scratch starts with a header word counting the launches. */
#define KGEN_SCAN_WORD_BYTES 16ull

/* Rows a launch takes at most: a grid's y dimension.  More rows take more
 * launches, each on the words of the first rows again. */
#define KGEN_SCAN_GRID_ROWS 65535ull

/* Bytes of status words a row (or a vector) of n elements needs, or a band
 * of columns of n rows (axis: cols), a multiple of 16: 0 for strategy:
 * block and for one tile; else a word a tile and a word a group (a column's
 * each, of a band). */
unsigned long long kgen_scan_row_scratch(const struct kgen_spec *s, unsigned long long n);

/* Bytes of scratch a call of `rows` rows of n elements (axis: cols, bands
 * of n rows) needs: 0 where a row needs none; else the header word and the
 * words of the rows a launch takes (at most KGEN_SCAN_GRID_ROWS). */
unsigned long long kgen_scan_scratch_bytes(const struct kgen_spec *s, unsigned long long rows, unsigned long long n);

/* staging: ring (axis: cols): a band's blocks, as many as `resident`
 * blocks (the GPU's at once, at most KGEN_SCAN_RING_MOST) shared among
 * `bands` bands, no more than a band's tiles of `rows` rows; 1 (a block
 * walks its band alone, no status words) where fewer than 2. */
#define KGEN_SCAN_RING_MOST 1024ull
unsigned long long kgen_scan_ring_blocks(const struct kgen_spec *s, unsigned long long bands, unsigned long long rows,
                                         unsigned long long resident);

/* staging: ring: the rounds of words a band's ring holds (columns_ring.cu's
 * ROUNDS), and a band's bytes of them for `blocks` blocks (0 for one): a
 * word a column of each block's tile and of each group of blocks, a round. */
#define KGEN_SCAN_RING_ROUNDS 8ull
unsigned long long kgen_scan_ring_band_scratch(const struct kgen_spec *s, unsigned long long blocks);

/* staging: ring: the bytes of its stages (dynamic shared memory). */
long long kgen_scan_ring_smem(const struct kgen_spec *s);

/* staging: ring: the rows of a box of the input's tensor map (TMA copies a
 * tile as boxes of them), or 0 where a tile cannot be whole boxes. */
long long kgen_scan_ring_box_rows(const struct kgen_spec *s);

/* Rounds a ring's launch takes at most: the round in a word's mark (24 bits). */
#define KGEN_SCAN_RING_MOST_ROUNDS ((1ull << 24) - 2)

#endif
