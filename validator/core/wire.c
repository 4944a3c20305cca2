#include "wire.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void hv_wbuf_free(hv_wbuf *w)
{
	free(w->p);
	memset(w, 0, sizeof *w);
}

void hv_put_bytes(hv_wbuf *w, const void *src, size_t n)
{
	if (w->failed || n == 0) return;
	if (n > SIZE_MAX - w->n || !HV_GROW(w->p, w->cap, w->n + n, 256)) {
		w->failed = true;
		return;
	}
	memcpy(w->p + w->n, src, n);
	w->n += n;
}

void hv_put_u64(hv_wbuf *w, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
	hv_put_bytes(w, b, 8);
}

void hv_put_str(hv_wbuf *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	hv_put_u64(w, n);
	hv_put_bytes(w, s, n);
}

hv_rbuf hv_rbuf_of(const void *p, size_t n)
{
	hv_rbuf r = {p, n, 0, false};
	return r;
}

bool hv_get_bytes(hv_rbuf *r, void *dst, size_t n)
{
	if (r->failed || n > r->n - r->at) {
		r->failed = true;
		if (n) memset(dst, 0, n);
		return false;
	}
	if (n) memcpy(dst, r->p + r->at, n);
	r->at += n;
	return true;
}

uint64_t hv_get_u64(hv_rbuf *r)
{
	uint8_t b[8];
	if (!hv_get_bytes(r, b, 8)) return 0;
	uint64_t v = 0;
	for (int i = 0; i < 8; i++) v |= (uint64_t)b[i] << (8 * i);
	return v;
}

bool hv_get_bool(hv_rbuf *r)
{
	uint64_t v = hv_get_u64(r);
	if (v > 1) r->failed = true;
	return v == 1;
}

bool hv_get_str(hv_rbuf *r, char *dst, size_t cap)
{
	uint64_t n = hv_get_u64(r);
	if (r->failed || n > r->n - r->at) {
		r->failed = true;
		if (cap) dst[0] = '\0';
		return false;
	}
	size_t keep = cap && n >= cap ? cap - 1 : (size_t)n;
	if (cap) {
		memcpy(dst, r->p + r->at, keep);
		dst[keep] = '\0';
	}
	r->at += (size_t)n;
	return true;
}

/* Most of a unit's counters are zero: only the rules it evaluated travel. */
void hv_report_save(const hv_report *r, hv_wbuf *w)
{
	size_t nz = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) nz += r->evaluated[i] || r->failed[i];
	hv_put_u64(w, nz);
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		if (!r->evaluated[i] && !r->failed[i]) continue;
		hv_put_u64(w, (uint64_t)i);
		hv_put_u64(w, r->evaluated[i]);
		hv_put_u64(w, r->failed[i]);
	}
	for (int s = 0; s < 3; s++) hv_put_u64(w, r->count[s]);
	hv_put_u64(w, r->suppressed);
	hv_put_u64(w, r->unreadable);
	hv_put_u64(w, r->internal_error);
	hv_put_str(w, r->problem);
	hv_put_str(w, r->format);
	hv_put_str(w, r->edition);
	hv_put_str(w, r->version);
	hv_put_u64(w, r->nparts);
	for (size_t k = 0; k < r->nparts && k < HV_PARTS_MAX; k++) {
		hv_put_str(w, r->parts[k].name);
		hv_put_str(w, r->parts[k].version);
		for (int s = 0; s < 3; s++) hv_put_u64(w, r->parts[k].count[s]);
	}
	hv_put_u64(w, r->ndiags);
	for (size_t k = 0; k < r->ndiags; k++) {
		const hv_diag *d = &r->diags[k];
		hv_put_u64(w, (uint64_t)d->rule);
		hv_put_u64(w, (uint64_t)d->sev);
		hv_put_str(w, d->file);
		hv_put_u64(w, d->offset);
		hv_put_u64(w, d->length);
		hv_put_str(w, d->path);
		hv_put_str(w, d->msg);
	}
	hv_put_u64(w, r->nghosts);
	for (size_t k = 0; k < r->nghosts; k++) {
		const hv_ghost *g = &r->ghosts[k];
		hv_put_u64(w, (uint64_t)g->rule);
		hv_put_u64(w, (uint64_t)g->sev);
		hv_put_str(w, g->file);
		hv_put_u64(w, g->offset);
	}
	/* the places of each rule's failures beyond its cap */
	hv_put_u64(w, r->max_per_rule);
	size_t nm = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) nm += hv_report_hidden(r, i) > 0;
	hv_put_u64(w, nm);
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		if (!hv_report_hidden(r, i)) continue;
		hv_put_u64(w, (uint64_t)i);
		hv_put_str(w, r->more[i].first_file);
		hv_put_u64(w, r->more[i].first_off);
		hv_put_str(w, r->more[i].last_file);
		hv_put_u64(w, r->more[i].last_off);
	}
}

