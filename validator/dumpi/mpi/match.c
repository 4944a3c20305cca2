/* The cross-rank stage of the MPI consistency layer: the per-rank summaries
 * of one trace (rank.c), merged in rank order. This file runs the
 * stage and matches point-to-point messages; comms.c rebuilds the
 * communicators (1), collmatch.c compares the collectives (2).
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
 * hpcvet-mpi's processes, wire.c) come together before this stage.
 * Its size is the summaries' (instances and channels), not the records'.
 * Over hpcvet-mpi's processes the messages' part is shared out by
 * destination in the same order (t->part, part.c): steps 1 and 2 run
 * everywhere on skeletons, step 3 on each process for the pairs whose
 * destination it checked, and the findings are replayed in slot order.
 * This file is the stage's driver: it calls comms.c, collmatch.c and
 * part.c, which call neither one another nor this file; what they share
 * (diagnostics within the caps, communicator names, a channel's pair) is
 * stage.c's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "pass.h"

/* The message classes of unrecorded calls a rank shows (UNREC_REQ,
 * UNREC_STATUS, not 0), as words for messages. */
static const char *unrec_words(uint8_t unrec)
{
	switch (unrec & (UNREC_REQ | UNREC_STATUS)) {
	case UNREC_REQ: return "unrecorded request calls";
	case UNREC_STATUS: return "unrecorded matched probes";
	default: return "unrecorded request calls and matched probes";
	}
}

/* A finding about a message between `mine` and `other` that calls libdumpi
 * does not record on `other` could explain: its severity (the rule's, or a
 * note), and the words that say why. */
static enum hv_sev unrec_sev(const trace_ctx *t, int rule, const mpi_rank *other, uint8_t classes)
{
	return other->unrec & classes ? mpi_unrec_sev(t->replay) : hv_rules[rule].severity;
}
static void unrec_tail(char *buf, size_t len, const trace_ctx *t, const mpi_rank *other, uint8_t classes)
{
	if (!(other->unrec & classes)) {
		buf[0] = 0;
		return;
	}
	snprintf(buf, len, "; %s shows %s%s", mpi_rank_label(other).s, unrec_words(other->unrec & classes),
		 t->replay ? ": a replay sees it unmatched" : ", which may explain it");
}

/* ---- 3. point-to-point ---- */

/* Channel c of rank w into its pair: false when out of memory. Partitioned,
 * the map holds keys alone (and the index of a pair owned here). */
static bool chan_put(trace_ctx *t, mpi_map *gm, uint32_t w, const mpi_chan *c)
{
	uint64_t key;
	uint32_t gid, src, dst;
	int32_t tag;
	if (!mpi_chan_pair(t, w, c, &key, &gid, &src, &dst, &tag)) return true;
	bool fresh;
	gchan *x = mpi_map_put(gm, key, &fresh);
	if (!x) return false;
	if (t->part) {
		x = mpi_part_pair(t, (uint32_t *)x, fresh, dst);
		if (!x) return !t->part->failed;
	}
	if (fresh) x->gid = gid, x->src = src, x->dst = dst, x->tag = tag;
	if (t->part && t->by[w]->skeleton) {
		/* a send end held elsewhere: it comes whole from there (mpi_part_route) */
		t->part->nwait++;
		return true;
	}
	mpi_pair_end(x, c, tag);
	return true;
}

/* Wildcard receives of the destination on this communicator absorb sends
 * nobody received by name. */
static mpi_inst *wild_budget(trace_ctx *t, const gchan *x)
{
	mpi_rank *m = t->by[x->dst];
	if (x->gid == GID_SELF) return m->ninst > INST_SELF ? &m->inst[INST_SELF] : NULL;
	gcomm *g = &t->g[x->gid];
	for (uint32_t k = 0; k < g->n; k++)
		if (g->mem[k].world == x->dst) return &m->inst[g->mem[k].inst];
	return NULL;
}

/* Sends no named receive took, absorbed by the destination's wildcard
 * receives without a status, then by its receives with the same tag that
 * may have been from MPICH's MPI_PROC_NULL (CHAN_NULLISH). */
