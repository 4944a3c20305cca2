/* Checks that need every stream of a trace: threads, processes and looms
 * merged as ovniemu merges them, required models, and the clock gate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ovni/model/model.h"
#include "trace.h"

#define CLOCK_GATE_NS 3600000000000.0 /* 1 hour */

static _Thread_local const ovni_stream *g_sort_streams; /* qsort has no context argument; -j runs trees in parallel */

static int cmp_thread(const void *a, const void *b)
{
	const ovni_stream *x = &g_sort_streams[*(const size_t *)a], *y = &g_sort_streams[*(const size_t *)b];
	int c = strcmp(x->loom, y->loom);
	if (c) return c;
	if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
	return strcmp(x->rel, y->rel);
}

/* Where to point at a stream: its metadata, else its binary. */
static const char *sfile(const ovni_stream *s) { return s->json ? s->json->name : s->obs ? s->obs->name : ""; }

static void check_threads(ovni_trace *t, const size_t *ord, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const ovni_stream *a = &t->s[ord[i - 1]], *b = &t->s[ord[i]];
		bool same = strcmp(a->loom, b->loom) == 0 && a->pid == b->pid && a->tid == b->tid;
		if (!hv_eval(t->r, HV_R_OVNI_TREE_DUPLICATE_TID, !same))
			hv_emit(t->r, HV_R_OVNI_TREE_DUPLICATE_TID, sfile(b), b->meta.off_tid, 1, b->rel,
				"thread %lld of process %lld in loom \"%.60s\" is also described by %.100s", (long long)b->tid,
				(long long)b->pid, b->loom, a->rel);
	}
}

/* One process's rank presence, for the per-loom rank rule. */
typedef struct proc_rank {
	const char *loom;
	int64_t pid;
	bool rank;
	const char *file;
} proc_rank;

typedef struct proc_ranks {
	proc_rank *v;
	size_t n;
} proc_ranks;

static int cmp_proc_rank(const void *a, const void *b)
{
	const proc_rank *x = a, *y = b;
	int c = strcmp(x->loom, y->loom);
	if (c) return c;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* As ovniemu's loom_set_rank_min: when any process of a loom has a rank,
 * every process of that loom must. */
static void check_rank_partial(ovni_trace *t, proc_ranks *pr)
{
	qsort(pr->v, pr->n, sizeof *pr->v, cmp_proc_rank);
	for (size_t i = 0; i < pr->n;) {
		size_t j = i, with = 0;
		while (j < pr->n && strcmp(pr->v[j].loom, pr->v[i].loom) == 0) with += pr->v[j++].rank;
		for (size_t k = i; k < j; k++) {
			if (hv_eval(t->r, HV_R_OVNI_TREE_RANK_PARTIAL, with == 0 || pr->v[k].rank)) continue;
			hv_emit(t->r, HV_R_OVNI_TREE_RANK_PARTIAL, pr->v[k].file, 0, 0, "",
				"process %lld of loom \"%.60s\" has no rank while %zu process(es) of that loom have one",
				(long long)pr->v[k].pid, pr->v[k].loom, with);
		}
		i = j;
	}
}

/* v3: per-process attributes merged over the threads of (loom, pid). */
static void check_processes_v3(ovni_trace *t, const size_t *ord, size_t n, proc_ranks *pr)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;
		const ovni_stream *first = &t->s[ord[i]];
		while (j < n && strcmp(t->s[ord[j]].loom, first->loom) == 0 && t->s[ord[j]].pid == first->pid) j++;
		const ovni_stream *app = NULL, *rank = NULL;
		for (size_t k = i; k < j; k++) {
			const ovni_stream *s = &t->s[ord[k]];
			if (s->meta.has_app_id) {
				if (!app) app = s;
				else if (!hv_eval(t->r, HV_R_OVNI_TREE_PROCESS_MISMATCH, app->meta.app_id == s->meta.app_id))
					hv_emit(t->r, HV_R_OVNI_TREE_PROCESS_MISMATCH, sfile(s), s->meta.off_app_id, 1, s->rel,
						"app_id %lld differs from app_id %lld in %.100s (same process %lld)",
						(long long)s->meta.app_id, (long long)app->meta.app_id, app->rel, (long long)s->pid);
			}
			if (s->meta.has_rank) {
				if (!rank) rank = s;
				else if (!hv_eval(t->r, HV_R_OVNI_TREE_PROCESS_MISMATCH,
						  rank->meta.rank == s->meta.rank && rank->meta.nranks == s->meta.nranks))
					hv_emit(t->r, HV_R_OVNI_TREE_PROCESS_MISMATCH, sfile(s), s->meta.off_rank, 1, s->rel,
						"rank %lld/nranks %lld differ from %lld/%lld in %.100s (same process %lld)",
						(long long)s->meta.rank, (long long)s->meta.nranks, (long long)rank->meta.rank,
						(long long)rank->meta.nranks, rank->rel, (long long)s->pid);
			}
		}
		if (!hv_eval(t->r, HV_R_OVNI_TREE_APP_ID_MISSING, app != NULL))
			hv_emit(t->r, HV_R_OVNI_TREE_APP_ID_MISSING, sfile(first), 0, 0, first->rel,
				"no thread of process %lld in loom \"%.60s\" carries ovni.app_id", (long long)first->pid,
				first->loom);
		pr->v[pr->n++] = (proc_rank){first->loom, first->pid, rank != NULL, sfile(first)};
		i = j;
	}
}

