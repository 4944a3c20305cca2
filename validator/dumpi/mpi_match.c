/* The cross-rank stage of the MPI consistency layer: the per-rank summaries
 * of one trace (mpi_rank.c), merged in rank order.
 *  1. communicators: every rank's communicator instances are paired by
 *     (parent, which creating call on it, split colour); members are ordered
 *     as MPI orders them (MPI_Comm_dup: as the parent; MPI_Comm_split: by
 *     key, then parent rank; others by the ranks' own MPI_Comm_rank records);
 *  2. collectives: each member's sequence on a communicator against the
 *     first member's (count, digest, first COLL_KEEP calls);
 *  3. point-to-point: per (communicator, source, destination, tag), the
 *     sender's tally against the receiver's, and message sizes in order
 *     (non-overtaking) while both ends kept them.
 * Everything here is bounded by the summaries (instances, channels), not by
 * the number of records. No recursion: parents always have lower ids.
 *
 * Why this runs once over all ranks rather than as a pairwise merge of
 * partial results: a rank names its peer by its rank *in a communicator*,
 * and which world rank that is depends on the whole membership, which only
 * all members' records give (MPI_Comm_split orders the members of a colour
 * by key over every member; a communicator made by MPI_Comm_dup of a split
 * one inherits that order). Until every member of every communicator is
 * known, no channel can be keyed by (source, destination), so partial
 * tallies of two rank ranges have nothing to add up. What does merge is
 * the input: the set of per-rank summaries keyed by world rank, a union
 * (associative and commutative; the same rank twice is refused as a
 * damaged trace), which is how units checked anywhere (threads,
 * hpcvet-mpi's processes, mpi_wire.c) come together before this stage.
 * Its size is the summaries' (instances and channels), not the records'. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

#define GID_NONE UINT32_MAX
#define GID_SELF (UINT32_MAX - 1)
#define DIAG_CAP 50   /* per rule and trace; then one line says how many more */

typedef struct gmember {
	uint32_t world, inst;
	int32_t key;
	int64_t pidx, myrank;
} gmember;

typedef struct gcomm {
	uint32_t parent, seq;
	uint16_t fn;
	int32_t color;
	bool ok;              /* members are in MPI's order */
	uint32_t n, cap;
	gmember *mem;
	uint32_t first_world; /* the rank and instance that created it first, for notes */
	uint32_t first_inst;
} gcomm;

/* One channel across ranks. When an end merged its channels over tags
 * (MPI_MAX_CHANS), the channel is keyed with CHAN_ANY_TAG and gathers every
 * channel of the other end between the same ranks: ns/nr add up, s/r are
 * the latest for diagnostics, and `merged` drops the size comparison. */
typedef struct gchan {
	uint32_t gid, src, dst;
	int32_t tag;
	const mpi_chan *s, *r;
	uint64_t ns, nr;
	bool merged;
} gchan;

typedef struct trace_ctx {
	hv_report *r;
	mpi_rank **by;        /* by world rank */
	uint32_t n;
	uint32_t **ig;        /* per rank: instance -> gid */
	gcomm *g;
	uint32_t ng, gcap;
	unsigned shown[HV_RULE_COUNT], hidden[HV_RULE_COUNT];
} trace_ctx;

static bool room(trace_ctx *t, int rule)
{
	if (t->shown[rule] < DIAG_CAP) {
		t->shown[rule]++;
		return true;
	}
	t->hidden[rule]++;
	return false;
}

