/* Units of work (core/units.h) and their bytes (core/wire.h): a report
 * survives save/load unchanged; merging reports is associative, also when
 * diagnostics overflow max_diags, so any split of an input into units gives
 * the same report; a unit's summary and its file's read error travel; the
 * static plan gives every unit one owner, the same on every call, within one
 * unit of balance; malformed bytes are refused, never trusted. */
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/wire.h"
#include "tap.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* A report with a pseudo-random mix of evaluations, failures, files. */
static void fill(hv_report *r, int n)
{
	static const char *files[] = {"db/profile.db", "db/cct.db", "t/loom.a/proc.1/thread.1/stream.obs"};
	for (int k = 0; k < n; k++) {
		int rule = (int)(next() % HV_RULE_COUNT);
		if (!hv_eval(r, rule, next() % 3 != 0))
			hv_emit(r, rule, files[next() % 3], next() % 4096, next() % 16, "a/b[3]", "expected %llu, found %llu",
				(unsigned long long)(next() % 100), (unsigned long long)(next() % 100));
	}
	if (next() % 5 == 0) snprintf(r->format, sizeof r->format, "fmt%d", (int)(next() % 9));
}

static bool bytes_of(const hv_report *r, hv_wbuf *w)
{
	memset(w, 0, sizeof *w);
	hv_report_save(r, w);
	return !w->failed;
}

static bool same(const hv_report *a, const hv_report *b)
{
	hv_wbuf x, y;
	bytes_of(a, &x);
	bytes_of(b, &y);
	bool eq = x.n == y.n && memcmp(x.p, y.p, x.n) == 0;
	hv_wbuf_free(&x);
	hv_wbuf_free(&y);
	return eq;
}

static void roundtrip(void)
{
	hv_report r, back;
	hv_report_init(&r, "in", 50);
	fill(&r, 400);
	hv_report_unreadable(&r, "x: read error");
	hv_wbuf w;
	CHECK(bytes_of(&r, &w), "save");
	hv_report_init(&back, "in", 50);
	hv_rbuf rd = hv_rbuf_of(w.p, w.n);
	CHECK(hv_report_load(&back, &rd) && rd.at == rd.n, "load");
	CHECK(same(&r, &back), "a report survives save/load");
	CHECK(back.unreadable && strcmp(back.problem, "x: read error") == 0, "flags and problem travel");
	/* Every truncation of the bytes is refused, and never read past. */
	size_t refused = 0, cuts = 0;
	for (size_t cut = 0; cut < w.n; cut += 1 + cut / 8, cuts++) {
		hv_report t;
		hv_report_init(&t, "in", 50);
		hv_rbuf tr = hv_rbuf_of(w.p, cut);
		refused += !hv_report_load(&t, &tr);
		hv_report_free(&t);
	}
	CHECK(refused == cuts, "every truncation refused (%zu of %zu)", refused, cuts);
	/* A diagnostic count beyond the bytes present is refused before any allocation. */
	hv_report e;
	hv_report_init(&e, "in", 50);
	hv_wbuf bad = {0};
	hv_report_save(&e, &bad);
	bad.p[bad.n - 32 + 7] = 0x7f; /* ndiags (before nghosts, max_per_rule, the per-rule places): huge */
	hv_rbuf br = hv_rbuf_of(bad.p, bad.n);
	CHECK(!hv_report_load(&e, &br), "a huge diagnostic count is refused");
	hv_wbuf_free(&bad);
	hv_report_free(&e);
	hv_wbuf_free(&w);
	hv_report_free(&r);
	hv_report_free(&back);
}

