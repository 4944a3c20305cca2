/* Streaming is exact and bounded: profile.db, cct.db and trace.db handed
 * over as windowed blobs (mem == NULL, the way the CLI passes files over
 * 16 MiB) and read through 64-byte windows give exactly the same rule
 * evaluations and failures as whole-file reads -- for valid databases of
 * several shapes, both editions, and for every break of a profile.db,
 * cct.db, trace.db or cross-file rule -- and no single fetch from those
 * files is larger than the window. A second pass uses the default window
 * on a database whose files are several MiB, so windows refill many times.
 * The windowed blobs take read hints (hv_blob.will_read): the results above
 * are with them, and on the multi-MiB database each hint lies in its file
 * and names bytes the core reads after it (profile.db's next profiles). */
#include <stdlib.h>

#include "core/blob.h"
#include "core/hv_int.h"
#include "hpctoolkit/format/ranges.h"
#include "tap.h"
#include "testlib.h"

/* meta.db is made whole by its checker, and the metric taxonomy is parsed by
 * libyaml from its own buffer: neither streams through the data files' window. */
static bool is_meta(const char *name)
{
	size_t n = strlen(name);
	return strcmp(hv_basename(name), "meta.db") == 0 || (n >= 5 && strcmp(name + n - 5, ".yaml") == 0);
}

/* The hints given (hv_blob.will_read), and whether a later fetch of the
 * same file covered each one's first byte. */
#define MAX_HINTS 4096
static struct {
	const void *io[MAX_HINTS];
	uint64_t off[MAX_HINTS];
	bool read[MAX_HINTS];
	size_t n;
	bool outside;
} hints;

static void record_hint(void *io, uint64_t off, uint64_t len)
{
	const tl_memio *m = io;
	if (off >= m->n || len == 0 || len > m->n - off) hints.outside = true;
	if (hints.n < MAX_HINTS) {
		hints.io[hints.n] = io;
		hints.off[hints.n] = off;
		hints.read[hints.n++] = false;
	}
}

static bool fetch_after_hints(void *io, uint64_t off, void *dst, size_t len)
{
	for (size_t i = 0; i < hints.n; i++)
		if (hints.io[i] == io && hints.off[i] >= off && hints.off[i] - off < len) hints.read[i] = true;
	return tl_mem_fetch(io, off, dst, len);
}

/* Validate `out` with every file behind a fetch callback. */
static void validate_windowed(gen_output *out, const hv_options *opt, hv_report *r, size_t *max_fetch)
{
	static hv_blob blobs[GEN_MAX_FILES];
	static char names[GEN_MAX_FILES][160];
	static tl_memio ios[GEN_MAX_FILES];
	*max_fetch = 0;
	for (size_t i = 0; i < out->n; i++) {
		snprintf(names[i], sizeof names[i], "gen/%s", out->files[i].name);
		ios[i] = (tl_memio){.d = out->files[i].data, .n = out->files[i].len};
		blobs[i] = hv_blob_from_memory(names[i], NULL, out->files[i].len);
		blobs[i].fetch = fetch_after_hints;
		blobs[i].will_read = record_hint;
		blobs[i].io = &ios[i];
	}
	hv_report_init(r, out->is_set ? "gen" : names[0], opt->max_diags);
	if (out->is_set || out->n != 1) {
		hv_validate_set(opt, blobs, out->n, r);
	} else {
		/* Detection is not the checker's streaming: other families' sniffers
		 * may read a bounded prefix of any file (a DUMPI .meta is read whole
		 * up to 1 MiB). Detect first, then measure only the check itself. */
		bool by_name;
		const hv_format *f = hv_detect(&blobs[0], &by_name);
		ios[0].max_fetch = 0;
		if (f) {
			snprintf(r->format, sizeof r->format, "%s", f->name);
			f->check(opt, &blobs[0], r);
		} else {
			hv_validate_blob(opt, &blobs[0], r);
		}
	}
	for (size_t i = 0; i < out->n; i++) {
		hv_blob_release(&blobs[i]);
		if (!is_meta(names[i]) && ios[i].max_fetch > *max_fetch) *max_fetch = ios[i].max_fetch;
	}
}