static bool absorb(trace_ctx *t, const gchan *x, mpi_inst *in, uint64_t miss)
{
	if (!in) return false;
	mpi_rank *m = t->by[x->dst];
	uint32_t inst = (uint32_t)(in - m->inst);
	int32_t tag = m->chans_merged ? CHAN_ANY_TAG : x->tag;
	mpi_chan *c = tag == CHAN_ANY_TAG && !m->chans_merged
			      ? NULL
			      : mpi_map_get(&m->chans, mpi_hash(inst, (uint32_t)CHAN_NULLISH, (uint32_t)tag, 1));
	uint64_t nullish = c ? c->n : 0;
	if (in->wild > UINT64_MAX - nullish || in->wild + nullish < miss) return false;
	uint64_t w = in->wild < miss ? in->wild : miss;
	in->wild -= w;
	if (c) c->n -= miss - w;
	return true;
}

/* The communicator of a pair, named as its sender names it (its receiver
 * when no send was recorded): formatted only for a finding that shows it,
 * most pairs of a trace having none. */
static const char *pair_comm_name(char *buf, size_t len, const trace_ctx *t, const gchan *x)
{
	return mpi_comm_name(buf, len, x->s ? t->by[x->src] : t->by[x->dst], x->s ? x->s->inst : x->r->inst);
}

