/* HPCToolkit dump: every .db file's header and section table; profile.db
 * profiles and cct.db contexts with their sparse value blocks (each index
 * entry with the values it owns); trace.db's trace headers and lines.
 * Blocks and lines are read as the release v4.0 layout places them
 * (research/hpctoolkit.md §3); every array is first checked to lie in the
 * file, so counts can never exceed the bytes present, and a value range
 * an index gives is clamped to the block. meta.db past its header:
 * metadb.c. --select=context:ID keeps, of each profile, the index
 * entry of that context (a binary search: the index is sorted by ctxId),
 * of cct.db that context's block, of trace.db the samples in it;
 * subtree:ID the same for every context of the subtree (the ids dump.c
 * collected from meta.db). profile:N keeps that profile, its values in
 * cct.db and its trace. */
#include <inttypes.h>
#include <string.h>

#include "core/hv_int.h"
#include "hpctoolkit/profiledb/profiledb.h"
#include "dumpers.h"

static const char *const sec_names[4][8] = {
	{"General", "IdNames", "Metrics", "Context", "Strings", "Modules", "Files", "Functions"},
	{"ProfileInfos", "IdTuples"},
	{"CtxInfos"},
	{"CtxTraces"},
};

static double f64_of(uint64_t bits)
{
	double v;
	memcpy(&v, &bits, sizeof v);
	return v;
}

/* The 16-byte identification and the {sz, p} table; false when unusable. */
static bool file_header(hv_dump_ctx *d, int kind, unsigned nsec, uint64_t sz[], uint64_t p[])
{
	hv_dump_out *w = d->w;
	const uint8_t *h = hv_window_get(&d->win, 0, 16);
	if (!h || memcmp(h, "HPCTOOLKIT", 10) != 0) {
		hv_dump_stop(d, 0, "no HPCTOOLKIT identification: the sections cannot be found");
		return false;
	}
	dw_item_begin(w, "file-header", "header", 0, 16 + 16u * nsec);
	dw_strn(w, "magic", h, 10);
	dw_strn(w, "format", h + 10, 4);
	dw_u64(w, "major", h[14]);
	dw_u64(w, "minor", h[15]);
	dw_arr_begin(w, "sections");
	bool ok = true;
	for (unsigned s = 0; s < nsec; s++) {
		if (!hv_dump_le(d, 16 + 16u * s, 8, &sz[s]) || !hv_dump_le(d, 24 + 16u * s, 8, &p[s])) {
			ok = false;
			break;
		}
		dw_obj_begin(w, NULL);
		dw_str(w, "name", sec_names[kind][s]);
		dw_u64(w, "size", sz[s]);
		dw_u64(w, "pointer", p[s]);
		dw_obj_end(w);
	}
	dw_arr_end(w);
	dw_item_end(w);
	if (!ok) hv_dump_stop(d, 16, "the section table is cut short by the end of the file");
	return ok;
}


/* One sparse value block: for each index entry, the values it owns
 * ([startIndex, next startIndex), clamped to [0, nValues), each value shown
 * at most once even when the ranges overlap). profile.db:
 * {Val} u16 metricId + f64, {Idx} u32 ctxId + u64 start; cct.db: {Val}
 * u32 profIndex + f64, {Idx} u16 metricId + u64 start. */
