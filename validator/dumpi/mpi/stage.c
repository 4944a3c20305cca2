/* What the parts of the cross-rank stage share (match.c drives them:
 * comms.c, collmatch.c, part.c; internal.h declares these): diagnostics
 * within the per-trace caps, recorded in slot order while a partitioned
 * stage matches its pairs, communicator names, and the pair a channel
 * belongs to. */
#include <stdarg.h>
#include <stdio.h>

#include "core/wire.h"
#include "pass.h"

/* ---- diagnostics ---- */

/* Whether rule `rule` may list one more diagnostic in this trace (DIAG_CAP). */
bool mpi_room(trace_ctx *t, int rule)
{
	if (t->shown[rule] < DIAG_CAP) {
		t->shown[rule]++;
		return true;
	}
	t->hidden[rule]++;
	return false;
}

/* mpi_room, counting the severity of a finding it does not let through. */
static bool room_for(trace_ctx *t, int rule, enum hv_sev sev)
{
	if (mpi_room(t, rule)) return true;
	if (sev + 1u > t->hidden_sev[rule]) t->hidden_sev[rule] = (uint8_t)(sev + 1u);
	return false;
}

static void emit_msg(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		     const char *msg)
{
	char path[48];
	hv_emit_sev(t->r, rule, sev, m->file, off, 0, dumpi_record_path(path, sizeof path, rec), "%s", msg);
}

void mpi_emit_text(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		   const char *msg)
{
	if (room_for(t, rule, sev)) emit_msg(t, rule, sev, m, rec, off, msg);
}

static void vemit_at(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		     const char *fmt, va_list ap)
{
	/* a partitioned stage's pair findings wait for their place (part.c) */
	bool recording = t->part && t->part->recording;
	if (!recording && !room_for(t, rule, sev)) return;
	char msg[768];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (recording) mpi_part_record(t, rule, sev, m, rec, off, msg);
	else emit_msg(t, rule, sev, m, rec, off, msg);
}

void mpi_emit_at(trace_ctx *t, int rule, const mpi_rank *m, uint64_t rec, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit_at(t, rule, hv_rules[rule].severity, m, rec, off, fmt, ap);
	va_end(ap);
}

void mpi_emit_sev(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit_at(t, rule, sev, m, rec, off, fmt, ap);
	va_end(ap);
}

/* A finding of a pair owned here, kept with its slot for the replay
 * (mpi_part_replay), within this process's DIAG_CAP. */
void mpi_part_record(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		     const char *msg)
{
	mpi_part *p = t->part;
	if (p->kept[rule] >= DIAG_CAP) {
		/* past this process's first DIAG_CAP, past the trace's too */
		if (p->unkept[rule] < UINT32_MAX) p->unkept[rule]++;
		if (sev + 1u > p->unkept_sev[rule]) p->unkept_sev[rule] = (uint8_t)(sev + 1u);
		return;
	}
	p->kept[rule]++;
	p->nfound++;
	hv_wbuf *w = &p->found;
	hv_put_u64(w, p->slot);
	hv_put_u64(w, (uint64_t)rule);
	hv_put_u64(w, sev);
	hv_put_u64(w, (uint64_t)m->rank);
	hv_put_u64(w, rec);
	hv_put_u64(w, off);
	hv_put_str(w, msg);
}

/* ---- names and pairs ---- */

/* "comm 2 = world", "comm 4" as the rank names it. */
const char *mpi_comm_name(char *buf, size_t len, const mpi_rank *m, uint32_t inst)
{
	if (inst == INST_WORLD) snprintf(buf, len, "comm 2 = world");
	else if (inst == INST_SELF) snprintf(buf, len, "comm 3 = self");
	else if (inst < m->ninst)
		snprintf(buf, len, "comm %llu (made by %s, record %llu)", (unsigned long long)m->inst[inst].local_id,
			 dumpi_function_name(m->inst[inst].fn), (unsigned long long)m->inst[inst].rec);
	else snprintf(buf, len, "comm ?");
	return buf;
}

bool mpi_chan_pair(const trace_ctx *t, uint32_t w, const mpi_chan *c, uint64_t *key, uint32_t *gid, uint32_t *src,
		   uint32_t *dst, int32_t *tag)
{
	uint32_t g = c->inst < t->by[w]->ninst ? t->ig[w][c->inst] : GID_NONE;
	uint32_t me = w, peer;
	if (g == GID_SELF) {
		if (c->peer != 0) return false;
		peer = w;
	} else {
		if (g == GID_NONE || !t->g[g].ok) return false;
		if (c->peer < 0 || (uint32_t)c->peer >= t->g[g].n) return false; /* reported as dumpi.mpi.rank-range */
		peer = t->g[g].mem[c->peer].world;
		/* this rank's own position must be where the order puts it */
	}
	*gid = g;
	*src = c->dir ? peer : me, *dst = c->dir ? me : peer;
	*tag = t->by[*src]->chans_merged || t->by[*dst]->chans_merged ? CHAN_ANY_TAG : c->tag;
	*key = mpi_hash(g == GID_SELF ? ((uint64_t)1 << 40) | w : g, *src, *dst, (uint32_t)*tag);
	return true;
}

void mpi_pair_end(gchan *x, const mpi_chan *c, int32_t tag)
{
	const mpi_chan **end = c->dir ? &x->r : &x->s;
	uint64_t *n = c->dir ? &x->nr : &x->ns;
	if (*end) x->merged = true;
	if (!*end || c->last_rec > (*end)->last_rec) *end = c;
	*n = *n > UINT64_MAX - c->n ? UINT64_MAX : *n + c->n;
	if (tag == CHAN_ANY_TAG) x->merged = true;
}
