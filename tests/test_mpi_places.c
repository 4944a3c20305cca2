/* The table of libdumpi's places (dumpi/mpi/places.c): every function it
 * lists has, in the layout table (dumpi/format/funcs.def), each listed
 * role at the listed field -- the field of that name -- and no other role,
 * with the listed plan, so mpi_at_places holds for it and its paths read
 * their fields where they are; a function it does not list is not at
 * places; and a layout moved from libdumpi's (a role at another field, a
 * role more, a root-only field, another plan, count or use roles in
 * another order) does not fit its row. */
#include <stdlib.h>
#include <string.h>

#include "dumpi/mpi/checks.h"
#include "mpi_feed.h"
#include "tap.h"

/* The functions whose paths read their fields at constant places (fused.c,
 * fusedcoll.c, requests.c, rank.c's datatype paths): each must have a row. */
static const unsigned listed[] = {0,  1,  3,  4,  5,  8,  9,  10, 11, 12, 13, 14, 15, 16, 18, 26, 27, 28,
				  29, 30, 32, 33, 34, 35, 43, 46, 47, 52, 53, 54, 56, 58, 60, 62, 65, 67, 156};

static bool is_listed(unsigned fn)
{
	for (size_t k = 0; k < sizeof listed / sizeof listed[0]; k++)
		if (listed[k] == fn) return true;
	return false;
}

/* Whether function fn fits its row with roles ro, plan, count roles cr,
 * use roles ur and layout L in place of its own. */
static bool fits(unsigned fn, const dumpi_layout *L, const int8_t *ro, uint8_t plan, const uint8_t *cr,
		 const uint8_t *ur)
{
	return mpi_place_fits(mpi_place_of(fn), L, ro, plan, cr, ur);
}
static bool fits_roles(unsigned fn, const int8_t *ro)
{
	return fits(fn, dumpi_layout_of(fn), ro, mpi_plans[fn], mpi_count_roles[fn], mpi_use_roles[fn]);
}
static bool fits_layout(unsigned fn, const dumpi_layout *L)
{
	return fits(fn, L, mpi_roles[fn], mpi_plans[fn], mpi_count_roles[fn], mpi_use_roles[fn]);
}

