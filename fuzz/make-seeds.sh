#!/usr/bin/env bash
# Regenerate the seed corpora corpus/<target>/ from hpcvet-gen: every kind
# valid (both HPCToolkit editions, minor 0 and 1) and every rule's breaking
# case, at small shapes so the checked-in corpus stays compact and the
# make-test replay fast. Deterministic (fixed seeds). Existing files are kept:
# crash reproducers (crash_*) live beside the seeds and are never regenerated.
set -eu
BUILD=${1:-build}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SMALL="--contexts=6 --depth=3 --metrics=2 --modules=2 --files=2 --functions=3 --profiles=2 --trace-len=6"

target_of() { # generator kind -> fuzz target
	case $1 in
	metadb | profiledb | cctdb | tracedb) echo "$1" ;;
	hpctoolkit-db) echo hpctk_db ;;
	ovni-stream) echo ovni_obs ;;
	ovni-json) echo ovni_json ;;
	ovni-trace*) echo ovni_trace ;;
	dumpi-bin*) echo dumpi_bin ;;
	dumpi-trace) echo dumpi_trace ;;
	*) echo single ;;
	esac
}

emit() { # kind, name, hpcvet-gen args...
	local what=$1 name=$2 t
	shift 2
	t=$(target_of "$what")
	rm -rf "$tmp/o"
	# The small shape first; a break the small shape cannot hold (an MPI
	# mismatch needs the generator's whole program) at the kind's own shape.
	if ! "$BUILD/hpcvet-gen" --what="$what" "$@" -o "$tmp/o" 2>/dev/null; then
		[ "${*: -1}" = "${SMALL##* }" ] || return 0
		rm -rf "$tmp/o"
		local args=()
		for a in "$@"; do case " $SMALL " in *" $a "*) ;; *) args+=("$a") ;; esac; done
		"$BUILD/hpcvet-gen" --what="$what" "${args[@]}" -o "$tmp/o" 2>/dev/null || return 0
	fi
	mkdir -p "corpus/$t"
	if [ -d "$tmp/o" ]; then
		"$BUILD/fuzz/hpcvet-pack" "$tmp/o" "corpus/$t/$name"
		case $name in y_*_release) cp "corpus/$t/$name" "corpus/set/$name" ;; esac
		# The DUMPI .meta has its own target: take it out of the trace.
		for m in "$tmp"/o/*.meta; do [ -f "$m" ] && mkdir -p corpus/dumpi_meta && cp "$m" "corpus/dumpi_meta/$name"; done
	else
		cp "$tmp/o" "corpus/$t/$name"
		case $name in y_*_release) cp "$tmp/o" "corpus/single/$name" ;; esac
		# hpcvet dump: every valid kind, and broken ones (dumps stop and mark).
		case $name in y_*_release | n_*_dumpi-bin | n_*_ovni-stream) mkdir -p corpus/dump && cp "$tmp/o" "corpus/dump/$name" ;; esac
	fi
	return 0
}

mkdir -p corpus/single corpus/set
rules=$("$BUILD/hpcvet" rules | awk '{print $1}')
for what in $("$BUILD/hpcvet-gen" --list); do
	for ed in release draft; do
		emit "$what" "y_${what}_${ed}" --edition="$ed" $SMALL
		emit "$what" "y_${what}_${ed}_minor1" --edition="$ed" --minor=1 $SMALL
	done
	emit "$what" "y_${what}_big" --contexts=60 --depth=8
	for rule in $rules; do
		emit "$what" "n_${rule}_${what}" --break="$rule" $SMALL
	done
done
# The MPI libraries' habits and calls libdumpi does not record.
for h in "--mpi=mpich" "--mpi=openmpi" "--mpi=mpich --unrecorded" "--unrecorded"; do
	# shellcheck disable=SC2086
	emit dumpi-trace "y_dumpi-trace_$(echo $h | tr -d ' -=')" $h --contexts=60 --profiles=3
done
# Generated seeds over 200 KB slow every replay and exceed -max_len: drop
# them. Only the generator's own names (y_*, n_*): the hand-made inputs beside
# them (s_*, slow_*, crash_*, fuzzer finds) are kept whatever their size.
find corpus -type f -size +200k \( -name "y_*" -o -name "n_*" \) -delete
# Identical seeds add nothing: keep one of each content per target.
# The differential targets and certify: derived from the corpora above.
BUILD="$BUILD" bash fuzz/make-diff-seeds.sh
for d in corpus/*/; do
	(cd "$d" && sha1sum -- * | sort | awk 'seen[$1]++ {print $2}' | xargs -r rm -f --)
done
du -sh corpus
for d in corpus/*/; do echo "$d: $(ls "$d" | wc -l) files"; done
