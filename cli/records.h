/*
 * records.h - one line of a `kgen tune` records file, read back.  A record
 * is one JSON object on a line of its own, written by kgen tune (tune.c);
 * only kgen's own fields are read, by name: key, verify, median_us and
 * spread.  No JSON library: the lines are kgen's, and anything else is
 * not a record (cli/tune.c says what a record holds).
 */
#ifndef KGEN_RECORDS_H
#define KGEN_RECORDS_H

#include <stddef.h>

struct kgen_record {
	char key[600];       /* GPU|driver|NVRTC|kgen|spec hash|n (or ROWSxCOLS)|method */
	int ok;              /* verify was "ok" (with a finite, positive median) */
	double median_us;    /* the median time; -1 when the point failed */
	double spread;       /* (max - min) / median; -1 when absent */
};

/* Parse line (len bytes, its '\n' included): 1 when it is a whole record
 * ("{...}\n" with a key and a verify), else 0.  A record that says ok
 * without a finite, positive median_us is not a measurement: 0. */
int kgen_record_parse(const char *line, size_t len, struct kgen_record *r);

#endif
