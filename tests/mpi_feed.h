/* Records fed to the per-rank MPI pass directly (mpi_rank_record), as the
 * stream walk would hand them over, for the tests of the layer's parts
 * (tests/test_mpi_*.c): record `index` of a rank lies at byte 100 + 40
 * index, and its arguments are the fields of its function's layout that
 * the test's `value` gives a value (from byte 29 of the record on, each
 * where dumpi_arg_at puts it: a field whose place depends on the record
 * at 29 + 2 i). */
#ifndef HV_TEST_MPI_FEED_H
#define HV_TEST_MPI_FEED_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dumpi/mpi/pass.h"

/* Field f's value in the record (true), or false: f absent. */
typedef bool (*mpi_feed_value)(const dumpi_field *f, void *ctx, uint64_t *v);

static inline bool mpi_field_is(const dumpi_field *f, const char *name)
{
	return strlen(name) == f->name_len && memcmp(f->name, name, f->name_len) == 0;
}

/* One record of function fn; value NULL: a record with no arguments. */
static inline void mpi_feed(mpi_rank *m, uint64_t index, unsigned fn, mpi_feed_value value, void *ctx)
{
	dumpi_args a;
	memset(&a, 0, sizeof a);
	if (value) {
		const dumpi_layout *L = dumpi_layout_of(fn);
		a.n = L->nfields;
		a.bytes_at = 100 + index * 40 + 29;
		for (unsigned i = 0; i < L->nfields; i++) {
			uint64_t v;
			if (!value(&L->fields[i], ctx, &v)) continue;
			a.f[i].present = true;
			a.f[i].v = v;
			a.f[i].at = 100 + index * 40 + 29 + 2 * i;
		}
	}
	dumpi_record rec = {.index = index, .offset = 100 + index * 40, .fn = fn};
	mpi_rank_record(m, &rec, &a);
}

/* A rank of DUMPI version 0.6.6 reading the `len` bytes at `file` as its
 * file (blob b, which must outlive it), reporting to r (at most max_diags
 * diagnostics kept). */
static inline mpi_rank *mpi_feed_rank(hv_report *r, hv_blob *b, const uint8_t *file, size_t len, size_t max_diags)
{
	const uint8_t ver[3] = {0, 6, 6};
	hv_report_init(r, "t", max_diags);
	*b = hv_blob_from_memory("t-0000.bin", file, len);
	return mpi_rank_new(b, r, ver);
}

/* A complete rank's end: MPI_Finalize as record *next (then counted),
 * and the rank ended as the walk ends a stream read whole. */
static inline void mpi_feed_end(mpi_rank *m, uint64_t *next)
{
	mpi_feed(m, (*next)++, 125 /* MPI_Finalize */, NULL, NULL);
	mpi_rank_end(m, true);
}

/* The rank and its report freed. */
static inline void mpi_feed_free(mpi_rank *m, hv_report *r)
{
	mpi_rank_free(m);
	hv_report_free(r);
}

#endif
