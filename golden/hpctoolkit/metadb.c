/* The meta.db writer family ("metadb"): builds the shared model, picks a
 * legal layout from the seed, writes the file in the requested edition and
 * minor version, and applies a --break. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metadb_writer.h"

static const char *const whats[] = {"metadb", NULL};

/* hpcprof's physical order (research/hpctoolkit.md §3.1) and the header order. */
static const int order_hpcprof[MDB_NSEC] = {MDB_GENERAL, MDB_IDNAMES, MDB_METRICS, MDB_STRINGS,
					    MDB_MODULES, MDB_FILES,   MDB_FUNCTIONS, MDB_CONTEXT};

static void choose_layout(mdb_writer *w)
{
	gen_rng r = {hpctk_mix(w->p->seed, 0x6c61796f7574ull)};
	mdb_layout *l = &w->lay;
	switch (w->p->seed % 3) {
	case 0: /* a shuffled order: the spec promises none */
		for (int i = 0; i < MDB_NSEC; i++) l->order[i] = i;
		for (int i = MDB_NSEC - 1; i > 0; i--) {
			int j = (int)gen_below(&r, (uint64_t)i + 1), t = l->order[i];
			l->order[i] = l->order[j];
			l->order[j] = t;
		}
		break;
	case 1: memcpy(l->order, order_hpcprof, sizeof l->order); break;
	default:
		for (int i = 0; i < MDB_NSEC; i++) l->order[i] = i;
		break;
	}
	l->entries_first = gen_below(&r, 2);
	l->children_reverse = gen_below(&r, 2);
	l->names_array_first = gen_below(&r, 2);
	l->metrics_old_order = gen_below(&r, 2);
	l->strings_misalign = (unsigned)gen_below(&r, 8);
	l->leaf_cursor = gen_below(&r, 2);
	l->fs_flags_junk = gen_below(&r, 2);
	if (w->minor > 0) {
		l->junk = true;
		l->gap = 5 + (unsigned)gen_below(&r, 12);
		l->extra_flex_every = 3;
		l->unknown_section = gen_below(&r, 2);
	}
}

static void choose_strides(mdb_writer *w)
{
	/* The 4.0 END of each structure; a newer minor grows them (kept
	 * multiples of 8 so every element stays 8-aligned). */
	unsigned grow = w->minor == 0 ? 0 : w->minor % 2 ? 8 : 16;
	if (w->draft) {
		w->sz_metric = 0x18 + grow;
		w->sz_scope = 0x18 + grow;
		w->sz_summary = 0x10 + grow;
	} else {
		w->sz_metric = 0x20 + grow;
		w->sz_inst = 0x10 + grow;
		w->sz_summary = 0x18 + grow;
		w->sz_scope = 0x10 + grow;
		w->sz_entry = 0x20 + grow;
	}
	w->sz_module = 0x10 + grow;
	w->sz_file = 0x10 + grow;
	w->sz_function = 0x28 + grow;
}

static int generate(const gen_params *p, gen_output *out, char *err, size_t errlen)
{
	hpctk_model m;
	if (hpctk_model_build(&m, p, err, errlen) != 0) return -1;
	mdb_writer w;
	memset(&w, 0, sizeof w);
	w.m = &m;
	w.p = p;
	w.draft = p->edition == HV_EDITION_DRAFT;
	w.write_metrics = w.draft ? mdb_write_metrics_draft : mdb_write_metrics_release;
	w.write_context = w.draft ? mdb_write_context_draft : mdb_write_context_release;
	w.minor = (uint8_t)p->minor;
	w.junk_rng.s = hpctk_mix(p->seed, 0x6a756e6bull);
	choose_layout(&w);
	choose_strides(&w);
	if (p->break_rule) mdb_break_prepare(&w, p->break_rule);
	uint8_t *data = NULL;
	size_t len = 0;
	int rc = w.break_failed ? -1 : mdb_write_file(&w, &data, &len, err, errlen);
	if (rc == 0 && p->break_rule) rc = mdb_break_apply(&w, p->break_rule, &data, &len);
	if (rc == 0 && !gen_add_file(out, "meta.db", data, len)) {
		snprintf(err, errlen, "too many output files");
		rc = -1;
	} else if (rc != 0) {
		free(data);
		if (!err[0] && w.break_why)
			snprintf(err, errlen, "cannot break '%s': %s", p->break_rule, w.break_why);
		else if (!err[0])
			snprintf(err, errlen, "cannot break '%s' in this shape (it has nothing that rule applies to; "
				 "try the default shape)", p->break_rule);
	}
	mdb_writer_free(&w);
	hpctk_model_free(&m);
	return rc;
}

static bool can_break(const char *what, const char *rule_id, enum hv_edition edition)
{
	(void)what;
	return mdb_can_break(rule_id, edition);
}

const gen_family gen_family_hpctoolkit = {"hpctoolkit", whats, generate, can_break, false};