static void check_truncation(trace_ctx *t, const gchan *x)
{
	const mpi_chan *s = x->s, *r = x->r;
	uint32_t i = 0, j = 0;
	uint64_t left_s = s->nruns ? s->runs[0].reps : 0, left_r = r->nruns ? r->runs[0].reps : 0, msg = 1;
	while (i < s->nruns && j < r->nruns) {
		bool ok = s->runs[i].dtype != r->runs[j].dtype || r->runs[j].count >= s->runs[i].count;
		hv_eval(t->r, HV_R_DUMPI_MPI_TRUNCATION, ok);
		if (!ok) {
			/* an unrecorded receive (MPI_Mrecv, ...) between would shift the pairing */
			const mpi_rank *mr = t->by[x->dst];
			char why[512], cn[96];
			unrec_tail(why, sizeof why, t, mr, UNREC_REQ | UNREC_STATUS);
			pair_comm_name(cn, sizeof cn, t, x);
			mpi_emit_sev(t, HV_R_DUMPI_MPI_TRUNCATION,
				     unrec_sev(t, HV_R_DUMPI_MPI_TRUNCATION, mr, UNREC_REQ | UNREC_STATUS), mr, r->runs[j].rec,
				     r->last_off,
				     "rank %u receives message #%llu from rank %u (tag %d, %s) into %d elements of datatype %u "
				     "(receives from record %llu on), but rank %u sent %d elements of the same datatype (sends "
				     "from record %llu on): the message is truncated%s",
				     x->dst, (unsigned long long)msg, x->src, x->tag, cn, r->runs[j].count, r->runs[j].dtype,
				     (unsigned long long)r->runs[j].rec, x->src, s->runs[i].count,
				     (unsigned long long)s->runs[i].rec, why);
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
	mpi_part *p = t->part;
	mpi_map gm;
	mpi_map_init(&gm, p ? sizeof(uint32_t) : sizeof(gchan));
	if (p) mpi_part_owners(t);
	bool put = true;
	for (uint32_t w = 0; w < t->n && put; w++) {
		size_t it = 0;
		uint64_t key;
		void *val;
		while (put && mpi_map_next(&t->by[w]->chans, &it, &key, &val)) put = chan_put(t, &gm, w, val);
	}
	if (p) {
		p->failed |= !put;
		mpi_part_route(t, &gm);
		mpi_part_begin(t);
	}
	if (!put) goto out;
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&gm, &it, &key, &val)) {
		gchan *x = p ? mpi_part_at(t, val, it - 1) : val;
		if (!x) continue;
		if ((t->by[x->src]->ignored | t->by[x->dst]->ignored) & IGN_P2P) {
			/* an end ignored sends or receives while tracing was off: not matched */
			hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, true);
			hv_eval(t->r, HV_R_DUMPI_MPI_RECV_UNMATCHED, true);
			continue;
		}
		uint64_t S = x->ns, R = x->nr;
		char cn[96], tg[24], own[24];
		const mpi_rank *ms = t->by[x->src], *mr = t->by[x->dst];
		if (S > R) {
			uint64_t miss = S - R;
			if (absorb(t, x, wild_budget(t, x), miss)) {
				/* received by MPI_ANY_SOURCE/ANY_TAG receives without a status */
				hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, true);
			} else {
				/* the receiver may have taken them with calls libdumpi does not
				 * record (MPI_Mrecv, MPI_Imrecv, MPI_Recv_c, MPI_Isendrecv, ...) */
				char why[512];
				unrec_tail(why, sizeof why, t, mr, UNREC_REQ | UNREC_STATUS);
				tag_name(tg, sizeof tg, x->tag);
				pair_comm_name(cn, sizeof cn, t, x);
				hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, false);
				mpi_emit_sev(t, HV_R_DUMPI_MPI_SEND_UNMATCHED,
					     unrec_sev(t, HV_R_DUMPI_MPI_SEND_UNMATCHED, mr, UNREC_REQ | UNREC_STATUS), ms,
					     x->s->last_rec, x->s->last_off,
					     "rank %u record %llu (%s, dest %d, %s, %s) has no matching receive: rank %u sent %llu "
					     "message(s) with %s to rank %u, rank %u received %llu%s",
					     x->src, (unsigned long long)x->s->last_rec, dumpi_function_name(x->s->last_fn),
					     x->s->peer, tag_name(own, sizeof own, x->s->tag), cn, x->src, (unsigned long long)S, tg,
					     x->dst, x->dst, (unsigned long long)R, why);
			}
		} else if (R > S) {
			/* the sender may have sent them with unrecorded nonblocking calls */
			char why[512];
			unrec_tail(why, sizeof why, t, ms, UNREC_REQ);
			tag_name(tg, sizeof tg, x->tag);
			pair_comm_name(cn, sizeof cn, t, x);
			hv_eval(t->r, HV_R_DUMPI_MPI_RECV_UNMATCHED, false);
			mpi_emit_sev(t, HV_R_DUMPI_MPI_RECV_UNMATCHED, unrec_sev(t, HV_R_DUMPI_MPI_RECV_UNMATCHED, ms, UNREC_REQ),
				     mr, x->r->last_rec, x->r->last_off,
				     "rank %u record %llu (%s, source %d, %s, %s) has no matching send: rank %u sent %llu "
				     "message(s) with %s to rank %u, rank %u received %llu%s",
				     x->dst, (unsigned long long)x->r->last_rec, dumpi_function_name(x->r->last_fn), x->r->peer,
				     tag_name(own, sizeof own, x->r->tag), cn, x->src, (unsigned long long)S, tg, x->dst, x->dst,
				     (unsigned long long)R, why);
		} else {
			hv_eval(t->r, HV_R_DUMPI_MPI_SEND_UNMATCHED, true);
			hv_eval(t->r, HV_R_DUMPI_MPI_RECV_UNMATCHED, true);
		}
		if (x->s && x->r && !x->merged) check_truncation(t, x);
	}
out:
	if (p) mpi_part_replay(t);
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
			mpi_emit_at(t, HV_R_DUMPI_MPI_WILDCARD_UNRESOLVED, m, x->wild_rec, x->wild_off,
				"rank %ld record %llu (%s): receives on %s with MPI_ANY_SOURCE or MPI_ANY_TAG and no recorded "
				"status cannot be paired with their sends; sends to rank %ld that no named receive took are "
				"assumed to be theirs",
				m->rank, (unsigned long long)x->wild_rec, dumpi_function_name(x->wild_fn), mpi_comm_name(cn, sizeof cn, m, i),
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
			mpi_comm_name(cn, sizeof cn, m, i), (long long)size,
			i == INST_WORLD ? " (numprocs in the .meta)" : " (members reconstructed from all ranks)");
	}
}

