/* hpcvet-mpi: hpcvet over MPI ranks. The program is hpcvet's own main
 * (validator/cli/main.c, built as hv_cli_main) with hooks that validate
 * over the ranks (units.c); only rank 0 writes the report and returns
 * hpcvet's exit code. The other ranks hold the same reports but return 0:
 * mpirun and srun report the first non-zero code, and a rank ending early
 * with one makes mpirun abort the job, which must not race rank 0's
 * output. */
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/hooks.h"
#include "cli/fileio.h"
#include "units.h"

int hv_cli_main(int argc, char **argv);

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank = 0;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Every file is read through windows: a rank reads the bytes of its
	 * own units (and the headers every rank needs), never a whole input. */
	hv_fileio_set_slurp_limit(0);
	/* HPCVET_MPI_FAULT=R:TEXT (tests only): on rank R, reads of files whose
	 * path contains TEXT fail, as a failing disk or node would. */
	const char *fault = getenv("HPCVET_MPI_FAULT");
	char *colon = fault ? strchr(fault, ':') : NULL;
	if (colon && atoi(fault) == rank) hv_fileio_set_fault(colon + 1);
	hv_cli_hooks hooks = {.validate = hv_mpi_validate, .silent = rank != 0};
	hv_cli_active_hooks = &hooks;
	if (rank != 0) {
		/* `hpcvet-mpi rules`, --help, --version: printed once. */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) dup2(null, STDOUT_FILENO), close(null);
	}
	int rc = hv_cli_main(argc, argv);
	MPI_Finalize();
	return rank == 0 ? rc : 0;
}
