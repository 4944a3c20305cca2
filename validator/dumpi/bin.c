/* One DUMPI .bin: lead-in magic, the 64-byte index at EOF-64, and the
 * sections it points to (header, footer, keyval, perf labels, datatype
 * sizes, function addresses), then the record stream (stream.c).
 * Offsets come from the index; no section order is assumed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "dumpi.h"
#include "dumpi/mpi/layer.h"

const char *const dumpi_sec_names[DS_COUNT] = {"sizelbl", "addrlbl", "perflbl", "header", "body", "footer", "keyval"};

/* magic + biases + end label + smallest header + footer + smallest index */
#define DUMPI_MIN_SIZE (8u + 8u + 2u + 23u + DUMPI_FOOTER_SIZE + DUMPI_INDEX_MIN_SIZE)

typedef struct bin_ctx {
	const hv_options *opt;
	hv_blob *b;
	hv_report *r;
	hv_window w;
	uint64_t idx;                    /* offset of the index (EOF-64; EOF-56/48/40 before 0.6.6) */
	unsigned first;                  /* first dumpi_sec the index holds (DS_SIZELBL from 0.6.6) */
	uint64_t off[DS_COUNT];          /* 0 = absent or unusable */
	uint64_t end[DS_COUNT];          /* end of the parsed section, 0 when not parsed */
	int32_t perf_labels;
	bool footer_ok;
	uint32_t called[DUMPI_FOOTER_SLOTS], ignored[DUMPI_FOOTER_SLOTS];
	dumpi_bin_info info;
	mpi_rank *mpi;
} bin_ctx;

bool dumpi_sniff_bin(hv_blob *b)
{
	uint8_t m[8];
	if (hv_blob_read(b, 0, m, 8) && memcmp(m, dumpi_head_magic, 8) == 0) return true;
	for (unsigned size = DUMPI_INDEX_SIZE; size >= DUMPI_INDEX_MIN_SIZE; size -= 8)
		if (b->size >= DUMPI_INDEX_SIZE && hv_blob_read(b, b->size - size, m, 8) &&
		    memcmp(m, dumpi_head_magic, 8) == 0)
			return true;
	return false;
}

/* The index size, found as libundumpi finds it (dumpi_open_input_file): the
 * magic at EOF-64 (sizelbl, since 0.6.6), else at EOF-56 (addrlbl, 0.4), else
 * EOF-48 (perflbl, 0.3), else EOF-40 (header, body, footer, keyval only).
 * 0 when there is none. The file holds at least DUMPI_INDEX_SIZE bytes. */
static unsigned find_index(hv_window *w, uint64_t size)
{
	for (unsigned n = DUMPI_INDEX_SIZE; n >= DUMPI_INDEX_MIN_SIZE; n -= 8) {
		const uint8_t *p = hv_window_get(w, size - n, 8);
		if (!p) return 0;
		if (memcmp(p, dumpi_head_magic, 8) == 0) return n;
	}
	return 0;
}

/* Sections end before the next section that starts after them, or the index. */
static uint64_t bound_of(const bin_ctx *x, uint64_t at)
{
	uint64_t bound = x->idx;
	for (int i = 0; i < DS_COUNT; i++)
		if (x->off[i] > at && x->off[i] < bound) bound = x->off[i];
	return bound;
}

static dumpi_cur cursor(bin_ctx *x, enum dumpi_sec s)
{
	dumpi_cur c = {.w = &x->w, .pos = x->off[s], .limit = bound_of(x, x->off[s])};
	return c;
}

static void not_contained(bin_ctx *x, enum dumpi_sec s, const dumpi_cur *c, const char *what)
{
	char path[32];
	snprintf(path, sizeof path, "%s", dumpi_sec_names[s]);
	hv_eval(x->r, HV_R_DUMPI_SEC_CONTAINED, false);
	hv_emit(x->r, HV_R_DUMPI_SEC_CONTAINED, x->b->name, x->off[s], c->pos - x->off[s], path,
		"the %s section at 0x%llx: %s runs past 0x%llx (the next section or the index)", dumpi_sec_names[s],
		(unsigned long long)x->off[s], what, (unsigned long long)c->limit);
}

