/* profile.db: header, Profile Info section, {PI} entries and identifier
 * tuples. Value blocks are checked by the shared walker (format/svb.c). */
#include "profiledb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "core/hv_int.h"
#include "hpctoolkit/format/array.h"
#include "hpctoolkit/format/svb.h"

#define PI_SHDR 0x0du   /* Profile Info section header: pProfiles, nProfiles, szProfile */
#define IDT_HDR 8u      /* identifier tuple header: nIds + padding */
#define IDT_ELEM 16u

static const hpctk_file_desc profiledb_desc = {
	.file = "profile.db",
	.code = "prof",
	.footer = "_prof.db",
	.nsections = 2,
	.sections = {{"ProfileInfos", 8}, {"IdTuples", 8}},
	.r_magic = HV_R_PROFILEDB_HDR_MAGIC,
	.r_major = HV_R_PROFILEDB_HDR_MAJOR,
	.r_minor_newer = HV_R_PROFILEDB_HDR_MINOR_NEWER,
	.r_truncated = HV_R_PROFILEDB_HDR_TRUNCATED,
	.r_footer = HV_R_PROFILEDB_HDR_FOOTER,
	.r_sec_contained = HV_R_PROFILEDB_SEC_CONTAINED,
	.r_sec_aligned = HV_R_PROFILEDB_SEC_ALIGNED,
	.r_sec_overlap = HV_R_PROFILEDB_SEC_OVERLAP,
};

static const hpctk_svb_desc psvb_desc = {
	.file = "profile.db",
	.owner = "profile",
	.val_size = 10,
	.idx_size = 12,
	.val_key_size = 2,
	.idx_key_size = 4,
	.idx_count_size = 4,
	.val_key = "metricId",
	.idx_key = "ctxId",
	.idx_ptr = "pCtxIndices",
	.idx_count = "nCtxs",
	.r_values_contained = HV_R_PROFILEDB_PSVB_VALUES_CONTAINED,
	.r_values_aligned = HV_R_PROFILEDB_PSVB_VALUES_ALIGNED,
	.r_indices_contained = HV_R_PROFILEDB_PSVB_INDICES_CONTAINED,
	.r_indices_aligned = HV_R_PROFILEDB_PSVB_INDICES_ALIGNED,
	.r_outside = HV_R_PROFILEDB_PSVB_OUTSIDE_SECTIONS,
	.r_order = HV_R_PROFILEDB_PSVB_ORDER,
	.r_contiguous = HV_R_PROFILEDB_PSVB_CONTIGUOUS,
	.r_overlap = HV_R_PROFILEDB_PSVB_OVERLAP,
	.r_idx_increasing = HV_R_PROFILEDB_PSVB_CTX_INCREASING,
	.r_start_first_zero = HV_R_PROFILEDB_PSVB_START_FIRST_ZERO,
	.r_start_in_range = HV_R_PROFILEDB_PSVB_START_IN_RANGE,
	.r_start_nondecreasing = HV_R_PROFILEDB_PSVB_START_NONDECREASING,
	.r_val_increasing = HV_R_PROFILEDB_PSVB_METRIC_INCREASING,
	.r_val_key_nonzero = -1,
	.r_value_nonzero = HV_R_PROFILEDB_PSVB_VALUE_NONZERO,
	.r_value_finite = HV_R_PROFILEDB_PSVB_VALUE_FINITE,
};

/* The section header's array (format/array.h): section, size field, pointer and stride names, what the
 * array and its body and structure are called, rules: short, aligned, contained, stride. */
static const hpctk_array_desc pi_desc = {"profile.db/ProfileInfos", "szProfileInfos",
	"pProfiles", "szProfile", "{PI} array", "the Profile Info section body", "the {PI} structure",
	HV_R_PROFILEDB_PI_SECTION_SHORT, HV_R_PROFILEDB_PI_ARRAY_ALIGNED,
	HV_R_PROFILEDB_PI_ARRAY_CONTAINED, HV_R_PROFILEDB_PI_STRIDE};

static bool profiledb_sniff(hv_blob *b) { return hpctk_sniff(b, "prof"); }

