/* Systematic hostile inputs: for every kind the generator writes (both
 * editions where they differ), small valid output is cut at every byte
 * offset and has single bits flipped, and each result is validated. The
 * validator must never crash (the sanitizer build aborts on any memory error
 * or UB), never report an internal error, keep its rule bookkeeping
 * consistent, and reject cut files of formats whose end is marked (an
 * HPCToolkit footer, the DUMPI index at EOF-64, a closing JSON brace).
 * Every aligned 2-, 4- and 8-byte position also gets adversarial values
 * (2^16-1, 2^32-1, 2^64-8 in both byte orders). Small files are swept
 * exhaustively (see SINGLE_CAP); larger ones at evenly spread offsets.
 * Cyclic and 1,000,000-deep context trees are in test_breaks and
 * metadb_scale.test.sh. */
#include <stdlib.h>

#include "tap.h"
#include "testlib.h"

/* Variants per file and kind of damage. The plain build sweeps files up to
 * 2 KiB at every offset (set members up to 512 bytes); the sanitizer build,
 * where each validation costs 5-10x, every 4th of those offsets, spread over
 * the whole file all the same. The fuzz targets cover random damage. */
#if TL_SANITIZED
#define SINGLE_CAP 512u
#define MEMBER_CAP 128u
#else
#define SINGLE_CAP 2048u
#define MEMBER_CAP 512u
#endif

static unsigned cases, bad_internal, bad_counts, bad_accept, shown; /* shown: failures printed this sweep */

/* Whether cutting `name` at `cut` must make the input nonconforming: formats
 * whose end is marked (an HPCToolkit footer, the DUMPI index at EOF-64, a
 * JSON document's closing brace). Not ovni streams (events back to back: a
 * cut at an event boundary is a shorter valid stream), not a DUMPI .meta
 * (key=value lines), not a draft trace.db (no footer; unused reserved space
 * may end the file), and not a JSON document cut only in trailing blanks. */
static bool cut_must_reject(const char *name, enum hv_edition ed, const uint8_t *data, size_t len, size_t cut)
{
	const char *base = hv_basename(name);
	size_t n = strlen(base);
	/* YAML (the metric taxonomy) has no end mark either: a cut after a
	 * whole entry is a shorter valid taxonomy */
	if ((n >= 4 && strcmp(base + n - 4, ".obs") == 0) || (n >= 5 && strcmp(base + n - 5, ".meta") == 0) ||
	    (n >= 5 && strcmp(base + n - 5, ".yaml") == 0) || strncmp(base, "thread.", 7) == 0)
		return false;
	if (ed == HV_EDITION_DRAFT && strcmp(base, "trace.db") == 0) return false;
	if (n >= 5 && strcmp(base + n - 5, ".json") == 0) {
		for (size_t i = cut; i < len; i++)
			if (!strchr(" \t\r\n", data[i]) || !data[i]) return true;
		return false;
	}
	return true;
}

static void validate_one(gen_output *out, const char *what, const char *file, const char *how, uint64_t at,
			 bool must_reject)
{
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 20};
	hv_report r;
	tl_validate(out, &opt, &r);
	cases++;
	if (r.internal_error) {
		bad_internal++;
		if (shown++ < 3) printf("  %s %s %s at %llu: internal error: %s\n", what, file, how, (unsigned long long)at, r.problem);
	}
	if (!hv_report_counts_consistent(&r)) {
		bad_counts++;
		if (shown++ < 3) printf("  %s %s %s at %llu: a rule failed more often than evaluated\n", what, file, how, (unsigned long long)at);
	}
	if (must_reject && hv_report_exit_code(&r, false) == 0) {
		bad_accept++;
		if (shown++ < 3) printf("  %s %s %s at %llu: accepted\n", what, file, how, (unsigned long long)at);
	}
	hv_report_free(&r);
}

static void sweep(const char *what, enum hv_edition ed)
{
	gen_params p;
	gen_params_default(&p);
	p.what = what;
	p.edition = ed;
	p.contexts = 8;
	p.depth = 3;
	p.profiles = 3;
	p.metrics = 2;
	p.trace_len = 6;
	gen_output out;
	char err[256] = "";
	if (gen_generate(&p, &out, err, sizeof err) != 0) {
		CHECK(0, "%s: generator failed: %s", what, err);
		return;
	}
	shown = 0;
	unsigned before_i = bad_internal, before_c = bad_counts, before_a = bad_accept;
	for (size_t f = 0; f < out.n; f++) {
		gen_file *gf = &out.files[f];
		size_t len = gf->len;
		uint8_t *orig = malloc(len ? len : 1);
		if (!orig) break;
		memcpy(orig, gf->data, len);
		size_t cap = out.is_set ? MEMBER_CAP : SINGLE_CAP;
		size_t step = len > cap ? (len + cap - 1) / cap : 1;
		for (size_t cut = 0; cut < len; cut += step) {
			gf->len = cut;
			validate_one(&out, what, gf->name, "cut", cut, cut_must_reject(gf->name, ed, orig, len, cut));
		}
		gf->len = len;
		uint64_t bits = (uint64_t)len * 8;
		uint64_t bstep = bits > cap ? (bits + cap - 1) / cap : 1;
		for (uint64_t bit = 0; bit < bits; bit += bstep) {
			gf->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			validate_one(&out, what, gf->name, "bit flip", bit, false);
			gf->data[bit / 8] = orig[bit / 8];
		}
		/* Adversarial values at every aligned field position: counts of
		 * 2^16-1 and 2^32-1 (the same bytes in either byte order) and
		 * pointers of 2^64-8 in both byte orders (HPCToolkit and ovni are
		 * little-endian, DUMPI big-endian). */
		static const struct {
			unsigned width;
			uint8_t bytes[8];
		} adversarial[] = {
			{2, {0xff, 0xff}},
			{4, {0xff, 0xff, 0xff, 0xff}},
			{8, {0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
			{8, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf8}},
		};
		for (size_t a = 0; a < sizeof adversarial / sizeof adversarial[0]; a++) {
			unsigned w = adversarial[a].width;
			size_t astep = len / w > cap ? (len / w + cap - 1) / cap * w : w;
			for (size_t at = 0; at + w <= len; at += astep) {
				memcpy(gf->data + at, adversarial[a].bytes, w);
				validate_one(&out, what, gf->name, "adversarial value", at, false);
				memcpy(gf->data + at, orig + at, w);
			}
		}
		free(orig);
	}
	CHECK(bad_internal == before_i, "%s (%s): internal errors on hostile variants", what, tl_edition_name(ed));
	CHECK(bad_counts == before_c, "%s (%s): inconsistent rule bookkeeping", what, tl_edition_name(ed));
	CHECK(bad_accept == before_a, "%s (%s): cut files accepted", what, tl_edition_name(ed));
	gen_output_free(&out);
}

int main(void)
{
	for (size_t f = 0; gen_families[f]; f++) {
		if (gen_families[f]->never_valid) continue;
		for (size_t k = 0; gen_families[f]->whats[k]; k++) {
			const char *w = gen_families[f]->whats[k];
			sweep(w, HV_EDITION_RELEASE);
			/* The edition only changes HPCToolkit layouts. */
			if (strcmp(gen_families[f]->name, "hpctoolkit") == 0 || strncmp(w, "hpct", 4) == 0 ||
			    strstr(w, "db"))
				sweep(w, HV_EDITION_DRAFT);
		}
	}
	printf("# %u hostile variants validated\n", cases);
	TAP_DONE();
}
