/* The common cases of the per-rank pass, inline where the pass's fused
 * paths (fused.c) and the parts (requests.c, chans.c) meet them, record
 * after record: a message onto a channel met lately (chans.c keeps the
 * whole), a nonblocking request created on an id of the request table or
 * completed there (requests.c keeps the whole). Each makes exactly the
 * steps of the whole for its case, and says when it does not apply. */
#ifndef HV_DUMPI_MPI_HOT_H
#define HV_DUMPI_MPI_HOT_H

#include <stddef.h>
#include <string.h>

#include "pass.h"

/* The near slot (mpi_pass.chan_near) of a channel key, by which tally
 * guesses: the top bits of a multiplicative hash, so that peers a multiple
 * of CHAN_NEAR apart (a 3-D decomposition's neighbours) do not share one. */
static inline unsigned mpi_chan_near_slot(uint32_t inst, int32_t peer, int32_t tag, bool recv)
{
	uint32_t h = ((uint32_t)peer * 0x9e3779b1u + (uint32_t)tag * 0x85ebca77u + inst * 0xc2b2ae3du + recv) *
		     0x27d4eb2fu;
	return h >> (32 - 8); /* CHAN_NEAR is 256 */
}
_Static_assert(CHAN_NEAR == 256u, "mpi_chan_near_slot keeps 8 bits");

/* Channel c when a message of (count, dtype) needs no more of it than its
 * tally and the last run of sizes extended (or no runs kept), else NULL;
 * *reps: that run's count of messages (NULL when no runs are kept). */
static inline __attribute__((always_inline)) mpi_chan *mpi_chan_fits_run(mpi_chan *c, int32_t count, uint16_t dtype,
									  uint32_t **reps)
{
	*reps = NULL;
	if (c->runs_full) return c;
	unsigned k = c->nruns - 1u;
	if (!c->nruns || c->runs[k].count != count || c->runs[k].dtype != dtype || c->runs[k].reps == UINT32_MAX)
		return NULL;
	*reps = &c->runs[k].reps;
	return c;
}
static inline __attribute__((always_inline)) mpi_chan *mpi_chan_fits(mpi_chan *c, int32_t count, uint16_t dtype)
{
	uint32_t *reps;
	return mpi_chan_fits_run(c, count, dtype, &reps);
}
/* The channel of a message (inst, peer, tag, recv) of (count, dtype) when
 * its near slot holds it and it fits the message (mpi_chan_fits): NULL
 * otherwise, and nothing is done (chans.c's tally then does the whole).
 * The tag is compared as given: once the channels are merged they hold
 * CHAN_ANY_TAG, which only a lookup of that tag finds, as chans.c's does.
 * mpi_chan_hot_run says which run of sizes the message extends, for
 * mpi_chan_hot_add_run. */
/* The channel of (inst, peer, tag, recv) when its near slot holds it,
 * whatever it holds of sizes; else NULL. */
static inline __attribute__((always_inline)) mpi_chan *mpi_chan_keyed(mpi_rank *m, uint32_t inst, int32_t peer,
								     int32_t tag, bool recv)
{
	mpi_chan *c = m->pass->chan_near[mpi_chan_near_slot(inst, peer, tag, recv)];
	return c && c->inst == inst && c->peer == peer && c->tag == tag && c->dir == recv ? c : NULL;
}
static inline __attribute__((always_inline)) mpi_chan *mpi_chan_hot_run(mpi_rank *m, uint32_t inst, int32_t peer,
								       int32_t tag, bool recv, int32_t count,
								       uint16_t dtype, uint32_t **reps)
{
	mpi_chan *c = mpi_chan_keyed(m, inst, peer, tag, recv);
	if (!c) return NULL;
	return mpi_chan_fits_run(c, count, dtype, reps);
}
static inline __attribute__((always_inline)) mpi_chan *mpi_chan_hot(mpi_rank *m, uint32_t inst, int32_t peer,
								   int32_t tag, bool recv, int32_t count, uint16_t dtype)
{
	uint32_t *reps;
	return mpi_chan_hot_run(m, inst, peer, tag, recv, count, dtype, &reps);
}

/* The message on channel c of mpi_chan_hot: what tally does with it. Its
 * record's index and offset are copied as one (they lie side by side in
 * both). */