enum hv_edition hpctk_profiledb_evidence(hv_blob *b)
{
	uint8_t hdr[0x30], sh[PI_SHDR];
	if (!hv_blob_read(b, 0, hdr, sizeof hdr)) return HV_EDITION_AUTO;
	if (memcmp(hdr, "HPCTOOLKITprof", 14) != 0 || hdr[14] != HPCTK_MAJOR) return HV_EDITION_AUTO;
	uint64_t sz = hv_le64(hdr + 0x10), p = hv_le64(hdr + 0x18);
	if (sz < PI_SHDR || !hv_blob_read(b, p, sh, sizeof sh)) return HV_EDITION_AUTO;
	/* A stride below the release END is draft evidence at any minor (a
	 * release {PI} cannot be shorter). A wider one is release evidence only
	 * at a known minor: a newer draft minor may widen {PI} past 0x30 too,
	 * so there a wide stride says nothing about the edition. */
	if (sh[0x0c] >= HPCTK_PI_END_RELEASE) return hdr[15] > HPCTK_KNOWN_MINOR ? HV_EDITION_AUTO : HV_EDITION_RELEASE;
	if (sh[0x0c] >= HPCTK_PI_END_DRAFT) return HV_EDITION_DRAFT;
	return HV_EDITION_AUTO;
}

bool hpctk_profiledb_open(const hv_options *opt, hv_blob *b, hv_report *r, enum hv_edition ed, hpctk_profiledb *p)
{
	memset(p, 0, sizeof *p);
	p->b = b;
	p->evidence = hpctk_profiledb_evidence(b);
	/* AUTO stays AUTO (a lone file with no evidence): only what both
	 * editions accept is checked. */
	p->edition = opt->edition != HV_EDITION_AUTO ? opt->edition
		     : p->evidence != HV_EDITION_AUTO ? p->evidence
						      : ed;
	if (!hpctk_check_header(&profiledb_desc, b, r, true, &p->h)) return false;
	if (!p->h.sec_ok[0]) return false;

	unsigned end = p->edition == HV_EDITION_RELEASE ? HPCTK_PI_END_RELEASE : HPCTK_PI_END_DRAFT;
	if (p->evidence == HV_EDITION_AUTO) end = HPCTK_PI_END_DRAFT; /* below every edition's END */
	uint8_t sh[PI_SHDR];
	if (!hpctk_check_array(&pi_desc, b, r, &p->h, PI_SHDR, sh, end, " (pProfiles, nProfiles, szProfile)",
			       p->edition == HV_EDITION_DRAFT	? " in the draft edition"
			       : p->edition == HV_EDITION_RELEASE ? " in the release edition"
								  : " in either edition",
			       &p->pi))
		return false;
	if (!hv_eval(r, HV_R_PROFILEDB_PI_NO_PROFILES, p->pi.n > 0))
		hv_emit(r, HV_R_PROFILEDB_PI_NO_PROFILES, b->name, p->h.p[0] + 8, 4, "profile.db/ProfileInfos/nProfiles",
			"nProfiles is 0; the first profile must be the summary profile");
	return true;
}

/* --- identifier tuples -------------------------------------------------- */

typedef struct idt_walk {
	uint8_t *starts;  /* bitmap: one bit per 8-byte slot of the section, set at a tuple start */
	uint64_t base;    /* the section's offset */
	uint64_t stop;    /* tuples at or after this offset could not be located */
	bool ok;          /* the section could be walked at all */
} idt_walk;

