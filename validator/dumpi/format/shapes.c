/* Argument shapes of a record that go beyond "it decodes": the ones
 * libundumpi's readers rely on. libdumpi writes MPI_Group_range_incl/excl
 * rows of exactly 3 ints and, at the root of MPI_Comm_spawn_multiple,
 * arrays of exactly `count` entries (argvs: 0 for MPI_ARGVS_NULL). A shape
 * libdumpi cannot write and the reader fails on is an error; the one it
 * writes and the reader crashes on (MPI_ARGVS_NULL) is a note, once per rank
 * file. Facts and reader code paths: validator/dumpi/README.md. */
#include <string.h>

#include "dumpi/dumpi.h"

#define FN_GROUP_RANGE_INCL 78
#define FN_GROUP_RANGE_EXCL 79
#define FN_COMM_SPAWN_MULTIPLE 136

static int field_index(const dumpi_layout *L, const char *name)
{
	size_t n = strlen(name);
	for (unsigned i = 0; i < L->nfields; i++)
		if (L->fields[i].name_len == n && memcmp(L->fields[i].name, name, n) == 0) return (int)i;
	return -1;
}

static void check_ranges(hv_report *r, const char *file, const dumpi_record *rec, const dumpi_args *a)
{
	char path[64];
	if (hv_eval(r, HV_R_DUMPI_REC_RANGE_TRIPLET, !a->bad_row)) return;
	dumpi_record_path(path, sizeof path, rec->index);
	hv_emit(r, HV_R_DUMPI_REC_RANGE_TRIPLET, file, a->bad_row_at, 4, path,
		"%s record at 0x%llx: range row %llu holds %llu int(s); libdumpi writes every row as 3 ints "
		"(first, last, stride), and dumpi2ascii reads 3 from each row",
		dumpi_function_name(rec->fn), (unsigned long long)rec->offset, (unsigned long long)a->bad_row_index,
		(unsigned long long)a->bad_row_len);
}

static void check_spawn(dumpi_shapes *st, hv_report *r, const char *file, const dumpi_record *rec,
			const dumpi_args *a)
{
	static const char *const arrays[] = {"commands", "argvs", "maxprocs", "info"};
	const dumpi_layout *L = dumpi_layout_of(rec->fn);
	int ic = field_index(L, "count");
	if (ic < 0 || ic >= a->n || !a->f[ic].present) return; /* not the root: no arrays */
	st->spawn_roots++;
	/* libdumpi's loops run while i < count: a negative int count writes empty arrays */
	uint64_t count = (int32_t)(uint32_t)a->f[ic].v < 0 ? 0 : a->f[ic].v;
	const char *bad = NULL;
	uint64_t bad_len = 0, bad_at = 0;
	bool argvs_null = false;
	for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
		int i = field_index(L, arrays[k]);
		if (i < 0 || i >= a->n || !a->f[i].present) continue;
		uint64_t len = a->f[i].v;
		if (len == count) continue;
		if (k == 1 && len == 0) {
			argvs_null = true;
			continue;
		}
		if (!bad) bad = arrays[k], bad_len = len, bad_at = dumpi_arg_at(a, rec->fn, i);
	}
	char path[64];
	if (!hv_eval(r, HV_R_DUMPI_REC_SPAWN_ARRAY_LENGTH, !bad)) {
		dumpi_record_path(path, sizeof path, rec->index);
		hv_emit(r, HV_R_DUMPI_REC_SPAWN_ARRAY_LENGTH, file, bad_at, 4, path,
			"MPI_Comm_spawn_multiple record at 0x%llx: %s has %llu entries but count is %llu; libdumpi "
			"writes commands, argvs, maxprocs and info with count entries each (argvs: 0 for "
			"MPI_ARGVS_NULL), and libundumpi indexes every array by the last length it read",
			(unsigned long long)rec->offset, bad, (unsigned long long)bad_len, (unsigned long long)count);
	}
	if (argvs_null && !bad) {
		if (!st->argvs_null++) {
			st->first_index = rec->index;
			st->first_at = rec->offset;
			st->first_len = rec->length;
		}
	}
}

void dumpi_shapes_record(dumpi_shapes *st, hv_report *r, const char *file, const dumpi_record *rec,
			 const dumpi_args *a)
{
	switch (rec->fn) {
	case FN_GROUP_RANGE_INCL:
	case FN_GROUP_RANGE_EXCL: check_ranges(r, file, rec, a); break;
	case FN_COMM_SPAWN_MULTIPLE: check_spawn(st, r, file, rec, a); break;
	default: break;
	}
}

void dumpi_shapes_end(const dumpi_shapes *st, hv_report *r, const char *file)
{
	/* once per rank file that has spawn_multiple records at the root */
	if (!st->spawn_roots) return;
	if (hv_eval(r, HV_R_DUMPI_REC_READER_HAZARD_ARGVS_NULL, st->argvs_null == 0)) return;
	char path[64];
	dumpi_record_path(path, sizeof path, st->first_index);
	hv_emit(r, HV_R_DUMPI_REC_READER_HAZARD_ARGVS_NULL, file, st->first_at, st->first_len, path,
		"%llu MPI_Comm_spawn_multiple record(s) with MPI_ARGVS_NULL (argvs of 0 entries, count > 0), first "
		"at 0x%llx: valid libdumpi output, but libundumpi (sst-dumpi 13.x) and dumpi2ascii index count "
		"rows of the NULL argvs and die with SIGSEGV on it (expected by them: argvs of count rows)",
		(unsigned long long)st->argvs_null, (unsigned long long)st->first_at);
}
