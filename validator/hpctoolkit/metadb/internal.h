/* meta.db checking internals shared by metadb*.c.
 *
 * meta.db is random access (pointers everywhere), so it is checked on the
 * whole file in memory (hv_blob_materialize). Every read goes through a
 * range already proven to lie inside a section that lies inside the file:
 * sections are proven by fileheader.c, structures inside them by md_fits /
 * md_array_check before any field is decoded. */
#ifndef HV_HPCTK_METADB_INTERNAL_H
#define HV_HPCTK_METADB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/hv_int.h"
#include "core/report.h"
#include "hpctoolkit/format/fileheader.h"
#include "hpctoolkit/hpctoolkit.h"

/* Header order of the sections (the {sz,p} pairs at 0x10 + 16*i). */
enum md_sec { MD_GENERAL, MD_IDNAMES, MD_METRICS, MD_CONTEXT, MD_STRINGS, MD_MODULES, MD_FILES, MD_FUNCTIONS, MD_NSEC };

/* An array of fixed-stride elements other structures point at. `ok` means
 * its stride, alignment and containment were checked and hold, so pointers
 * into it can be checked against element boundaries. */
typedef struct md_array {
	bool ok;
	uint64_t base, count, stride;
} md_array;

/* An identifier and where it was read, for duplicate reports. */
typedef struct md_idref {
	uint64_t off;
	uint32_t id;
} md_idref;

typedef struct md_idvec {
	md_idref *v;
	size_t n, cap;
} md_idvec;

typedef struct md_state {
	hv_blob *b;
	const uint8_t *mem;       /* whole file */
	hv_report *r;             /* where diagnostics go (a scratch report while detecting the edition) */
	bool release;             /* edition being checked */
	bool newer_minor;         /* minor > known: unknown enumerations are warnings */
	uint8_t minor;
	uint64_t lo[MD_NSEC], len[MD_NSEC];
	bool usable[MD_NSEC];     /* inside the body, aligned, overlapping no other section */
	bool has_nul[MD_NSEC];    /* the section holds a NUL byte at last_nul */
	uint64_t last_nul[MD_NSEC];
	md_array modules, files, functions, scopes;
	hpctk_idset ctx_ids;      /* the context walk's ctxIds (md_ctxids_check) */
	md_idvec prop_ids, stat_ids;
	bool ctx_ok, metrics_ok;  /* walked completely, without a structural error */
	uint8_t nkinds;
	uint64_t walked;          /* edition-dependent structures walked (edition detection) */
	bool detecting;           /* trying an edition into a scratch report: UTF-8 is not checked */
	/* Per section that holds strings, a bit per byte: a UTF-8 character
	 * boundary already checked (allocated on first use; the large Context
	 * Tree section holds no strings, so it never gets one). */
	uint8_t *utf8_seen[MD_NSEC];
	/* Release: the propagation bits the transitive scopes define, known
	 * when every {PS} was read and every type is one 4.0 defines. */
	uint16_t prop_bits;
	bool prop_bits_known;
	bool oom;                 /* an allocation failed: an internal error, not the file's */
} md_state;

extern const char *const md_sec_name[MD_NSEC];

/* Severity for an unknown enumeration value: an error at a known minor
 * version, a warning at a newer one (which may have added values). */
static inline enum hv_sev md_enum_sev(const md_state *m) { return m->newer_minor ? HV_SEV_WARNING : HV_SEV_ERROR; }

/* [off, off+n) lies inside section s (which is usable). */
static inline bool md_fits(const md_state *m, enum md_sec s, uint64_t off, uint64_t n)
{
	return hv_range_within(off, n, m->lo[s], m->len[s]);
}
static inline uint64_t md_u64(const md_state *m, uint64_t off) { return hv_le64(m->mem + off); }
static inline uint32_t md_u32(const md_state *m, uint64_t off) { return hv_le32(m->mem + off); }
static inline uint16_t md_u16(const md_state *m, uint64_t off) { return hv_le16(m->mem + off); }
static inline uint8_t md_u8(const md_state *m, uint64_t off) { return m->mem[off]; }

/* A char* at file offset `field` with value `ptr` must name a NUL-terminated
 * string inside section s, and (metadb.string.utf8) be valid UTF-8. Not
 * evaluated when s is unusable (its own rule already fired). Returns true
 * when the string is contained (or not checkable). */
bool md_check_string(md_state *m, int rule, enum md_sec s, uint64_t field, uint64_t ptr, const char *path,
		     const char *what);

/* An array of `count` elements of `stride` bytes at `ptr` (read from file
 * offset `field`) inside section s, `align`-aligned. A start outside the
 * section is a containment failure; a start inside but misaligned is an
 * alignment failure (and containment is then not evaluated, so moving an
 * array by a few bytes fires one rule). Empty arrays are not checked.
 * Returns true when the array can be walked. */
bool md_check_array(md_state *m, int r_contained, int r_aligned, enum md_sec s, uint64_t field, uint64_t ptr,
		    uint64_t count, uint64_t stride, unsigned align, const char *path, const char *what);

/* A stride read at `field` must be at least `min` (the structure's END for
 * the version read). Returns true when it is. */