static void walk_idtuples(hpctk_profiledb *p, hv_report *r, const hpctk_prof_visitor *v, hv_window *w, idt_walk *t)
{
	hv_blob *b = p->b;
	char path[HV_PATH_MAX];
	memset(t, 0, sizeof *t);
	if (!p->h.sec_ok[1]) return;
	uint64_t s = p->h.p[1], end = s + p->h.sz[1];
	/* Tuples are multiples of 8 bytes, so every start is an 8-byte slot of
	 * the section: 1 bit per slot, 1/64 of the section's size. */
	t->starts = hv_calloc((size_t)(p->h.sz[1] / 64) + 1, 1);
	if (!t->starts) return;
	t->base = s;
	t->ok = true;
	t->stop = end;
	size_t ti = 0;
	for (uint64_t at = s; end - at >= IDT_HDR; ti++) {
		const uint8_t *h = hv_window_get(w, at, IDT_HDR);
		if (!h) break;
		uint16_t nids = hv_le16(h);
		uint64_t len = IDT_HDR + (uint64_t)nids * IDT_ELEM;
		uint64_t slot = (at - s) / IDT_HDR;
		hv_bit_set(t->starts, slot);
		/* paths are formatted only for a diagnostic that is stored: a
		 * database of a million profiles has as many tuples */
		if (!hv_eval(r, HV_R_PROFILEDB_IDT_CONTAINED, len <= end - at)) {
			hv_emit(r, HV_R_PROFILEDB_IDT_CONTAINED, b->name, at, 2,
				(snprintf(path, sizeof path, "profile.db/IdTuples/tuple[%zu]", ti), path),
				"tuple at 0x%llx has nIds = %u (%llu bytes) but only %llu bytes of the section remain",
				(unsigned long long)at, nids, (unsigned long long)len, (unsigned long long)(end - at));
			t->stop = at + 1;
			break;
		}
		for (unsigned i = 0; i < nids; i++) {
			uint64_t eo = at + IDT_HDR + (uint64_t)i * IDT_ELEM;
			const uint8_t *e = hv_window_get(w, eo, IDT_ELEM);
			if (!e) break;
			uint8_t kind = e[0];
			uint16_t flags = hv_le16(e + 2);
			uint32_t lid = hv_le32(e + 4);
			uint64_t pid = hv_le64(e + 8);
#define ID_PATH() (snprintf(path, sizeof path, "profile.db/IdTuples/tuple[%zu]/ids[%u]", ti, i), path)
			if (!hv_eval(r, HV_R_PROFILEDB_IDT_FLAGS_RESERVED, (flags & ~1u) == 0))
				hv_emit_sev(r, HV_R_PROFILEDB_IDT_FLAGS_RESERVED,
					    p->h.newer_minor ? HV_SEV_WARNING : HV_SEV_ERROR, b->name, eo + 2, 2, ID_PATH(),
					    "flags 0x%04x has reserved bits 0x%04x set (only bit 0, isPhysical, is defined%s)",
					    flags, flags & ~1u, p->h.newer_minor ? "; a newer minor version may define more" : "");
			if (!(flags & 1) && !hv_eval(r, HV_R_PROFILEDB_IDT_PHYSICAL, pid == lid))
				hv_emit(r, HV_R_PROFILEDB_IDT_PHYSICAL, b->name, eo + 8, 8, ID_PATH(),
					"isPhysical is 0 but physicalId %llu differs from logicalId %u",
					(unsigned long long)pid, lid);
			if (v && v->kind) v->kind(v->arg, kind, eo);
#undef ID_PATH
		}
		at += len;
	}
}

static bool is_tuple_start(const idt_walk *t, uint64_t x)
{
	if (x < t->base || x >= t->stop || (x - t->base) % IDT_HDR) return false;
	uint64_t slot = (x - t->base) / IDT_HDR;
	return hv_bit_get(t->starts, slot);
}

static void check_pidtuple(hpctk_profiledb *p, hv_report *r, const idt_walk *t, uint32_t i, uint64_t at, uint64_t pid)
{
	char path[HV_PATH_MAX];
	bool release = p->edition != HV_EDITION_DRAFT;
	if (i == 0 && release && pid == 0) return; /* the canonical summary profile */
	if (!t->ok) return;                         /* section unusable: already reported */
	uint64_t s = p->h.p[1];
	if (pid >= t->stop && pid < s + p->h.sz[1]) return; /* behind a cut tuple: cannot tell */
	if (!hv_eval(r, HV_R_PROFILEDB_PI_IDTUPLE_BOUNDARY, is_tuple_start(t, pid)))
		hv_emit(r, HV_R_PROFILEDB_PI_IDTUPLE_BOUNDARY, p->b->name, at + 0x20, 8,
			(snprintf(path, sizeof path, "profile.db/profile[%u]/pIdTuple", i), path),
			"pIdTuple = 0x%llx is not the start of an identifier tuple in the section [0x%llx, +0x%llx)%s",
			(unsigned long long)pid, (unsigned long long)s, (unsigned long long)p->h.sz[1],
			pid == 0 ? (release ? "; only the first (summary) profile may have 0"
					    : "; the draft edition has no exception for the summary profile")
				 : "");
}

/* --- profiles ----------------------------------------------------------- */

typedef struct fwd_state {
	const hpctk_prof_visitor *v;
	bool summary;
} fwd_state;

