/* The ovni event model: threads and CPUs. The thread lifecycle (OHx OHp OHr
 * OHc OHw OHe), affinity (OAs OAr), the kernel's out-of-CPU marks (KCO
 * KCI), one running thread per physical CPU, and the end-of-trace checks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "model.h"

static const char *const state_name[] = {"not started", "running", "paused", "dead", "cooling", "warming"};

static const char *const chan_name[MODEL_NCH] = {
	"MPI function", "Nanos6 subsystem", "Nanos6 thread type", "nOS-V subsystem",
	"TAMPI subsystem", "NODES subsystem", "OpenMP subsystem", "kernel context switch",
};

static void note(mwhere *w, const mevent *e)
{
	memcpy(w->mcv, e->p + 1, 3);
	w->off = e->off;
	w->clock = e->clock;
	w->set = true;
}

static bool cpu_exists(const model_loom *L, int32_t c) { return c == -1 || (c >= 0 && c < L->cpu.ncpus); }

static bool cpu_check(model_loom *L, const mthread *th, const mevent *e, int32_t c)
{
	if (hv_eval(L->r, HV_R_OVNI_MODEL_CPU_UNKNOWN, cpu_exists(L, c))) return true;
	model_fail(L, HV_R_OVNI_MODEL_CPU_UNKNOWN, th, e,
		   "thread %" PRId64 " names CPU index %" PRId32 ", but loom \"%.100s\" lists %" PRId32
		   " CPU(s) in loom_cpus (indices 0..%" PRId32 ", and -1 for the virtual CPU)",
		   th->tid, c, th->s->loom, L->cpu.ncpus, L->cpu.ncpus - 1);
	return false;
}

/* After thread ti became running on its CPU, or moved to it: a physical
 * CPU runs one thread at a time. */
static void shared_check(model_loom *L, uint32_t ti, const mevent *e)
{
	mthread *th = &L->th[ti];
	if (th->cpu < 0 || th->state != TH_RUNNING) return;
	uint32_t n = L->cpu.running[th->cpu];
	if (hv_eval(L->r, HV_R_OVNI_MODEL_CPU_SHARED, n <= 1)) {
		L->cpu.owner[th->cpu] = ti + 1;
		return;
	}
	const mthread *o = NULL;
	for (size_t i = 0; i < L->nth; i++)
		if (i != ti && L->th[i].cpu == th->cpu && L->th[i].state == TH_RUNNING) o = &L->th[i];
	char w[120] = "", op[256] = "?";
	if (o) {
		model_where(w, sizeof w, &o->last);
		model_obs_path(op, sizeof op, o);
	}
	model_fail(L, HV_R_OVNI_MODEL_CPU_SHARED, th, e,
		   "thread %" PRId64 " runs on CPU %" PRId32 " while thread %" PRId64 " (%.150s) still runs there since %s",
		   th->tid, th->cpu, o ? o->tid : -1, op, w);
}

static void set_state(model_loom *L, mthread *th, int st)
{
	if (th->cpu >= 0 && th->state == TH_RUNNING) L->cpu.running[th->cpu]--;
	th->state = st;
	if (th->cpu >= 0 && st == TH_RUNNING) L->cpu.running[th->cpu]++;
}

static void set_cpu(model_loom *L, mthread *th, int32_t c)
{
	if (th->cpu >= 0 && th->state == TH_RUNNING) L->cpu.running[th->cpu]--;
	th->cpu = c;
	if (th->cpu >= 0 && th->state == TH_RUNNING) L->cpu.running[th->cpu]++;
}

static bool state_ok(model_loom *L, mthread *th, const mevent *e, bool ok, const char *want)
{
	if (hv_eval(L->r, HV_R_OVNI_MODEL_THREAD_STATE, ok)) return true;
	char w[120];
	model_where(w, sizeof w, &th->last);
	model_fail(L, HV_R_OVNI_MODEL_THREAD_STATE, th, e, "thread %" PRId64 " is %s (since %s); %c%c%c needs it %s",
		   th->tid, state_name[th->state], w, e->p[1], e->p[2], e->p[3], want);
	return false;
}

