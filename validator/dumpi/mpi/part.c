/* The cross-rank stage partitioned over the processes of a units runner
 * (hpcvet-mpi; README.md, "The cross-rank stage at scale"). Every process
 * holds whole the rank files it checked and a skeleton of every other rank
 * (mpi_rank_load_as: scalars, communicator instances with their first
 * collectives, the channels' keys), so it rebuilds the
 * communicators and compares the collectives as a single process does.
 * The messages are what is shared out, by destination, in the order of
 * the single process's report:
 *  1. owners: which process holds each rank whole (one all-gather);
 *  2. every process fills the map of matched pairs with keys alone, in the
 *     same order (world rank, then each rank's channel slots), so every
 *     pair has the same slot everywhere; the pairs whose destination a
 *     process owns get their values there (match.c, chan_put);
 *  3. route: each process sends its ranks' send channels, whole, to the
 *     owner of their destination (all-to-all, in rounds of ranks), where
 *     they become the send ends of the pairs, in the order chan_put takes
 *     them (a pair's send ends all come from one rank, in its slot order);
 *  4. each process matches its pairs in slot order (the destination's
 *     wildcard budget is spent in that order, all of it on its owner) and
 *     keeps their evaluation counts and the first DIAG_CAP findings per
 *     rule with their slot, counting the rest;
 *  5. replay: one all-gather of those, merged in slot order through
 *     mpi_room and the report's own caps on every process, which is the
 *     order and the caps of a single process.
 * Bytes from another process are input: every count is bounded by the
 * bytes present, every index checked; anything malformed or lost is an
 * internal error on every process alike. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"
#include "pass.h"

enum { STEP_OWNERS = 1, STEP_ROUTE, STEP_FINDINGS };

void mpi_part_owners(trace_ctx *t)
{
	mpi_part *p = t->part;
	hv_wbuf w = {0};
	for (uint32_t k = 0; k < t->n; k++)
		if (!t->by[k]->skeleton) hv_put_u64(&w, k);
	hv_gathered g;
	if (!p->run->gather(p->run, STEP_OWNERS, &w, &g)) p->failed = true;
	hv_wbuf_free(&w);
	p->np = g.nranks;
	p->me = g.me;
	p->owner = hv_malloc((t->n ? t->n : 1) * sizeof *p->owner);
	if (!p->owner) p->failed = true;
	for (uint32_t k = 0; k < t->n && p->owner; k++) p->owner[k] = UINT32_MAX;
	for (int r = 0; r < g.nranks && p->owner; r++) {
		if (g.lost[r]) {
			p->failed = true;
			continue;
		}
		hv_rbuf rb = hv_rbuf_of(g.buf + g.off[r], (size_t)g.len[r]);
		while (rb.at < rb.n) {
			uint64_t k = hv_get_u64(&rb);
			if (rb.failed || k >= t->n || p->owner[k] != UINT32_MAX) {
				p->failed = true;
				break;
			}
			p->owner[k] = (uint32_t)r;
		}
	}
	for (uint32_t k = 0; k < t->n && p->owner; k++)
		if (p->owner[k] == UINT32_MAX) p->failed = true;
	if (p->failed) {
		/* no pair is owned anywhere: the steps after still run, empty */
		free(p->owner);
		p->owner = NULL;
	}
	hv_gathered_free(&g);
}

gchan *mpi_part_pair(trace_ctx *t, uint32_t *ix, bool fresh, uint32_t dst)
{
	mpi_part *p = t->part;
	if (fresh) {
		*ix = PAIR_ELSEWHERE;
		if (!p->owner || p->owner[dst] != (uint32_t)p->me) return NULL;
		/* indices are uint32_t below PAIR_ELSEWHERE */
		size_t cap = p->pcap;
		if (!HV_GROW_UPTO(p->pairs, cap, (size_t)p->npairs + 1, 1024, PAIR_ELSEWHERE)) {
			p->failed = true;
			return NULL;
		}
		p->pcap = (uint32_t)cap;
		memset(&p->pairs[p->npairs], 0, sizeof *p->pairs);
		*ix = p->npairs++;
	}
	return *ix == PAIR_ELSEWHERE ? NULL : &p->pairs[*ix];
}

/* Step 3 goes in rounds of this many sending ranks, so what is in flight
 * at once stays small (about 1 MB a round for stencil ranks at -np 2). */
#define ROUTE_RANKS 4096u

/* The channels process r routed here, (rank, channel) records, each the
 * send end of a pair here that chan_put left waiting (p->nwait): kept in
 * p->routed (*n of them so far), in the order chan_put would have taken
 * them (world rank, then the rank's channel slots). false: malformed. */
