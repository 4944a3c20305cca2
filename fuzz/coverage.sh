#!/usr/bin/env bash
# Source line coverage of validator/ reached by the committed corpus (which
# holds every generator kind, valid and broken, and every crash found) and
# the golden cases (golden/cases: single files as they are, each case
# directory packed into a container): clang source-based coverage of the
# single and set targets' replay drivers.
#   usage: [GOLDEN=0] [QUEUES=1] fuzz/coverage.sh
#   GOLDEN=0 leaves the golden cases out; QUEUES=1 adds the campaign queues
#   fuzz/out/TARGET/queue. Needs build/fuzz/hpcvet-pack (make).
set -eu
cd "$(dirname "$0")/.."
out=build-fuzz/cov
mkdir -p "$out"
flags="-D_DEFAULT_SOURCE -Ivalidator -Ifuzz -std=c11 -O0 -g -fprofile-instr-generate -fcoverage-mapping"
srcs=$(find validator -name '*.c' ! -path 'validator/cli/*' | sort)
# The library links the CLI's path reader for hpcvet_validate_path (as the
# Makefile's LIB_SRCS does); the report covers validator/ without cli/.
link="$srcs validator/cli/fileio.c validator/cli/validate_path.c"
# shellcheck disable=SC2086
clang $flags fuzz/fuzz_single.c fuzz/regress.c $link -lcjson -lyaml -lm -pthread -o "$out/cov_single"
# shellcheck disable=SC2086
clang $flags fuzz/fuzz_set.c fuzz/regress.c $link -lcjson -lyaml -lm -pthread -o "$out/cov_set"
rm -f "$out"/*.profraw
singles="corpus/single corpus/metadb corpus/profiledb corpus/cctdb corpus/tracedb corpus/ovni_obs corpus/ovni_json corpus/dumpi_bin corpus/dumpi_meta"
sets="corpus/set corpus/hpctk_db corpus/ovni_trace corpus/dumpi_trace"
if [ "${QUEUES:-0}" = 1 ]; then
	for d in $singles; do [ -d "fuzz/out/${d#corpus/}/queue" ] && singles="$singles fuzz/out/${d#corpus/}/queue"; done
	for d in $sets; do [ -d "fuzz/out/${d#corpus/}/queue" ] && sets="$sets fuzz/out/${d#corpus/}/queue"; done
fi
if [ "${GOLDEN:-1}" = 1 ]; then
	rm -rf "$out/golden-single" "$out/golden-sets"
	mkdir -p "$out/golden-single" "$out/golden-sets"
	find golden/cases -mindepth 2 -maxdepth 2 -type f ! -name '*.expect.json' | while read -r f; do
		ln -s "$PWD/$f" "$out/golden-single/$(basename "$(dirname "$f")")_$(basename "$f")"
	done
	find golden/cases -mindepth 2 -maxdepth 2 -type d -name '*.d' | while read -r d; do
		build/fuzz/hpcvet-pack "$d" "$out/golden-sets/$(basename "$(dirname "$d")")_$(basename "$d")" >/dev/null
	done
	singles="$singles $out/golden-single"
	sets="$sets $out/golden-sets"
fi
# shellcheck disable=SC2086
LLVM_PROFILE_FILE="$out/single.profraw" "$out/cov_single" $singles >/dev/null
# shellcheck disable=SC2086
LLVM_PROFILE_FILE="$out/set.profraw" "$out/cov_set" $sets >/dev/null
llvm-profdata-14 merge -o "$out/all.profdata" "$out"/*.profraw
llvm-cov-14 report "$out/cov_single" -object "$out/cov_set" -instr-profile="$out/all.profdata" $srcs | tail -n 1
llvm-cov-14 report "$out/cov_single" -object "$out/cov_set" -instr-profile="$out/all.profdata" $srcs >"$out/report.txt"
echo "per-file report: $out/report.txt"