static void emit_at(trace_ctx *t, int rule, const mpi_rank *m, uint64_t rec, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void emit_at(trace_ctx *t, int rule, const mpi_rank *m, uint64_t rec, uint64_t off, const char *fmt, ...)
{
	if (!room(t, rule)) return;
	char msg[640], path[48];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hv_emit(t->r, rule, m->file, off, 0, dumpi_record_path(path, sizeof path, rec), "%s", msg);
}

/* "comm 2 = world", "comm 4" as the rank names it. */
static const char *comm_name(char *buf, size_t len, const mpi_rank *m, uint32_t inst)
{
	if (inst == INST_WORLD) snprintf(buf, len, "comm 2 = world");
	else if (inst == INST_SELF) snprintf(buf, len, "comm 3 = self");
	else if (inst < m->ninst)
		snprintf(buf, len, "comm %llu (made by %s, record %llu)", (unsigned long long)m->inst[inst].local_id,
			 dumpi_function_name(m->inst[inst].fn), (unsigned long long)m->inst[inst].rec);
	else snprintf(buf, len, "comm ?");
	return buf;
}

/* ---- 1. communicators ---- */

static uint32_t gcomm_new(trace_ctx *t)
{
	if (t->ng == t->gcap) {
		uint32_t nc = t->gcap ? 2 * t->gcap : 8;
		gcomm *ng = realloc(t->g, nc * sizeof *ng);
		if (!ng) return GID_NONE;
		t->g = ng;
		t->gcap = nc;
	}
	memset(&t->g[t->ng], 0, sizeof t->g[t->ng]);
	return t->ng++;
}

static bool add_member(gcomm *g, gmember mb)
{
	if (g->n == g->cap) {
		uint32_t nc = g->cap ? 2 * g->cap : 4;
		gmember *nm = realloc(g->mem, nc * sizeof *nm);
		if (!nm) return false;
		g->mem = nm;
		g->cap = nc;
	}
	g->mem[g->n++] = mb;
	return true;
}

static int by_pidx(const void *a, const void *b)
{
	const gmember *x = a, *y = b;
	return (x->pidx > y->pidx) - (x->pidx < y->pidx);
}

static int by_key(const void *a, const void *b)
{
	const gmember *x = a, *y = b;
	if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
	return by_pidx(a, b);
}

static int by_myrank(const void *a, const void *b)
{
	const gmember *x = a, *y = b;
	return (x->myrank > y->myrank) - (x->myrank < y->myrank);
}

static bool pair_instances(trace_ctx *t)
{
	mpi_map keys;
	mpi_map_init(&keys, sizeof(uint32_t));
	uint32_t w0 = gcomm_new(t);
	if (w0 != 0) return false;
	t->g[0].ok = true;
	t->g[0].fn = 0;
	for (uint32_t w = 0; w < t->n; w++)
		if (!add_member(&t->g[0], (gmember){.world = w, .inst = INST_WORLD, .pidx = w, .myrank = w})) return false;
	for (uint32_t w = 0; w < t->n; w++) {
		mpi_rank *m = t->by[w];
		uint32_t *ig = t->ig[w] = calloc(m->ninst ? m->ninst : 1, sizeof *ig);
		if (!ig) return false;
		ig[INST_WORLD] = 0;
		if (m->ninst > INST_SELF) ig[INST_SELF] = GID_SELF;
		for (uint32_t i = 2; i < m->ninst; i++) {
			mpi_inst *x = &m->inst[i];
			uint32_t pg = x->parent != INST_NONE && x->parent < i ? ig[x->parent] : GID_NONE;
			ig[i] = GID_NONE;
			if (pg == GID_SELF) { /* made from MPI_COMM_SELF: this rank alone */
				ig[i] = x->null ? GID_NONE : GID_SELF;
				continue;
			}
			if (pg == GID_NONE) {
				if (x->null) continue;
				/* from a call DUMPI cannot pair across ranks (or a private parent) */
				uint32_t g = gcomm_new(t);
				if (g == GID_NONE) return false;
				t->g[g].fn = x->fn;
				t->g[g].parent = pg;
				t->g[g].first_world = w;
				t->g[g].first_inst = i;
				ig[i] = g;
				add_member(&t->g[g], (gmember){.world = w, .inst = i, .key = x->key, .myrank = x->myrank});
				continue;
			}
			if (x->null || (x->fn == 86 && x->color < 0)) continue; /* MPI_COMM_NULL: not a member */
			uint64_t k = mpi_hash(pg, x->seq, x->fn == 86 ? (uint32_t)x->color : 0, 0x5eedu);
			bool fresh;
			uint32_t *gp = mpi_map_put(&keys, k, &fresh);
			if (!gp) return false;
			if (fresh) {
				uint32_t g = gcomm_new(t);
				if (g == GID_NONE) return false;
				*gp = g;
				t->g[g].parent = pg;
				t->g[g].seq = x->seq;
				t->g[g].fn = x->fn;
				t->g[g].color = x->color;
				t->g[g].ok = true;
				t->g[g].first_world = w;
				t->g[g].first_inst = i;
			}
			gcomm *g = &t->g[*gp];
			if (g->fn != x->fn) g->ok = false; /* ranks disagree on the call: a collective mismatch on the parent */
			ig[i] = *gp;
			if (!add_member(g, (gmember){.world = w, .inst = i, .key = x->key, .myrank = x->myrank})) return false;
		}
	}
	mpi_map_free(&keys);
	/* order members, parents first (a parent's id is always lower) */
	int64_t *pos = malloc((t->n ? t->n : 1) * sizeof *pos);
	if (!pos) return false;
	for (uint32_t gi = 1; gi < t->ng; gi++) {
		gcomm *g = &t->g[gi];
		if (g->parent == GID_NONE || g->parent == GID_SELF || !t->g[g->parent].ok) {
			g->ok = false;
		}
		if (g->ok) {
			gcomm *p = &t->g[g->parent];
			for (uint32_t w = 0; w < t->n; w++) pos[w] = -1;
			for (uint32_t k = 0; k < p->n; k++) pos[p->mem[k].world] = k;
			for (uint32_t k = 0; k < g->n; k++) {
				g->mem[k].pidx = pos[g->mem[k].world];
				if (g->mem[k].pidx < 0) g->ok = false; /* a member not in the parent */
			}
		}
		bool all_myrank = true;
		for (uint32_t k = 0; k < g->n; k++) all_myrank &= g->mem[k].myrank >= 0;
		/* a topology made with reorder = 0 keeps the parent's order: its
		 * members are the parent's first ranks (the others get
		 * MPI_COMM_NULL), as MPI_Cart_create(reorder=0) does */
		bool keep_order = g->fn == 99 || g->fn == 101;
		for (uint32_t k = 0; k < g->n && keep_order; k++) keep_order = t->by[g->mem[k].world]->inst[g->mem[k].inst].key == 0;
		if (g->ok && keep_order) {
			qsort(g->mem, g->n, sizeof *g->mem, by_pidx);
			for (uint32_t k = 0; k < g->n; k++)
				if (g->mem[k].pidx != (int64_t)k) g->ok = false;
		} else if (g->ok && g->fn == 84) qsort(g->mem, g->n, sizeof *g->mem, by_pidx);
		else if (g->ok && g->fn == 86) qsort(g->mem, g->n, sizeof *g->mem, by_key);
		else if (all_myrank) qsort(g->mem, g->n, sizeof *g->mem, by_myrank), g->ok = true;
		else g->ok = false;
		/* the ranks' own MPI_Comm_rank records must agree with the order */
		for (uint32_t k = 0; k < g->n && g->ok; k++)
			if (g->mem[k].myrank >= 0 && g->mem[k].myrank != (int64_t)k) g->ok = false;
		/* a membership that covers only some ranks of a private origin is not checkable either */
		if (!g->ok && room(t, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED)) {
			mpi_rank *m = t->by[g->first_world];
			mpi_inst *x = &m->inst[g->first_inst];
			char path[48], cn[96];
			hv_eval(t->r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, false);
			hv_emit(t->r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, m->file, x->off, 0,
				dumpi_record_path(path, sizeof path, x->rec),
				"rank %ld record %llu (%s): %s cannot be reconstructed (%s); its point-to-point messages "
				"are not matched and ranks in it are not range-checked",
				m->rank, (unsigned long long)x->rec, dumpi_function_name(x->fn),
				comm_name(cn, sizeof cn, m, g->first_inst),
				g->parent == GID_NONE ? "the trace does not say which ranks share it"
					: "the members' order is not recorded (no MPI_Comm_rank on it by every member)");
		} else if (g->ok) {
			hv_eval(t->r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, true);
		}
	}
	free(pos);
	return true;
}

/* ---- 2. collectives ---- */

static void describe_op(char *buf, size_t len, const mpi_coll *o)
{
	int k = snprintf(buf, len, "%s", dumpi_function_name(o->fn));
	if (k > 0 && (size_t)k < len && o->root != -3) k += snprintf(buf + k, len - (size_t)k, " root %d", o->root);
	if (k > 0 && (size_t)k < len && o->count >= 0) snprintf(buf + k, len - (size_t)k, " count %d", o->count);
}

static void compare_collectives(trace_ctx *t, uint32_t gi)
{
	gcomm *g = &t->g[gi];
	if (g->n < 2) return;
	/* a member whose collectives were partly ignored (tracing off) cannot be compared */
	for (uint32_t k = 0; k < g->n; k++)
		if (t->by[g->mem[k].world]->ignored & IGN_COLL) return;
	const gmember *a = &g->mem[0];
	const mpi_rank *ma = t->by[a->world];
	const mpi_inst *ia = &ma->inst[a->inst];
	for (uint32_t k = 1; k < g->n; k++) {
		const mpi_rank *mb = t->by[g->mem[k].world];
		const mpi_inst *ib = &mb->inst[g->mem[k].inst];
		bool same = ia->ncoll == ib->ncoll && ia->digest == ib->digest;
		hv_eval(t->r, HV_R_DUMPI_MPI_COLL_SEQUENCE, same);
		if (same) continue;
		uint64_t kept = ia->ncoll < ib->ncoll ? ia->ncoll : ib->ncoll;
		if (kept > COLL_KEEP) kept = COLL_KEEP;
		char cn[96], da[96], db[96];
		comm_name(cn, sizeof cn, ma, a->inst);
		uint64_t i = 0;
		for (; i < kept && ia->ops && ib->ops; i++) {
			const mpi_coll *x = &ia->ops[i], *y = &ib->ops[i];
			if (x->fn == y->fn && x->root == y->root && x->count == y->count && x->dtype == y->dtype) continue;
			int rule = x->fn != y->fn ? HV_R_DUMPI_MPI_COLL_SEQUENCE
				   : x->root != y->root ? HV_R_DUMPI_MPI_COLL_ROOT
							: HV_R_DUMPI_MPI_COLL_COUNT;
			if (rule != HV_R_DUMPI_MPI_COLL_SEQUENCE) hv_eval(t->r, rule, false);
			describe_op(da, sizeof da, x);
			describe_op(db, sizeof db, y);
			emit_at(t, rule, mb, y->rec, y->off,
				"rank %ld record %llu (%s) is collective #%llu on %s; rank %ld record %llu at the same "
				"position is %s%s",
				mb->rank, (unsigned long long)y->rec, db, (unsigned long long)i + 1, cn, ma->rank,
				(unsigned long long)x->rec, da,
				rule == HV_R_DUMPI_MPI_COLL_COUNT ? " (counts of one collective must agree)" : "");
			break;
		}
		if (i < kept && ia->ops && ib->ops) continue;
		/* the kept prefix agrees: one rank made more calls, or they differ later */
		const mpi_rank *mlong = ia->ncoll >= ib->ncoll ? ma : mb;
		const mpi_inst *ilong = ia->ncoll >= ib->ncoll ? ia : ib;
		uint64_t at = ilong->ncoll > kept && kept < COLL_KEEP && ilong->ops ? ilong->ops[kept].rec : ilong->rec;
		uint64_t off = ilong->ncoll > kept && kept < COLL_KEEP && ilong->ops ? ilong->ops[kept].off : ilong->off;
		emit_at(t, HV_R_DUMPI_MPI_COLL_SEQUENCE, mlong, at, off,
			"rank %ld made %llu collective calls on %s, rank %ld made %llu%s", ma->rank,
			(unsigned long long)ia->ncoll, cn, mb->rank, (unsigned long long)ib->ncoll,
			ia->ncoll == ib->ncoll ? " (the same number, but they differ after the first 32)"
					       : "; the first call one rank lacks is at this record");
	}
}

/* ---- 3. point-to-point ---- */

static bool chan_put(trace_ctx *t, mpi_map *gm, uint32_t w, const mpi_chan *c)
{
	uint32_t gid = c->inst < t->by[w]->ninst ? t->ig[w][c->inst] : GID_NONE;
	uint32_t me = w, peer;
	if (gid == GID_SELF) {
		if (c->peer != 0) return true;
		peer = w;
	} else {
		if (gid == GID_NONE || !t->g[gid].ok) return true;
		if (c->peer < 0 || (uint32_t)c->peer >= t->g[gid].n) return true; /* reported as dumpi.mpi.rank-range */
		peer = t->g[gid].mem[c->peer].world;
		/* this rank's own position must be where the order puts it */
	}
	uint32_t src = c->dir ? peer : me, dst = c->dir ? me : peer;
	int32_t tag = t->by[src]->chans_merged || t->by[dst]->chans_merged ? CHAN_ANY_TAG : c->tag;
	uint64_t key = mpi_hash(gid == GID_SELF ? ((uint64_t)1 << 40) | w : gid, src, dst, (uint32_t)tag);
	bool fresh;
	gchan *x = mpi_map_put(gm, key, &fresh);
	if (!x) return false;
	if (fresh) x->gid = gid, x->src = src, x->dst = dst, x->tag = tag;
	const mpi_chan **end = c->dir ? &x->r : &x->s;
	uint64_t *n = c->dir ? &x->nr : &x->ns;
	if (*end) x->merged = true;
	if (!*end || c->last_rec > (*end)->last_rec) *end = c;
	*n = *n > UINT64_MAX - c->n ? UINT64_MAX : *n + c->n;
	if (tag == CHAN_ANY_TAG) x->merged = true;
	return true;
}

/* Wildcard receives of the destination on this communicator absorb sends
 * nobody received by name. */
static uint64_t *wild_budget(trace_ctx *t, const gchan *x)
{
	mpi_rank *m = t->by[x->dst];
	if (x->gid == GID_SELF) return m->ninst > INST_SELF ? &m->inst[INST_SELF].wild : NULL;
	gcomm *g = &t->g[x->gid];
	for (uint32_t k = 0; k < g->n; k++)
		if (g->mem[k].world == x->dst) return &m->inst[g->mem[k].inst].wild;
	return NULL;
}

static void check_truncation(trace_ctx *t, const gchan *x, const char *cn)
{
	const mpi_chan *s = x->s, *r = x->r;
	uint32_t i = 0, j = 0;
	uint64_t left_s = s->nruns ? s->runs[0].reps : 0, left_r = r->nruns ? r->runs[0].reps : 0, msg = 1;
	while (i < s->nruns && j < r->nruns) {
		bool ok = s->runs[i].dtype != r->runs[j].dtype || r->runs[j].count >= s->runs[i].count;
		hv_eval(t->r, HV_R_DUMPI_MPI_TRUNCATION, ok);
		if (!ok) {
			const mpi_rank *mr = t->by[x->dst];
			emit_at(t, HV_R_DUMPI_MPI_TRUNCATION, mr, r->runs[j].rec, r->last_off,
				"rank %u receives message #%llu from rank %u (tag %d, %s) into %d elements of datatype %u "
				"(receives from record %llu on), but rank %u sent %d elements of the same datatype (sends from "
				"record %llu on): the message is truncated",
				x->dst, (unsigned long long)msg, x->src, x->tag, cn, r->runs[j].count, r->runs[j].dtype,
				(unsigned long long)r->runs[j].rec, x->src, s->runs[i].count,
				(unsigned long long)s->runs[i].rec);
			return;
		}
		uint64_t step = left_s < left_r ? left_s : left_r;
		msg += step;
		left_s -= step;
		left_r -= step;
		if (!left_s && ++i < s->nruns) left_s = s->runs[i].reps;
		if (!left_r && ++j < r->nruns) left_r = r->runs[j].reps;
	}
}

/* "tag 7", or what a channel merged over tags stands for. */
static const char *tag_name(char *buf, size_t len, int32_t tag)
{
	if (tag == CHAN_ANY_TAG) snprintf(buf, len, "any tag (merged)");
	else snprintf(buf, len, "tag %d", tag);
	return buf;
}

static void match_messages(trace_ctx *t)
{
	mpi_map gm;
	mpi_map_init(&gm, sizeof(gchan));
	for (uint32_t w = 0; w < t->n; w++) {
		size_t it = 0;
		uint64_t key;
		void *val;
		while (mpi_map_next(&t->by[w]->chans, &it, &key, &val))
			if (!chan_put(t, &gm, w, val)) goto out;
	}
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&gm, &it, &key, &val)) {
		gchan *x = val;
		if ((t->by[x->src]->ignored | t->by[x->dst]->ignored) & IGN_P2P) {
			/* an end ignored sends or receives while tracing was off: not matched */
			hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, true);
			hv_eval(t->r, HV_R_DUMPI_MPI_RECV_UNMATCHED, true);
			continue;
		}
		uint64_t S = x->ns, R = x->nr;
		char cn[96], tg[24], own[24];
		tag_name(tg, sizeof tg, x->tag);
		const mpi_rank *ms = t->by[x->src], *mr = t->by[x->dst];
		comm_name(cn, sizeof cn, x->s ? ms : mr, x->s ? x->s->inst : x->r->inst);
		if (S > R) {
			uint64_t *budget = wild_budget(t, x);
			uint64_t miss = S - R;
			if (budget && *budget >= miss) {
				*budget -= miss; /* received by MPI_ANY_SOURCE/ANY_TAG receives without a status */
				hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, true);
			} else {
				hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, false);
				emit_at(t, HV_R_DUMPI_MPI_SEND_UNMATCHED, ms, x->s->last_rec, x->s->last_off,
					"rank %u record %llu (%s, dest %d, %s, %s) has no matching receive: rank %u sent %llu "
					"message(s) with %s to rank %u, rank %u received %llu",
					x->src, (unsigned long long)x->s->last_rec, dumpi_function_name(x->s->last_fn),
					x->s->peer, tag_name(own, sizeof own, x->s->tag), cn, x->src, (unsigned long long)S, tg, x->dst, x->dst,
					(unsigned long long)R);
			}
		} else if (R > S) {
			hv_eval(t->r, HV_R_DUMPI_MPI_RECV_UNMATCHED, false);
			emit_at(t, HV_R_DUMPI_MPI_RECV_UNMATCHED, mr, x->r->last_rec, x->r->last_off,
				"rank %u record %llu (%s, source %d, %s, %s) has no matching send: rank %u sent %llu "
				"message(s) with %s to rank %u, rank %u received %llu",
				x->dst, (unsigned long long)x->r->last_rec, dumpi_function_name(x->r->last_fn), x->r->peer,
				tag_name(own, sizeof own, x->r->tag), cn, x->src, (unsigned long long)S, tg, x->dst, x->dst, (unsigned long long)R);
		} else {
			hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, true);
			hv_eval(t->r, HV_R_DUMPI_MPI_RECV_UNMATCHED, true);
		}
		if (x->s && x->r && !x->merged) check_truncation(t, x, cn);
	}
