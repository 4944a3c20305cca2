/* Metric values and trace samples of the model: pure functions of the seed
 * and their coordinates, so no writer has to hold them (model.h). */
#include <stdlib.h>

#include "model.h"

/* Thread profile: does `prof` have values at ctx_id at all? About half the
 * contexts are active in a thread; the global context always is. */
static bool thread_ctx_active(const hpctk_model *m, uint32_t prof, uint32_t ctx_id)
{
	if (ctx_id == 0) return true;
	return hpctk_mix(m->seed ^ 0x70726f66ull, ((uint64_t)prof << 32) | ctx_id) % 100 < 45;
}

static bool thread_value(const hpctk_model *m, uint32_t prof, uint32_t ctx_id, uint16_t prop_id, double *v)
{
	if (prop_id >= m->prop_lookup_len || m->prop_owner[prop_id] == HPCTK_NONE) return false;
	if (!thread_ctx_active(m, prof, ctx_id)) return false;
	uint64_t h = hpctk_mix(hpctk_mix(m->seed, ((uint64_t)prof << 32) | ctx_id), prop_id);
	if (ctx_id != 0 && h % 100 >= 60) return false;
	/* Positive, finite, never 0: k/1000 for k in 1..1,000,000. */
	*v = (double)(1 + (h >> 20) % 1000000) / 1000.0;
	return true;
}

bool hpctk_ctx_active(const hpctk_model *m, uint32_t prof, uint32_t ctx_id)
{
	if (prof >= m->n_profiles) return false;
	if (prof != 0) return thread_ctx_active(m, prof, ctx_id);
	for (uint32_t t = 1; t < m->n_profiles; t++)
		if (thread_ctx_active(m, t, ctx_id)) return true;
	return false;
}

/* Summary statistic: formula applied to each thread's value of the
 * summarised scope instance, then combined over the threads that have one. */
static bool summary_value(const hpctk_model *m, uint32_t ctx_id, uint16_t stat_id, double *v)
{
	if (stat_id >= m->stat_lookup_len || m->stat_owner[stat_id] == HPCTK_NONE) return false;
	const hpctk_metric *md = &m->metrics[m->stat_owner[stat_id]];
	const hpctk_summary *su = &md->summaries[m->stat_summary[stat_id]];
	uint16_t prop_id = md->insts[su->inst].prop_metric_id;
	bool any = false;
	double acc = 0;
	for (uint32_t t = 1; t < m->n_profiles; t++) {
		double x;
		if (!thread_value(m, t, ctx_id, prop_id, &x)) continue;
		if (su->formula[2] == '^') x = x * x;
		if (!any) acc = x;
		else if (su->combine == HPCTK_COMBINE_SUM) acc += x;
		else if (su->combine == HPCTK_COMBINE_MIN) acc = x < acc ? x : acc;
		else acc = x > acc ? x : acc;
		any = true;
	}
	if (any) *v = acc;
	return any;
}

bool hpctk_value(const hpctk_model *m, uint32_t prof, uint32_t ctx_id, uint16_t metric_id, double *value)
{
	if (prof >= m->n_profiles) return false;
	return prof == 0 ? summary_value(m, ctx_id, metric_id, value) : thread_value(m, prof, ctx_id, metric_id, value);
}

void hpctk_values_begin(const hpctk_model *m, uint32_t prof, hpctk_value_iter *it)
{
	it->m = m;
	it->prof = prof;
	it->ctx_pos = 0;
	it->metric_pos = 0;
	it->ctx_checked = false;
	it->ctx_on = false;
}

bool hpctk_values_next(hpctk_value_iter *it, uint32_t *ctx_id, uint16_t *metric_id, double *value)
{
	const hpctk_model *m = it->m;
	if (it->prof >= m->n_profiles) return false;
	const uint16_t *ids = it->prof == 0 ? m->stat_metric_ids : m->prop_metric_ids;
	size_t nids = it->prof == 0 ? m->n_stat_metric_ids : m->n_prop_metric_ids;
	while (it->ctx_pos <= m->n_ctx_ids) {
		uint32_t cid = it->ctx_pos == 0 ? 0 : m->ctx_ids_sorted[it->ctx_pos - 1];
		if (!it->ctx_checked) {
			it->ctx_on = hpctk_ctx_active(m, it->prof, cid);
			it->ctx_checked = true;
		}
		while (it->ctx_on && it->metric_pos < nids) {
			uint16_t mid = ids[it->metric_pos++];
			if (hpctk_value(m, it->prof, cid, mid, value)) {
				*ctx_id = cid;
				*metric_id = mid;
				return true;
			}
		}
		it->ctx_pos++;
		it->metric_pos = 0;
		it->ctx_checked = false;
	}
	return false;
}

void hpctk_trace_begin(const hpctk_model *m, uint32_t prof, hpctk_trace_iter *it)
{
	it->m = m;
	it->prof = prof;
	it->i = 0;
	it->prev_zero = false;
}

bool hpctk_trace_next(hpctk_trace_iter *it, uint64_t *timestamp, uint32_t *ctx_id)
{
	const hpctk_model *m = it->m;
	if (it->prof == 0 || it->prof >= m->n_profiles || it->i >= m->profiles[it->prof].trace_len) return false;
	uint64_t h = hpctk_mix(m->seed ^ 0x7472616365ull, ((uint64_t)it->prof << 32) | it->i);
	*timestamp = m->trace_t0 + (uint64_t)it->i * m->trace_period + (h >> 8) % (m->trace_period / 2);
	uint64_t pick = (h >> 40) % (m->n_ctx_ids + 6);
	if (pick >= m->n_ctx_ids && it->prev_zero) pick %= m->n_ctx_ids; /* no two blanks in a row */
	*ctx_id = pick < m->n_ctx_ids ? m->ctx_ids_sorted[pick] : 0;
	it->prev_zero = *ctx_id == 0;
	it->i++;
	return true;
}

uint64_t hpctk_trace_ts(const hpctk_model *m, uint32_t prof, uint32_t i)
{
	uint64_t h = hpctk_mix(m->seed ^ 0x7472616365ull, ((uint64_t)prof << 32) | i);
	return m->trace_t0 + (uint64_t)i * m->trace_period + (h >> 8) % (m->trace_period / 2);
}

void hpctk_trace_bounds(const hpctk_model *m, uint64_t *min_ts, uint64_t *max_ts)
{
	uint32_t maxlen = 0;
	for (uint32_t p = 1; p < m->n_profiles; p++)
		if (m->profiles[p].trace_len > maxlen) maxlen = m->profiles[p].trace_len;
	*min_ts = m->trace_t0;
	*max_ts = m->trace_t0 + (uint64_t)maxlen * m->trace_period;
}
