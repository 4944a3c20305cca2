/* Requests of the per-rank pass: every request from the call that creates
 * it to the wait, test, free or cancel that ends it (shared ids, persistent
 * requests, leaks at the end of the rank), request ids no recorded call
 * created (calls libdumpi does not record), and the calls the footer counts
 * as ignored, which hide whole checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "checks.h"
#include "hot.h"

/* Function classes (dumpi/common/funclabels.h ids). */
static bool creates_request(unsigned fn) { return (fn >= 8 && fn <= 12) || (fn >= 26 && fn <= 30) || fn == 170; }
static bool is_persistent_init(unsigned fn) { return fn >= 26 && fn <= 30; }
static bool is_io_request(unsigned fn)
{
	return fn == 246 || fn == 247 || fn == 252 || fn == 253 || fn == 259 || fn == 260;
}

/* ---- calls the footer counts as ignored ---- */

static bool is_p2p(unsigned fn)
{
	return fn <= 1 || (fn >= 3 && fn <= 5) || (fn >= 8 && fn <= 24) || (fn >= 26 && fn <= 34);
}

unsigned mpi_ignored_hides(unsigned f)
{
	unsigned hides = f == 125 ? IGN_FINALIZE : 0;
	if (creates_request(f) || (f >= 13 && f <= 21) || f == 24 || f == 31 || f == 32) hides |= IGN_REQUESTS;
	if (is_p2p(f)) hides |= IGN_P2P;
	if (mpi_is_coll(f)) hides |= IGN_COLL;
	return hides;
}

void mpi_rank_set_ignored(mpi_rank *m, uint64_t footer_off, const uint32_t *called, const uint32_t *ignored, unsigned n)
{
	if (!m) return;
	m->pass->ignored_off = footer_off;
	size_t len = 0, more = 0;
	for (unsigned f = 0; f < n && f < DUMPI_NFUNCS; f++) {
		if (!ignored[f]) continue;
		uint8_t hides = (uint8_t)mpi_ignored_hides(f);
		if (!hides) continue;
		m->ignored |= hides;
		if (hides & IGN_REQUESTS) m->pass->req_off = true;
		int k = len < sizeof m->pass->ignored_names - 1
				? snprintf(m->pass->ignored_names + len, sizeof m->pass->ignored_names - len, "%s%s %u of %u", len ? ", " : "",
					   dumpi_function_name(f), ignored[f], called[f])
				: -1;
		if (k < 0 || len + (size_t)k >= sizeof m->pass->ignored_names) {
			m->pass->ignored_names[len] = 0;
			more++;
		} else {
			len += (size_t)k;
		}
	}
	if (more && len + 24 < sizeof m->pass->ignored_names)
		snprintf(m->pass->ignored_names + len, sizeof m->pass->ignored_names - len, " and %zu more", more);
}

/* ---- requests ---- */

/* Requests live in the table at slot id mod its size (internal.h), and in
 * the map when that slot held another live request once the table was
 * full: a wait or test finds its request without hashing. An id is in one
 * of the two (req_put looks in both before placing it). Leaks are listed
 * in the order of the records that created them, whichever holds them. */
static mpi_req *req_get(mpi_rank *m, uint64_t id)
{
	mpi_pass *p = m->pass;
	mpi_req *q = mpi_req_in_table(p, id);
	return q ? q : p->reqs.len ? mpi_map_get(&p->reqs, id) : NULL;
}

/* The bitmap of ids seen, grown to `words` words (new ones zero). */
static bool seen_grow(mpi_pass *p, uint32_t words)
{
	if (words <= p->seen_words) return true;
	uint32_t nw = p->seen_words ? p->seen_words : 1;
	while (nw < words) nw *= 2;
	if (nw > REQ_SEEN_BITS / 64) nw = REQ_SEEN_BITS / 64;
	uint64_t *ns = hv_grow_zeroed(p->req_seen, p->seen_words, nw, sizeof *ns);
	if (!ns) return false;
	p->req_seen = ns;
	p->seen_words = nw;
	return true;
}

/* req_hot's condition, after the table or the map changed. */
static void req_hot_update(mpi_pass *p) { p->req_hot = p->req_cap && !p->reqs.len; }

/* The table doubled (or made): each request moves to its slot in the
 * larger table, where none meets another (two ids of one slot mod 2n
 * share their slot mod n). */