/* A payload the handler refuses (ovniemu stops: the stream checks report it,
 * ovni.obs.payload-size, and the model does not run), or the jumbo form of
 * an event read as a normal payload (ovniemu takes the u32 jumbo size as
 * the first argument: ovni.obs.payload-signature, a warning): the event is
 * skipped here. */
static bool payload_ok(model_loom *L, const mthread *th, const mevent *e, bool ok, const char *want)
{
	(void)L, (void)th, (void)e, (void)want;
	return ok;
}

/* Inline into one handler per lifecycle event: `v` is a constant there. */
static inline __attribute__((always_inline)) void thread_event(model_loom *L, uint32_t ti, const mevent *e, uint8_t v)
{
	mthread *th = &L->th[ti];
	int s = th->state;
	switch (v) {
	case 'x': {
		if (!payload_ok(L, th, e, !e->jumbo && e->plen >= 4, "at least 4 bytes (i32 cpu)")) return;
		if (!state_ok(L, th, e, s != TH_RUNNING && th->cpu == MODEL_NO_CPU,
			      "not running and without a CPU (not started, or dead)"))
			return;
		int32_t c = (int32_t)hv_le32(e->payload);
		if (!cpu_check(L, th, e, c)) return;
		set_cpu(L, th, c);
		set_state(L, th, TH_RUNNING);
		note(&th->last, e);
		shared_check(L, ti, e);
		return;
	}
	case 'e':
		if (!state_ok(L, th, e, s == TH_RUNNING || s == TH_COOLING, "running or cooling")) return;
		set_state(L, th, TH_DEAD);
		set_cpu(L, th, MODEL_NO_CPU);
		break;
	case 'p':
		if (!state_ok(L, th, e, s == TH_RUNNING || s == TH_COOLING, "running or cooling")) return;
		set_state(L, th, TH_PAUSED);
		break;
	case 'r':
		if (!state_ok(L, th, e, s == TH_PAUSED || s == TH_WARMING, "paused or warming")) return;
		set_state(L, th, TH_RUNNING);
		note(&th->last, e);
		shared_check(L, ti, e);
		return;
	case 'c':
		if (!state_ok(L, th, e, s == TH_RUNNING, "running")) return;
		set_state(L, th, TH_COOLING);
		break;
	case 'w':
		if (!state_ok(L, th, e, s == TH_PAUSED, "paused")) return;
		set_state(L, th, TH_WARMING);
		break;
	default: return; /* OHC: the creator's note; others are unknown MCVs (ovni.obs.*) */
	}
	note(&th->last, e);
}

static mthread *find_tid(model_loom *L, const mthread *self, int64_t tid)
{
	mthread *any = NULL;
	for (size_t i = 0; i < L->nth; i++) {
		if (L->th[i].tid != tid) continue;
		if (L->th[i].proc == self->proc) return &L->th[i];
		if (!any) any = &L->th[i];
	}
	return any;
}

