/* The cross-rank stage of the MPI consistency layer: the per-rank summaries
 * of one trace (mpi_rank.c), merged in rank order.
 *  1. communicators: every rank's communicator instances are paired by
 *     (parent, which creating call on it, split colour); members are ordered
 *     as MPI orders them (MPI_Comm_dup: as the parent; MPI_Comm_split: by
 *     key, then parent rank; others by the ranks' own MPI_Comm_rank records);
 *  2. collectives: each member's sequence on a communicator against the
 *     one most members made (count, digest, first COLL_KEEP calls), then,
 *     when they all agree, the counts of every counted collective: scalar
 *     counts against the count most members state, v-variants as sums of
 *     each block's count at its sending and receiving ends;
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

/* Members vote with a value (a, b); the reference is the value most of them
 * share, ties going to the one whose first member has the lowest position. */
typedef struct vote {
	uint64_t a, b;
	uint32_t pos;
} vote;

static int by_vote(const void *x, const void *y)
{
	const vote *p = x, *q = y;
	if (p->a != q->a) return p->a < q->a ? -1 : 1;
	if (p->b != q->b) return p->b < q->b ? -1 : 1;
	return (p->pos > q->pos) - (p->pos < q->pos);
}

/* Sorts v; returns the index of the majority group's first (lowest-position)
 * entry and its size in *agree. n > 0. */
static size_t majority(vote *v, size_t n, size_t *agree)
{
	qsort(v, n, sizeof *v, by_vote);
	size_t best = 0, bestn = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && v[j].a == v[i].a && v[j].b == v[i].b) j++;
		if (j - i > bestn || (j - i == bestn && v[i].pos < v[best].pos)) best = i, bestn = j - i;
		i = j;
	}
	*agree = bestn;
	return best;
}

/* A member of the majority group v[b .. b+agree) other than k where there is one. */
static uint32_t example(const vote *v, size_t b, size_t agree, uint32_t k)
{
	for (size_t i = b; i < b + agree; i++)
		if (v[i].pos != k) return v[i].pos;
	return v[b].pos;
}

static void describe_op(char *buf, size_t len, const mpi_coll *o)
{
	int k = snprintf(buf, len, "%s", dumpi_function_name(o->fn));
	if (k > 0 && (size_t)k < len && o->root != -3) k += snprintf(buf + k, len - (size_t)k, " root %d", o->root);
	if (k > 0 && (size_t)k < len && o->count >= 0 && mpi_coll_scalar(o->fn))
		snprintf(buf + k, len - (size_t)k, " count %d", o->count);
}

static const mpi_rank *mrank(const trace_ctx *t, const gcomm *g, uint32_t k) { return t->by[g->mem[k].world]; }
static const mpi_inst *minst(const trace_ctx *t, const gcomm *g, uint32_t k)
{
	return &t->by[g->mem[k].world]->inst[g->mem[k].inst];
}