static void contained_ok(bin_ctx *x, enum dumpi_sec s, const dumpi_cur *c)
{
	hv_eval(x->r, HV_R_DUMPI_SEC_CONTAINED, true);
	x->end[s] = c->pos;
}

static bool string16(dumpi_cur *c, uint64_t *len) { return dumpi_get(c, 2, len) && dumpi_skip(c, *len); }

static void check_index(bin_ctx *x)
{
	const uint8_t *p = hv_window_get(&x->w, x->idx, (size_t)(x->b->size - x->idx));
	if (!p) return;
	static const bool optional[DS_COUNT] = {[DS_SIZELBL] = true, [DS_ADDRLBL] = true, [DS_PERFLBL] = true,
						[DS_KEYVAL] = true};
	/* An older index lacks the leading entries; those sections do not exist. */
	for (int i = (int)x->first; i < DS_COUNT; i++) {
		uint64_t at = x->idx + 8 + 8 * (uint64_t)(i - (int)x->first);
		uint64_t v = hv_be64(p + (at - x->idx));
		bool ok = (v == 0 && optional[i]) || (v >= 8 && v < x->idx);
		char path[32];
		if (!hv_eval(x->r, HV_R_DUMPI_INDEX_OFFSET_CONTAINED, ok))
			hv_emit(x->r, HV_R_DUMPI_INDEX_OFFSET_CONTAINED, x->b->name, at, 8,
				(snprintf(path, sizeof path, "index/%s", dumpi_sec_names[i]), path),
				"%s offset 0x%llx is %s; it must lie in [0x8, 0x%llx) (the index)", dumpi_sec_names[i],
				(unsigned long long)v, v == 0 ? "missing (0)" : "outside the file body",
				(unsigned long long)x->idx);
		x->off[i] = ok ? v : 0;
	}
	x->info.index_ok = true;
	x->info.index_size = (unsigned)(x->b->size - x->idx);
	memcpy(x->info.off, x->off, sizeof x->off);
	if (x->off[DS_BODY] && !hv_eval(x->r, HV_R_DUMPI_INDEX_BODY_OFFSET, x->off[DS_BODY] == 8))
		hv_emit(x->r, HV_R_DUMPI_INDEX_BODY_OFFSET, x->b->name, x->idx + 8 + 8 * (DS_BODY - x->first), 8,
			"index/body",
			"body offset is 0x%llx; every writer puts the stream at 0x8, right after the lead-in magic",
			(unsigned long long)x->off[DS_BODY]);
}

static void check_header(bin_ctx *x)
{
	if (!x->off[DS_HEADER]) return;
	dumpi_cur c = cursor(x, DS_HEADER);
	uint64_t v[3] = {0, 0, 0}, start = 0, len = 0, meshdim = 0, count = 0;
	bool ok = dumpi_get(&c, 1, &v[0]) && dumpi_get(&c, 1, &v[1]) && dumpi_get(&c, 1, &v[2]) &&
		  dumpi_get(&c, 8, &start) && string16(&c, &len) && string16(&c, &len);
	uint64_t mesh_at = c.pos;
	ok = ok && dumpi_get(&c, 4, &meshdim) && dumpi_skip(&c, hv_mul_sat(meshdim, 4));
	/* The mesh sizes came with 0.5; libundumpi reads them only from then on
	 * (and only when meshdim is not 0, though writers always store them). */
	uint8_t head_ver[3] = {(uint8_t)v[0], (uint8_t)v[1], (uint8_t)v[2]};
	bool has_sizes = dumpi_version_at_least(head_ver, 0, 5, 0);
	if (has_sizes) ok = ok && dumpi_get(&c, 4, &count) && dumpi_skip(&c, hv_mul_sat(count, 4));
	else count = meshdim;
	if (!ok) {
		not_contained(x, DS_HEADER, &c, "the version, starttime, host/user strings or mesh arrays");
		if (c.pos <= mesh_at) return;
	} else {
		contained_ok(x, DS_HEADER, &c);
	}
	for (int i = 0; i < 3; i++) x->info.version[i] = (uint8_t)v[i];
	x->info.starttime = start;
	x->info.header_ok = true;
	snprintf(x->r->version, sizeof x->r->version, "%u.%u.%u", x->info.version[0], x->info.version[1],
		 x->info.version[2]);
	const uint8_t *ver = x->info.version;
	bool newer = dumpi_version_at_least(ver, DUMPI_KNOWN_MAJOR, DUMPI_KNOWN_SUB, DUMPI_KNOWN_SUBSUB + 1);
	if (!hv_eval(x->r, HV_R_DUMPI_HDR_MINOR_NEWER, !newer))
		hv_emit(x->r, HV_R_DUMPI_HDR_MINOR_NEWER, x->b->name, x->off[DS_HEADER], 3, "header/version",
			"version %u.%u.%u is newer than %d.%d.%d, the newest this validator knows; read with the newest "
			"known layout",
			ver[0], ver[1], ver[2], DUMPI_KNOWN_MAJOR, DUMPI_KNOWN_SUB, DUMPI_KNOWN_SUBSUB);
	if (!ok) return;
	if (has_sizes && !hv_eval(x->r, HV_R_DUMPI_HDR_MESH_COUNT, count == meshdim))
		hv_emit(x->r, HV_R_DUMPI_HDR_MESH_COUNT, x->b->name, mesh_at, c.pos - mesh_at, "header/meshsize",
			"meshdim is %llu but the mesh-size array has %llu entries", (unsigned long long)meshdim,
			(unsigned long long)count);
	if (!hv_eval(x->r, HV_R_DUMPI_HDR_MESHDIM_UNUSUAL, meshdim == 0 || meshdim == 3 || meshdim == 5))
		hv_emit(x->r, HV_R_DUMPI_HDR_MESHDIM_UNUSUAL, x->b->name, mesh_at, 4, "header/meshdim",
			"meshdim is %llu; real traces have 0, 3 (BlueGene/P) or 5 (BlueGene/Q)",
			(unsigned long long)meshdim);
}