_Static_assert(offsetof(dumpi_record, offset) == offsetof(dumpi_record, index) + 8 &&
		       offsetof(mpi_chan, last_off) == offsetof(mpi_chan, last_rec) + 8,
	       "mpi_chan_hot_add's copy");
static inline __attribute__((always_inline)) void mpi_chan_hot_note(mpi_chan *c, const dumpi_record *rec)
{
	c->n++;
	memcpy(&c->last_rec, &rec->index, 16);
	c->last_fn = (uint16_t)rec->fn;
}
static inline __attribute__((always_inline)) void mpi_chan_hot_add(mpi_chan *c, const dumpi_record *rec)
{
	mpi_chan_hot_note(c, rec);
	if (!c->runs_full) c->runs[c->nruns - 1u].reps++;
}
/* The same with the run of mpi_chan_hot_run. */
static inline __attribute__((always_inline)) void mpi_chan_hot_add_run(mpi_chan *c, const dumpi_record *rec,
									uint32_t *reps)
{
	mpi_chan_hot_note(c, rec);
	if (reps) ++*reps;
}

/* The channels moved (chans.c: the map grew or merged): a new generation
 * of them (mpi_pass.chan_gen), so that no channel a request kept is taken
 * for current. 0 is a request's none, and an old generation must never be
 * current again: past the last one, every request's kept channel is
 * dropped and the generations start again at 1. (A pass steps a few dozen
 * times at most, the map's doublings and one merge; this holds whatever.) */
static __attribute__((cold, noinline, unused)) void mpi_chan_gen_restart(mpi_pass *p)
{
	for (uint32_t i = 0; i < p->req_cap; i++) p->req_direct[i].chan_gen = 0;
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&p->reqs, &it, &key, &val)) ((mpi_req *)val)->chan_gen = 0;
	p->chan_gen = 1;
}
static inline void mpi_chan_gen_step(mpi_pass *p)
{
	if (p->chan_gen == UINT16_MAX) mpi_chan_gen_restart(p);
	else p->chan_gen++;
}

/* Whether a request's message is a receive with a wildcard, counted when it completes. */
static inline bool mpi_req_wild_recv(const mpi_msg *g) { return g->p2p && g->recv && mpi_msg_wild(g); }

/* Request q's message, g, stored field by field (a copy of the whole
 * would copy its padding too), its direction `recv` a constant of the
 * caller's. */
static inline __attribute__((always_inline)) void mpi_req_msg_set(mpi_req *q, const mpi_msg *g, bool recv)
{
	q->msg.p2p = true;
	q->msg.recv = recv;
	q->msg.inst = g->inst;
	q->msg.peer = g->peer;
	q->msg.tag = g->tag;
	q->msg.count = g->count;
	q->msg.dtype = g->dtype;
}

/* The slot of the request table (requests.c) where request `id` lives
 * when the table holds it (before the first request, an empty one). */
static inline __attribute__((always_inline)) mpi_req *mpi_req_slot(const mpi_pass *p, uint64_t id)
{
	return &p->req_direct[id & p->req_mask];
}

/* The `cnt` ids of the request array whose count is at `arr`, in memory
 * when the record's bytes hold them all (not through the window, which
 * the statuses' reads may move), else NULL (read them one by one, as
 * mpi_arr_u32 does). */
static inline const uint8_t *mpi_req_ids(const mpi_pass *p, uint64_t arr, uint64_t cnt)
{
	return p->bytes && arr + 4 >= p->bytes_at && cnt <= p->bytes_len / 4 &&
			       arr + 4 - p->bytes_at <= p->bytes_len - 4 * cnt
		       ? p->bytes + (arr + 4 - p->bytes_at)
		       : NULL;
}

/* The request of the table with id `id` (kind non-zero), or NULL. */
static inline __attribute__((always_inline)) mpi_req *mpi_req_in_table(const mpi_pass *p, uint64_t id)
{
	mpi_req *q = mpi_req_slot(p, id);
	return q->kind && q->id == id ? q : NULL;
}

/* The slot of the table where a new request `v` goes on a hot path
 * (mpi_request_created_hot, fused.c's persistent inits): free while the
 * map holds no request (so none has this id), with its word of the bitmap
 * of ids seen there (*w); NULL otherwise. v < 2^32: the request argument
 * is an `i` field (funcs.def). */
