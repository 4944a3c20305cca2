/* The fused paths of the per-rank pass: the common records (point-to-point
 * calls and their persistent inits, MPI_Sendrecv, MPI_Waitall and the other
 * request calls; the collectives' are fusedcoll.c's) checked with each
 * argument read once and the communicator found once, the same checks in
 * the same order as the generic path of their plan (rank.c, which
 * dispatches to them); and, at its end, the table of libdumpi's places
 * that these paths, fusedcoll.c's, requests.c's and rank.c's datatype
 * paths read their fields at (checks.h), asked once with the plans. */
#include <string.h>

#include "checks.h"
#include "hot.h"

/* mpi_request_created_hot's case for a persistent init (function fn,
 * 26..30: the dispatch sends no other here; `recv`, a constant of the
 * caller, is fn == 30), which counts nothing until it is started: its
 * request, inactive, with no channel kept. Inline in the inits' own copies
 * of the fused path. */
static inline __attribute__((always_inline)) bool mpi_request_init_hot(mpi_rank *m, const dumpi_record *rec, uint64_t v,
							   const mpi_msg *g, unsigned fn, bool recv)
{
	mpi_pass *p = m->pass;
	uint32_t w;
	mpi_req *q = mpi_req_hot_slot(p, v, &w);
	if (!q) return false;
	p->req_seen[w] |= 1ull << (v % 64);
	/* field by field, as mpi_request_created_hot stores them */
	q->kind = REQ_PERSIST_IDLE;
	q->cancelled = false;
	q->wild_recv = recv && mpi_msg_wild(g);
	q->live = 1;
	q->fn = (uint16_t)fn;
	/* the channel its starts go to, kept when its near slot holds it (as
	 * MPI_Startall's common loop would find and keep it at the first start,
	 * mpi_startall_hot), for a message of the case that loop starts: a
	 * known peer, and a known tag for a receive (mpi_req.chan_gen);
	 * else none (its chan then not read) */
	mpi_chan *c = NULL;
	if (g->peer >= 0 && (!recv || g->tag >= 0)) c = mpi_chan_keyed(m, g->inst, g->peer, g->tag, recv);
	q->chan = c;
	q->chan_gen = c ? p->chan_gen : 0;
	q->id = (uint32_t)v;
	q->rec = rec->index;
	q->off = rec->offset;
	mpi_req_msg_set(q, g, recv);
	return true;
}

/* A point-to-point record of kind `kind` (FUSED_*): what its plan does,
 * in the plan's order (status, counts, uses, message, ranks and tags,
 * requests), with each argument read once and the communicator found once
 * (nothing between its lookup and its last use enters a communicator).
 * Its function has no root-only field (mpi_at_places), so every argument
 * it has is present (dumpi_args). */
static inline __attribute__((always_inline)) void fused_p2p(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a,
							      unsigned kind, bool init)
{
	unsigned fn = rec->fn;
	bool recv = kind == FUSED_RECV || kind == FUSED_IRECV;
	int pro = recv ? RO_SOURCE : RO_DEST;
	/* libdumpi's layout, which mpi_at_places checked: each argument a load
	 * at a constant place, not one through the function's roles */
	const unsigned ic = P2P_COUNT, im = P2P_COMM, id = P2P_DATATYPE, ip = P2P_PEER, it = P2P_TAG;
	if (kind == FUSED_RECV) m->pass->status_fresh = true; /* status_reads */
	uint64_t comm = a->f[im].v, dtype = a->f[id].v;
	/* the message as mpi_msg_from reads it */
	mpi_msg g = {.p2p = true, .recv = recv, .inst = INST_NONE};
	g.count = (int32_t)(uint32_t)a->f[ic].v;
	g.dtype = (uint16_t)dtype;
	g.peer = (int32_t)(uint32_t)a->f[ip].v;
	g.tag = (int32_t)(uint32_t)a->f[it].v;
	mpi_check_count(m, rec, RO_COUNT, g.count, a, ic);
	/* uses: the communicator, then the datatype */
	if (comm >= MPI_D_FIRST_USER_COMM) mpi_use_comm(m, rec, a, RO_COMM, comm);
	if (dtype >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, RO_DATATYPE, dtype);
	mpi_comm *c = mpi_comm_of(m, comm);
	if (c) g.inst = c->inst;
	/* mpi_messages */
	if (kind == FUSED_SEND && g.peer >= 0) { /* mpi_send_msg: a negative peer is MPI_PROC_NULL */
		mpi_chan *ch = mpi_chan_hot(m, g.inst, g.peer, g.tag, false, g.count, g.dtype);
		if (ch) mpi_chan_hot_add(ch, rec);
		else mpi_tally(m, rec, &g);
	} else if (kind == FUSED_RECV) {
		mpi_recv_msg(m, rec, &g, mpi_status_first(m, a, mpi_role_ix[fn][RO_STATUS]));
	}
	/* ranks_and_tags */
	if (c && mpi_rank_inside(g.peer, c->size)) hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, true);
	else mpi_check_rank(m, rec, comm, pro, g.peer, a, ip);
	mpi_check_tag(m, rec, RO_TAG, g.tag, a, it, recv);
	/* mpi_requests: the request it creates */
	if (kind == FUSED_ISEND || kind == FUSED_IRECV) {
		uint64_t v = a->f[P2P_REQUEST].v;
		/* each hot case on its own copy: a nonblocking call's is no
		 * persistent init's, and the mix draws one after the other in
		 * no order a predictor learns */
		if (v >= 2 && !(init ? mpi_request_init_hot(m, rec, v, &g, fn, recv)
				     : mpi_request_created_hot(m, rec, v, &g, fn, recv)))
			mpi_request_created(m, rec, v, &g);
	}
}

