/* meta.db writer, parts common to both editions: the file header and
 * footer, section placement, and the General, Identifier Names, Strings,
 * Load Modules, Source Files and Functions sections (identical in the draft
 * and release specs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "metadb_writer.h"

static const unsigned sec_align[MDB_NSEC] = {8, 8, 8, 8, 1, 8, 8, 8};

uint8_t mdb_junk(mdb_writer *w)
{
	if (!w->lay.junk) return 0;
	return (uint8_t)(1 + gen_below(&w->junk_rng, 255));
}

uint8_t mdb_newer_flag_bits(const mdb_writer *w, uint32_t ctx)
{
	if (w->minor < 2 || w->p->break_rule || ctx % 4 != 3) return 0;
	return (uint8_t)(0x08u << (ctx / 4 % 5));
}

void mdb_fill_junk(mdb_writer *w, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) p[i] = mdb_junk(w);
}

size_t mdb_alloc(mdb_writer *w, size_t n, size_t align)
{
	size_t before = w->sec.len;
	size_t off = gen_buf_reserve(&w->sec, n, align);
	if (w->sec.oom) return 0;
	mdb_fill_junk(w, w->sec.data + before, off - before);
	return off;
}

/* A gap of junk after a section header at a newer minor (section headers
 * are extendable: a newer writer may have put fields there). */
static void header_gap(mdb_writer *w)
{
	if (!w->lay.gap) return;
	size_t at = mdb_alloc(w, w->lay.gap, 1);
	if (!w->sec.oom) mdb_fill_junk(w, w->sec.data + at, w->lay.gap);
}

size_t mdb_str(mdb_writer *w, const char *s) { return gen_buf_str(&w->sec, s); }

void mdb_put64(mdb_writer *w, size_t rel, uint64_t v)
{
	if (!w->sec.oom) hv_put_le64(w->sec.data + rel, v);
}
void mdb_put32(mdb_writer *w, size_t rel, uint32_t v)
{
	if (!w->sec.oom) hv_put_le32(w->sec.data + rel, v);
}
void mdb_put16(mdb_writer *w, size_t rel, uint16_t v)
{
	if (!w->sec.oom) hv_put_le16(w->sec.data + rel, v);
}
void mdb_put8(mdb_writer *w, size_t rel, uint8_t v)
{
	if (!w->sec.oom) w->sec.data[rel] = v;
}

/* Strings: module paths, file paths, function names, entry point names.
 * Offsets are fixed before any section is written, since the Functions
 * and Context sections point into it wherever it lands. */
static int plan_strings(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	w->str_module = calloc(m->n_modules + 1, sizeof(uint64_t));
	w->str_file = calloc(m->n_files + 1, sizeof(uint64_t));
	w->str_function = calloc(m->n_functions + 1, sizeof(uint64_t));
	w->str_entry = calloc(m->n_entries + 1u, sizeof(uint64_t));
	if (!w->str_module || !w->str_file || !w->str_function || !w->str_entry) return -1;
	uint64_t at = 0;
	for (uint32_t i = 0; i < m->n_modules; i++) {
		w->str_module[i] = at;
		at += strlen(m->modules[i].path) + 1;
	}
	for (uint32_t i = 0; i < m->n_files; i++) {
		w->str_file[i] = at;
		at += strlen(m->files[i].path) + 1;
	}
	for (uint32_t i = 0; i < m->n_functions; i++) {
		w->str_function[i] = at;
		if (m->functions[i].name) at += strlen(m->functions[i].name) + 1;
	}
	for (uint32_t i = 0; !w->draft && i < m->n_entries; i++) {
		w->str_entry[i] = at;
		at += strlen(m->entries[i].pretty_name) + 1;
	}
	w->strings_len = at;
	return 0;
}

static void write_strings(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	for (uint32_t i = 0; i < m->n_modules; i++) mdb_str(w, m->modules[i].path);
	for (uint32_t i = 0; i < m->n_files; i++) mdb_str(w, m->files[i].path);
	for (uint32_t i = 0; i < m->n_functions; i++)
		if (m->functions[i].name) mdb_str(w, m->functions[i].name);
	for (uint32_t i = 0; !w->draft && i < m->n_entries; i++) mdb_str(w, m->entries[i].pretty_name);
}

static void write_general(mdb_writer *w)
{
	size_t h = mdb_alloc(w, 0x10, 8);
	header_gap(w);
	w->title = mdb_str(w, w->m->title);
	w->description = mdb_str(w, w->m->description);
	mdb_put64(w, h + 0x00, mdb_abs(w, MDB_GENERAL, w->title));
	mdb_put64(w, h + 0x08, mdb_abs(w, MDB_GENERAL, w->description));
}