out:
	mpi_map_free(&gm);
}

/* Receives whose wildcard no status resolved: one note per rank and communicator. */
static void wildcard_notes(trace_ctx *t)
{
	for (uint32_t w = 0; w < t->n; w++) {
		mpi_rank *m = t->by[w];
		for (uint32_t i = 0; i < m->ninst; i++) {
			mpi_inst *x = &m->inst[i];
			if (!x->wild_off) continue;
			char cn[96];
			hv_eval(t->r, HV_R_DUMPI_MPI_WILDCARD_UNRESOLVED, false);
			emit_at(t, HV_R_DUMPI_MPI_WILDCARD_UNRESOLVED, m, x->wild_rec, x->wild_off,
				"rank %ld record %llu (%s): receives on %s with MPI_ANY_SOURCE or MPI_ANY_TAG and no recorded "
				"status cannot be paired with their sends; sends to rank %ld that no named receive took are "
				"assumed to be theirs",
				m->rank, (unsigned long long)x->wild_rec, dumpi_function_name(x->wild_fn), comm_name(cn, sizeof cn, m, i),
				m->rank);
		}
	}
}

/* Rank references whose communicator size the rank itself never recorded. */
static void check_deferred_ranks(trace_ctx *t, mpi_rank *m, uint32_t w, uint64_t world_size)
{
	for (uint32_t i = 0; i < m->ninst; i++) {
		mpi_inst *x = &m->inst[i];
		if (x->ref.max < 0) continue;
		int64_t size = -1;
		if (i == INST_WORLD && world_size) size = (int64_t)world_size;
		else if (t && t->ig[w] && t->ig[w][i] < t->ng) size = t->g[t->ig[w][i]].n;
		if (size < 0) continue;
		if (hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, x->ref.max < size)) continue;
		char path[48], cn[96];
		hv_emit(m->r, HV_R_DUMPI_MPI_RANK_RANGE, m->file, x->ref.off, 4, dumpi_record_path(path, sizeof path, x->ref.rec),
			"rank %ld record %llu (%s): %s %lld is outside %s, which has %lld rank(s)%s", m->rank,
			(unsigned long long)x->ref.rec, dumpi_function_name(x->ref.fn),
			x->ref.role == RO_DEST ? "dest" : x->ref.role == RO_SOURCE ? "source" : "root", (long long)x->ref.max,
			comm_name(cn, sizeof cn, m, i), (long long)size,
			i == INST_WORLD ? " (numprocs in the .meta)" : " (members reconstructed from all ranks)");
	}
}