/* A point-to-point record in its common case, all its argument checks
 * passed and no handle to look up as a use: a predefined communicator
 * (below MPI_D_FIRST_USER_COMM, so no use) found among the near ones,
 * as mpi_comm_of finds it first; a predefined datatype (no use); a
 * count and a tag >= 0 (a receive's MPI_ANY_TAG is no common case); a
 * peer inside the communicator. Each check of fused_p2p then passes, and
 * only counts its evaluation (p2p_passed), in any order, so the fast
 * paths below test everything first and change nothing until they know
 * the record is theirs; else the whole of fused_p2p, from the start. */
_Static_assert(MPI_D_FIRST_USER_COMM <= COMM_NEAR, "a predefined communicator is a near one");
typedef struct p2p_case {
	mpi_comm *c;
	int32_t count, peer, tag;
	uint16_t dtype;
} p2p_case;
static inline __attribute__((always_inline)) bool p2p_common(const mpi_pass *p, const dumpi_args *a, unsigned ic,
							     unsigned id, unsigned ip, unsigned it, unsigned im,
							     p2p_case *k)
{
	uint64_t comm = a->f[im].v, dtype = a->f[id].v;
	k->count = (int32_t)(uint32_t)a->f[ic].v;
	k->peer = (int32_t)(uint32_t)a->f[ip].v;
	k->tag = (int32_t)(uint32_t)a->f[it].v;
	k->dtype = (uint16_t)dtype;
	/* one branch for the tests that are mostly true together */
	if ((comm >= MPI_D_FIRST_USER_COMM) | (dtype >= MPI_D_FIRST_USER_DATATYPE) | ((k->count | k->tag | k->peer) < 0))
		return false;
	/* what that says, in terms the compiler carries into the hot paths
	 * after it (mpi_request_created_hot tests the peer and tag again) */
	if (k->count < 0 || k->tag < 0 || k->peer < 0) __builtin_unreachable();
	k->c = p->comm_near[comm];
	return k->c && mpi_rank_inside(k->peer, k->c->size);
}
/* The count, rank and tag checks of `n` messages, all passed: counted
 * once the pass ends (mpi_pass.msgs_passed). */
static inline __attribute__((always_inline)) void p2p_passed(mpi_pass *p, uint64_t n) { p->msgs_passed += n; }

/* Each kind with its own copy (the kind a constant in it); the whole path
 * out of line, so that the common case (p2p_common) calls nothing, saves
 * no register and ends in a jump to it when it is not that case. The
 * persistent inits, which share the nonblocking calls' kinds, have copies
 * of their own (mpi_fused_req_path). */
static __attribute__((noinline)) void fused_send_all(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	fused_p2p(m, rec, a, FUSED_SEND, false);
}
static __attribute__((noinline)) void fused_recv_all(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	mpi_take_bytes(m, a); /* its status is read from the record's bytes */
	fused_p2p(m, rec, a, FUSED_RECV, false);
}
static __attribute__((noinline)) void fused_isend_all(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	fused_p2p(m, rec, a, FUSED_ISEND, false);
}
static __attribute__((noinline)) void fused_irecv_all(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	fused_p2p(m, rec, a, FUSED_IRECV, false);
}
static __attribute__((noinline)) void fused_send_init_all(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	fused_p2p(m, rec, a, FUSED_ISEND, true);
}
static __attribute__((noinline)) void fused_recv_init_all(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	fused_p2p(m, rec, a, FUSED_IRECV, true);
}

/* A blocking send or receive in its common case whose message goes to a
 * channel of mpi_chan_hot: what fused_p2p does then (the receive's status
 * is not read: with a known peer and tag, mpi_recv_msg does not look at
 * it). False (nothing done) otherwise. */
static inline __attribute__((always_inline)) bool p2p_blocking_hot(mpi_rank *m, const dumpi_record *rec,
								   const dumpi_args *a, bool recv)
{
	mpi_pass *p = m->pass;
	p2p_case k;
	if (!p2p_common(p, a, P2P_COUNT, P2P_DATATYPE, P2P_PEER, P2P_TAG, P2P_COMM, &k)) return false;
	uint32_t *reps;
	mpi_chan *ch = mpi_chan_hot_run(m, k.c->inst, k.peer, k.tag, recv, k.count, k.dtype, &reps);
	if (!ch) return false;
	if (recv) p->status_fresh = true; /* status_reads */
	p2p_passed(p, 1);
	mpi_chan_hot_add_run(ch, rec, reps);
	return true;
}

/* A nonblocking call or persistent init in its common case whose request
 * mpi_request_created_hot (mpi_request_init_hot) creates, or that names
 * none (MPI_REQUEST_NULL or below): what fused_p2p does then. False
 * (nothing done) otherwise. */