static void fwd_index(void *arg, uint32_t owner, uint32_t key, uint64_t off)
{
	fwd_state *f = arg;
	if (f->v->index) f->v->index(f->v->arg, owner, f->summary, key, off);
}

static void fwd_value(void *arg, uint32_t owner, uint32_t idx_key, uint32_t val_key, uint64_t bits, uint64_t off)
{
	fwd_state *f = arg;
	if (f->v->value) f->v->value(f->v->arg, owner, f->summary, idx_key, (uint16_t)val_key, bits, off);
}

static void check_flags(hpctk_profiledb *p, hv_report *r, uint32_t i, uint64_t at, uint32_t flags)
{
	char path[HV_PATH_MAX];
#define FLAGS_PATH() (snprintf(path, sizeof path, "profile.db/profile[%u]/flags", i), path)
	if (i == 0 && !hv_eval(r, HV_R_PROFILEDB_PI_SUMMARY_FIRST, (flags & 1) != 0))
		hv_emit(r, HV_R_PROFILEDB_PI_SUMMARY_FIRST, p->b->name, at + 0x28, 4, FLAGS_PATH(),
			"the first profile has flags 0x%x without isSummary (bit 0); it must be the canonical summary "
			"profile",
			flags);
	if (!hv_eval(r, HV_R_PROFILEDB_PI_FLAGS_RESERVED, (flags & ~1u) == 0))
		hv_emit_sev(r, HV_R_PROFILEDB_PI_FLAGS_RESERVED, p->h.newer_minor ? HV_SEV_WARNING : HV_SEV_ERROR,
			    p->b->name, at + 0x28, 4, FLAGS_PATH(),
			    "flags 0x%x has undefined bits 0x%x set (only bit 0, isSummary, is defined in 4.0%s)", flags,
			    flags & ~1u, p->h.newer_minor ? "; a newer minor version may define more" : "");
#undef FLAGS_PATH
}

bool hpctk_profiledb_prepare(hpctk_profiledb *p, hv_report *r, const hpctk_prof_visitor *v, hpctk_prof_walk *pw)
{
	memset(pw, 0, sizeof *pw);
	p->complete = false;
	if (!p->h.usable || !hv_window_init(&pw->w, p->b, hpctk_window_cap)) return false;
	pw->w_ok = true;
	idt_walk t;
	walk_idtuples(p, r, v, &pw->w, &t);
	if (!p->pi.ok) {
		free(t.starts);
		return false;
	}
	hpctk_svb_env *e = &pw->e;
	pw->env_ok = hpctk_svb_env_init(e, &psvb_desc, p->b, r, p->h.body_end, 0, p->pi.n);
	pw->env_init = true;
	e->val_align = 2;
	e->idx_align = 4;
	hpctk_svb_env_forbid(e, 0, hpctk_header_size(&profiledb_desc));
	for (unsigned s = 0; s < 2; s++)
		if (p->h.sec_ok[s]) hpctk_svb_env_forbid(e, p->h.p[s], p->h.sz[s]);
	/* Unknown edition (a lone file without evidence): the release-only
	 * {PI} fields are not read, and the first profile is the summary, as
	 * in both editions' writers. */
	pw->release = p->edition == HV_EDITION_RELEASE;
	pw->need = pw->release ? HPCTK_PI_END_RELEASE : HPCTK_PI_END_DRAFT;
	/* Pass 1: each {PI} and its block's layout; then the overlap sweep. */
	for (uint32_t i = 0; pw->env_ok && i < p->pi.n; i++) {
		uint64_t at = p->pi.p + (uint64_t)i * p->pi.sz;
		const uint8_t *pi = hv_window_get(&pw->w, at, pw->need);
		if (!pi) { /* unreadable: the values are not all visited */
			e->complete = false;
			break;
		}
		if (pw->release) check_flags(p, r, i, at, hv_le32(pi + 0x28));
		check_pidtuple(p, r, &t, i, at, hv_le64(pi + 0x20));
		hpctk_svb_block blk = hpctk_svb_decode(&psvb_desc, pi, i, at);
		hpctk_svb_layout(e, &blk);
	}
	if (pw->env_ok) hpctk_svb_overlaps(e);
	free(t.starts);
	pw->complete = pw->env_ok && e->complete && !e->planes.alloc_failed;
	return true;
}