static inline __attribute__((always_inline)) mpi_req *mpi_req_hot_slot(mpi_pass *p, uint64_t v, uint32_t *w)
{
	mpi_req *q = mpi_req_slot(p, v);
	*w = (uint32_t)(v % REQ_SEEN_BITS / 64);
	return p->req_hot && !q->kind && *w < p->seen_words ? q : NULL;
}

/* The common case of mpi_request_created (requests.c), a nonblocking call
 * (function fn, 8..12: the dispatch sends no other here; `recv`, a
 * constant of the caller, is fn == 12) on id `v` whose slot of the table is
 * free while the map holds no request (so none has this id), whose word of
 * the bitmap of ids seen is there, whose message, of a known peer and tag,
 * goes to a channel of mpi_chan_hot: its steps, with nothing to allocate.
 * False (nothing done) when it is not that case. */
static inline __attribute__((always_inline)) bool mpi_request_created_hot(mpi_rank *m, const dumpi_record *rec,
									  uint64_t v, const mpi_msg *g, unsigned fn,
									  bool recv)
{
	mpi_pass *p = m->pass;
	uint32_t w;
	mpi_req *q = mpi_req_hot_slot(p, v, &w);
	if (!q || g->peer < 0 || (recv && g->tag < 0)) return false;
	/* the request's fields stored first, into its free slot (kind 0, so
	 * no request: a miss below leaves it so, for mpi_request_created,
	 * which writes every field), so that few values stay live across the
	 * channel's lookup; field by field, as a compound literal stores its
	 * padding too; a known peer and tag is no wildcard receive; the
	 * channel a persistent request kept here before is left (only an idle
	 * persistent request's is looked at, and req_start drops it from one
	 * made so otherwise) */
	q->cancelled = false;
	q->wild_recv = false;
	q->live = 1;
	q->fn = (uint16_t)fn;
	q->id = (uint32_t)v;
	q->rec = rec->index;
	q->off = rec->offset;
	mpi_req_msg_set(q, g, recv);
	mpi_chan *c = mpi_chan_hot(m, g->inst, g->peer, g->tag, recv, g->count, g->dtype);
	if (!c) return false;
	p->req_seen[w] |= 1ull << (v % 64);
	mpi_chan_hot_add(c, rec);
	q->kind = REQ_ACTIVE;
	return true;
}

/* The request of the table `id` names (kind non-zero) when the rank's
 * request checks are all on; NULL otherwise. */
static inline __attribute__((always_inline)) mpi_req *mpi_req_known(mpi_rank *m, uint64_t id)
{
	mpi_req *q = mpi_req_in_table(m->pass, id);
	return q && !m->pass->req_off ? q : NULL;
}

/* The common case of MPI_Start (requests.c's req_start): an inactive persistent request of the
 * table whose message, of a known peer and tag, goes to a channel of
 * mpi_chan_hot: req_start's steps (its two evaluations, both passed), inline
 * in the loop of MPI_Startall. False (nothing done) otherwise. */
static inline __attribute__((always_inline)) bool mpi_req_start_hot(mpi_rank *m, const dumpi_record *rec, uint32_t id)
{
	mpi_pass *p = m->pass;
	mpi_req *q = mpi_req_known(m, id);
	if (!q || q->kind != REQ_PERSIST_IDLE || !q->msg.p2p) return false;
	const mpi_msg *g = &q->msg;
	/* one test, not one a direction: Startall's sends and receives alternate */
	if ((g->peer < 0) | (g->recv & (g->tag < 0))) return false;
	/* the channel this request's message went to when it last started, if
	 * the channels have not moved since (mpi_pass.chan_gen): the one its key
	 * finds, whether or not its near slot still holds it (the near slots
	 * only guess, and tally's lookup in the map finds the same channel) */
	mpi_chan *c;
	if (q->chan_gen == p->chan_gen) {
		c = mpi_chan_fits(q->chan, g->count, g->dtype);
	} else {
		c = mpi_chan_hot(m, g->inst, g->peer, g->tag, g->recv, g->count, g->dtype);
		if (c) q->chan = c, q->chan_gen = p->chan_gen;
	}
	if (!c) return false;
	hv_eval_n(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, 2);
	q->kind = REQ_PERSIST_ACTIVE;
	mpi_chan_hot_add(c, rec);
	return true;
}

