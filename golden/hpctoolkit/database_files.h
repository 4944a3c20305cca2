/* Writers of profile.db, cct.db and trace.db over the data of
 * database_data.h, and the layouts they report so that `--break`
 * patches can find every structure they wrote. */
#ifndef GEN_HPCTKDB_FILES_H
#define GEN_HPCTKDB_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "../gen.h"
#include "database_data.h"

/* ---- profile.db ---- */
typedef struct pdb_prof_layout {
	uint64_t pi;          /* offset of this profile's {PI} */
	uint64_t vals, nvals; /* pValues, nValues */
	uint64_t idx, nctxs;  /* pCtxIndices, nCtxs */
	uint64_t tuple;       /* pIdTuple (0 for the release summary) */
	unsigned nids;
} pdb_prof_layout;

typedef struct pdb_layout {
	uint64_t pi_sec, pi_sz, pi_arr; /* Profile Info section and its {PI} array */
	uint64_t tup_sec, tup_sz;        /* Identifier Tuple section */
	uint64_t blocks, blocks_end;     /* value blocks region */
	unsigned szprof, nprof;
	unsigned *order;                 /* profile indices in file order of their blocks */
	pdb_prof_layout *p;              /* by profile index */
} pdb_layout;

int gen_profiledb_write(const hdb *d, gen_buf *b, pdb_layout *l);
void pdb_layout_free(pdb_layout *l);

/* ---- cct.db ---- */
typedef struct cdb_ctx_layout {
	uint64_t vals, nvals;   /* pValues, nValues */
	uint64_t idx, nmets;    /* pMetricIndices, nMetrics */
} cdb_ctx_layout;

typedef struct cdb_layout {
	uint64_t ci_sec, ci_sz, ci_arr;
	unsigned szctx;
	uint32_t nctxs;
	cdb_ctx_layout *c;      /* by ctxId, nctxs entries */
	uint64_t blocks, blocks_end;
} cdb_layout;

int gen_cctdb_write(const hdb *d, gen_buf *b, cdb_layout *l);
void cdb_layout_free(cdb_layout *l);

/* ---- trace.db ---- */
typedef struct tdb_line_layout {
	uint64_t th;            /* offset of the trace header */
	uint64_t start, end;    /* pStart, pEnd */
	uint64_t reserved_end;  /* end of the writer's reservation (slack after end) */
	unsigned prof;          /* profIndex */
} tdb_line_layout;

typedef struct tdb_layout {
	uint64_t th_sec, th_sz, th_arr;
	unsigned sztrace;
	uint32_t ntraces;
	tdb_line_layout *t;     /* by header index */
	uint64_t lines, lines_end; /* where the lines region starts and ends */
	bool footer;
} tdb_layout;

int gen_tracedb_write(const hdb *d, gen_buf *b, tdb_layout *l);
void tdb_layout_free(tdb_layout *l);

/* Junk byte for gaps and unknown trailing fields of newer minors. */
static inline uint8_t gen_junk(uint64_t seed, uint64_t off) { return (uint8_t)(0xA5u ^ (seed * 131u) ^ (off * 7u) ^ 1u); }

/* Exactly-sized output buffer: one zeroed allocation, no regrowth. */
bool gen_buf_presize(gen_buf *b, size_t total);

/* Fill [off, off+n) with junk when the minor is newer, else leave zeros. */
void gen_fill_gap(gen_buf *b, const hdb *d, uint64_t off, uint64_t n);

/* What every data file starts with: "HPCTOOLKIT" + the 4-byte format code,
 * version 4.minor, then the npairs {sz, p} section pairs at 0x10 (sz_p holds
 * sz, p, sz, p...). extra_sz > 0 adds one more pair for a section 4.0 does
 * not define (a newer minor's), whose bytes are junk. */
void gen_put_file_header(gen_buf *b, const hdb *d, const char *code, const uint64_t *sz_p, unsigned npairs,
			 uint64_t extra_sz, uint64_t extra_at);

/* A section header's common start: {pArray u64, nElements u32, szElement u8}. */
void gen_put_array_header(uint8_t *s, uint64_t arr, uint32_t n, unsigned stride);

#endif