static inline __attribute__((always_inline)) bool p2p_request_hot(mpi_rank *m, const dumpi_record *rec,
								  const dumpi_args *a, bool recv, bool init)
{
	mpi_pass *p = m->pass;
	p2p_case k;
	if (!p2p_common(p, a, P2P_COUNT, P2P_DATATYPE, P2P_PEER, P2P_TAG, P2P_COMM, &k)) return false;
	uint64_t v = a->f[P2P_REQUEST].v;
	if (v >= 2) {
		/* field by field: an initializer would zero its padding, which
		 * makes the compiler build it in memory to copy it whole */
		mpi_msg g;
		g.p2p = true, g.recv = recv, g.inst = k.c->inst;
		g.count = k.count, g.dtype = k.dtype, g.peer = k.peer, g.tag = k.tag;
		unsigned fn = rec->fn;
		if (!(init ? mpi_request_init_hot(m, rec, v, &g, fn, recv) : mpi_request_created_hot(m, rec, v, &g, fn, recv)))
			return false;
	}
	p2p_passed(p, 1);
	return true;
}

void mpi_fused_send(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!p2p_blocking_hot(m, rec, a, false)) fused_send_all(m, rec, a);
}
void mpi_fused_recv(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!p2p_blocking_hot(m, rec, a, true)) fused_recv_all(m, rec, a);
}
void mpi_fused_isend(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!p2p_request_hot(m, rec, a, false, false)) fused_isend_all(m, rec, a);
}
void mpi_fused_irecv(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!p2p_request_hot(m, rec, a, true, false)) fused_irecv_all(m, rec, a);
}
static void fused_send_init(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!p2p_request_hot(m, rec, a, false, true)) fused_send_init_all(m, rec, a);
}
static void fused_recv_init(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!p2p_request_hot(m, rec, a, true, true)) fused_recv_init_all(m, rec, a);
}


/* MPI_Sendrecv[_replace] (FUSED_SENDRECV): counts, status, uses, both
 * messages, ranks and tags, in the generic path's order, with the
 * communicator found once (after the uses, which may make it one of
 * unknown origin) and each argument read once, the counts and handles
 * without the loops over the roles; every argument is present (no
 * root-only field: mpi_at_places). */
static __attribute__((noinline)) void fused_sendrecv_all(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	mpi_take_bytes(m, a); /* its status is read from the record's bytes */
	unsigned fn = rec->fn;
	const uint8_t *ix = mpi_role_ix[fn];
	bool rep = fn == 34;
	unsigned isc = ix[rep ? RO_COUNT : RO_SENDCOUNT], irc = ix[rep ? RO_COUNT : RO_RECVCOUNT];
	unsigned isy = ix[rep ? RO_DATATYPE : RO_SENDTYPE], iry = ix[rep ? RO_DATATYPE : RO_RECVTYPE];
	uint64_t comm = a->f[ix[RO_COMM]].v, sty = a->f[isy].v, rty = a->f[iry].v;
	/* counts, then uses: its count roles and use roles in role order, read
	 * at their places (mpi_at_places) */
	if (rep) {
		mpi_check_count(m, rec, RO_COUNT, (int32_t)(uint32_t)a->f[isc].v, a, isc);
	} else {
		mpi_check_count(m, rec, RO_SENDCOUNT, (int32_t)(uint32_t)a->f[isc].v, a, isc);
		mpi_check_count(m, rec, RO_RECVCOUNT, (int32_t)(uint32_t)a->f[irc].v, a, irc);
	}
	m->pass->status_fresh = true; /* status_reads */
	if (comm >= MPI_D_FIRST_USER_COMM) mpi_use_comm(m, rec, a, RO_COMM, comm);
	if (sty >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, rep ? RO_DATATYPE : RO_SENDTYPE, sty);
	if (!rep && rty >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, RO_RECVTYPE, rty);
	mpi_comm *c = mpi_comm_of(m, comm);
	uint32_t inst = c ? c->inst : INST_NONE;
	unsigned isd = ix[RO_DEST], irs = ix[RO_SOURCE], ist = ix[RO_SENDTAG], irt = ix[RO_RECVTAG];
	mpi_msg s = {.p2p = true, .recv = false, .inst = inst};
	s.count = (int32_t)(uint32_t)a->f[isc].v;
	s.dtype = (uint16_t)sty;
	s.peer = (int32_t)(uint32_t)a->f[isd].v;
	s.tag = (int32_t)(uint32_t)a->f[ist].v;
	mpi_msg r = {.p2p = true, .recv = true, .inst = inst};
	r.count = (int32_t)(uint32_t)a->f[irc].v;
	r.dtype = (uint16_t)rty;
	r.peer = (int32_t)(uint32_t)a->f[irs].v;
	r.tag = (int32_t)(uint32_t)a->f[irt].v;
	/* mpi_messages */
	mpi_send_msg(m, rec, &s);
	mpi_recv_msg(m, rec, &r, mpi_status_first(m, a, ix[RO_STATUS]));
	/* ranks_and_tags */
	if (c && mpi_rank_inside(s.peer, c->size)) hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, true);
	else mpi_check_rank(m, rec, comm, RO_DEST, s.peer, a, isd);
	if (c && mpi_rank_inside(r.peer, c->size)) hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, true);
	else mpi_check_rank(m, rec, comm, RO_SOURCE, r.peer, a, irs);
	mpi_check_tag(m, rec, RO_SENDTAG, s.tag, a, ist, false);
	mpi_check_tag(m, rec, RO_RECVTAG, r.tag, a, irt, true);
}

