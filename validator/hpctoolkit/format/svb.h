/* The sparse value block walker shared by profile.db (Profile-Major blocks:
 * {Val} = u16 metricId + f64, {Idx} = u32 ctxId + u64 startIndex) and cct.db
 * (Context-Major blocks: {Val} = u32 profIndex + f64, {Idx} = u16 metricId +
 * u64 startIndex). The two layouts differ only in field widths and names, so
 * one walker, driven by a descriptor naming each file's rule IDs, checks both.
 *
 * Blocks are streamed through two windows (values and indices), so a block
 * of any size costs a bounded amount of memory. */
#ifndef HV_HPCTK_SVB_H
#define HV_HPCTK_SVB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/report.h"
#include "ranges.h"

typedef struct hpctk_svb_desc {
	const char *file;                   /* "profile.db" */
	const char *owner;                  /* "profile" or "ctx": path component of one block's owner */
	unsigned val_size, idx_size;        /* 10 / 12 (profile.db), 12 / 10 (cct.db) */
	unsigned val_key_size, idx_key_size;/* 2 / 4, 4 / 2 */
	unsigned idx_count_size;            /* width of nCtxs (4) / nMetrics (2) at 0x10 */
	const char *val_key, *idx_key;      /* "metricId", "ctxId" / "profIndex", "metricId" */
	const char *idx_ptr, *idx_count;    /* "pCtxIndices", "nCtxs" / "pMetricIndices", "nMetrics" */
	int r_values_contained, r_values_aligned, r_indices_contained, r_indices_aligned;
	int r_outside, r_order, r_contiguous, r_overlap;
	int r_idx_increasing, r_start_first_zero, r_start_in_range, r_start_nondecreasing;
	int r_val_increasing, r_val_key_nonzero; /* r_val_key_nonzero < 0: no such rule */
	int r_value_nonzero, r_value_finite;
} hpctk_svb_desc;

/* The transpose digest of a set of (profile, metric, context, value)
 * entries: a count and a sum of one hash per entry, so it does not depend
 * on the order the entries are visited in, and the digests of profile.db
 * and cct.db (computed separately, possibly in parallel) are compared at the
 * end. One digest per context. */
typedef struct hpctk_digest {
	uint64_t n, h;
} hpctk_digest;

/* The hash of one value: runs for every value of both files. `key` is
 * profIndex << 16 | metricId (48 bits). The digests are only ever compared
 * within one run (profile.db's against cct.db's), so a build may use
 * either form below; both are sums' terms that change with every bit of
 * the key and of the value. */
#define HPCTK_HASH_KEY 0x9e3779b97f4a7c15ull

/* Two 64-bit products and two shifts, for targets where a 64x64->128-bit
 * multiply is a library call (wasm32: __multi3) or four 32-bit products:
 * the web page's build, where the native form cost about twenty
 * instructions a value. For one key, a bijection of the value's bits (an
 * odd multiplier, then an invertible mix); the key enters both the
 * multiplier (all 48 bits: shifted up, made odd) and the sum, so a value
 * whose product is 0 still hashes differently under every key. */
static inline uint64_t hpctk_value_hash_portable(uint64_t xkey, uint64_t bits)
{
	uint64_t t = (bits ^ 0x5851f42d4c957f2dull) * (xkey << 1 | 1) + xkey;
	t ^= t >> 32;
	t *= 0xd6e8feb86659fd93ull;
	return t ^ t >> 32;
}

/* One 64x64->128-bit multiply, its halves folded, where the target has it
 * (x86_64, aarch64: one instruction, written exactly as it was measured);
 * the high bits of the constant keep the second factor non-zero. (The low
 * half is written as its own 64-bit product: gcc 12 sends a folded __int128
 * through the stack in the value loop, and the extra imul is cheaper than
 * that.) */
#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
static inline uint64_t hpctk_value_hash_k(uint64_t xkey, uint64_t bits)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t a = bits ^ 0x5851f42d4c957f2dull;
	uint64_t hi = (uint64_t)(((u128)a * xkey) >> 64);
	return (a * xkey) ^ hi;
}
#else
static inline uint64_t hpctk_value_hash_k(uint64_t xkey, uint64_t bits) { return hpctk_value_hash_portable(xkey, bits); }
#endif

