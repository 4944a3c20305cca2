#!/usr/bin/env bash
# The calls validator/dumpi/README.md lists as not recorded by libdumpi are
# not in its function table (validator/dumpi/format/funcs.def), and the
# functions that table has are recorded: the table is what the MPI layer's
# notes about unrecorded calls rest on.
source "$(dirname "$0")/lib.sh"
table="$ROOT/validator/dumpi/format/funcs.def"
readme="$ROOT/validator/dumpi/README.md"
check "the function table is there" test -s "$table"
unrec=$(sed -n '/^## Calls libdumpi does not record/,/^## Reader hazards/p' "$readme" | grep -o 'MPI_[A-Za-z_]*' |
	sed 's/_$//' | sort -u)
check "the README lists the unrecorded calls" test "$(wc -l <<<"$unrec")" -ge 60
for f in $unrec; do
	case $f in MPI_Start | MPI_Startall | MPI_Get_count | MPI_Get_elements) continue ;; esac
	check "$f is not in libdumpi's table" bash -c "! grep -q '\"$f\"' '$table'"
done
for f in MPI_Isend MPI_Irecv MPI_Wait MPI_Start MPI_Get_count MPI_Comm_split MPI_Type_contiguous MPI_Reduce_scatter; do
	check "$f is in libdumpi's table" grep -q "\"$f\"" "$table"
done
done_testing