/* MPI_Sendrecv (MPI_Sendrecv_replace when `rep`) in the common case of
 * both its messages (p2p_common), each going to a channel of
 * mpi_chan_hot: what fused_sendrecv_all does then, its fields read where
 * libdumpi lays them out (mpi_at_places), its status not read (with a
 * known source and tag, mpi_recv_msg does not look at it). False (nothing
 * done) otherwise. */
static inline __attribute__((always_inline)) bool sendrecv_hot(mpi_rank *m, const dumpi_record *rec,
							       const dumpi_args *a, bool rep)
{
	mpi_pass *p = m->pass;
	/* p2p_common's tests for both messages, each made once */
	const unsigned irc = rep ? SRR_COUNT : SR_RECVCOUNT, iry = rep ? SRR_DATATYPE : SR_RECVTYPE;
	const unsigned irs = rep ? SRR_SOURCE : SR_SOURCE, irt = rep ? SRR_RECVTAG : SR_RECVTAG;
	uint64_t comm = a->f[rep ? SRR_COMM : SR_COMM].v, sty = a->f[SR_SENDTYPE].v, rty = a->f[iry].v;
	int32_t sc = (int32_t)(uint32_t)a->f[SR_SENDCOUNT].v, rc = (int32_t)(uint32_t)a->f[irc].v;
	int32_t st = (int32_t)(uint32_t)a->f[SR_SENDTAG].v, rt = (int32_t)(uint32_t)a->f[irt].v;
	int32_t sd = (int32_t)(uint32_t)a->f[SR_DEST].v, rs = (int32_t)(uint32_t)a->f[irs].v;
	if ((comm >= MPI_D_FIRST_USER_COMM) | (sty >= MPI_D_FIRST_USER_DATATYPE) | (rty >= MPI_D_FIRST_USER_DATATYPE) |
	    ((sc | rc | st | rt | sd | rs) < 0))
		return false;
	mpi_comm *c = p->comm_near[comm];
	/* both peers inside: the larger one (both are >= 0 here) */
	if (!c || !mpi_rank_inside(sd > rs ? sd : rs, c->size)) return false;
	/* a send's channel and a receive's are never one (their directions) */
	uint32_t *sreps, *rreps;
	mpi_chan *cs = mpi_chan_hot_run(m, c->inst, sd, st, false, sc, (uint16_t)sty, &sreps);
	if (!cs) return false;
	mpi_chan *cr = mpi_chan_hot_run(m, c->inst, rs, rt, true, rc, (uint16_t)rty, &rreps);
	if (!cr) return false;
	p->status_fresh = true; /* status_reads */
	p2p_passed(p, 2);
	if (rep) p->msgs_one_count++;
	mpi_chan_hot_add_run(cs, rec, sreps);
	mpi_chan_hot_add_run(cr, rec, rreps);
	return true;
}

void mpi_fused_sendrecv(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	bool hot = rec->fn == 34 ? sendrecv_hot(m, rec, a, true) : sendrecv_hot(m, rec, a, false);
	if (!hot) fused_sendrecv_all(m, rec, a);
}

/* The head shared by the request-array calls whose one count role is the
 * array's length (compute_plans): the record's bytes taken, that count
 * checked. */
static inline __attribute__((always_inline)) void fused_count(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	mpi_take_bytes(m, a);
	unsigned ic = mpi_role_ix[rec->fn][RO_COUNT];
	if ((mpi_plans[rec->fn] & PLAN_COUNTS) && a->f[ic].present)
		mpi_check_count(m, rec, RO_COUNT, (int32_t)(uint32_t)a->f[ic].v, a, ic);
}

/* MPI_Waitall and MPI_Testall: their count, then their requests, with
 * each argument read once and the array walked once: most complete plain
 * requests of the table (mpi_waitall_hot) whose ids and statuses (one for
 * each request, or none) the record's bytes hold; the rest of the array,
 * from the first that is not such a one, goes request by request
 * (mpi_request_waitall). The fields are args' ic, iq, iflag (an absent
 * flag: a completion) and is; `counted`: the plan checks the count. */
static inline __attribute__((always_inline)) void fused_waitall(mpi_rank *m, const dumpi_record *rec,
								const dumpi_args *a, unsigned ic, unsigned iq,
								unsigned iflag, unsigned is, bool counted)
{
	/* the status mpi_waitall_hot reads when the record has none: not cancelled */
	static const uint8_t no_status[9];
	mpi_take_bytes(m, a);
	if (counted && a->f[ic].present) mpi_check_count(m, rec, RO_COUNT, (int32_t)(uint32_t)a->f[ic].v, a, ic);
	if (!a->f[iq].present) return;
	mpi_pass *p = m->pass;
	uint64_t cnt = a->f[iq].v, first = 0;
	/* a status entry is 14 bytes with its tag, else 10 */
	bool flag = !a->f[iflag].present || a->f[iflag].v;
	unsigned stride = p->status_tagged ? 14u : 10u;
	uint64_t nst = a->f[is].present ? a->f[is].v : 0;
	const uint8_t *ids = mpi_req_ids(p, dumpi_arg_at_var(a, iq), cnt);
	const uint8_t *sts = !nst ? no_status
			     : nst >= cnt && nst <= UINT32_MAX ? mpi_in_record(m, dumpi_arg_at_var(a, is) + 4, nst * stride)
							       : NULL;
	if (!nst) stride = 0;
	if (flag && ids && sts && !p->req_off) first = mpi_waitall_hot(m, ids, cnt, sts, stride);
	if (first < cnt) mpi_request_waitall(m, rec, a, first);
}

