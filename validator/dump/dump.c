/* See dump.h: the driver (files, report, selection); it hands each file to
 * its per-format dumper (dumpers.h). */
#include "dumpers.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/validate.h"
#include "dumpi/dumpi.h"
#include "core/hv_int.h"
#include "hpctoolkit/cctdb/cctdb.h"
#include "hpctoolkit/hpctoolkit.h"
#include "hpctoolkit/taxonomy/taxonomy.h"
#include "hpctoolkit/profiledb/profiledb.h"
#include "hpctoolkit/tracedb/tracedb.h"
#include "ovni/ovni.h"
#include "output/output.h"

static bool parse_u64(const char *s, size_t len, uint64_t *v)
{
	if (len == 0 || len > 20) return false;
	uint64_t x = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') return false;
		uint64_t dgt = (uint64_t)(s[i] - '0');
		if (x > (UINT64_MAX - dgt) / 10) return false;
		x = x * 10 + dgt;
	}
	*v = x;
	return true;
}

bool hv_dump_parse_select(const char *s, hv_dump_select *sel, char *why, size_t wlen)
{
	static const char keys[] = "file, rank, records (events, items), profile, context, subtree";
	while (*s) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		/* KEY=VALUE or KEY:VALUE, split at the first of either (a file
		 * name part after it may hold both) */
		size_t klen = strcspn(s, "=:");
		if (klen >= len) {
			snprintf(why, wlen, "'%.*s' is not KEY=VALUE or KEY:VALUE (keys: %s)", (int)len, s, keys);
			return false;
		}
		size_t vlen = len - klen - 1;
		const char *v = s + klen + 1;
		bool ok = true;
		if (klen == 4 && strncmp(s, "file", 4) == 0) {
			char *f = hv_malloc(vlen + 1);
			if (!f) {
				snprintf(why, wlen, "out of memory");
				return false;
			}
			memcpy(f, v, vlen);
			f[vlen] = '\0';
			free((char *)sel->file);
			sel->file = f;
		} else if (klen == 4 && strncmp(s, "rank", 4) == 0) {
			ok = parse_u64(v, vlen, &sel->rank) && (sel->have_rank = true);
		} else if (klen == 7 && strncmp(s, "context", 7) == 0) {
			ok = parse_u64(v, vlen, &sel->context) && (sel->have_context = true);
		} else if (klen == 7 && strncmp(s, "subtree", 7) == 0) {
			ok = parse_u64(v, vlen, &sel->subtree) && (sel->have_subtree = true);
		} else if (klen == 7 && strncmp(s, "profile", 7) == 0) {
			ok = parse_u64(v, vlen, &sel->profile) && (sel->have_profile = true);
		} else if ((klen == 7 && strncmp(s, "records", 7) == 0) || (klen == 6 && strncmp(s, "events", 6) == 0) ||
			   (klen == 5 && strncmp(s, "items", 5) == 0)) {
			const char *dash = memchr(v, '-', vlen);
			if (dash) {
				ok = parse_u64(v, (size_t)(dash - v), &sel->first) &&
				     parse_u64(dash + 1, vlen - (size_t)(dash - v) - 1, &sel->last) && sel->first <= sel->last;
			} else {
				ok = parse_u64(v, vlen, &sel->first);
				sel->last = sel->first;
			}
			sel->have_range = ok;
		} else {
			snprintf(why, wlen, "unknown selector '%.*s' (%s)", (int)klen, s, keys);
			return false;
		}
		if (!ok) {
			snprintf(why, wlen, "bad value in '%.*s'", (int)len, s);
			return false;
		}
		s += len;
		if (*s == ',') s++;
	}
	if (sel->have_context && sel->have_subtree) {
		snprintf(why, wlen, "context and subtree select contexts two ways: give one (context: that context alone, "
				    "subtree: it and every context below it)");
		return false;
	}
	return true;
}

/* The rank of a DUMPI .bin from its name (PREFIX-NNNN.bin), else none. */
static bool dumpi_rank_of(const char *name, uint64_t *rank)
{
	size_t l = strlen(name);
	if (l < 9 || strcmp(name + l - 4, ".bin") != 0) return false;
	const char *dash = name + l - 5;
	while (dash > name && *dash >= '0' && *dash <= '9') dash--;
	if (*dash != '-') return false;
	return parse_u64(dash + 1, (size_t)(name + l - 4 - dash - 1), rank);
}

/* ovni: the process of a stream path ".../proc.N/thread.M/stream.obs". */
static bool ovni_proc_of(const char *name, uint64_t *proc)
{
	const char *p = strstr(name, "proc.");
	if (!p) return false;
	p += 5;
	size_t n = 0;
	while (p[n] >= '0' && p[n] <= '9') n++;
	return parse_u64(p, n, proc);
}

