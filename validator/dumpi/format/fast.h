/* The hot path of the record walk, inline where it runs: the common record
 * decoded straight from the read window by code made for its function at
 * compile time from funcs.def (decode.c, called through a table), and the
 * clock steps of the common record.
 * Everything rare -- a record that does not fit, perf counters, reserved
 * mask bits, a layout with strings or version forks, a clock that does not
 * step forward by less than the ambiguous span -- returns false here and
 * goes through the checked walk (records.c) or the general clock step
 * (time.c), which say why. Both ways give the same records and reports. */
#ifndef HV_DUMPI_FAST_H
#define HV_DUMPI_FAST_H

#include "dumpi/dumpi.h"

/* ---- the arguments, one decoder a function (format/decode.c) ----
 *
 * Each decoder reads its function's arguments from q[0..avail), q lying at
 * file offset `at`, into *out (present flags: see dumpi_args.absent) and
 * returns where they end (q + the bytes they span), or DUMPI_DEC_FAIL when the id has no decoder
 * here (the walk's layouts, ids that are no record) or the arguments do not
 * fit in avail: the walk then takes the record and says why. They are
 * compiled once, in decode.c, and called through this table: inline in each
 * caller they took gcc ~25 s a file. */
#define DUMPI_DEC_FAIL NULL
typedef const uint8_t *dumpi_decoder(const uint8_t *q, size_t avail, uint64_t at, uint8_t mask, dumpi_args *out);
/* By function id, every id below DUMPI_NFUNCS (a failing one where there
 * is no decoder). */
extern dumpi_decoder *const dumpi_decoders[DUMPI_NFUNCS];

/* ---- the record ---- */

/* The cursor of the hot loop, kept in registers between records: the view
 * ahead of the record at `pos` is [p, end) (both dumpi_ahead_none: none
 * known), and the
 * record there has index `index`. dumpi_ahead_load and _store move it from
 * and to the iterator around any other use of it. */
typedef struct dumpi_ahead {
	const uint8_t *p, *end;
	uint64_t pos, index;
} dumpi_ahead;

/* No view known: p and end both here, so that end - p is 0. */
static const uint8_t dumpi_ahead_none[1];

static inline __attribute__((always_inline)) void dumpi_ahead_load(dumpi_ahead *a, const dumpi_iter *it)
{
	bool known = it->ahead && it->ahead_pos == it->cur.pos;
	a->p = known ? it->ahead : dumpi_ahead_none;
	a->end = known ? it->ahead_end : dumpi_ahead_none;
	a->pos = it->cur.pos;
	a->index = it->next_index;
}

static inline __attribute__((always_inline)) void dumpi_ahead_store(const dumpi_ahead *a, dumpi_iter *it)
{
	it->ahead = a->p == dumpi_ahead_none ? NULL : a->p;
	it->ahead_end = a->end;
	it->ahead_pos = a->pos;
	it->cur.pos = a->pos;
	it->next_index = a->index;
}

/* The bytes before the first argument of a record with mask m when the
 * hot path takes it (both clocks, no perf counters, no reserved bits; the
 * thread and status bits as they come), else 0. */
static inline unsigned dumpi_common_prefix(uint8_t m)
{
	/* dumpi_step_of tests the same bits: change both */
	if ((m & (uint8_t)~(DUMPI_MASK_THREAD | DUMPI_MASK_STATUS)) != (DUMPI_MASK_CPU | DUMPI_MASK_WALL)) return 0;
	/* 27, or 29 with the thread id: bit 6 shifted to 2, no branch */
	return 27u + ((unsigned)(m >> 5) & 2u);
}

/* The common record at a->pos, decoded from the view ahead of it: no perf
 * counters, no reserved mask bits, both clocks. Fills rec but its clocks
 * and perf_count (the clocks stay in the bytes, at *clocks: CPU start,
 * stop, wall start, stop, 6 bytes each) and it->args, and moves the cursor
 * past it. False (nothing consumed) sends the record through
 * dumpi_iter_next. The id and mask are stored in rec before the decoder's
 * call and read back from the bytes after it, and the decoder returns where
 * the record ends: the loop keeps no value of its own across the call but
 * the cursor (a spill and a reload each otherwise). */