static bool req_grow(mpi_pass *p)
{
	uint32_t nc = p->req_cap ? p->req_cap * 2 : REQ_DIRECT_MIN;
	mpi_req *nd = hv_calloc(nc, sizeof *nd);
	if (!nd) return false;
	for (uint32_t i = 0; i < p->req_cap; i++)
		if (p->req_direct[i].kind) nd[p->req_direct[i].id & (nc - 1)] = p->req_direct[i];
	if (p->req_cap) free(p->req_direct);
	p->req_direct = nd;
	p->req_cap = nc;
	p->req_mask = nc - 1;
	req_hot_update(p);
	return true;
}

/* The table before the first request: one empty slot, never written (a
 * request is placed only once req_cap says the table is allocated), so
 * that a lookup needs no test of its own. */
static const mpi_req req_none;

void mpi_requests_init(mpi_pass *p)
{
	mpi_map_init(&p->reqs, sizeof(mpi_req));
	p->req_direct = (mpi_req *)&req_none;
	p->req_cap = p->req_mask = 0;
	p->req_hot = false;
}

void mpi_requests_free(mpi_pass *p)
{
	mpi_map_free(&p->reqs);
	free(p->req_seen);
	if (p->req_cap) free(p->req_direct);
	mpi_requests_init(p);
	p->req_seen = NULL, p->seen_words = 0;
}

static mpi_req *req_put(mpi_rank *m, uint64_t id, bool *fresh)
{
	mpi_pass *p = m->pass;
	*fresh = false;
	mpi_req *q = req_get(m, id);
	if (q) return q;
	if (!p->req_cap && !req_grow(p)) goto oom;
	/* a slot holding another request (or an id beyond the slots' ids,
	 * which no `i` field holds): a larger table, or the map once the
	 * table is full */
	while ((q = mpi_req_slot(p, id))->kind || id > UINT32_MAX) {
		if (p->req_cap >= REQ_DIRECT || id > UINT32_MAX) {
			q = mpi_map_put(&p->reqs, id, fresh);
			req_hot_update(p);
			return q;
		}
		if (!req_grow(p)) goto oom;
	}
	memset(q, 0, sizeof *q);
	q->id = (uint32_t)id;
	*fresh = true;
	return q;
oom:
	p->reqs.oom = true; /* as the map says it ran out */
	return NULL;
}

static void req_del(mpi_rank *m, uint64_t id)
{
	mpi_pass *p = m->pass;
	mpi_req *q = mpi_req_in_table(p, id);
	if (q) {
		q->kind = 0;
	} else if (p->reqs.len) {
		mpi_map_del(&p->reqs, id);
		req_hot_update(p);
	}
}

static void req_mark_seen(mpi_rank *m, uint64_t id)
{
	mpi_pass *p = m->pass;
	uint32_t w = (uint32_t)((id % REQ_SEEN_BITS) / 64);
	if (w < p->seen_words || seen_grow(p, w + 1)) p->req_seen[w] |= 1ull << (id % 64);
}

static bool req_was_seen(const mpi_rank *m, uint64_t id)
{
	const mpi_pass *p = m->pass;
	uint32_t w = (uint32_t)((id % REQ_SEEN_BITS) / 64);
	return w < p->seen_words && (p->req_seen[w] >> (id % 64) & 1);
}

static void req_unknown(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id, const char *why)
{
	mpi_emit(m, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, rec, off, 4, "request %u %s", id, why);
}

/* A request named by a wait/test/free/cancel/start; NULL when unknown.
 * An id no recorded call created is a call libdumpi does not record; so is
 * an id the trace showed end: libdumpi numbers requests by handle value,
 * and MPICH (one recycled pool) and Open MPI (free lists) hand a completed
 * request's handle to the next request, also to one an unrecorded call
 * (MPI_Ibarrier, MPI_Imrecv, ...) creates. Both are counted for the rank's
 * note (dumpi.mpi.request-unrecorded), not reported one by one. */
static mpi_req *req_named_slow(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id);
static inline mpi_req *req_named(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id)
{
	/* most name a request of the table, with the request checks on */
	mpi_req *q = mpi_req_known(m, id);
	if (q) {
		hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, true);
		return q;
	}
	return req_named_slow(m, rec, off, id);
}

