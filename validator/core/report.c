#include "report.h"

#include "invariant.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

size_t hv_max_per_rule = HV_MAX_PER_RULE_DEFAULT;

void hv_report_init(hv_report *r, const char *input_path, size_t max_diags)
{
	memset(r, 0, sizeof *r);
	r->input_path = input_path;
	r->max_diags = max_diags;
	r->max_per_rule = hv_max_per_rule;
}

void hv_report_free(hv_report *r)
{
	free(r->diags);
	free(r->ghosts);
	for (size_t i = 0; i < r->nfiles; i++) free(r->files[i]);
	free(r->files);
	free(r->file_slots);
	r->diags = NULL;
	r->ghosts = NULL;
	r->files = NULL;
	r->file_slots = NULL;
	r->last_pooled = NULL;
	r->ndiags = r->nfiles = r->nghosts = r->ghost_cap = r->diag_cap = r->files_cap = r->file_slots_cap = 0;
}

static size_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)(h ^ (h >> 32));
}

/* Room in the pool's index for one more name: the slots are rebuilt twice
 * as many when they would be more than half full. */
static bool file_slots_room(hv_report *r)
{
	if (r->nfiles + 1 <= r->file_slots_cap / 2) return true;
	if (r->nfiles >= UINT32_MAX - 1) return false;
	size_t cap = r->file_slots_cap ? r->file_slots_cap * 2 : 16;
	uint32_t *slots = hv_calloc(cap, sizeof *slots);
	if (!slots) return false;
	for (size_t i = 0; i < r->nfiles; i++) {
		size_t h = name_hash(r->files[i]) & (cap - 1);
		while (slots[h]) h = (h + 1) & (cap - 1);
		slots[h] = (uint32_t)(i + 1);
	}
	free(r->file_slots);
	r->file_slots = slots;
	r->file_slots_cap = cap;
	return true;
}

/* Diagnostics outlive the blobs that produced them, so file names are copied
 * once into a small pool. An input may name a file per rank or stream, tens
 * of thousands of them, each in its own diagnostics: the pool is found by
 * hash, so interning costs the same at the last file as at the first. */
static const char *intern_file(hv_report *r, const char *file)
{
	if (!file) file = r->input_path ? r->input_path : "";
	/* most calls name the file the call before named (a run of failures) */
	const char *last = r->last_pooled;
	if (last && (last == file || strcmp(last, file) == 0)) return last;
	if (!file_slots_room(r)) return NULL;
	size_t mask = r->file_slots_cap - 1, h = name_hash(file) & mask;
	for (uint32_t at; (at = r->file_slots[h]) != 0; h = (h + 1) & mask) {
		char *f = r->files[at - 1];
		if (f == file || strcmp(f, file) == 0) return r->last_pooled = f;
	}
	if (!HV_GROW(r->files, r->files_cap, r->nfiles + 1, 8)) return NULL;
	char *copy = hv_strdup(file);
	if (!copy) return NULL;
	r->files[r->nfiles++] = copy;
	r->file_slots[h] = (uint32_t)r->nfiles;
	return r->last_pooled = copy;
}

/* One more failure of `rule` counted (failed[rule] already holds it): one
 * beyond the rule's cap leaves its place, the first and the last. */
static void note_hidden(hv_report *r, int rule, const char *file, uint64_t offset, bool from_check)
{
	hv_more *m = &r->more[rule];
	/* A check names the file by its blob's name, which lives as long as
	 * the input's check: the name met last is remembered by address, so a
	 * run of failures in one file costs no string compare. A merged
	 * report's names are compared (they may be freed with it). */
	const char *f;
	if (from_check && file && file == r->last_raw) {
		f = r->last_interned;
	} else {
		f = intern_file(r, file);
		if (from_check) {
			r->last_raw = file;
			r->last_interned = f;
		}
	}
	if (r->failed[rule] == r->max_per_rule + 1) {
		m->first_file = f;
		m->first_off = offset;
	}
	m->last_file = f;
	m->last_off = offset;
}

static void add_ghost(hv_report *r, int rule, enum hv_sev sev, const char *file, uint64_t offset)
{
	r->suppressed++;
	if (!HV_GROW(r->ghosts, r->ghost_cap, r->nghosts + 1, 16)) return; /* its place is lost, not its count */
	r->ghosts[r->nghosts++] = (hv_ghost){.rule = rule, .sev = sev, .file = intern_file(r, file), .offset = offset};
}

