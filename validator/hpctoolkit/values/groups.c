/* The slot groups of the propagated-value checker (check.c): what a
 * value of each propMetricId does in the group being folded, and, when the
 * slots of every node do not fit the budget (hpctk_vbudget) at once, the
 * profile's runs kept during the stream and folded again for each group
 * after the first. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "hpctoolkit/format/ranges.h"
#include "values.h"

/* Per slot of the group starting at g0: the bit of a node's propagation
 * mask (or'ed with 1 << 16) that says whether its value of the slot's
 * scope goes into its parent's: 16 for execution (always). */
void hpctk_vgroup_set(hpctk_vcheck *c)
{
	const hpctk_vmodel *vm = c->vm;
	/* what each propMetricId's value does in this group */
	uint32_t npk = 0;
	for (uint32_t pid = 0; pid < vm->npid; pid++) {
		hpctk_vact a = {0};
		uint8_t kind = vm->kind[pid];
		if (kind == HPCTK_VP_POINT) {
			a.pa = npk;
			for (uint32_t j = vm->pfirst[pid]; j < vm->pfirst[pid + 1]; j++) {
				uint32_t k = vm->plist[j] - c->g0;
				if (k < c->g) c->pk[npk++] = (uint16_t)k;
			}
			a.pb = npk;
			a.type = a.pb > a.pa ? HPCTK_VA_POINT : HPCTK_VA_NONE;
		} else if ((kind == HPCTK_VP_EXEC || kind == HPCTK_VP_TRANS) && (uint32_t)vm->dslot[pid] - c->g0 < c->g) {
			a.type = HPCTK_VA_DERIVED;
			a.k = (uint16_t)(vm->dslot[pid] - c->g0);
			a.shift = kind == HPCTK_VP_EXEC ? 16 : (uint8_t)(vm->bit[pid] & 15);
		}
		c->act[pid] = a;
		/* the fold's form of a (see hpctk_vcheck_fold) */
		uint64_t code = 0;
		if (a.type == HPCTK_VA_POINT && a.pb - a.pa <= 2)
			code = HPCTK_VCODE_POINT | c->pk[a.pa] | (uint64_t)(a.pb - a.pa == 2 ? c->pk[a.pa + 1] : HPCTK_VCODE_NOK) << 16;
		else if (a.type == HPCTK_VA_POINT)
			code = HPCTK_VCODE_POINT | HPCTK_VCODE_LIST;
		else if (a.type == HPCTK_VA_DERIVED)
			code = HPCTK_VCODE_DERIVED | a.k | (uint64_t)a.shift << 16;
		else if (kind == HPCTK_VP_EXEC || kind == HPCTK_VP_TRANS)
			code = HPCTK_VCODE_ELSEWHERE | (uint64_t)(kind == HPCTK_VP_EXEC ? 16 : vm->bit[pid] & 15) << 16;
		c->code[pid] = code;
	}
	for (uint32_t k = 0; k < c->gp; k++) {
		bool in = k < c->g && c->g0 + k < vm->nd;
		uint16_t pid = in ? vm->dpid[c->g0 + k] : 0;
		if (in) c->kshift[k] = vm->kind[pid] == HPCTK_VP_EXEC ? 16 : (uint8_t)(vm->bit[pid] & 15);
		c->isexec[k] = in && vm->kind[pid] == HPCTK_VP_EXEC ? -1 : 0;
		if (c->isexec[k]) c->execmask[k / 8] |= (uint8_t)(1u << k % 8);
		else c->execmask[k / 8] &= (uint8_t)~(1u << k % 8);
	}
}

/* A kept run (replayed for slot groups after the first): header, then the
 * raw {Val} bytes. */
typedef struct kept_run {
	uint32_t node;   /* HPCTK_VNONE: elided */
	uint32_t cnt;
	uint64_t off0;
} kept_run;

/* A run for the later groups: with the file at hand, where it is (16
 * bytes, contiguous runs of a node merged), else its bytes too. */
void hpctk_vgroup_keep(hpctk_vcheck *c, uint32_t n, const uint8_t *vals, uint64_t cnt, uint64_t off0)
{
	if (c->w_ok && c->keep_n >= sizeof(kept_run)) {
		kept_run *last = (kept_run *)(void *)(c->keep + c->keep_n - sizeof(kept_run));
		if (last->node == n && last->off0 + 10ull * last->cnt == off0 && last->cnt + cnt <= UINT32_MAX) {
			last->cnt += (uint32_t)cnt;
			return;
		}
	}
	/* the bytes are in memory (vals), so the sums fit: checked all the same */
	size_t need = sizeof(kept_run);
	bool fits = c->w_ok || cnt <= (SIZE_MAX - need) / 10;
	if (fits && !c->w_ok) need += (size_t)cnt * 10;
	if (fits && need > SIZE_MAX - c->keep_n) fits = false;
	if (!fits) hv_alloc_fault(SIZE_MAX);
	if (!fits || !HV_GROW(c->keep, c->keep_cap, c->keep_n + need, 1u << 12)) {
		c->oom = c->cur_tainted = true;
		return;
	}
	kept_run h = {n, (uint32_t)cnt, off0};
	memcpy(c->keep + c->keep_n, &h, sizeof h);
	if (!c->w_ok) memcpy(c->keep + c->keep_n + sizeof h, vals, (size_t)cnt * 10);
	c->keep_n += need;
}

/* Fold the kept runs again (the next group of slots): read from the file
 * a window at a time, or from the kept bytes. */
void hpctk_vgroup_replay(hpctk_vcheck *c)
{
	c->seq = 0; /* the same touch order as the first group's */
	for (size_t at = 0; at < c->keep_n;) {
		kept_run h;
		memcpy(&h, c->keep + at, sizeof h);
		at += sizeof h;
		if (!c->w_ok) {
			hpctk_vcheck_fold(c, h.node, c->keep + at, h.cnt, h.off0);
			at += (size_t)h.cnt * 10;
			continue;
		}
		const uint64_t per = c->w.cap >= 20 ? c->w.cap / 10 : 1;
		for (uint64_t done = 0; done < h.cnt;) {
			uint64_t k = h.cnt - done < per ? h.cnt - done : per;
			const uint8_t *p = hv_window_get(&c->w, h.off0 + 10 * done, (size_t)(10 * k));
			if (!p) {
				c->cur_tainted = true; /* read before, unreadable now: the profile is left unchecked */
				return;
			}
			hpctk_vcheck_fold(c, h.node, p, k, h.off0 + 10 * done);
			done += k;
		}
	}
}
