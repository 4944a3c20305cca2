/* The datatypes a rank freed are kept by their 16-bit index (rank.c,
 * type_slot): a use after the free waits for what follows -- a constructor
 * that makes the index again proves it wrong (a warning), a second free or
 * the end of the rank counts it for one note, which names the first settled
 * (at the end: the lowest index). Indices that climb over the whole 16-bit
 * range are kept as well as a program's few. Records are fed to the
 * per-rank pass directly (mpi_rank_record), as the stream walk would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpi/mpi/pass.h"
#include "mpi_feed.h"
#include "tap.h"

enum { CONTIGUOUS = 35, COMMIT = 46, FREE = 47 };

typedef struct rank_run {
	hv_blob b;
	hv_report rep;
	mpi_rank *m;
	uint64_t next; /* the next record's index */
} rank_run;

static void start(rank_run *t)
{
	static const uint8_t empty[1];
	t->m = mpi_feed_rank(&t->rep, &t->b, empty, 0, 1000);
	t->next = 0;
}

/* A datatype call's arguments: `id` in every field but its count (4) and
 * old type (MPI_INT). */
static bool type_value(const dumpi_field *f, void *ctx, uint64_t *v)
{
	*v = mpi_field_is(f, "count") ? 4 : mpi_field_is(f, "oldtype") ? 9 : *(const uint64_t *)ctx;
	return true;
}

/* A record of a datatype call: MPI_Type_contiguous(4, MPI_INT, &id), or
 * MPI_Type_commit / MPI_Type_free of id. Returns its index. */
static uint64_t type_call(rank_run *t, unsigned fn, uint64_t id)
{
	mpi_feed(t->m, t->next, fn, type_value, &id);
	return t->next++;
}

static void end(rank_run *t) { mpi_feed_end(t->m, &t->next); }

static void stop(rank_run *t) { mpi_feed_free(t->m, &t->rep); }

/* The findings of dumpi.mpi.handle-freed, and the message of the last. */
static unsigned freed_findings(const rank_run *t, const char **msg)
{
	unsigned n = 0;
	*msg = "(none)";
	for (size_t i = 0; i < t->rep.ndiags; i++)
		if (t->rep.diags[i].rule == HV_R_DUMPI_MPI_HANDLE_FREED) n++, *msg = t->rep.diags[i].msg;
	return n;
}

static bool has(const char *msg, const char *want) { return strstr(msg, want) != NULL; }

int main(void)
{
	rank_run t;
	const char *msg;
	char want[160];

	/* two freed datatypes used again and held to the end: one note for
	 * both, naming the lower index (in another chunk than the first) */
	start(&t);
	type_call(&t, CONTIGUOUS, 5000);
	uint64_t free5000 = type_call(&t, FREE, 5000);
	type_call(&t, CONTIGUOUS, 600);
	uint64_t free600 = type_call(&t, FREE, 600);
	type_call(&t, COMMIT, 5000);
	type_call(&t, COMMIT, 600);
	end(&t);
	(void)free5000;
	snprintf(want, sizeof want, "datatype 600, freed by record %llu, is used again", (unsigned long long)free600);
	CHECK(freed_findings(&t, &msg) == 1 && has(msg, want) && has(msg, "(2 such handle(s))"),
	      "held to the end: one note naming datatype 600 of 2 (%s)", msg);
	stop(&t);

	/* a use after the free, then a constructor makes the index again:
	 * the use was of the freed datatype */
	start(&t);
	type_call(&t, CONTIGUOUS, 700);
	uint64_t free700 = type_call(&t, FREE, 700);
	uint64_t use700 = type_call(&t, COMMIT, 700);
	uint64_t make700 = type_call(&t, CONTIGUOUS, 700);
	type_call(&t, COMMIT, 700);
	type_call(&t, FREE, 700);
	end(&t);
	snprintf(want, sizeof want,
		 "datatype 700 was freed by record %llu (MPI_Type_free) and is used here, and record %llu "
		 "(MPI_Type_contiguous) creates datatype 700 again",
		 (unsigned long long)free700, (unsigned long long)make700);
	CHECK(freed_findings(&t, &msg) == 1 && has(msg, want), "made again: the use is reported (%s)", msg);
	CHECK(t.rep.ndiags && t.rep.diags[0].offset == 100 + use700 * 40 + 29,
	      "the warning points at the use's datatype field");
	stop(&t);

	/* a use after the free, then freed again: settled then, one note */
	start(&t);
	type_call(&t, CONTIGUOUS, 800);
	uint64_t free800 = type_call(&t, FREE, 800);
	type_call(&t, COMMIT, 800);
	type_call(&t, FREE, 800);
	type_call(&t, CONTIGUOUS, 800); /* a later constructor proves nothing now */
	end(&t);
	snprintf(want, sizeof want, "datatype 800, freed by record %llu, is used again", (unsigned long long)free800);
	CHECK(freed_findings(&t, &msg) == 1 && has(msg, want) && has(msg, "(1 such handle(s))"),
	      "freed again: one note for it (%s)", msg);
	stop(&t);

	/* every user index made, committed and freed once (indices that climb
	 * as a program's new types do): silent; one made again is live, and a
	 * use of the top index after its free is noted at the end */
	start(&t);
	uint64_t free_top = 0;
	for (uint64_t id = MPI_D_FIRST_USER_DATATYPE; id <= 65535; id++) {
		type_call(&t, CONTIGUOUS, id);
		type_call(&t, COMMIT, id);
		uint64_t f = type_call(&t, FREE, id);
		if (id == 65535) free_top = f;
	}
	CHECK(freed_findings(&t, &msg) == 0, "climbing indices, each freed once: silent (%s)", msg);
	type_call(&t, CONTIGUOUS, 1234);
	type_call(&t, COMMIT, 1234);
	type_call(&t, COMMIT, 65535);
	end(&t);
	snprintf(want, sizeof want, "datatype 65535, freed by record %llu, is used again",
		 (unsigned long long)free_top);
	CHECK(freed_findings(&t, &msg) == 1 && has(msg, want) && has(msg, "(1 such handle(s))"),
	      "index 65535 used after its free, 1234 made again: one note (%s)", msg);
	stop(&t);
	TAP_DONE();
}
