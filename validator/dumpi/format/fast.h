/* The hot path of the record walk, inline where it runs: the common record
 * decoded straight from the read window by code made for its function at
 * compile time from funcs.def, and the clock steps of the common record.
 * Everything rare -- a record that does not fit, perf counters, reserved
 * mask bits, a layout with strings or version forks, a clock that does not
 * step forward by less than the ambiguous span -- returns false here and
 * goes through the checked walk (records.c) or the general clock step
 * (time.c), which say why. Both ways give the same records and reports. */
#ifndef HV_DUMPI_FAST_H
#define HV_DUMPI_FAST_H

#include "dumpi/dumpi.h"

/* ---- the arguments, one decoder a function ----
 *
 * Each field's width in the record's shortest form (a counted field: its
 * count; a root-only field or a status: as if present). DUMPI_W_x for the
 * kinds the walk alone decodes (strings, rows, version forks) is 0: their
 * decoders return false before any use of it. */
enum {
	DUMPI_W_b = 1, DUMPI_W_h = 2, DUMPI_W_i = 4, DUMPI_W_q = 8, DUMPI_W_r = 4, DUMPI_W_t = 4,
	DUMPI_W_I = 4, DUMPI_W_H = 4, DUMPI_W_B = 4, DUMPI_W_C = 4, DUMPI_W_S = 4,
	DUMPI_W_D = 0, DUMPI_W_E = 0, DUMPI_W_J = 0, DUMPI_W_x = 0, DUMPI_W_y = 0, DUMPI_W_A = 0, DUMPI_W_a = 0,
};

/* Per function id: dumpi_min_ID, the bytes of its shortest arguments, and
 * dumpi_rooted_ID, its root-only fields. */
enum {
#define DUMPI_F(k, n) + DUMPI_W_##k
#define DUMPI_R(k, n) + DUMPI_W_##k
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) dumpi_min_##id = 0 fields,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#define DUMPI_F(k, n)
#define DUMPI_R(k, n) + 1
#undef DUMPI_FN
#define DUMPI_FN(id, name, fields) dumpi_rooted_##id = 0 fields,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
};

/* The fields a function's decoder reads, in order. k_: the offset of the
 * field from the first argument; kmin_: the same in the shortest form (the
 * record holds at least dumpi_min_ID - kmin_ + 8 more bytes from k_ on: the
 * check at the start and at each counted field make it so, which is what
 * lets a fixed-width field be read with no check of its own, by a load of
 * 8 bytes); fi_: the field's index. All three are constants where no
 * counted field came before, and the compiler folds them. */
#define DUMPI_PUT_(val)                                                                                               \
	do {                                                                                                          \
		out->f[fi_].v = (val);                                                                                \
		out->f[fi_].at = at + k_;                                                                             \
		if (ROOTED_) out->f[fi_].present = true;                                                              \
		fi_++;                                                                                                \
	} while (0)
#define DUMPI_DEC_b { DUMPI_PUT_(q[k_]); k_ += 1; kmin_ += 1; }
#define DUMPI_DEC_h { DUMPI_PUT_(hv_be16(q + k_)); k_ += 2; kmin_ += 2; }
#define DUMPI_DEC_i { DUMPI_PUT_(hv_be32(q + k_)); k_ += 4; kmin_ += 4; }
#define DUMPI_DEC_q { DUMPI_PUT_(hv_be64(q + k_)); k_ += 8; kmin_ += 8; }
#define DUMPI_DEC_r { rank_ = hv_be32(q + k_), hr_ = true; DUMPI_PUT_(rank_); k_ += 4; kmin_ += 4; }
#define DUMPI_DEC_t { root_ = hv_be32(q + k_), ht_ = true; DUMPI_PUT_(root_); k_ += 4; kmin_ += 4; }
/* u32 count, then count items of w bytes: count < 2^32 and w <= 14, so
 * nothing here overflows; avail - k_ >= 12 by the invariant above. */
#define DUMPI_COUNTED_(w)                                                                                             \
	{                                                                                                             \
		uint64_t c_ = hv_be32(q + k_);                                                                     \
		kmin_ += 4;                                                                                           \
		if (avail - k_ - 4u < c_ * (w) + ((size_t)MIN_ - kmin_) + 8u) return false;                           \
		DUMPI_PUT_(c_);                                                                                       \
		k_ += 4u + (size_t)(c_ * (w));                                                                        \
	}