/* The index layout against the header version: sizelbl entered the index in
 * 0.6.6 (May 2010). The older steps (perflbl 0.3, addrlbl 0.4) predate
 * consistent versioning (io.c), so only the 0.6.6 boundary is compared. */
static void check_index_layout(bin_ctx *x)
{
	unsigned size = (unsigned)(x->b->size - x->idx);
	if (!hv_eval(x->r, HV_R_DUMPI_INDEX_LEGACY_LAYOUT, size == DUMPI_INDEX_SIZE))
		hv_emit(x->r, HV_R_DUMPI_INDEX_LEGACY_LAYOUT, x->b->name, x->idx, size, "index",
			"%u-byte index of a pre-0.6.6 writer, without entries for %s; the sections are read from it",
			size, x->first > DS_PERFLBL ? "sizelbl, addrlbl and perflbl" :
			      x->first > DS_ADDRLBL ? "sizelbl and addrlbl" : "sizelbl");
	if (!x->info.header_ok) return;
	const uint8_t *v = x->info.version;
	bool modern = dumpi_version_at_least(v, 0, 6, 6);
	if (!hv_eval(x->r, HV_R_DUMPI_INDEX_LAYOUT_VERSION, modern == (size == DUMPI_INDEX_SIZE)))
		hv_emit(x->r, HV_R_DUMPI_INDEX_LAYOUT_VERSION, x->b->name, x->off[DS_HEADER], 3, "header/version",
			"header version %u.%u.%u but a %u-byte index: writers %s 0.6.6 write a %s; records are decoded by "
			"the header version, which is probably wrong",
			v[0], v[1], v[2], size, modern ? "from" : "before", modern ? "64-byte index (with sizelbl)" :
			"shorter index (without sizelbl)");
}

