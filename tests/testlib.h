/* Helpers shared by the C tests: run the checking core on generator output
 * in memory, exactly as the CLI would on the written files. */
#ifndef HV_TESTLIB_H
#define HV_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/validate.h"
#include "gen.h"

/* 1 in the sanitizer build, where each validation costs 5-10x: tests that
 * sweep many inputs run a smaller sample there. */
#if defined(__SANITIZE_ADDRESS__)
#define TL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL_SANITIZED 1
#endif
#endif
#ifndef TL_SANITIZED
#define TL_SANITIZED 0
#endif

/* Validate `out` (one file, or a set) into `r`, which the caller frees. */
static inline void tl_validate(gen_output *out, const hv_options *opt, hv_report *r)
{
	static hv_blob blobs[GEN_MAX_FILES];
	static char names[GEN_MAX_FILES][160];
	for (size_t i = 0; i < out->n; i++) {
		snprintf(names[i], sizeof names[i], "gen/%s", out->files[i].name);
		blobs[i] = hv_blob_from_memory(names[i], out->files[i].data, out->files[i].len);
	}
	hv_report_init(r, out->is_set ? "gen" : names[0], opt->max_diags);
	if (out->is_set || out->n != 1)
		hv_validate_set(opt, blobs, out->n, r);
	else
		hv_validate_blob(opt, &blobs[0], r);
	for (size_t i = 0; i < out->n; i++) hv_blob_release(&blobs[i]);
}

/* Print what fired, for failure messages. */
static inline void tl_dump(const hv_report *r)
{
	for (size_t i = 0; i < r->ndiags && i < 12; i++)
		printf("    %s[%s] 0x%llx %s (at %s)\n", hv_sev_name(r->diags[i].sev), hv_rules[r->diags[i].rule].id,
		       (unsigned long long)r->diags[i].offset, r->diags[i].msg, r->diags[i].path);
}

/* Bytes in memory behind a blob's fetch callback, as the CLI reads files
 * over 16 MiB: the windowed paths run on generator output. Counts the calls
 * and the largest read, for tests of the window size. */
typedef struct tl_memio {
	const uint8_t *d;
	uint64_t n;
	unsigned calls;
	size_t max_fetch;
} tl_memio;

static inline bool tl_mem_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	tl_memio *m = io;
	m->calls++;
	if (off > m->n || len > m->n - off) return false;
	if (len > m->max_fetch) m->max_fetch = len;
	memcpy(dst, m->d + off, len);
	return true;
}

/* Generator parameters for `what` in edition `ed`, the others the
 * defaults: a test sets what it varies. */
static inline gen_params tl_params(const char *what, enum hv_edition ed)
{
	gen_params p;
	gen_params_default(&p);
	p.what = what;
	p.edition = ed;
	return p;
}

/* gen_generate into `out`; false after printing why (the caller's check
 * then fails). */
static inline bool tl_generate(const gen_params *p, gen_output *out)
{
	char err[256] = "";
	if (gen_generate(p, out, err, sizeof err) == 0) return true;
	printf("    generator (%s, %s): %s\n", p->what, p->break_rule ? p->break_rule : "valid", err);
	return false;
}

static inline const char *tl_edition_name(enum hv_edition e)
{
	return e == HV_EDITION_DRAFT ? "draft" : e == HV_EDITION_RELEASE ? "release" : "auto";
}

#endif
