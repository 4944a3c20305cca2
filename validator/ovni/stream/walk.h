/* The stream checks of obs.c as a walk that can stop and go on: the event
 * model (model.c) replays each stream from the very bytes the checks just
 * read, in one window per stream, so a stream is read once. The walk's
 * frontier is the offset up to which every event is checked; the replay
 * consumes events only below it. The same frontier is the seam for checking
 * one large stream in chunks (split.c): whatever moves it,
 * the replay reads checked bytes in order on one thread.
 *
 * The walk's state is defined here, the one internal header of the stream
 * checks: obs.c walks events; fused.c, model.c and split.c drive walks
 * (split.c also merges a chunk's state into the walk), and obs.c calls
 * none of them. */
#ifndef HV_OVNI_OBS_WALK_H
#define HV_OVNI_OBS_WALK_H

#include "ovni/ovni.h"

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

/* The walk's state that crosses a cut between two chunks of a stream
 * (split.c): a walk holds it, and a chunk's result carries it as it
 * stood where the chunk stopped, for the merge to go on from. */
typedef struct ovni_obs_cut {
	uint64_t idx;             /* events walked: the next event's index */
	uint64_t prev_clock;      /* the last event's clock */
	bool first_closes;        /* the first event is OU] */
	bool in_region;           /* between OU[ and OU] */
	uint64_t region_open_off;
	/* first backwards step and counts, reported once at the end */
	uint64_t back_n, back_off, back_idx, back_prev, back_clock;
	bool back_in_region;
	uint64_t signed_n, signed_off, signed_idx, signed_clock;
	/* A chunk starts without knowing whether it is inside an OU[ region:
	 * until its first sort marker, which it only records (`marker`) for the
	 * merge to check with the state the previous chunk leaves.
	 * `back_unknown`: the first backwards step came before it, and is
	 * inside a region if the chunk started inside one. */
	bool region_unknown, back_unknown;
	bool marker, marker_open;
	uint64_t marker_off, marker_idx;
	uint64_t marker_at;       /* the report's stored diagnostics before it */
	uint64_t marker_ghosts;   /* and its failures max_diags left unstored */
} ovni_obs_cut;

/* The state of one walk, so the per-event checks stay small. */
typedef struct ovni_obs_walk {
	hv_blob *b;
	hv_report *r;
	ovni_obs_summary *sum;
	ovni_obs_cut cut;
	/* Direct-mapped cache of event-table lookups: streams repeat a few
	 * MCVs millions of times. */
	struct {
		uint8_t mcv[3];
		bool valid;
		const ovni_evspec *spec;
	} cache[256];
} ovni_obs_walk;

/* Rule evaluations the fast path counts in bulk, added to the report when
 * the walk is freed. */
typedef struct ovni_obs_counts {
	uint64_t events, jumbo, sort, mark;
} ovni_obs_counts;

/* A walk in progress: the per-event state, the stream's window (its own,
 * or one it shares with the event model) and the frontier `off`: every
 * event before it is checked. */
struct ovni_obs_walker {
	ovni_obs_walk w;
	hv_window *win;
	hv_window own;
	bool own_win;
	struct ovni_obs_fast_entry *fe; /* the fast path's table (obs.c) */
	ovni_obs_counts fc;
	uint64_t off;
	uint64_t stop;            /* events starting before it are walked: the size, or a chunk's end */
	bool stopped;             /* the walk cannot go on: truncated event or I/O failure */
};

/* A walk from `start`, taken as an event's first byte, with no header and
 * not knowing whether `start` is inside a sort region; event indices count
 * from 0 there. Its own window of `wincap` bytes; NULL on out of memory
 * (reported). */
ovni_obs_walker *ovni_obs_start_at(hv_blob *b, hv_report *r, ovni_obs_summary *sum, uint64_t start, size_t wincap);

/* Check the events that start before `stop` (the walk owns its window). */
void ovni_obs_walk_to(ovni_obs_walker *ow, uint64_t stop);

/* Free the walk without the stream-end checks, counting the fast path's
 * evaluations into its report. */
void ovni_obs_free(ovni_obs_walker *ow);

/* The sort-marker check of an OU[ (open) or OU] event at off, as the
 * walk's event w->cut.idx. */
void ovni_obs_sort_marker(ovni_obs_walk *w, uint64_t off, bool open);

/* Resynchronisation (sync.c). The length of the event at off when it
 * passes every per-event rule that fixes its length, else 0; whether
 * SYNC_CHAIN such events in a row start at off (or fewer end exactly at
 * the stream's end); the first offset in [from, last) where such a chain
 * starts, UINT64_MAX when none. */
uint64_t ovni_obs_plausible(hv_window *win, uint64_t off, uint64_t size);
bool ovni_obs_chain_at(hv_blob *b, uint64_t off);
/* With `cn`: also count the event headers (by the lengths they declare)
 * from cn->h up to the offset found (or `last`) into cn->n, in the same
 * pass over the bytes. */
typedef struct ovni_obs_count {
	uint64_t h, n;
} ovni_obs_count;
uint64_t ovni_obs_resync(hv_blob *b, uint64_t from, uint64_t last, ovni_obs_count *cn);

/* The lone stream.obs check, split into chunks of about opt's unit bytes
 * (default 16 MiB) checked as units (core/units.h); the report is the one
 * walk's. */
void ovni_check_obs_split(const hv_options *opt, hv_blob *b, hv_report *r);
/* Chunks taken as checked, and chunks walked again at the merge, by every
 * split so far in this process (for tests and measurements). */
extern _Atomic uint64_t ovni_obs_chunks_taken, ovni_obs_chunks_redone;

#endif