static void check_processes_old(ovni_trace *t, proc_ranks *pr)
{
	for (size_t i = 0; i < t->np; i++) {
		const ovni_proc *p = &t->p[i];
		if (!p->meta.ok) continue;
		if (!hv_eval(t->r, HV_R_OVNI_TREE_APP_ID_MISSING, p->meta.has_app_id))
			hv_emit(t->r, HV_R_OVNI_TREE_APP_ID_MISSING, p->json->name, 0, 0, "metadata.json",
				"process metadata has no app_id");
		if (p->loom_ok && p->pid_ok)
			pr->v[pr->n++] = (proc_rank){p->loom, p->pid, p->meta.has_rank, p->json->name};
	}
}

static int cmp_cpu(const void *a, const void *b)
{
	const ovni_cpu *x = a, *y = b;
	if (x->phyid != y->phyid) return x->phyid < y->phyid ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Merge and check the CPUs of one loom. `cpus` is owned by the caller. */
static void check_loom_cpus(ovni_trace *t, const char *loom, ovni_cpu *cpus, size_t n, const char *where)
{
	qsort(cpus, n, sizeof *cpus, cmp_cpu);
	size_t u = 0; /* unique phyids */
	for (size_t i = 0; i < n; i++) {
		if (u > 0 && cpus[u - 1].phyid == cpus[i].phyid) {
			if (!hv_eval(t->r, HV_R_OVNI_TREE_LOOM_CPUS_PHYID, cpus[u - 1].index == cpus[i].index))
				hv_emit(t->r, HV_R_OVNI_TREE_LOOM_CPUS_PHYID, cpus[i].file, cpus[i].off, 1, loom,
					"loom \"%.60s\": phyid %lld has index %lld here and index %lld in %.100s", loom,
					(long long)cpus[i].phyid, (long long)cpus[i].index, (long long)cpus[u - 1].index,
					cpus[u - 1].file);
			continue;
		}
		cpus[u++] = cpus[i];
	}
	int64_t *idx = hv_malloc((u ? u : 1) * sizeof *idx);
	if (!idx) return;
	for (size_t i = 0; i < u; i++) idx[i] = cpus[i].index;
	qsort(idx, u, sizeof *idx, cmp_i64);
	for (size_t i = 0; i < u; i++) {
		bool ok = idx[i] < (int64_t)u && (i == 0 || idx[i] != idx[i - 1]);
		if (!hv_eval(t->r, HV_R_OVNI_TREE_LOOM_CPUS_INDEX, ok)) {
			const ovni_cpu *c = NULL;
			for (size_t k = 0; k < u && !c; k++)
				if (cpus[k].index == idx[i]) c = &cpus[k];
			hv_emit(t->r, HV_R_OVNI_TREE_LOOM_CPUS_INDEX, c ? c->file : where, c ? c->off : 0, 1, loom,
				"loom \"%.60s\" has %zu CPUs, so indices must be 0..%zu once each; index %lld is %s", loom, u,
				u - 1, (long long)idx[i], idx[i] >= (int64_t)u ? "out of range" : "taken twice");
		}
	}
	free(idx);
}

static void check_looms(ovni_trace *t, const size_t *ord, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;
		const ovni_stream *first = &t->s[ord[i]];
		size_t total = 0;
		bool present = false;
		while (j < n && strcmp(t->s[ord[j]].loom, first->loom) == 0) j++;
		for (size_t k = i; k < j; k++) {
			const ovni_stream *s = &t->s[ord[k]];
			const ovni_meta *m = s->proc >= 0 ? &t->p[s->proc].meta : &s->meta;
			if (s->proc < 0) total += m->ncpus, present |= m->has_cpus;
		}
		/* v1/v2: one process per loom carries cpus */
		const ovni_proc *with = NULL;
		for (size_t k = 0; k < t->np; k++) {
			const ovni_proc *p = &t->p[k];
			if (!p->loom_ok || strcmp(p->loom, first->loom) != 0 || !p->meta.has_cpus) continue;
			present = true;
			if (!with) {
				with = p;
				total += p->meta.ncpus;
			} else if (!hv_eval(t->r, HV_R_OVNI_TREE_CPUS_REPEATED, false)) {
				hv_emit(t->r, HV_R_OVNI_TREE_CPUS_REPEATED, p->json->name, p->meta.off_cpus, 1, "metadata.json/cpus",
					"loom \"%.60s\" already has cpus from %.100s", first->loom, with->json->name);
			}
		}
		if (!hv_eval(t->r, HV_R_OVNI_TREE_LOOM_CPUS_MISSING, present))
			hv_emit(t->r, HV_R_OVNI_TREE_LOOM_CPUS_MISSING, sfile(first), 0, 0, first->rel,
				"no thread of loom \"%.60s\" lists loom_cpus (the loom has no physical CPUs)", first->loom);
		ovni_cpu *all = hv_malloc((total ? total : 1) * sizeof *all);
		if (all) {
			size_t a = 0;
			for (size_t k = i; k < j; k++) {
				const ovni_stream *s = &t->s[ord[k]];
				if (s->proc >= 0) continue;
				for (size_t c = 0; c < s->meta.ncpus; c++) all[a++] = s->meta.cpus[c];
			}
			if (with)
				for (size_t c = 0; c < with->meta.ncpus; c++) all[a++] = with->meta.cpus[c];
			check_loom_cpus(t, first->loom, all, a, NULL);
			free(all);
		}
		i = j;
	}
}

