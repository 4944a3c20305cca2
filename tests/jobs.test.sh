#!/usr/bin/env bash
# -j: the report does not depend on the number of jobs. For every ovni and
# DUMPI rule the generator can break in a multi-file input (a trace tree, a
# trace of many ranks), and every HPCToolkit profile.db, cct.db, trace.db and
# cross-file rule in a database, the text and JSON reports of -j1, -j2, -j3 are
# byte-identical -- also with --max-diagnostics=2, where sub-reports merged
# in order must suppress the same diagnostics -- and so are several inputs
# validated at once. Timing is never asserted here (see make bench).
source "$(dirname "$0")/lib.sh"

same_for_jobs() { # description, hpcvet arguments...
	local desc=$1
	shift
	"$HPCVET" -j1 "$@" >"$TMP/j1" 2>&1
	local rc1=$?
	local j
	for j in 2 3; do
		"$HPCVET" -j"$j" "$@" >"$TMP/jn" 2>&1
		local rcn=$?
		if [ "$rc1" -eq "$rcn" ] && cmp -s "$TMP/j1" "$TMP/jn"; then ok; else
			not_ok "$desc: -j1 and -j$j differ (exit $rc1 vs $rcn)"
			diff "$TMP/j1" "$TMP/jn" | head -5
		fi
	done
}

