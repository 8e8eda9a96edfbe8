/* scan_check.h - a scan's result checked on the CPU, every element. */
#ifndef KGEN_SCAN_CHECK_H
#define KGEN_SCAN_CHECK_H

#include <stddef.h>
#include "kgen.h"

/* A scan's input and result on the host: rows of cols elements, the
 * input's rows pitch elements apart, the result's cols (a vector: one row;
 * axis: cols scans each column down the rows). */
struct kgen_scan_result {
	const unsigned char *host, *back;
	unsigned long long rows, cols, pitch;
};

/* Every element of c->back against its prefix's reference: the number
 * wrong, the first described in msg (along rows: the first row's first;
 * down columns: the earliest row's leftmost), or ~0 where memory ran out. */
unsigned long long kgen_scan_errors(const kgen_spec *s, const struct kgen_scan_result *c, char *msg, size_t len);

#endif