static void value_block(hv_dump_ctx *d, bool profile, uint64_t nvals, uint64_t pvals, uint64_t nidx, uint64_t pidx)
{
	hv_dump_out *w = d->w;
	unsigned vsz = profile ? 10 : 12, isz = profile ? 12 : 10, vk = profile ? 2 : 4, ik = profile ? 4 : 2;
	if (!hv_dump_array_in(d, pvals, nvals, vsz) || !hv_dump_array_in(d, pidx, nidx, isz)) {
		dw_str(w, "block", "outside the file: not decoded");
		return;
	}
	dw_arr_begin(w, profile ? "contexts" : "metrics");
	/* Each value is shown once at most: a hostile index whose ranges
	 * overlap (start not increasing) would otherwise make the output
	 * quadratic in the block size. */
	uint64_t shown = 0, k0 = 0, k1 = nidx;
	const hv_dump_select *s = &d->o->sel;
	if (profile && s->have_context) {
		/* one context: a binary search (the index is sorted by ctxId) */
		uint64_t lo = 0, hi = nidx, key = 0;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			hv_dump_le(d, pidx + mid * isz, 4, &key);
			if (key < s->context) lo = mid + 1;
			else hi = mid;
		}
		key = UINT64_MAX;
		if (lo < nidx) hv_dump_le(d, pidx + lo * isz, 4, &key);
		k0 = lo;
		k1 = key == s->context ? lo + 1 : lo;
	}
	uint64_t k = k0;
	for (; k < k1 && !dw_full(d->w); k++) {
		uint64_t key = 0, start = 0, next = nvals;
		if (d->values_left == 0) break; /* index entries count too: see below */
		d->values_left--;
		hv_dump_le(d, pidx + k * isz, ik, &key);
		/* subtree=: the entries of the subtree's contexts */
		if (profile && !hv_dump_ctx_wanted(d, key)) continue;
		hv_dump_le(d, pidx + k * isz + ik, 8, &start);
		if (k + 1 < nidx) hv_dump_le(d, pidx + (k + 1) * isz + ik, 8, &next);
		if (next > nvals) next = nvals;
		dw_obj_begin(w, NULL);
		dw_u64(w, profile ? "ctxId" : "metricId", key);
		dw_u64(w, "startIndex", start);
		dw_arr_begin(w, "values");
		uint64_t v = start > shown ? start : shown, cut = 0;
		for (; v < next && !dw_full(d->w); v++, shown = v) {
			uint64_t vkey = 0, bits = 0;
			if (d->values_left == 0) { /* blocks overlap: shown already */
				cut = next - v;
				break;
			}
			d->values_left--;
			hv_dump_le(d, pvals + v * vsz, vk, &vkey);
			if (!profile && s->have_profile) {
				if (vkey != s->profile) continue;
				d->hits->profile = true;
			}
			hv_dump_le(d, pvals + v * vsz + vk, 8, &bits);
			dw_obj_begin(w, NULL);
			dw_u64(w, profile ? "metricId" : "profIndex", vkey);
			dw_f64(w, "value", f64_of(bits));
			dw_obj_end(w);
		}
		dw_arr_end(w);
		if (cut) dw_u64(w, "values_not_shown", cut); /* more values than the file's bytes hold */
		dw_obj_end(w);
	}
	dw_arr_end(w);
	/* Entries and values shown stay within what the file's bytes hold (10
	 * bytes each at least): blocks that overlap each other are not shown
	 * again and again. */
	if (k < k1 && !dw_full(d->w)) dw_u64(w, profile ? "contexts_not_shown" : "metrics_not_shown", k1 - k);
}

/* profile.db ProfileInfos / cct.db CtxInfos: {u64 pArray, u32 n, u8 sz}
 * then n entries whose first 0x20 bytes are the block descriptor
 * {u64 nValues, u64 pValues, nIdx (u32 / u16), u64 pIdx @0x18}. */
static void blocks(hv_dump_ctx *d, bool profile, uint64_t sec)
{
	hv_dump_out *w = d->w;
	static const hv_dump_field hdr[2][3] = {{{"pProfiles", 0, 8}, {"nProfiles", 8, 4}, {"szProfile", 12, 1}},
						{{"pCtxs", 0, 8}, {"nCtxs", 8, 4}, {"szCtx", 12, 1}}};
	/* the entries' first fields; profiles then have pIdTuple and flags */
	static const hv_dump_field ent[2][6] = {
		{{"nValues", 0, 8}, {"pValues", 8, 8}, {"nCtxs", 0x10, 4}, {"pCtxIndices", 0x18, 8}, {"pIdTuple", 0x20, 8}, {"flags", 0x28, 4}},
		{{"nValues", 0, 8}, {"pValues", 8, 8}, {"nMetrics", 0x10, 2}, {"pMetricIndices", 0x18, 8}}};
	uint64_t h[3];
	if (hv_dump_read_fields(d, sec, hdr[!profile], 3, h) < 3) {
		hv_dump_stop(d, sec, "the section header is cut short by the end of the file");
		return;
	}
	uint64_t parr = h[0], n = h[1], esz = h[2];
	const char *what = profile ? "profile-info" : "context-info";
	dw_item_begin(w, what, profile ? "profile.db/ProfileInfos" : "cct.db/CtxInfos", sec, 16);
	hv_dump_put_fields(d, hdr[!profile], 3, h);
	dw_item_end(w);
	/* a draft-edition {PI} ends after pIdTuple (0x28): no flags field */
	if (esz < (profile ? HPCTK_PI_END_DRAFT : 0x20u) || !hv_dump_array_in(d, parr, n, esz)) {
		hv_dump_stop(d, sec, "the entry array does not fit the file or its entries are too small to decode");
		return;
	}
	const hv_dump_select *s = &d->o->sel;
	for (uint64_t i = 0; i < n && !dw_full(d->w); i++) {
		/* profile=: that profile here; in cct.db its values (value_block) */
		if (profile && s->have_profile && i != s->profile) continue;
		if (!hv_dump_in_range(d, i)) continue;
		if (!profile && !hv_dump_ctx_wanted(d, i)) continue;
		if (profile && s->have_profile) d->hits->profile = true;
		uint64_t at = parr + i * esz, e[6];
		unsigned ne = profile ? (esz >= 0x2cu ? 6 : 5) : 4;
		hv_dump_read_fields(d, at, ent[!profile], ne, e);
		hv_dump_item(d, profile ? "profile" : "cct", at, esz, "%s[%" PRIu64 "]", profile ? "profile.db/profile" : "cct.db/ctx", i);
		dw_u64(w, profile ? "profIndex" : "ctxId", i);
		hv_dump_put_fields(d, ent[!profile], ne, e);
		value_block(d, profile, e[0], e[1], e[2], e[3]);
		dw_item_end(w);
	}
}

