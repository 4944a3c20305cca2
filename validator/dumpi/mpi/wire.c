/* The per-rank MPI summary as bytes (core/wire.h), so a rank file checked by
 * one hpcvet-mpi process can enter the cross-rank stage of every other.
 * Only what an ended rank keeps travels: its scalars, communicator
 * instances (with their first COLL_KEEP collectives) and message channels.
 * The channel map travels with its slot layout, so the cross-rank stage
 * walks it in the same order everywhere and the report is byte-identical.
 *
 * A process that only needs the rank's skeleton (the partitioned
 * cross-rank stage, part.c) keeps of each channel its key.
 *
 * The bytes come from another process, so they are input: every count is
 * bounded by the bytes present (and instances by MPI_MAX_INST), every
 * index is range-checked, and a malformed summary is refused whole. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "pass.h"

static void put_i64(hv_wbuf *w, int64_t v) { hv_put_u64(w, (uint64_t)v); }
static int64_t get_i64(hv_rbuf *r) { return (int64_t)hv_get_u64(r); }

/* A value that must fit `max` (inclusive); r->failed otherwise. */
static uint64_t get_max(hv_rbuf *r, uint64_t max)
{
	uint64_t v = hv_get_u64(r);
	if (v > max) r->failed = true;
	return v > max ? 0 : v;
}
static int32_t get_i32(hv_rbuf *r)
{
	int64_t v = get_i64(r);
	if (v < INT32_MIN || v > INT32_MAX) r->failed = true;
	return (int32_t)(v < INT32_MIN || v > INT32_MAX ? 0 : v);
}

/* Bytes of the smallest encoding of one instance and one channel: a count
 * beyond (bytes left) / that is malformed, so nothing is sized by a bogus
 * count. */
#define INST_MIN_BYTES (28u * 8u)
#define CHAN_MIN_BYTES (11u * 8u)
/* a skeleton keeps the channel's key fields alone */
_Static_assert(offsetof(mpi_chan, dir) < MPI_CHAN_SKEL && MPI_CHAN_SKEL <= sizeof(mpi_chan), "skeleton channel");

static void save_inst(hv_wbuf *w, const mpi_inst *x)
{
	hv_put_u64(w, x->parent);
	hv_put_u64(w, x->seq);
	hv_put_u64(w, x->fn);
	put_i64(w, x->color);
	put_i64(w, x->key);
	hv_put_u64(w, x->null);
	put_i64(w, x->myrank);
	hv_put_u64(w, x->ncreated);
	hv_put_u64(w, x->rec);
	hv_put_u64(w, x->off);
	hv_put_u64(w, x->local_id);
	put_i64(w, x->ref.max);
	hv_put_u64(w, x->ref.rec);
	hv_put_u64(w, x->ref.off);
	hv_put_u64(w, x->ref.fn);
	hv_put_u64(w, x->ref.role);
	hv_put_u64(w, x->ncoll);
	hv_put_u64(w, x->digest);
	hv_put_u64(w, x->cdigest);
	hv_put_u64(w, x->cmixed);
	hv_put_u64(w, x->coll_rec);
	hv_put_u64(w, x->coll_off);
	hv_put_u64(w, x->wild);
	hv_put_u64(w, x->wild_rec);
	hv_put_u64(w, x->wild_off);
	hv_put_u64(w, x->wild_fn);
	uint64_t nops = x->ops ? (x->ncoll < COLL_KEEP ? x->ncoll : COLL_KEEP) : 0;
	hv_put_u64(w, x->ops != NULL);
	hv_put_u64(w, nops);
	for (uint64_t k = 0; k < nops; k++) {
		const mpi_coll *o = &x->ops[k];
		hv_put_u64(w, o->fn);
		hv_put_u64(w, o->dtype);
		put_i64(w, o->root);
		put_i64(w, o->count);
		put_i64(w, o->count2);
		hv_put_u64(w, o->role0);
		hv_put_u64(w, o->role1);
		hv_put_u64(w, o->vflags);
		if (o->vflags) { /* a v-variant's sides; nothing reads them without a flag */
			hv_put_u64(w, o->vtype);
			hv_put_u64(w, o->vtype2);
			put_i64(w, o->vself);
			hv_put_u64(w, o->vlen);
			hv_put_u64(w, o->s0);
			hv_put_u64(w, o->s1);
			hv_put_u64(w, o->s2);
			hv_put_u64(w, o->r0);
			hv_put_u64(w, o->r1);
			hv_put_u64(w, o->r2);
			hv_put_u64(w, o->vdig);
		}
		hv_put_u64(w, o->rec);
		hv_put_u64(w, o->off);
	}
}

