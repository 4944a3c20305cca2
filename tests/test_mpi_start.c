/* MPI_Start and MPI_Startall find a persistent request's channel again
 * without its key: the request keeps the channel it last started on, for
 * the generation of the channel map it found it in (requests.c,
 * req_start_hot), and the map steps the generation when it grows or
 * merges, as its channels move then. A persistent send is started again
 * and again while other sends open fresh channels -- the map grows many
 * times, then merges past MPI_MAX_CHANS -- and its channel must count
 * every start. Records are fed to the per-rank pass directly
 * (mpi_rank_record), as the stream walk would. */
#include <stdlib.h>
#include <string.h>

#include "dumpi/mpi/pass.h"
#include "mpi_feed.h"
#include "tap.h"

enum { SEND = 0, ISEND = 8, WAIT = 13, FREE = 15, SEND_INIT = 26, START = 31, FINALIZE = 125 };
enum { REQ = 2, PEER = 1, TAG = 5 };

/* A send's fields (MPI_Send, MPI_Send_init): count 1 of MPI_INT to `peer`
 * with `tag` on MPI_COMM_WORLD, request REQ; MPI_Start's and MPI_Wait's
 * request REQ (no status). */
typedef struct send_args { int32_t peer, tag; } send_args;
static bool send_value(const dumpi_field *f, void *ctx, uint64_t *v)
{
	const send_args *s = ctx;
	if (mpi_field_is(f, "count")) *v = 1;
	else if (mpi_field_is(f, "datatype")) *v = 9;
	else if (mpi_field_is(f, "dest")) *v = (uint32_t)s->peer;
	else if (mpi_field_is(f, "tag")) *v = (uint32_t)s->tag;
	else if (mpi_field_is(f, "comm")) *v = MPI_D_COMM_WORLD;
	else if (mpi_field_is(f, "request")) *v = REQ;
	else return false;
	return true;
}

/* The messages counted on the send channel to PEER with tag `tag` (0: none). */
static uint64_t sent(const mpi_rank *m, int32_t tag)
{
	const mpi_chan *c = mpi_map_get(&m->chans, mpi_hash(INST_WORLD, PEER, (uint32_t)tag, 0));
	return c ? c->n : 0;
}

/* A send on a new channel: to peer `k` with tag `k`. */
static void other(mpi_rank *m, uint64_t index, int32_t k)
{
	mpi_feed(m, index, SEND, send_value, &(send_args){k, k});
}