/* Count a failure; true when it is to be stored. */
static bool count_failure(hv_report *r, int rule, enum hv_sev sev, const char *file, uint64_t offset, bool from_check)
{
	r->failed[rule]++;
	r->count[sev]++;
	if (r->max_per_rule && r->failed[rule] > r->max_per_rule) {
		note_hidden(r, rule, file, offset, from_check);
		return false;
	}
	if (r->ndiags >= r->max_diags) {
		add_ghost(r, rule, sev, file, offset);
		return false;
	}
	return true;
}

void hv_count_failure(hv_report *r, int rule, int sev, const char *file, uint64_t offset)
{
	if (!HV_INVARIANT(r, rule >= 0 && rule < HV_RULE_COUNT)) return;
	enum hv_sev s = sev < 0 ? hv_rules[rule].severity : (enum hv_sev)sev;
	if (!HV_INVARIANT(r, (int)s >= 0 && (int)s < 3)) return;
	count_failure(r, rule, s, file, offset, true);
}

/* A slot for one more stored diagnostic, or NULL (out of memory: the
 * failure is then a suppressed one). */
static hv_diag *new_diag(hv_report *r)
{
	/* never more than max_diags (count_failure stores no more) */
	if (!HV_GROW_UPTO(r->diags, r->diag_cap, r->ndiags + 1, 16, r->max_diags)) return NULL;
	return &r->diags[r->ndiags++];
}

static void emit_v(hv_report *r, int rule, enum hv_sev sev, const char *file, uint64_t offset, uint64_t length,
		   const char *path, const char *fmt, va_list ap)
{
	/* A rule outside the table or a severity outside the enum would index
	 * past the counters. */
	if (!HV_INVARIANT(r, rule >= 0 && rule < HV_RULE_COUNT)) return;
	if (!HV_INVARIANT(r, (int)sev >= 0 && (int)sev < 3)) return;
	if (!count_failure(r, rule, sev, file, offset, true)) return;
	hv_diag *d = new_diag(r);
	if (!d) {
		add_ghost(r, rule, sev, file, offset);
		return;
	}
	d->rule = rule;
	d->sev = sev;
	d->file = intern_file(r, file);
	d->offset = offset;
	d->length = length;
	snprintf(d->path, sizeof d->path, "%s", path ? path : "");
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
}

void (hv_emit)(hv_report *r, int rule, const char *file, uint64_t offset, uint64_t length, const char *path,
	       const char *fmt, ...)
{
	if (!HV_INVARIANT(r, rule >= 0 && rule < HV_RULE_COUNT)) return;
	va_list ap;
	va_start(ap, fmt);
	emit_v(r, rule, hv_rules[rule].severity, file, offset, length, path, fmt, ap);
	va_end(ap);
}

void (hv_emit_sev)(hv_report *r, int rule, enum hv_sev sev, const char *file, uint64_t offset, uint64_t length,
		   const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit_v(r, rule, sev, file, offset, length, path, fmt, ap);
	va_end(ap);
}

/* A task run on the runner's threads works for the caller's fault scope
 * (core/alloc.h): an allocation that fails there is charged to the input
 * the caller checks. */
typedef struct scoped_task {
	hv_task_fn task;
	void *ctx;
	hv_fault_scope *scope;
} scoped_task;

static void run_scoped(void *arg, size_t i)
{
	const scoped_task *st = arg;
	hv_fault_scope *was = hv_fault_scope_adopt(st->scope);
	st->task(st->ctx, i);
	hv_fault_scope_adopt(was);
}

void hv_for_each(const hv_options *opt, size_t n, hv_task_fn task, void *ctx)
{
	if (opt && opt->runner && n > 1) {
		scoped_task st = {task, ctx, hv_fault_scope_current()};
		opt->runner(opt->runner_ctx, n, run_scoped, &st);
		return;
	}
	for (size_t i = 0; i < n; i++) task(ctx, i);
}

void hv_report_append_diag(hv_report *dst, const hv_diag *d)
{
	hv_diag *o = new_diag(dst);
	if (!o) {
		dst->suppressed++;
		return;
	}
	*o = *d;
	o->file = intern_file(dst, d->file);
}

void hv_report_append_ghost(hv_report *dst, const hv_ghost *g)
{
	add_ghost(dst, g->rule, g->sev, g->file, g->offset);
	dst->suppressed--; /* the caller restores the count */
}

void hv_report_set_more(hv_report *dst, int rule, const hv_more *m)
{
	dst->more[rule].first_file = intern_file(dst, m->first_file);
	dst->more[rule].first_off = m->first_off;
	dst->more[rule].last_file = intern_file(dst, m->last_file);
	dst->more[rule].last_off = m->last_off;
}