static void affinity_event(model_loom *L, uint32_t ti, const mevent *e)
{
	mthread *th = &L->th[ti];
	if (e->p[3] == 's') {
		bool active = th->state == TH_RUNNING || th->state == TH_COOLING || th->state == TH_WARMING;
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_THREAD_INACTIVE, active && th->cpu != MODEL_NO_CPU)) {
			char w[120];
			model_where(w, sizeof w, &th->last);
			model_fail(L, HV_R_OVNI_MODEL_THREAD_INACTIVE, th, e,
				   "thread %" PRId64 " sets its affinity while %s (since %s)", th->tid, state_name[th->state], w);
			return;
		}
		if (!payload_ok(L, th, e, !e->jumbo && e->plen == 4, "exactly 4 bytes (i32 cpu)")) return;
		int32_t c = (int32_t)hv_le32(e->payload);
		if (!cpu_check(L, th, e, c) || c == th->cpu) return;
		set_cpu(L, th, c);
		shared_check(L, ti, e);
		return;
	}
	if (e->p[3] != 'r') return;
	if (!payload_ok(L, th, e, !e->jumbo && e->plen == 8, "exactly 8 bytes (i32 cpu, i32 tid)")) return;
	int32_t c = (int32_t)hv_le32(e->payload);
	int64_t tid = (int32_t)hv_le32(e->payload + 4);
	mthread *o = find_tid(L, th, tid);
	const char *why = !o ? "no stream of the loom has that tid"
			  : o->state == TH_DEAD ? "it is dead"
			  : o->state == TH_UNKNOWN ? "it has not executed yet (no OHx)"
			  : o->cpu == MODEL_NO_CPU ? "it has no CPU" : NULL;
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_REMOTE_THREAD, why == NULL)) {
		char w[120] = "";
		if (o) model_where(w, sizeof w, &o->last);
		model_fail(L, HV_R_OVNI_MODEL_REMOTE_THREAD, th, e, "thread %" PRId64 " moves thread %" PRId64 " to CPU %" PRId32
			   ", but %s%s%s", th->tid, tid, c, why, o ? "; its last lifecycle event: " : "", w);
		return;
	}
	if (!cpu_check(L, th, e, c)) return;
	/* ovniemu's OAr, unlike its OAs, moves the thread even to the CPU it is
	 * on: the thread's CPU channel then refuses its own value and the
	 * emulator stops (pre_affinity_remote) */
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_REMOTE_SAME_CPU, o->cpu != c)) {
		char w[120];
		model_where(w, sizeof w, &o->last);
		model_fail(L, HV_R_OVNI_MODEL_REMOTE_SAME_CPU, th, e,
			   "thread %" PRId64 " moves thread %" PRId64 " to CPU %" PRId32 ", the CPU it is already on (it is %s; "
			   "its last lifecycle event: %s); the emulator refuses a same-CPU OAr (OAs allows it)",
			   th->tid, tid, c, state_name[o->state], w);
		return;
	}
	set_cpu(L, o, c);
	shared_check(L, (uint32_t)(o - L->th), e);
}

/* OF[ and OF] set and clear the thread's flush state, a single-value
 * channel that refuses to be set to the value it has. */
static void flush_event(model_loom *L, uint32_t ti, const mevent *e)
{
	mthread *th = &L->th[ti];
	char w[120];
	if (e->p[3] == '[') {
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_STATE_REPEATED, !th->flushing)) {
			model_where(w, sizeof w, &th->flush);
			model_fail(L, HV_R_OVNI_MODEL_STATE_REPEATED, th, e,
				   "thread %" PRId64 " starts a flush while flushing since %s (no OF] between)", th->tid, w);
			return;
		}
		th->flushing = true;
	} else if (e->p[3] == ']') {
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_STATE_POP, th->flushing)) {
			model_where(w, sizeof w, &th->flush);
			model_fail(L, HV_R_OVNI_MODEL_STATE_POP, th, e,
				   "thread %" PRId64 " ends a flush it did not start (last flush event: %s)", th->tid, w);
			return;
		}
		th->flushing = false;
	} else {
		return;
	}
	note(&th->flush, e);
}

/* OM[ OM] OM=: a stack of values per stack mark type; OM= for single types.
 * A wrong payload size or an undeclared type is reported by the stream and
 * tree checks (ovni.obs.payload-size, ovni.tree.mark-undeclared). */