static bool load_inst(hv_rbuf *r, mpi_inst *x, uint32_t self)
{
	memset(x, 0, sizeof *x);
	x->parent = (uint32_t)get_max(r, UINT32_MAX);
	/* parents always come first: the cross-rank stage relies on it */
	if (x->parent != INST_NONE && x->parent >= self) r->failed = true;
	x->seq = (uint32_t)get_max(r, UINT32_MAX);
	x->fn = (uint16_t)get_max(r, DUMPI_NFUNCS - 1);
	x->color = get_i32(r);
	x->key = get_i32(r);
	x->null = hv_get_bool(r);
	x->myrank = get_i64(r);
	x->ncreated = (uint32_t)get_max(r, UINT32_MAX);
	x->rec = hv_get_u64(r);
	x->off = hv_get_u64(r);
	x->local_id = hv_get_u64(r);
	x->ref.max = get_i64(r);
	x->ref.rec = hv_get_u64(r);
	x->ref.off = hv_get_u64(r);
	x->ref.fn = (uint16_t)get_max(r, DUMPI_NFUNCS - 1);
	x->ref.role = (uint8_t)get_max(r, RO_COUNT_ROLES - 1);
	x->ncoll = hv_get_u64(r);
	x->digest = hv_get_u64(r);
	x->cdigest = hv_get_u64(r);
	x->cmixed = hv_get_bool(r);
	x->coll_rec = hv_get_u64(r);
	x->coll_off = hv_get_u64(r);
	x->wild = hv_get_u64(r);
	x->wild_rec = hv_get_u64(r);
	x->wild_off = hv_get_u64(r);
	x->wild_fn = (uint16_t)get_max(r, DUMPI_NFUNCS - 1);
	bool has_ops = hv_get_bool(r);
	uint64_t nops = get_max(r, COLL_KEEP);
	uint64_t want = x->ncoll < COLL_KEEP ? x->ncoll : COLL_KEEP;
	if (r->failed || (has_ops ? nops != want || nops == 0 : nops != 0)) return false;
	if (!has_ops) return true;
	x->ops = hv_calloc(nops, sizeof *x->ops);
	if (!x->ops) return false;
	x->ops_cap = (uint8_t)nops;
	for (uint64_t k = 0; k < nops; k++) {
		mpi_coll *o = &x->ops[k];
		o->fn = (uint16_t)get_max(r, DUMPI_NFUNCS - 1);
		o->dtype = (uint16_t)get_max(r, UINT16_MAX);
		o->root = get_i32(r);
		o->count = get_i32(r);
		o->count2 = get_i32(r);
		o->role0 = (uint8_t)get_max(r, RO_COUNT_ROLES - 1);
		o->role1 = (uint8_t)get_max(r, RO_COUNT_ROLES - 1);
		o->vflags = (uint8_t)get_max(r, VS_SCALAR | VS_SUMS | VR_SCALAR | VR_SUMS);
		o->vself = -1;
		if (o->vflags) {
			o->vtype = (uint16_t)get_max(r, UINT16_MAX);
			o->vtype2 = (uint16_t)get_max(r, UINT16_MAX);
			o->vself = get_i32(r);
			o->vlen = (uint32_t)get_max(r, UINT32_MAX);
			o->s0 = hv_get_u64(r);
			o->s1 = hv_get_u64(r);
			o->s2 = hv_get_u64(r);
			o->r0 = hv_get_u64(r);
			o->r1 = hv_get_u64(r);
			o->r2 = hv_get_u64(r);
			o->vdig = hv_get_u64(r);
		}
		o->rec = hv_get_u64(r);
		o->off = hv_get_u64(r);
	}
	return !r->failed;
}