void hv_report_admit(hv_report *dst, const hv_diag *d)
{
	if (!HV_INVARIANT(dst, d->rule >= 0 && d->rule < HV_RULE_COUNT && (int)d->sev >= 0 && (int)d->sev < 3)) return;
	if (!count_failure(dst, d->rule, d->sev, d->file, d->offset, false)) return;
	hv_diag *o = new_diag(dst);
	if (!o) {
		add_ghost(dst, d->rule, d->sev, d->file, d->offset);
		return;
	}
	*o = *d;
	o->file = intern_file(dst, d->file);
}

/* A report is the result of one sequence of failures: per rule, its first
 * max_per_rule are listed (stored while fewer than max_diags are, else
 * ghosts) and the rest counted with their first and last place. Merging
 * replays src's listed failures in src's order (stored ones first: a ghost
 * comes after every stored diagnostic) and adds the rest, so that
 * merge(merge(a, b), c) = merge(a, merge(b, c)) = the one sequence's. */
void hv_report_merge_rest(hv_report *dst, const hv_report *src)
{
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		dst->evaluated[i] += src->evaluated[i];
		uint64_t listed = src->max_per_rule && src->failed[i] > src->max_per_rule ? src->max_per_rule : src->failed[i];
		uint64_t beyond = src->failed[i] - listed;
		if (!beyond) continue;
		/* src's failures beyond its cap come after its listed ones, which
		 * dst has admitted: dst's cap is reached (the caps are the same) */
		bool had = dst->max_per_rule && dst->failed[i] > dst->max_per_rule;
		dst->failed[i] += beyond;
		if (!dst->max_per_rule) continue;
		hv_more *m = &dst->more[i];
		if (!had) {
			m->first_file = intern_file(dst, src->more[i].first_file);
			m->first_off = src->more[i].first_off;
		}
		m->last_file = intern_file(dst, src->more[i].last_file);
		m->last_off = src->more[i].last_off;
	}
	/* severities: src's counts less what admitting its listed failures added */
	uint64_t listed_sev[3] = {0, 0, 0};
	for (size_t k = 0; k < src->ndiags; k++) listed_sev[src->diags[k].sev]++;
	for (size_t k = 0; k < src->nghosts; k++) listed_sev[src->ghosts[k].sev]++;
	for (int s = 0; s < 3; s++) dst->count[s] += src->count[s] - listed_sev[s];
	/* what the sub-check named (a file's version, edition, format) */
	if (src->format[0]) memcpy(dst->format, src->format, sizeof dst->format);
	if (src->edition[0]) memcpy(dst->edition, src->edition, sizeof dst->edition);
	if (src->version[0]) memcpy(dst->version, src->version, sizeof dst->version);
	if (src->unreadable) {
		dst->unreadable = true;
		memcpy(dst->problem, src->problem, sizeof dst->problem);
	}
	if (src->internal_error) {
		dst->internal_error = true;
		memcpy(dst->problem, src->problem, sizeof dst->problem);
	}
	for (size_t k = 0; k < src->nparts; k++) {
		if (dst->nparts < HV_PARTS_MAX && k < HV_PARTS_MAX) dst->parts[dst->nparts] = src->parts[k];
		dst->nparts++;
	}
}

void hv_report_add_part(hv_report *r, const char *name, const uint64_t before[3])
{
	if (r->nparts < HV_PARTS_MAX) {
		hv_part *p = &r->parts[r->nparts];
		snprintf(p->name, sizeof p->name, "%s", name);
		memcpy(p->version, r->version, sizeof p->version);
		for (int s = 0; s < 3; s++) p->count[s] = r->count[s] - before[s];
	}
	r->nparts++;
}

void hv_report_admit_ghost(hv_report *dst, const hv_ghost *g)
{
	if (!HV_INVARIANT(dst, g->rule >= 0 && g->rule < HV_RULE_COUNT && (int)g->sev >= 0 && (int)g->sev < 3)) return;
	if (!count_failure(dst, g->rule, g->sev, g->file, g->offset, false)) return;
	/* dst stored no fewer than src did before this ghost: it is full too */
	add_ghost(dst, g->rule, g->sev, g->file, g->offset);
}

void hv_report_merge(hv_report *dst, const hv_report *src)
{
	for (size_t k = 0; k < src->ndiags; k++) hv_report_admit(dst, &src->diags[k]);
	for (size_t k = 0; k < src->nghosts; k++) hv_report_admit_ghost(dst, &src->ghosts[k]);
	hv_report_merge_rest(dst, src);
}

