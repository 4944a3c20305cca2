/* Timing rules of one .bin, applied record by record in file order.
 *
 * Times are u16 seconds relative to a bias plus u32 nanoseconds. Ordering is
 * checked per thread id only: records of different threads are written in
 * completion order (research §3.3). A backward step of more than half the
 * u16 range is taken as a wrap of the seconds and unwrapped from then on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "dumpi/format/fast.h"

#define NS_PER_S 1000000000ll
#define HALF_NS ((int64_t)DUMPI_WRAP_HALF * NS_PER_S)

/* The state of a clock (format/fast.h): its previous stop as a quick key
 * while the quick step may be tried, else in ns. */
typedef dumpi_clock_slow clock_state;

dumpi_timing *dumpi_timing_new(uint32_t cpu_bias, uint32_t wall_bias)
{
	dumpi_timing *t = hv_calloc(1, sizeof *t);
	if (t) t->bias[0] = cpu_bias, t->bias[1] = wall_bias, t->none[0] = t->none[1] = DUMPI_QUICK_OFF;
	return t;
}

void dumpi_timing_free(dumpi_timing *t)
{
	if (!t) return;
	free(t->threads);
	free(t->keys);
	free(t);
}

/* Thread ids are u16, so the table never exceeds 65536 entries. */
static dumpi_thread_clocks *thread_of(dumpi_timing *t, uint16_t id)
{
	if (id >= t->nthreads) {
		size_t old = t->nthreads, n = old, nk = old;
		if (!HV_GROW_UPTO(t->threads, n, (size_t)id + 1, 8, 65536)) return NULL;
		memset(t->threads + old, 0, (n - old) * sizeof *t->threads);
		/* the keys: as many (the limit is the need) */
		if (!HV_GROW_UPTO(t->keys, nk, n, n, n)) return NULL;
		for (size_t i = old; i < n; i++) t->keys[i][0] = t->keys[i][1] = DUMPI_QUICK_OFF;
		t->nthreads = n;
	}
	return &t->threads[id];
}

static int64_t ns_of(uint16_t sec, uint32_t wraps, uint32_t nsec)
{
	return ((int64_t)sec + 65536ll * wraps) * NS_PER_S + nsec;
}

typedef struct clk_ctx {
	hv_report *r;
	const char *file;
	const dumpi_record *rec;
	const char *clock;     /* "CPU" or "wall" */
	uint32_t bias;
	uint64_t block;        /* offset of this clock's 12-byte block */
	char path[64];
} clk_ctx;

static const char *path_of(clk_ctx *x) { return dumpi_record_path(x->path, sizeof x->path, x->rec->index); }

static double secs(int64_t ns) { return (double)ns / 1e9; }
/* Absolute time, bias added back, as dumpi2ascii prints it (exact digits). */
typedef struct tbuf { char s[32]; } tbuf;
static tbuf abs_time(const clk_ctx *x, int64_t ns)
{
	tbuf t;
	int64_t sec = ns / 1000000000ll, frac = ns % 1000000000ll;
	if (frac < 0) frac += 1000000000ll, sec--;
	snprintf(t.s, sizeof t.s, "%lld.%09lld", (long long)(sec + x->bias), (long long)frac);
	return t;
}

/* A step `from` -> `to` (ns, both unwrapped with the same wrap count).
 * Returns the adjusted `to` after a possible wrap. */