/* The common case of MPI_Startall, `cnt` ids (`ids`, big-endian) from the
 * record's bytes: each request, in array order, a case of
 * mpi_req_start_hot, started as it does in one loop that keeps the table
 * and the channels' generation in registers (a store to a request or a
 * channel could alias them), its evaluations counted once.
 * A request whose kept channel is current passed mpi_req_start_hot's tests
 * of its message when it was kept (mpi_req.chan_gen: no path keeps one
 * otherwise), and its message has not changed since: only the channel's
 * fit is tested then.
 * Returns how many it started: the first request that is not that case
 * is the caller's, with everything after it. */
static inline __attribute__((always_inline)) uint64_t mpi_startall_hot(mpi_rank *m, const dumpi_record *rec,
									const uint8_t *ids, uint64_t cnt)
{
	mpi_pass *p = m->pass;
	if (p->req_off) return 0;
	mpi_req *tab = p->req_direct;
	uint32_t mask = p->req_mask;
	uint16_t gen = p->chan_gen;
	uint64_t i = 0;
	for (; i < cnt; i++) {
		uint32_t id = hv_be32(ids + 4 * i);
		mpi_req *q = &tab[id & mask];
		if (q->kind != REQ_PERSIST_IDLE || q->id != id) break;
		const mpi_msg *g = &q->msg;
		/* the channel kept when the channels have not moved since, else
		 * the one its near slot holds, kept once it is its key's */
		mpi_chan *c = q->chan;
		if (q->chan_gen != gen) {
			if (!g->p2p || (g->peer < 0) | (g->recv & (g->tag < 0))) break;
			c = mpi_chan_hot(m, g->inst, g->peer, g->tag, g->recv, g->count, g->dtype);
			if (!c) break;
			q->chan = c, q->chan_gen = gen;
		} else if (!mpi_chan_fits(c, g->count, g->dtype)) {
			break;
		}
		q->kind = REQ_PERSIST_ACTIVE;
		mpi_chan_hot_add(c, rec);
	}
	hv_eval_n(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, 2 * i);
	return i;
}

/* MPI_Startall's requests from the `first`, `cnt` ids in the array whose
 * count is at `arr`: each a common start (mpi_req_start_hot) inline, the
 * others through mpi_request_start. */
static inline __attribute__((always_inline)) void mpi_request_startall_hot(mpi_rank *m, const dumpi_record *rec,
									   uint64_t cnt, uint64_t arr, uint64_t first)
{
	/* the ids in memory at once when the record holds them (the starts
	 * read nothing through the window) */
	const uint8_t *ids = mpi_req_ids(m->pass, arr, cnt);
	for (uint64_t i = first; i < cnt; i++) {
		uint32_t id;
		if (ids) id = hv_be32(ids + 4 * i);
		else if (!mpi_arr_u32(m, arr, i, &id)) continue;
		if (!mpi_req_start_hot(m, rec, id)) mpi_request_start(m, rec, arr + 4 + 4 * i, id);
	}
}

/* The request of mpi_req_known when it is an active one (nonblocking, or
 * a started persistent one) whose completion counts nothing (no wildcard
 * receive); NULL otherwise. */
static inline __attribute__((always_inline)) mpi_req *mpi_req_plain(mpi_rank *m, uint64_t id)
{
	mpi_pass *p = m->pass;
	mpi_req *q = mpi_req_slot(p, id);
	return (q->kind & 1) && q->id == id && !q->wild_recv && !p->req_off ? q : NULL; /* REQ_ACTIVE or REQ_PERSIST_ACTIVE */
}

/* Request q (of mpi_req_plain) completed uncancelled: what req_complete
 * does with it (a persistent request goes back to inactive). */
static inline __attribute__((always_inline)) void mpi_req_plain_finish(mpi_rank *m, mpi_req *q);
static inline __attribute__((always_inline)) void mpi_req_plain_done(mpi_rank *m, mpi_req *q)
{
	hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, true);
	mpi_req_plain_finish(m, q);
}

/* The same once the request was named (its evaluation counted): what
 * req_finish does with it. Whether it received is stored without a
 * branch (waits on a send and on a receive alternate, in the mix), and
 * fewer instructions; its kind keeps its branches, as a single wait's
 * request is mostly one kind after another of the same, which a predictor
 * learns, and mpi_waitall_hot's arithmetic for it costs 2 instructions a
 * wait more on the LAMMPS-shaped input (measured). */
