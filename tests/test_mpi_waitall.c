/* MPI_Waitall's fused path (mpi/fused.c) finishes the plain requests at
 * the head of its array in one walk (mpi_waitall_hot) and hands the rest,
 * from the first that is not plain, to the request-by-request path
 * (mpi_request_waitall). A rank whose Waitalls leave the walk partway
 * must be judged as the request-by-request path alone judges it: the
 * same trace is fed twice, once with each record's bytes in memory (the
 * walk runs) and once without (the walk cannot read the array, so the
 * whole of it goes request by request, its ids and statuses read through
 * the rank's window on the file), and the reports and channel tallies are
 * compared. MPI_Startall's fused path does the same with its common
 * starts (mpi_startall_hot), and MPI_Wait reads its status's cancelled
 * flag from the record's bytes: a second trace of persistent requests,
 * Startalls that leave the loop partway and Waits with and without a
 * cancelled status, is compared the same way. Records are fed to the
 * per-rank pass directly (mpi_rank_record), as the stream walk would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "dumpi/mpi/hot.h"
#include "dumpi/mpi/pass.h"
#include "mpi_feed.h"
#include "tap.h"

enum { ISEND = 8, IRECV = 12, WAIT = 13, WAITALL = 18, SEND_INIT = 26, RECV_INIT = 30, STARTALL = 32 };
enum { STATUS = 14 };     /* a status entry from version 0.6.3 on: bytes, source, cancelled, error, tag */
#define FILE_BYTES 8192u
#define REC_SPAN 200u     /* each record's bytes: record i at REC_SPAN * (i + 1) */

/* One request of a Waitall's array: its id and the status it completed with. */
typedef struct wreq {
	uint32_t id;
	int32_t src, tag, bytes;
	bool cancelled;
} wreq;

typedef struct rank_run {
	uint8_t file[FILE_BYTES];
	hv_blob b;
	hv_report rep;
	mpi_rank *m;
	uint64_t next;
	bool in_memory;   /* records handed over with their bytes */
} rank_run;

static void put32(uint8_t *p, uint32_t v) { p[0] = v >> 24, p[1] = v >> 16, p[2] = v >> 8, p[3] = (uint8_t)v; }

/* The trace's records are written into file[] as they are fed, so the
 * window reads what the record's bytes hold. */
static void start(rank_run *t, bool in_memory)
{
	memset(t->file, 0, sizeof t->file);
	t->m = mpi_feed_rank(&t->rep, &t->b, t->file, sizeof t->file, 1000);
	t->next = 0;
	t->in_memory = in_memory;
}

static uint64_t rec_at(uint64_t index) { return REC_SPAN * (index + 1); }

/* A nonblocking call's fields: count 8 of MPI_INT (9) with `peer` and
 * `tag` on MPI_COMM_WORLD, its request `id`. */
typedef struct p2p_args { int32_t peer, tag; uint32_t id; } p2p_args;
static bool p2p_value(const dumpi_field *f, void *ctx, uint64_t *v)
{
	const p2p_args *g = ctx;
	if (mpi_field_is(f, "count")) *v = 8;
	else if (mpi_field_is(f, "datatype")) *v = 9;
	else if (mpi_field_is(f, "dest") || mpi_field_is(f, "source")) *v = (uint32_t)g->peer;
	else if (mpi_field_is(f, "tag")) *v = (uint32_t)g->tag;
	else if (mpi_field_is(f, "comm")) *v = MPI_D_COMM_WORLD;
	else if (mpi_field_is(f, "request")) *v = g->id;
	else return false;
	return true;
}

static void p2p(rank_run *t, unsigned fn, int32_t peer, int32_t tag, uint32_t id)
{
	p2p_args g = {peer, tag, id};
	mpi_feed(t->m, t->next++, fn, p2p_value, &g);
}

/* MPI_Waitall(n, reqs, statuses): its bytes as libdumpi lays them out
 * (count, then the requests' count and ids, then the statuses' count and
 * entries) at the record's place in file[], handed over with them or not. */
static void hand_over(rank_run *t, dumpi_args *a, uint64_t index, const uint8_t *p, unsigned fn);
static uint8_t *counted_head(rank_run *t, dumpi_args *a, uint64_t index, unsigned n, unsigned fields);