static bool file_selected(const hv_dump_select *s, const hv_blob *b)
{
	if (s->file && !strstr(b->name ? b->name : "", s->file)) return false;
	if (s->have_rank) {
		uint64_t rk;
		if (!(dumpi_rank_of(b->name, &rk) || ovni_proc_of(b->name, &rk)) || rk != s->rank) return false;
	}
	return true;
}

/* The first error the validation reported in this file: from there on the
 * structure is decoded as the bytes say, not as the spec guarantees. */
static const hv_diag *first_error(const hv_report *r, const char *name)
{
	const hv_diag *best = NULL;
	for (size_t i = 0; r && i < r->ndiags; i++) {
		const hv_diag *d = &r->diags[i];
		if (d->sev != HV_SEV_ERROR || !d->file || strcmp(d->file, name) != 0) continue;
		if (!best || d->offset < best->offset) best = d;
	}
	return best;
}

static void dump_file(hv_dump_out *w, const hv_dump_opts *o, hv_blob *b, const hv_report *r, hv_dump_hits *hits,
		      const uint64_t *sub, size_t nsub)
{
	bool by_name = false;
	const hv_format *fmt = hv_detect(b, &by_name);
	const char *name = b->name ? b->name : "";
	/* a database's metric taxonomy (no single-file format of its own) */
	bool tax = !fmt && hpctk_is_taxonomy_name(name);
	const char *fmt_name = tax ? "hpctoolkit metric taxonomy" : fmt ? fmt->name : "unrecognized";
	const hv_diag *e = first_error(r, name);
	dw_obj_begin(w, NULL);
	if (!w->json) {
		char shown[512];
		hv_out_clean(name, shown, sizeof shown);
		fprintf(w->f, "== %s (%s, %" PRIu64 " bytes)\n", shown, fmt_name, b->size);
		if (e)
			fprintf(w->f, "   untrusted from 0x%" PRIx64 " on (%s): items there are marked (UNTRUSTED)\n", e->offset,
				hv_rules[e->rule].id);
		w->have_untrusted = e != NULL;
		w->untrusted_from = e ? e->offset : 0;
	} else {
		dw_str(w, "name", name);
		dw_u64(w, "size", b->size);
		dw_str(w, "format", fmt_name);
	}
	if (!w->json) {
		/* said above */
	} else if (e) {
		dw_obj_begin(w, "untrusted_from");
		dw_u64(w, "offset", e->offset);
		dw_str(w, "rule", hv_rules[e->rule].id);
		dw_obj_end(w);
		w->have_untrusted = true;
		w->untrusted_from = e->offset;
	} else {
		dw_null(w, "untrusted_from");
		w->have_untrusted = false;
	}
	dw_arr_begin(w, "items");
	hv_dump_ctx d;
	memset(&d, 0, sizeof d);
	d.w = w;
	d.o = o;
	d.b = b;
	d.draft = r && strcmp(r->edition, "draft") == 0;
	d.hits = hits;
	d.sub = sub;
	d.nsub = nsub;
	/* Value blocks that overlap each other would show the same bytes once
	 * per block: the output stays within what the file can hold (10 bytes
	 * a value at least), as it always is for blocks that do not overlap. */
	d.values_left = b->size / 10;
	if (!hv_window_init(&d.win, b, HV_WINDOW_DEFAULT)) {
		hv_dump_stop(&d, 0, "out of memory");
	} else if (tax) {
		hv_dump_taxonomy(&d);
	} else if (fmt == &hv_format_dumpi_bin) {
		hv_dump_dumpi_bin(&d);
	} else if (fmt == &hv_format_dumpi_meta) {
		hv_dump_dumpi_meta(&d);
	} else if (fmt == &hv_format_ovni_stream) {
		hv_dump_ovni_stream(&d);
	} else if (fmt == &hv_format_ovni_json) {
		hv_dump_ovni_json(&d);
	} else if (fmt == &hv_format_hpctk_metadb) {
		hv_dump_hpctk(&d, "meta.db");
	} else if (fmt == &hv_format_hpctk_profiledb) {
		hv_dump_hpctk(&d, "profile.db");
	} else if (fmt == &hv_format_hpctk_cctdb) {
		hv_dump_hpctk(&d, "cct.db");
	} else if (fmt == &hv_format_hpctk_tracedb) {
		hv_dump_hpctk(&d, "trace.db");
	} else {
		/* unrecognised files: their size only */
		dw_item_begin(w, "file", "", 0, b->size);
		dw_str(w, "note", fmt ? "no structure dump for this format" : "not a format hpcvet knows");
		dw_item_end(w);
	}
	hv_window_free(&d.win);
	dw_arr_end(w);
	dw_obj_end(w);
	w->have_untrusted = false;
}