static void check_footer(bin_ctx *x)
{
	if (!x->off[DS_FOOTER]) return;
	dumpi_cur c = cursor(x, DS_FOOTER);
	uint64_t magic;
	if (!dumpi_get(&c, 8, &magic) || !dumpi_skip(&c, DUMPI_FOOTER_SIZE - 8)) {
		not_contained(x, DS_FOOTER, &c, "the 2336-byte footer");
		return;
	}
	contained_ok(x, DS_FOOTER, &c);
	const char *file = x->b->name;
	uint64_t at = x->off[DS_FOOTER];
	if (!hv_eval(x->r, HV_R_DUMPI_FOOTER_MAGIC, magic == DUMPI_FOOTER_MAGIC)) {
		hv_emit(x->r, HV_R_DUMPI_FOOTER_MAGIC, file, at, 8, "footer/magic",
			"footer magic is 0x%016llx, want 0x00000000f007fee7; the call counts are not checked",
			(unsigned long long)magic);
		return;
	}
	c.pos = at + 8;
	for (int k = 0; k < 2; k++)
		for (int f = 0; f < DUMPI_FOOTER_SLOTS; f++) {
			uint64_t v = 0;
			dumpi_get(&c, 4, &v);
			(k ? x->ignored : x->called)[f] = (uint32_t)v;
		}
	uint64_t sum_called = 0, sum_ignored = 0;
	for (int f = 0; f < DUMPI_ALL_FUNCTIONS; f++) {
		sum_called += x->called[f];
		sum_ignored += x->ignored[f];
		char path[48];
		/* the path is formatted only for a stored failure: 290 entries a rank file */
		if (!hv_eval(x->r, HV_R_DUMPI_FOOTER_IGNORED_LE_CALLED, x->ignored[f] <= x->called[f]))
			hv_emit(x->r, HV_R_DUMPI_FOOTER_IGNORED_LE_CALLED, file, at + 8 + 4 * (DUMPI_FOOTER_SLOTS + f), 4,
				(snprintf(path, sizeof path, "footer/ignored[%d]", f), path),
				"%s: ignored %u times but called only %u times", dumpi_function_name((unsigned)f),
				x->ignored[f], x->called[f]);
	}
	bool ok = sum_called == x->called[DUMPI_ALL_FUNCTIONS] && sum_ignored == x->ignored[DUMPI_ALL_FUNCTIONS];
	if (!hv_eval(x->r, HV_R_DUMPI_FOOTER_TOTALS, ok))
		hv_emit(x->r, HV_R_DUMPI_FOOTER_TOTALS, file, at + 8 + 4 * DUMPI_ALL_FUNCTIONS, 4, "footer/called[290]",
			"totals are called %u / ignored %u; the sums of entries 0-289 are %llu / %llu",
			x->called[DUMPI_ALL_FUNCTIONS], x->ignored[DUMPI_ALL_FUNCTIONS], (unsigned long long)sum_called,
			(unsigned long long)sum_ignored);
	x->footer_ok = true;
}

static void check_keyval(bin_ctx *x)
{
	if (!x->off[DS_KEYVAL]) return;
	dumpi_cur c = cursor(x, DS_KEYVAL);
	uint64_t n = 0, len;
	bool ok = dumpi_get(&c, 4, &n);
	for (uint64_t i = 0; ok && i < n; i++) ok = string16(&c, &len) && string16(&c, &len);
	if (ok) contained_ok(x, DS_KEYVAL, &c);
	else not_contained(x, DS_KEYVAL, &c, "the key/value strings");
}

static void check_perflbl(bin_ctx *x)
{
	x->perf_labels = -1;
	if (!x->off[DS_PERFLBL]) return;
	dumpi_cur c = cursor(x, DS_PERFLBL);
	uint64_t n = 0, len;
	bool ok = dumpi_get(&c, 4, &n);
	if (ok && !hv_eval(x->r, HV_R_DUMPI_PERF_COUNT, n <= DUMPI_MAX_PERFCTRS))
		hv_emit(x->r, HV_R_DUMPI_PERF_COUNT, x->b->name, x->off[DS_PERFLBL], 4, "perflbl/count",
			"%llu perf-counter labels; libundumpi holds at most %u", (unsigned long long)n,
			DUMPI_MAX_PERFCTRS);
	for (uint64_t i = 0; ok && i < n; i++) {
		uint64_t at = c.pos;
		ok = string16(&c, &len);
		char path[48];
		if (ok && !hv_eval(x->r, HV_R_DUMPI_PERF_LABEL_LENGTH, len < DUMPI_MAX_PERFCTR_NAME))
			hv_emit(x->r, HV_R_DUMPI_PERF_LABEL_LENGTH, x->b->name, at, 2 + len,
				(snprintf(path, sizeof path, "perflbl/label[%llu]", (unsigned long long)i), path),
				"perf-counter label of %llu bytes; libundumpi needs fewer than %u", (unsigned long long)len,
				DUMPI_MAX_PERFCTR_NAME);
	}
	if (!ok) {
		not_contained(x, DS_PERFLBL, &c, "the perf-counter labels");
		return;
	}
	contained_ok(x, DS_PERFLBL, &c);
	x->perf_labels = n > DUMPI_MAX_PERFCTRS ? (int32_t)DUMPI_MAX_PERFCTRS + 1 : (int32_t)n;
}