bool md_check_stride(md_state *m, int rule, uint64_t field, unsigned width, uint64_t value, uint64_t min,
		     const char *path, const char *name, const char *structure);

/* A Metrics stride (u8) checked once, on first use: *state is -1 (not yet),
 * then 0 (too small) or 1. Returns true when it is good. */
bool md_stride_once(md_state *m, int *state, int rule, uint64_t field, uint64_t value, uint64_t min,
		    const char *name, const char *structure);

/* The {SS} fields both editions share: pFormula (a string in the Metrics
 * section), combine (an enumeration) and statMetricId (collected for the
 * uniqueness check), at the given file offsets. `path` holds the summary's
 * path in its first `len` bytes; the field name is appended. */
void md_check_summary_fields(md_state *m, uint64_t formula, uint64_t combine_at, uint64_t stat_at, char *path,
			     size_t cap, int len);

/* What md_check_array and md_check_ref accept, without evaluating or
 * reporting anything: hot loops (the context walk) test this first and
 * format the diagnostic path they pass only when it fails. */
static inline bool md_array_fits(const md_state *m, enum md_sec s, uint64_t ptr, uint64_t count, uint64_t stride,
				 unsigned align)
{
	uint64_t lo = m->lo[s];
	return ptr >= lo && ptr < lo + m->len[s] && hv_aligned(ptr, align) &&
	       hv_range_within(ptr, hv_mul_sat(count, stride), lo, m->len[s]);
}

static inline bool md_ref_fits(const md_array *a, uint64_t ptr)
{
	return ptr >= a->base && (ptr - a->base) % a->stride == 0 && (ptr - a->base) / a->stride < a->count;
}

/* A pointer that must land exactly on an element of `a`. Not evaluated when
 * `a` is not ok. */
bool md_check_ref(md_state *m, int rule, const md_array *a, uint64_t field, uint64_t ptr, const char *path,
		  const char *what, const char *array);

void md_idvec_push(md_state *m, md_idvec *v, uint32_t id, uint64_t off);
void md_idvec_free(md_idvec *v);
/* Sort by id (then offset) and report every id seen before under `rule`;
 * the path is "<prefix>@0x<offset>/<field>". */
void md_idvec_check_unique(md_state *m, md_idvec *v, int rule, const char *prefix, const char *field,
			   unsigned width, const char *what);
/* The reporting half of md_idvec_check_unique: sorts `v` by id, then
 * offset, and evaluates `rule` once per element. */
void md_idvec_report_repeats(md_state *m, md_idvec *v, int rule, const char *prefix, const char *field,
			     unsigned width, const char *what);

/* Where the context walk read ctxIds, kept compact so that a file of
 * millions of contexts costs a few bits per context rather than a
 * 16-byte record: a bit per 8-byte granule of the Context section where
 * a {Ctx} starts (granule g covers [lo + 8g, lo + 8g + 8); contexts are
 * 8-aligned), and the release entry points, which are one array. Every
 * ctxId is at +0x10 of its structure. */
typedef struct md_ctx_starts {
	const uint64_t *bits;
	uint64_t lo, ngran;
	uint64_t ent_p, ent_stride;
	unsigned ent_n;
} md_ctx_starts;
/* Evaluates metadb.ctx.ctxId-unique over every ctxId `s` locates and
 * leaves the ids, as a set, in m->ctx_ids. */
void md_ctxids_check(md_state *m, const md_ctx_starts *s);

/* Metric sub-arrays (release {PSI}/{SS}, draft {PS}/{SS}) may sit anywhere
 * in the section, so many descriptions could point at one big array and
 * make the walk quadratic. Their elements are 8-aligned, so walking more
 * elements of one kind than the section has 8-byte positions means some
 * position was walked twice, and its id is already a duplicate that the
 * unique-id rule reports: the walk stops there. */
static inline uint64_t md_metric_budget(const md_state *m) { return m->len[MD_METRICS] / 8 + 2; }

/* Section checkers (all assume the section is usable). */
void md_check_general(md_state *m);
void md_check_idnames(md_state *m);
void md_check_modules(md_state *m);
void md_check_files(md_state *m);
void md_check_functions(md_state *m);    /* after modules and files */
void md_check_metrics(md_state *m);       /* release edition (metrics.c) */
void md_check_metrics_draft(md_state *m); /* draft edition (metrics_draft.c) */
void md_check_context(md_state *m);      /* edition dependent; after modules, files, functions */

/* The value checker's model (values.h; value_model.c), NULL when meta.db
 * is not the release edition or its tree or metrics could not be walked. */
struct hpctk_vmodel *md_values_build(md_state *m);

/* Section header sizes (END of each section header structure). */
#define MD_SZ_GENERAL_HDR 0x10u
#define MD_SZ_IDNAMES_HDR 0x09u
#define MD_SZ_METRICS_HDR_R 0x1bu
#define MD_SZ_METRICS_HDR_D 0x0fu
#define MD_SZ_CONTEXT_HDR_R 0x0bu
#define MD_SZ_CONTEXT_HDR_D 0x10u
#define MD_SZ_LIST_HDR 0x0eu

/* Section header too small: fires metadb.sec.too-small. Returns false then. */
bool md_check_section_size(md_state *m, enum md_sec s, uint64_t need);

#endif