static inline __attribute__((always_inline)) void mpi_req_plain_finish(mpi_rank *m, mpi_req *q)
{
	m->pass->status_fresh |= q->msg.p2p & q->msg.recv;
	if (q->kind == REQ_PERSIST_ACTIVE) q->kind = REQ_PERSIST_IDLE;
	else if (q->live > 1) q->live--;
	else q->kind = 0;
}

/* The common case of an MPI_Waitall or MPI_Testall that completes its
 * `cnt` requests, whose ids (`ids`, big-endian) and statuses the record's
 * bytes hold (`sts`, entries of `stride` bytes, each with its cancelled
 * flag at 8; one that says not cancelled with stride 0 when the record
 * has none, MPI_STATUSES_IGNORE): each request, in array order, a plain
 * one of the table (mpi_req_plain) whose status says not cancelled,
 * finished as mpi_req_plain_done does, in one walk whose only branches
 * are the loop's and its test for that case. Returns how many it finished
 * (evaluations counted): the first request that is not that case is the
 * caller's, with everything after it. */
_Static_assert(REQ_ACTIVE - 1 == 0 && REQ_PERSIST_ACTIVE - 1 == REQ_PERSIST_IDLE, "mpi_waitall_hot's arithmetic");
static inline __attribute__((always_inline)) uint64_t mpi_waitall_hot(mpi_rank *m, const uint8_t *ids, uint64_t cnt,
								       const uint8_t *sts, unsigned stride)
{
	mpi_pass *p = m->pass;
	bool fresh = false;
	uint64_t i = 0;
	for (; i < cnt; i++) {
		uint32_t id = hv_be32(ids + 4 * i);
		mpi_req *q = mpi_req_slot(p, id);
		if (!(q->kind & 1) | (q->id != id) | q->wild_recv | (sts[i * stride + 8] != 0)) break;
		/* mpi_req_plain_finish without a branch, as an array mixes
		 * sends and receives, nonblocking and persistent requests in
		 * no order a predictor learns: an active request of more than
		 * one live instance (only a nonblocking one has more: mpi_req.live)
		 * loses one (`more`), any other active one ends (REQ_ACTIVE - 1
		 * is 0, REQ_PERSIST_ACTIVE - 1 is REQ_PERSIST_IDLE); status_fresh
		 * is stored once */
		fresh |= q->msg.p2p & q->msg.recv;
		unsigned more = q->live > 1;
		q->live -= more;
		q->kind = (uint8_t)(q->kind - 1u + more);
	}
	p->status_fresh |= fresh;
	hv_eval_n(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, i);
	return i;
}

/* The status at byte `at` of the file (from the record's bytes when they
 * hold it, else through the window): 14 bytes with its tag from version
 * 0.6.3 on, else 10; not ok when it cannot be read. */
static inline __attribute__((always_inline)) mpi_status mpi_status_at(mpi_rank *m, uint64_t at)
{
	mpi_status st = {0};
	bool tagged = m->pass->status_tagged;
	const uint8_t *p = mpi_bytes(m, at, tagged ? 14 : 10);
	if (!p) return st;
	st.ok = true;
	st.bytes = (int32_t)hv_be32(p);
	st.src = (int32_t)hv_be32(p + 4);
	st.cancelled = p[8] != 0;
	if (tagged) st.tag_ok = true, st.tag = (int32_t)hv_be32(p + 10);
	return st;
}

/* The first status of the status field at index `is` of the args, as
 * mpi_status_of reads it, inline where a blocking receive reads its one. */
static inline __attribute__((always_inline)) mpi_status mpi_status_first(mpi_rank *m, const dumpi_args *a, unsigned is)
{
	if (!a->f[is].present || a->f[is].v == 0) return (mpi_status){0};
	return mpi_status_at(m, dumpi_arg_at_var(a, is) + 4);
}

/* Whether status i of the statuses field at index `is` of the args says
 * cancelled, as mpi_status_of reads it (an unreadable status is not). */
static inline __attribute__((always_inline)) bool mpi_status_cancelled(mpi_rank *m, const dumpi_args *a, unsigned is, uint64_t i)
{
	if (!a->f[is].present || i >= a->f[is].v) return false;
	unsigned stride = m->pass->status_tagged ? 14u : 10u;
	const uint8_t *sb = mpi_bytes(m, dumpi_arg_at_var(a, is) + 4 + i * stride, stride);
	return sb && sb[8];
}

#endif