__attribute__((noinline)) static mpi_req *req_named_slow(mpi_rank *m, const dumpi_record *rec, uint64_t off,
							 uint32_t id)
{
	if (id < 2) return NULL; /* MPI_REQUEST_NULL (and 0, DUMPI's error index) */
	mpi_req *q = req_get(m, id);
	if (m->io_requests || (m->ignored & IGN_REQUESTS)) return q;
	hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, true);
	if (q) return q;
	m->unrec |= UNREC_REQ;
	if (req_was_seen(m, id)) m->pass->recycled++;
	if (m->pass->unrecorded++ == 0)
		m->pass->unrecorded_rec = rec->index, m->pass->unrecorded_off = off, m->pass->unrecorded_id = id,
		m->pass->unrecorded_fn = (uint16_t)rec->fn;
	return NULL;
}

/* One instance of request `id` ends (completed or freed). */
static void req_drop(mpi_rank *m, uint64_t id, mpi_req *q)
{
	if (q->kind == REQ_ACTIVE && q->live > 1) q->live--;
	else req_del(m, id);
}

static void leaked(mpi_rank *m, uint64_t id, const mpi_req *q, const char *when);

/* A call creates request `id` of another kind while an instance is still
 * active (a persistent request over a nonblocking one, or the other way):
 * the MPI library cannot hand out a live handle again, so the old
 * instances were never completed. */
static void req_replaced(mpi_rank *m, const dumpi_record *rec, uint64_t id, const mpi_req *q)
{
	bool active = !q->cancelled && q->kind != REQ_PERSIST_IDLE;
	if (hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_LEAKED, !active)) return;
	char when[96];
	snprintf(when, sizeof when, "record %llu, where %s creates it again", (unsigned long long)rec->index,
		 dumpi_function_name(rec->fn));
	leaked(m, id, q, when);
}

/* A request completed by a wait or test: a wildcard receive is counted now,
 * with the source and tag its status recorded. */
static void req_finish(mpi_rank *m, const dumpi_record *rec, uint32_t id, mpi_req *q, mpi_status st)
{
	/* A receive its status says was cancelled received nothing (a cancelled
	 * MPI_ANY_SOURCE receive completes with {cancelled=1, source=-1}). */
	if (q->kind != REQ_PERSIST_IDLE && q->msg.p2p && q->msg.recv && mpi_msg_wild(&q->msg) && !st.cancelled)
		mpi_recv_msg(m, rec, &q->msg, st);
	if (q->kind != REQ_PERSIST_IDLE && st.cancelled) mpi_untally(m, &q->msg);
	if (q->msg.p2p && q->msg.recv) m->pass->status_fresh = true;
	if (q->kind == REQ_ACTIVE) req_drop(m, id, q);
	else q->kind = REQ_PERSIST_IDLE;
}

static void req_complete(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id, mpi_status st)
{
	mpi_req *q = req_named(m, rec, off, id);
	if (q) req_finish(m, rec, id, q, st);
}

static inline void req_start(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id)
{
	mpi_req *q = req_named(m, rec, off, id);
	if (!q) return;
	bool ok = q->kind == REQ_PERSIST_IDLE || m->io_requests || (m->ignored & IGN_REQUESTS);
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, ok))
		req_unknown(m, rec, off, id,
			    q->kind == REQ_ACTIVE ? "is a nonblocking request, not a persistent one: "
						    "MPI_Start needs an inactive persistent request"
						  : "is already active: MPI_Start needs an inactive persistent request");
	bool was_idle = q->kind == REQ_PERSIST_IDLE;
	q->kind = REQ_PERSIST_ACTIVE;
	/* one made persistent here (a nonblocking one, reported above) keeps
	 * no channel: what it holds is another message's (mpi_request_created_hot);
	 * and one instance, as every persistent request (mpi_req.live: its
	 * other instances are not read again, as no call completes them) */
	if (!was_idle) q->chan_gen = 0, q->live = 1;
	if (!was_idle || !q->msg.p2p) return;
	const mpi_msg *g = &q->msg;
	if (g->peer >= 0 && (!g->recv || g->tag >= 0)) { /* a known peer and tag: what both below do with it */
		mpi_chan *c = mpi_chan_hot(m, g->inst, g->peer, g->tag, g->recv, g->count, g->dtype);
		if (c) mpi_chan_hot_add(c, rec);
		else mpi_tally(m, rec, g);
	} else if (!g->recv) {
		mpi_send_msg(m, rec, g);
	} else if (!mpi_msg_wild(g)) {
		mpi_recv_msg(m, rec, g, (mpi_status){0});
	}
}

