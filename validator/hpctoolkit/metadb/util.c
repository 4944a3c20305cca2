/* meta.db helpers: strings, arrays, strides, element references, ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "internal.h"

const char *const md_sec_name[MD_NSEC] = {"General", "IdNames", "Metrics", "Context",
					  "Strings", "Modules", "Files", "Functions"};

static unsigned long long U(uint64_t v) { return (unsigned long long)v; }

bool md_check_section_size(md_state *m, enum md_sec s, uint64_t need)
{
	char path[HV_PATH_MAX];
	snprintf(path, sizeof path, "meta.db/%s", md_sec_name[s]);
	if (hv_eval(m->r, HV_R_METADB_SEC_TOO_SMALL, m->len[s] >= need)) return true;
	hv_emit(m->r, HV_R_METADB_SEC_TOO_SMALL, m->b->name, m->lo[s], m->len[s], path,
		"section %s is 0x%llx bytes, smaller than its 0x%llx-byte header structure", md_sec_name[s],
		U(m->len[s]), U(need));
	m->usable[s] = false;
	return false;
}

/* Length of the UTF-8 sequence at p (RFC 3629: shortest form, no
 * surrogates, at most U+10FFFF), or 0 when it is not one. p < end. */
static unsigned utf8_sequence(const uint8_t *p, const uint8_t *end)
{
	uint8_t c = p[0];
	if (c < 0x80) return 1;
	unsigned n;
	uint32_t cp, min;
	if (c >= 0xc2 && c <= 0xdf) n = 2, cp = c & 0x1fu, min = 0x80;
	else if ((c & 0xf0) == 0xe0) n = 3, cp = c & 0x0fu, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4) n = 4, cp = c & 0x07u, min = 0x10000;
	else return 0; /* a continuation byte, an overlong lead (c0, c1) or beyond U+10FFFF */
	if ((size_t)(end - p) < n) return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
	return n;
}

/* Strings are UTF-8 (R,D §Formats legend, char*). Many pointers may share
 * one long string or its tail, so each byte is decoded as a character
 * start at most once per file: from a boundary already checked on, the
 * decoding is the same as before, and any fault there is reported already.
 * That keeps the work linear in the file size whatever the pointers do. */
static void check_utf8(md_state *m, enum md_sec s, uint64_t ptr, const char *path, const char *what)
{
	if (m->detecting) return;
	if (!m->utf8_seen[s]) {
		m->utf8_seen[s] = hv_calloc((size_t)(m->len[s] / 8 + 1), 1);
		if (!m->utf8_seen[s]) {
			m->oom = true;
			return;
		}
	}
	uint8_t *seen = m->utf8_seen[s];
	const uint8_t *end = m->mem + m->last_nul[s] + 1; /* the string's NUL lies at or before it */
	uint64_t at = ptr, bad = 0;
	unsigned bad_len = 0;
	uint64_t stop = m->last_nul[s] + 1;
	while (at < stop && m->mem[at] != 0) {
		uint64_t rel = at - m->lo[s];
		/* Fast path: 8 bytes of plain ASCII (no NUL) covering one whole,
		 * untouched bitmap byte are 8 character boundaries at once. */
		if (rel % 8 == 0 && stop - at >= 8 && seen[rel / 8] == 0) {
			uint64_t x;
			memcpy(&x, m->mem + at, 8);
			const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
			if ((x & highs) == 0 && ((x - ones) & ~x & highs) == 0) {
				seen[rel / 8] = 0xff;
				at += 8;
				continue;
			}
		}
		uint8_t bit = (uint8_t)(1u << (rel % 8));
		if (seen[rel / 8] & bit) break;
		seen[rel / 8] |= bit;
		unsigned n = utf8_sequence(m->mem + at, end);
		if (n == 0 && bad_len == 0) bad = at, bad_len = 1;
		at += n ? n : 1; /* resynchronise on the next byte */
	}
	if (hv_eval(m->r, HV_R_METADB_STRING_UTF8, bad_len == 0)) return;
	hv_emit(m->r, HV_R_METADB_STRING_UTF8, m->b->name, bad, bad_len, path,
		"the string at %s 0x%llx is not valid UTF-8: byte 0x%02x at 0x%llx (offset %llu in the string) starts "
		"no valid sequence (strings are NUL-terminated UTF-8)",
		what, U(ptr), m->mem[bad], U(bad), U(bad - ptr));
}

