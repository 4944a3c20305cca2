/* The stream checks of obs.c as a walk that can stop and go on: the event
 * model (model.c) replays each stream from the very bytes the checks just
 * read, in one window per stream, so a stream is read once. The walk's
 * frontier is the offset up to which every event is checked; the replay
 * consumes events only below it. The same frontier is the seam for checking
 * one large stream in chunks elsewhere (issue 18): whatever moves it, the
 * replay reads checked bytes in order on one thread. */
#ifndef HV_OVNI_OBS_WALK_H
#define HV_OVNI_OBS_WALK_H

#include "ovni.h"

/* The most jumbo data libovni writes: 2 MiB - 16 bytes of header - 1. */
#define OVNI_JUMBO_MAX 2097135u

typedef struct ovni_obs_walker ovni_obs_walker;

/* Check the header and start the walk, into r and sum (zeroed first).
 * `win`: a window over b to share (the caller keeps it), or NULL for one of
 * the walk's own. NULL when the stream cannot be walked (reported) or on
 * out of memory (reported as an internal error). */
ovni_obs_walker *ovni_obs_start(hv_blob *b, hv_report *r, bool headerless_ok, ovni_obs_summary *sum, hv_window *win);

/* Check what the shared window holds beyond the frontier, without moving
 * the window; returns the frontier. Events before it are whole and checked. */
uint64_t ovni_obs_step(ovni_obs_walker *ow);

/* No event is left to check: the end, a truncated event or an I/O failure. */
bool ovni_obs_finished(const ovni_obs_walker *ow);

/* Check the rest (moving the window as needed), write the stream-end
 * checks and the summary, and free the walk. NULL: nothing to do. */
void ovni_obs_end(ovni_obs_walker *ow);

/* One chunk of a stream checked on its own (obs_split.c): the events that
 * start in [start, stop), walked from `start` as if it were an event's
 * first byte, into its own report r, with event indices counted from 0 in
 * the chunk. What crosses a cut is left in the chunk's result for the merge
 * (ovni_obs_absorb): the clocks at both ends, the first backwards and
 * signed-clock steps, the first sort marker (checked at the merge, with the
 * region state the chunk before leaves) and the summary notes. Holds no
 * pointers: it travels as its bytes between processes. */
typedef struct ovni_obs_chunk {
	uint64_t start, end;      /* walked from; the offset the walk stopped at */
	bool stopped;             /* an event truncated by the stream's end */
	uint64_t nevents;
	uint64_t first_clock, last_clock;
	bool first_closes;        /* the first event is OU] */
	uint64_t back_n, back_off, back_idx, back_prev, back_clock;
	bool back_in_region, back_unknown;
	uint64_t signed_n, signed_off, signed_idx, signed_clock;
	bool marker, marker_open; /* the first OU[ or OU] */
	uint64_t marker_off, marker_idx;
	uint64_t marker_at;       /* r's stored diagnostics before it */
	bool in_region;           /* after the first marker */
	uint64_t region_open_off;
	ovni_obs_summary sum;
} ovni_obs_chunk;

void ovni_obs_chunk_check(hv_blob *b, hv_report *r, uint64_t start, uint64_t stop, ovni_obs_chunk *c);

/* Take chunk c (checked into cr) as the walk's next events, when it starts
 * at the walk's frontier; false (nothing done) when it does not or the walk
 * is finished. Diagnostics, counters and summary then read as if the walk
 * had checked those events itself. */
bool ovni_obs_absorb(ovni_obs_walker *ow, const ovni_obs_chunk *c, const hv_report *cr);

/* Check the events that start before `stop` (the walk owns its window). */
void ovni_obs_walk_to(ovni_obs_walker *ow, uint64_t stop);
uint64_t ovni_obs_frontier(const ovni_obs_walker *ow);

/* The lone stream.obs check, split into chunks of about opt's unit bytes
 * (default 16 MiB) checked as units (core/units.h); the report is the one
 * walk's. */
void ovni_check_obs_split(const hv_options *opt, hv_blob *b, hv_report *r);
/* Chunks taken as checked, and chunks walked again at the merge, by every
 * split so far in this process (for tests and measurements). */
extern _Atomic uint64_t ovni_obs_chunks_taken, ovni_obs_chunks_redone;

#endif