/* trace.db CtxTraces: {u64 pTraces, u32 nTraces, u8 szTrace, u64 min, u64
 * max}, then {u32 profIndex, pad, u64 pStart, u64 pEnd} per trace; a line
 * is (pEnd - pStart) / 12 elements {u64 timestamp, u32 ctxId}. */
static void traces(hv_dump_ctx *d, uint64_t sec)
{
	hv_dump_out *w = d->w;
	static const hv_dump_field hdr[] = {{"pTraces", 0, 8}, {"nTraces", 8, 4}, {"szTrace", 12, 1},
					    {"minTimestamp", 0x10, 8}, {"maxTimestamp", 0x18, 8}};
	static const hv_dump_field ent[] = {{"profIndex", 0, 4}, {"pStart", 8, 8}, {"pEnd", 0x10, 8}};
	uint64_t h[5];
	if (hv_dump_read_fields(d, sec, hdr, 5, h) < 3) {
		hv_dump_stop(d, sec, "the section header is cut short by the end of the file");
		return;
	}
	uint64_t parr = h[0], n = h[1], esz = h[2];
	dw_item_begin(w, "trace-header", "trace.db/CtxTraces", sec, 0x20);
	hv_dump_put_fields(d, hdr, 5, h);
	dw_item_end(w);
	if (esz < 0x18 || !hv_dump_array_in(d, parr, n, esz)) {
		hv_dump_stop(d, sec, "the trace header array does not fit the file or its entries are too small");
		return;
	}
	const hv_dump_select *s = &d->o->sel;
	for (uint64_t i = 0; i < n && !dw_full(d->w); i++) {
		uint64_t at = parr + i * esz, t[3];
		hv_dump_read_fields(d, at, ent, 3, t);
		uint64_t prof = t[0], ps = t[1], pe = t[2];
		if (s->have_profile && prof != s->profile) continue;
		if (!hv_dump_in_range(d, i)) continue;
		if (s->have_profile) d->hits->profile = true;
		hv_dump_item(d, "trace", at, esz, "trace.db/trace[%" PRIu64 "]", i);
		hv_dump_put_fields(d, ent, 3, t);
		bool ok = ps <= pe && hv_range_in(ps, pe - ps, d->b->size);
		uint64_t ne = ok ? (pe - ps) / 12 : 0;
		dw_u64(w, "nElements", ne);
		if (!ok) dw_str(w, "line", "outside the file: not decoded");
		dw_arr_begin(w, "elements");
		for (uint64_t k = 0; k < ne && !dw_full(d->w); k++) {
			uint64_t ts = 0, ctx = 0;
			hv_dump_le(d, ps + 12 * k, 8, &ts);
			hv_dump_le(d, ps + 12 * k + 8, 4, &ctx);
			if (!hv_dump_ctx_wanted(d, ctx)) continue;
			dw_arr_begin(w, NULL);
			dw_u64(w, NULL, ts);
			dw_u64(w, NULL, ctx);
			dw_arr_end(w);
		}
		dw_arr_end(w);
		dw_item_end(w);
	}
}

void hv_dump_hpctk(hv_dump_ctx *d, const char *file_kind)
{
	int kind = strcmp(file_kind, "meta.db") == 0      ? 0
		   : strcmp(file_kind, "profile.db") == 0 ? 1
		   : strcmp(file_kind, "cct.db") == 0     ? 2
							  : 3;
	static const unsigned nsec[4] = {8, 2, 1, 1};
	uint64_t sz[8] = {0}, p[8] = {0};
	if (!file_header(d, kind, nsec[kind], sz, p)) return;
	for (unsigned s = 0; s < nsec[kind]; s++) {
		bool in = hv_range_in(p[s], sz[s], d->b->size);
		hv_dump_item(d, "section", p[s], sz[s], "%s/%s", file_kind, sec_names[kind][s]);
		dw_str(d->w, "name", sec_names[kind][s]);
		if (!in) dw_str(d->w, "note", "outside the file");
		dw_item_end(d->w);
	}
	if (kind == 0) hv_dump_metadb(d, sz, p);
	if (kind == 1 && sz[0]) blocks(d, true, p[0]);
	if (kind == 2 && sz[0]) blocks(d, false, p[0]);
	if (kind == 3 && sz[0]) traces(d, p[0]);
}