static void write_idnames(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	size_t h = mdb_alloc(w, 0x09, 8);
	header_gap(w);
	if (w->lay.names_array_first) w->names_arr = mdb_alloc(w, 8u * m->n_kinds, 8);
	mdb_str(w, ""); /* hpcprof writes an unused empty string here */
	for (unsigned k = 0; k < m->n_kinds; k++) w->names[k] = mdb_str(w, m->kind_names[k]);
	if (!w->lay.names_array_first) w->names_arr = mdb_alloc(w, 8u * m->n_kinds, 8);
	for (unsigned k = 0; k < m->n_kinds; k++)
		mdb_put64(w, w->names_arr + 8 * k, mdb_abs(w, MDB_IDNAMES, w->names[k]));
	mdb_put64(w, h + 0x00, mdb_abs(w, MDB_IDNAMES, w->names_arr));
	mdb_put8(w, h + 0x08, m->n_kinds);
}

/* The three {LMS}/{SFS}/{FS} sections share a header shape: p, n (u32), sz (u16). */
static size_t array_section(mdb_writer *w, int sec, uint32_t n, unsigned stride, unsigned known_end)
{
	size_t h = mdb_alloc(w, 0x0e, 8);
	header_gap(w);
	size_t arr = mdb_alloc(w, (size_t)n * stride, 8);
	mdb_put64(w, h + 0x00, mdb_abs(w, sec, arr));
	mdb_put32(w, h + 0x08, n);
	mdb_put16(w, h + 0x0c, (uint16_t)stride);
	/* Bytes past the known END of each element belong to a newer minor. */
	for (uint32_t i = 0; i < n && !w->sec.oom; i++)
		mdb_fill_junk(w, w->sec.data + arr + (size_t)i * stride + known_end, stride - known_end);
	return arr;
}

/* Load Module and Source File Specifications share one shape: flags u32,
 * a reserved gap, pPath @0x08 into the Strings section. */
static size_t write_path_specs(mdb_writer *w, int sec, uint32_t n, unsigned stride,
			       uint32_t (*flags)(const hpctk_model *m, uint32_t i), const uint64_t *str)
{
	size_t arr = array_section(w, sec, n, stride, 0x10);
	for (uint32_t i = 0; i < n && !w->sec.oom; i++) {
		size_t e = arr + (size_t)i * stride;
		mdb_put32(w, e + 0x00, flags(w->m, i));
		mdb_fill_junk(w, w->sec.data + e + 0x04, 4);
		mdb_put64(w, e + 0x08, mdb_abs(w, MDB_STRINGS, str[i]));
	}
	return arr;
}

static uint32_t module_flags(const hpctk_model *m, uint32_t i) { return m->modules[i].flags; }
static uint32_t file_flags(const hpctk_model *m, uint32_t i) { return m->files[i].flags; }

static void write_modules(mdb_writer *w)
{
	w->modules_arr = write_path_specs(w, MDB_MODULES, w->m->n_modules, w->sz_module, module_flags, w->str_module);
}

static void write_files(mdb_writer *w)
{
	w->files_arr = write_path_specs(w, MDB_FILES, w->m->n_files, w->sz_file, file_flags, w->str_file);
}

static void write_functions(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	size_t arr = w->functions_arr = array_section(w, MDB_FUNCTIONS, m->n_functions, w->sz_function, 0x28);
	for (uint32_t i = 0; i < m->n_functions && !w->sec.oom; i++) {
		const hpctk_function *f = &m->functions[i];
		size_t e = arr + (size_t)i * w->sz_function;
		mdb_put64(w, e + 0x00, f->name ? mdb_abs(w, MDB_STRINGS, w->str_function[i]) : 0);
		mdb_put64(w, e + 0x08,
			  f->module != HPCTK_NONE ? w->base[MDB_MODULES] + w->modules_arr + (uint64_t)f->module * w->sz_module : 0);
		mdb_put64(w, e + 0x10, f->offset);
		mdb_put64(w, e + 0x18, f->file != HPCTK_NONE ? w->base[MDB_FILES] + w->files_arr + (uint64_t)f->file * w->sz_file : 0);
		mdb_put32(w, e + 0x20, f->line);
		/* flags: reserved; hpcprof leaves it uninitialised (research §3.1),
		 * so real files of any minor carry junk there. */
		if (w->lay.fs_flags_junk && !w->lay.junk)
			for (unsigned k = 0; k < 4; k++) w->sec.data[e + 0x24 + k] = (uint8_t)(0x11 * (1 + (i + k) % 15));
		else
			mdb_fill_junk(w, w->sec.data + e + 0x24, 4);
	}
}

static void write_section(mdb_writer *w, int s)
{
	switch (s) {
	case MDB_GENERAL: write_general(w); break;
	case MDB_IDNAMES: write_idnames(w); break;
	case MDB_METRICS: w->write_metrics(w); break;
	case MDB_CONTEXT: w->write_context(w); break;
	case MDB_STRINGS: write_strings(w); break;
	case MDB_MODULES: write_modules(w); break;
	case MDB_FILES: write_files(w); break;
	case MDB_FUNCTIONS: write_functions(w); break;
	}
}