bool md_check_string(md_state *m, int rule, enum md_sec s, uint64_t field, uint64_t ptr, const char *path,
		     const char *what)
{
	if (!m->usable[s]) return true;
	uint64_t lo = m->lo[s], end = m->lo[s] + m->len[s];
	bool inside = ptr >= lo && ptr < end;
	/* Terminated iff some NUL lies at or after ptr inside the section: one
	 * comparison with the section's last NUL, so no input can make string
	 * checks quadratic. */
	bool ok = inside && m->has_nul[s] && ptr <= m->last_nul[s];
	if (hv_eval(m->r, rule, ok)) {
		check_utf8(m, s, ptr, path, what);
		return true;
	}
	if (!inside)
		hv_emit(m->r, rule, m->b->name, field, 8, path,
			"%s 0x%llx is outside the %s section [0x%llx, 0x%llx), which must hold the string and its NUL",
			what, U(ptr), md_sec_name[s], U(lo), U(end));
	else
		hv_emit(m->r, rule, m->b->name, ptr, end - ptr, path,
			"the string at %s 0x%llx has no terminating NUL before the end of the %s section at 0x%llx", what,
			U(ptr), md_sec_name[s], U(end));
	return false;
}

bool md_check_array(md_state *m, int r_contained, int r_aligned, enum md_sec s, uint64_t field, uint64_t ptr,
		    uint64_t count, uint64_t stride, unsigned align, const char *path, const char *what)
{
	if (count == 0) return true;
	uint64_t lo = m->lo[s], end = m->lo[s] + m->len[s];
	uint64_t bytes = hv_mul_sat(count, stride);
	bool start_in = ptr >= lo && ptr < end;
	if (start_in && r_aligned >= 0 && !hv_eval(m->r, r_aligned, hv_aligned(ptr, align))) {
		hv_emit(m->r, r_aligned, m->b->name, field, 8, path, "%s 0x%llx is not %u-byte aligned", what, U(ptr),
			align);
		return false;
	}
	if (hv_eval(m->r, r_contained, start_in && hv_range_within(ptr, bytes, lo, m->len[s]))) return true;
	if (bytes == UINT64_MAX)
		hv_emit(m->r, r_contained, m->b->name, field, 8, path,
			"%s: %llu elements of 0x%llx bytes overflow 64 bits", what, U(count), U(stride));
	else if (stride == 1) /* a byte-sized array (szChildren) */
		hv_emit(m->r, r_contained, m->b->name, field, 8, path,
			"%s [0x%llx, +0x%llx) is not inside the %s section [0x%llx, 0x%llx)", what, U(ptr), U(bytes),
			md_sec_name[s], U(lo), U(end));
	else
		hv_emit(m->r, r_contained, m->b->name, field, 8, path,
			"%s [0x%llx, +0x%llx) (%llu x 0x%llx bytes) is not inside the %s section [0x%llx, 0x%llx)", what,
			U(ptr), U(bytes), U(count), U(stride), md_sec_name[s], U(lo), U(end));
	return false;
}

bool md_check_stride(md_state *m, int rule, uint64_t field, unsigned width, uint64_t value, uint64_t min,
		     const char *path, const char *name, const char *structure)
{
	if (hv_eval(m->r, rule, value >= min)) return true;
	hv_emit(m->r, rule, m->b->name, field, width, path,
		"%s is 0x%llx, smaller than the 0x%llx bytes of %s: elements would overlap", name, U(value), U(min),
		structure);
	return false;
}

bool md_stride_once(md_state *m, int *state, int rule, uint64_t field, uint64_t value, uint64_t min,
		    const char *name, const char *structure)
{
	if (*state < 0) {
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "meta.db/Metrics/%s", name);
		*state = md_check_stride(m, rule, field, 1, value, min, path, name, structure);
	}
	return *state == 1;
}

bool md_check_ref(md_state *m, int rule, const md_array *a, uint64_t field, uint64_t ptr, const char *path,
		  const char *what, const char *array)
{
	if (!a->ok) return true;
	if (hv_eval(m->r, rule, md_ref_fits(a, ptr))) return true;
	if (ptr >= a->base && (ptr - a->base) / a->stride < a->count)
		hv_emit(m->r, rule, m->b->name, field, 8, path,
			"%s 0x%llx points inside %s element %llu (at 0x%llx), not at its start", what, U(ptr), array,
			U((ptr - a->base) / a->stride), U(a->base + (ptr - a->base) / a->stride * a->stride));
	else
		hv_emit(m->r, rule, m->b->name, field, 8, path,
			"%s 0x%llx is not an element of %s [0x%llx, %llu x 0x%llx)", what, U(ptr), array, U(a->base),
			U(a->count), U(a->stride));
	return false;
}

void md_idvec_push(md_state *m, md_idvec *v, uint32_t id, uint64_t off)
{
	if (!HV_GROW(v->v, v->cap, v->n + 1, 64)) {
		m->oom = true;
		return;
	}
	v->v[v->n++] = (md_idref){.off = off, .id = id};
}

