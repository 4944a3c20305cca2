/* -j: the CLI's thread pool. The checking core never creates threads; it
 * receives this runner through hv_options and hands it independent tasks
 * (the streams of an ovni tree, the ranks of a DUMPI trace), each writing
 * its own sub-report that the core merges in a fixed order. The CLI also
 * uses it to validate several inputs at once. */
#ifndef HV_JOBS_H
#define HV_JOBS_H

#include "core/report.h"

/* The number of online processors (at least 1). */
unsigned hv_jobs_default(void);

/* An hv_runner_fn: runs task(ctx, i), i in [0, n), on up to
 * *(unsigned *)runner_ctx threads and returns when all are done. */
void hv_jobs_run(void *runner_ctx, size_t n, hv_task_fn task, void *ctx);

#endif
