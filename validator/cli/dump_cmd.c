/* `hpcvet dump [--format=text|json] [--select=...] PATH`: validate PATH,
 * then dump the decoded structure of its files (validator/dump/) with the
 * validation's diagnostics, while the files are still open. */
#include "dump_cmd.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump/dump.h"
#include "output/output.h"
#include "dump_path.h"

static void usage(FILE *f)
{
	fputs("usage: hpcvet dump [--format=text|json] [--select=SEL[,SEL...]] [--max-items=N] [--edition=auto|draft|release] [--strict] PATH\n"
	      "  SEL is KEY=VALUE or KEY:VALUE (both work for every key):\n"
	      "    file=NAME-PART    files whose name contains NAME-PART\n"
	      "    rank=N            DUMPI: the rank's .bin; ovni: the streams of process N\n"
	      "    records=A-B       records, events or items A to B (or one: records=A); also events=, items=\n"
	      "    profile=N         profile.db: profile N; cct.db: its values; trace.db: its trace\n"
	      "    context=ID        meta.db: that context alone; profile.db, cct.db, trace.db: its values\n"
	      "    subtree=ID        meta.db: that context and every context below it; the other files: their values\n"
	      "  a selector that matches nothing in the input is named on stderr, and the exit status is 2\n"
	      "  --max-items=N: stop after N items with a \"stop\" item (default 1000000; 0: no limit)\n"
	      "exit: as the validator (0 conforming, 1 nonconforming, 3 unreadable, 4 internal);\n"
	      "      2 for a usage error or a selector that matched nothing\n",
	      f);
}

/* Each selector given that matched nothing, one line on stderr; whether any. */
static bool report_misses(const hv_dump_select *s, const hv_dump_hits *h)
{
	char what[64];
	bool any = false;
	if (h->cut) return false; /* --max-items ended the dump before the selectors were done */
	if ((s->file || s->have_rank) && !h->file) {
		if (s->file && s->have_rank) snprintf(what, sizeof what, "file=%.20s,rank=%llu", s->file, (unsigned long long)s->rank);
		else if (s->file) snprintf(what, sizeof what, "file=%.40s", s->file);
		else snprintf(what, sizeof what, "rank=%llu", (unsigned long long)s->rank);
		fprintf(stderr, "hpcvet dump: --select=%s matched no file of the input\n", what);
		any = true;
	}
	if (any) return true; /* no file dumped: the other selectors had nothing to look at */
	if (s->have_range && !h->range) {
		fprintf(stderr, "hpcvet dump: --select=records=%llu-%llu matched no record, event or item of the files dumped\n",
			(unsigned long long)s->first, (unsigned long long)s->last);
		any = true;
	}
	if (s->have_profile && !h->profile) {
		fprintf(stderr, "hpcvet dump: --select=profile=%llu matched no profile (profile.db), value (cct.db) or trace (trace.db)\n",
			(unsigned long long)s->profile);
		any = true;
	}
	if (s->have_context && !h->context) {
		fprintf(stderr, "hpcvet dump: --select=context=%llu matched no context (meta.db) nor its values (profile.db, cct.db, trace.db)\n",
			(unsigned long long)s->context);
		any = true;
	}
	if (s->have_subtree && !h->subtree) {
		fprintf(stderr, "hpcvet dump: --select=subtree=%llu matched no context of a meta.db in the input\n",
			(unsigned long long)s->subtree);
		any = true;
	}
	return any;
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
	hv_dump_hits hits;
	memset(&hits, 0, sizeof hits);
	bool dumped = hv_dump_validated(stdout, &o, path, &opt, &r, &hits);
	status = hv_report_exit_code(&r, o.strict);
	/* a selector that matched nothing: said, and exit 2 (unless the input
	 * could not be read or the validator failed: 3 and 4 say more) */
	if (dumped && status < 2 && report_misses(&o.sel, &hits)) status = 2;
	if (fflush(stdout) != 0) status = 4;
	hv_report_free(&r);
out:
	free((char *)o.sel.file);
	return status;
}
