/* Channels of the per-rank pass: point-to-point messages tallied per
 * channel (communicator instance, peer, tag, direction) with their sizes
 * in order, wildcard receives resolved by their recorded status, and the
 * channel bound past which a rank's channels merge over tags. Shared by
 * the parts that see messages: messages.c (blocking calls) and requests.c
 * (nonblocking and persistent ones, when they start or complete). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hot.h"

/* The per-channel memory figure in internal.h (and the live-state test's
 * bound) assumes this size: change both together. */
_Static_assert(sizeof(mpi_chan) == 144, "mpi_chan is documented as 144 bytes");

/* Status i of the statuses field `ro` (count, then 14-byte entries from 0.6.3
 * on: bytes, source, cancelled, error, tag; 10 bytes, without the tag, before). */
mpi_status mpi_status_of(mpi_rank *m, unsigned fn, const dumpi_args *a, int ro, uint64_t i)
{
	uint64_t n;
	if (!mpi_arg(fn, a, ro, &n) || i >= n) return (mpi_status){0};
	return mpi_status_at(m, mpi_arg_at(fn, a, ro) + 4 + i * (m->pass->status_tagged ? 14u : 10u));
}


/* Past MPI_MAX_CHANS: every channel of the rank folded into one per
 * (instance, peer, direction), tag CHAN_ANY_TAG, sizes dropped. */
static void merge_chans(mpi_rank *m)
{
	mpi_map old = m->chans;
	mpi_map_init(&m->chans, sizeof(mpi_chan));
	m->chans_merged = true;
	memset(m->pass->chan_near, 0, sizeof m->pass->chan_near);
	mpi_chan_gen_step(m->pass);
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&old, &it, &key, &val)) {
		const mpi_chan *o = val;
		bool fresh;
		mpi_chan *c = mpi_map_put(&m->chans, mpi_hash(o->inst, (uint32_t)o->peer, (uint32_t)CHAN_ANY_TAG, o->dir), &fresh);
		if (!c) break;
		if (fresh) *c = *o, c->tag = CHAN_ANY_TAG, c->n = 0;
		c->n += o->n;
		c->nruns = 0;
		c->runs_full = true;
		if (o->last_rec >= c->last_rec)
			c->last_rec = o->last_rec, c->last_off = o->last_off, c->last_fn = o->last_fn;
	}
	mpi_map_free(&old);
}

/* The channel of (inst, peer, tag, recv) when no near slot holds it:
 * found or entered in the map (merging the rank's channels past
 * MPI_MAX_CHANS), and put in its near slot. NULL when out of memory. */
__attribute__((noinline)) static mpi_chan *chan_miss(mpi_rank *m, uint32_t inst, int32_t peer, int32_t tag, bool recv)
{
	mpi_pass *p = m->pass;
	if (!m->chans_merged && m->chans.len >= MPI_MAX_CHANS &&
	    !mpi_map_get(&m->chans, mpi_hash(inst, (uint32_t)peer, (uint32_t)tag, recv)))
		merge_chans(m);
	if (m->chans_merged) tag = CHAN_ANY_TAG;
	bool fresh;
	mpi_chan *c = mpi_map_put(&m->chans, mpi_hash(inst, (uint32_t)peer, (uint32_t)tag, recv), &fresh);
	if (!c) return NULL;
	if (fresh) c->inst = inst, c->peer = peer, c->tag = tag, c->dir = recv, c->runs_full = m->chans_merged;
	if (p->chan_near_cap != m->chans.cap) { /* the map grew: its channels moved */
		memset(p->chan_near, 0, sizeof p->chan_near);
		p->chan_near_cap = m->chans.cap;
		mpi_chan_gen_step(p);
	}
	p->chan_near[mpi_chan_near_slot(inst, peer, tag, recv)] = c;
	return c;
}

/* One more message of (count, dtype) in channel c's runs of sizes. */
static void chan_run(mpi_chan *c, const dumpi_record *rec, int32_t count, uint16_t dtype)
{
	if (c->nruns && c->runs[c->nruns - 1].count == count && c->runs[c->nruns - 1].dtype == dtype &&
	    c->runs[c->nruns - 1].reps < UINT32_MAX) {
		c->runs[c->nruns - 1].reps++;
	} else if (c->nruns < CHAN_RUNS) {
		c->runs[c->nruns].count = count;
		c->runs[c->nruns].dtype = dtype;
		c->runs[c->nruns].reps = 1;
		c->runs[c->nruns].rec = rec->index;
		c->nruns++;
	} else {
		c->runs_full = true;
	}
}

