/* A report's file pool and the fold of one note per file (core/report.c)
 * at the width of a trace of 100,000 rank files, with no cap on the
 * report: every name interned once and found again, notes on distinct
 * files folded into the first, and the cases that must not fold (a file
 * named twice, a failure not stored, a failure of another severity). The
 * pool is found by hash and the fold sorts: at this width the pairwise
 * comparisons they replaced would run for minutes under the sanitizers,
 * though nothing here is timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "tap.h"

#define FILES 100000u
#define NOTE HV_R_DUMPI_TIME_CPU_BIAS_NONZERO
#define OTHER HV_R_DUMPI_TIME_CLOCK_EPOCH

static void init(hv_report *r)
{
	hv_report_init(r, "trace", (size_t)-1);
	r->max_per_rule = 0;
}

static char (*names)[32];

static void one_note_per_file(hv_report *r, int rule, unsigned n)
{
	for (unsigned i = 0; i < n; i++) hv_emit(r, rule, names[i], 8, 4, "stream/cpu_bias", "note %u", i);
}

int main(void)
{
	names = calloc(FILES, sizeof *names);
	if (!names) return 1;
	for (unsigned i = 0; i < FILES; i++) snprintf(names[i], sizeof names[i], "rank-%06u.bin", i);

	/* every name once in the pool, and the same copy for the same name */
	hv_report r;
	init(&r);
	one_note_per_file(&r, NOTE, FILES);
	CHECK(r.nfiles == FILES && r.ndiags == FILES, "%zu files and %zu notes, want %u", r.nfiles, r.ndiags, FILES);
	bool named = true, pooled = true;
	for (unsigned i = 0; i < FILES; i++) {
		named &= strcmp(r.diags[i].file, names[i]) == 0;
		pooled &= r.diags[i].file != names[i];
	}
	CHECK(named && pooled, "each note names its file, by the pool's copy");
	char again[32];
	snprintf(again, sizeof again, "%s", names[FILES / 2]);
	hv_count_failure(&r, OTHER, -1, again, 0);
	CHECK(r.nfiles == FILES, "a name met again (another buffer) is not copied again: %zu files", r.nfiles);

	/* one note per file of a rule whose every failure is stored: folded */
	hv_report f;
	init(&f);
	one_note_per_file(&f, NOTE, FILES);
	hv_report_fold_file_notes(&f);
	char want[96];
	snprintf(want, sizeof want, "(the same note on %u files of this input; shown for the first)", FILES);
	CHECK(f.ndiags == 1 && strstr(f.diags[0].msg, want) && strcmp(f.diags[0].file, names[0]) == 0,
	      "%zu diagnostics after the fold, the first: %s", f.ndiags, f.ndiags ? f.diags[0].msg : "");
	CHECK(f.failed[NOTE] == FILES && f.count[HV_SEV_NOTE] == FILES, "the counts stay the notes'");
	hv_report_free(&f);

	/* a file named twice: no fold */
	init(&f);
	one_note_per_file(&f, NOTE, FILES);
	hv_emit(&f, NOTE, names[FILES - 1], 8, 4, "stream/cpu_bias", "note again");
	hv_report_fold_file_notes(&f);
	CHECK(f.ndiags == FILES + 1, "a file with two notes: none folded (%zu diagnostics)", f.ndiags);
	hv_report_free(&f);

	/* a failure not stored: no fold */
	init(&f);
	one_note_per_file(&f, NOTE, 1000);
	hv_count_failure(&f, NOTE, -1, names[5000], 0);
	hv_report_fold_file_notes(&f);
	CHECK(f.ndiags == 1000, "a note not stored: none folded (%zu diagnostics)", f.ndiags);
	hv_report_free(&f);

	/* a failure of another severity: no fold */
	init(&f);
	one_note_per_file(&f, NOTE, 1000);
	hv_emit_sev(&f, NOTE, HV_SEV_WARNING, names[5000], 8, 4, "stream/cpu_bias", "a warning");
	hv_report_fold_file_notes(&f);
	CHECK(f.ndiags == 1001, "a warning of the rule: none folded (%zu diagnostics)", f.ndiags);
	hv_report_free(&f);

	/* two rules interleaved, one folding: the rest keep their order */
	init(&f);
	for (unsigned i = 0; i < 1000; i++) {
		hv_emit(&f, NOTE, names[i], 8, 4, "stream/cpu_bias", "note %u", i);
		hv_emit(&f, OTHER, names[i % 10], 12, 4, "stream/wall_bias", "other %u", i);
	}
	hv_report_fold_file_notes(&f);
	bool order = f.ndiags == 1001 && f.diags[0].rule == NOTE && strstr(f.diags[0].msg, "on 1000 files");
	for (size_t k = 1; order && k < f.ndiags; k++) {
		char m[32];
		snprintf(m, sizeof m, "other %zu", k - 1);
		order = f.diags[k].rule == OTHER && strcmp(f.diags[k].msg, m) == 0;
	}
	CHECK(order, "the folded rule's first note, then the other rule's notes in order (%zu diagnostics)", f.ndiags);
	hv_report_free(&f);

	hv_report_free(&r);
	free(names);
	TAP_DONE();
}