#define DUMPI_DEC_I DUMPI_COUNTED_(4u)
#define DUMPI_DEC_H DUMPI_COUNTED_(2u)
#define DUMPI_DEC_B DUMPI_COUNTED_(1u)
#define DUMPI_DEC_C DUMPI_COUNTED_(1u)
/* statuses: absent without the status bits (present, count 0, as the walk leaves them) */
#define DUMPI_DEC_S                                                                                                   \
	if (mask & DUMPI_MASK_STATUS) DUMPI_COUNTED_(status_len) else {                                             \
		DUMPI_PUT_(0);                                                                                        \
		kmin_ += 4;                                                                                           \
	}
/* what only the walk decodes */
#define DUMPI_DEC_D return false;
#define DUMPI_DEC_E return false;
#define DUMPI_DEC_J return false;
#define DUMPI_DEC_x return false;
#define DUMPI_DEC_y return false;
#define DUMPI_DEC_A return false;
#define DUMPI_DEC_a return false;

/* Every field present again, no bad row (see dumpi_iter.absent). */
static inline void dumpi_args_present(dumpi_args *out)
{
	for (unsigned i = 0; i < DUMPI_MAX_FIELDS; i++) out->f[i].present = true;
	out->bad_row = false;
}

/* How the decoders are compiled. Optimised, each function's decoder is
 * inlined into dumpi_args_fast's switch and that switch into the hot loop.
 * Under the sanitizers and in the fuzzing builds every decoder is a function
 * of its own, called from the switch: the same code, but the instrumented
 * compiler then sees ~290 small functions rather than one function of ~290
 * inlined cases in each caller, which took it minutes a file (clang with
 * ASan+UBSan: 150 s for records.c, 18 s so). Optimised, the decoders are
 * left to the compiler to inline and the switch is inlined into its caller:
 * forcing the decoders inline too saved 2% of the instructions on the
 * LAMMPS-shaped trace and doubled gcc's time on each of the two files
 * (25 s to 47 s). */
#if defined(FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) || defined(__SANITIZE_ADDRESS__)
#define DUMPI_DEC_OUTLINE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define DUMPI_DEC_OUTLINE 1
#endif
#endif
#ifdef DUMPI_DEC_OUTLINE
#define DUMPI_DEC_INLINE static __attribute__((noinline, unused))
#define DUMPI_ARGS_INLINE static __attribute__((noinline, unused))
#else
#define DUMPI_DEC_INLINE static inline
#define DUMPI_ARGS_INLINE static inline __attribute__((always_inline))
#endif

/* One decoder a function id: its arguments from q[0..avail), q lying at
 * file offset `at`, into *out (present flags: see dumpi_iter.absent); the
 * bytes they span to *used. False when the id has no decoder here (the
 * walk's layouts, ids that are no record) or the arguments do not fit in
 * avail: the walk then takes the record and says why. */
#define DUMPI_F(k, n) DUMPI_DEC_##k
#define DUMPI_R(k, n)                                                                                                 \
	if (hr_ && ht_ && rank_ == root_) DUMPI_DEC_##k else {                                                      \
		out->f[fi_].present = false;                                                                          \
		fi_++;                                                                                                \
		kmin_ += DUMPI_W_##k;                                                                                 \
	}