void mpi_chan_save(hv_wbuf *w, const mpi_chan *c)
{
	hv_put_u64(w, c->inst);
	put_i64(w, c->peer);
	put_i64(w, c->tag);
	hv_put_u64(w, c->dir);
	hv_put_u64(w, c->runs_full);
	hv_put_u64(w, c->last_fn);
	hv_put_u64(w, c->n);
	hv_put_u64(w, c->last_rec);
	hv_put_u64(w, c->last_off);
	hv_put_u64(w, c->nruns);
	for (unsigned k = 0; k < c->nruns; k++) {
		put_i64(w, c->runs[k].count);
		hv_put_u64(w, c->runs[k].dtype);
		hv_put_u64(w, c->runs[k].reps);
		hv_put_u64(w, c->runs[k].rec);
	}
}

bool mpi_chan_load(hv_rbuf *r, mpi_chan *c, uint32_t ninst)
{
	memset(c, 0, sizeof *c);
	c->inst = (uint32_t)get_max(r, UINT32_MAX);
	if (c->inst >= ninst) r->failed = true; /* channels are only kept on known instances */
	c->peer = get_i32(r);
	c->tag = get_i32(r);
	c->dir = (uint8_t)get_max(r, 1);
	c->runs_full = hv_get_bool(r);
	c->last_fn = (uint16_t)get_max(r, DUMPI_NFUNCS - 1);
	c->n = hv_get_u64(r);
	c->last_rec = hv_get_u64(r);
	c->last_off = hv_get_u64(r);
	c->nruns = (uint8_t)get_max(r, CHAN_RUNS);
	for (unsigned k = 0; k < c->nruns && !r->failed; k++) {
		c->runs[k].count = get_i32(r);
		c->runs[k].dtype = (uint16_t)get_max(r, UINT16_MAX);
		c->runs[k].reps = (uint32_t)get_max(r, UINT32_MAX);
		c->runs[k].rec = hv_get_u64(r);
	}
	return !r->failed;
}

void mpi_rank_save(const mpi_rank *m, hv_wbuf *w)
{
	hv_put_u64(w, m != NULL);
	if (!m) return;
	for (int i = 0; i < 3; i++) hv_put_u64(w, m->version[i]);
	put_i64(w, m->rank);
	hv_put_u64(w, m->finalized);
	hv_put_u64(w, m->complete);
	hv_put_u64(w, m->ended);
	hv_put_u64(w, m->io_requests);
	hv_put_u64(w, m->inst_overflow);
	hv_put_u64(w, m->chans_merged);
	hv_put_u64(w, m->ignored);
	put_i64(w, m->world_size);
	hv_put_u64(w, m->records);
	hv_put_u64(w, m->last_rec);
	hv_put_u64(w, m->last_off);
	hv_put_u64(w, m->last_fn);
	hv_put_u64(w, m->unrec);
	hv_put_u64(w, m->impl);
	hv_put_u64(w, m->impl_rec[0]);
	hv_put_u64(w, m->impl_rec[1]);
	hv_put_u64(w, m->impl_by_status);
	hv_put_u64(w, m->ninst);
	for (uint32_t i = 0; i < m->ninst; i++) save_inst(w, &m->inst[i]);
	hv_put_u64(w, m->chans.cap);
	hv_put_u64(w, m->chans.len);
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&m->chans, &it, &key, &val)) {
		hv_put_u64(w, it - 1);
		mpi_chan_save(w, val);
	}
}