static void check_sizes(bin_ctx *x)
{
	if (!x->off[DS_SIZELBL]) return;
	dumpi_cur c = cursor(x, DS_SIZELBL);
	uint64_t n = 0;
	bool ok = dumpi_get(&c, 4, &n);
	if (ok && !hv_eval(x->r, HV_R_DUMPI_SIZES_COUNT, n <= 32767))
		hv_emit(x->r, HV_R_DUMPI_SIZES_COUNT, x->b->name, x->off[DS_SIZELBL], 4, "sizelbl/count",
			"%llu datatype sizes; libundumpi keeps the count in an int16 (at most 32767)",
			(unsigned long long)n);
	if (ok && dumpi_skip(&c, hv_mul_sat(n, 4))) contained_ok(x, DS_SIZELBL, &c);
	else not_contained(x, DS_SIZELBL, &c, "the datatype sizes");
}

static void check_addrlbl(bin_ctx *x)
{
	if (!x->off[DS_ADDRLBL]) return;
	dumpi_cur c = cursor(x, DS_ADDRLBL);
	uint64_t n = 0, addr, len;
	bool ok = dumpi_get(&c, 4, &n);
	for (uint64_t i = 0; ok && i < n; i++) ok = dumpi_get(&c, 8, &addr) && string16(&c, &len);
	if (ok) contained_ok(x, DS_ADDRLBL, &c);
	else not_contained(x, DS_ADDRLBL, &c, "the function addresses and names");
}

static void check_overlap(bin_ctx *x)
{
	for (int i = 0; i < DS_COUNT; i++)
		for (int j = i + 1; j < DS_COUNT; j++) {
			if (!x->end[i] || !x->end[j]) continue;
			uint64_t li = x->end[i] - x->off[i], lj = x->end[j] - x->off[j];
			bool same_start = x->off[i] == x->off[j];
			bool ok = !same_start && !hv_ranges_overlap(x->off[i], li, x->off[j], lj);
			if (!hv_eval(x->r, HV_R_DUMPI_SEC_OVERLAP, ok))
				hv_emit(x->r, HV_R_DUMPI_SEC_OVERLAP, x->b->name, x->off[j], lj, "index",
					"%s [0x%llx, 0x%llx) and %s [0x%llx, 0x%llx) share bytes", dumpi_sec_names[i],
					(unsigned long long)x->off[i], (unsigned long long)x->end[i], dumpi_sec_names[j],
					(unsigned long long)x->off[j], (unsigned long long)x->end[j]);
		}
}

/* libdumpi's order is stream, header, footer, keyval, perflbl, sizes,
 * addresses; other orders, no perflbl or a CPU bias mean a rewriting tool. */
static bool looks_rewritten(const bin_ctx *x, const dumpi_stream_ctx *s)
{
	const uint64_t *o = x->off;
	/* Sections an older index has no entry for are skipped, not missing. */
	bool has_perf = x->first <= DS_PERFLBL;
	uint64_t after_footer = has_perf ? o[DS_PERFLBL] : o[DS_FOOTER] + 1;
	bool libdumpi_order = (!has_perf || o[DS_PERFLBL]) && o[DS_HEADER] < o[DS_FOOTER] && o[DS_FOOTER] < after_footer;
	uint64_t prev = has_perf ? o[DS_PERFLBL] : o[DS_FOOTER];
	for (int i = DS_SIZELBL; i <= DS_ADDRLBL; i++) {
		if ((unsigned)i < x->first) continue;
		libdumpi_order = libdumpi_order && prev < o[i];
		prev = o[i];
	}
	return !libdumpi_order || s->cpu_bias != 0;
}