/* A message on its channel, looked up in full (mpi_chan_hot's miss). */
__attribute__((noinline)) static void tally_full(mpi_rank *m, const dumpi_record *rec, uint32_t inst, int32_t peer,
						int32_t tag, bool recv, int32_t count, uint16_t dtype)
{
	if (inst == INST_NONE) return;
	mpi_pass *p = m->pass;
	/* A channel met lately is found without hashing its key: the slot is a
	 * guess, checked against the key the channel holds. Channels move
	 * only when the map grows (its cap changes: only chan_miss's insertion
	 * grows it during the pass, and it clears the slots then) or merges
	 * (which clears them too). */
	int32_t key_tag = m->chans_merged ? CHAN_ANY_TAG : tag;
	mpi_chan *c = p->chan_near[mpi_chan_near_slot(inst, peer, key_tag, recv)];
	if (!c || c->inst != inst || c->peer != peer || c->tag != key_tag || c->dir != recv) {
		c = chan_miss(m, inst, peer, tag, recv);
		if (!c) return;
	}
	c->n++;
	c->last_rec = rec->index;
	c->last_off = rec->offset;
	c->last_fn = (uint16_t)rec->fn;
	if (!c->runs_full) chan_run(c, rec, count, dtype);
}

static inline void tally(mpi_rank *m, const dumpi_record *rec, uint32_t inst, int32_t peer, int32_t tag, bool recv,
			 int32_t count, uint16_t dtype)
{
	mpi_chan *c = mpi_chan_hot(m, inst, peer, tag, recv, count, dtype);
	if (c) mpi_chan_hot_add(c, rec);
	else tally_full(m, rec, inst, peer, tag, recv, count, dtype);
}

/* A message counted when its request started, which its status says was
 * cancelled: taken off its channel, whose sizes are no longer in order. */
void mpi_untally(mpi_rank *m, const mpi_msg *g)
{
	if (!g->p2p || g->inst == INST_NONE || g->peer < 0 || mpi_msg_wild(g)) return;
	int32_t tag = m->chans_merged ? CHAN_ANY_TAG : g->tag;
	mpi_chan *c = mpi_map_get(&m->chans, mpi_hash(g->inst, (uint32_t)g->peer, (uint32_t)tag, g->recv));
	if (!c || !c->n) return;
	c->n--;
	c->runs_full = true;
}

/* A receive, its wildcards resolved by the status where one was recorded. */
void mpi_recv_msg(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g, mpi_status st)
{
	int32_t peer = g->peer, tag = g->tag;
	if (peer == -2 || g->inst == INST_NONE) return; /* MPI_PROC_NULL (Open MPI) */
	if (peer == MPI_D_ANY_SOURCE && m->impl_opt != IMPL_OPENMPI && st.ok && st.bytes == 0 &&
	    (st.src < 0 || (st.src == 0 && (!st.tag_ok || st.tag == 0)) || (tag >= 0 && st.tag_ok && st.tag != tag))) {
		/* MPICH's MPI_PROC_NULL is -1, DUMPI's MPI_ANY_SOURCE too, and
		 * MPICH completes a receive from it with an empty status
		 * (source 0, tag 0): maybe no message at all (CHAN_NULLISH) */
		tally(m, rec, g->inst, CHAN_NULLISH, tag, true, g->count, g->dtype);
		/* a status with another tag than the posted one: no MPI_ANY_SOURCE
		 * receive gives that, so -1 was MPICH's MPI_PROC_NULL */
		if (tag >= 0 && st.tag_ok && st.tag != tag && !(m->impl & IMPL_MPICH))
			m->impl |= IMPL_MPICH, m->impl_rec[0] = rec->index, m->impl_by_status = true;
		return;
	}
	if (peer == MPI_D_ANY_SOURCE) peer = st.ok && st.src >= 0 ? st.src : -1;
	if (tag == MPI_D_ANY_TAG) tag = st.tag_ok && st.tag >= 0 ? st.tag : -1;
	if (peer < 0 || tag < 0) {
		mpi_inst *in = mpi_inst_of(m, g->inst);
		if (in && in->wild++ == 0) in->wild_rec = rec->index, in->wild_off = rec->offset, in->wild_fn = (uint16_t)rec->fn;
		return;
	}
	tally(m, rec, g->inst, peer, tag, true, g->count, g->dtype);
}

void mpi_tally(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g)
{
	tally(m, rec, g->inst, g->peer, g->tag, g->recv, g->count, g->dtype);
}

void mpi_send_msg(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g)
{
	if (g->peer < 0) return; /* MPI_PROC_NULL */
	tally(m, rec, g->inst, g->peer, g->tag, false, g->count, g->dtype);
}

void mpi_settle_msgs(mpi_rank *m)
{
	mpi_pass *p = m->pass;
	if (!p->msgs_passed) return;
	hv_eval_n(m->r, HV_R_DUMPI_MPI_COUNT_NEGATIVE, p->msgs_passed - p->msgs_one_count);
	hv_eval_n(m->r, HV_R_DUMPI_MPI_RANK_RANGE, p->msgs_passed);
	hv_eval_n(m->r, HV_R_DUMPI_MPI_TAG_RANGE, p->msgs_passed);
	p->msgs_passed = p->msgs_one_count = 0;
}
