/* The MPI layer's message channels are bounded (MPI_MAX_CHANS per rank): a
 * program that uses a fresh tag per message keeps a bounded number of
 * channels, and the cross-rank stage still matches its traffic (per
 * communicator, source and destination over all tags) whether one end or
 * both ends merged their channels, and still finds a message nobody
 * received. Records are fed to the per-rank pass directly (mpi_rank_record),
 * as the stream walk would. */
#include <stdlib.h>
#include <string.h>

#include "dumpi/mpi/pass.h"
#include "mpi_feed.h"
#include "tap.h"

/* A point-to-point record's arguments: its count, datatype, communicator,
 * peer and tag. */
typedef struct p2p_args {
	int32_t peer, tag;
} p2p_args;

static bool p2p_value(const dumpi_field *f, void *ctx, uint64_t *v)
{
	const p2p_args *p = ctx;
	int64_t x = -9; /* absent */
	if (mpi_field_is(f, "count")) x = 1;
	else if (mpi_field_is(f, "datatype")) x = 9; /* MPI_INT */
	else if (mpi_field_is(f, "comm")) x = MPI_D_COMM_WORLD;
	else if (mpi_field_is(f, "dest") || mpi_field_is(f, "source")) x = p->peer;
	else if (mpi_field_is(f, "tag")) x = p->tag;
	*v = (uint64_t)(uint32_t)(int32_t)x;
	return x != -9;
}

/* A point-to-point record of function fn (0 MPI_Send, 1 MPI_Recv). */
static void p2p(mpi_rank *m, uint64_t index, unsigned fn, int32_t peer, int32_t tag)
{
	mpi_feed(m, index, fn, p2p_value, &(p2p_args){peer, tag});
}

static void finalize(mpi_rank *m, uint64_t index)
{
	mpi_feed(m, index, 125, NULL, NULL);
	mpi_rank_end(m, true);
}

static unsigned fired(const hv_report *r, int rule)
{
	unsigned n = 0;
	for (size_t i = 0; i < r->ndiags; i++) n += r->diags[i].rule == rule;
	return n;
}

/* Rank 0 sends `n` messages, message i with tag i to rank 1 + i % 2; ranks 1
 * and 2 receive theirs (rank 2 all but `missing`). Tags per rank: rank 0
 * has n channels (merged past the bound), ranks 1 and 2 n/2 each. */
static void run(unsigned n, unsigned missing, bool expect_merged0, bool expect_merged1)
{
	static const char *names[3] = {"t-0000.bin", "t-0001.bin", "t-0002.bin"};
	static const uint8_t empty[1];
	const uint8_t ver[3] = {0, 6, 6};
	hv_blob b[3];
	hv_report rep;
	hv_report_init(&rep, "t", 1000);
	mpi_rank *m[3];
	uint64_t idx[3] = {0, 0, 0};
	for (int k = 0; k < 3; k++) {
		b[k] = hv_blob_from_memory(names[k], empty, 0);
		m[k] = mpi_rank_new(&b[k], &rep, ver);
	}
	size_t peak0 = 0;
	unsigned got2 = 0;
	for (unsigned i = 0; i < n; i++) {
		int dst = 1 + (int)(i % 2);
		p2p(m[0], idx[0]++, 0, dst, (int32_t)i);
		if (m[0]->chans.len > peak0) peak0 = m[0]->chans.len;
		if (dst == 2 && got2 + missing >= (n + 0) / 2) continue;
		if (dst == 2) got2++;
		p2p(m[dst], idx[dst]++, 1, 0, (int32_t)i);
	}
	CHECK(m[0]->chans_merged == expect_merged0 && m[1]->chans_merged == expect_merged1,
	      "n=%u: merged %d %d, want %d %d", n, m[0]->chans_merged, m[1]->chans_merged, expect_merged0,
	      expect_merged1);
	CHECK(peak0 <= MPI_MAX_CHANS, "n=%u: rank 0 kept at most %u channels (peak %zu)", n, MPI_MAX_CHANS, peak0);
	if (expect_merged0) CHECK(m[0]->chans.len <= 2, "n=%u: merged, one channel per peer (%zu)", n, m[0]->chans.len);
	for (int k = 0; k < 3; k++) finalize(m[k], idx[k]);
	mpi_trace_check(&(const hv_options){0}, &rep, m, 3, 3);
	unsigned su = fired(&rep, HV_R_DUMPI_MPI_SEND_UNMATCHED), ru = fired(&rep, HV_R_DUMPI_MPI_RECV_UNMATCHED);
	CHECK(ru == 0 && su == (missing ? 1u : 0u), "n=%u missing=%u: %u send-unmatched, %u recv-unmatched", n, missing,
	      su, ru);
	if (missing && su) {
		const char *msg = NULL;
		for (size_t i = 0; i < rep.ndiags; i++)
			if (rep.diags[i].rule == HV_R_DUMPI_MPI_SEND_UNMATCHED) msg = rep.diags[i].msg;
		bool names_both = msg && strstr(msg, "rank 2 received") != NULL;
		if (expect_merged0) names_both = names_both && strstr(msg, "any tag (merged)") != NULL;
		CHECK(names_both, "the warning names the merged channel and both ends: %s", msg ? msg : "(none)");
	}
	for (int k = 0; k < 3; k++) mpi_rank_free(m[k]);
	hv_report_free(&rep);
}

int main(void)
{
	unsigned big = MPI_MAX_CHANS + 100;        /* rank 0 merges; ranks 1 and 2 stay under the bound */
	run(1000, 0, false, false);
	run(1000, 1, false, false);
	run(big, 0, true, false);
	run(big, 1, true, false);
	run(2 * MPI_MAX_CHANS + 100, 0, true, true); /* every rank merges */
	run(2 * MPI_MAX_CHANS + 100, 3, true, true);
	TAP_DONE();
}
