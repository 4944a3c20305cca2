/* A progress line on stderr for big inputs: hpcvet may read a multi-GB
 * profile.db for minutes, and a silent terminal looks hung.
 *
 * Big files reach the core as windowed blobs whose every byte comes through
 * the blob's fetch callback, so progress is measured by wrapping that
 * callback: the checking core needs no knowledge of it. The line is only
 * drawn when stderr is a terminal and the input is over HV_PROGRESS_MIN. */
#include "progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool progress_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	hv_progress_blob *pb = io;
	hv_progress *p = pb->owner;
	bool ok = pb->fetch(pb->io, off, dst, len);
	p->done += len;
	double t = now_s();
	if (t - p->last_draw >= 0.2) {
		p->last_draw = t;
		double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 0.0;
		/* Random access can read some bytes twice: never claim more than 99%. */
		if (pct > 99.0) pct = 99.0;
		fprintf(stderr, "\rhpcvet: %s: %.0f%% (%.1f of %.1f MiB read)\033[K", p->label, pct,
			(double)p->done / 1048576.0, (double)p->total / 1048576.0);
		p->drawn = true;
	}
	return ok;
}

void hv_progress_begin(hv_progress *p, const char *label, hv_blob *blobs, size_t n, bool enabled)
{
	p->label = label;
	p->done = p->total = 0;
	p->last_draw = now_s();
	p->drawn = false;
	p->wrapped = NULL;
	p->nwrapped = 0;
	for (size_t i = 0; i < n; i++) p->total += blobs[i].size;
	if (!enabled || p->total < HV_PROGRESS_MIN || !isatty(STDERR_FILENO)) return;
	p->wrapped = calloc(n, sizeof *p->wrapped);
	if (!p->wrapped) return;
	p->nwrapped = n;
	for (size_t i = 0; i < n; i++) {
		if (!blobs[i].fetch) continue;
		p->wrapped[i] = (hv_progress_blob){.owner = p, .fetch = blobs[i].fetch, .io = blobs[i].io};
		blobs[i].fetch = progress_fetch;
		blobs[i].io = &p->wrapped[i];
	}
}

void hv_progress_end(hv_progress *p)
{
	if (p->drawn) fputs("\r\033[K", stderr);
	free(p->wrapped);
	p->wrapped = NULL;
	p->nwrapped = 0;
}