static void waitall(rank_run *t, const wreq *r, unsigned n)
{
	uint64_t index = t->next++;
	dumpi_args a;
	uint8_t *p = counted_head(t, &a, index, n, 3);
	for (unsigned i = 0; i < n; i++) put32(p, r[i].id), p += 4;
	a.f[2].present = true, a.f[2].v = n, a.f[2].at = (uint64_t)(p - t->file);
	put32(p, n), p += 4;
	for (unsigned i = 0; i < n; i++, p += STATUS) {
		put32(p, (uint32_t)r[i].bytes);
		put32(p + 4, (uint32_t)r[i].src);
		p[8] = r[i].cancelled;
		p[9] = 0;
		put32(p + 10, (uint32_t)r[i].tag);
	}
	hand_over(t, &a, index, p, WAITALL);
}

/* The record's bytes handed over with args a when the run keeps them in
 * memory, up to p; the record fed. */
static void hand_over(rank_run *t, dumpi_args *a, uint64_t index, const uint8_t *p, unsigned fn)
{
	uint64_t off = rec_at(index), at = off + 29;
	a->bytes_at = at; /* the arguments' start, whether their bytes are handed over or not */
	if (t->in_memory) a->bytes = t->file + at, a->bytes_len = (uint64_t)(p - t->file) - at;
	dumpi_record rec = {.index = index, .offset = off, .fn = fn};
	mpi_rank_record(t->m, &rec, a);
}

/* MPI_Startall(n, reqs): count, then the requests' count and ids. */
/* The first two fields of a request call (its count n, then the
 * requests' count) at record `index`'s arguments, in args a of `fields`
 * fields: where the ids go. */
static uint8_t *counted_head(rank_run *t, dumpi_args *a, uint64_t index, unsigned n, unsigned fields)
{
	uint64_t at = rec_at(index) + 29;
	uint8_t *p = t->file + at;
	memset(a, 0, sizeof *a);
	a->n = fields;
	a->f[0].present = true, a->f[0].v = n, a->f[0].at = at;
	put32(p, n), p += 4;
	a->f[1].present = true, a->f[1].v = n, a->f[1].at = at + 4;
	put32(p, n), p += 4;
	return p;
}

static void startall(rank_run *t, const uint32_t *ids, unsigned n)
{
	uint64_t index = t->next++;
	dumpi_args a;
	uint8_t *p = counted_head(t, &a, index, n, 2);
	for (unsigned i = 0; i < n; i++) put32(p, ids[i]), p += 4;
	hand_over(t, &a, index, p, STARTALL);
}

/* MPI_Wait(req, status): the request, then the status's count (1) and entry. */
static void wait1(rank_run *t, const wreq *r)
{
	uint64_t index = t->next++, at = rec_at(index) + 29;
	uint8_t *p = t->file + at;
	dumpi_args a;
	memset(&a, 0, sizeof a);
	a.n = 2;
	a.f[0].present = true, a.f[0].v = r->id, a.f[0].at = at;
	put32(p, r->id), p += 4;
	a.f[1].present = true, a.f[1].v = 1, a.f[1].at = at + 4;
	put32(p, 1), p += 4;
	put32(p, (uint32_t)r->bytes);
	put32(p + 4, (uint32_t)r->src);
	p[8] = r->cancelled;
	p[9] = 0;
	put32(p + 10, (uint32_t)r->tag);
	hand_over(t, &a, index, p + STATUS, WAIT);
}

static void end(rank_run *t) { mpi_feed_end(t->m, &t->next); }

static void stop(rank_run *t) { mpi_feed_free(t->m, &t->rep); }

/* The trace: sends and receives on peer 1, a wildcard receive, and two
 * Waitalls that leave the fused walk partway -- at a request no recorded
 * call created (id 40), and at the wildcard receive, which counts its
 * message as its status says -- with plain requests on both sides. */
static void trace(rank_run *t)
{
	p2p(t, ISEND, 1, 7, 2);
	p2p(t, IRECV, 1, 7, 3);
	p2p(t, ISEND, 1, 8, 4);
	p2p(t, IRECV, -1, 7, 5); /* MPI_ANY_SOURCE */
	const wreq first[] = {
		{2, 0, 0, 0, false},  {3, 1, 7, 32, false}, {40, 1, 7, 32, false},
		{4, 0, 0, 0, false},  {5, 1, 7, 32, false},
	};
	waitall(t, first, sizeof first / sizeof first[0]);
	p2p(t, ISEND, 1, 7, 6);
	p2p(t, IRECV, -1, 9, 7);
	p2p(t, IRECV, 1, 7, 8);
	const wreq second[] = {{6, 0, 0, 0, false}, {7, 1, 9, 32, false}, {8, 1, 7, 32, false}};
	waitall(t, second, sizeof second / sizeof second[0]);
	end(t);
}