/* Tell the reader where the core goes after profile i: profile i+1's index,
 * then its values (before the index in hpcprof's files). hpcprof writes the
 * profiles wherever its threads finished them, so each is a jump the
 * reader cannot guess; told now, a reader whose reads go on while the core
 * checks (the web page's) can start them while profile i is checked. Only
 * a hint: nothing here changes what is checked or reported. */
static void hint_next(hpctk_profiledb *p, hv_window *w, uint32_t i)
{
	if (p->b->mem || !p->b->will_read || i + 1 >= p->pi.n) return;
	const uint8_t *pi = hv_window_get(w, p->pi.p + (uint64_t)(i + 1) * p->pi.sz, 0x20);
	if (!pi) return;
	hpctk_svb_block blk = hpctk_svb_decode(&psvb_desc, pi, i + 1, 0);
	hv_blob_will_read(p->b, blk.pidx, hv_mul_sat(blk.nidx, 12));
	hv_blob_will_read(p->b, blk.pvalues, hv_mul_sat(blk.nvalues, 10));
}

bool hpctk_profiledb_range(hpctk_profiledb *p, const hpctk_prof_walk *pw, hv_report *r, const hpctk_prof_visitor *v,
			   uint32_t first, uint32_t last)
{
	fwd_state fs = {v, false};
	hpctk_svb_visitor sv = {&fs, fwd_index, fwd_value, NULL};
	hpctk_svb_range rg;
	bool ok = hpctk_svb_range_begin(&rg, &pw->e, pw->env_ok, p->b, r, v ? &sv : NULL);
	/* Pass 2: the values, block by block. */
	for (uint32_t i = first; ok && i < last && i < p->pi.n; i++) {
		uint64_t at = p->pi.p + (uint64_t)i * p->pi.sz;
		const uint8_t *pi = hv_window_get(&rg.w, at, pw->need);
		if (!pi) {
			rg.e.complete = false;
			break;
		}
		fs.summary = pw->release ? (hv_le32(pi + 0x28) & 1) != 0 : i == 0;
		sv.fast = v && v->fast ? &v->fast[fs.summary] : NULL;
		hpctk_svb_block blk = hpctk_svb_decode(&psvb_desc, pi, i, at);
		hint_next(p, &rg.w, i);
		hpctk_svb_values(&rg.e, &blk);
		if (v && v->profile_end) v->profile_end(v->arg, i);
	}
	return hpctk_svb_range_end(&rg);
}

uint64_t hpctk_profiledb_block_bytes(hpctk_profiledb *p, hv_window *w, uint32_t i)
{
	const uint8_t *pi = hv_window_get(w, p->pi.p + (uint64_t)i * p->pi.sz, 0x20);
	if (!pi) return 0;
	hpctk_svb_block blk = hpctk_svb_decode(&psvb_desc, pi, i, 0);
	return hv_add_sat(hv_mul_sat(blk.nvalues, 10), hv_mul_sat(blk.nidx, 12));
}

void hpctk_profiledb_prepared_free(hpctk_prof_walk *pw)
{
	if (pw->env_init) hpctk_svb_env_free(&pw->e);
	if (pw->w_ok) hv_window_free(&pw->w);
	memset(pw, 0, sizeof *pw);
}

void hpctk_profiledb_walk(hpctk_profiledb *p, hv_report *r, const hpctk_prof_visitor *v)
{
	hpctk_prof_walk pw;
	p->complete = false;
	if (hpctk_profiledb_prepare(p, r, v, &pw)) {
		bool c = hpctk_profiledb_range(p, &pw, r, v, 0, p->pi.n);
		p->complete = pw.complete && c;
	}
	hpctk_profiledb_prepared_free(&pw);
}

static void profiledb_check_file(const hv_options *opt, hv_blob *b, hv_report *r)
{
	hpctk_profiledb p;
	bool ok = hpctk_profiledb_open(opt, b, r, HV_EDITION_AUTO, &p);
	hpctk_name_file(r, &p.h, opt->edition != HV_EDITION_AUTO ? opt->edition : p.evidence);
	if (ok) hpctk_profiledb_walk(&p, r, NULL);
}

const hv_format hv_format_hpctk_profiledb = {.name = "hpctoolkit profile.db", .file_name = "profile.db",
					.sniff = profiledb_sniff, .check = profiledb_check_file};
