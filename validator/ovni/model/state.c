/* The ovni event model: stacked states. The begin/end events of the 1.14
 * table ("enters"/"leaves", "begins"/"ceases", "starts"/"stops") push and
 * pop a per-thread stack per channel: MPI functions, the Nanos6, nOS-V,
 * TAMPI, NODES and OpenMP subsystems, the Nanos6 thread type and the
 * kernel's context switches. A begin is '[' or a lower-case value, its end
 * the ']' or the upper-case value of the same category (EV), except nOS-V's
 * VSh/VSf (hungry) and VSN/VSn (non-blocking serving, the same state as
 * VS[/VS]). A state is named by its begin event's MCV. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "model.h"

static const char *const chan_name[MODEL_NCH] = {
	"MPI function", "Nanos6 subsystem", "Nanos6 thread type", "nOS-V subsystem", "TAMPI subsystem",
	"NODES subsystem", "OpenMP subsystem", "kernel context switch",
};

enum { SOP_NONE, SOP_PUSH, SOP_POP };

/* Channel, operation and the begin MCV (key) of one event. */
static int classify(const uint8_t *mcv, int *ch, uint8_t key[3])
{
	uint8_t m = mcv[0], c = mcv[1], v = mcv[2];
	switch (m) {
	case 'M': *ch = CH_MPI; break;
	case 'T': *ch = CH_TAMPI_SS; break;
	case 'D': *ch = CH_NODES_SS; break;
	case '6':
		if (c == 'H') *ch = CH_N6_TH;
		else if (strchr("WCUFOMDSB", c)) *ch = CH_N6_SS;
		else return SOP_NONE; /* P (progress), t (ignored), T and Y (tasks) */
		if ((c == 'W' && v == '*') || (c == 'S' && strchr("@rs", v))) return SOP_NONE;
		break;
	case 'V':
		if (!strchr("SUMAH", c)) return SOP_NONE; /* P progress, W counters, T Y tasks */
		*ch = CH_NOSV_SS;
		if (c == 'S' && strchr("@rs", v)) return SOP_NONE;
		if (c == 'H' && (v == 'a' || v == 'A')) return SOP_NONE; /* ignored since nosv 1.1.0 */
		if (c == 'S' && (v == 'h' || v == 'f')) {
			memcpy(key, "VSh", 3);
			return v == 'h' ? SOP_PUSH : SOP_POP;
		}
		if (c == 'S' && (v == 'N' || v == 'n')) {
			memcpy(key, "VS[", 3);
			return v == 'N' ? SOP_PUSH : SOP_POP;
		}
		break;
	case 'P':
		if (!strchr("BIWTAMHC", c)) return SOP_NONE; /* P Q O: tasks, worksharing, types */
		if (c == 'B' && (v == 's' || v == 'S')) return SOP_NONE;
		*ch = CH_OMP_SS;
		break;
	default: return SOP_NONE;
	}
	key[0] = m;
	key[1] = c;
	if (v == '[' || islower(v)) {
		key[2] = v;
		return SOP_PUSH;
	}
	if (v == ']' || isupper(v)) {
		key[2] = v == ']' ? '[' : (uint8_t)tolower(v);
		return SOP_POP;
	}
	return SOP_NONE;
}

static const char *key_text(const uint8_t k[3], char out[8])
{
	snprintf(out, 8, "%c%c%c", k[0], k[1], k[2]);
	return out;
}

__attribute__((noinline, cold)) bool model_stack_push_slow(model_loom *L, uint32_t ti, int ch, const uint8_t key[3],
							     const mevent *e)
{
	mthread *th = &L->th[ti];
	mstack *st = &th->st[ch];
	char a[8];
	const mstate *top = st->n ? &st->v[st->n - 1] : NULL;
	if (!model_repeat_ok(ch) &&
	    !hv_eval(L->r, HV_R_OVNI_MODEL_STATE_REPEATED, !top || memcmp(top->key, key, 3) != 0)) {
		mwhere then = model_pushed(top);
		model_fail_since(L, HV_R_OVNI_MODEL_STATE_REPEATED, th, e, &then,
				 "thread %" PRId64 " enters %s state \"%s\" again: it is already the top of the stack, pushed by",
				 th->tid, chan_name[ch], key_text(key, a));
		return false;
	}
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_STATE_DEPTH, st->n < MODEL_STACK_MAX)) {
		mwhere then = model_pushed(&st->v[0]);
		model_fail_since(L, HV_R_OVNI_MODEL_STATE_DEPTH, th, e, &then,
				 "thread %" PRId64 " pushes %s state \"%s\" on a stack already %u deep (the emulator's limit); "
				 "the bottom state was pushed by",
				 th->tid, chan_name[ch], key_text(key, a), MODEL_STACK_MAX);
		return false;
	}
	if (st->n == st->cap) {
		size_t cap = st->cap; /* a uint32_t: never above MODEL_STACK_MAX */
		if (!HV_GROW_UPTO(st->v, cap, st->n + 1, 8, MODEL_STACK_MAX)) {
			L->oom = L->stop = true;
			return false;
		}
		st->cap = (uint32_t)cap;
	}
	model_state_put(st, key, e);
	return true;
}