static void check_models(ovni_trace *t)
{
	uint32_t req = 1u << ovni_model_by_letter('O'); /* always enabled */
	if (t->all_models) req = (1u << OVNI_NMODELS) - 1; /* ovniemu -a */
	for (size_t i = 0; i < t->ns; i++) {
		const ovni_stream *s = &t->s[i];
		if (s->version == 1) return; /* v1 has no require: every model is on */
		req |= s->meta.required;
	}
	for (size_t i = 0; i < t->ns; i++) {
		const ovni_stream *s = &t->s[i];
		if (s->meta.part_unknown) continue; /* reported as such */
		uint32_t bad = s->sum.models & ~req;
		if (!hv_eval(t->r, HV_R_OVNI_TREE_MODEL_NOT_REQUIRED, bad == 0)) {
			int m = 0;
			while (!(bad & (1u << m))) m++;
			hv_emit(t->r, HV_R_OVNI_TREE_MODEL_NOT_REQUIRED, s->obs->name, s->sum.model_off[m], 4, s->rel,
				"events of model %s ('%c') but no thread requires it in ovni.require: ovniemu refuses "
				"them (\"model not enabled\") unless run with -a (hpcvet --ovni-all-models)",
				ovni_models[m].name, ovni_models[m].letter);
		}
	}
}

/* ovniemu orders streams by the relative path of their directory. */
static int cmp_stream_dir(const void *a, const void *b)
{
	const char *x = g_sort_streams[*(const size_t *)a].rel, *y = g_sort_streams[*(const size_t *)b].rel;
	const char *xs = strrchr(x, '/'), *ys = strrchr(y, '/');
	size_t xl = xs ? (size_t)(xs - x) : 0, yl = ys ? (size_t)(ys - y) : 0;
	int c = strncmp(x, y, xl < yl ? xl : yl);
	if (c) return c;
	return xl < yl ? -1 : xl > yl;
}