void mpi_request_created(mpi_rank *m, const dumpi_record *rec, uint64_t v, const mpi_msg *g)
{
	unsigned fn = rec->fn;
	bool recv = fn == 12 || fn == 30;
	req_mark_seen(m, v);
	/* counted now: a nonblocking message (not a persistent one's, nor a
	 * wildcard receive's); a known peer and tag go straight to the channel */
	bool counted = !is_persistent_init(fn) && fn != 170;
	if (counted && g->peer >= 0 && (!recv || g->tag >= 0)) mpi_tally(m, rec, g);
	else if (counted && !recv) mpi_send_msg(m, rec, g);
	else if (counted && !mpi_msg_wild(g)) mpi_recv_msg(m, rec, g, (mpi_status){0});
	bool fresh;
	mpi_req *q = req_put(m, v, &fresh);
	if (!q) return;
	if (!fresh && q->kind == REQ_ACTIVE && !is_persistent_init(fn)) {
		/* One more live instance of a shared id (see mpi_req); the
		 * oldest instance keeps the record and the message. */
		if (q->live < UINT32_MAX) q->live++;
		return;
	}
	if (!fresh) req_replaced(m, rec, v, q);
	q->kind = is_persistent_init(fn) ? REQ_PERSIST_IDLE : REQ_ACTIVE;
	q->chan_gen = 0, q->chan = NULL; /* a new message: its channel not found yet */
	q->live = 1;
	q->cancelled = false;
	q->fn = (uint16_t)fn;
	q->rec = rec->index;
	q->off = rec->offset;
	q->msg = *g;
	q->wild_recv = mpi_req_wild_recv(g);
}

/* MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome: every request of
 * the array named (a known one of the table counted at once: req_named's
 * evaluation and nothing else), then the completed ones finished:
 * requests[index], or requests[indices[k]]. */
void mpi_request_some(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	uint64_t cnt, flag = 1;
	if (!mpi_arg(fn, a, RO_REQUESTS, &cnt)) return;
	uint64_t arr = mpi_arg_at(fn, a, RO_REQUESTS);
	mpi_arg(fn, a, RO_FLAG, &flag);
	mpi_pass *p = m->pass;
	const uint8_t *ids = mpi_req_ids(p, arr, cnt);
	bool plain = !p->req_off;
	uint64_t known = 0;
	uint32_t id;
	for (uint64_t i = 0; i < cnt; i++) {
		if (ids) id = hv_be32(ids + 4 * i);
		else if (!mpi_arr_u32(m, arr, i, &id)) continue;
		if (plain && mpi_req_in_table(p, id)) known++;
		else req_named(m, rec, arr + 4 + 4 * i, id);
	}
	hv_eval_n(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, known);
	uint64_t idx, n;
	if ((fn == 16 || fn == 17) && flag && mpi_arg(fn, a, RO_INDEX, &idx) && idx < cnt &&
	    (ids ? (id = hv_be32(ids + 4 * idx), true) : mpi_arr_u32(m, arr, idx, &id))) {
		/* most complete a plain request of the table: its status is read
		 * only for whether it was cancelled */
		mpi_req *q = mpi_req_plain(m, id);
		if (q && !mpi_status_cancelled(m, a, mpi_role_ix[fn][RO_STATUS], 0)) {
			mpi_req_plain_finish(m, q);
		} else {
			q = id >= 2 ? req_get(m, id) : NULL;
			if (q) req_finish(m, rec, id, q, mpi_status_of(m, fn, a, RO_STATUS, 0));
		}
	}
	if ((fn == 20 || fn == 21) && mpi_arg(fn, a, RO_INDICES, &n)) {
		uint64_t ind = mpi_arg_at(fn, a, RO_INDICES);
		for (uint64_t k = 0; k < n; k++) {
			uint32_t j;
			if (!mpi_arr_u32(m, ind, k, &j) || j >= cnt || !mpi_arr_u32(m, arr, j, &id)) continue;
			mpi_req *q = id >= 2 ? req_get(m, id) : NULL;
			if (q) req_finish(m, rec, id, q, mpi_status_of(m, fn, a, RO_STATUSES, k));
		}
	}
}