static inline __attribute__((always_inline)) bool dumpi_next_common(dumpi_ahead *a, dumpi_iter *it, dumpi_record *rec,
								    const uint8_t **clocks)
{
	const uint8_t *p = a->p;
	if ((size_t)(a->end - p) < 29u + 8u) return false;
	uint8_t mask = p[2];
	unsigned k = dumpi_common_prefix(mask);
	if (!k) return false;
	unsigned fn = hv_be16(p);
	if (fn >= DUMPI_NFUNCS) return false;
	rec->fn = fn;
	rec->mask = mask;
	const uint8_t *e = dumpi_decoders[fn](p + k, (size_t)(a->end - p) - k, a->pos + k, mask, &it->args);
	if (e == DUMPI_DEC_FAIL) return false;
	size_t len = (size_t)(e - p);
	bool threaded = p[2] & DUMPI_MASK_THREAD;
	rec->thread = threaded ? hv_be16(p + 3) : 0;
	*clocks = p + 3 + (threaded ? 2 : 0);
	rec->index = a->index++;
	rec->offset = a->pos;
	rec->length = len;
	it->args.bytes = p + k;
	it->args.bytes_at = a->pos + k;
	it->args.bytes_len = len - k;
	a->pos += len;
	a->p = e;
	return true;
}

/* ---- the clocks (time.c) ---- */

/* A time as one ordered key: the 6 stored bytes (u16 seconds, u32
 * nanoseconds) read big-endian, seconds above bit 32. A clock's previous
 * stop is kept as such a key relative to the thread's wraps (modulo 2^64),
 * so that the common step -- forward, by less than the ambiguous span -- is
 * two subtractions and compares with no wraps added; DUMPI_QUICK_OFF makes
 * every step fail them (a clock met for the first time, or wrapped too often
 * for the general step's arithmetic). */
#define DUMPI_KEY_SPAN ((uint64_t)DUMPI_WRAP_HALF << 32)
#define DUMPI_QUICK_OFF (1ull << 63)

typedef struct dumpi_clock_slow {
	bool have;
	uint32_t wraps;   /* 65536 s added to raw seconds from here on */
	int64_t last;     /* unwrapped stop of the previous record, ns, while quick is DUMPI_QUICK_OFF */
} dumpi_clock_slow;

typedef struct dumpi_thread_clocks {
	dumpi_clock_slow slow[2];
} dumpi_thread_clocks;

struct dumpi_timing {
	uint32_t bias[2];           /* CPU, wall */
	/* Clocks the quick step took: their evaluations, counted at the end.
	 * The hot loop adds 2 a common record at its end, and dumpi_timing_left
	 * takes off the clocks it steps. */
	uint64_t quick;
	uint64_t (*keys)[2];        /* by thread: CPU, wall: the previous stop's key, or DUMPI_QUICK_OFF */
	dumpi_thread_clocks *threads;
	size_t nthreads;
	/* Thread 0's keys before any thread is met: both DUMPI_QUICK_OFF, so
	 * that the hot loop's record of no thread id steps them without asking
	 * whether its thread was met (dumpi_timing_keys). No quick step moves
	 * them: every step from DUMPI_QUICK_OFF fails. */
	uint64_t none[2];
};

/* The keys by thread, row 0 there whatever the threads met. */
static inline uint64_t (*dumpi_timing_keys(dumpi_timing *t))[2]
{
	return t->nthreads ? t->keys : &t->none;
}

/* One clock's quick step from its 12 bytes (start, stop): false leaves it
 * to the general step, with nothing changed. */
static inline bool dumpi_clock_quick(uint64_t *last, const uint8_t *b)
{
	uint64_t a = hv_be64(b) >> 16, z = hv_be64(b + 6) >> 16;
	if ((uint32_t)a >= 1000000000u || (uint32_t)z >= 1000000000u) return false;
	if (a - *last >= DUMPI_KEY_SPAN || z - a >= DUMPI_KEY_SPAN) return false;
	*last = z;
	return true;
}

/* A record's clocks, CPU then wall, from the 24 bytes at b: 0 both stepped
 * quick, 1 the CPU clock did and the wall clock is left, 2 both are left
 * (the thread met for the first time, or the CPU clock not quick). Counted
 * by the caller (struct dumpi_timing's quick). */