/* One warning on member k about collective #p, naming the reference member r. */
static void coll_emit(trace_ctx *t, int rule, const gcomm *g, uint32_t k, uint64_t p, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void coll_emit(trace_ctx *t, int rule, const gcomm *g, uint32_t k, uint64_t p, const char *fmt, ...)
{
	const mpi_rank *mb = mrank(t, g, k);
	const mpi_inst *ib = minst(t, g, k);
	const mpi_coll *o = &ib->ops[p];
	char msg[448], cn[96], d[96];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	describe_op(d, sizeof d, o);
	emit_at(t, rule, mb, o->rec, o->off, "rank %ld record %llu (%s) is collective #%llu on %s: %s", mb->rank,
		(unsigned long long)o->rec, d, (unsigned long long)p + 1, comm_name(cn, sizeof cn, mb, g->mem[k].inst), msg);
}

static const char *role_of(uint8_t ro)
{
	return ro == RO_SENDCOUNT ? "sendcount" : ro == RO_RECVCOUNT ? "recvcount" : "count";
}

/* Scalar counts of collective #p: every member's stated counts of the
 * reference datatype against the (datatype, count) most members state. */
static void scalar_counts(trace_ctx *t, const gcomm *g, uint64_t p, vote *v, bool *told)
{
	size_t nv = 0, agree;
	for (uint32_t k = 0; k < g->n; k++) {
		const mpi_coll *o = &minst(t, g, k)->ops[p];
		if (o->count >= 0) v[nv++] = (vote){o->dtype, (uint32_t)o->count, k};
	}
	if (nv == 0) return;
	size_t b = majority(v, nv, &agree);
	uint16_t dt = (uint16_t)v[b].a;
	int32_t want = (int32_t)v[b].b;
	for (uint32_t k = 0; k < g->n; k++) {
		const mpi_coll *o = &minst(t, g, k)->ops[p];
		if (o->count < 0 || o->dtype != dt) continue;
		bool bad0 = o->count != want, bad1 = o->count2 >= 0 && o->count2 != want;
		if (hv_eval(t->r, HV_R_DUMPI_MPI_COLL_COUNT, !bad0 && !bad1)) continue;
		told[k] = true;
		uint32_t rk = example(v, b, agree, k);
		const mpi_coll *ro = &minst(t, g, rk)->ops[p];
		coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, k, p,
			  "its %s is %d elements of datatype %u, but %zu of the %u members state %d (e.g. rank %ld record "
			  "%llu, %s %d); counts of one collective must agree",
			  role_of(bad0 ? o->role0 : o->role1), bad0 ? o->count : o->count2, dt, agree, g->n, want,
			  mrank(t, g, rk)->rank, (unsigned long long)ro->rec, role_of(ro->role0), want);
	}
}

/* k = num / den when exact and in [0, n); -1 otherwise. */
static int64_t located(uint64_t num, uint64_t den, uint32_t n)
{
	int64_t a = (int64_t)num, d = (int64_t)den;
	if (d == 0 || (d == -1 && a == INT64_MIN)) return -1;
	if (a % d != 0) return -1;
	int64_t k = a / d;
	return k >= 0 && k < (int64_t)n ? k : -1;
}

/* Receive arrays that every member holds alike (Allgatherv, Reduce_scatter):
 * members whose array differs from most members' are reported. False when
 * some member's array differs or is missing. */
static bool same_arrays(trace_ctx *t, const gcomm *g, uint64_t p, vote *v, bool *told, uint32_t *ref)
{
	for (uint32_t k = 0; k < g->n; k++) {
		const mpi_coll *o = &minst(t, g, k)->ops[p];
		if (!(o->vflags & VR_SUMS)) return false;
		v[k] = (vote){o->vdig, o->vtype2, k};
	}
	size_t agree, b = majority(v, g->n, &agree);
	*ref = v[b].pos;
	const mpi_coll *ro = &minst(t, g, *ref)->ops[p];
	for (uint32_t k = 0; k < g->n; k++) {
		const mpi_coll *o = &minst(t, g, k)->ops[p];
		if (o->vtype2 != ro->vtype2) continue; /* another datatype: not compared */
		if (hv_eval(t->r, HV_R_DUMPI_MPI_COLL_COUNT, o->vdig == ro->vdig)) continue;
		told[k] = true;
		uint32_t rk = example(v, b, agree, k);
		coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, k, p,
			  "its recvcounts (%u entries, sum %lld) differ from those %zu of the %u members pass (e.g. rank "
			  "%ld record %llu, sum %lld); every member passes the same recvcounts",
			  o->vlen, (long long)o->r0, agree, g->n, mrank(t, g, rk)->rank, (unsigned long long)ro->rec,
			  (long long)ro->r0);
	}
	return agree == g->n;
}

/* V-variants of collective #p (members in order): the counts each block has
 * at its sending end against its receiving end, as three sums over
 * (count, count * source, count * destination) whose differences locate
 * one wrong block. */