/* MPI_Waitany as libdumpi lays it out (count, requests, index, status;
 * mpi_fused_req_path takes it only then, and gives it no flag):
 * mpi_fused_some's steps -- its count, every request of the array named,
 * then requests[index] finished -- with each field read at its place and
 * the array from the record's bytes (else mpi_request_some reads it). */
void mpi_request_waitany(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const unsigned ic = WAITANY_COUNT, iq = WAITANY_REQUESTS, ix = WAITANY_INDEX, is = WAITANY_STATUS;
	mpi_take_bytes(m, a);
	if (a->f[ic].present) mpi_check_count(m, rec, RO_COUNT, (int32_t)(uint32_t)a->f[ic].v, a, ic);
	if (!a->f[iq].present) return;
	mpi_pass *p = m->pass;
	uint64_t cnt = a->f[iq].v, arr = dumpi_arg_at_var(a, iq);
	const uint8_t *ids = mpi_req_ids(p, arr, cnt);
	if (!ids) {
		mpi_request_some(m, rec, a);
		return;
	}
	uint64_t known = 0;
	for (uint64_t i = 0; i < cnt; i++) {
		uint32_t id = hv_be32(ids + 4 * i);
		if (!p->req_off && mpi_req_in_table(p, id)) known++;
		else req_named(m, rec, arr + 4 + 4 * i, id);
	}
	hv_eval_n(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, known);
	uint64_t idx = a->f[ix].v;
	if (!a->f[ix].present || idx >= cnt) return;
	uint32_t id = hv_be32(ids + 4 * idx);
	mpi_req *q = mpi_req_plain(m, id);
	if (q && !mpi_status_cancelled(m, a, is, 0)) {
		mpi_req_plain_finish(m, q);
	} else {
		q = id >= 2 ? req_get(m, id) : NULL;
		if (q) req_finish(m, rec, id, q, mpi_status_of(m, rec->fn, a, RO_STATUS, 0));
	}
}

/* MPI_Wait off its common path, out of line: the common one saves no registers for it. */
__attribute__((noinline)) static void wait_whole(mpi_rank *m, const dumpi_record *rec, uint64_t at, uint32_t id,
						const dumpi_args *a)
{
	req_complete(m, rec, at, id, mpi_status_of(m, 13, a, RO_STATUS, 0));
}

/* MPI_Wait past mpi_request_wait's test, out of line: every case. */
__attribute__((noinline)) static void wait_rest(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const unsigned iq = WAIT_REQUEST, is = WAIT_STATUS;
	if (!a->f[iq].present) return;
	uint32_t id = (uint32_t)a->f[iq].v;
	/* the status is read whole only off the common path; on it, only
	 * whether it says cancelled, from the record's bytes when they hold it
	 * (as mpi_status_cancelled reads it: none, or its whole entry) */
	mpi_req *q = mpi_req_plain(m, id);
	if (q) {
		uint64_t stride = m->pass->status_tagged ? 14u : 10u, at = dumpi_arg_at_var(a, is) + 4;
		if (!a->f[is].present || a->f[is].v == 0) {
			mpi_req_plain_done(m, q);
			return;
		}
		if (a->bytes && at >= a->bytes_at && at - a->bytes_at <= a->bytes_len &&
		    stride <= a->bytes_len - (at - a->bytes_at)) {
			if (!a->bytes[at - a->bytes_at + 8]) {
				mpi_req_plain_done(m, q);
				return;
			}
		}
	}
	mpi_take_bytes(m, a);
	if (q && !mpi_status_cancelled(m, a, is, 0)) {
		mpi_req_plain_done(m, q);
		return;
	}
	wait_whole(m, rec, dumpi_arg_at(a, rec->fn, iq), id, a);
}

/* The common MPI_Wait, a plain request of the table (mpi_req_plain)
 * with no status or one in the record's bytes that says not cancelled,
 * finished with one test for the whole case and nothing kept across a
 * call; everything else goes to wait_rest. */