static bool routed_read(trace_ctx *t, const hv_gathered *g, int r, const mpi_map *gm, size_t *n)
{
	mpi_part *p = t->part;
	hv_rbuf rb = hv_rbuf_of(g->buf + g->off[r], (size_t)g->len[r]);
	while (rb.at < rb.n) {
		uint64_t w = hv_get_u64(&rb);
		if (rb.failed || w >= t->n || p->owner[w] != (uint32_t)r || *n >= p->nwait) return false;
		mpi_chan *c = &p->routed[*n];
		uint64_t key;
		uint32_t gid, src, dst;
		int32_t tag;
		if (!mpi_chan_load(&rb, c, t->by[w]->ninst) || c->dir != 0 ||
		    !mpi_chan_pair(t, (uint32_t)w, c, &key, &gid, &src, &dst, &tag) || p->owner[dst] != (uint32_t)p->me)
			return false;
		const uint32_t *ix = mpi_map_get(gm, key);
		if (!ix || *ix == PAIR_ELSEWHERE || p->pairs[*ix].src != w) return false;
		mpi_pair_end(&p->pairs[*ix], c, tag);
		++*n;
	}
	return true;
}

/* One round: the send channels of ranks [lo, hi) held here go to the
 * owners of their destinations. */
static void route_round(trace_ctx *t, const mpi_map *gm, uint32_t lo, uint32_t hi, uint64_t step, size_t *n)
{
	mpi_part *p = t->part;
	hv_wbuf *to = hv_calloc(p->np > 0 ? (size_t)p->np : 1, sizeof *to);
	if (!to) p->failed = true;
	for (uint32_t w = lo; w < hi && to && p->owner; w++) {
		if (p->owner[w] != (uint32_t)p->me) continue;
		size_t it = 0;
		uint64_t k;
		void *val;
		while (mpi_map_next(&t->by[w]->chans, &it, &k, &val)) {
			const mpi_chan *c = val;
			uint64_t key;
			uint32_t gid, src, dst;
			int32_t tag;
			if (c->dir != 0 || !mpi_chan_pair(t, w, c, &key, &gid, &src, &dst, &tag)) continue;
			if (p->owner[dst] == (uint32_t)p->me) continue;
			hv_wbuf *b = &to[p->owner[dst]];
			hv_put_u64(b, w);
			mpi_chan_save(b, c);
		}
	}
	hv_gathered g;
	/* out of memory here: nothing is sent (every process still takes part) */
	if (!p->run->route(p->run, step, to, &g)) p->failed = true;
	for (int r = 0; to && r < p->np; r++) {
		p->failed |= to[r].failed;
		hv_wbuf_free(&to[r]);
	}
	free(to);
	for (int r = 0; r < g.nranks && !p->failed && p->owner; r++)
		if (r != p->me && (g.lost[r] || !routed_read(t, &g, r, gm, n))) p->failed = true;
	hv_gathered_free(&g);
}

void mpi_part_route(trace_ctx *t, const mpi_map *gm)
{
	mpi_part *p = t->part;
	/* room for every send end to come, so the channels never move */
	size_t n = 0;
	if (p->nwait && !p->failed) {
		p->routed = hv_calloc(p->nwait, sizeof *p->routed);
		if (!p->routed) p->failed = true;
	}
	/* the same rounds on every process: they depend on the ranks alone */
	for (uint64_t k = 0; k <= t->n / ROUTE_RANKS; k++) {
		uint64_t hi = (k + 1) * ROUTE_RANKS;
		route_round(t, gm, (uint32_t)(k * ROUTE_RANKS), (uint32_t)(hi < t->n ? hi : t->n), k << 8 | STEP_ROUTE, &n);
	}
	/* every send end held elsewhere arrived */
	if (n != p->nwait) p->failed = true;
}

void mpi_part_begin(trace_ctx *t)
{
	mpi_part *p = t->part;
	memcpy(p->evaluated, t->r->evaluated, sizeof p->evaluated);
	p->recording = true;
}

gchan *mpi_part_at(trace_ctx *t, const uint32_t *ix, uint64_t slot)
{
	mpi_part *p = t->part;
	if (*ix == PAIR_ELSEWHERE || p->failed) return NULL;
	p->slot = slot;
	return &p->pairs[*ix];
}

/* One process's part of step 5 as it arrived: its counts applied to the
 * report and the stage's caps, its findings left for the merge. */
typedef struct found_at {
	hv_rbuf rb;
	uint64_t left, next, last; /* findings not yet replayed, the next one's slot, the last one's */
} found_at;

static bool found_peek(found_at *f)
{
	if (!f->left) return true;
	hv_rbuf peek = f->rb;
	f->next = hv_get_u64(&peek);
	return !peek.failed && f->next >= f->last;
}