int main(void)
{
	/* a rank makes the roles, plans and places (once a process) */
	static const uint8_t empty[1];
	hv_report rep;
	hv_blob b;
	mpi_rank *m = mpi_feed_rank(&rep, &b, empty, 0, 100);
	CHECK(m != NULL, "a rank");

	/* the table against funcs.def, function by function */
	unsigned rows = 0;
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) {
		const mpi_place *p = mpi_place_of(fn);
		if (!p) {
			CHECK(!is_listed(fn), "function %u has a constant-place path but no row", fn);
			CHECK(!mpi_at_places[fn], "function %u is at places without a row", fn);
			continue;
		}
		rows++;
		const dumpi_layout *L = dumpi_layout_of(fn);
		CHECK(is_listed(fn), "function %u has a row but is not listed here", fn);
		CHECK(L && L->name, "function %u has a layout", fn);
		if (!L || !L->name) continue;
		CHECK(mpi_at_places[fn], "%s is not at its places", L->name);
		CHECK(mpi_plans[fn] == p->plan, "%s: plan %u, its row %u", L->name, mpi_plans[fn], p->plan);
		int8_t want[RO_COUNT_ROLES];
		memset(want, -1, sizeof want);
		for (unsigned j = 0; j < MPI_PLACES_MAX && p->at[j][0] != RO_COUNT_ROLES; j++) {
			unsigned ro = p->at[j][0], i = p->at[j][1];
			want[ro] = (int8_t)i;
			/* the field the row names, by its name in funcs.def */
			const char *name = mpi_role_label((int)ro);
			CHECK(i < L->nfields && strlen(name) == L->fields[i].name_len &&
				      memcmp(name, L->fields[i].name, L->fields[i].name_len) == 0,
			      "%s: field %u is not %s", L->name, i, name);
			CHECK(mpi_roles[fn][ro] == (int8_t)i, "%s: %s at field %d, its row says %u", L->name, name,
			      mpi_roles[fn][ro], i);
		}
		for (unsigned ro = 0; ro < RO_COUNT_ROLES; ro++)
			if (want[ro] < 0)
				CHECK(mpi_roles[fn][ro] < 0, "%s has %s (field %d), which its row does not list", L->name,
				      mpi_role_label((int)ro), mpi_roles[fn][ro]);
	}
	CHECK(rows == sizeof listed / sizeof listed[0], "%u rows, %zu functions listed", rows,
	      sizeof listed / sizeof listed[0]);

	/* functions with no row: never at places, whatever their layout */
	static const unsigned unlisted[] = {2, 17, 19, 20, 21, 31, 55, 57, 59, 61, 66, 125, 155};
	for (size_t k = 0; k < sizeof unlisted / sizeof unlisted[0]; k++) {
		unsigned fn = unlisted[k];
		CHECK(!mpi_place_of(fn) && !mpi_at_places[fn], "function %u is at places", fn);
		CHECK(!mpi_place_fits(NULL, dumpi_layout_of(fn), mpi_roles[fn], mpi_plans[fn], mpi_count_roles[fn],
				      mpi_use_roles[fn]),
		      "no row fits function %u", fn);
	}

	/* each function's own layout fits its row (what mpi_at_places says) */
	for (size_t k = 0; k < sizeof listed / sizeof listed[0]; k++)
		CHECK(fits_roles(listed[k], mpi_roles[listed[k]]), "function %u fits its row", listed[k]);

	/* layouts moved from libdumpi's do not fit */
	int8_t ro[RO_COUNT_ROLES];
	/* MPI_Send with its count and datatype swapped */
	memcpy(ro, mpi_roles[0], sizeof ro);
	ro[RO_COUNT] = P2P_DATATYPE, ro[RO_DATATYPE] = P2P_COUNT;
	CHECK(!fits_roles(0, ro), "MPI_Send with count and datatype swapped");
	/* MPI_Waitall with a flag (MPI_Testall's), MPI_Waitany without its index */
	memcpy(ro, mpi_roles[18], sizeof ro);
	ro[RO_FLAG] = 3;
	CHECK(!fits_roles(18, ro), "MPI_Waitall with a flag");
	memcpy(ro, mpi_roles[16], sizeof ro);
	ro[RO_INDEX] = -1;
	CHECK(!fits_roles(16, ro), "MPI_Waitany without its index");
	/* MPI_Bcast with a root it has elsewhere, MPI_Allreduce with one */
	memcpy(ro, mpi_roles[53], sizeof ro);
	ro[RO_ROOT] = BCAST_COMM, ro[RO_COMM] = BCAST_ROOT;
	CHECK(!fits_roles(53, ro), "MPI_Bcast with root and comm swapped");
	memcpy(ro, mpi_roles[65], sizeof ro);
	ro[RO_ROOT] = ALLREDUCE_OP;
	CHECK(!fits_roles(65, ro), "MPI_Allreduce with a root");
	/* MPI_Sendrecv_replace laid out as MPI_Sendrecv's first fields */
	memcpy(ro, mpi_roles[34], sizeof ro);
	ro[RO_SOURCE] = SRR_RECVTAG, ro[RO_RECVTAG] = SRR_SOURCE;
	CHECK(!fits_roles(34, ro), "MPI_Sendrecv_replace with source and recvtag swapped");
	/* another plan */
	CHECK(!fits(0, dumpi_layout_of(0), mpi_roles[0], mpi_plans[0] | PLAN_REQ, mpi_count_roles[0],
		    mpi_use_roles[0]),
	      "MPI_Send with another plan");
	/* count or use roles other than its roles in role order */
	static const uint8_t swapped_uses[] = {RO_COMM, RO_RECVTYPE, RO_SENDTYPE, RO_COUNT_ROLES};
	static const uint8_t one_use[] = {RO_COMM, RO_SENDTYPE, RO_COUNT_ROLES};
	static const uint8_t no_counts[] = {RO_COUNT_ROLES};
	CHECK(!fits(33, dumpi_layout_of(33), mpi_roles[33], mpi_plans[33], mpi_count_roles[33], swapped_uses),
	      "MPI_Sendrecv with its datatypes used in another order");
	CHECK(!fits(33, dumpi_layout_of(33), mpi_roles[33], mpi_plans[33], mpi_count_roles[33], one_use),
	      "MPI_Sendrecv with one datatype used");
	CHECK(!fits(33, dumpi_layout_of(33), mpi_roles[33], mpi_plans[33], no_counts, mpi_use_roles[33]),
	      "MPI_Sendrecv with no counts checked");
	/* root-only fields: none before the row's `fixed` */
	dumpi_layout L = *dumpi_layout_of(0);
	L.fields[P2P_PEER].root_only = true;
	CHECK(!fits_layout(0, &L), "MPI_Send with a root-only field");
	L = *dumpi_layout_of(16);
	L.fields[L.nfields - 1].root_only = true;
	CHECK(!fits_layout(16, &L), "MPI_Waitany with a root-only status");
	L = *dumpi_layout_of(54);
	CHECK(L.fields[ROOTED_ROOT_COUNT].root_only && L.fields[ROOTED_ROOT_TYPE].root_only,
	      "MPI_Gather's root's side is root-only");
	CHECK(fits_layout(54, &L), "MPI_Gather with its root's side root-only");
	L.fields[ROOTED_COMM].root_only = true;
	CHECK(!fits_layout(54, &L), "MPI_Gather with a root-only comm");
	CHECK(!fits(54, NULL, mpi_roles[54], mpi_plans[54], mpi_count_roles[54], mpi_use_roles[54]),
	      "no layout fits no row");

	mpi_feed_free(m, &rep);
	TAP_DONE();
}