void mpi_request_wait(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const unsigned iq = WAIT_REQUEST, is = WAIT_STATUS;
	mpi_req *q = mpi_req_plain(m, (uint32_t)a->f[iq].v);
	uint64_t stride = m->pass->status_tagged ? 14u : 10u, o = dumpi_arg_at_var(a, is) + 4 - a->bytes_at;
	bool none = !a->f[is].present || a->f[is].v == 0;
	if (q && a->f[iq].present &&
	    (none || (a->bytes && o <= a->bytes_len && stride <= a->bytes_len - o && !a->bytes[o + 8]))) {
		mpi_req_plain_done(m, q);
		return;
	}
	wait_rest(m, rec, a);
}

/* Request i (id) of an MPI_Waitall or MPI_Testall whose array is at `arr`,
 * off the common path, out of line. */
__attribute__((noinline)) static void waitall_whole(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a,
						   uint64_t arr, uint64_t i, uint32_t id, uint64_t flag)
{
	if (flag) req_complete(m, rec, arr + 4 + 4 * i, id, mpi_status_of(m, rec->fn, a, RO_STATUSES, i));
	else req_named(m, rec, arr + 4 + 4 * i, id);
}

void mpi_request_waitall(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, uint64_t first)
{
	unsigned fn = rec->fn;
	uint64_t cnt, flag = 1;
	if (!mpi_arg(fn, a, RO_REQUESTS, &cnt)) return;
	uint64_t arr = mpi_arg_at(fn, a, RO_REQUESTS);
	mpi_arg(fn, a, RO_FLAG, &flag);
	/* the ids in memory at once when the record's bytes hold them all (not
	 * through the window, which the statuses' reads may move; else one by
	 * one, as mpi_requests reads them) */
	const uint8_t *ids = mpi_req_ids(m->pass, arr, cnt);
	unsigned is = mpi_role_ix[fn][RO_STATUSES];
	/* the statuses' cancelled flags from the record when it holds them all
	 * (as mpi_status_cancelled reads them), else one by one */
	uint64_t stride = m->pass->status_tagged ? 14u : 10u;
	const uint8_t *sts = a->f[is].present && a->f[is].v <= UINT32_MAX
				     ? mpi_in_record(m, dumpi_arg_at_var(a, is) + 4, a->f[is].v * stride)
				     : NULL;
	for (uint64_t i = first; i < cnt; i++) {
		uint32_t id;
		if (ids) id = hv_be32(ids + 4 * i);
		else if (!mpi_arr_u32(m, arr, i, &id)) break;
		mpi_req *q = flag ? mpi_req_plain(m, id) : NULL;
		bool cancelled = q && (sts ? i < a->f[is].v && sts[i * stride + 8] : mpi_status_cancelled(m, a, is, i));
		if (q && !cancelled) mpi_req_plain_done(m, q);
		else waitall_whole(m, rec, a, arr, i, id, flag);
	}
}

void mpi_request_start(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id) { req_start(m, rec, off, id); }

void mpi_request_test(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const uint8_t *ix = mpi_role_ix[rec->fn];
	unsigned iq = ix[RO_REQUEST], iflag = ix[RO_FLAG];
	if (!a->f[iq].present) return;
	uint32_t id = (uint32_t)a->f[iq].v;
	if (a->f[iflag].present && !a->f[iflag].v) { /* not complete: the request named */
		req_named(m, rec, dumpi_arg_at(a, rec->fn, iq), id);
		return;
	}
	/* complete: as MPI_Wait, a plain request of the table whose status
	 * says not cancelled finished without reading the rest of it */
	mpi_take_bytes(m, a);
	mpi_req *q = mpi_req_plain(m, id);
	if (q && !mpi_status_cancelled(m, a, ix[RO_STATUS], 0)) mpi_req_plain_done(m, q);
	else req_complete(m, rec, dumpi_arg_at(a, rec->fn, iq), id, mpi_status_of(m, rec->fn, a, RO_STATUS, 0));
}

void mpi_request_free(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned iq = mpi_role_ix[rec->fn][RO_REQUEST];
	if (!a->f[iq].present) return;
	uint32_t id = (uint32_t)a->f[iq].v;
	mpi_req *q = req_named(m, rec, dumpi_arg_at(a, rec->fn, iq), id);
	if (q) req_drop(m, id, q);
}

bool mpi_requests_of(unsigned fn)
{
	return is_io_request(fn) || creates_request(fn) || (fn >= 13 && fn <= 21) || fn == 24 || fn == 31 || fn == 32;
}

