#!/usr/bin/env bash
# Source line coverage of validator/ reached by the fuzz targets' inputs:
# every target's replay driver (the targets themselves, so a differential
# target's second path, dump and certify count as what they reach) built
# once with clang's source-based coverage, each replaying its committed
# corpus (corpus/TARGET, which holds every generator kind, valid and
# broken, and every crash found), `single` and `set` also the golden cases
# (single files as they are, each case directory packed into a container).
#   usage: [GOLDEN=0] [QUEUES=1] [SINCE=REV] fuzz/coverage.sh
#   GOLDEN=0 leaves the golden cases out; QUEUES=1 adds the campaign queues
#   (fuzz/out/TARGET/queue, fuzz/afl-out/TARGET/default/queue).
# Prints the total, then a table of every validator/ source file added
# since SINCE (default: the commit the first recorded campaigns ran on) with
# its line coverage: the files no campaign had seen before.
set -eu
cd "$(dirname "$0")/.."
out=build-fuzz/cov
since=${SINCE:-96e8814}
mkdir -p "$out"
targets=$(ls fuzz/fuzz_*.c | sed 's|fuzz/fuzz_||; s|\.c$||')
# One coverage build of the library, every replay driver linked to it, and
# the packer for the golden directories.
# shellcheck disable=SC2086
make --no-print-directory -j"${JOBS:-2}" BUILD="$out/b" CC=clang OPT=-O0 \
	CFLAGS="-fprofile-instr-generate -fcoverage-mapping" \
	$(for t in $targets; do printf '%s/b/fuzz/regress_%s ' "$out" "$t"; done) "$out/b/fuzz/hpcvet-pack" >/dev/null
rm -f "$out"/*.profraw
if [ "${GOLDEN:-1}" = 1 ]; then
	rm -rf "$out/golden-single" "$out/golden-sets"
	mkdir -p "$out/golden-single" "$out/golden-sets"
	find golden/cases -mindepth 2 -maxdepth 2 -type f ! -name '*.expect.json' | while read -r f; do
		ln -s "$PWD/$f" "$out/golden-single/$(basename "$(dirname "$f")")_$(basename "$f")"
	done
	find golden/cases -mindepth 2 -maxdepth 2 -type d -name '*.d' | while read -r d; do
		LLVM_PROFILE_FILE=/dev/null "$out/b/fuzz/hpcvet-pack" "$d" "$out/golden-sets/$(basename "$(dirname "$d")")_$(basename "$d")" >/dev/null
	done
fi
objects=()
for t in $targets; do
	inputs=()
	[ -d "corpus/$t" ] && inputs+=("corpus/$t")
	if [ "${QUEUES:-0}" = 1 ]; then
		[ -d "fuzz/out/$t/queue" ] && inputs+=("fuzz/out/$t/queue")
		[ -d "fuzz/afl-out/$t/default/queue" ] && inputs+=("fuzz/afl-out/$t/default/queue")
	fi
	if [ "${GOLDEN:-1}" = 1 ]; then
		[ "$t" = single ] && inputs+=("$out/golden-single")
		[ "$t" = set ] && inputs+=("$out/golden-sets")
	fi
	[ ${#inputs[@]} -gt 0 ] || continue
	# The differential targets abort on a difference; a known one must not
	# end the measurement, so a failing replay is reported and skipped.
	LLVM_PROFILE_FILE="$out/$t.profraw" "$out/b/fuzz/regress_$t" "${inputs[@]}" >/dev/null 2>&1 ||
		echo "coverage: $t stopped early on one of its inputs (exit $?)" >&2
	objects+=(-object "$out/b/fuzz/regress_$t")
done
llvm-profdata-14 merge -o "$out/all.profdata" "$out"/*.profraw
srcs=$(find validator -name '*.c' ! -path 'validator/cli/*' ! -path 'validator/mpi/*' | sort)
first=${objects[1]}
# shellcheck disable=SC2086
llvm-cov-14 report "$first" "${objects[@]:2}" -instr-profile="$out/all.profdata" $srcs >"$out/report.txt"
tail -n 1 "$out/report.txt"
echo "per-file report: $out/report.txt"
# The files added since the first campaigns, with their line coverage
# (columns of llvm-cov's report: lines total, missed, cover are the 8th-10th).
echo
echo "| file | lines | covered |"
echo "|---|---|---|"
git log --diff-filter=A --format= --name-only "$since..HEAD" -- 'validator/*.c' | sort -u | while read -r f; do
	[ -f "$f" ] || continue
	case $f in validator/cli/* | validator/mpi/*) echo "| \`${f#validator/}\` | - | not fuzzed (command line, MPI driver) |"; continue ;; esac
	awk -v g="${f#validator/}" '$1 == g { print "| `" g "` | " $8 " | " $10 " |" }' "$out/report.txt"
done