/* The second trace: persistent sends and receives on peer 1 and one to
 * MPI_PROC_NULL, started by Startalls that leave the common loop at the
 * first start (no channel met yet), at a nonblocking request (reported),
 * at a request named twice (the second start reported), at the send to
 * MPI_PROC_NULL and at an id no recorded call created; Waits with a plain
 * status and a cancelled one. */
static void persistent_trace(rank_run *t)
{
	p2p(t, SEND_INIT, 1, 7, 20);
	p2p(t, RECV_INIT, 1, 7, 21);
	p2p(t, SEND_INIT, -1, 7, 22); /* MPI_PROC_NULL */
	const wreq done[] = {{20, 0, 0, 0, false}, {21, 1, 7, 32, false}, {22, 0, 0, 0, false}};
	startall(t, (const uint32_t[]){20, 21}, 2);
	waitall(t, done, 2);
	startall(t, (const uint32_t[]){20, 21}, 2);
	waitall(t, done, 2);
	p2p(t, ISEND, 1, 8, 23);
	startall(t, (const uint32_t[]){20, 23, 21}, 3);
	waitall(t, (const wreq[]){{20, 0, 0, 0, false}, {23, 0, 0, 0, false}, {21, 1, 7, 32, false}}, 3);
	startall(t, (const uint32_t[]){21, 20, 20}, 3);
	waitall(t, done, 2);
	startall(t, (const uint32_t[]){20, 22, 21, 41}, 4);
	waitall(t, done, 3);
	p2p(t, IRECV, 1, 9, 24);
	wait1(t, &(wreq){24, 1, 9, 32, false});
	p2p(t, IRECV, 1, 9, 25);
	wait1(t, &(wreq){25, 1, 9, 0, true}); /* cancelled: its message uncounted */
	end(t);
}

/* The third trace: persistent requests keep at their init the channel
 * their starts go to (mpi_request_init_hot), and MPI_Startall's common
 * loop then tests no more of their message (mpi_startall_hot): a receive
 * from a source below 0 must keep none, even when a channel of its key is
 * there. MPICH's MPI_PROC_NULL receive (CHAN_NULLISH) makes one: an
 * MPI_ANY_SOURCE receive completed with an empty status. A persistent
 * receive from that source, -4, in a file, is a message from no rank: its
 * start counts it as one from an unknown source, never on that channel. A
 * persistent send on a channel met before keeps it, and is started twice. */
static void kept_trace(rank_run *t)
{
	p2p(t, IRECV, -1, 7, 30); /* MPI_ANY_SOURCE */
	wait1(t, &(wreq){30, -1, 7, 0, false});
	p2p(t, RECV_INIT, CHAN_NULLISH, 7, 31);
	p2p(t, ISEND, 1, 7, 32);
	wait1(t, &(wreq){32, 0, 0, 0, false});
	p2p(t, SEND_INIT, 1, 7, 33);
	for (unsigned k = 0; k < 2; k++) {
		startall(t, (const uint32_t[]){33, 31}, 2);
		waitall(t, (const wreq[]){{33, 0, 0, 0, false}, {31, 1, 7, 32, false}}, 2);
	}
}

/* Whether the two runs' reports say the same: every diagnostic (rule,
 * place, message) in order, and every rule's evaluations and failures. */
static bool same_report(const hv_report *x, const hv_report *y)
{
	if (x->ndiags != y->ndiags || memcmp(x->evaluated, y->evaluated, sizeof x->evaluated) ||
	    memcmp(x->failed, y->failed, sizeof x->failed))
		return false;
	for (size_t i = 0; i < x->ndiags; i++)
		if (x->diags[i].rule != y->diags[i].rule || x->diags[i].offset != y->diags[i].offset ||
		    strcmp(x->diags[i].msg, y->diags[i].msg) != 0)
			return false;
	return true;
}

/* Whether the ranks' channels hold the same messages (keys, counts, the
 * last record, the runs of sizes), in the same order. */
static bool same_channels(const mpi_rank *x, const mpi_rank *y)
{
	if (x->chans.len != y->chans.len) return false;
	size_t i = 0, j = 0;
	uint64_t kx, ky;
	void *vx, *vy;
	while (mpi_map_next(&x->chans, &i, &kx, &vx)) {
		if (!mpi_map_next(&y->chans, &j, &ky, &vy) || kx != ky) return false;
		const mpi_chan *a = vx, *b = vy;
		if (a->inst != b->inst || a->peer != b->peer || a->tag != b->tag || a->dir != b->dir || a->n != b->n ||
		    a->last_rec != b->last_rec || a->nruns != b->nruns || a->runs_full != b->runs_full)
			return false;
		for (unsigned k = 0; k < a->nruns; k++)
			if (a->runs[k].count != b->runs[k].count || a->runs[k].reps != b->runs[k].reps) return false;
	}
	return true;
}