static void summary_lines(trace_ctx *t)
{
	for (int rule = 0; rule < HV_RULE_COUNT; rule++) {
		if (!t->hidden[rule]) continue;
		/* the highest severity among those not listed (hidden_sev: + 1, 0 unset) */
		enum hv_sev sev = t->hidden_sev[rule] ? (enum hv_sev)(t->hidden_sev[rule] - 1u) : hv_rules[rule].severity;
		hv_emit_sev(t->r, rule, sev, t->by[0]->file, 0, 0, "stream",
			"%u more %s diagnostic(s) across ranks are not listed (only the first %d are)", t->hidden[rule],
			hv_rules[rule].id, DIAG_CAP);
	}
}

/* What the first rank showing library k (0 MPICH, 1 Open MPI) recorded. */
static const char *library_shown(const mpi_rank *by, int k)
{
	if (k == 1) return "names -2 as a peer, Open MPI's MPI_PROC_NULL (MPICH's is -1)";
	return by->impl_by_status ? "completes a receive from -1 with an empty status of another tag, as MPICH "
				    "completes one from its MPI_PROC_NULL"
				  : "sends to -1, MPICH's MPI_PROC_NULL (Open MPI's is -2)";
}

/* Which MPI library wrote the trace: named by the user, or shown by the
 * records (a send to -1 is MPICH's MPI_PROC_NULL; -2 as a peer is Open
 * MPI's). One note per trace when something is known. */
static void report_library(const hv_options *opt, hv_report *r, mpi_rank *const *ranks, size_t n)
{
	const mpi_rank *by[2] = {NULL, NULL};
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			if (ranks[i] && (ranks[i]->impl & (1u << k)) && !by[k]) by[k] = ranks[i];
	static const char *const name[2] = {"MPICH", "Open MPI"};
	int named = opt && opt->dumpi_mpi == HV_MPI_MPICH ? 0 : opt && opt->dumpi_mpi == HV_MPI_OPENMPI ? 1 : -1;
	if (!by[0] && !by[1] && named < 0) {
		hv_eval(r, HV_R_DUMPI_TRACE_MPI_LIBRARY, true);
		return;
	}
	hv_eval(r, HV_R_DUMPI_TRACE_MPI_LIBRARY, false);
	/* the note stands at the first record showing a library, else in any rank's file */
	int shown = by[0] ? 0 : by[1] ? 1 : -1;
	const mpi_rank *m = shown >= 0 ? by[shown] : NULL;
	for (size_t i = 0; i < n && !m; i++) m = ranks[i];
	if (!m) return;
	char path[48], msg[800];
	if (named >= 0)
		snprintf(msg, sizeof msg, "the MPI library is %s, as --mpi names it%s%s", name[named],
			 by[!named] ? "; but the records show the other: " : "",
			 by[!named] ? library_shown(by[!named], !named) : "");
	else if (by[0] && by[1])
		snprintf(msg, sizeof msg,
			 "the records show both MPI libraries (%s record %llu %s; %s record %llu %s): -1 and -2 are "
			 "read with both meanings; --mpi names the library",
			 mpi_rank_label(by[0]).s, (unsigned long long)by[0]->impl_rec[0], library_shown(by[0], 0),
			 mpi_rank_label(by[1]).s, (unsigned long long)by[1]->impl_rec[1], library_shown(by[1], 1));
	else
		snprintf(msg, sizeof msg,
			 "the MPI library is %s: %s record %llu %s; -1 and -2 as ranks are read as %s writes them",
			 name[shown], mpi_rank_label(m).s, (unsigned long long)m->impl_rec[shown], library_shown(m, shown),
			 name[shown]);
	uint64_t rec = shown >= 0 ? by[shown]->impl_rec[shown] : 0;
	hv_emit(r, HV_R_DUMPI_TRACE_MPI_LIBRARY, m->file, 0, 0, dumpi_record_path(path, sizeof path, rec), "%s", msg);
}