static void summary_lines(trace_ctx *t)
{
	for (int rule = 0; rule < HV_RULE_COUNT; rule++) {
		if (!t->hidden[rule]) continue;
		hv_emit(t->r, rule, t->by[0]->file, 0, 0, "stream",
			"%u more %s diagnostic(s) across ranks are not listed (only the first %d are)", t->hidden[rule],
			hv_rules[rule].id, DIAG_CAP);
	}
}

void mpi_trace_check(hv_report *r, mpi_rank *const *ranks, size_t n, uint64_t world_size)
{
	for (size_t i = 0; i < n; i++)
		if (ranks[i]) ranks[i]->r = r;
	/* The world: the .meta numprocs, else the size a rank recorded with
	 * MPI_Comm_size(MPI_COMM_WORLD) (a rank file validated alone). */
	const mpi_rank *said = NULL;
	for (size_t i = 0; i < n && !said; i++)
		if (ranks[i] && ranks[i]->world_size > 0) said = ranks[i];
	uint64_t world = world_size ? world_size : said ? (uint64_t)said->world_size : 0;
	if (!world_size && said && (uint64_t)said->world_size > n) {
		/* fewer rank files than ranks: what needs every rank is unknowable */
		hv_eval(r, HV_R_DUMPI_MPI_PARTIAL_TRACE, false);
		hv_emit(r, HV_R_DUMPI_MPI_PARTIAL_TRACE, said->file, 0, 0, "stream",
			"%zu of %lld ranks' files (rank %ld recorded MPI_Comm_size(MPI_COMM_WORLD) = %lld): communicators "
			"are not rebuilt, messages not matched and collective sequences not compared; ranks are checked "
			"against the sizes the ranks recorded",
			n, (long long)said->world_size, said->rank, (long long)said->world_size);
	} else if (!world_size) {
		hv_eval(r, HV_R_DUMPI_MPI_PARTIAL_TRACE, true);
	}
	/* The cross-rank stage needs every rank 0..n-1, each read to its end;
	 * a damaged trace has its errors already, and only range checks run. */
	bool whole = n > 0 && n <= UINT32_MAX / 2 && (!world || world == n);
	trace_ctx t = {.r = r, .n = (uint32_t)n};
	t.by = calloc(n ? n : 1, sizeof *t.by);
	t.ig = calloc(n ? n : 1, sizeof *t.ig);
	if (!t.by || !t.ig) whole = false;
	for (size_t i = 0; i < n && whole; i++) {
		mpi_rank *m = ranks[i];
		if (!m || !m->complete || m->rank < 0 || (uint64_t)m->rank >= n || t.by[m->rank]) whole = false;
		else t.by[m->rank] = m;
	}
	if (whole && pair_instances(&t)) {
		for (uint32_t w = 0; w < t.n; w++) {
			mpi_rank *m = t.by[w];
			if (!m->inst_overflow || !room(&t, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED)) continue;
			hv_eval(r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, false);
			hv_emit(r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, m->file, 0, 0, "stream",
				"rank %ld created more than %u communicators: later ones are not reconstructed, and their "
				"messages and collectives are not checked", m->rank, MPI_MAX_INST);
		}
		for (uint32_t gi = 0; gi < t.ng; gi++) compare_collectives(&t, gi);
		match_messages(&t);
		wildcard_notes(&t);
		for (uint32_t w = 0; w < t.n; w++) check_deferred_ranks(&t, t.by[w], w, world);
		summary_lines(&t);
	} else {
		for (size_t i = 0; i < n; i++)
			if (ranks[i] && ranks[i]->complete) check_deferred_ranks(NULL, ranks[i], 0, world);
	}
	if (t.ig)
		for (uint32_t w = 0; w < t.n; w++) free(t.ig[w]);
	for (uint32_t gi = 0; gi < t.ng; gi++) free(t.g[gi].mem);
	free(t.g);
	free(t.ig);
	free(t.by);
}