void mpi_fused_waitall(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const uint8_t *ix = mpi_role_ix[rec->fn];
	fused_waitall(m, rec, a, ix[RO_COUNT], ix[RO_REQUESTS], ix[RO_FLAG], ix[RO_STATUSES],
		      mpi_plans[rec->fn] & PLAN_COUNTS);
}

/* MPI_Waitall as libdumpi lays it out (count, requests, statuses; no flag:
 * mpi_fused_req_path takes it only then), its fields read at their places:
 * fused_waitall's steps. Its common case -- a count >= 0, the ids in the
 * args' bytes, one status for each request there or none -- tests all of
 * that first and calls nothing but mpi_waitall_hot inline, ending in a
 * tail call when any request is left: so it saves no register and keeps
 * no value across a call. Anything else goes whole out of line
 * (waitall_whole: the count checked, its failure reported, then every
 * request), as do the requests mpi_waitall_hot leaves (waitall_rest). */
__attribute__((noinline)) static void waitall_rest(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a,
						  uint64_t first)
{
	mpi_take_bytes(m, a);
	mpi_request_waitall(m, rec, a, first);
}
__attribute__((noinline)) static void waitall_whole(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const unsigned ic = WAITALL_COUNT, iq = WAITALL_REQUESTS;
	if (a->f[ic].present) mpi_check_count(m, rec, RO_COUNT, (int32_t)(uint32_t)a->f[ic].v, a, ic);
	if (a->f[iq].present) waitall_rest(m, rec, a, 0);
}

static void fused_waitall_at(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	/* the status mpi_waitall_hot reads when the record has none: not cancelled */
	static const uint8_t no_status[9];
	const unsigned ic = WAITALL_COUNT, iq = WAITALL_REQUESTS, is = WAITALL_STATUSES;
	mpi_pass *p = m->pass;
	uint64_t cnt = a->f[iq].v, nst = a->f[is].v, len = a->bytes_len;
	/* where the ids and the statuses begin in the record's bytes (an `at`
	 * before them wraps past their length) */
	uint64_t oq = dumpi_arg_at_var(a, iq) + 4 - a->bytes_at, os = dumpi_arg_at_var(a, is) + 4 - a->bytes_at;
	/* a status entry is 14 bytes with its tag, else 10; none: stride 0 */
	unsigned stride = p->status_tagged ? 14u : 10u;
	if (!a->f[is].present) nst = 0;
	if (!nst) stride = 0;
	/* every test of the common case in one branch: a present count >= 0
	 * and requests (every field of this layout is: no root-only one), the
	 * request checks on, the ids and statuses in the bytes; cnt * stride
	 * cannot wrap once cnt ids lie in the bytes */
	bool common = a->f[ic].present & a->f[iq].present & ((int32_t)(uint32_t)a->f[ic].v >= 0) & !p->req_off &
		      (a->bytes != NULL) & (oq <= len) & (nst == 0 || (nst == cnt && os <= len));
	if (!common || cnt > (len - oq) / 4 || (nst && cnt * stride > len - os)) {
		waitall_whole(m, rec, a);
		return;
	}
	hv_eval(m->r, HV_R_DUMPI_MPI_COUNT_NEGATIVE, true);
	const uint8_t *sts = nst ? a->bytes + os : no_status;
	uint64_t first = mpi_waitall_hot(m, a->bytes + oq, cnt, sts, stride);
	if (first < cnt) waitall_rest(m, rec, a, first);
}

/* MPI_Waitany, MPI_Testany, MPI_Waitsome and MPI_Testsome: their count,
 * then their requests. */
void mpi_fused_some(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	fused_count(m, rec, a);
	mpi_request_some(m, rec, a);
}

void mpi_fused_reqs(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	mpi_take_bytes(m, a);
	if (mpi_plans[rec->fn] & PLAN_COUNTS) mpi_check_counts(m, rec, a);
	mpi_requests(m, rec, a);
}

/* MPI_Startall: its count, then its requests, read where libdumpi lays
 * them out (mpi_fused_req_path takes it only then): most start persistent
 * requests of the table onto channels met lately (mpi_startall_hot); the
 * rest of the array, from the first that is not such a one, goes request
 * by request, with the record's bytes taken for it. As MPI_Waitall's
 * (fused_waitall_at), the common case -- a count >= 0, the ids in the
 * args' bytes, the request checks on -- is tested first, in one branch,
 * and calls nothing but tail calls; anything else goes whole out of line. */
/* The rest, out of line: the common loop then keeps nothing of it in
 * registers (it spilled the loop's values when inline). */
__attribute__((noinline)) static void startall_rest(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a,
						   uint64_t first)
{
	mpi_take_bytes(m, a);
	mpi_request_startall_hot(m, rec, a->f[STARTALL_REQUESTS].v, dumpi_arg_at_var(a, STARTALL_REQUESTS), first);
}
__attribute__((noinline)) static void startall_whole(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const unsigned ic = STARTALL_COUNT, iq = STARTALL_REQUESTS;
	if (a->f[ic].present) mpi_check_count(m, rec, RO_COUNT, (int32_t)(uint32_t)a->f[ic].v, a, ic);
	if (a->f[iq].present) startall_rest(m, rec, a, 0);
}