int main(void)
{
	static const uint8_t empty[1];
	hv_report rep;
	hv_blob b;
	mpi_rank *m = mpi_feed_rank(&rep, &b, empty, 0, 1000);
	uint64_t next = 0, starts = 0;
	/* the other sends' peers and tags, each a new channel that stays one
	 * when the channels merge over tags: the merged map is as large as the
	 * one it replaces, so only the merge's new generation tells the
	 * channels moved */
	int32_t fresh = 1000;
	mpi_feed(m, next++, SEND_INIT, send_value, &(send_args){PEER, TAG});

	/* started while the map grows from a few channels to thousands */
	uint16_t gen0 = m->pass->chan_gen;
	bool counted = true;
	for (unsigned round = 0; round < 14; round++) {
		for (unsigned k = 0; k < (1u << round); k++)
			other(m, next++, fresh++);
		for (unsigned again = 0; again < 2; again++) { /* the second start in the same generation */
			mpi_feed(m, next++, START, send_value, &(send_args){PEER, TAG});
			starts++;
			mpi_feed(m, next++, WAIT, send_value, &(send_args){PEER, TAG});
		}
		counted &= sent(m, TAG) == starts;
	}
	CHECK(m->pass->chan_gen > gen0 + 5, "the channel map grew (generation %u -> %u)", gen0, m->pass->chan_gen);
	CHECK(counted && sent(m, TAG) == starts, "every start is counted on its channel while the map grows (%llu of %llu)",
	      (unsigned long long)sent(m, TAG), (unsigned long long)starts);

	/* past MPI_MAX_CHANS the channels merge over tags: starts just before
	 * (the channel kept), then the merge, then starts that go to the merged
	 * channel, which holds the ones before too */
	while (m->chans.len < MPI_MAX_CHANS) other(m, next++, fresh++);
	size_t cap = m->chans.cap;
	for (unsigned again = 0; again < 2; again++) { /* the second keeps its channel */
		mpi_feed(m, next++, START, send_value, &(send_args){PEER, TAG});
		starts++;
		mpi_feed(m, next++, WAIT, send_value, &(send_args){PEER, TAG});
	}
	CHECK(!m->chans_merged && sent(m, TAG) == starts, "not merged yet; every start counted (%llu of %llu)",
	      (unsigned long long)sent(m, TAG), (unsigned long long)starts);
	other(m, next++, fresh++);
	CHECK(m->chans_merged && m->chans.cap == cap, "the channels merged into a map as large (%zu slots, %zu before)",
	      m->chans.cap, cap);
	for (unsigned k = 0; k < 3; k++) {
		mpi_feed(m, next++, START, send_value, &(send_args){PEER, TAG});
		starts++;
		mpi_feed(m, next++, WAIT, send_value, &(send_args){PEER, TAG});
		other(m, next++, fresh++);
	}
	CHECK(sent(m, CHAN_ANY_TAG) == starts, "every start is counted on the merged channel (%llu of %llu)",
	      (unsigned long long)sent(m, CHAN_ANY_TAG), (unsigned long long)starts);

	mpi_feed(m, next++, FINALIZE, NULL, NULL);
	mpi_rank_end(m, true);
	CHECK(rep.ndiags == 0, "a clean rank (%zu diagnostics)", rep.ndiags);
	mpi_rank_free(m);
	hv_report_free(&rep);

	/* a request id reused: persistent (its channel kept), freed, then a
	 * nonblocking send to another channel that MPI_Start wrongly starts
	 * (reported) and, once it completed, starts again: that message goes
	 * to the nonblocking send's channel, not the one the id kept */
	m = mpi_feed_rank(&rep, &b, empty, 0, 1000);
	next = 0;
	mpi_feed(m, next++, SEND_INIT, send_value, &(send_args){PEER, TAG});
	for (unsigned again = 0; again < 2; again++) {
		mpi_feed(m, next++, START, send_value, &(send_args){PEER, TAG});
		mpi_feed(m, next++, WAIT, send_value, &(send_args){PEER, TAG});
	}
	mpi_feed(m, next++, FREE, send_value, &(send_args){PEER, TAG});
	mpi_feed(m, next++, SEND, send_value, &(send_args){PEER, TAG + 1}); /* its channel met lately */
	mpi_feed(m, next++, ISEND, send_value, &(send_args){PEER, TAG + 1});
	for (unsigned again = 0; again < 2; again++) {
		mpi_feed(m, next++, START, send_value, &(send_args){PEER, TAG});
		mpi_feed(m, next++, WAIT, send_value, &(send_args){PEER, TAG});
	}
	CHECK(sent(m, TAG) == 2 && sent(m, TAG + 1) == 3,
	      "the restarted nonblocking send counts on its own channel (%llu on tag %d, %llu on tag %d)",
	      (unsigned long long)sent(m, TAG), TAG, (unsigned long long)sent(m, TAG + 1), TAG + 1);
	mpi_rank_end(m, true);
	mpi_rank_free(m);
	hv_report_free(&rep);

	/* the generations past their last: 0 is a request's none, and the
	 * channels moving once more must not make it current (a request that
	 * kept no channel would then start on none) */
	m = mpi_feed_rank(&rep, &b, empty, 0, 1000);
	next = 0;
	fresh = 1000;
	m->pass->chan_gen = UINT16_MAX;
	mpi_feed(m, next++, SEND_INIT, send_value, &(send_args){PEER, TAG}); /* its channel not met: none kept */
	while (m->pass->chan_gen == UINT16_MAX) other(m, next++, fresh++);
	CHECK(m->pass->chan_gen == 1, "past the last generation, the first again (%u)", m->pass->chan_gen);
	for (unsigned again = 0; again < 2; again++) {
		mpi_feed(m, next++, START, send_value, &(send_args){PEER, TAG});
		mpi_feed(m, next++, WAIT, send_value, &(send_args){PEER, TAG});
	}
	CHECK(sent(m, TAG) == 2, "each start counted on its channel after the generations wrapped (%llu of 2)",
	      (unsigned long long)sent(m, TAG));
	mpi_feed(m, next++, FINALIZE, NULL, NULL);
	mpi_rank_end(m, true);
	CHECK(rep.ndiags == 0, "a clean rank after the wrap (%zu diagnostics)", rep.ndiags);
	mpi_rank_free(m);
	hv_report_free(&rep);
	TAP_DONE();
}