static void vector_counts(trace_ctx *t, const gcomm *g, uint64_t p, vote *v, bool *told)
{
	uint32_t n = g->n;
	const mpi_coll *o0 = &minst(t, g, 0)->ops[p];
	unsigned fn = o0->fn;
	uint16_t ty = 0;
	/* one built-in datatype on every side that is compared, arrays of n entries */
	for (uint32_t k = 0; k < n; k++) {
		const mpi_coll *o = &minst(t, g, k)->ops[p];
		if (((o->vflags & VS_SUMS) || (o->vflags & VR_SUMS)) && o->vlen != n) return;
		if (o->vflags & (VS_SCALAR | VS_SUMS)) {
			if (ty && o->vtype != ty) return;
			ty = o->vtype;
		}
		if (o->vflags & (VR_SCALAR | VR_SUMS)) {
			if (ty && o->vtype2 != ty) return;
			ty = o->vtype2;
		}
	}
	uint32_t ref = 0;
	if ((fn == 59 || fn == 66) && !same_arrays(t, g, p, v, told, &ref)) return;
	if (fn == 66) return;
	int32_t root = o0->root;
	bool rooted = fn == 55 || fn == 57;
	if (rooted && (root < 0 || (uint32_t)root >= n)) return;
	/* D0 = sum of counts sent - received; DS, DD the same weighted by source
	 * and destination rank, HS, HD by their mpi_weight(): one block off by d
	 * gives (d, src*d, dst*d, w(src)*d, w(dst)*d), which HS and HD confirm */
	uint64_t d0 = 0, ds = 0, dd = 0, hs = 0, hd = 0;
	uint32_t blame = rooted ? (uint32_t)root : 0;
	for (uint32_t k = 0; k < n; k++) {
		const mpi_coll *o = &minst(t, g, k)->ops[p];
		uint64_t c = (uint64_t)(int64_t)o->count, c2 = (uint64_t)(int64_t)o->count2;
		bool is_root = rooted && k == (uint32_t)root;
		switch (fn) {
		case 55: /* Gatherv: senders' sendcount, the root's recvcounts without its own */
			if (is_root) {
				if (!(o->vflags & VR_SUMS) || o->vself != root) return;
				d0 -= o->r0, ds -= o->r1, dd -= (uint64_t)root * o->r0;
				hs -= o->r2, hd -= mpi_weight((uint64_t)root) * o->r0;
			} else {
				if (!(o->vflags & VS_SCALAR)) return;
				d0 += c, ds += k * c, dd += (uint64_t)root * c;
				hs += mpi_weight(k) * c, hd += mpi_weight((uint64_t)root) * c;
			}
			break;
		case 57: /* Scatterv: the root's sendcounts without its own, receivers' recvcount */
			if (is_root) {
				if (!(o->vflags & VS_SUMS) || o->vself != root) return;
				d0 += o->s0, ds += (uint64_t)root * o->s0, dd += o->s1;
				hs += mpi_weight((uint64_t)root) * o->s0, hd += o->s2;
			} else {
				if (!(o->vflags & VR_SCALAR)) return;
				d0 -= c2, ds -= (uint64_t)root * c2, dd -= k * c2;
				hs -= mpi_weight((uint64_t)root) * c2, hd -= mpi_weight(k) * c2;
			}
			break;
		case 59: { /* Allgatherv: each sendcount against the (agreed) recvcounts */
			const mpi_coll *r = &minst(t, g, ref)->ops[p];
			if (!(o->vflags & VS_SCALAR)) return;
			if (k == 0) d0 -= r->r0, ds -= r->r1, hs -= r->r2;
			d0 += c, ds += k * c, hs += mpi_weight(k) * c; /* the sender's weights alone locate it */
			break;
		}
		default: /* Alltoallv, Alltoallw */
			if (!(o->vflags & VS_SUMS) || !(o->vflags & VR_SUMS)) return;
			d0 += o->s0 - o->r0;
			ds += k * o->s0 - o->r1;
			dd += o->s1 - k * o->r0;
			hs += mpi_weight(k) * o->s0 - o->r2;
			hd += o->s2 - mpi_weight(k) * o->r0;
			break;
		}
	}
	bool ok = d0 == 0 && ds == 0 && dd == 0 && hs == 0 && hd == 0;
	if (hv_eval(t->r, HV_R_DUMPI_MPI_COLL_COUNT, ok)) return;
	int64_t src = located(ds, d0, n), dst = located(dd, d0, n);
	/* one block only when the weighted sums agree with it */
	if (src >= 0 && hs != mpi_weight((uint64_t)src) * d0) src = -1;
	if (dst >= 0 && fn != 59 && hd != mpi_weight((uint64_t)dst) * d0) dst = -1;
	int64_t d = (int64_t)d0;
	const char *fnn = dumpi_function_name(fn);
	if (fn == 55 && src >= 0 && src != root) {
		const mpi_coll *o = &minst(t, g, (uint32_t)src)->ops[p];
		told[src] = true;
		coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, (uint32_t)src, p,
			  "it sends sendcount %d elements of datatype %u, but the root, rank %ld, expects recvcounts[%lld] "
			  "= %lld; counts of one collective must agree",
			  o->count, ty, mrank(t, g, (uint32_t)root)->rank, (long long)src, (long long)o->count - d);
	} else if (fn == 57 && dst >= 0 && dst != root) {
		const mpi_coll *o = &minst(t, g, (uint32_t)dst)->ops[p];
		told[dst] = true;
		coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, (uint32_t)dst, p,
			  "it receives recvcount %d elements of datatype %u, but the root, rank %ld, sends sendcounts[%lld] "
			  "= %lld; counts of one collective must agree",
			  o->count2, ty, mrank(t, g, (uint32_t)root)->rank, (long long)dst, (long long)o->count2 + d);
	} else if (fn == 59 && src >= 0) {
		const mpi_coll *o = &minst(t, g, (uint32_t)src)->ops[p];
		told[src] = true;
		coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, (uint32_t)src, p,
			  "it sends sendcount %d elements of datatype %u, but every member's recvcounts[%lld] is %lld "
			  "(e.g. rank %ld); counts of one collective must agree",
			  o->count, ty, (long long)src, (long long)o->count - d,
			  mrank(t, g, (uint32_t)src == ref ? (ref + 1) % n : ref)->rank);
	} else if ((fn == 61 || fn == 155) && src >= 0 && dst >= 0) {
		told[src] = true;
		coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, (uint32_t)src, p,
			  "its sendcounts[%lld] (to comm rank %lld) is %lld element(s) of datatype %u %s than rank %ld's "
			  "recvcounts[%u] (from comm rank %u); counts of one collective must agree",
			  (long long)dst, (long long)dst, (long long)(d < 0 ? -d : d), ty, d < 0 ? "fewer" : "more",
			  mrank(t, g, (uint32_t)dst)->rank, (unsigned)src, (unsigned)src);
	} else {
		told[blame] = true;
		if (d)
			coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, blame, p,
				  "the members' counts for %s do not pair up: the sending ends state %lld element(s) of "
				  "datatype %u %s than the receiving ends post (several blocks disagree)",
				  fnn, (long long)(d < 0 ? -d : d), ty, d < 0 ? "fewer" : "more");
		else
			coll_emit(t, HV_R_DUMPI_MPI_COLL_COUNT, g, blame, p,
				  "the members' counts for %s do not pair up: the sending and receiving ends state the same "
				  "number of elements of datatype %u in all, but in different blocks (several blocks disagree)",
				  fnn, ty);
	}
}

