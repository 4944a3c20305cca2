/* Mark declarations merged over every thread of a trace, and the mark
 * events checked against them (as ovniemu's mark.c does). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tree.h"

static int cmp_mark(const void *a, const void *b)
{
	const ovni_mark *x = *(const ovni_mark *const *)a, *y = *(const ovni_mark *const *)b;
	if (x->is_label != y->is_label) return x->is_label ? 1 : -1;
	if (x->type != y->type) return x->type < y->type ? -1 : 1;
	if (x->value != y->value) return x->value < y->value ? -1 : 1;
	return 0;
}

static bool same_text(const ovni_mark *a, const ovni_mark *b)
{
	return a->text_len == b->text_len && a->text_hash == b->text_hash && strcmp(a->text, b->text) == 0;
}

void ovni_tree_marks(ovni_trace *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->ns; i++) n += t->s[i].meta.nmarks;
	uint64_t declared[2] = {0, 0};
	const ovni_mark **all = hv_malloc((n ? n : 1) * sizeof *all);
	if (!all) return;
	size_t k = 0;
	for (size_t i = 0; i < t->ns; i++)
		for (size_t j = 0; j < t->s[i].meta.nmarks; j++) all[k++] = &t->s[i].meta.marks[j];
	/* stable order within equal keys is not needed: every member of a run is
	 * compared with the run's first */
	qsort(all, n, sizeof *all, cmp_mark);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && cmp_mark(&all[i], &all[j]) == 0) j++;
		const ovni_mark *a = all[i];
		if (!a->is_label) declared[a->type / 64] |= 1ull << (a->type % 64);
		for (size_t m = i + 1; m < j; m++) {
			const ovni_mark *b = all[m];
			bool ok = same_text(a, b) && (b->is_label || a->stack == b->stack);
			if (!hv_eval(t->r, HV_R_OVNI_TREE_MARK_MISMATCH, ok)) {
				char path[64];
				snprintf(path, sizeof path, "stream.json/ovni.mark.%" PRId64, b->type);
				if (b->is_label)
					hv_emit(t->r, HV_R_OVNI_TREE_MARK_MISMATCH, b->file, b->off, 1, path,
						"mark type %" PRId64 " value %" PRId64 " is labelled \"%.60s\" here and \"%.60s\" in %.100s",
						b->type, b->value, b->text, a->text, a->file);
				else
					hv_emit(t->r, HV_R_OVNI_TREE_MARK_MISMATCH, b->file, b->off, 1, path,
						"mark type %" PRId64 " is declared as \"%.60s\" (%s) here and \"%.60s\" (%s) in %.100s",
						b->type, b->text, b->stack ? "stack" : "single", a->text, a->stack ? "stack" : "single",
						a->file);
			}
		}
		i = j;
	}
	free(all);
	for (size_t i = 0; i < t->ns; i++) {
		const ovni_stream *s = &t->s[i];
		if (!s->obs) continue;
		uint64_t und[2] = {s->sum.mark_types[0] & ~declared[0], s->sum.mark_types[1] & ~declared[1]};
		bool ok = !und[0] && !und[1] && !s->sum.mark_bad_type;
		if (hv_eval(t->r, HV_R_OVNI_TREE_MARK_UNDECLARED, ok)) continue;
		int64_t type = s->sum.mark_bad_type_value;
		uint64_t off = s->sum.mark_bad_type_off;
		if (und[0] || und[1]) {
			type = 0;
			while (!(und[type / 64] & (1ull << (type % 64)))) type++;
			off = s->sum.mark_off[type];
		}
		hv_emit(t->r, HV_R_OVNI_TREE_MARK_UNDECLARED, s->obs->name, off + 20, 4, s->rel,
			"mark event of type %" PRId64 " but no thread declares that type in ovni.mark", type);
	}
}