static void mark_event(model_loom *L, uint32_t ti, const mevent *e)
{
	mthread *th = &L->th[ti];
	if (e->jumbo || e->plen != 12) return;
	int64_t value = (int64_t)hv_le64(e->payload);
	int32_t type = (int32_t)hv_le32(e->payload + 8);
	if (type < 0 || type >= OVNI_MARK_TYPES || L->mark_kind[type] < 0) return;
	uint8_t v = e->p[3];
	bool stack = L->mark_kind[type] == 1;
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_MARK_STACK, stack ? v != '=' : v == '=')) {
		model_fail(L, HV_R_OVNI_MODEL_MARK_STACK, th, e,
			   "mark type %" PRId32 " is declared \"%s\" in ovni.mark, so it takes %s, not OM%c", type,
			   stack ? "stack" : "single", stack ? "OM[ and OM]" : "OM=", v);
		return;
	}
	if (!stack || (v != '[' && v != ']')) return;
	if (!th->marks && !(th->marks = hv_calloc(OVNI_MARK_TYPES, sizeof *th->marks))) {
		L->oom = L->stop = true;
		return;
	}
	mstack *st = &th->marks[type];
	if (v == ']') {
		const mstate *top = st->n ? &st->v[st->n - 1] : NULL;
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_MARK_STACK, top && top->value == value)) {
			if (top)
				model_fail(L, HV_R_OVNI_MODEL_MARK_STACK, th, e,
					   "thread %" PRId64 " leaves mark %" PRId64 " of type %" PRId32 ", but the top of its stack is "
					   "mark %" PRId64 ", entered at 0x%" PRIx64 " (clock %" PRId64 ")",
					   th->tid, value, type, top->value, top->off, top->clock);
			else
				model_fail(L, HV_R_OVNI_MODEL_MARK_STACK, th, e,
					   "thread %" PRId64 " leaves mark %" PRId64 " of type %" PRId32 ", but it entered none (OM[)",
					   th->tid, value, type);
			return;
		}
		st->n--;
		return;
	}
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_STATE_DEPTH, st->n < MODEL_STACK_MAX)) {
		model_fail(L, HV_R_OVNI_MODEL_STATE_DEPTH, th, e, "thread %" PRId64 " enters mark %" PRId64 " of type %" PRId32
			   " on a stack already %u deep (the emulator's limit)", th->tid, value, type, MODEL_STACK_MAX);
		return;
	}
	if (st->n == st->cap) {
		size_t cap = st->cap; /* a uint32_t: never above MODEL_STACK_MAX */
		if (!HV_GROW_UPTO(st->v, cap, st->n + 1, 4, MODEL_STACK_MAX)) {
			L->oom = L->stop = true;
			return;
		}
		st->cap = (uint32_t)cap;
	}
	st->v[st->n++] = (mstate){.key = {'O', 'M', '['}, .value = value, .off = e->off, .clock = e->clock};
}

/* Every ovni event needs its thread on its CPU (no KCO pending). */
static inline bool ovni_ok(model_loom *L, mthread *th, const mevent *e)
{
	if (hv_eval(L->r, HV_R_OVNI_MODEL_OUT_OF_CPU, !th->out_of_cpu)) return true;
	char w[120];
	model_where(w, sizeof w, &th->kco);
	model_fail(L, HV_R_OVNI_MODEL_OUT_OF_CPU, th, e, "thread %" PRId64 " is out of its CPU since %s (no KCI since)",
		   th->tid, w);
	return false;
}

bool model_need_active(model_loom *L, uint32_t ti, const mevent *e, int act)
{
	mthread *th = &L->th[ti];
	bool running = act == ACT_RUNNING;
	bool active = th->state == TH_RUNNING || (!running && (th->state == TH_COOLING || th->state == TH_WARMING));
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_THREAD_INACTIVE, active)) {
		char w[120];
		model_where(w, sizeof w, &th->last);
		model_fail(L, HV_R_OVNI_MODEL_THREAD_INACTIVE, th, e, "thread %" PRId64 " is %s (since %s), not %s",
			   th->tid, state_name[th->state], w,
			   running ? "running (MPI, TAMPI, NODES and OpenMP events need a running thread)" : "active");
		return false;
	}
	return act != ACT_ON_CPU || ovni_ok(L, th, e);
}

