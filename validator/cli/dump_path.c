/* Validation first, the dump after: the dump shows each file's diagnostics
 * beside its structure, so it runs when the report is complete, from the
 * path observer's end hook, before validate_path closes the files. */
#include "dump_path.h"

#include "validate_path.h"

typedef struct dump_run {
	FILE *out;
	const hv_dump_opts *o;
	const char *path;
	hv_report *r;
	hv_blob *blobs;
	size_t n;
	bool dumped;
	hv_dump_hits *hits;
} dump_run;

static void on_begin(void *ctx, const char *label, hv_blob *blobs, size_t n)
{
	dump_run *d = ctx;
	(void)label;
	d->blobs = blobs;
	d->n = n;
}

static void before_report(void *ctx)
{
	dump_run *d = ctx;
	hv_path_unchanged(d->r);
}

/* The dump reads the files again: their identities are compared once the
 * items are written, so the report below them says whether the dump and
 * the validation read one consistent set of bytes. */
static void on_end(void *ctx)
{
	dump_run *d = ctx;
	hv_dump_opts o = *d->o;
	o.before_report = before_report;
	o.before_report_ctx = d;
	hv_dump(d->out, &o, d->path, d->blobs, d->n, d->r, d->hits);
	d->dumped = true;
}

bool hv_dump_validated(FILE *out, const hv_dump_opts *o, const char *path, const hv_options *opt, hv_report *r,
		       hv_dump_hits *hits)
{
	dump_run d = {.out = out, .o = o, .path = path, .r = r, .hits = hits};
	hv_path_observer obs = {on_begin, on_end, &d};
	hv_validate_path(path, opt, r, &obs);
	if (!d.dumped) hv_dump(out, o, path, NULL, 0, r, NULL); /* unreadable: the report only */
	return d.dumped;
}