/* Counts of the collectives of a communicator whose members agree on the
 * sequence; `rk` is a member with the reference sequence. */
static void compare_counts(trace_ctx *t, const gcomm *g, uint32_t rk, vote *v, bool *told)
{
	const mpi_inst *ir = minst(t, g, rk);
	for (uint32_t k = 0; k < g->n; k++) {
		told[k] = false;
		if (!minst(t, g, k)->ops && ir->ncoll) return;
	}
	uint64_t kept = ir->ncoll < COLL_KEEP ? ir->ncoll : COLL_KEEP;
	for (uint64_t p = 0; p < kept; p++) {
		unsigned fn = ir->ops[p].fn;
		if (mpi_coll_scalar(fn)) scalar_counts(t, g, p, v, told);
		else if (mpi_coll_vector(fn) && g->ok) vector_counts(t, g, p, v, told);
	}
	if (ir->ncoll <= COLL_KEEP) return;
	/* later calls: the digest of scalar counts, among members whose scalar collectives all had them */
	size_t nv = 0, agree;
	for (uint32_t k = 0; k < g->n; k++)
		if (!minst(t, g, k)->cmixed) v[nv++] = (vote){minst(t, g, k)->cdigest, 0, k};
	if (nv < 2) return;
	size_t b = majority(v, nv, &agree);
	uint64_t want = v[b].a;
	for (uint32_t k = 0; k < g->n; k++) {
		const mpi_inst *x = minst(t, g, k);
		if (x->cmixed) continue;
		if (hv_eval(t->r, HV_R_DUMPI_MPI_COLL_COUNT, x->cdigest == want) || told[k]) continue;
		const mpi_rank *mb = mrank(t, g, k);
		char cn[96];
		emit_at(t, HV_R_DUMPI_MPI_COLL_COUNT, mb, x->coll_rec, x->coll_off,
			"rank %ld passes counts on %s that differ from those %zu of the %u members pass (e.g. rank %ld) in "
			"a collective from #%d to #%llu, its last, at this record (same functions and roots, built-in "
			"datatypes)",
			mb->rank, comm_name(cn, sizeof cn, mb, g->mem[k].inst), agree, g->n,
			mrank(t, g, example(v, b, agree, k))->rank, COLL_KEEP + 1, (unsigned long long)x->ncoll);
	}
}

