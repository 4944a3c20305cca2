/* The cross-rank stage, step 2 (match.c runs the stage): each member's
 * collective sequence on a communicator against the one most members made
 * (count, digest, first COLL_KEEP calls), then, when they all agree, the
 * counts of every counted collective: scalar counts against the count most
 * members state, v-variants as sums of each block's count at its sending
 * and receiving ends (colls.c keeps them per rank). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

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
	mpi_emit_at(t, rule, mb, o->rec, o->off, "rank %ld record %llu (%s) is collective #%llu on %s: %s", mb->rank,
		(unsigned long long)o->rec, d, (unsigned long long)p + 1, mpi_comm_name(cn, sizeof cn, mb, g->mem[k].inst), msg);
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
		mpi_emit_at(t, HV_R_DUMPI_MPI_COLL_COUNT, mb, x->coll_rec, x->coll_off,
			"rank %ld passes counts on %s that differ from those %zu of the %u members pass (e.g. rank %ld) in "
			"a collective from #%d to #%llu, its last, at this record (same functions and roots, built-in "
			"datatypes)",
			mb->rank, mpi_comm_name(cn, sizeof cn, mb, g->mem[k].inst), agree, g->n,
			mrank(t, g, example(v, b, agree, k))->rank, COLL_KEEP + 1, (unsigned long long)x->ncoll);
	}
}

void mpi_compare_collectives(trace_ctx *t, uint32_t gi, vote *v, bool *told)
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
		mpi_comm_name(cn, sizeof cn, mb, g->mem[k].inst);
		uint64_t i = 0;
		for (; i < kept && ia->ops && ib->ops; i++) {
			const mpi_coll *x = &ia->ops[i], *y = &ib->ops[i];
			if (x->fn == y->fn && x->root == y->root) continue;
			int rule = x->fn != y->fn ? HV_R_DUMPI_MPI_COLL_SEQUENCE : HV_R_DUMPI_MPI_COLL_ROOT;
			if (rule != HV_R_DUMPI_MPI_COLL_SEQUENCE) hv_eval(t->r, rule, false);
			describe_op(da, sizeof da, x);
			describe_op(db, sizeof db, y);
			mpi_emit_at(t, rule, mb, y->rec, y->off,
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
		mpi_emit_at(t, HV_R_DUMPI_MPI_COLL_SEQUENCE, mb, at, off,
			"rank %ld made %llu collective calls on %s, %zu of the %u members made %llu (e.g. rank %ld)%s",
			mb->rank, (unsigned long long)ib->ncoll, cn, agree, g->n, (unsigned long long)ia->ncoll, ma->rank,
			ia->ncoll == ib->ncoll ? " (the same number, but they differ after the first 32; its last is at "
						     "this record)"
			: first ? "; its first call the others lack is at this record"
			: ib->ncoll ? "; its last collective is at this record" : "");
	}
	if (agree == g->n) compare_counts(t, g, rk, v, told);
}