__attribute__((noinline, cold)) bool model_stack_pop_slow(model_loom *L, uint32_t ti, int ch, const uint8_t key[3],
							    const mevent *e)
{
	mthread *th = &L->th[ti];
	mstack *st = &th->st[ch];
	char a[8], b[8];
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_STATE_POP, st->n > 0)) {
		model_fail(L, HV_R_OVNI_MODEL_STATE_POP, th, e, "thread %" PRId64 " leaves %s state \"%s\", but its %s stack is empty",
			   th->tid, chan_name[ch], key_text(key, a), chan_name[ch]);
		return false;
	}
	const mstate *top = &st->v[st->n - 1];
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_STATE_POP, memcmp(top->key, key, 3) == 0)) {
		mwhere then = model_pushed(top);
		model_fail_since(L, HV_R_OVNI_MODEL_STATE_POP, th, e, &then,
				 "thread %" PRId64 " leaves %s state \"%s\", but the top of its stack is \"%s\", pushed by",
				 th->tid, chan_name[ch], key_text(key, a), key_text(top->key, b));
		return false;
	}
	st->n--;
	return true;
}

bool model_stack_push(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e)
{
	return model_stack_push_fast(L, ti, ch, key, e);
}

bool model_stack_pop(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e)
{
	return model_stack_pop_fast(L, ti, ch, key, e);
}

void model_h_none(model_loom *L, uint32_t ti, const mevent *e, const mop *o) { (void)L, (void)ti, (void)e, (void)o; }

void model_h_runtime(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	model_runtime_ok(L, ti, e, o->act);
}

/* A push or pop whose thread did not pass the quick check: the full one,
 * then the state. Out of line, so the handlers' common case has only tail
 * calls (no frame, no saved registers). */
__attribute__((noinline)) static void push_checked(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	if (model_need_active(L, ti, e, o->act)) model_stack_push_fast(L, ti, o->ch, o->skey, e);
}

__attribute__((noinline)) static void pop_checked(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	if (model_need_active(L, ti, e, o->act)) model_stack_pop_fast(L, ti, o->ch, o->skey, e);
}

void model_h_push(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	if (o->act && !model_runtime_fast(L, ti, o->act)) {
		push_checked(L, ti, e, o);
		return;
	}
	model_stack_push_fast(L, ti, o->ch, o->skey, e);
}

void model_h_pop(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	if (o->act && !model_runtime_fast(L, ti, o->act)) {
		pop_checked(L, ti, e, o);
		return;
	}
	model_stack_pop_fast(L, ti, o->ch, o->skey, e);
}

void model_classify(const uint8_t p[4], mop *o)
{
	uint8_t m = p[1], c = p[2], v = p[3];
	*o = (mop){.key = hv_le32(p), .h = model_h_none};
	switch (m) {
	case 'O':
		o->h = c == 'A' ? model_h_OA : c == 'F' ? model_h_OF : c == 'M' ? model_h_OM : model_h_ovni;
		if (c == 'H')
			o->h = v == 'x' ? model_h_OHx : v == 'e' ? model_h_OHe : v == 'p' ? model_h_OHp
			       : v == 'r' ? model_h_OHr : v == 'c' ? model_h_OHc : v == 'w' ? model_h_OHw : model_h_ovni;
		return;
	case 'K': o->h = model_h_kernel; return;
	case 'M':
	case 'D':
	case 'T': o->act = ACT_RUNNING; break;
	case '6':
	case 'V':
	case 'P':
		/* nOS-V and Nanos6 events need an active thread, nOS-V's also
		 * one on its CPU; OpenMP's a running one (ovniemu 1.14 checks
		 * every event of these models before anything else) */
		o->act = m == 'P' ? ACT_RUNNING : m == 'V' ? ACT_ON_CPU : ACT_ACTIVE;
		if (m == 'P' ? (c == 'P' || c == 'O') : (c == 'T' || c == 'Y')) {
			o->h = m != 'P' && c == 'T' && v == 'x' ? model_h_task_x
			       : m != 'P' && c == 'T' && v == 'e' ? model_h_task_e : model_h_task;
			return;
		}
		break;
	default: return;
	}
	int ch = 0;
	int sop = classify(p + 1, &ch, o->skey);
	o->ch = (uint8_t)ch;
	o->h = sop == SOP_PUSH ? model_h_push : sop == SOP_POP ? model_h_pop : o->act ? model_h_runtime : model_h_none;
}

void model_classify_shared(const uint8_t p[4], mop *o)
{
	model_classify(p, o);
	model_handler h = o->h;
	if (h == model_h_task || h == model_h_task_x || h == model_h_task_e) {
		o->act = ACT_NONE; /* checked on the thread's stream */
		return;
	}
	o->h = h == model_h_OHx ? model_hs_OHx : h == model_h_OHe ? model_hs_OHe : h == model_h_OHp ? model_hs_OHp
	       : h == model_h_OHr ? model_hs_OHr : h == model_h_OHc ? model_hs_OHc : h == model_h_OHw ? model_hs_OHw
	       : h == model_h_OA ? model_hs_OA : model_h_none;
}