void mpi_trace_check(const hv_options *opt, hv_report *r, mpi_rank *const *ranks, size_t n, uint64_t world_size)
{
	mpi_trace_check_over(opt, r, ranks, n, world_size, NULL);
}

void mpi_trace_check_over(const hv_options *opt, hv_report *r, mpi_rank *const *ranks, size_t n, uint64_t world_size,
			  struct hv_units_runner *run)
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
	trace_ctx t = {.r = r, .n = (uint32_t)n, .replay = opt && opt->dumpi_replay};
	mpi_part part = {.run = run};
	if (run) t.part = &part;
	report_library(opt, r, ranks, n);
	t.by = hv_calloc(n ? n : 1, sizeof *t.by);
	t.ig = hv_calloc(n ? n : 1, sizeof *t.ig);
	if (!t.by || !t.ig) whole = false;
	for (size_t i = 0; i < n && whole; i++) {
		mpi_rank *m = ranks[i];
		if (!m || !m->complete || m->rank < 0 || (uint64_t)m->rank >= n || t.by[m->rank]) whole = false;
		else t.by[m->rank] = m;
	}
	if (whole && mpi_pair_instances(&t)) {
		for (uint32_t w = 0; w < t.n; w++) {
			mpi_rank *m = t.by[w];
			if (!m->inst_overflow || !mpi_room(&t, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED)) continue;
			hv_eval(r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, false);
			hv_emit(r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, m->file, 0, 0, "stream",
				"rank %ld created more than %u communicators: later ones are not reconstructed, and their "
				"messages and collectives are not checked", m->rank, MPI_MAX_INST);
		}
		uint32_t most = 1;
		for (uint32_t gi = 0; gi < t.ng; gi++) most = t.g[gi].n > most ? t.g[gi].n : most;
		vote *v = hv_malloc(most * sizeof *v);
		bool *told = hv_malloc(most * sizeof *told);
		if (v && told)
			for (uint32_t gi = 0; gi < t.ng; gi++) mpi_compare_collectives(&t, gi, v, told);
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
	mpi_part_free(&part);
}