# same_for_jobs_batched DESCRIPTION ARGS... -- INPUTS...: same_for_jobs over
# batches of 40 inputs per call. --max-diagnostics counts per input and each
# input's report is its own section, so a batch checks each input as a call
# of its own would, at a fraction of the process start-ups (CI time).
same_for_jobs_batched() {
	local desc=$1 args=() batch=() n=0
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	while [ $# -gt 0 ]; do
		batch+=("$1")
		shift
		if [ ${#batch[@]} -eq 40 ] || [ $# -eq 0 ]; then
			n=$((n + 1))
			same_for_jobs "$desc, batch $n (${batch[0]##*/} ...)" "${args[@]}" "${batch[@]}"
			batch=()
		fi
	done
}

# Inputs: every rule broken where the generator can break it in a multi-file
# input; rules of one stream or one rank file are broken by putting broken
# single files into two places of a conforming tree or trace.
# The sanitizer build takes every 4th rule (generating ~600 inputs under
# ASan is most of this test's cost there); the plain build takes them all.
sample=1
is_san_build && sample=4
inputs=()
broken=0
for rule in $("$HPCVET" rules | awk '{print $1}' | grep -E '^(ovni|dumpi)\.' | san_sample $sample); do
	case $rule in
	ovni.*) what=ovni-trace; extra=(--trace-len=300) ;;
	dumpi.*) what=dumpi-trace; extra=(--profiles=11 --contexts=60) ;;
	esac
	out="$TMP/in/$rule"
	if ! "$GEN" --what=$what "${extra[@]}" --break="$rule" -o "$out" >/dev/null 2>&1; then
		rm -rf "$out"
		"$GEN" --what=$what "${extra[@]}" -o "$out" >/dev/null 2>&1 || continue
		placed=0
		case $rule in
		ovni.obs.*) kind=ovni-stream; targets=("$out"/loom.node0.ovni/proc.1000/thread.1001/stream.obs "$out"/loom.node1.ovni/proc.1100/thread.1100/stream.obs) ;;
		ovni.json.*) kind=ovni-json; targets=("$out"/loom.node0.ovni/proc.1000/thread.1000/stream.json "$out"/loom.node1.ovni/proc.1100/thread.1101/stream.json) ;;
		dumpi.*) kind=dumpi-bin; targets=("$out"/*-0003.bin "$out"/*-0008.bin) ;;
		*) kind="" targets=() ;;
		esac
		for t in "${targets[@]}"; do
			[ -f "$t" ] && "$GEN" --what=$kind --break="$rule" -o "$t" >/dev/null 2>&1 && placed=1
		done
		if [ "$placed" = 0 ]; then rm -rf "$out"; continue; fi
	fi
	broken=$((broken + 1))
	inputs+=("$out")
done
same_for_jobs_batched "ovni and DUMPI rules" -- "${inputs[@]}"
same_for_jobs_batched "ovni and DUMPI rules (JSON, 2 diagnostics)" --format=json --max-diagnostics=2 -- "${inputs[@]}"
check "ovni and DUMPI rules broken in multi-file inputs ($broken)" test "$broken" -gt $((90 / sample))

# HPCToolkit: one database's profile.db, cct.db and trace.db are walked as
# parallel tasks. Every cross-file rule broken in a database, and every
# profile.db, cct.db and trace.db rule by putting the broken file into a
# conforming database (both editions), so that its diagnostics interleave
# with the cross-file ones of the other files.
hbroken=0
hinputs=()
for ed in release draft; do
	for rule in $("$HPCVET" rules | awk '{print $1}' | grep -E '^(hpctkdb|profiledb|cctdb|tracedb)\.' | san_sample $sample); do
		out="$TMP/hdb/$ed/$rule"
		if ! "$GEN" --what=hpctoolkit-db --edition=$ed --profiles=5 --break="$rule" -o "$out" >/dev/null 2>&1; then
			rm -rf "$out"
			case $rule in
			profiledb.*) kind=profiledb file=profile.db ;;
			cctdb.*) kind=cctdb file=cct.db ;;
			tracedb.*) kind=tracedb file=trace.db ;;
			*) continue ;;
			esac
			"$GEN" --what=hpctoolkit-db --edition=$ed --profiles=5 -o "$out" >/dev/null 2>&1 &&
				"$GEN" --what=$kind --edition=$ed --profiles=5 --break="$rule" -o "$out/$file" >/dev/null 2>&1 ||
				{ rm -rf "$out"; continue; }
		fi
		hbroken=$((hbroken + 1))
		hinputs+=("$out")
	done
done
same_for_jobs_batched "HPCToolkit rules" -- "${hinputs[@]}"
same_for_jobs_batched "HPCToolkit rules (JSON, 2 diagnostics)" --format=json --max-diagnostics=2 -- "${hinputs[@]}"
check "HPCToolkit database rules broken in databases ($hbroken)" test "$hbroken" -gt $((150 / sample))

"$GEN" --what=ovni-trace --seed=3 -o "$TMP/ok-ovni" || not_ok "generate ovni trace"
"$GEN" --what=dumpi-trace --profiles=9 -o "$TMP/ok-dumpi" || not_ok "generate dumpi trace"
"$GEN" --what=hpctoolkit-db -o "$TMP/ok-db" || not_ok "generate database"
same_for_jobs "conforming inputs" "$TMP/ok-ovni" "$TMP/ok-dumpi" "$TMP/ok-db"
same_for_jobs "all broken inputs in one call" -q "${inputs[@]}"
same_for_jobs "all broken inputs in one call (JSON)" --format=json --max-diagnostics=3 "${inputs[@]}" "$TMP/ok-db"

# Units of work (core/units.h): with HPCVET_UNIT_BYTES=1 every input is cut
# into the smallest units it has (each trace.db line its own unit) and they
# run on 2 threads; the report is that of the default split at -j1, for every
# multi-file input of the golden corpus and every broken database above.
tiny=0
tiny_runs=0
# The sanitizer build runs the default format only (CI time); the plain build
# runs both formats over the same inputs. Inputs go 40 to a call (see
# same_for_jobs_batched); a difference names the batch and shows the lines.
tiny_args=("" "--format=json --max-diagnostics=2")
if is_san_build; then tiny_args=(""); fi
mapfile -t tiny_inputs < <(for d in "$ROOT"/golden/cases/*/*.d "$TMP"/hdb/*/*; do [ -d "$d" ] && echo "$d"; done)
for args in "${tiny_args[@]}"; do
	for ((b = 0; b < ${#tiny_inputs[@]}; b += 40)); do
		batch=("${tiny_inputs[@]:b:40}")
		tiny_runs=$((tiny_runs + ${#batch[@]}))
		"$HPCVET" -j1 $args "${batch[@]}" >"$TMP/u1" 2>&1
		rc1=$?
		HPCVET_UNIT_BYTES=1 "$HPCVET" -j2 $args "${batch[@]}" >"$TMP/u2" 2>&1
		rc2=$?
		if [ "$rc1" -eq "$rc2" ] && cmp -s "$TMP/u1" "$TMP/u2"; then tiny=$((tiny + ${#batch[@]})); else
			not_ok "${batch[0]} ... $args: tiny units at -j2 differ from -j1 (exit $rc1 vs $rc2)"
			diff "$TMP/u1" "$TMP/u2" | head -5
		fi
	done
done
# A trace.db above the 1 MiB read whole is read through windows: ranges of
# its lines run on several threads, each through its own descriptor.
"$GEN" --what=hpctoolkit-db --profiles=8 --trace-len=60000 -o "$TMP/bigdb" >/dev/null 2>&1
"$GEN" --what=tracedb --profiles=8 --trace-len=60000 --break=tracedb.line.time-sorted -o "$TMP/bigdb/trace.db" >/dev/null 2>&1
check "trace.db read through windows" test "$(stat -c %s "$TMP/bigdb/trace.db")" -gt 1048576
"$HPCVET" -j1 --format=json "$TMP/bigdb" >"$TMP/b1" 2>&1
check "broken trace.db reported" grep -q tracedb.line.time-sorted "$TMP/b1"
for j in 2 3; do
	HPCVET_UNIT_BYTES=100000 "$HPCVET" -j$j --format=json "$TMP/bigdb" >"$TMP/bj" 2>&1
	check "trace.db in 100 kB ranges at -j$j: the -j1 report" cmp -s "$TMP/b1" "$TMP/bj"
done
# Every run agreed, and the corpus was there to run (over 150 multi-file inputs).
check "tiny units at -j2 give the -j1 report ($tiny of $tiny_runs inputs x formats)" \
	test "$tiny" -eq "$tiny_runs" -a "$tiny_runs" -gt $((150 * ${#tiny_args[@]} / sample))

expect_exit 2 "-j0 is a usage error" "$HPCVET" -j0 "$TMP/ok-db"
expect_exit 2 "-j without a number is a usage error" "$HPCVET" -jx "$TMP/ok-db"
expect_exit 0 "-j N as two arguments" "$HPCVET" -j 2 "$TMP/ok-db"
expect_exit 0 "--jobs=N" "$HPCVET" --jobs=2 "$TMP/ok-db"
done_testing