/* (a+b)+c == a+(b+c) for random reports and small max_diags. */
static void associativity(void)
{
	int ok = 0, trials = 200;
	for (int t = 0; t < trials; t++) {
		size_t cap = 1 + next() % 12;
		hv_report a, b, c, ab, left, bc, right;
		hv_report_init(&a, "in", cap);
		hv_report_init(&b, "in", cap);
		hv_report_init(&c, "in", cap);
		fill(&a, (int)(next() % 30));
		fill(&b, (int)(next() % 30));
		fill(&c, (int)(next() % 30));
		hv_report_init(&ab, "in", cap);
		hv_report_merge(&ab, &a);
		hv_report_merge(&ab, &b);
		hv_report_init(&left, "in", cap);
		hv_report_merge(&left, &ab);
		hv_report_merge(&left, &c);
		hv_report_init(&bc, "in", cap);
		hv_report_merge(&bc, &b);
		hv_report_merge(&bc, &c);
		hv_report_init(&right, "in", cap);
		hv_report_merge(&right, &a);
		hv_report_merge(&right, &bc);
		ok += same(&left, &right) && left.ndiags + left.suppressed == a.count[0] + a.count[1] + a.count[2] +
										   b.count[0] + b.count[1] + b.count[2] +
										   c.count[0] + c.count[1] + c.count[2];
		hv_report *all[] = {&a, &b, &c, &ab, &left, &bc, &right};
		for (int k = 0; k < 7; k++) hv_report_free(all[k]);
	}
	CHECK(ok == trials, "merge is associative (%d of %d)", ok, trials);
}

/* A unit set over an array: summaries are one number each. */
typedef struct toy {
	hv_report rep[5];
	uint64_t sum[5];
	hv_blob blob[5];
} toy;

static void toy_check(void *ctx, size_t i)
{
	toy *t = ctx;
	fill(&t->rep[i], 20);
	t->sum[i] = 1000 + i;
	t->blob[i].io_failed = i == 3;
}
static hv_report *toy_report(void *ctx, size_t i) { return &((toy *)ctx)->rep[i]; }
static void toy_save(void *ctx, size_t i, hv_wbuf *w) { hv_put_u64(w, ((toy *)ctx)->sum[i]); }
static bool toy_load(void *ctx, size_t i, hv_rbuf *r)
{
	((toy *)ctx)->sum[i] = hv_get_u64(r);
	return !r->failed;
}
static hv_blob *toy_blob(void *ctx, size_t i) { return &((toy *)ctx)->blob[i]; }
static uint64_t toy_size(void *ctx, size_t i) { (void)ctx; return (uint64_t)(i * 7 % 5) * 100; }

static void unit_travel(void)
{
	toy a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	for (int i = 0; i < 5; i++) hv_report_init(&a.rep[i], "in", 10), hv_report_init(&b.rep[i], "in", 10);
	hv_units ua = {5, &a, toy_check, toy_report, toy_save, toy_load, toy_blob, toy_size};
	hv_units ub = ua;
	ub.ctx = &b;
	hv_run_units(NULL, &ua);
	int ok = 0;
	for (size_t i = 0; i < 5; i++) {
		hv_wbuf w = {0};
		hv_unit_save(&ua, i, &w);
		hv_rbuf r = hv_rbuf_of(w.p, w.n);
		ok += hv_unit_load(&ub, i, &r) && r.at == r.n && same(&a.rep[i], &b.rep[i]) && b.sum[i] == a.sum[i] &&
		      b.blob[i].io_failed == (i == 3);
		/* cut short: refused, and the unit's report says so */
		hv_report t;
		hv_report_init(&t, "in", 10);
		toy c = b;
		c.rep[i] = t;
		hv_units uc = ub;
		uc.ctx = &c;
		hv_rbuf cut = hv_rbuf_of(w.p, w.n - 1);
		ok += !hv_unit_load(&uc, i, &cut) && c.rep[i].internal_error;
		hv_report_free(&c.rep[i]);
		hv_wbuf_free(&w);
	}
	CHECK(ok == 10, "units travel: report, summary, io_failed; a cut unit is refused (%d of 10)", ok);
	/* The plan: one owner each, deterministic, balanced within one unit. */
	unsigned o1[5], o2[5];
	uint64_t load[3];
	CHECK(hv_units_plan(&ua, 3, o1, load) && hv_units_plan(&ua, 3, o2, NULL), "plan");
	CHECK(memcmp(o1, o2, sizeof o1) == 0, "the plan is deterministic");
	uint64_t lo = load[0], hi = load[0], total = 0;
	for (int p = 0; p < 3; p++) lo = load[p] < lo ? load[p] : lo, hi = load[p] > hi ? load[p] : hi, total += load[p];
	CHECK(total == 5 + 0 + 200 + 400 + 100 + 300 && hi - lo <= 401, "every byte planned once, balanced (%llu..%llu)",
	      (unsigned long long)lo, (unsigned long long)hi);
	int bad = 0;
	for (int i = 0; i < 5; i++) bad += o1[i] >= 3;
	CHECK(bad == 0, "owners in range");
	for (int i = 0; i < 5; i++) hv_report_free(&a.rep[i]), hv_report_free(&b.rep[i]);
}

