/* The trace as a whole (trace.c walks a tree, fused.c replays its streams
 * in one read, trace_checks.c checks across them): what these three files
 * share. Above the tree (tree/) and the event model (model/). */
#ifndef HV_OVNI_TRACE_H
#define HV_OVNI_TRACE_H

#include "ovni/tree/tree.h"

/* Cross-stream checks: duplicate threads, process and loom merging,
 * required models, clock offsets and the clock gate. */
void ovni_tree_checks(ovni_trace *t);

/* The fused pass (fused.c): before the ordered walk, the v3 streams the
 * event model would replay are checked and replayed in one read. json/obs:
 * every stream.json of the trace in name order and its stream.obs (or
 * NULL). Does nothing when the model could not run on this trace. */
void ovni_fused_run(const hv_options *opt, ovni_trace *t, hv_blob *const *json, hv_blob *const *obs, size_t n,
		    hv_blob *clkoff);
/* The fused checks of `obs`, merged into t->r as the ordered walk reaches
 * it, and its summary; false when the pass did not check it. */
bool ovni_fused_take(ovni_trace *t, const hv_blob *obs, ovni_obs_summary *sum);
bool ovni_fused_has(const ovni_trace *t, const hv_blob *obs);
/* The metadata of stream.json `json` as the fused pass parsed it, its
 * counts merged into t->r, when its check found nothing; false: the
 * walk checks it (the walk asks for every stream.json, in its order). */
bool ovni_fused_json(ovni_trace *t, const hv_blob *json, ovni_meta *meta);
void ovni_fused_free(ovni_trace *t);
/* Tests: false turns the fused pass off (streams are then read twice). */
extern bool ovni_fused_on;
/* Reports the fused pass keeps whole (streams' and looms' with a
 * diagnostic) before it gives up (4096); tests lower it. */
extern unsigned ovni_fused_max_noisy;
/* Tests: the stream.json documents the walk took from the fused pass. */
extern _Atomic uint64_t ovni_fused_docs;
#endif