const char *mpi_layer_explain(void)
{
	return "dumpi.mpi: MPI consistency of a DUMPI trace (warnings: a faithful trace of a buggy program is a\n"
	       "correct trace; notes where the trace cannot tell)\n"
	       "\n"
	       "Proves, per rank: counts >= 0; dest/source/root inside the communicator or a constant DUMPI writes\n"
	       "(-1, -2); tags >= 0 (receives: or MPI_ANY_TAG); no communicator or datatype used after its free;\n"
	       "every wait/test/start/free names a live request; every nonblocking or started persistent request\n"
	       "is completed, freed or cancelled by MPI_Finalize; a complete stream has MPI_Finalize.\n"
	       "Proves, across ranks (a .meta with every rank file, each read to its end): communicators from\n"
	       "MPI_COMM_WORLD, MPI_Comm_dup and MPI_Comm_split are rebuilt and mapped to world ranks; every\n"
	       "member makes the same collectives on each communicator (order, root, counts with built-in types);\n"
	       "per (communicator, source, destination, tag) every send is received and every receive sent, and a\n"
	       "receive smaller than its message (same datatype) is truncation.\n"
	       "\n"
	       "Cannot: pair receives with MPI_ANY_SOURCE/MPI_ANY_TAG whose status was not recorded (they only\n"
	       "absorb unmatched sends; note dumpi.mpi.wildcard-unresolved); rebuild communicators made from groups\n"
	       "the trace does not describe (MPI_Comm_create, topologies, intercommunicators, spawned or connected\n"
	       "ones, MPI-3 constructors DUMPI does not record) unless every member recorded MPI_Comm_rank on them\n"
	       "(note dumpi.mpi.comm-unreconstructed; their messages are not matched); compare message sizes of\n"
	       "different or derived datatypes, or beyond the first four runs of equal sizes per channel; tell\n"
	       "MPI_PROC_NULL from MPI_ANY_SOURCE (MPICH: both -1) or from MPI_ROOT (Open MPI: both -2); check\n"
	       "ranks with nonblocking MPI-IO requests (a separate DUMPI index space) for requests; check a rank\n"
	       "whose stream is cut (its stream errors say so; the cross-rank stage is then skipped).\n"
	       "Memory: live requests, communicator instances (4096 per rank at most) and message channels\n"
	       "(distinct communicator/peer/tag triples, 65536 per rank at most: past that a rank's channels are\n"
	       "merged over tags, its traffic is matched per communicator, source and destination, and message\n"
	       "sizes are no longer compared), never the number of records.\n"
	       "\n"
	       "Rules:\n";
}