static void fused_startall(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const unsigned ic = STARTALL_COUNT, iq = STARTALL_REQUESTS;
	uint64_t cnt = a->f[iq].v, len = a->bytes_len;
	/* where the ids begin in the record's bytes (an `at` before them wraps
	 * past their length) */
	uint64_t oq = dumpi_arg_at_var(a, iq) + 4 - a->bytes_at;
	bool common = a->f[ic].present & a->f[iq].present & ((int32_t)(uint32_t)a->f[ic].v >= 0) & !m->pass->req_off &
		      (a->bytes != NULL) & (oq <= len);
	if (!common || cnt > (len - oq) / 4) {
		startall_whole(m, rec, a);
		return;
	}
	hv_eval(m->r, HV_R_DUMPI_MPI_COUNT_NEGATIVE, true);
	uint64_t first = mpi_startall_hot(m, rec, a->bytes + oq, cnt);
	if (first < cnt) startall_rest(m, rec, a, first);
}

/* MPI_Request_free as libdumpi lays it out (its request field 0;
 * mpi_fused_req_path takes it only then): a request of the table, with the
 * request checks on, named (its evaluation) and one instance of it ended,
 * as req_named and req_drop do, without the roles' lookup; any other
 * through mpi_request_free. */
static void request_free_at(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	mpi_req *q = mpi_req_known(m, (uint32_t)a->f[FREE_REQUEST].v);
	if (!q || !a->f[FREE_REQUEST].present) {
		mpi_request_free(m, rec, a);
		return;
	}
	hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, true);
	if (q->live > 1) q->live--; /* REQ_ACTIVE: only it has more than one (mpi_req.live) */
	else q->kind = 0;
}

/* MPI_Test as libdumpi lays it out (request, flag, status; mpi_fused_req_path
 * takes it only then): one that finds its request not complete (flag 0)
 * names it, and a request of the table, with the request checks on, is
 * named by its evaluation alone (req_named); any other through
 * mpi_request_test. */
static void request_test_at(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (a->f[TEST_REQUEST].present && a->f[TEST_FLAG].present && !a->f[TEST_FLAG].v &&
	    mpi_req_known(m, (uint32_t)a->f[TEST_REQUEST].v)) {
		hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, true);
		return;
	}
	mpi_request_test(m, rec, a);
}

dumpi_layer_path *mpi_fused_req_path(unsigned fn, unsigned kind)
{
	/* the persistent inits (26..30), on the nonblocking calls' kinds */
	if (fn >= 26 && fn <= 30 && (kind == FUSED_ISEND || kind == FUSED_IRECV))
		return kind == FUSED_ISEND ? fused_send_init : fused_recv_init;
	/* MPI_Waitany and MPI_Waitall with their fields at libdumpi's places
	 * (mpi_at_places; their rows' plans are their count and requests, and
	 * they have no flag) */
	if (kind == FUSED_SOME && fn == 16 && mpi_at_places[fn]) return mpi_request_waitany;
	if (kind == FUSED_WAITALL && fn == 18 && mpi_at_places[fn]) return fused_waitall_at;
	if (kind != FUSED_REQS) return NULL;
	uint8_t plan = mpi_plans[fn];
	const uint8_t *cr = mpi_count_roles[fn];
	/* fused_count's case: no count, or the count its only count role */
	bool one_count = !(plan & PLAN_COUNTS) || (cr[0] == RO_COUNT && cr[1] == RO_COUNT_ROLES);
	if ((plan & ~PLAN_COUNTS) != PLAN_REQ || !one_count) return mpi_fused_reqs;
	/* MPI_Test, MPI_Request_free and MPI_Startall: at libdumpi's places
	 * (mpi_at_places; the rows' plans: their request, and MPI_Startall's
	 * count and requests), paths that read them there; MPI_Test and
	 * MPI_Request_free laid out otherwise, whose plan is their request
	 * alone, their own share of mpi_requests */
	switch (fn) {
	case 14: /* MPI_Test */
		return mpi_at_places[fn] ? request_test_at : plan != PLAN_REQ ? mpi_fused_reqs : mpi_request_test;
	case 15: /* MPI_Request_free */
		return mpi_at_places[fn] ? request_free_at : plan != PLAN_REQ ? mpi_fused_reqs : mpi_request_free;
	case 32: /* MPI_Startall */
		return mpi_at_places[fn] ? fused_startall : mpi_fused_reqs;
	default: return mpi_fused_reqs;
	}
}

/* ---- libdumpi's places (checks.h), asked once with the plans ---- */

bool mpi_at_places[DUMPI_NFUNCS];

/* The plans the paths are written for (rank.c's compute_plans makes them
 * from the roles): a path makes its plan's checks in the plan's order, so
 * a function whose plan had another step would lose it there. */
#define PL_SEND (PLAN_COUNTS | PLAN_USES | PLAN_MSG | PLAN_RANKS)
#define PL_RECV (PLAN_COUNTS | PLAN_STATUS | PLAN_USES | PLAN_MSG | PLAN_RANKS)
#define PL_NONBLOCKING (PLAN_COUNTS | PLAN_USES | PLAN_RANKS | PLAN_REQ)
#define PL_SENDRECV (PLAN_COUNTS | PLAN_STATUS | PLAN_USES | PLAN_MSG | PLAN_RANKS)
#define PL_REQS (PLAN_COUNTS | PLAN_REQ)
#define PL_COLL (PLAN_COUNTS | PLAN_USES | PLAN_COLL | PLAN_RANKS)
#define EVERY DUMPI_MAX_FIELDS /* no field root-only */
#define END {RO_COUNT_ROLES, 0}
#define P2P_AT(peer) \
	{RO_COUNT, P2P_COUNT}, {RO_DATATYPE, P2P_DATATYPE}, {peer, P2P_PEER}, {RO_TAG, P2P_TAG}, {RO_COMM, P2P_COMM}