/* `xkey` above is key ^ HPCTK_HASH_KEY, so loops can fold the constant in. */
static inline uint64_t hpctk_value_hash(uint64_t key, uint64_t bits)
{
	return hpctk_value_hash_k(key ^ HPCTK_HASH_KEY, bits);
}

/* The reject tables of hpctk_svb_fast (one byte per 16-bit key) are
 * followed by this many readable bytes: the wide chunk check reads a
 * 4-byte word at each key and keeps its low byte. */
#define HPCTK_REJECT_PAD 8

/* Cross-file facts the value loop checks itself, so that a run of values
 * costs no call per value: a value whose checks all pass is handled here,
 * and only a window chunk holding a value that would fail some rule goes
 * value by value through the visitor's `value` (which then evaluates,
 * reports and digests exactly as for every value). */
typedef struct hpctk_svb_fast {
	int r_key;                 /* rule evaluated once per value on its key; < 0: none */
	const uint8_t *key_reject; /* that rule: fails where this table of 65536 bytes (one per key, then
				    * HPCTK_REJECT_PAD more) is not 0, or else */
	uint32_t key_limit;        /* the key is below this */
	hpctk_digest *dig;         /* per context from dig_base, NULL: no digest */
	uint32_t dig_base, ndig;   /* contexts outside [dig_base, dig_base + ndig) are not digested */
	/* Index entries (idx_fast): the visitor's `index` is called for the
	 * first entry of a block when idx_first, and for entries whose key is
	 * at or above idx_limit or has no bit in idx_allow (idx_allow_n bits;
	 * NULL: no such check); for the others it would only have evaluated
	 * the rules r_idx[] (< 0: none), which are counted here instead. */
	bool idx_fast, idx_first;
	int r_idx[2];
	uint64_t idx_limit;
	const uint8_t *idx_allow;
	uint64_t idx_allow_n;
	/* Every clean chunk's raw {Val} entries (the value checkers, values.h),
	 * so values the fast path takes are seen too: `key` is the run's {Idx}
	 * key (profile.db: the context; cct.db: the metric). NULL: none. */
	void (*run)(void *arg, uint32_t owner, bool summary, uint32_t key, const uint8_t *vals, uint64_t cnt,
		    uint64_t off0);
	/* After each block: `whole` when every value of it was visited. */
	void (*block_end)(void *arg, uint32_t owner, bool whole);
	void *run_arg;
	bool run_summary;
} hpctk_svb_fast;

/* Called for the data of a block, for the cross-file checks. `owner` is the
 * block's profile or context index, `off` the file offset of the entry.
 * With `fast` NULL, `value` is called for every value; else only for the
 * values of a chunk that fails one of the checks (see hpctk_svb_fast). */
typedef struct hpctk_svb_visitor {
	void *arg;
	void (*index)(void *arg, uint32_t owner, uint32_t idx_key, uint64_t off);
	void (*value)(void *arg, uint32_t owner, uint32_t idx_key, uint32_t val_key, uint64_t bits, uint64_t off);
	const hpctk_svb_fast *fast;
} hpctk_svb_visitor;

typedef struct hpctk_svb_env {
	const hpctk_svb_desc *d;
	hv_blob *b;
	hv_report *r;
	hv_window wv, wi;
	bool windows_ok;
	uint64_t body_end;                 /* end of the bytes blocks may use (footer excluded) */
	uint64_t forbid_p[3], forbid_sz[3];/* file header and the sections: blocks stay outside */
	unsigned nforbid;
	unsigned val_align, idx_align;
	const hpctk_svb_visitor *vis;      /* may be NULL */
	hpctk_ranges planes;               /* for the overlap sweep */
	bool complete;                     /* every value of every block was attributed and visited */
	uint32_t first_owner, n_owners;
	uint8_t *skip;                     /* per owner: values not walked (unreadable layout, overlap) */
	bool wide;                         /* chunks of 8 values or more through the AVX-512 check */
	const uint8_t *kb_for;             /* the reject table keybits was made from (NULL: none yet) */
	bool kb_ok;                        /* keybits holds it (every allowed key below 1024) */
	uint64_t keybits[16];
} hpctk_svb_env;

typedef struct hpctk_svb_block {
	uint32_t owner;
	uint64_t at;                       /* file offset of the 0x20-byte block header */
	uint64_t nvalues, pvalues, nidx, pidx;
} hpctk_svb_block;