void model_h_ovni(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	(void)o;
	ovni_ok(L, &L->th[ti], e);
}

#define THREAD_HANDLER(V)                                                              \
	void model_h_OH##V(model_loom *L, uint32_t ti, const mevent *e, const mop *o) \
	{                                                                              \
		(void)o;                                                               \
		if (ovni_ok(L, &L->th[ti], e)) thread_event(L, ti, e, #V[0]);         \
	}
THREAD_HANDLER(x)
THREAD_HANDLER(e)
THREAD_HANDLER(p)
THREAD_HANDLER(r)
THREAD_HANDLER(c)
THREAD_HANDLER(w)

#define THREAD_HANDLER_SHARED(V)                                                        \
	void model_hs_OH##V(model_loom *L, uint32_t ti, const mevent *e, const mop *o) \
	{                                                                               \
		(void)o;                                                                \
		thread_event(L, ti, e, #V[0]);                                          \
	}
THREAD_HANDLER_SHARED(x)
THREAD_HANDLER_SHARED(e)
THREAD_HANDLER_SHARED(p)
THREAD_HANDLER_SHARED(r)
THREAD_HANDLER_SHARED(c)
THREAD_HANDLER_SHARED(w)

void model_hs_OA(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	(void)o;
	affinity_event(L, ti, e);
}

void model_h_OA(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	(void)o;
	if (ovni_ok(L, &L->th[ti], e)) affinity_event(L, ti, e);
}

void model_h_OF(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	(void)o;
	if (ovni_ok(L, &L->th[ti], e)) flush_event(L, ti, e);
}

void model_h_OM(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	(void)o;
	if (ovni_ok(L, &L->th[ti], e)) mark_event(L, ti, e);
}

void model_h_kernel(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	(void)o;
	mthread *th = &L->th[ti];
	if (e->p[2] != 'C') return;
	/* a context-switch stack: KCO pushes, KCI pops */
	if (e->p[3] == 'O') {
		th->out_of_cpu = true;
		note(&th->kco, e);
		model_stack_push(L, ti, CH_KERNEL, (const uint8_t *)"KCO", e);
	} else if (e->p[3] == 'I') {
		th->out_of_cpu = false;
		model_stack_pop(L, ti, CH_KERNEL, (const uint8_t *)"KCO", e);
	}
}

void model_end_checks(model_loom *L)
{
	for (size_t i = 0; i < L->nth; i++) {
		mthread *th = &L->th[i];
		char path[256];
		model_obs_path(path, sizeof path, th);
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_THREAD_NOT_DEAD, th->state == TH_DEAD)) {
			char w[120];
			model_where(w, sizeof w, &th->last);
			hv_emit(L->r, HV_R_OVNI_MODEL_THREAD_NOT_DEAD, th->s->obs->name, th->s->obs->size, 0, path,
				"thread %" PRId64 " is %s at the end of its stream (last lifecycle event: %s); want dead (OHe)",
				th->tid, state_name[th->state], w);
		}
		for (int c = 0; c < MODEL_NCH; c++) {
			if (c == CH_N6_TH || c == CH_KERNEL) continue; /* the emulator lints subsystems only */
			mstack *st = &th->st[c];
			if (hv_eval(L->r, HV_R_OVNI_MODEL_STATE_OPEN, st->n == 0)) continue;
			const mstate *top = &st->v[st->n - 1];
			hv_emit(L->r, HV_R_OVNI_MODEL_STATE_OPEN, th->s->obs->name, top->off, 12, path,
				"thread %" PRId64 " ends with %" PRIu32 " open %s state(s); the top one, \"%c%c%c\", was pushed "
				"at 0x%" PRIx64 " (clock %" PRId64 ") and never left",
				th->tid, st->n, chan_name[c], top->key[0], top->key[1], top->key[2], top->off, top->clock);
		}
	}
}