static void dump_report(hv_dump_out *w, const hv_report *r, bool strict)
{
	if (!w->json) {
		fprintf(w->f, "== validation: %s (%" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64 " notes)%s%s\n",
			hv_verdict(r, strict), r->count[HV_SEV_ERROR], r->count[HV_SEV_WARNING], r->count[HV_SEV_NOTE],
			r->unreadable || r->internal_error ? ": " : "", r->unreadable || r->internal_error ? r->problem : "");
		for (size_t i = 0; i < r->ndiags; i++) {
			const hv_diag *d = &r->diags[i];
			char msg[HV_MSG_MAX + 64];
			hv_out_clean(d->msg, msg, sizeof msg);
			char at[24] = "";
			if (!hv_diag_whole(d)) snprintf(at, sizeof at, ":0x%" PRIx64, d->offset);
			fprintf(w->f, "%s[%s] at %s%s%s%s%s: %s\n", hv_sev_name(d->sev), hv_rules[d->rule].id,
				d->file ? d->file : "", at, d->path[0] ? " (" : "", d->path, d->path[0] ? ")" : "", msg);
		}
		return;
	}
	dw_obj_begin(w, "report");
	dw_str(w, "verdict", hv_verdict(r, strict));
	if (r->unreadable || r->internal_error) dw_str(w, "problem", r->problem);
	dw_u64(w, "errors", r->count[HV_SEV_ERROR]);
	dw_u64(w, "warnings", r->count[HV_SEV_WARNING]);
	dw_u64(w, "notes", r->count[HV_SEV_NOTE]);
	dw_u64(w, "suppressed", r->suppressed);
	dw_arr_begin(w, "diagnostics");
	for (size_t i = 0; i < r->ndiags; i++) {
		const hv_diag *d = &r->diags[i];
		{
			dw_obj_begin(w, NULL);
			dw_str(w, "rule", hv_rules[d->rule].id);
			dw_str(w, "severity", hv_sev_name(d->sev));
			dw_str(w, "file", d->file ? d->file : "");
			dw_u64(w, "offset", d->offset);
			dw_u64(w, "length", d->length);
			dw_str(w, "struct_path", d->path);
			dw_str(w, "message", d->msg);
			dw_obj_end(w);
		}
	}
	dw_arr_end(w);
	dw_obj_end(w);
}

/* --select=subtree: the subtree's ctxIds, from the input's first meta.db
 * (read without output), so the other files can show their values. */
static size_t subtree_ids(const hv_dump_opts *o, hv_blob *blobs, size_t n, const hv_report *r, hv_dump_hits *hits,
			  uint64_t **ids)
{
	*ids = NULL;
	for (size_t i = 0; i < n; i++) {
		bool by_name = false;
		if (hv_detect(&blobs[i], &by_name) != &hv_format_hpctk_metadb) continue;
		hv_dump_out quiet;
		dw_init(&quiet, NULL, true);
		hv_dump_ctx d;
		memset(&d, 0, sizeof d);
		d.w = &quiet;
		d.o = o;
		d.b = &blobs[i];
		d.draft = r && strcmp(r->edition, "draft") == 0;
		d.hits = hits;
		if (!hv_window_init(&d.win, &blobs[i], HV_WINDOW_DEFAULT)) return 0;
		size_t k = hv_dump_metadb_subtree_ids(&d, ids);
		hv_window_free(&d.win);
		return k;
	}
	return 0;
}

void hv_dump(FILE *out, const hv_dump_opts *o, const char *input, hv_blob *blobs, size_t n, const hv_report *r,
	     hv_dump_hits *hits)
{
	hv_dump_hits own;
	if (!hits) hits = &own;
	memset(hits, 0, sizeof *hits);
	uint64_t *sub = NULL;
	size_t nsub = o->sel.have_subtree ? subtree_ids(o, blobs, n, r, hits, &sub) : 0;
	hv_dump_out w;
	dw_init(&w, out, o->json);
	dw_set_budget(&w, o->max_items);
	dw_obj_begin(&w, NULL);
	if (w.json) {
		dw_str(&w, "dump_format", "hpcvet-dump/1");
		dw_obj_begin(&w, "tool");
		dw_str(&w, "name", "hpcvet");
		dw_str(&w, "version", HV_VERSION);
		dw_obj_end(&w);
	}
	if (w.json) {
		dw_str(&w, "input", input);
	} else {
		char shown[512];
		hv_out_clean(input, shown, sizeof shown);
		fprintf(out, "hpcvet dump of %s\n", shown);
	}
	dw_arr_begin(&w, "files");
	/* past the output budget the files left are not listed (the "stop" item said so) */
	for (size_t i = 0; i < n && !dw_full(&w); i++)
		if (file_selected(&o->sel, &blobs[i])) {
			hits->file = true;
			dump_file(&w, o, &blobs[i], r, hits, sub, nsub);
		}
	dw_arr_end(&w);
	hits->cut = dw_full(&w);
	if (o->before_report) o->before_report(o->before_report_ctx);
	dump_report(&w, r, o->strict);
	dw_obj_end(&w);
	if (w.json) fputc('\n', out);
	free(sub);
}