#define SEND_AT P2P_AT(RO_DEST)
#define RECV_AT P2P_AT(RO_SOURCE)
#define SEND_ROW(fn) {fn, PL_SEND, EVERY, {SEND_AT, END}}
#define ISEND_ROW(fn) {fn, PL_NONBLOCKING, EVERY, {SEND_AT, {RO_REQUEST, P2P_REQUEST}, END}}
#define IRECV_ROW(fn) {fn, PL_NONBLOCKING, EVERY, {RECV_AT, {RO_REQUEST, P2P_REQUEST}, END}}
#define ALLREDUCE_ROW(fn) \
	{fn, PL_COLL, EVERY, {{RO_COUNT, ALLREDUCE_COUNT}, {RO_DATATYPE, ALLREDUCE_DATATYPE}, {RO_COMM, ALLREDUCE_COMM}, END}}
#define BOTH_ROW(fn)                                                                                    \
	{fn, PL_COLL, EVERY,                                                                            \
	 {{RO_SENDCOUNT, BOTH_SENDCOUNT}, {RO_SENDTYPE, BOTH_SENDTYPE}, {RO_RECVCOUNT, BOTH_RECVCOUNT}, \
	  {RO_RECVTYPE, BOTH_RECVTYPE}, {RO_COMM, BOTH_COMM}, END}}

/* By function id (dumpi/common/funclabels.h), each with every role its
 * libdumpi layout has (fields of no role, as MPI_Reduce's op, are not
 * listed). Only Gather's and Scatter's root's sides may be root-only:
 * their path tests the presence of those two fields alone. */
static const mpi_place places[] = {
	/* fused.c's point-to-point paths (fused_p2p and its common cases) */
	SEND_ROW(0), SEND_ROW(3), SEND_ROW(4), SEND_ROW(5),
	{1, PL_RECV, EVERY, {RECV_AT, {RO_STATUS, P2P_STATUS}, END}},
	ISEND_ROW(8), ISEND_ROW(9), ISEND_ROW(10), ISEND_ROW(11), IRECV_ROW(12),
	ISEND_ROW(26), ISEND_ROW(27), ISEND_ROW(28), ISEND_ROW(29), IRECV_ROW(30),
	/* the request paths: mpi_request_wait (requests.c), request_test_at,
	 * request_free_at (fused.c), mpi_request_waitany (requests.c),
	 * fused_waitall_at, fused_startall (fused.c) */
	{13, PLAN_REQ, EVERY, {{RO_REQUEST, WAIT_REQUEST}, {RO_STATUS, WAIT_STATUS}, END}},
	{14, PLAN_REQ, EVERY, {{RO_REQUEST, TEST_REQUEST}, {RO_FLAG, TEST_FLAG}, {RO_STATUS, TEST_STATUS}, END}},
	{15, PLAN_REQ, EVERY, {{RO_REQUEST, FREE_REQUEST}, END}},
	{16, PL_REQS, EVERY,
	 {{RO_COUNT, WAITANY_COUNT}, {RO_REQUESTS, WAITANY_REQUESTS}, {RO_INDEX, WAITANY_INDEX},
	  {RO_STATUS, WAITANY_STATUS}, END}},
	{18, PL_REQS, EVERY,
	 {{RO_COUNT, WAITALL_COUNT}, {RO_REQUESTS, WAITALL_REQUESTS}, {RO_STATUSES, WAITALL_STATUSES}, END}},
	{32, PL_REQS, EVERY, {{RO_COUNT, STARTALL_COUNT}, {RO_REQUESTS, STARTALL_REQUESTS}, END}},
	/* fused.c's MPI_Sendrecv and MPI_Sendrecv_replace (sendrecv_hot) */
	{33, PL_SENDRECV, EVERY,
	 {{RO_SENDCOUNT, SR_SENDCOUNT}, {RO_SENDTYPE, SR_SENDTYPE}, {RO_DEST, SR_DEST}, {RO_SENDTAG, SR_SENDTAG},
	  {RO_RECVCOUNT, SR_RECVCOUNT}, {RO_RECVTYPE, SR_RECVTYPE}, {RO_SOURCE, SR_SOURCE}, {RO_RECVTAG, SR_RECVTAG},
	  {RO_COMM, SR_COMM}, {RO_STATUS, SR_STATUS}, END}},
	{34, PL_SENDRECV, EVERY,
	 {{RO_COUNT, SRR_COUNT}, {RO_DATATYPE, SRR_DATATYPE}, {RO_DEST, SRR_DEST}, {RO_SENDTAG, SRR_SENDTAG},
	  {RO_SOURCE, SRR_SOURCE}, {RO_RECVTAG, SRR_RECVTAG}, {RO_COMM, SRR_COMM}, {RO_STATUS, SRR_STATUS}, END}},
	/* rank.c's datatype paths (type_call with constants) */
	{35, PLAN_COUNTS | PLAN_USES | PLAN_HANDLES, EVERY,
	 {{RO_COUNT, CONTIG_COUNT}, {RO_OLDTYPE, CONTIG_OLDTYPE}, {RO_NEWTYPE, CONTIG_NEWTYPE}, END}},
	{43, PLAN_USES, EVERY, {{RO_DATATYPE, TYPEARG_DATATYPE}, {RO_SIZE, TYPEARG_SIZE}, END}},
	{46, PLAN_USES, EVERY, {{RO_DATATYPE, TYPEARG_DATATYPE}, END}},
	{47, PLAN_USES | PLAN_HANDLES, EVERY, {{RO_DATATYPE, TYPEARG_DATATYPE}, END}},
	/* fusedcoll.c's collectives (coll_pair, coll_both, fused_rooted) */
	{52, PLAN_USES | PLAN_COLL | PLAN_RANKS, EVERY, {{RO_COMM, BARRIER_COMM}, END}},
	{53, PL_COLL, EVERY,
	 {{RO_COUNT, BCAST_COUNT}, {RO_DATATYPE, BCAST_DATATYPE}, {RO_ROOT, BCAST_ROOT}, {RO_COMM, BCAST_COMM}, END}},
	{54, PL_COLL, ROOTED_ROOT_COUNT,
	 {{RO_COMMRANK, ROOTED_COMMRANK}, {RO_SENDCOUNT, ROOTED_COUNT}, {RO_SENDTYPE, ROOTED_TYPE},
	  {RO_ROOT, ROOTED_ROOT}, {RO_COMM, ROOTED_COMM}, {RO_RECVCOUNT, ROOTED_ROOT_COUNT},
	  {RO_RECVTYPE, ROOTED_ROOT_TYPE}, END}},
	{56, PL_COLL, ROOTED_ROOT_COUNT,
	 {{RO_COMMRANK, ROOTED_COMMRANK}, {RO_RECVCOUNT, ROOTED_COUNT}, {RO_RECVTYPE, ROOTED_TYPE},
	  {RO_ROOT, ROOTED_ROOT}, {RO_COMM, ROOTED_COMM}, {RO_SENDCOUNT, ROOTED_ROOT_COUNT},
	  {RO_SENDTYPE, ROOTED_ROOT_TYPE}, END}},
	BOTH_ROW(58), BOTH_ROW(60),
	{62, PL_COLL, EVERY,
	 {{RO_COUNT, REDUCE_COUNT}, {RO_DATATYPE, REDUCE_DATATYPE}, {RO_ROOT, REDUCE_ROOT}, {RO_COMM, REDUCE_COMM}, END}},
	ALLREDUCE_ROW(65), ALLREDUCE_ROW(67), ALLREDUCE_ROW(156),
};

