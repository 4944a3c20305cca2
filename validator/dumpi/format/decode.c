/* The decoders of the hot path (format/fast.h): one a function id, made at
 * compile time from funcs.def (X-macros), that reads the function's fields
 * at constant offsets -- a 1-, 2-, 4- or 8-byte big-endian load each --
 * under one bounds check a record and one a counted field; a function with
 * strings, rows or version forks fails and takes the checked walk
 * (layout.c). Each is a small function of its own, called through
 * dumpi_decoders by id, compiled once here: inlined into a switch in each
 * of its two callers they took gcc -O2 ~25 s a file and clang with
 * ASan+UBSan ~18 s (150 s when forced inline). */
#include <stddef.h>
#include <stdint.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "dumpi/format/fast.h"

/* Each field's width in the record's shortest form (a counted field: its
 * count; a root-only field or a status: as if present). DUMPI_W_x for the
 * kinds the walk alone decodes (strings, rows, version forks) is 0: their
 * decoders fail before any use of it. */
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
		if (avail - k_ - 4u < c_ * (w) + ((size_t)MIN_ - kmin_) + 8u) return DUMPI_DEC_FAIL;                           \
		DUMPI_PUT_(c_);                                                                                       \
		k_ += 4u + (size_t)(c_ * (w));                                                                        \
	}
#define DUMPI_DEC_I DUMPI_COUNTED_(4u)
#define DUMPI_DEC_H DUMPI_COUNTED_(2u)
#define DUMPI_DEC_B DUMPI_COUNTED_(1u)
#define DUMPI_DEC_C DUMPI_COUNTED_(1u)
/* statuses: absent without the status bits (present, count 0, as the walk leaves them) */
#define DUMPI_DEC_S                                                                                                   \
	if (mask & DUMPI_MASK_STATUS) DUMPI_COUNTED_(out->status_len) else {                                             \
		DUMPI_PUT_(0);                                                                                        \
		kmin_ += 4;                                                                                           \
	}
/* what only the walk decodes */
#define DUMPI_DEC_D return DUMPI_DEC_FAIL;
#define DUMPI_DEC_E return DUMPI_DEC_FAIL;
#define DUMPI_DEC_J return DUMPI_DEC_FAIL;
#define DUMPI_DEC_x return DUMPI_DEC_FAIL;
#define DUMPI_DEC_y return DUMPI_DEC_FAIL;
#define DUMPI_DEC_A return DUMPI_DEC_FAIL;
#define DUMPI_DEC_a return DUMPI_DEC_FAIL;

/* Every field present again, no bad row (see dumpi_args.absent): out of
 * line, as it runs only after a record of the walk or of a function with
 * root-only fields (the decoders' call; the hot loop's after the record). */
__attribute__((noinline)) void dumpi_args_present(dumpi_args *out)
{
	for (unsigned i = 0; i < DUMPI_MAX_FIELDS; i++) out->f[i].present = true;
	out->bad_row = false;
	out->absent = false;
}

/* One decoder a function id (dumpi_decoder, format/fast.h), its body inline
 * in two functions: the decoder alone, and the hot loop's whole step of a
 * common record (dumpi_step: the decoder, then dumpi_step_tail), which keeps
 * the loop's registers out of the decoder's call and the record's stores
 * in one leaf function with its id a constant. */
#define DUMPI_F(k, n) DUMPI_DEC_##k
#define DUMPI_R(k, n)                                                                                                 \
	if (hr_ && ht_ && rank_ == root_) DUMPI_DEC_##k else {                                                      \
		out->f[fi_].present = false;                                                                          \
		fi_++;                                                                                                \
		kmin_ += DUMPI_W_##k;                                                                                 \
	}
#define DUMPI_NO_LAYOUT return DUMPI_DEC_FAIL;
#define DUMPI_FN(id, name, fields)                                                                                    \
	static inline __attribute__((always_inline)) const uint8_t *dumpi_body_##id(                                 \
		const uint8_t *q, size_t avail, uint64_t at, uint8_t mask, dumpi_args *out, const int STEP_)          \
	{                                                                                                             \
		enum { MIN_ = dumpi_min_##id, ROOTED_ = dumpi_rooted_##id };                                          \
		(void)q, (void)at, (void)mask;                                                                        \
		if (avail < (size_t)MIN_ + 8u) return DUMPI_DEC_FAIL;                                                 \
		size_t k_ = 0, kmin_ = 0;                                                                             \
		unsigned fi_ = 0;                                                                                     \
		uint32_t rank_ = 0, root_ = 0;                                                                        \
		bool hr_ = false, ht_ = false;                                                                        \
		if (ROOTED_) out->absent = true;                                                                      \
		else if (STEP_ == 0 && out->absent) dumpi_args_present(out);                                          \
		fields;                                                                                               \
		(void)rank_, (void)root_, (void)hr_, (void)ht_, (void)kmin_;                                          \
		out->n = (uint8_t)fi_;                                                                                \
		return q + k_;                                                                                        \
	}                                                                                                             \
	static const uint8_t *dumpi_dec_##id(const uint8_t *q, size_t avail, uint64_t at, uint8_t mask,          \
					     dumpi_args *out)                                                 \
	{                                                                                                             \
		return dumpi_body_##id(q, avail, at, mask, out, 0);                                                   \
	}                                                                                                             \
	static const uint8_t *dumpi_step_##id(dumpi_hot *h, const uint8_t *p, size_t avail, uint8_t mask)         \
	{                                                                                                             \
		if (dumpi_rooted_##id) return DUMPI_DEC_FAIL;                                                         \
		unsigned k = 27u + ((unsigned)(mask >> 5) & 2u);                                                      \
		const uint8_t *e = dumpi_body_##id(p + k, avail - k, dumpi_hot_pos(h, p) + k, mask, h->args, 1);     \
		if (e == DUMPI_DEC_FAIL) return e;                                                                    \
		return dumpi_step_tail(h, p, e, id, mask);                                                            \
	}
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN

/* No record has id 290 (DUMPI_ALL_FUNCTIONS, the footer's totals slot). */
static const uint8_t *dumpi_dec_none(const uint8_t *q, size_t avail, uint64_t at, uint8_t mask, dumpi_args *out)
{
	(void)q, (void)avail, (void)at, (void)mask, (void)out;
	return DUMPI_DEC_FAIL;
}
static const uint8_t *dumpi_step_none(dumpi_hot *h, const uint8_t *p, size_t avail, uint8_t mask)
{
	(void)h, (void)p, (void)avail, (void)mask;
	return DUMPI_DEC_FAIL;
}

dumpi_decoder *const dumpi_decoders[DUMPI_NFUNCS] = {
#define DUMPI_F(k, n)
#define DUMPI_R(k, n)
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) [id] = dumpi_dec_##id,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
	[DUMPI_ALL_FUNCTIONS] = dumpi_dec_none,
};

dumpi_step *const dumpi_steps[DUMPI_NFUNCS] = {
#define DUMPI_F(k, n)
#define DUMPI_R(k, n)
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) [id] = dumpi_step_##id,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
	[DUMPI_ALL_FUNCTIONS] = dumpi_step_none,
};