/* The channel of receives from `peer` with `tag`: its message count (0: none). */
static uint64_t received(const mpi_rank *m, int32_t peer, int32_t tag)
{
	size_t i = 0;
	uint64_t k;
	void *v;
	while (mpi_map_next(&m->chans, &i, &k, &v)) {
		const mpi_chan *c = v;
		if (c->dir == 1 && c->peer == peer && c->tag == tag) return c->n;
	}
	return 0;
}

static unsigned findings(const hv_report *r, int rule)
{
	unsigned n = 0;
	for (size_t i = 0; i < r->ndiags; i++) n += r->diags[i].rule == rule;
	return n;
}

/* The same trace fed to a rank on the fused paths and to one on the
 * request-by-request path, for the two to be compared. */
static void both(rank_run *fused, rank_run *whole, void (*feed)(rank_run *))
{
	start(fused, true);
	feed(fused);
	start(whole, false);
	feed(whole);
}

/* The two ranks of both(): the same report and channels, then freed. */
static void same_then_stop(rank_run *fused, rank_run *whole, const char *what)
{
	CHECK(same_report(&fused->rep, &whole->rep), "%s: the reports are the same (%zu and %zu diagnostics)", what,
	      fused->rep.ndiags, whole->rep.ndiags);
	CHECK(same_channels(fused->m, whole->m), "%s: the channels are the same", what);
	stop(fused);
	stop(whole);
}

int main(void)
{
	static rank_run fused, whole;
	both(&fused, &whole, trace);

	/* what the trace says, so that the comparison compares something */
	CHECK(findings(&whole.rep, HV_R_DUMPI_MPI_REQUEST_UNRECORDED) == 1,
	      "request 40 is noted as no recorded call's (%u notes)",
	      findings(&whole.rep, HV_R_DUMPI_MPI_REQUEST_UNRECORDED));
	CHECK(findings(&whole.rep, HV_R_DUMPI_MPI_REQUEST_LEAKED) == 0, "every request completes");
	CHECK(whole.rep.evaluated[HV_R_DUMPI_MPI_REQUEST_UNKNOWN] == 8, "8 requests named (%llu)",
	      (unsigned long long)whole.rep.evaluated[HV_R_DUMPI_MPI_REQUEST_UNKNOWN]);
	CHECK(received(whole.m, 1, 7) == 3 && received(whole.m, 1, 9) == 1,
	      "the wildcard receives are counted on their statuses' channels (%llu on tag 7, %llu on tag 9)",
	      (unsigned long long)received(whole.m, 1, 7), (unsigned long long)received(whole.m, 1, 9));

	/* the fused walk leaving partway gives what the request-by-request path gives */
	same_then_stop(&fused, &whole, "partway");

	both(&fused, &whole, persistent_trace);
	CHECK(findings(&whole.rep, HV_R_DUMPI_MPI_REQUEST_UNKNOWN) == 2,
	      "the starts of an active request are reported (%u findings)",
	      findings(&whole.rep, HV_R_DUMPI_MPI_REQUEST_UNKNOWN));
	CHECK(received(whole.m, 1, 7) == 5 && received(whole.m, 1, 9) == 1,
	      "each start of the receive counts once, the cancelled receive not (%llu on tag 7, %llu on tag 9)",
	      (unsigned long long)received(whole.m, 1, 7), (unsigned long long)received(whole.m, 1, 9));
	same_then_stop(&fused, &whole, "persistent");

	both(&fused, &whole, kept_trace);
	const mpi_pass *fp = fused.m->pass;
	const mpi_req *send = mpi_req_in_table(fp, 33), *recv = mpi_req_in_table(fp, 31);
	CHECK(send && recv && send->chan_gen == fp->chan_gen && recv->chan_gen == 0,
	      "the persistent send keeps its channel, the receive from -4 none");
	end(&fused);
	end(&whole);
	CHECK(received(whole.m, CHAN_NULLISH, 7) == 1 && received(whole.m, 1, 7) == 0,
	      "the persistent receive from source -4 counts on no channel (%llu on MPICH's MPI_PROC_NULL's)",
	      (unsigned long long)received(whole.m, CHAN_NULLISH, 7));
	same_then_stop(&fused, &whole, "kept channels");
	TAP_DONE();
}