static inline int dumpi_clocks_quick(dumpi_timing *t, uint16_t thread, const uint8_t *b)
{
	if (thread >= t->nthreads) return 2;
	uint64_t *k = t->keys[thread];
	if (!dumpi_clock_quick(&k[0], b)) return 2;
	if (!dumpi_clock_quick(&k[1], b + 12)) return 1;
	return 0;
}

/* Both clocks' quick steps at once, for the hot loop: the four times' keys,
 * their nanoseconds against 1e9 and the four steps' differences or-ed
 * together under one compare with the span (a power of two: every one is
 * below it exactly when their or is). True when both step quick, with k[0..1]
 * moved to the stops; false changes nothing, and dumpi_clocks_quick then
 * says which clock is left. */
static inline bool dumpi_clocks_both(uint64_t *k, const uint8_t *b)
{
	/* the CPU clock's differences or-ed before the wall clock's times are
	 * read: fewer values live at once, so the step needs no register of
	 * the caller's to keep */
	uint64_t a0 = hv_be64(b) >> 16, z0 = hv_be64(b + 6) >> 16;
	if ((uint32_t)a0 >= 1000000000u || (uint32_t)z0 >= 1000000000u) return false;
	uint64_t d = (a0 - k[0]) | (z0 - a0);
	uint64_t a1 = hv_be64(b + 12) >> 16, z1 = hv_be64(b + 18) >> 16;
	if ((uint32_t)a1 >= 1000000000u || (uint32_t)z1 >= 1000000000u) return false;
	if ((d | (a1 - k[1]) | (z1 - a1)) >= DUMPI_KEY_SPAN) return false;
	k[0] = z0;
	k[1] = z1;
	return true;
}
/* What dumpi_clocks_quick left (`left` as it returns), with rec's clocks
 * filled from the bytes. */
void dumpi_timing_left(dumpi_timing *t, hv_report *r, const char *file, const dumpi_record *rec, int left);

/* ---- the hot loop's step (stream.c) ----
 *
 * The common record -- its bytes in the view, no perf counters, no reserved
 * mask bits, both clocks -- taken whole by one function of its id
 * (dumpi_steps, decode.c): its arguments decoded, the record's index,
 * offset and id filled -- what the layer reads; its mask, thread, clocks
 * and perf_count only when a clock takes the general step, which reports
 * them (the clocks stay in the bytes), and its length never -- both clocks
 * stepped, its function counted and the record handed to the layer, in a
 * function whose id is a constant; the loop that calls it keeps only its
 * cursor. A function with root-only fields (MPI_Gather, MPI_Scatter and
 * their v forms) sets its present flags again after the hand-off. */
typedef struct dumpi_hot {
	dumpi_record rec;           /* the record taken; rec.index is the previous one's before it */
	uint64_t (*keys)[2];        /* dumpi_timing_keys: by thread, row 0 always there */
	size_t nthreads;            /* rows of keys for a record with a thread id */
	uint64_t delta;             /* file offset of a byte of the view minus its address */
	dumpi_timing *t;            /* for what the quick steps leave (dumpi_hot_clocks) */
	hv_report *r;
	const char *file;
	const dumpi_layer *layer;   /* where the record goes next (dumpi_layer_none: nowhere) */
	/* Where the record a step took ends: a step that takes its record
	 * moves it past the record, one that fails leaves it alone, so that the
	 * step's last act can be the layer's call, a jump with no frame of its
	 * own to keep (the loop compares it with its cursor). */
	const uint8_t *next;
	/* The arguments of the record a step took (the walk's records have
	 * the iterator's), and the records the steps took by function id: in
	 * the struct, at a constant offset from h, not through a pointer
	 * loaded at every record. */
	dumpi_args args;
	uint64_t records[DUMPI_NFUNCS];
} dumpi_hot;

static inline uint64_t dumpi_hot_pos(const dumpi_hot *h, const uint8_t *p) { return (uint64_t)(uintptr_t)p + h->delta; }

/* The record at p, the view up to end (at least 37 bytes), with mask a
 * common one (dumpi_common_prefix): taken, h->next set to where it ends,
 * or not (nothing changed, h->next left at p) to send it through
 * dumpi_iter_next. Two a function id, one for records with no thread id
 * and one for records with one, each with the bytes before the arguments
 * a constant (27, 29): dumpi_steps[dumpi_step_of(p)]. */