const mpi_place *mpi_place_of(unsigned fn)
{
	for (size_t k = 0; k < sizeof places / sizeof places[0]; k++)
		if (places[k].fn == fn) return &places[k];
	return NULL;
}

/* Whether list (a count or use role row, RO_COUNT_ROLES ended) holds the
 * roles of `order` that want places, in that order, and no other. */
static bool same_roles(const uint8_t *list, const uint8_t *order, size_t n, const int8_t *want)
{
	for (size_t k = 0; k < n; k++)
		if (want[order[k]] >= 0 && *list++ != order[k]) return false;
	return *list == RO_COUNT_ROLES;
}

bool mpi_place_fits(const mpi_place *p, const dumpi_layout *L, const int8_t *ro, uint8_t plan, const uint8_t *cr,
		    const uint8_t *ur)
{
	if (!p || !L || plan != p->plan) return false;
	for (unsigned i = 0; i < L->nfields && i < p->fixed; i++)
		if (L->fields[i].root_only) return false;
	int8_t want[RO_COUNT_ROLES];
	memset(want, -1, sizeof want);
	for (unsigned j = 0; j < MPI_PLACES_MAX && p->at[j][0] != RO_COUNT_ROLES; j++) want[p->at[j][0]] = (int8_t)p->at[j][1];
	if (memcmp(ro, want, sizeof want) != 0) return false;
	/* The paths check counts and uses at their places in role order, the
	 * order mpi_check_counts and mpi_uses walk these rows: the rows must
	 * be the listed roles, in that order. compute_plans lists the count
	 * roles a function has in role order, so the roles say those (cr is
	 * asked only of a layout other than the table's, by the tests), but
	 * it leaves some handle roles out of the use roles by function. */
	static const uint8_t counts[] = {RO_COUNT, RO_SENDCOUNT, RO_RECVCOUNT};
	static const uint8_t uses[] = {RO_COMM, RO_OLDCOMM, RO_DATATYPE, RO_SENDTYPE, RO_RECVTYPE, RO_OLDTYPE};
	return (!cr || same_roles(cr, counts, sizeof counts, want)) && same_roles(ur, uses, sizeof uses, want);
}

void mpi_places_compute(void)
{
	/* row by row: a function with none stays false; its count roles
	 * follow from its roles (mpi_place_fits) */
	const dumpi_layout *table = dumpi_layout_table();
	for (size_t k = 0; k < sizeof places / sizeof places[0]; k++) {
		unsigned fn = places[k].fn;
		mpi_at_places[fn] =
			mpi_place_fits(&places[k], &table[fn], mpi_roles[fn], mpi_plans[fn], NULL, mpi_use_roles[fn]);
	}
}
