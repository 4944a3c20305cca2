/* The per-rank MPI summary of a DUMPI rank file as bytes (dumpi/mpi/wire.c),
 * which is how hpcvet-mpi spreads a trace's rank files over its processes:
 *  - for the consistent trace and for every cross-rank --break, the
 *    cross-rank stage over summaries that went through bytes writes the same
 *    report as over the originals, and a summary saved again after loading
 *    gives the same bytes (the channel map keeps its slot layout);
 *  - the bytes are input: every truncation and random damage is refused or
 *    loaded without a crash or leak (ASan), and hostile counts (instances,
 *    map slots, channels) are refused before anything is sized by them. */
#include <stdlib.h>
#include <string.h>

#include "core/wire.h"
#include "dumpi/mpi/layer.h"
#include "dumpi/mpi/pass.h"
#include "tap.h"
#include "testlib.h"

typedef struct trace {
	gen_output out;
	hv_blob blobs[GEN_MAX_FILES];
	hv_report reps[GEN_MAX_FILES];
	mpi_rank *ranks[GEN_MAX_FILES];
	size_t n;
} trace;

static bool is_bin(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcmp(name + n - 4, ".bin") == 0;
}

/* Generate a trace and run the per-rank pass over every rank file. */
static bool make_trace(trace *t, const char *brk, uint64_t seed)
{
	memset(t, 0, sizeof *t);
	gen_params p;
	gen_params_default(&p);
	p.what = "dumpi-trace";
	p.profiles = 4;
	p.seed = seed;
	p.break_rule = brk;
	char err[256] = "";
	if (gen_generate(&p, &t->out, err, sizeof err) != 0) return false;
	for (size_t i = 0; i < t->out.n; i++) {
		if (!is_bin(t->out.files[i].name)) continue;
		size_t k = t->n++;
		t->blobs[k] = hv_blob_from_memory(t->out.files[i].name, t->out.files[i].data, t->out.files[i].len);
		hv_report_init(&t->reps[k], "gen", 1000);
		dumpi_check_bin_mpi(NULL, &t->blobs[k], &t->reps[k], NULL, &t->ranks[k]);
	}
	return t->n > 0;
}

static void free_trace(trace *t)
{
	for (size_t k = 0; k < t->n; k++) {
		mpi_rank_free(t->ranks[k]);
		hv_report_free(&t->reps[k]);
	}
	gen_output_free(&t->out);
}

static bool same_reports(const hv_report *a, const hv_report *b)
{
	hv_wbuf x = {0}, y = {0};
	hv_report_save(a, &x);
	hv_report_save(b, &y);
	bool eq = !x.failed && !y.failed && x.n == y.n && memcmp(x.p, y.p, x.n) == 0;
	hv_wbuf_free(&x);
	hv_wbuf_free(&y);
	return eq;
}

/* Save, load, save again; the cross-rank stage over loaded summaries. */
/* The summary `m` saved in `w`, loaded as a skeleton (mpi_rank_load_as):
 * the same channels' keys in the same slots (the partitioned stage walks
 * them in that order), key fields alone, the same instances. */
static bool skeleton_matches(const mpi_rank *m, const hv_wbuf *w, hv_blob *b, hv_report *rep)
{
	hv_rbuf r = hv_rbuf_of(w->p, w->n);
	bool ok;
	mpi_rank *s = mpi_rank_load_as(&r, b, rep, true, &ok);
	bool same = ok && r.at == r.n && (s != NULL) == (m != NULL);
	if (s && m) {
		same &= s->skeleton && s->chans.vsize == MPI_CHAN_SKEL && s->ninst == m->ninst &&
			s->chans.len == m->chans.len;
		for (uint32_t i = 0; i < m->ninst && same; i++)
			same &= s->inst[i].ncoll == m->inst[i].ncoll && s->inst[i].digest == m->inst[i].digest &&
				s->inst[i].wild == m->inst[i].wild;
		size_t im = 0, is = 0;
		uint64_t km, ks;
		void *vm, *vs;
		while (same && mpi_map_next(&m->chans, &im, &km, &vm)) {
			same &= mpi_map_next(&s->chans, &is, &ks, &vs) && im == is && km == ks;
			const mpi_chan *cm = vm, *cs = vs;
			same &= same && cm->inst == cs->inst && cm->peer == cs->peer && cm->tag == cs->tag && cm->dir == cs->dir;
		}
		same &= !mpi_map_next(&s->chans, &is, &ks, &vs);
	}
	mpi_rank_free(s);
	return same;
}