#define DUMPI_NO_LAYOUT return false;
#define DUMPI_FN(id, name, fields)                                                                                    \
	DUMPI_DEC_INLINE bool dumpi_dec_##id(const uint8_t *q, size_t avail, uint64_t at, uint8_t mask,  \
							    unsigned status_len, dumpi_args *out, bool *absent,   \
							    size_t *used)                                         \
	{                                                                                                             \
		enum { MIN_ = dumpi_min_##id, ROOTED_ = dumpi_rooted_##id };                                          \
		(void)q, (void)at, (void)mask, (void)status_len;                                                      \
		if (avail < (size_t)MIN_ + 8u) return false;                                                          \
		size_t k_ = 0, kmin_ = 0;                                                                             \
		unsigned fi_ = 0;                                                                                     \
		uint32_t rank_ = 0, root_ = 0;                                                                        \
		bool hr_ = false, ht_ = false;                                                                        \
		if (ROOTED_) *absent = true;                                                                          \
		else if (*absent) dumpi_args_present(out), *absent = false;                                           \
		fields;                                                                                               \
		(void)rank_, (void)root_, (void)hr_, (void)ht_, (void)kmin_;                                          \
		out->n = (uint8_t)fi_;                                                                                \
		*used = k_;                                                                                           \
		return true;                                                                                          \
	}
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN

/* The arguments of function `fn` from q[0..end - q): its decoder's. */
DUMPI_ARGS_INLINE bool dumpi_args_fast(unsigned fn, const uint8_t *q, const uint8_t *end, uint64_t at,
						     uint8_t mask, unsigned status_len, dumpi_args *out,
						     bool *absent, size_t *used)
{
	size_t avail = (size_t)(end - q);
	switch (fn) {
#define DUMPI_F(k, n)
#define DUMPI_R(k, n)
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields)                                                                                    \
	case id: return dumpi_dec_##id(q, avail, at, mask, status_len, out, absent, used);
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
	default: return false;
	}
}

/* ---- the record ---- */

/* The cursor of the hot loop, kept in registers between records: the view
 * ahead of the record at `pos` is [p, end) (both dumpi_ahead_none: none
 * known), and the
 * record there has index `index`. dumpi_ahead_load and _store move it from
 * and to the iterator around any other use of it. */
typedef struct dumpi_ahead {
	const uint8_t *p, *end;
	uint64_t pos, index;
	unsigned status_len; /* the iterator's, and its absent flag */
	bool absent;
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
	a->status_len = it->status_len;
	a->absent = it->absent;
}

static inline __attribute__((always_inline)) void dumpi_ahead_store(const dumpi_ahead *a, dumpi_iter *it)
{
	it->ahead = a->p == dumpi_ahead_none ? NULL : a->p;
	it->ahead_end = a->end;
	it->ahead_pos = a->pos;
	it->cur.pos = a->pos;
	it->next_index = a->index;
	it->absent = a->absent;
}

/* The bytes before the first argument of a record with mask m when the
 * hot path takes it (both clocks, no perf counters, no reserved bits; the
 * thread and status bits as they come), else 0. */
static inline unsigned dumpi_common_prefix(uint8_t m)
{
	if ((m & (uint8_t)~(DUMPI_MASK_THREAD | DUMPI_MASK_STATUS)) != (DUMPI_MASK_CPU | DUMPI_MASK_WALL)) return 0;
	return (m & DUMPI_MASK_THREAD) ? 29u : 27u;
}

/* The common record at a->pos, decoded from the view ahead of it: no perf
 * counters, no reserved mask bits, both clocks. Fills rec but its clocks
 * and perf_count (the clocks stay in the bytes, at *clocks: CPU start,
 * stop, wall start, stop, 6 bytes each) and it->args, and moves the cursor
 * past it. False (nothing consumed) sends the record through
 * dumpi_iter_next. */
static inline __attribute__((always_inline)) bool dumpi_next_common(dumpi_ahead *a, dumpi_iter *it, dumpi_record *rec,
								    const uint8_t **clocks)
{
	const uint8_t *p = a->p;
	if ((size_t)(a->end - p) < 29u + 8u) return false;
	uint8_t mask = p[2];
	unsigned k = dumpi_common_prefix(mask);
	if (!k) return false;
	unsigned fn = hv_be16(p);
	size_t used;
	bool absent = a->absent;
	bool ok = dumpi_args_fast(fn, p + k, a->end, a->pos + k, mask, a->status_len, &it->args, &absent, &used);
	a->absent = absent;
	if (!ok) return false;
	rec->thread = (mask & DUMPI_MASK_THREAD) ? hv_be16(p + 3) : 0;
	*clocks = p + k - 24u;
	size_t len = k + used;
	rec->index = a->index++;
	rec->offset = a->pos;
	rec->fn = fn;
	rec->mask = mask;
	rec->length = len;
	it->args.bytes = p;
	it->args.bytes_at = a->pos;
	it->args.bytes_len = len;
	a->pos += len;
	a->p = p + len;
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
};

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
/* What dumpi_clocks_quick left (`left` as it returns), with rec's clocks
 * filled from the bytes. */
void dumpi_timing_left(dumpi_timing *t, hv_report *r, const char *file, const dumpi_record *rec, int left);

#endif