static void check_clock_gate(ovni_trace *t)
{
	int64_t *off = hv_calloc(t->ns ? t->ns : 1, sizeof *off);
	size_t *order = hv_malloc((t->ns ? t->ns : 1) * sizeof *order);
	if (!off || !order) {
		free(off);
		free(order);
		return;
	}
	ovni_clock_offsets(t, off);
	for (size_t i = 0; i < t->ns; i++) order[i] = i;
	g_sort_streams = t->s;
	qsort(order, t->ns, sizeof *order, cmp_stream_dir);
	const ovni_stream *ref = NULL;
	double ref_clock = 0;
	for (size_t oi = 0; oi < t->ns; oi++) {
		size_t i = order[oi];
		const ovni_stream *s = &t->s[i];
		if (!s->sum.walked || s->sum.nevents == 0 || (s->sum.first_clock >> 63) || s->meta.part_unknown) continue;
		double c = (double)(int64_t)s->sum.first_clock + (double)off[i];
		if (!ref) {
			ref = s;
			ref_clock = c;
			continue;
		}
		double d = c - ref_clock;
		if (!hv_eval(t->r, HV_R_OVNI_TREE_CLOCK_GATE, d <= CLOCK_GATE_NS && d >= -CLOCK_GATE_NS))
			hv_emit(t->r, HV_R_OVNI_TREE_CLOCK_GATE, s->obs->name, 12, 8, s->rel,
				"first event is %.2f h away from the first event of %.100s (limit 1 h); run ovnisync to "
				"write clock-offsets.txt", d / 3.6e12, ref->rel);
	}
	/* Last, with the same offsets: the event model (model.c) replays the
	 * looms only when every check above passed. */
	ovni_model_check(t, off);
	free(off);
	free(order);
}

void ovni_tree_checks(ovni_trace *t)
{
	size_t *ord = hv_malloc((t->ns ? t->ns : 1) * sizeof *ord);
	if (!ord) return;
	size_t n = 0, v3 = 0;
	bool v1 = false, v2 = false;
	for (size_t i = 0; i < t->ns; i++) {
		if (t->s[i].thread) ord[n++] = i;
		v3 += t->s[i].version == 3;
	}
	for (size_t i = 0; i < t->np; i++) {
		v1 |= t->p[i].meta.version == 1;
		v2 |= t->p[i].meta.version == 2;
	}
	if (!hv_eval(t->r, HV_R_OVNI_TREE_MIXED_VERSIONS, (v3 == 0 || t->np == 0) && !(v1 && v2)))
		hv_emit(t->r, HV_R_OVNI_TREE_MIXED_VERSIONS, t->np ? t->p[0].json->name : "", 0, 0, "",
			"the trace mixes %s", v1 && v2 ? "v1 and v2 process metadata" : "v3 streams with v1/v2 process metadata");
	/* once per trace: ovni 1.11+ reads no v1/v2 process (ovni 1.14.0 measured) */
	if (!hv_eval(t->r, HV_R_OVNI_TREE_READER_HAZARD_LEGACY, t->np == 0))
		hv_emit(t->r, HV_R_OVNI_TREE_READER_HAZARD_LEGACY, t->p[0].json->name, 0, 0,
			ovni_relpath(t->r, t->p[0].json->name),
			"%zu v1/v2 process(es): ovni 1.14.0's ovniemu and ovnidump read v3 streams only; %s and exit 0 "
			"(ovni <= 1.10 reads v1/v2 trees)",
			t->np, v3 ? "they skip these processes" : "they load no stream from this trace, process no event");
	g_sort_streams = t->s;
	qsort(ord, n, sizeof *ord, cmp_thread);
	proc_ranks pr = {hv_malloc((n + t->np + 1) * sizeof *pr.v), 0};
	check_threads(t, ord, n);
	if (pr.v) {
		/* v3 processes merge their threads' metadata; v1/v2 ones have one
		 * metadata.json (check_processes_old) */
		size_t n3 = 0;
		size_t *ord3 = hv_malloc((n ? n : 1) * sizeof *ord3);
		for (size_t i = 0; ord3 && i < n; i++)
			if (t->s[ord[i]].proc < 0) ord3[n3++] = ord[i];
		if (ord3 && v3) check_processes_v3(t, ord3, n3, &pr);
		free(ord3);
		check_processes_old(t, &pr);
		check_rank_partial(t, &pr);
		free(pr.v);
	}
	check_looms(t, ord, n);
	check_models(t);
	ovni_tree_marks(t);
	check_clock_gate(t);
	free(ord);
}