static int64_t step(clk_ctx *x, clock_state *cs, int64_t from, int64_t to, int order_rule, const char *what,
		    uint64_t at)
{
	int64_t d = to - from;
	if (d < -HALF_NS) {
		cs->wraps++;
		to += 65536ll * NS_PER_S;
		hv_eval(x->r, HV_R_DUMPI_TIME_WRAP, false);
		hv_emit(x->r, HV_R_DUMPI_TIME_WRAP, x->file, at, 6, path_of(x),
			"%s %s time %s goes back %.0f s (thread %u): taken as a wrap of the 16-bit seconds; add "
			"65536*%u s to this and later %s times of the thread",
			dumpi_function_name(x->rec->fn), x->clock, what, secs(-d), x->rec->thread, cs->wraps, x->clock);
		return to;
	}
	hv_eval(x->r, HV_R_DUMPI_TIME_WRAP, true);
	if (!hv_eval(x->r, order_rule, d >= 0)) {
		if (order_rule == HV_R_DUMPI_TIME_START_STOP)
			hv_emit(x->r, order_rule, x->file, at, 6, path_of(x),
				"%s record at 0x%llx: %s stop %s s is before its start %s s",
				dumpi_function_name(x->rec->fn), (unsigned long long)x->rec->offset, x->clock,
				abs_time(x, to).s, abs_time(x, from).s);
		else
			hv_emit(x->r, order_rule, x->file, at, 6, path_of(x),
				"%s record at 0x%llx (thread %u): %s start %s s is before the previous record of the "
				"thread stopped (%s s)",
				dumpi_function_name(x->rec->fn), (unsigned long long)x->rec->offset, x->rec->thread,
				x->clock, abs_time(x, to).s, abs_time(x, from).s);
	}
	if (!hv_eval(x->r, HV_R_DUMPI_TIME_SPAN_AMBIGUOUS, d < HALF_NS))
		hv_emit(x->r, HV_R_DUMPI_TIME_SPAN_AMBIGUOUS, x->file, at, 6, path_of(x),
			"%s %s time %s steps forward %.0f s (thread %u): seconds are stored modulo 65536, so times "
			"from here on are uncertain by 65536 s",
			dumpi_function_name(x->rec->fn), x->clock, what, secs(d), x->rec->thread);
	return to;
}

/* The common case (dumpi_clock_quick, format/fast.h) from decoded clocks. */
static inline bool quick_clock(uint64_t *last, const dumpi_clock *start, const dumpi_clock *stop)
{
	if (start->nsec >= NS_PER_S || stop->nsec >= NS_PER_S) return false;
	uint64_t a = ((uint64_t)start->sec << 32) | start->nsec, z = ((uint64_t)stop->sec << 32) | stop->nsec;
	if (a - *last >= DUMPI_KEY_SPAN || z - a >= DUMPI_KEY_SPAN) return false;
	*last = z;
	return true;
}

static inline void quick_counts(hv_report *r, uint64_t n)
{
	hv_eval_n(r, HV_R_DUMPI_TIME_NSEC_RANGE, n);
	hv_eval_n(r, HV_R_DUMPI_TIME_WRAP, 2 * n);
	hv_eval_n(r, HV_R_DUMPI_TIME_THREAD_ORDER, n);
	hv_eval_n(r, HV_R_DUMPI_TIME_START_STOP, n);
	hv_eval_n(r, HV_R_DUMPI_TIME_SPAN_AMBIGUOUS, 2 * n);
}

void dumpi_timing_end(dumpi_timing *t, hv_report *r)
{
	if (!t) return;
	quick_counts(r, t->quick);
	t->quick = 0;
}

static void one_clock(clk_ctx *x, uint64_t *quick, clock_state *cs, const dumpi_clock *start, const dumpi_clock *stop)
{
	bool ok = start->nsec < NS_PER_S && stop->nsec < NS_PER_S;
	if (!hv_eval(x->r, HV_R_DUMPI_TIME_NSEC_RANGE, ok)) {
		hv_emit(x->r, HV_R_DUMPI_TIME_NSEC_RANGE, x->file, x->block, 12, path_of(x),
			"%s record at 0x%llx: %s nanoseconds start %u / stop %u; each must be < 1000000000",
			dumpi_function_name(x->rec->fn), (unsigned long long)x->rec->offset, x->clock, start->nsec,
			stop->nsec);
		return; /* times of this clock are meaningless: do not order on them */
	}
	int64_t a = ns_of(start->sec, cs->wraps, start->nsec);
	if (cs->have) {
		/* the previous stop: a quick key holds its raw seconds (the wraps have not moved since) */
		int64_t last = *quick == DUMPI_QUICK_OFF ? cs->last
							 : ns_of((uint16_t)(*quick >> 32), cs->wraps, (uint32_t)*quick);
		a = step(x, cs, last, a, HV_R_DUMPI_TIME_THREAD_ORDER, "start", x->block);
	}
	int64_t b = ns_of(stop->sec, cs->wraps, stop->nsec);
	b = step(x, cs, a, b, HV_R_DUMPI_TIME_START_STOP, "stop", x->block + 6);
	cs->have = true;
	cs->last = b > a ? b : a;
	/* The quick step from here on while its key holds the stop: raw seconds
	 * (below 65536 once the wraps are taken off) and wraps few enough for
	 * ns_of's arithmetic; else this general step. */
	*quick = DUMPI_QUICK_OFF;
	int64_t rel = cs->last - 65536ll * NS_PER_S * (int64_t)cs->wraps;
	if (cs->wraps < (1u << 17) && rel >= 0 && rel / NS_PER_S < 65536)
		*quick = ((uint64_t)(rel / NS_PER_S) << 32) | (uint64_t)(rel % NS_PER_S);
}

