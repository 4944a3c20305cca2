/* A progress line on stderr for big inputs: hpcvet may read a multi-GB
 * profile.db for minutes, and a silent terminal looks hung.
 *
 * Big files reach the core as windowed blobs whose every byte comes through
 * the blob's fetch callback, so progress is measured by wrapping that
 * callback: the checking core needs no knowledge of it. The line is only
 * drawn when stderr is a terminal and the input is over HV_PROGRESS_MIN. */
#include "progress.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The line names the file being read and how far into it the read is:
 * checks stream through each big file (some more than once: a database's
 * cross-file checks re-read profile.db), so a position per file is honest
 * where one percentage for the whole input would not be. */
/* With -j, several threads fetch (files of one input, or several inputs):
 * one lock serialises the draw decision and the line itself. A fetch fills a
 * whole window, so the lock is taken once per 256 KiB at most. */
static pthread_mutex_t draw_lock = PTHREAD_MUTEX_INITIALIZER;

static bool progress_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	hv_progress_blob *pb = io;
	hv_progress *p = pb->owner;
	bool ok = pb->fetch(pb->io, off, dst, len);
	double t = now_s();
	pthread_mutex_lock(&draw_lock);
	if (t - p->last_draw >= 0.2) {
		p->last_draw = t;
		uint64_t at = off + len > pb->size ? pb->size : off + len;
		double pct = pb->size ? 100.0 * (double)at / (double)pb->size : 100.0;
		fprintf(stderr, "\rhpcvet: checking %s: %.0f%% (%.1f of %.1f MiB)\033[K", pb->name ? pb->name : p->label,
			pct, (double)at / 1048576.0, (double)pb->size / 1048576.0);
		p->drawn = true;
	}
	pthread_mutex_unlock(&draw_lock);
	return ok;
}

void hv_progress_begin(hv_progress *p, const char *label, hv_blob *blobs, size_t n, bool enabled)
{
	p->label = label;
	p->total = 0;
	p->last_draw = now_s();
	p->drawn = false;
	p->wrapped = NULL;
	p->nwrapped = 0;
	for (size_t i = 0; i < n; i++) p->total += blobs[i].size;
	if (!enabled || p->total < HV_PROGRESS_MIN || !isatty(STDERR_FILENO)) return;
	p->wrapped = hv_calloc(n, sizeof *p->wrapped);
	if (!p->wrapped) return;
	p->nwrapped = n;
	for (size_t i = 0; i < n; i++) {
		if (!blobs[i].fetch) continue;
		p->wrapped[i] = (hv_progress_blob){
			.owner = p, .fetch = blobs[i].fetch, .io = blobs[i].io, .name = blobs[i].name, .size = blobs[i].size};
		blobs[i].fetch = progress_fetch;
		blobs[i].io = &p->wrapped[i];
	}
}

void hv_progress_end(hv_progress *p)
{
	pthread_mutex_lock(&draw_lock);
	if (p->drawn) fputs("\r\033[K", stderr);
	pthread_mutex_unlock(&draw_lock);
	free(p->wrapped);
	p->wrapped = NULL;
	p->nwrapped = 0;
}