void md_idvec_free(md_idvec *v)
{
	free(v->v);
	memset(v, 0, sizeof *v);
}

static int cmp_idref(const void *a, const void *b)
{
	const md_idref *x = a, *y = b;
	if (x->id != y->id) return x->id < y->id ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* When no id repeats and the ids are dense enough for a bitmap (writers
 * number metrics from 0 or 1 up), sorts `v` by
 * id in linear time (each id's rank is the number of bits set below it) and
 * returns true. Otherwise returns false and leaves `v` as it was: the caller
 * sorts, which also orders the report by id and names the first holder of
 * each repeated id. Callers after the check (the database summary) rely on
 * the vector being sorted either way. */
static bool sort_distinct_ids(md_idvec *v)
{
	uint32_t max = 0;
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i].id > max) max = v->v[i].id;
	size_t words = (size_t)(max / 64) + 1;
	if (v->n > UINT32_MAX || words / 4 > v->n + 256) return false; /* sparse: over 32 bytes of bitmap per id */
	uint64_t *seen = hv_calloc(words, sizeof *seen);
	uint32_t *below = hv_malloc(words * sizeof *below);
	md_idref *out = hv_malloc(v->n * sizeof *out);
	bool distinct = seen && below && out;
	for (size_t i = 0; i < v->n && distinct; i++) {
		uint32_t id = v->v[i].id;
		uint64_t bit = (uint64_t)1 << (id % 64);
		distinct = (seen[id / 64] & bit) == 0;
		seen[id / 64] |= bit;
	}
	if (distinct) {
		uint32_t total = 0;
		for (size_t w = 0; w < words; w++) {
			below[w] = total;
			total += (uint32_t)__builtin_popcountll(seen[w]);
		}
		for (size_t i = 0; i < v->n; i++) {
			uint32_t id = v->v[i].id;
			uint64_t lower = seen[id / 64] & (((uint64_t)1 << (id % 64)) - 1);
			out[below[id / 64] + (uint32_t)__builtin_popcountll(lower)] = v->v[i];
		}
		memcpy(v->v, out, v->n * sizeof *out);
	}
	free(seen);
	free(below);
	free(out);
	return distinct;
}

void md_idvec_check_unique(md_state *m, md_idvec *v, int rule, const char *prefix, const char *field,
			   unsigned width, const char *what)
{
	if (v->n == 0) return;
	if (sort_distinct_ids(v)) {
		m->r->evaluated[rule] += v->n; /* one evaluation per id, all passing */
		return;
	}
	md_idvec_report_repeats(m, v, rule, prefix, field, width, what);
}

void md_idvec_report_repeats(md_state *m, md_idvec *v, int rule, const char *prefix, const char *field,
			     unsigned width, const char *what)
{
	qsort(v->v, v->n, sizeof *v->v, cmp_idref);
	char path[HV_PATH_MAX];
	size_t first = 0; /* first holder of the current run of equal ids */
	for (size_t i = 0; i < v->n; i++) {
		bool dup = i > 0 && v->v[i].id == v->v[i - 1].id;
		if (!dup) first = i;
		if (hv_eval(m->r, rule, !dup)) continue;
		snprintf(path, sizeof path, "%s@0x%llx/%s", prefix, U(v->v[i].off), field);
		hv_emit(m->r, rule, m->b->name, v->v[i].off, width, path, "%s %u is already used at 0x%llx", what,
			v->v[i].id, U(v->v[first].off));
	}
}

/* The fields of a summary statistic both editions share (pFormula, combine,
 * statMetricId), at the offsets each edition gives. */
void md_check_summary_fields(md_state *m, uint64_t formula, uint64_t combine_at, uint64_t stat_at, char *path,
			     size_t cap, int len)
{
	snprintf(path + len, cap - (size_t)len, "/pFormula");
	md_check_string(m, HV_R_METADB_METRICS_FORMULA_STRING, MD_METRICS, formula, md_u64(m, formula), path, "pFormula");
	uint8_t combine = md_u8(m, combine_at);
	snprintf(path + len, cap - (size_t)len, "/combine");
	if (!hv_eval(m->r, HV_R_METADB_METRICS_COMBINE_KNOWN, combine <= 2))
		hv_emit_sev(m->r, HV_R_METADB_METRICS_COMBINE_KNOWN, md_enum_sev(m), m->b->name, combine_at, 1, path,
			    "combine %u is not 0 (sum), 1 (min) or 2 (max)", combine);
	md_idvec_push(m, &m->stat_ids, md_u16(m, stat_at), stat_at);
	m->walked++;
}