static void check_records_match(bin_ctx *x, const dumpi_stream_ctx *s)
{
	bool rewritten = looks_rewritten(x, s);
	int rule = rewritten ? HV_R_DUMPI_FOOTER_RECORDS_MATCH_REWRITTEN : HV_R_DUMPI_FOOTER_RECORDS_MATCH;
	for (int f = 0; f < DUMPI_ALL_FUNCTIONS; f++) {
		if (x->ignored[f] > x->called[f]) continue; /* already reported */
		uint64_t want = x->called[f] - x->ignored[f];
		char path[48];
		/* the path is formatted only for a stored failure: 290 entries a rank file */
		if (!hv_eval(x->r, rule, s->records[f] == want))
			hv_emit(x->r, rule, x->b->name, x->off[DS_FOOTER] + 8 + 4 * f, 4,
				(snprintf(path, sizeof path, "footer/called[%d]", f), path),
				"%s: %llu record(s) in the stream, but the footer says called %u - ignored %u = %llu%s",
				dumpi_function_name((unsigned)f), (unsigned long long)s->records[f], x->called[f],
				x->ignored[f], (unsigned long long)want, rewritten ? " (rewritten trace)" : "");
	}
}

static void check_clock_notes(bin_ctx *x, const dumpi_stream_ctx *s)
{
	uint64_t st = x->info.starttime, wb = s->wall_bias;
	bool epoch = x->info.header_ok && (st > wb ? st - wb : wb - st) <= 1;
	if (!hv_eval(x->r, HV_R_DUMPI_TIME_CLOCK_EPOCH, !epoch))
		hv_emit(x->r, HV_R_DUMPI_TIME_CLOCK_EPOCH, x->b->name, x->off[DS_BODY] + 4, 4, "stream/wall_bias",
			"wall bias %llu equals the header starttime %llu: the wall clock is the epoch clock "
			"(gettimeofday), wall times are absolute dates",
			(unsigned long long)wb, (unsigned long long)st);
	if (!hv_eval(x->r, HV_R_DUMPI_TIME_CPU_BIAS_NONZERO, s->cpu_bias == 0))
		hv_emit(x->r, HV_R_DUMPI_TIME_CPU_BIAS_NONZERO, x->b->name, x->off[DS_BODY], 4, "stream/cpu_bias",
			"CPU bias is %u s; libdumpi writes 0, dumpi2dumpi/ascii2dumpi the first record's seconds",
			s->cpu_bias);
}

static void check_stream(bin_ctx *x)
{
	uint64_t body = x->off[DS_BODY], header = x->off[DS_HEADER];
	if (!body || !header) return;
	if (!hv_eval(x->r, HV_R_DUMPI_STREAM_END_LABEL, body < header)) {
		hv_emit(x->r, HV_R_DUMPI_STREAM_END_LABEL, x->b->name, header, 0, "index/header",
			"the header at 0x%llx precedes the stream at 0x%llx; the stream must end just before the header",
			(unsigned long long)header, (unsigned long long)body);
		return;
	}
	dumpi_stream_ctx s = {.b = x->b, .r = x->r, .body = body, .limit = header, .perf_labels = x->perf_labels};
	if (x->info.header_ok) memcpy(s.version, x->info.version, 3);
	else memcpy(s.version, (uint8_t[3]){DUMPI_KNOWN_MAJOR, DUMPI_KNOWN_SUB, 0}, 3);
	x->mpi = mpi_rank_new(x->b, x->r, s.version);
	mpi_rank_set_options(x->mpi, x->opt);
	if (x->footer_ok) mpi_rank_set_ignored(x->mpi, x->off[DS_FOOTER], x->called, x->ignored, DUMPI_ALL_FUNCTIONS);
	s.mpi = x->mpi;
	dumpi_check_stream(&s);
	mpi_rank_end(x->mpi, false); /* no-op when the stream reached its end */
	x->info.cpu_bias = s.cpu_bias;
	x->info.wall_bias = s.wall_bias;
	/* The stream occupies [body, end): no section may sit inside it. */
	for (int i = 0; i < DS_COUNT; i++) {
		if (i == DS_BODY || !x->end[i]) continue;
		bool ok = !hv_ranges_overlap(body, s.end - body, x->off[i], x->end[i] - x->off[i]);
		if (!hv_eval(x->r, HV_R_DUMPI_SEC_OVERLAP, ok))
			hv_emit(x->r, HV_R_DUMPI_SEC_OVERLAP, x->b->name, x->off[i], x->end[i] - x->off[i], "index",
				"%s [0x%llx, 0x%llx) lies inside the record stream [0x%llx, 0x%llx)", dumpi_sec_names[i],
				(unsigned long long)x->off[i], (unsigned long long)x->end[i], (unsigned long long)body,
				(unsigned long long)s.end);
	}
	check_clock_notes(x, &s);
	if (s.walked && x->footer_ok) check_records_match(x, &s);
}