/* What quick_clock did not take: a thread met for the first time, or a
 * clock to step through one_clock (cpu_done: the CPU clock was quick). */
static __attribute__((noinline)) void timing_slow(dumpi_timing *t, hv_report *r, const char *file,
						  const dumpi_record *rec, bool cpu_done)
{
	dumpi_thread_clocks *ts = rec->thread < t->nthreads ? &t->threads[rec->thread] : thread_of(t, rec->thread);
	if (!ts) return;
	uint64_t *keys = t->keys[rec->thread];
	/* not zeroed: path is built only for a diagnostic (path_of) */
	clk_ctx x;
	x.r = r, x.file = file, x.rec = rec;
	uint64_t at = rec->offset + 3 + ((rec->mask & DUMPI_MASK_THREAD) ? 2 : 0);
	if ((rec->mask & DUMPI_MASK_CPU) && !cpu_done) {
		x.clock = "CPU";
		x.bias = t->bias[0];
		x.block = at;
		one_clock(&x, &keys[0], &ts->slow[0], &rec->cpu_start, &rec->cpu_stop);
	}
	if (rec->mask & DUMPI_MASK_CPU) at += 12;
	if (rec->mask & DUMPI_MASK_WALL) {
		x.clock = "wall";
		x.bias = t->bias[1];
		x.block = at;
		one_clock(&x, &keys[1], &ts->slow[1], &rec->wall_start, &rec->wall_stop);
	}
}

/* The CPU clock first, then the wall clock: a clock quick_clock takes is
 * counted (dumpi_timing_end) and not handed to one_clock again; when the
 * CPU clock is not quick, neither clock is tried. */
void dumpi_timing_record(dumpi_timing *t, hv_report *r, const char *file, const dumpi_record *rec)
{
	if (rec->thread >= t->nthreads) {
		timing_slow(t, r, file, rec, false);
		return;
	}
	uint64_t *keys = t->keys[rec->thread];
	bool cpu_done = false;
	if (rec->mask & DUMPI_MASK_CPU) {
		if (!quick_clock(&keys[0], &rec->cpu_start, &rec->cpu_stop)) {
			timing_slow(t, r, file, rec, false);
			return;
		}
		t->quick++;
		cpu_done = true;
	}
	if (rec->mask & DUMPI_MASK_WALL) {
		if (!quick_clock(&keys[1], &rec->wall_start, &rec->wall_stop)) {
			timing_slow(t, r, file, rec, cpu_done);
			return;
		}
		t->quick++;
	}
}

void dumpi_timing_left(dumpi_timing *t, hv_report *r, const char *file, const dumpi_record *rec, int left)
{
	t->quick -= (unsigned)left; /* the hot loop counted 2 */
	timing_slow(t, r, file, rec, left == 1);
}

static inline void clock_at(const uint8_t *p, dumpi_clock *k)
{
	k->sec = hv_be16(p);
	k->nsec = hv_be32(p + 2);
}

void dumpi_hot_clocks(dumpi_hot *h, const uint8_t *clk, uint8_t mask, uint16_t thread)
{
	dumpi_timing *t = h->t;
	dumpi_record *rec = &h->rec;
	int left = dumpi_clocks_quick(t, thread, clk);
	if (!left) return;
	rec->mask = mask;
	rec->thread = thread;
	rec->perf_count = 0;
	clock_at(clk, &rec->cpu_start);
	clock_at(clk + 6, &rec->cpu_stop);
	clock_at(clk + 12, &rec->wall_start);
	clock_at(clk + 18, &rec->wall_stop);
	dumpi_timing_left(t, h->r, h->file, rec, left);
	h->keys = dumpi_timing_keys(t);
	h->nthreads = t->nthreads;
}