static void check_travel(const char *brk, uint64_t seed)
{
	trace t;
	if (!make_trace(&t, brk, seed)) {
		/* per-rank breaks the trace writer does not make are tested elsewhere */
		CHECK(brk != NULL, "generate a consistent dumpi-trace");
		free_trace(&t);
		return;
	}
	mpi_rank *back[GEN_MAX_FILES] = {0};
	bool all_same = true, all_loaded = true, all_skel = true;
	for (size_t k = 0; k < t.n; k++) {
		hv_wbuf w = {0}, w2 = {0};
		mpi_rank_save(t.ranks[k], &w);
		hv_rbuf r = hv_rbuf_of(w.p, w.n);
		bool ok;
		back[k] = mpi_rank_load(&r, &t.blobs[k], &t.reps[k], &ok);
		all_loaded &= ok && !w.failed && r.at == r.n && (back[k] != NULL) == (t.ranks[k] != NULL);
		mpi_rank_save(back[k], &w2);
		all_same &= w.n == w2.n && memcmp(w.p, w2.p, w.n) == 0;
		all_skel &= skeleton_matches(t.ranks[k], &w, &t.blobs[k], &t.reps[k]);
		hv_wbuf_free(&w);
		hv_wbuf_free(&w2);
	}
	CHECK(all_loaded, "every rank's summary loads back (break %s)", brk ? brk : "none");
	CHECK(all_same, "a loaded summary saves to the same bytes (break %s)", brk ? brk : "none");
	CHECK(all_skel, "a skeleton keeps every channel's key in its slot, and the instances (break %s)",
	      brk ? brk : "none");
	hv_report ra, rb;
	hv_report_init(&ra, "gen", 1000);
	hv_report_init(&rb, "gen", 1000);
	mpi_trace_check(&(const hv_options){0}, &ra, t.ranks, t.n, t.n);
	mpi_trace_check(&(const hv_options){0}, &rb, back, t.n, t.n);
	CHECK(same_reports(&ra, &rb), "the cross-rank stage over loaded summaries writes the same report (break %s)",
	      brk ? brk : "none");
	if (brk) {
		bool fired = false;
		size_t len = strcspn(brk, "~"); /* a variant fires its rule */
		for (size_t i = 0; i < rb.ndiags; i++) {
			const char *id = hv_rules[rb.diags[i].rule].id;
			fired |= strlen(id) == len && strncmp(id, brk, len) == 0;
		}
		for (size_t k = 0; k < t.n; k++)
			for (size_t i = 0; i < t.reps[k].ndiags; i++) {
				const char *id = hv_rules[t.reps[k].diags[i].rule].id;
				fired |= strlen(id) == len && strncmp(id, brk, len) == 0;
			}
		CHECK(fired, "%s fires with loaded summaries", brk);
	}
	hv_report_free(&ra);
	hv_report_free(&rb);
	for (size_t k = 0; k < t.n; k++) mpi_rank_free(back[k]);
	free_trace(&t);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* Truncated and damaged bytes: refused or loaded, never a crash or leak. */
static void check_damage(void)
{
	trace t;
	if (!make_trace(&t, NULL, 3)) {
		CHECK(false, "generate a dumpi-trace");
		return;
	}
	hv_wbuf w = {0};
	mpi_rank_save(t.ranks[1], &w);
	bool truncated_refused = true;
	size_t step = w.n / 400 + 1;
	for (size_t len = 0; len < w.n; len += step) {
		hv_rbuf r = hv_rbuf_of(w.p, len);
		bool ok;
		mpi_rank *m = mpi_rank_load(&r, &t.blobs[1], &t.reps[1], &ok);
		truncated_refused &= !ok && m == NULL;
		mpi_rank_free(m);
	}
	CHECK(truncated_refused, "every truncation of a summary (%zu bytes) is refused", w.n);
	uint8_t *copy = malloc(w.n);
	unsigned loaded = 0, refused = 0;
	for (int round = 0; round < 2000 && copy; round++) {
		memcpy(copy, w.p, w.n);
		int edits = 1 + (int)(next() % 4);
		for (int e = 0; e < edits; e++) {
			size_t at = (size_t)(next() % w.n);
			/* whole words now and then: counts and indices that are huge or negative */
			if (next() % 3 == 0 && at + 8 <= w.n) memset(copy + at - at % 8, next() % 2 ? 0xff : 0x7f, 8);
			else copy[at] = (uint8_t)next();
		}
		hv_rbuf r = hv_rbuf_of(copy, w.n);
		bool ok;
		mpi_rank *m = mpi_rank_load(&r, &t.blobs[1], &t.reps[1], &ok);
		if (ok) loaded++;
		else refused++;
		if (m) { /* a summary that loads must be usable: the cross-rank stage over it alone */
			hv_report rr;
			hv_report_init(&rr, "gen", 100);
			mpi_trace_check(&(const hv_options){0}, &rr, &m, 1, 1);
			hv_report_free(&rr);
		}
		mpi_rank_free(m);
	}
	CHECK(refused > 0 && loaded + refused == 2000, "damaged summaries: %u loaded, %u refused, no crash", loaded,
	      refused);
	free(copy);
	hv_wbuf_free(&w);
	free_trace(&t);
}

/* Counts that promise more than the bytes hold are refused at once. */
static void check_hostile(void)
{
	static const uint64_t head[] = {1, 13, 1, 0, 0, 1, 1, 1, 0, 0, 0, 10, 9, 100, 125};
	for (int which = 0; which < 3; which++) {
		hv_wbuf w = {0};
		for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) hv_put_u64(&w, head[i]);
		/* which 0: 4096 instances promised, 0 sent; 1 and 2: two zero instances
		 * with valid parents, then a channel map of 2^60 slots or entries */
		hv_put_u64(&w, which == 0 ? 4096 : 2);
		if (which) {
			for (int i = 0; i < 2; i++) {
				hv_put_u64(&w, UINT32_MAX); /* parent: none */
				for (int f = 0; f < 27; f++) hv_put_u64(&w, 0); /* an instance has 28 fields */
			}
			hv_put_u64(&w, which == 1 ? (uint64_t)1 << 60 : 16);
			hv_put_u64(&w, which == 1 ? 1 : (uint64_t)1 << 60);
		}
		hv_rbuf r = hv_rbuf_of(w.p, w.n);
		hv_blob b = hv_blob_from_memory("x-0000.bin", (const uint8_t *)"", 0);
		hv_report rep;
		hv_report_init(&rep, "x", 10);
		bool ok;
		mpi_rank *m = mpi_rank_load(&r, &b, &rep, &ok);
		CHECK(!ok && !m, "hostile summary %d refused", which);
		mpi_rank_free(m);
		hv_report_free(&rep);
		hv_wbuf_free(&w);
	}
	/* NULL travels */
	hv_wbuf w = {0};
	mpi_rank_save(NULL, &w);
	hv_rbuf r = hv_rbuf_of(w.p, w.n);
	bool ok;
	hv_blob b = hv_blob_from_memory("x-0000.bin", (const uint8_t *)"", 0);
	CHECK(mpi_rank_load(&r, &b, NULL, &ok) == NULL && ok && r.at == r.n, "no summary travels as none");
	hv_wbuf_free(&w);
}

int main(void)
{
	check_travel(NULL, 1);
	check_travel(NULL, 7);
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		const char *id = hv_rules[i].id;
		if (strncmp(id, "dumpi.mpi.", 10) != 0) continue;
		check_travel(id, 1);
	}
	/* the v-variants' sums and the scalar counts' second side travel too */
	static const char *const variants[] = {"dumpi.mpi.coll-count~alltoall", "dumpi.mpi.coll-count~gatherv",
					       "dumpi.mpi.coll-count~scatterv", "dumpi.mpi.coll-count~allgatherv",
					       "dumpi.mpi.coll-count~alltoallv", "dumpi.mpi.coll-count~alltoallv-twice",
					       "dumpi.mpi.coll-count~alltoallw",
					       "dumpi.mpi.coll-count~reduce-scatter"};
	for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) check_travel(variants[i], 1);
	check_damage();
	check_hostile();
	TAP_DONE();
}