bool hv_report_only_counts(const hv_report *r)
{
	if (r->ndiags || r->nghosts || r->count[0] || r->count[1] || r->count[2] || r->unreadable || r->internal_error ||
	    r->format[0] || r->edition[0] || r->version[0] || r->nparts)
		return false;
	for (int i = 0; i < HV_RULE_COUNT; i++)
		if (r->failed[i]) return false;
	return true;
}

size_t hv_report_rules_checked(const hv_report *r)
{
	size_t n = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) n += r->evaluated[i] > 0 || r->failed[i] > 0;
	return n;
}

void hv_report_unreadable(hv_report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->unreadable = true;
	vsnprintf(r->problem, sizeof r->problem, fmt, ap);
	va_end(ap);
}

void hv_report_internal(hv_report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->internal_error = true;
	vsnprintf(r->problem, sizeof r->problem, fmt, ap);
	va_end(ap);
}

int hv_report_exit_code(const hv_report *r, bool strict)
{
	if (r->internal_error) return 4;
	if (r->unreadable) return 3;
	if (r->count[HV_SEV_ERROR] > 0) return 1;
	if (strict && r->count[HV_SEV_WARNING] > 0) return 1;
	return 0;
}

/* Hot loops count their evaluations in bulk (per window, per run), so the
 * counts are only complete once a check has finished: the bookkeeping
 * promise -- no rule failed more often than it was evaluated -- is checked
 * on finished reports (fuzzing builds abort; the test suite asserts it). */
bool hv_report_counts_consistent(const hv_report *r)
{
	for (int i = 0; i < HV_RULE_COUNT; i++)
		if (r->failed[i] > r->evaluated[i]) return false;
	return true;
}

/* Notes that fire once on each of several files of one input (a rank
 * file's clock, each database file's elided contexts) say one thing about
 * the input: they become its first diagnostic, with the number of files.
 * Applies to a rule whose every failure is stored, at most once per file,
 * in two files or more; its count stays the number of failures. Runs on
 * the finished report, so every -j and every split gives the same. A
 * report may store a note for each of a million rank files: the rules are
 * counted in one pass and a rule's files told apart by sorting, never by
 * comparing every note with every other. */
typedef struct note_at {
	int rule;
	uintptr_t file;
} note_at;

static int cmp_note_at(const void *a, const void *b)
{
	const note_at *x = a, *y = b;
	if (x->rule != y->rule) return x->rule < y->rule ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

void hv_report_fold_file_notes(hv_report *r)
{
	size_t first[HV_RULE_COUNT], count[HV_RULE_COUNT];
	for (int i = 0; i < HV_RULE_COUNT; i++) first[i] = SIZE_MAX, count[i] = 0;
	for (size_t k = 0; k < r->ndiags; k++) {
		const hv_diag *d = &r->diags[k];
		if (d->sev != HV_SEV_NOTE) continue;
		if (!count[d->rule]++) first[d->rule] = k;
	}
	/* a rule folds when its every failure is one of its stored notes */
	bool fold[HV_RULE_COUNT], any = false;
	size_t notes = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		fold[i] = count[i] >= 2 && count[i] == r->failed[i];
		any |= fold[i];
		if (fold[i]) notes += count[i];
	}
	if (!any) return;
	/* ... on as many files: no file twice */
	note_at *at = hv_malloc(notes * sizeof *at);
	if (!at) return;
	size_t n = 0;
	for (size_t k = 0; k < r->ndiags; k++)
		if (r->diags[k].sev == HV_SEV_NOTE && fold[r->diags[k].rule])
			at[n++] = (note_at){r->diags[k].rule, (uintptr_t)r->diags[k].file};
	qsort(at, n, sizeof *at, cmp_note_at);
	for (size_t k = 1; k < n; k++)
		if (at[k].rule == at[k - 1].rule && at[k].file == at[k - 1].file) fold[at[k].rule] = false;
	free(at);
	size_t o = 0;
	for (size_t k = 0; k < r->ndiags; k++) {
		hv_diag *d = &r->diags[k];
		if (d->sev == HV_SEV_NOTE && fold[d->rule]) {
			if (k != first[d->rule]) continue;
			size_t len = strlen(d->msg);
			snprintf(d->msg + len, sizeof d->msg - len,
				 " (the same note on %zu files of this input; shown for the first)", count[d->rule]);
		}
		if (o != k) r->diags[o] = *d;
		o++;
	}
	r->ndiags = o;
}
