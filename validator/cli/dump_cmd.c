/* `hpcvet dump [--format=text|json] [--select=...] PATH`: validate PATH,
 * then dump the decoded structure of its files (validator/dump/) with the
 * validation's diagnostics, while the files are still open. */
#include "dump_cmd.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/dump.h"
#include "../output/output.h"
#include "validate_path.h"

typedef struct dump_run {
	const hv_dump_opts *o;
	const char *path;
	hv_report *r;
	hv_blob *blobs;
	size_t n;
	bool dumped;
} dump_run;

static void on_begin(void *ctx, const char *label, hv_blob *blobs, size_t n)
{
	dump_run *d = ctx;
	(void)label;
	d->blobs = blobs;
	d->n = n;
}

/* After validation, before the files are closed: the report is complete. */
static void on_end(void *ctx)
{
	dump_run *d = ctx;
	hv_dump(stdout, d->o, d->path, d->blobs, d->n, d->r);
	d->dumped = true;
}

static void usage(FILE *f)
{
	fputs("usage: hpcvet dump [--format=text|json] [--select=SEL[,SEL...]] [--max-items=N] [--edition=auto|draft|release] PATH\n"
	      "  SEL: file=NAME-PART  rank=N  records=A-B (or events=, items=)  profile=N  context:ID (a meta.db subtree, its values elsewhere)\n"
	      "  --max-items=N: stop after N items with a \"stop\" item (default 1000000; 0: no limit)\n"
	      "exit: as the validator (0 conforming, 1 nonconforming, 2 usage, 3 unreadable, 4 internal)\n",
	      f);
}

int hv_cmd_dump(int argc, char **argv)
{
	hv_dump_opts o;
	memset(&o, 0, sizeof o);
	/* the output budget: an item is ~100-300 bytes of output, so a dump is
	 * at most a few hundred MB unless asked for more */
	o.max_items = HV_DUMP_MAX_ITEMS_DEFAULT;
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 100};
	const char *path = NULL;
	int status = 2;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		char why[160];
		if (strcmp(a, "--format=json") == 0) o.json = true;
		else if (strcmp(a, "--format=text") == 0) o.json = false;
		else if (strncmp(a, "--select=", 9) == 0) {
			if (!hv_dump_parse_select(a + 9, &o.sel, why, sizeof why)) {
				fprintf(stderr, "hpcvet dump: --select: %s\n", why);
				goto out;
			}
		} else if (strncmp(a, "--max-items=", 12) == 0) {
			char *end = NULL;
			unsigned long long v = strtoull(a + 12, &end, 10);
			if (!a[12] || *end || a[12] == '-' || a[12] == '+' || a[12] == ' ' || v == ULLONG_MAX) {
				fprintf(stderr, "hpcvet dump: --max-items wants a count (0: no limit), not '%s'\n", a + 12);
				goto out;
			}
			o.max_items = v;
		} else if (strcmp(a, "--edition=draft") == 0) opt.edition = HV_EDITION_DRAFT;
		else if (strcmp(a, "--edition=release") == 0) opt.edition = HV_EDITION_RELEASE;
		else if (strcmp(a, "--edition=auto") == 0) opt.edition = HV_EDITION_AUTO;
		else if (strcmp(a, "--strict") == 0) o.strict = true;
		else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			status = 0;
			goto out;
		} else if (a[0] != '-' && !path) path = a;
		else {
			fprintf(stderr, "hpcvet dump: unknown option or extra path '%s'\n", a);
			usage(stderr);
			goto out;
		}
	}
	if (!path) {
		usage(stderr);
		goto out;
	}
	hv_report r;
	hv_report_init(&r, path, opt.max_diags);
	dump_run d = {.o = &o, .path = path, .r = &r};
	hv_path_observer obs = {on_begin, on_end, &d};
	hv_validate_path(path, &opt, &r, &obs);
	if (!d.dumped) hv_dump(stdout, &o, path, NULL, 0, &r); /* unreadable: the report only */
	status = hv_report_exit_code(&r, o.strict);
	if (fflush(stdout) != 0) status = 4;
	hv_report_free(&r);
out:
	free((char *)o.sel.file);
	return status;
}