/* The report as saved, into an empty t. */
static bool load_raw(hv_report *r, hv_rbuf *rd)
{
	uint64_t nz = hv_get_u64(rd);
	if (nz > HV_RULE_COUNT) rd->failed = true;
	for (uint64_t k = 0; !rd->failed && k < nz; k++) {
		uint64_t i = hv_get_u64(rd);
		uint64_t ev = hv_get_u64(rd), fa = hv_get_u64(rd);
		if (i >= HV_RULE_COUNT) {
			rd->failed = true;
			break;
		}
		r->evaluated[i] += ev;
		r->failed[i] += fa;
	}
	for (int s = 0; s < 3; s++) r->count[s] += hv_get_u64(rd);
	r->suppressed += hv_get_u64(rd);
	r->unreadable |= hv_get_bool(rd);
	r->internal_error |= hv_get_bool(rd);
	hv_get_str(rd, r->problem, sizeof r->problem);
	hv_get_str(rd, r->format, sizeof r->format);
	hv_get_str(rd, r->edition, sizeof r->edition);
	hv_get_str(rd, r->version, sizeof r->version);
	uint64_t np = hv_get_u64(rd);
	r->nparts = np <= rd->n ? (size_t)np : 0;
	for (uint64_t k = 0; !rd->failed && k < np && k < HV_PARTS_MAX; k++) {
		hv_get_str(rd, r->parts[k].name, sizeof r->parts[k].name);
		hv_get_str(rd, r->parts[k].version, sizeof r->parts[k].version);
		for (int s = 0; s < 3; s++) r->parts[k].count[s] = hv_get_u64(rd);
	}
	if (np > rd->n) rd->failed = true;
	uint64_t nd = hv_get_u64(rd);
	/* each diagnostic takes at least 7 x 8 bytes: a count beyond the bytes
	 * present is malformed, so nothing is sized by a bogus count */
	if (nd > (rd->n - rd->at) / 56) rd->failed = true;
	char file[4096];
	for (uint64_t k = 0; !rd->failed && k < nd; k++) {
		hv_diag d;
		memset(&d, 0, sizeof d);
		uint64_t rule = hv_get_u64(rd), sev = hv_get_u64(rd);
		hv_get_str(rd, file, sizeof file);
		d.offset = hv_get_u64(rd);
		d.length = hv_get_u64(rd);
		hv_get_str(rd, d.path, sizeof d.path);
		hv_get_str(rd, d.msg, sizeof d.msg);
		if (rd->failed || rule >= HV_RULE_COUNT || sev > 2) {
			rd->failed = true;
			break;
		}
		d.rule = (int)rule;
		d.sev = (enum hv_sev)sev;
		d.file = file;
		hv_report_append_diag(r, &d);
	}
	uint64_t ng = hv_get_u64(rd);
	if (ng > (rd->n - rd->at) / 32) rd->failed = true;
	for (uint64_t k = 0; !rd->failed && k < ng; k++) {
		uint64_t rule = hv_get_u64(rd), sev = hv_get_u64(rd);
		hv_get_str(rd, file, sizeof file);
		uint64_t off = hv_get_u64(rd);
		if (rd->failed || rule >= HV_RULE_COUNT || sev > 2) {
			rd->failed = true;
			break;
		}
		hv_report_append_ghost(r, &(hv_ghost){.rule = (int)rule, .sev = (enum hv_sev)sev, .file = file, .offset = off});
	}
	r->max_per_rule = (size_t)hv_get_u64(rd);
	uint64_t nm = hv_get_u64(rd);
	if (nm > HV_RULE_COUNT) rd->failed = true;
	char last[4096];
	for (uint64_t k = 0; !rd->failed && k < nm; k++) {
		uint64_t rule = hv_get_u64(rd);
		hv_more m;
		hv_get_str(rd, file, sizeof file);
		m.first_off = hv_get_u64(rd);
		hv_get_str(rd, last, sizeof last);
		m.last_off = hv_get_u64(rd);
		if (rd->failed || rule >= HV_RULE_COUNT) {
			rd->failed = true;
			break;
		}
		m.first_file = file;
		m.last_file = last;
		hv_report_set_more(r, (int)rule, &m);
	}
	return !rd->failed;
}

/* A saved report merged into r, as hv_report_merge would merge it. */
bool hv_report_load(hv_report *r, hv_rbuf *rd)
{
	hv_report t;
	hv_report_init(&t, r->input_path, SIZE_MAX);
	bool ok = load_raw(&t, rd);
	if (ok) hv_report_merge(r, &t);
	hv_report_free(&t);
	return ok;
}