/* Decode the 0x20-byte header of a block at `p` (a {PI} or {CI} entry). */
hpctk_svb_block hpctk_svb_decode(const hpctk_svb_desc *d, const uint8_t *p, uint32_t owner, uint64_t at);

/* Owners first_owner .. first_owner + n_owners - 1 (n_owners is bounded by
 * the {PI}/{CI} array, which lies in the file). */
bool hpctk_svb_env_init(hpctk_svb_env *e, const hpctk_svb_desc *d, hv_blob *b, hv_report *r, uint64_t body_end,
			uint32_t first_owner, uint32_t n_owners);
void hpctk_svb_env_forbid(hpctk_svb_env *e, uint64_t p, uint64_t sz);
void hpctk_svb_env_free(hpctk_svb_env *e);
/* An env for phase 3 of a range of owners (a unit of work): `src` after
 * phases 1 and 2, shared read-only (its skip bitmap), with its own windows,
 * report and completeness. False when out of memory. Free with
 * hpctk_svb_env_unfork. */
bool hpctk_svb_env_fork(hpctk_svb_env *dst, const hpctk_svb_env *src, hv_report *r);
void hpctk_svb_env_unfork(hpctk_svb_env *e);

/* A unit of work over a range of one file's blocks (profile.db's
 * profiles, cct.db's contexts): a fork of the prepared walk's environment
 * reporting into r, with visitor `vis` (NULL: none), and a window of its
 * own over the file for the blocks' headers. begin: false when the range
 * cannot be walked (out of memory, or the prepared walk unusable:
 * `prepared_ok`); end: whether every value of the range was visited
 * (walked as far as begin allowed), and the range's resources freed. */
typedef struct hpctk_svb_range {
	hpctk_svb_env e;
	hv_window w;
	bool w_ok, ok;
} hpctk_svb_range;
bool hpctk_svb_range_begin(hpctk_svb_range *rg, const hpctk_svb_env *prepared, bool prepared_ok, hv_blob *b,
			   hv_report *r, const hpctk_svb_visitor *vis);
bool hpctk_svb_range_end(hpctk_svb_range *rg);

/* Three phases, so that the value data is walked at most once however the
 * blocks point: (1) hpctk_svb_layout for every block (pointers, containment,
 * the plane); (2) hpctk_svb_overlaps (planes of different owners sharing
 * bytes, found by one sort and sweep; an overlapping block is not walked);
 * (3) hpctk_svb_values for every block. Phase 3 clears e->complete when some
 * values could not be attributed or were not walked (so a transpose
 * comparison would be unfair). */
void hpctk_svb_layout(hpctk_svb_env *e, const hpctk_svb_block *blk);
void hpctk_svb_overlaps(hpctk_svb_env *e);
void hpctk_svb_values(hpctk_svb_env *e, const hpctk_svb_block *blk);

/* The value loop's check of one chunk of a run (svb.c): true
 * when every value passes every per-value check; the last key in *prev
 * (the key before the chunk on entry, -1 at a profile.db run's start, 0 at
 * a cct.db run's), the sum of the values' digest hashes in *hsum. `cct`:
 * cct.db's layout (key limit `limit`), else profile.db's (table `reject`).
 * The narrow one is what the loop inlines; it is exported for the test
 * that compares the two. The wide one exists where HPCTK_SVB_WIDE is 1 and
 * may only be called when hv_simd_avx512() (core/simd.h); it reads the
 * profile.db table as `keybits` when that is not NULL: 1024 bits, bit k
 * set where reject[k] is 0, every key from 1024 on rejected (see
 * hpctk_svb_keybits), and with a gather from `reject` otherwise. */
/* The reject table as 1024 bits (bit k: key k allowed) into bits[16],
 * when every key it allows is below 1024; false otherwise. */
bool hpctk_svb_keybits(const uint8_t *reject, uint64_t bits[16]);
bool hpctk_svb_fast_chunk_narrow(const uint8_t *base, uint64_t cnt, bool cct, bool digest, const uint8_t *reject,
				 uint64_t limit, uint64_t ybase, int64_t *prev, uint64_t *hsum);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HPCTK_SVB_WIDE 1
bool hpctk_svb_fast_chunk_avx512(const uint8_t *base, uint64_t cnt, bool cct, bool digest, const uint8_t *reject,
				 const uint64_t *keybits, uint64_t limit, uint64_t ybase, int64_t *prev, uint64_t *hsum);
#else
#define HPCTK_SVB_WIDE 0
#endif

#endif
