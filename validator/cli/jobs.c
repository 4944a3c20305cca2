#include "jobs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/alloc.h"
#include "fileio.h"

unsigned hv_jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1u : n > 256 ? 256u : (unsigned)n;
}

typedef struct pool {
	atomic_size_t next;
	size_t n;
	hv_task_fn task;
	void *ctx;
} pool;

/* Workers take the next task index until none is left. Each closes the file
 * it opened lazily before it ends, so no descriptor outlives its reader. */
static void *worker(void *arg)
{
	pool *p = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->n) break;
		p->task(p->ctx, i);
	}
	hv_file_release_lazy();
	return NULL;
}

void hv_jobs_run(void *runner_ctx, size_t n, hv_task_fn task, void *ctx)
{
	unsigned jobs = runner_ctx ? *(unsigned *)runner_ctx : 1;
	if (jobs > n) jobs = (unsigned)n;
	pool p = {.n = n, .task = task, .ctx = ctx};
	atomic_init(&p.next, 0);
	if (jobs <= 1) {
		worker(&p);
		return;
	}
	/* The caller's lazily opened file is closed first: a worker may read it. */
	hv_file_release_lazy();
	/* Without the handles, or with fewer threads than asked (a thread that
	 * could not start), the threads that did start -- or the caller alone --
	 * take every task: the same tasks run, only with less parallelism, and
	 * the report does not depend on how tasks were scheduled. */
	pthread_t *t = hv_calloc_optional(jobs, sizeof *t);
	unsigned started = 0;
	while (t && started < jobs && pthread_create(&t[started], NULL, worker, &p) == 0) started++;
	if (started == 0) worker(&p); /* no threads: run everything here */
	for (unsigned k = 0; k < started; k++) pthread_join(t[k], NULL);
	free(t);
}