static void compare(const gen_params *p, const char *label, bool check_hints)
{
	gen_output out;
	char err[256] = "";
	if (gen_generate(p, &out, err, sizeof err) != 0) {
		CHECK(0, "%s: generator failed: %s", label, err);
		return;
	}
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 1000};
	hv_report mem, win;
	tl_validate(&out, &opt, &mem);
	size_t max_fetch;
	hints.n = 0;
	hints.outside = false;
	validate_windowed(&out, &opt, &win, &max_fetch);
	if (check_hints) {
		size_t unread = 0;
		for (size_t i = 0; i < hints.n; i++) unread += !hints.read[i];
		/* each profile after the first: its index and its values (none
		 * for an empty one) */
		CHECK(hints.n >= (size_t)p->profiles, "%s: %zu read hints for %u profiles", label, hints.n,
		      (unsigned)p->profiles);
		CHECK(!hints.outside, "%s: a read hint reaches outside its file", label);
		/* a hinted index may be in the window already with its values */
		CHECK(unread * 10 <= hints.n, "%s: %zu of %zu read hints name bytes the core did not read after them", label,
		      unread, hints.n);
	}
	int differ = -1;
	for (int j = 0; j < HV_RULE_COUNT && differ < 0; j++)
		if (mem.evaluated[j] != win.evaluated[j] || mem.failed[j] != win.failed[j]) differ = j;
	CHECK(differ < 0, "%s: rule %s differs: in memory %llu evaluated / %llu failed, windowed %llu / %llu", label,
	      differ >= 0 ? hv_rules[differ].id : "", differ >= 0 ? (unsigned long long)mem.evaluated[differ] : 0,
	      differ >= 0 ? (unsigned long long)mem.failed[differ] : 0,
	      differ >= 0 ? (unsigned long long)win.evaluated[differ] : 0,
	      differ >= 0 ? (unsigned long long)win.failed[differ] : 0);
	CHECK(!win.unreadable && !mem.unreadable, "%s: a read failed", label);
	/* a refill starts at a multiple of HV_WINDOW_ALIGN, up to that less one
	 * byte before the bytes asked for (core/blob.c) */
	CHECK(max_fetch <= hpctk_window_cap + HV_WINDOW_ALIGN - 1,
	      "%s: a fetch of %zu bytes from profile/cct/trace.db exceeds the %zu-byte window", label, max_fetch,
	      hpctk_window_cap);
	if (differ >= 0) {
		printf("  in memory:\n");
		tl_dump(&mem);
		printf("  windowed:\n");
		tl_dump(&win);
	}
	hv_report_free(&mem);
	hv_report_free(&win);
	gen_output_free(&out);
}

static bool is_mine(const char *id)
{
	return strncmp(id, "profiledb.", 10) == 0 || strncmp(id, "cctdb.", 6) == 0 || strncmp(id, "tracedb.", 8) == 0 ||
	       strncmp(id, "hpctkdb.", 8) == 0;
}

int main(void)
{
	const enum hv_edition eds[] = {HV_EDITION_RELEASE, HV_EDITION_DRAFT};
	char label[200];
	hpctk_window_cap = 64;
	for (size_t e = 0; e < 2; e++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			gen_params p;
			gen_params_default(&p);
			p.what = "hpctoolkit-db";
			p.edition = eds[e];
			p.seed = seed;
			if (seed == 2) p.contexts = 300, p.profiles = 20, p.metrics = 6, p.trace_len = 400;
			if (seed == 3) p.minor = 1;
			snprintf(label, sizeof label, "valid db %s seed %llu", tl_edition_name(eds[e]), (unsigned long long)seed);
			compare(&p, label, false);
		}
	for (int rule = 0; rule < HV_RULE_COUNT; rule++) {
		if (!is_mine(hv_rules[rule].id)) continue;
		for (size_t e = 0; e < 2; e++) {
			const char *what = gen_breaker_for(hv_rules[rule].id, eds[e]);
			if (!what) continue;
			gen_params p;
			gen_params_default(&p);
			p.what = what;
			p.edition = eds[e];
			p.break_rule = hv_rules[rule].id;
			snprintf(label, sizeof label, "break %s (%s)", hv_rules[rule].id, tl_edition_name(eds[e]));
			compare(&p, label, false);
		}
	}
	/* Files of several MiB through the default window: many refills. */
	hpctk_window_cap = HV_WINDOW_DEFAULT;
	gen_params p;
	gen_params_default(&p);
	p.what = "hpctoolkit-db";
	p.contexts = 3000, p.profiles = 24, p.metrics = 10, p.trace_len = 60000;
	compare(&p, "multi-MiB db, default window", true);
	TAP_DONE();
}