typedef void dumpi_step(dumpi_hot *h, const uint8_t *p, const uint8_t *end);
#define DUMPI_NSTEPS (4u * DUMPI_NFUNCS)
extern dumpi_step *const dumpi_steps[DUMPI_NSTEPS];

/* Where the record at p finds its step in dumpi_steps: 4 * id + 2 * (perf
 * bit) + (thread bit) when the rest of its mask is as dumpi_common_prefix
 * wants it and the id is below DUMPI_NFUNCS, else some value >=
 * DUMPI_NSTEPS (a record with perf counters finds a step that takes
 * nothing). The record's first 3 bytes, id and mask, as one big-endian
 * load; the CPU and wall bits flipped to 0 and the status bits dropped;
 * rotated so that the thread and perf bits come below the id and the other
 * mask bits, which must be 0, above it: one compare tests them and the id
 * (the loop's test of every record). */
static inline uint32_t dumpi_step_of(const uint8_t *p)
{
	uint32_t x = (hv_be32(p) ^ (uint32_t)(DUMPI_MASK_CPU | DUMPI_MASK_WALL) << 8) &
		     (0xffff0000u | (uint32_t)(uint8_t)~DUMPI_MASK_STATUS << 8);
	return (x >> 14) | (x << 18);
}

/* What dumpi_clocks_both does not take (a thread met first, a clock that
 * does not step quick): the clocks one at a time, through the general step
 * for what is left, with h's keys and threads reloaded (time.c); the
 * record's mask, thread and clocks are filled for its reports then. */
void dumpi_hot_clocks(dumpi_hot *h, const uint8_t *clk, uint8_t mask, uint16_t thread);
/* dumpi_hot_clocks for the record the step took (its bytes at
 * h->rec.offset, which give its mask, thread and clocks again: the step
 * keeps fewer values live), then the record handed to the layer (decode.c). */
void dumpi_hot_clocks_pass(dumpi_hot *h);
/* Every field present again, no bad row, args->absent false (decode.c):
 * the steps of functions with no root-only field leave present flags
 * alone, so whatever may clear one calls this after its record has been
 * handed on: the loop after a record of the walk, the step of a function
 * with root-only fields after its own. */
void dumpi_args_present(dumpi_args *args);

/* The step after the arguments (decode.c), args ending at e: the record
 * filled and counted, its clocks stepped, h->next moved to e, and the
 * record handed to the layer (h->layer) last, as a tail call (rooted, a
 * function with root-only fields: then every field made present again). */
static inline __attribute__((always_inline)) void dumpi_step_tail(dumpi_hot *h, const uint8_t *p,
									   const uint8_t *e, unsigned fn, bool threaded,
									   bool rooted)
{
	/* the arguments' bytes, from the first (dumpi_arg_at counts from it):
	 * their offset is the one the decoder was given */
	const uint8_t *q = p + (threaded ? 29u : 27u);
	uint64_t at = dumpi_hot_pos(h, q);
	dumpi_record *rec = &h->rec;
	rec->index++;
	rec->offset = at - (threaded ? 29u : 27u);
	rec->fn = fn;
	dumpi_args *a = &h->args;
	a->bytes = q;
	a->bytes_at = at;
	a->bytes_len = (size_t)(e - q);
	h->records[fn]++;
	h->next = e;
	/* a record of no thread id is thread 0, whose keys are always there:
	 * only a thread id is compared with the threads met */
	bool quick;
	if (threaded) {
		uint16_t thread = hv_be16(p + 3);
		quick = thread < h->nthreads && dumpi_clocks_both(h->keys[thread], p + 5);
	} else {
		quick = dumpi_clocks_both(h->keys[0], p + 3);
	}
	/* both ways end in a tail call, so the step keeps no register of its
	 * own across a call and needs no frame */
	if (!quick) {
		dumpi_hot_clocks_pass(h);
	} else {
		/* the hand-off: fn is this step's constant, so this call site
		 * has the one target of its function's path; the step's last
		 * act, so the path returns straight to the loop */
		const dumpi_layer *L = h->layer;
		L->paths[fn](L->m, rec, a);
	}
	/* a function with root-only fields: its decoder cleared the present
	 * flags of those a non-root lacks, which the next step (that sets
	 * none) must find set again */
	if (rooted) dumpi_args_present(a);
}

#endif
