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

#endif
