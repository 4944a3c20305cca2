#!/usr/bin/env bash
# Hostile shapes (`make bench-hostile`): for each family, the input shapes
# that cost a parser or a checker most per byte, each at SIZES MiB (default
# "1 16") beside the family's valid input of the same size. A row gives the
# CPU time (user+sys, median of RUNS, default 3), CPU per MiB, its ratio to
# the valid input's CPU per MiB and to `cat`'s CPU time on the same files
# (find -exec cat: the file system's own cost, which dominates a shape of
# many tiny files), the peak RSS and the verdict with the rules reported. The ratio is what the shape multiplies: a shape whose cost grew
# faster than its bytes would show a ratio that grows from 1 MiB to 16 MiB.
#
# Valid references: HPCToolkit binary shapes against a generated database
# (contexts and a trace scaled to the size); the taxonomy's YAML shapes
# against a generated database whose metric taxonomy is most of its bytes
# (--metrics scaled), since YAML costs more per byte than any binary file;
# ovni's event shapes against a generated trace, its stream.json shapes
# against a trace whose every stream.json holds a large mark label table (a
# runtime's shape at width); DUMPI against a generated trace of 4 ranks.
# stream.json shapes past ovni's 16 MiB bound are refused unparsed (that row
# shows the bound working); DUMPI .meta shapes stay under its 1 MiB bound.
#
# usage: bench/hostile.sh [BUILD_DIR]   (ONLY=REGEX: measure only the shapes it matches)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
hv=$build/hpcvet
gen=$build/hpcvet-gen
runs=${RUNS:-3}
sizes=${SIZES:-1 16}
source bench/lib.sh
dir=${BENCH_DIR:-$(mktemp -d)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"

# gen_sized OUT BYTES ARGS...: hpcvet-gen ARGS with @N@ scaled so that OUT
# holds about BYTES bytes (a trial at @N@ = 64, then linear).
gen_sized() {
	local out=$1 want=$2 n
	shift 2
	rm -rf "$out"
	"$gen" "${@//@N@/64}" -o "$out" >/dev/null
	n=$(awk -v w="$want" -v b="$(bytes_of "$out")" 'BEGIN { n = int(64 * w / b + 0.5); print n < 1 ? 1 : n }')
	rm -rf "$out"
	"$gen" "${@//@N@/$n}" -o "$out" >/dev/null
}

# Options for hpcvet in the rows that set it: the shapes of many findings
# run with no cap on the report too, where each finding is stored and every
# walk that does work per finding shows (a walk quadratic in its findings
# once took hours on a zeroed 1 GB database with --max-per-rule=0).
extra=()
NOCAPS=(--max-per-rule=0 --max-diagnostics=100000000)

# A row that runs another command than `hpcvet -q` on its input: the
# command, the input's path appended (`certify --verify CERT` says what a
# certificate no longer holds for).
cmd=()

# measure LABEL INPUT: sets CPU (median s), RSS (MiB, max), BYTES, VERDICT
measure() {
	local log i
	log=$(mktemp)
	BYTES=$(bytes_of "$2")
	find "$2" -type f -exec cat {} + >/dev/null
	for ((i = 0; i < runs; i++)); do
		set +e
		if [ ${#cmd[@]} -gt 0 ]; then timed "$log" "${cmd[@]}" "$2"; else timed "$log" "$hv" -q ${extra[@]+"${extra[@]}"} "$2"; fi
		set -e
	done
	for ((i = 0; i < runs; i++)); do timed "$log.cat" find "$2" -type f -exec cat {} +; done
	CAT_CPU=$(column_median "$log.cat" 2)
	rm -f "$log.cat"
	CPU=$(column_median "$log" 2)
	RSS=$(awk '{ print $3 }' "$log" | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }')
	rm -f "$log"
	if [ ${#cmd[@]} -gt 0 ]; then
		VERDICT=$({ "${cmd[@]}" "$2" 2>/dev/null || true; } | awk 'NR == 1 { v = $0; sub(/^[^:]*: /, "", v) } /^  - / { n++ } END { printf "%s: %d reasons\n", v, n }')
		return
	fi
	VERDICT=$({ "$hv" ${extra[@]+"${extra[@]}"} "$2" 2>/dev/null || true; } | awk '
		/^[^ ]*: (error|warning|note)\[/ { match($0, /\[[^]]*\]/); k = substr($0, RSTART + 1, RLENGTH - 2); if (!(k in n)) o[++m] = k; n[k] = 1 }
		/: (conforming|nonconforming)/ { v = $0; sub(/^[^:]*: /, "", v); sub(/ \(/, " (", v); gsub(/[a-z]+ [a-z]+, |, [a-z]+ edition|, v[0-9.]+|, [0-9]+ rules checked/, "", v) }
		END { s = v; for (i = 1; i <= m && i <= 3; i++) s = s " " o[i]; if (m > 3) s = s " ..."; print s }')
}

# row FAMILY SHAPE INPUT [REF_CPU_PER_MIB]: measure and print one row; with
# no reference, the row is the family's valid input and sets REF.
row() {
	local fam=$1 shape=$2 in=$3 per ratio
	# ONLY=REGEX: only the shapes it matches (and the valid references)
	if [ $# -ge 4 ] && [ -n "${ONLY:-}" ] && ! [[ $shape =~ $ONLY ]]; then return; fi
	measure "$shape" "$in"
	per=$(awk -v c="$CPU" -v b="$BYTES" 'BEGIN { printf "%.2f", c * 1000 / (b / 1048576) }')
	if [ $# -lt 4 ]; then
		REF=$per
		ratio=1.00
	else
		ratio=$(awk -v p="$per" -v r="$4" 'BEGIN { if (r > 0) printf "%.2f", p / r; else print "-" }')
	fi
	printf '%-10s %-22s %7s %8.3f %9s %7s %6s %8s  %s\n' "$fam" "$shape" "$(mib "$BYTES")" "$CPU" "$per" "$ratio" \
		"$(awk -v a="$CPU" -v b="$CAT_CPU" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')" "$RSS" "$VERDICT"
}

printf '%-10s %-22s %7s %8s %9s %7s %6s %8s  %s\n' family shape MiB "CPU s" "ms/MiB" "x valid" "x cat" "RSS MiB" "verdict and rules reported"
for size in $sizes; do
	bytes=$((size * 1048576))
	d=$dir/$size
	mkdir -p "$d"
	echo "-- $size MiB"

	# ---- HPCToolkit ----
	gen_sized "$d/hk-valid" "$bytes" --what=hpctoolkit-db --contexts=@N@00 --trace-len=@N@00 --profiles=4
	row hpctoolkit valid-database "$d/hk-valid"
	ref=$REF
	python3 bench/hostile.py hk-zeroed "$bytes" "$d/hk-valid" "$d/hk-zeroed"
	extra=(--max-per-rule=0)
	row hpctoolkit zeroed-half-nocap "$d/hk-zeroed" "$ref"
	extra=()
	rm -rf "$d/hk-zeroed"
	gen_sized "$d/hk-chain" "$bytes" --what=hpctoolkit-db --contexts=@N@00 --depth=@N@00 --profiles=1 --trace-len=8
	row hpctoolkit context-chain "$d/hk-chain" "$ref"
	gen_sized "$d/hk-wide" "$bytes" --what=hpctoolkit-db --contexts=@N@00 --depth=1 --profiles=1 --trace-len=8
	row hpctoolkit wide-context "$d/hk-wide" "$ref"
	gen_sized "$d/hk-profiles" "$bytes" --what=hpctoolkit-db --contexts=8 --profiles=@N@ --trace-len=2
	row hpctoolkit tiny-profiles "$d/hk-profiles" "$ref"
	gen_sized "$d/hk-names" "$bytes" --what=hpctoolkit-db --contexts=@N@0 --functions=@N@0 --files=@N@0 --modules=@N@ --profiles=1 --trace-len=8
	row hpctoolkit many-names "$d/hk-names" "$ref"
	gen_sized "$d/hk-tax" "$bytes" --what=hpctoolkit-db --metrics=@N@ --contexts=8 --profiles=1 --trace-len=8
	row hpctoolkit taxonomy-heavy "$d/hk-tax"
	ref=$REF
	"$gen" --what=hpctoolkit-db -o "$d/hk-base" >/dev/null
	for shape in yaml-flow-seq-deep yaml-flow-map-deep yaml-block-deep yaml-at-bound yaml-flat-seq yaml-flat-map \
		yaml-anchors yaml-aliases yaml-long-scalar yaml-many-errors; do
		python3 bench/hostile.py "$shape" "$bytes" "$d/hk-base" "$d/hk-$shape"
		row hpctoolkit "$shape" "$d/hk-$shape" "$ref"
		rm -rf "$d/hk-$shape"
	done
	rm -rf "$d"/hk-*

	# ---- ovni ----
	gen_sized "$d/ov-valid" "$bytes" --what=ovni-trace --trace-len=@N@0
	row ovni valid-trace "$d/ov-valid"
	ref=$REF
	"$gen" --what=ovni-trace --trace-len=100 -o "$d/ov-base" >/dev/null
	gen_sized "$d/ov-tasks" "$bytes" --what=ovni-trace-runtime --trace-len=1000 --open-tasks=@N@00
	row ovni open-tasks "$d/ov-tasks" "$ref"
	rm -rf "$d/ov-tasks"
	python3 bench/hostile.py obs-many-streams "$bytes" "$d/ov-base" "$d/ov-streams"
	row ovni many-streams "$d/ov-streams" "$ref"
	rm -rf "$d/ov-streams"
	for shape in obs-same-clock obs-clock-backwards; do
		python3 bench/hostile.py "$shape" "$bytes" "$d/ov-valid" "$d/ov-$shape"
		row ovni "$shape" "$d/ov-$shape" "$ref"
		rm -rf "$d/ov-$shape"
	done
	python3 bench/hostile.py obs-unknown-events "$bytes" "$d/ov-base" "$d/ov-unknown"
	row ovni obs-unknown-events "$d/ov-unknown" "$ref"
	python3 bench/hostile.py json-valid-labels "$bytes" "$d/ov-base" "$d/ov-labels"
	row ovni valid-metadata "$d/ov-labels"
	ref=$REF
	for shape in json-deep-object json-deep-array json-wide-object json-long-string; do
		python3 bench/hostile.py "$shape" "$bytes" "$d/ov-base" "$d/ov-$shape"
		row ovni "$shape" "$d/ov-$shape" "$ref"
		rm -rf "$d/ov-$shape"
	done
	rm -rf "$d"/ov-*

	# ---- DUMPI ----
	gen_sized "$d/du-valid" "$bytes" --what=dumpi-trace --contexts=@N@0 --profiles=4
	row dumpi valid-trace "$d/du-valid"
	ref=$REF
	gen_sized "$d/du-inflight" "$bytes" --what=dumpi-trace --contexts=4 --in-flight=@N@0 --profiles=4
	row dumpi requests-in-flight "$d/du-inflight" "$ref"
	gen_sized "$d/du-unmatched" "$bytes" --what=dumpi-trace --contexts=4 --unmatched=@N@0 --profiles=4
	row dumpi unmatched-sends "$d/du-unmatched" "$ref"
	gen_sized "$d/du-requests" "$bytes" --what=dumpi-trace --contexts=4 --request-calls=@N@ --profiles=4
	row dumpi request-calls "$d/du-requests" "$ref"
	gen_sized "$d/du-ranks" "$bytes" --what=dumpi-trace --contexts=@N@ --profiles=63
	row dumpi 63-ranks "$d/du-ranks" "$ref"
	gen_sized "$d/du-notes" "$bytes" --what=dumpi-trace --contexts=4 --profiles=@N@
	python3 bench/hostile.py dumpi-rank-notes "$bytes" "$d/du-notes" "$d/du-notes-nocap"
	# certified before the change: `certify --verify` then finds every rank
	# file changed, a reason per file (the certified names and the names
	# read now are matched by sorting, not each against every other)
	"$hv" certify --format=json "$d/du-notes" >"$d/du-notes.cert.json"
	rm -rf "$d/du-notes"
	extra=("${NOCAPS[@]}")
	row dumpi rank-notes-nocaps "$d/du-notes-nocap" "$ref"
	extra=()
	cmd=("$hv" certify --verify "$d/du-notes.cert.json")
	row dumpi verify-ranks-changed "$d/du-notes-nocap" "$ref"
	cmd=()
	rm -rf "$d/du-notes-nocap" "$d/du-notes.cert.json"
	"$gen" --what=dumpi-trace --contexts=100 --profiles=4 -o "$d/du-base" >/dev/null
	for shape in meta-many-keys meta-long-line; do
		python3 bench/hostile.py "$shape" "$bytes" "$d/du-base" "$d/du-$shape"
		row dumpi "$shape" "$d/du-$shape" "$ref"
		rm -rf "$d/du-$shape"
	done
	rm -rf "$d"/du-*
done