static bool load_body(hv_rbuf *r, mpi_rank *m)
{
	for (int i = 0; i < 3; i++) m->version[i] = (uint8_t)get_max(r, UINT8_MAX);
	m->rank = (long)get_i64(r);
	m->finalized = hv_get_bool(r);
	m->complete = hv_get_bool(r);
	m->ended = hv_get_bool(r);
	m->io_requests = hv_get_bool(r);
	m->inst_overflow = hv_get_bool(r);
	m->chans_merged = hv_get_bool(r);
	m->ignored = (uint8_t)get_max(r, UINT8_MAX);
	m->world_size = get_i64(r);
	m->records = hv_get_u64(r);
	m->last_rec = hv_get_u64(r);
	m->last_off = hv_get_u64(r);
	m->last_fn = (uint16_t)get_max(r, DUMPI_NFUNCS - 1);
	m->unrec = (uint8_t)get_max(r, UNREC_REQ | UNREC_STATUS | UNREC_CTOR);
	m->impl = (uint8_t)get_max(r, IMPL_MPICH | IMPL_OPENMPI);
	m->impl_rec[0] = hv_get_u64(r);
	m->impl_rec[1] = hv_get_u64(r);
	m->impl_by_status = hv_get_bool(r);
	/* only ended ranks travel, and every rank has world and self */
	uint64_t ninst = get_max(r, MPI_MAX_INST);
	if (r->failed || !m->ended || ninst < 2 || ninst > (r->n - r->at) / INST_MIN_BYTES) return false;
	m->inst = hv_calloc((size_t)ninst, sizeof *m->inst);
	if (!m->inst) return false;
	m->inst_cap = (uint32_t)ninst;
	for (uint32_t i = 0; i < ninst; i++) {
		m->ninst = i + 1; /* so mpi_rank_free frees what was loaded */
		if (!load_inst(r, &m->inst[i], i)) return false;
	}
	uint64_t cap = hv_get_u64(r), len = hv_get_u64(r);
	if (r->failed || len > (r->n - r->at) / CHAN_MIN_BYTES) return false;
	if (cap == 0) return len == 0;
	/* a map mpi_map_put grew: at most 8/3 slots per entry, 16 at least */
	if (cap > 16 && cap / 4 > len) return false;
	if (!mpi_map_shape(&m->chans, (size_t)cap)) return false;
	for (uint64_t k = 0; k < len; k++) {
		uint64_t slot = hv_get_u64(r);
		mpi_chan c;
		if (!mpi_chan_load(r, &c, m->ninst)) return false;
		mpi_chan *p = mpi_map_place(&m->chans, (size_t)(slot < cap ? slot : cap),
					    mpi_hash(c.inst, (uint32_t)c.peer, (uint32_t)c.tag, c.dir));
		if (!p) return false;
		memcpy(p, &c, m->chans.vsize); /* a skeleton's: the key fields alone (MPI_CHAN_SKEL) */
	}
	/* every entry must be where a lookup finds it, as mpi_map_put leaves them */
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&m->chans, &it, &key, &val))
		if (mpi_map_get(&m->chans, key) != val) return false;
	if (r->failed) return false;
	/* kept for the cross-rank stage as an ended rank keeps them (mpi_rank_end) */
	mpi_map_freeze(&m->chans);
	return true;
}

mpi_rank *mpi_rank_load(hv_rbuf *r, hv_blob *b, hv_report *rep, bool *ok)
{
	return mpi_rank_load_as(r, b, rep, false, ok);
}

mpi_rank *mpi_rank_load_as(hv_rbuf *r, hv_blob *b, hv_report *rep, bool skeleton, bool *ok)
{
	*ok = false;
	bool present = hv_get_bool(r);
	if (r->failed) return NULL;
	if (!present) {
		*ok = true;
		return NULL;
	}
	mpi_rank *m = hv_calloc(1, sizeof *m);
	if (!m) return NULL;
	m->r = rep;
	m->b = b;
	m->file = b->name;
	m->skeleton = skeleton;
	mpi_map_init(&m->chans, skeleton ? MPI_CHAN_SKEL : sizeof(mpi_chan));
	if (!load_body(r, m)) {
		r->failed = true;
		mpi_rank_free(m);
		return NULL;
	}
	*ok = true;
	return m;
}