static int alloc_positions(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	w->names = calloc(m->n_kinds + 1u, sizeof(uint64_t));
	w->inst_arr = calloc(m->n_metrics + 1, sizeof(uint64_t));
	w->sum_arr = calloc(m->n_metrics + 1, sizeof(uint64_t));
	w->draft_sum_arr = calloc((size_t)m->n_metrics * 4 + 1, sizeof(uint64_t));
	w->metric_name = calloc(m->n_metrics + 1, sizeof(uint64_t));
	w->scope_name = calloc(m->n_scopes + 1u, sizeof(uint64_t));
	w->ctx_at = calloc((size_t)m->n_ctx + 1, sizeof(uint64_t));
	w->ctx_size = calloc((size_t)m->n_ctx + 1, sizeof(unsigned));
	if (!w->names || !w->inst_arr || !w->sum_arr || !w->draft_sum_arr || !w->metric_name || !w->scope_name ||
	    !w->ctx_at || !w->ctx_size)
		return -1;
	return 0;
}

int mdb_write_file(mdb_writer *w, uint8_t **out, size_t *len, char *err, size_t errlen)
{
	if (plan_strings(w) != 0 || alloc_positions(w) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	gen_rng saved = w->junk_rng;
	/* Pass 1: measure every section (bases are dummies). */
	for (int s = 0; s < MDB_NSEC; s++) {
		w->junk_rng = saved;
		memset(&w->sec, 0, sizeof w->sec);
		write_section(w, s);
		bool oom = w->sec.oom;
		w->size[s] = w->sec.len;
		gen_buf_free(&w->sec);
		if (oom) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	/* Place the sections in physical order, 8-aligned (Strings: anywhere),
	 * with a junk gap between them at a newer minor. */
	/* A newer minor may extend the file header (END 0x90 is extendable)
	 * with a ninth {sz,p} pair for a section this reader does not know. */
	uint64_t cur = 0x90 + (w->lay.unknown_section ? 16 : 0);
	for (int k = 0; k < MDB_NSEC; k++) {
		int s = w->lay.order[k];
		cur += w->lay.gap;
		if (sec_align[s] > 1) cur = (cur + 7) & ~(uint64_t)7;
		else cur += w->lay.strings_misalign;
		if (w->lay.misalign_section == s + 1) cur += 4;
		w->base[s] = cur;
		cur += w->size[s];
	}
	cur += w->lay.gap;
	uint64_t unknown_at = 0, unknown_len = 24;
	if (w->lay.unknown_section) {
		unknown_at = cur = (cur + 7) & ~(uint64_t)7;
		cur += unknown_len;
	}
	uint64_t total = cur + 8;
	uint8_t *d = calloc(1, total);
	if (!d) {
		snprintf(err, errlen, "out of memory: %llu bytes", (unsigned long long)total);
		return -1;
	}
	w->junk_rng = saved;
	mdb_fill_junk(w, d + 0x90, total - 8 - 0x90); /* gaps; sections overwrite the rest */
	/* Pass 2: the real bytes, written in place. The section buffer is a
	 * window of the file exactly as large as pass 1 measured, so it never
	 * grows (no second copy of a large Context section); it starts zeroed
	 * like a fresh buffer, whatever junk the gaps around it hold. */
	for (int s = 0; s < MDB_NSEC; s++) {
		w->junk_rng = saved;
		memset(d + w->base[s], 0, w->size[s]);
		w->sec = (gen_buf){.data = d + w->base[s], .len = 0, .cap = w->size[s]};
		write_section(w, s);
		bool bad = w->sec.oom || w->sec.len != w->size[s] || w->sec.data != d + w->base[s];
		memset(&w->sec, 0, sizeof w->sec); /* not ours to free */
		if (bad) {
			free(d);
			snprintf(err, errlen, "internal error: section %d changed size between passes", s);
			return -1;
		}
	}
	memcpy(d, "HPCTOOLKITmeta", 14);
	d[14] = 4;
	d[15] = w->minor;
	if (w->lay.unknown_section) {
		hv_put_le64(d + 0x90, unknown_len);
		hv_put_le64(d + 0x98, unknown_at);
	}
	for (int s = 0; s < MDB_NSEC; s++) {
		hv_put_le64(d + 0x10 + 16 * s, w->size[s]);
		hv_put_le64(d + 0x18 + 16 * s, w->base[s]);
	}
	memcpy(d + total - 8, "_meta.db", 8);
	*out = d;
	*len = total;
	return 0;
}

void mdb_writer_free(mdb_writer *w)
{
	free(w->str_module);
	free(w->str_file);
	free(w->str_function);
	free(w->str_entry);
	free(w->names);
	free(w->inst_arr);
	free(w->sum_arr);
	free(w->draft_sum_arr);
	free(w->metric_name);
	free(w->scope_name);
	free(w->ctx_at);
	free(w->ctx_size);
	gen_buf_free(&w->sec);
}