static bool counts_read(trace_ctx *t, hv_rbuf *rb, found_at *f)
{
	if (hv_get_bool(rb) || rb->failed) return false; /* that process failed */
	uint64_t nev = hv_get_u64(rb);
	if (rb->failed || nev > HV_RULE_COUNT) return false;
	for (uint64_t k = 0; k < nev; k++) {
		uint64_t rule = hv_get_u64(rb), d = hv_get_u64(rb);
		if (rb->failed || rule >= HV_RULE_COUNT) return false;
		uint64_t *e = &t->r->evaluated[rule];
		*e = *e > UINT64_MAX - d ? UINT64_MAX : *e + d;
	}
	uint64_t nun = hv_get_u64(rb);
	if (rb->failed || nun > HV_RULE_COUNT) return false;
	for (uint64_t k = 0; k < nun; k++) {
		uint64_t rule = hv_get_u64(rb), c = hv_get_u64(rb), sev = hv_get_u64(rb);
		if (rb->failed || rule >= HV_RULE_COUNT || sev > HV_SEV_ERROR) return false;
		unsigned *h = &t->hidden[rule];
		*h = c > UINT32_MAX - *h ? UINT32_MAX : *h + (unsigned)c;
		if (sev + 1u > t->hidden_sev[rule]) t->hidden_sev[rule] = (uint8_t)(sev + 1u);
	}
	f->left = hv_get_u64(rb);
	f->rb = *rb;
	f->last = 0;
	return !rb->failed && found_peek(f);
}

/* The next finding of f into the report (mpi_room and the report's caps). */
static bool found_replay(trace_ctx *t, found_at *f)
{
	hv_rbuf *rb = &f->rb;
	uint64_t slot = hv_get_u64(rb), rule = hv_get_u64(rb), sev = hv_get_u64(rb), rank = hv_get_u64(rb);
	uint64_t rec = hv_get_u64(rb), off = hv_get_u64(rb);
	char msg[768];
	if (!hv_get_str(rb, msg, sizeof msg) || rb->failed || rule >= HV_RULE_COUNT || sev > HV_SEV_ERROR ||
	    rank >= t->n)
		return false;
	mpi_emit_text(t, (int)rule, (enum hv_sev)sev, t->by[rank], rec, off, msg);
	f->left--;
	f->last = slot;
	return found_peek(f);
}

void mpi_part_replay(trace_ctx *t)
{
	mpi_part *p = t->part;
	p->recording = false;
	hv_wbuf w = {0};
	hv_put_u64(&w, p->failed || p->found.failed);
	uint64_t nev = 0, nun = 0;
	for (int k = 0; k < HV_RULE_COUNT; k++) {
		nev += t->r->evaluated[k] != p->evaluated[k];
		nun += p->unkept[k] != 0;
	}
	hv_put_u64(&w, nev);
	for (int k = 0; k < HV_RULE_COUNT; k++)
		if (t->r->evaluated[k] != p->evaluated[k]) {
			hv_put_u64(&w, (uint64_t)k);
			hv_put_u64(&w, t->r->evaluated[k] - p->evaluated[k]);
		}
	hv_put_u64(&w, nun);
	for (int k = 0; k < HV_RULE_COUNT; k++)
		if (p->unkept[k]) {
			hv_put_u64(&w, (uint64_t)k);
			hv_put_u64(&w, p->unkept[k]);
			hv_put_u64(&w, p->unkept_sev[k] - 1u);
		}
	hv_put_u64(&w, p->nfound);
	hv_put_bytes(&w, p->found.p, p->found.n);
	hv_gathered g;
	bool ok = p->run->gather(p->run, STEP_FINDINGS, &w, &g);
	hv_wbuf_free(&w);
	/* every process's counts, this one's included, from what every process received alike */
	memcpy(t->r->evaluated, p->evaluated, sizeof p->evaluated);
	found_at *f = hv_calloc(g.nranks > 0 ? (size_t)g.nranks : 1, sizeof *f);
	ok = ok && f;
	for (int r = 0; r < g.nranks && ok; r++) {
		hv_rbuf rb = hv_rbuf_of(g.buf + g.off[r], (size_t)g.len[r]);
		ok = !g.lost[r] && counts_read(t, &rb, &f[r]);
	}
	/* the findings in slot order: a slot is one process's, in its order */
	while (ok) {
		int best = -1;
		for (int r = 0; r < g.nranks; r++)
			if (f[r].left && (best < 0 || f[r].next < f[best].next)) best = r;
		if (best < 0) break;
		ok = found_replay(t, &f[best]);
	}
	if (!ok)
		hv_report_internal(t->r, "the messages of the trace could not be matched across the processes (out of "
					 "memory, or bytes lost between them)");
	free(f);
	hv_gathered_free(&g);
}

void mpi_part_free(mpi_part *p)
{
	free(p->owner);
	free(p->pairs);
	free(p->routed);
	hv_wbuf_free(&p->found);
	memset(p, 0, sizeof *p);
}