void mpi_requests(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	uint64_t v, cnt, flag = 1;
	if (is_io_request(fn)) m->io_requests = true, m->pass->req_off = true;
	if (creates_request(fn) && mpi_arg(fn, a, RO_REQUEST, &v) && v >= 2) {
		bool recv = fn == 12 || fn == 30;
		mpi_msg g = {0};
		if (fn != 170) g = mpi_msg_from(m, fn, a, recv, RO_COUNT, recv ? RO_SOURCE : RO_DEST, RO_TAG, RO_DATATYPE);
		mpi_request_created(m, rec, v, &g);
		return;
	}
	uint64_t at = mpi_arg_at(fn, a, RO_REQUEST);
	switch (fn) {
	case 13: /* MPI_Wait */
		if (mpi_arg(fn, a, RO_REQUEST, &v)) req_complete(m, rec, at, (uint32_t)v, mpi_status_of(m, fn, a, RO_STATUS, 0));
		break;
	case 14: /* MPI_Test */
		mpi_request_test(m, rec, a);
		break;
	case 15: /* MPI_Request_free */
		mpi_request_free(m, rec, a);
		break;
	case 24: { /* MPI_Cancel */
		mpi_req *q = mpi_arg(fn, a, RO_REQUEST, &v) ? req_named(m, rec, at, (uint32_t)v) : NULL;
		if (q) q->cancelled = true;
		break;
	}
	case 31: /* MPI_Start */
		if (mpi_arg(fn, a, RO_REQUEST, &v) && !mpi_req_start_hot(m, rec, (uint32_t)v)) req_start(m, rec, at, (uint32_t)v);
		break;
	case 16: case 17: case 18: case 19: case 20: case 21: case 32: {
		if (!mpi_arg(fn, a, RO_REQUESTS, &cnt)) break;
		uint64_t arr = mpi_arg_at(fn, a, RO_REQUESTS);
		mpi_arg(fn, a, RO_FLAG, &flag);
		uint32_t id;
		if (fn == 32) {
			mpi_request_startall_hot(m, rec, cnt, arr, 0);
		} else if (fn == 18 || fn == 19) { /* Waitall, Testall */
			for (uint64_t i = 0; i < cnt; i++) {
				if (!mpi_arr_u32(m, arr, i, &id)) break;
				if (flag) req_complete(m, rec, arr + 4 + 4 * i, id, mpi_status_of(m, fn, a, RO_STATUSES, i));
				else req_named(m, rec, arr + 4 + 4 * i, id);
			}
		} else {
			mpi_request_some(m, rec, a);
		}
		break;
	}
	default: break;
	}
}

#define LEAKS_SHOWN 20

static void leaked(mpi_rank *m, uint64_t id, const mpi_req *q, const char *when)
{
	dumpi_record at = {.index = q->rec, .offset = q->off, .fn = q->fn};
	if (q->kind == REQ_ACTIVE && q->live > 1)
		mpi_emit(m, HV_R_DUMPI_MPI_REQUEST_LEAKED, &at, q->off, 0,
			 "request %llu is still active at %s: %u instances of it (this one the oldest) were never completed "
			 "by a wait or test, freed or cancelled",
			 (unsigned long long)id, when, q->live);
	else
		mpi_emit(m, HV_R_DUMPI_MPI_REQUEST_LEAKED, &at, q->off, 0,
			 "request %llu is still active at %s: never completed by a wait or test, freed or cancelled",
			 (unsigned long long)id, when);
}

/* A leaked request, as listed: by the record that created it (ties, a call
 * that created several: by id), whatever the map's order. */
typedef struct leak {
	uint64_t id;
	const mpi_req *q;
} leak;

static bool leak_before(const leak *a, const leak *b)
{
	return a->q->rec != b->q->rec ? a->q->rec < b->q->rec : a->id < b->id;
}

/* Request `id` at the end of the rank: a leak is counted, and kept in
 * first[] (sorted, *shown of LEAKS_SHOWN) when it is among the earliest. */
static void leak_consider(mpi_rank *m, leak *first, size_t *shown, size_t *total, uint64_t id, const mpi_req *q)
{
	bool ok = q->cancelled || q->kind == REQ_PERSIST_IDLE;
	if (hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_LEAKED, ok)) return;
	(*total)++;
	const leak l = {id, q};
	if (*shown == LEAKS_SHOWN && !leak_before(&l, &first[*shown - 1])) return;
	size_t i = *shown < LEAKS_SHOWN ? (*shown)++ : *shown - 1;
	for (; i > 0 && leak_before(&l, &first[i - 1]); i--) first[i] = first[i - 1];
	first[i] = l;
}

