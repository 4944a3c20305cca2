/* --break for meta.db: for every meta.db rule, a file that breaks exactly
 * that rule and nothing else. A break either adjusts the model or layout
 * before writing (prepare) or patches the written bytes (apply), using the
 * positions the writer recorded. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "gen_metadb.h"

#define ED_DRAFT 1u
#define ED_RELEASE 2u
#define ED_BOTH 3u

typedef struct mdb_break {
	const char *rule;
	unsigned editions;
	void (*prepare)(mdb_writer *w);
	void (*apply)(mdb_writer *w, uint8_t *d, size_t *len);
} mdb_break;

/* Header slot of section s: size at +0, pointer at +8. */
static size_t slot(int s) { return 0x10 + 16 * (size_t)s; }

/* The section that physically follows s (MDB_NSEC when s is last). */
static int next_section(const mdb_writer *w, int s)
{
	int best = MDB_NSEC;
	for (int t = 0; t < MDB_NSEC; t++)
		if (w->base[t] > w->base[s] && (best == MDB_NSEC || w->base[t] < w->base[best])) best = t;
	return best;
}

/* ---- File header and section table ---- */

static void b_truncated(mdb_writer *w, uint8_t *d, size_t *len)
{
	(void)w;
	(void)d;
	*len = 0x80; /* cut inside the section table */
}
static void b_magic(mdb_writer *w, uint8_t *d, size_t *len)
{
	(void)w;
	(void)len;
	memcpy(d + 10, "mata", 4);
}
static void b_major(mdb_writer *w, uint8_t *d, size_t *len)
{
	(void)w;
	(void)len;
	d[14] = 5;
}
static void b_minor_newer(mdb_writer *w, uint8_t *d, size_t *len)
{
	(void)w;
	(void)len;
	d[15] = 3; /* the 4.0 layout is a valid 4.3 layout: only the warning */
}
static void b_footer(mdb_writer *w, uint8_t *d, size_t *len)
{
	(void)w;
	memcpy(d + *len - 8, "_meta.dx", 8);
}
/* General holds only its own strings and nothing points into it, so
 * moving or resizing it disturbs no other rule. */
static void b_sec_contained(mdb_writer *w, uint8_t *d, size_t *len)
{
	(void)w;
	hv_put_le64(d + slot(MDB_GENERAL), *len); /* runs over the footer and past EOF */
}
static void p_sec_aligned(mdb_writer *w)
{
	w->lay.misalign_section = MDB_GENERAL + 1;
}
static void b_sec_overlap(mdb_writer *w, uint8_t *d, size_t *len)
{
	(void)len;
	int nx = next_section(w, MDB_GENERAL);
	if (nx == MDB_NSEC) return; /* General is never last: prepare moves it */
	hv_put_le64(d + slot(MDB_GENERAL), w->base[nx] - w->base[MDB_GENERAL] + 8);
}
static void p_general_not_last(mdb_writer *w)
{
	if (w->lay.order[MDB_NSEC - 1] != MDB_GENERAL) return;
	w->lay.order[MDB_NSEC - 1] = w->lay.order[0];
	w->lay.order[0] = MDB_GENERAL;
}

static const mdb_break breaks[] = {
	{"metadb.hdr.truncated", ED_BOTH, NULL, b_truncated},
	{"metadb.hdr.magic", ED_BOTH, NULL, b_magic},
	{"metadb.hdr.major", ED_BOTH, NULL, b_major},
	{"metadb.hdr.minor-newer", ED_BOTH, NULL, b_minor_newer},
	{"metadb.hdr.footer", ED_BOTH, NULL, b_footer},
	{"metadb.sec.contained", ED_BOTH, NULL, b_sec_contained},
	{"metadb.sec.aligned", ED_BOTH, p_sec_aligned, NULL},
	{"metadb.sec.overlap", ED_BOTH, p_general_not_last, b_sec_overlap},
};

static const mdb_break *find(const char *rule, enum hv_edition ed)
{
	unsigned want = ed == HV_EDITION_DRAFT ? ED_DRAFT : ED_RELEASE;
	for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++)
		if (strcmp(breaks[i].rule, rule) == 0 && (breaks[i].editions & want)) return &breaks[i];
	return NULL;
}

bool mdb_can_break(const char *rule_id, enum hv_edition edition) { return find(rule_id, edition) != NULL; }

void mdb_break_prepare(mdb_writer *w, const char *rule_id)
{
	const mdb_break *b = find(rule_id, w->draft ? HV_EDITION_DRAFT : HV_EDITION_RELEASE);
	if (b && b->prepare) b->prepare(w);
}

int mdb_break_apply(mdb_writer *w, const char *rule_id, uint8_t **data, size_t *len)
{
	const mdb_break *b = find(rule_id, w->draft ? HV_EDITION_DRAFT : HV_EDITION_RELEASE);
	if (!b) return -1;
	if (b->apply) b->apply(w, *data, len);
	return 0;
}
