/* A byte format for what a unit of work produced (its report and its
 * summary), so units checked in another process (hpcvet-mpi's ranks) can
 * be merged exactly as if they had been checked here. Little-endian fixed
 * widths; the reader is bounds-checked and never trusts a length. */
#ifndef HV_WIRE_H
#define HV_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

typedef struct hv_wbuf {
	uint8_t *p;
	size_t n, cap;
	bool failed;           /* out of memory: the buffer is unusable */
} hv_wbuf;

void hv_wbuf_free(hv_wbuf *w);
void hv_put_bytes(hv_wbuf *w, const void *src, size_t n);
void hv_put_u64(hv_wbuf *w, uint64_t v);
void hv_put_str(hv_wbuf *w, const char *s);    /* length-prefixed; NULL as "" */

typedef struct hv_rbuf {
	const uint8_t *p;
	size_t n, at;
	bool failed;           /* a read went past the end or a value was out of range */
} hv_rbuf;

hv_rbuf hv_rbuf_of(const void *p, size_t n);
bool hv_get_bytes(hv_rbuf *r, void *dst, size_t n);
uint64_t hv_get_u64(hv_rbuf *r);
bool hv_get_bool(hv_rbuf *r);
/* A string into dst (truncated to cap-1), false when malformed. */
bool hv_get_str(hv_rbuf *r, char *dst, size_t cap);

/* Everything a report holds except input_path and max_diags (the receiver's
 * own): counters (sparse), diagnostics, flags, strings. */
void hv_report_save(const hv_report *r, hv_wbuf *w);
/* Into an empty report initialised by hv_report_init; false when the bytes
 * are malformed (the report is then left partially filled). */
bool hv_report_load(hv_report *r, hv_rbuf *rd);

#endif