void dumpi_check_bin(const hv_options *opt, hv_blob *b, hv_report *r, dumpi_bin_info *info)
{
	mpi_rank *m = NULL;
	dumpi_check_bin_mpi(opt, b, r, info, &m);
	if (m) mpi_trace_check(opt, r, &m, 1, 0);
	mpi_rank_free(m);
}

void dumpi_check_bin_mpi(const hv_options *opt, hv_blob *b, hv_report *r, dumpi_bin_info *info, mpi_rank **mpi)
{
	*mpi = NULL;
	bin_ctx *x = hv_calloc(1, sizeof *x);
	if (!x) {
		hv_report_internal(r, "out of memory");
		return;
	}
	x->opt = opt;
	x->b = b;
	x->r = r;
	if (info) memset(info, 0, sizeof *info);
	if (!hv_eval(r, HV_R_DUMPI_BIN_TRUNCATED, b->size >= DUMPI_MIN_SIZE)) {
		hv_emit(r, HV_R_DUMPI_BIN_TRUNCATED, b->name, 0, b->size, "",
			"the file has %llu bytes; a DUMPI trace has at least %u", (unsigned long long)b->size,
			DUMPI_MIN_SIZE);
		free(x);
		return;
	}
	if (!hv_window_init(&x->w, b, HV_WINDOW_DEFAULT)) {
		hv_report_internal(r, "out of memory");
		free(x);
		return;
	}
	unsigned index_size = find_index(&x->w, b->size);
	x->idx = b->size - (index_size ? index_size : DUMPI_INDEX_SIZE);
	x->first = index_size ? DS_COUNT - (index_size - 8) / 8 : DS_SIZELBL;
	const uint8_t *p = hv_window_get(&x->w, 0, 8);
	if (p && !hv_eval(r, HV_R_DUMPI_BIN_MAGIC, memcmp(p, dumpi_head_magic, 8) == 0))
		hv_emit(r, HV_R_DUMPI_BIN_MAGIC, b->name, 0, 8, "magic",
			"lead-in is %02x %02x %02x %02x %02x %02x %02x %02x, want ff aa dd 44 55 4d 50 49 (\\xff\\xaa\\xddDUMPI)",
			p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
	if (!index_size && b->io_failed) {
		/* unreadable: reported as an I/O failure, not as a rule */
	} else if (!hv_eval(r, HV_R_DUMPI_INDEX_MAGIC, index_size != 0)) {
		hv_emit(r, HV_R_DUMPI_INDEX_MAGIC, b->name, x->idx, 8, "index/magic",
			"no DUMPI magic at EOF-64 (0x%llx), nor at EOF-56, EOF-48 or EOF-40 (older index layouts): "
			"the file is truncated or has trailing bytes; nothing else can be located",
			(unsigned long long)x->idx);
	} else {
		check_index(x);
		check_header(x);
		check_index_layout(x);
		check_footer(x);
		check_keyval(x);
		check_perflbl(x);
		check_sizes(x);
		check_addrlbl(x);
		check_overlap(x);
		check_stream(x);
	}
	if (info) *info = x->info;
	*mpi = x->mpi;
	hv_window_free(&x->w);
	free(x);
}

static void bin_check_file(const hv_options *opt, hv_blob *b, hv_report *r)
{
	if (opt && opt->dumpi_replay) snprintf(r->format, sizeof r->format, "dumpi .bin (--mpi-replay)");
	dumpi_check_bin(opt, b, r, NULL);
}

const hv_format hv_format_dumpi_bin = {
	.name = "dumpi .bin",
	.file_name = NULL,
	.sniff = dumpi_sniff_bin,
	.check = bin_check_file,
};