/* One rule failing 10,000 times: at most --max-per-rule stored, the exact
 * count, the first and last place of the rest; the same report when the
 * failures are split over units at any cuts and merged, and when every
 * unit travels as bytes; also with a small max_diags and a mix of rules. */
static void emit_seq(hv_report *r, int from, int to)
{
	for (int k = from; k < to; k++) {
		int rule = k % 7 == 0 ? 1 : 0; /* mostly rule 0, some rule 1 */
		if (!hv_eval(r, rule, false))
			hv_emit(r, rule, k % 3 ? "a.db" : "b.db", (uint64_t)k, 1, "p[1]", "found %d", k);
	}
}

static void per_rule_cap(void)
{
	size_t saved = hv_max_per_rule;
	hv_max_per_rule = 10;
	hv_report one;
	hv_report_init(&one, "in", 100);
	emit_seq(&one, 0, 10000);
	uint64_t n1 = 0;
	for (int k = 0; k < 10000; k++) n1 += k % 7 == 0;
	size_t stored0 = 0, stored1 = 0;
	for (size_t k = 0; k < one.ndiags; k++) {
		stored0 += one.diags[k].rule == 0;
		stored1 += one.diags[k].rule == 1;
	}
	CHECK(stored0 == 10 && stored1 == 10 && one.ndiags == 20, "at most 10 stored per rule (%zu, %zu)", stored0, stored1);
	CHECK(one.failed[0] == 10000 - n1 && one.failed[1] == n1, "exact failure counts");
	CHECK(one.count[hv_rules[0].severity] + (hv_rules[0].severity == hv_rules[1].severity ? 0 : one.count[hv_rules[1].severity]) == 10000,
	      "exact severity counts");
	CHECK(hv_report_hidden(&one, 0) == 10000 - n1 - 10 && hv_report_hidden(&one, 1) == n1 - 10, "hidden counts");
	/* rule 0's 11th failure is at k = 12 (0, 7 are rule 1's), its last at 9999 */
	CHECK(one.more[0].first_off == 12 && one.more[0].last_off == 9999, "first and last place beyond the cap (%llu, %llu)",
	      (unsigned long long)one.more[0].first_off, (unsigned long long)one.more[0].last_off);
	CHECK(one.more[0].last_file && strcmp(one.more[0].last_file, "b.db") == 0, "the last place's file");
	int same_n = 0, trials = 50;
	for (int t = 0; t < trials; t++) {
		size_t maxd = t % 2 ? 100 : 1 + next() % 15;
		hv_report ref, merged;
		hv_report_init(&ref, "in", maxd);
		emit_seq(&ref, 0, 10000);
		hv_report_init(&merged, "in", maxd);
		int a = (int)(next() % 10000), b = (int)(next() % 10000);
		if (a > b) {
			int x = a;
			a = b;
			b = x;
		}
		int cuts[4] = {0, a, b, 10000};
		for (int u = 0; u < 3; u++) {
			hv_report part, back;
			hv_report_init(&part, "in", maxd);
			emit_seq(&part, cuts[u], cuts[u + 1]);
			hv_wbuf w;
			bytes_of(&part, &w);
			hv_report_init(&back, "in", maxd);
			hv_rbuf rd = hv_rbuf_of(w.p, w.n);
			hv_report_load(&back, &rd); /* a unit checked on another rank */
			hv_report_merge(&merged, &back);
			hv_wbuf_free(&w);
			hv_report_free(&part);
			hv_report_free(&back);
		}
		same_n += same(&ref, &merged);
		hv_report_free(&ref);
		hv_report_free(&merged);
	}
	CHECK(same_n == trials, "split, sent and merged at any cuts: the one sequence's report (%d of %d)", same_n, trials);
	hv_report_free(&one);
	hv_max_per_rule = saved;
}

int main(void)
{
	per_rule_cap();
	roundtrip();
	associativity();
	unit_travel();
	TAP_DONE();
}