static void compare_collectives(trace_ctx *t, uint32_t gi, vote *v, bool *told)
{
	gcomm *g = &t->g[gi];
	if (g->n < 2) return;
	/* a member whose collectives were partly ignored (tracing off) cannot be compared */
	for (uint32_t k = 0; k < g->n; k++)
		if (t->by[g->mem[k].world]->ignored & IGN_COLL) return;
	for (uint32_t k = 0; k < g->n; k++) v[k] = (vote){minst(t, g, k)->ncoll, minst(t, g, k)->digest, k};
	size_t agree, b = majority(v, g->n, &agree);
	uint32_t rk = v[b].pos;
	const mpi_rank *ma = mrank(t, g, rk);
	const mpi_inst *ia = minst(t, g, rk);
	for (uint32_t k = 0; k < g->n; k++) {
		if (k == rk) continue;
		const mpi_rank *mb = mrank(t, g, k);
		const mpi_inst *ib = minst(t, g, k);
		bool same = ia->ncoll == ib->ncoll && ia->digest == ib->digest;
		hv_eval(t->r, HV_R_DUMPI_MPI_COLL_SEQUENCE, same);
		if (same) continue;
		uint64_t kept = ia->ncoll < ib->ncoll ? ia->ncoll : ib->ncoll;
		if (kept > COLL_KEEP) kept = COLL_KEEP;
		char cn[96], da[96], db[96];
		comm_name(cn, sizeof cn, mb, g->mem[k].inst);
		uint64_t i = 0;
		for (; i < kept && ia->ops && ib->ops; i++) {
			const mpi_coll *x = &ia->ops[i], *y = &ib->ops[i];
			if (x->fn == y->fn && x->root == y->root) continue;
			int rule = x->fn != y->fn ? HV_R_DUMPI_MPI_COLL_SEQUENCE : HV_R_DUMPI_MPI_COLL_ROOT;
			if (rule != HV_R_DUMPI_MPI_COLL_SEQUENCE) hv_eval(t->r, rule, false);
			describe_op(da, sizeof da, x);
			describe_op(db, sizeof db, y);
			emit_at(t, rule, mb, y->rec, y->off,
				"rank %ld record %llu (%s) is collective #%llu on %s; %zu of the %u members have %s at the "
				"same position (e.g. rank %ld record %llu)",
				mb->rank, (unsigned long long)y->rec, db, (unsigned long long)i + 1, cn, agree, g->n, da,
				ma->rank, (unsigned long long)x->rec);
			break;
		}
		if (i < kept && ia->ops && ib->ops) continue;
		/* the kept prefix agrees: this member made more or fewer calls, or they differ later */
		bool more = ib->ncoll > ia->ncoll, first = more && kept < COLL_KEEP && ib->ops;
		uint64_t at = first ? ib->ops[kept].rec : ib->ncoll ? ib->coll_rec : ib->rec;
		uint64_t off = first ? ib->ops[kept].off : ib->ncoll ? ib->coll_off : ib->off;
		emit_at(t, HV_R_DUMPI_MPI_COLL_SEQUENCE, mb, at, off,
			"rank %ld made %llu collective calls on %s, %zu of the %u members made %llu (e.g. rank %ld)%s",
			mb->rank, (unsigned long long)ib->ncoll, cn, agree, g->n, (unsigned long long)ia->ncoll, ma->rank,
			ia->ncoll == ib->ncoll ? " (the same number, but they differ after the first 32; its last is at "
						 "this record)"
			: first ? "; its first call the others lack is at this record"
			: ib->ncoll ? "; its last collective is at this record" : "");
	}
	if (agree == g->n) compare_counts(t, g, rk, v, told);
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
			"%s record %llu (%s): %s %lld is outside %s, which has %lld rank(s)%s", mpi_rank_label(m).s,
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
			"%zu of %lld ranks' files (%s recorded MPI_Comm_size(MPI_COMM_WORLD) = %lld): communicators "
			"are not rebuilt, messages not matched and collective sequences not compared; ranks are checked "
			"against the sizes the ranks recorded",
			n, (long long)said->world_size, mpi_rank_label(said).s, (long long)said->world_size);
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
		uint32_t most = 1;
		for (uint32_t gi = 0; gi < t.ng; gi++) most = t.g[gi].n > most ? t.g[gi].n : most;
		vote *v = malloc(most * sizeof *v);
		bool *told = malloc(most * sizeof *told);
		if (v && told)
			for (uint32_t gi = 0; gi < t.ng; gi++) compare_collectives(&t, gi, v, told);
		else hv_report_internal(r, "out of memory");
		free(v);
		free(told);
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
	       "(-1, -2); tags >= 0 (receives: or MPI_ANY_TAG); no communicator or datatype used after its free,\n"
	       "and no predefined one (MPI_COMM_WORLD, MPI_COMM_SELF, named datatypes) freed;\n"
	       "every wait/test/start/free names a live request; every nonblocking or started persistent request\n"
	       "is completed, freed or cancelled by MPI_Finalize; a complete stream has MPI_Finalize.\n"
	       "Proves, across ranks (a .meta with every rank file, each read to its end): communicators from\n"
	       "MPI_COMM_WORLD, MPI_Comm_dup and MPI_Comm_split are rebuilt and mapped to world ranks; every\n"
	       "member makes the same collectives on each communicator (order and root), and the counts of every\n"
	       "counted collective pair up where the datatypes are built-in (Bcast, Reduce, Allreduce, Scan, Exscan,\n"
	       "Allgather, Alltoall, Gather, Scatter; Gatherv, Scatterv, Allgatherv, Alltoallv, Alltoallw and\n"
	       "Reduce_scatter through rank-weighted sums of their arrays); the reference is what most members did\n"
	       "(ties: the lowest rank), so one wrong member gets one warning;\n"
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
	       "ranks with nonblocking MPI-IO requests (a separate DUMPI index space) for requests; compare a send\n"
	       "side that may be MPI_IN_PLACE (count 0 or MPI_DATATYPE_NULL) or a root's own block, counts of\n"
	       "v-variants past a communicator's first 32 collectives, or counts of derived datatypes; check a rank\n"
	       "whose stream is cut (its stream errors say so; the cross-rank stage is then skipped).\n"
	       "Memory: live requests, communicator instances (4096 per rank at most) and message channels\n"
	       "(distinct communicator/peer/tag triples, 65536 per rank at most: past that a rank's channels are\n"
	       "merged over tags, its traffic is matched per communicator, source and destination, and message\n"
	       "sizes are no longer compared), never the number of records.\n"
	       "\n"
	       "Rules:\n";
}