const char *mpi_layer_explain(void)
{
	return "dumpi.mpi: MPI consistency of a DUMPI trace (warnings: a faithful trace of a buggy program is a\n"
	       "correct trace; notes where the trace cannot tell)\n"
	       "\n"
	       "Proves, per rank: counts >= 0; dest/source/root inside the communicator or a constant DUMPI writes\n"
	       "(-1, -2, read as the MPI library writes them: --mpi, else inferred, note dumpi.trace.mpi-library);\n"
	       "tags >= 0 (receives: or MPI_ANY_TAG); no communicator or datatype used after its free where the\n"
	       "trace proves no other object held the index, and no predefined one (MPI_COMM_WORLD, MPI_COMM_SELF,\n"
	       "named datatypes) freed; every start names an inactive persistent request; every nonblocking or\n"
	       "started persistent request is completed, freed or cancelled by MPI_Finalize; a complete stream has\n"
	       "MPI_Finalize.\n"
	       "Proves, across ranks (a .meta with every rank file, each read to its end): communicators from\n"
	       "MPI_COMM_WORLD, MPI_Comm_dup, MPI_Comm_split and topologies made with reorder = 0 are rebuilt and\n"
	       "mapped to world ranks; every member makes the same collectives on each communicator (order and\n"
	       "root), and the counts of every counted collective pair up where the datatypes are built-in (Bcast,\n"
	       "Reduce, Allreduce, Scan, Exscan, Allgather, Alltoall, Gather, Scatter; Gatherv, Scatterv,\n"
	       "Allgatherv, Alltoallv, Alltoallw and Reduce_scatter through rank-weighted sums of their arrays); the\n"
	       "reference is what most members did (ties: the lowest rank), so one wrong member gets one warning;\n"
	       "per (communicator, source, destination, tag) every send is received and every receive sent, and a\n"
	       "receive smaller than its message (same datatype) is truncation.\n"
	       "\n"
	       "Cannot: pair receives with MPI_ANY_SOURCE/MPI_ANY_TAG whose status was not recorded (they only\n"
	       "absorb unmatched sends; note dumpi.mpi.wildcard-unresolved); rebuild communicators made from groups\n"
	       "the trace does not describe (MPI_Comm_create, topologies that may reorder, intercommunicators,\n"
	       "spawned or connected ones, MPI-3 constructors DUMPI does not record) unless every member recorded\n"
	       "MPI_Comm_rank on them (note dumpi.mpi.comm-unreconstructed; their messages are not matched); compare\n"
	       "message sizes of different or derived datatypes, or beyond the first four runs of equal sizes per\n"
	       "channel; tell a receive from MPICH's MPI_PROC_NULL from an empty MPI_ANY_SOURCE message (both -1;\n"
	       "such a receive absorbs one unmatched send with its tag); check ranks with nonblocking MPI-IO\n"
	       "requests (a separate DUMPI index space) for requests;\n"
	       "compare a send side that may be MPI_IN_PLACE (count 0 or MPI_DATATYPE_NULL) or a root's own block,\n"
	       "counts of v-variants past a communicator's first 32 collectives, or counts of derived datatypes;\n"
	       "check a rank whose stream is cut (its stream errors say so; the cross-rank stage is then skipped).\n"
	       "Says once, as a note, what a partial trace cannot tell: a subset of the ranks' files (the world size\n"
	       "from the .meta, else the ranks' own MPI_Comm_size(MPI_COMM_WORLD); dumpi.mpi.partial-trace), calls\n"
	       "the footer counts as ignored while tracing was off (dumpi.mpi.calls-ignored), and requests no\n"
	       "recorded call created, the holes MPI-3/4 calls leave in libdumpi's MPI-2 bindings\n"
	       "(dumpi.mpi.request-unrecorded).\n"
	       "A partial record: libdumpi does not record MPI-3/4 calls (nonblocking and persistent collectives,\n"
	       "matched probes and receives, large-count _c calls, MPI_Isendrecv, partitioned communication, new\n"
	       "constructors). A warning claims that no correct program traced by libdumpi under Open MPI or MPICH\n"
	       "gives the trace; where such calls could explain a finding and the rank shows them (requests no\n"
	       "recorded call created or named after they ended, statuses no recorded receive produced, handles\n"
	       "used after their free), the finding is a note saying what a replay will see; --mpi-replay makes\n"
	       "those notes warnings. Writer habits modelled: one shared request handle for operations that\n"
	       "completed at once (live instances are counted per id), recycled request and object handles\n"
	       "(MPICH's pool, Open MPI's free lists), MPICH's empty status for a receive from MPI_PROC_NULL, a\n"
	       "cancelled receive completed with {cancelled=1, source=-1}.\n"
	       "Memory: live requests, communicator instances (4096 per rank at most) and message channels (distinct\n"
	       "communicator/peer/tag triples, 65536 per rank at most: past that a rank's channels are merged over\n"
	       "tags, its traffic is matched per communicator, source and destination, and message sizes are no\n"
	       "longer compared), never the number of records. Across ranks: every rank's summary is kept from the\n"
	       "end of its own check to the end of the trace (its channels, communicator instances and first\n"
	       "collectives: about 3 KB for a rank of 14 channels and 3 communicators), and the stage adds the\n"
	       "matched channel pairs (about 1.5 KB a rank): about 6 KB a rank in all, 379 MiB for 65,536 ranks, and\n"
	       "at most 65536 channels of 152 bytes and 4096 instances a rank whatever the trace. Under hpcvet-mpi a\n"
	       "process keeps whole only the ranks it checked, of the others a skeleton (instances, first\n"
	       "collectives, the channels' keys: about 1.5 KB a rank), and matches the messages sent to its own\n"
	       "ranks: 251 MiB a process for 65,536 ranks at -np 2, 216 MiB at -np 4.\n"
	       "\n"
	       "Rules:\n";
}