void mpi_report_leaks(mpi_rank *m)
{
	if (m->io_requests || (m->ignored & IGN_REQUESTS)) return;
	/* the LEAKS_SHOWN earliest, by insertion into a short sorted list:
	 * nothing is allocated for a rank that leaks millions */
	leak first[LEAKS_SHOWN];
	size_t it = 0, shown = 0, total = 0;
	uint64_t key;
	void *val;
	for (uint32_t i = 0; i < m->pass->req_cap; i++) {
		const mpi_req *q = &m->pass->req_direct[i];
		if (q->kind) leak_consider(m, first, &shown, &total, q->id, q);
	}
	while (mpi_map_next(&m->pass->reqs, &it, &key, &val)) leak_consider(m, first, &shown, &total, key, val);
	char when[64];
	snprintf(when, sizeof when, "%s (record %llu)", m->finalized ? "MPI_Finalize" : "the end of the stream",
		 (unsigned long long)m->last_rec);
	for (size_t i = 0; i < shown; i++) leaked(m, first[i].id, first[i].q, when);
	if (total > shown) {
		dumpi_record at = {.index = m->last_rec, .offset = m->last_off, .fn = m->finalized ? 125 : 0};
		mpi_emit(m, HV_R_DUMPI_MPI_REQUEST_LEAKED, &at, m->last_off, 0,
			 "%zu more requests are still active at the end of %s (only the %d created first are listed)",
			 total - shown, mpi_rank_label(m).s, LEAKS_SHOWN);
	}
}

/* The ignored calls' note, at the end of a complete rank. */
void mpi_report_ignored(mpi_rank *m)
{
	/* libdumpi also ignores calls made inside another MPI call (call depth
	 * above 1); those hide nothing of the program, so only functions
	 * whose records feed a check are named */
	if (m->ignored && !hv_eval(m->r, HV_R_DUMPI_MPI_CALLS_IGNORED, false)) {
		static const char *const what[] = {"a missing MPI_Finalize", "request life cycles",
						   "point-to-point matching", "collective sequences"};
		char hidden[128] = "";
		size_t len = 0;
		for (unsigned k = 0; k < 4; k++)
			if (m->ignored & (1u << k) && len < sizeof hidden)
				len += (size_t)snprintf(hidden + len, sizeof hidden - len, "%s%s", len ? ", " : "", what[k]);
		hv_emit(m->r, HV_R_DUMPI_MPI_CALLS_IGNORED, m->file, m->pass->ignored_off, 8u + 2u * 4u * DUMPI_FOOTER_SLOTS,
			"footer", "%s: the footer counts calls made while tracing was off (ignored of called: %s); "
			"what they did is not in the stream, so %s cannot be checked on this rank",
			mpi_rank_label(m).s, m->pass->ignored_names, hidden);
	} else
		hv_eval(m->r, HV_R_DUMPI_MPI_CALLS_IGNORED, true);
}

/* The unrecorded requests' note, at the end of a complete rank. */
void mpi_report_unrecorded(mpi_rank *m)
{
	if (m->pass->unrecorded && !hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNRECORDED, false)) {
		dumpi_record u = {.index = m->pass->unrecorded_rec, .offset = m->pass->unrecorded_off, .fn = m->pass->unrecorded_fn};
		char recycled[96] = "";
		if (m->pass->recycled)
			snprintf(recycled, sizeof recycled, " (%llu after its id's request ended)",
				 (unsigned long long)m->pass->recycled);
		mpi_emit_rank_sev(m, HV_R_DUMPI_MPI_REQUEST_UNRECORDED, mpi_unrec_sev(m->replay), &u, m->pass->unrecorded_off, 4,
				  "request %u and %llu reference(s) in all%s name requests no recorded call created: "
				  "libdumpi records no MPI-3/4 request call (nonblocking and persistent collectives, "
				  "MPI_Imrecv, MPI_Isendrecv, _c calls); a replay cannot wait for them",
				  m->pass->unrecorded_id, (unsigned long long)m->pass->unrecorded, recycled);
	} else {
		hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNRECORDED, true);
	}
}

