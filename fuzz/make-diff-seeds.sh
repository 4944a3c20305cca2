#!/usr/bin/env bash
# Seeds of the differential targets (fuzz/fuzz_diff_*.c), derived from the
# family corpora that `make seeds` writes: each valid (y_*) and rule-breaking
# (n_*) seed with the control bytes the target reads first (unit or chunk
# size, threads, order, which units travel as bytes), the variants rotated
# over the seeds so every choice is seeded without multiplying the corpus.
# Big shapes (*_big) and campaign queues (q_*) are left out. Deterministic;
# run by fuzz/make-seeds.sh (make seeds) after the family corpora;
# existing crash_* reproducers are kept.
set -eu
cd "$(dirname "$0")/.."

seed() { # target, control bytes (printf escapes), source file
	local out="corpus/$1/$(basename "$(dirname "$3")")_$(basename "$3")"
	mkdir -p "corpus/$1"
	{ printf "$2"; cat "$3"; } >"$out"
}

sources() { # corpus directories...
	for d in "$@"; do ls corpus/"$d"/[yn]_* 2>/dev/null | grep -v '_big$' || true; done
}

# diff_units: unit size | threads<<4, order, remote-unit mask
units_ctl=('\x00\x00\x00' '\x10\x01\x55' '\x23\x07\xaa' '\x38\x33\x01' '\x0c\x01\x00' '\x2f\x09\xf0')
k=0
for f in $(sources set hpctk_db dumpi_trace ovni_trace); do
	seed diff_units "${units_ctl[k % ${#units_ctl[@]}]}" "$f"
	k=$((k + 1))
done

# diff_ovni_split: chunk size | threads<<4 | windowed<<6 | as bytes<<7, order
split_ctl=('\x00\x00' '\x10\x01' '\x62\x07' '\x35\x33' '\x80\x00' '\xc8\x05' '\x08\x02' '\xa7\x09')
k=0
for f in $(sources ovni_obs); do
	for v in 0 1 2 3; do
		seed diff_ovni_split "${split_ctl[(k + v * 2) % ${#split_ctl[@]}]}" "$f"
		mv "corpus/diff_ovni_split/ovni_obs_$(basename "$f")" "corpus/diff_ovni_split/ovni_obs_$(basename "$f")_$v"
	done
	k=$((k + 1))
done

# diff_ovni_replay: events per batch | (threads - 1)<<3 | (batches - 2)<<5,
# order; the trace trees of ovni_trace, and (with the generator and the
# packer built) a longer trace and two model rules broken, so batches of one
# event number in the thousands
replay_ctl=('\x00\x00' '\x19\x01' '\x6e\x07' '\x4b\x02' '\x0a\x00' '\x30\x01' '\x08\x05' '\x21\x03')
k=0
for f in $(sources ovni_trace); do
	seed diff_ovni_replay "${replay_ctl[k % ${#replay_ctl[@]}]}" "$f"
	k=$((k + 1))
done
BUILD=${BUILD:-build}
if [ -x "$BUILD/hpcvet-gen" ] && [ -x "$BUILD/fuzz/hpcvet-pack" ]; then
	rt=$(mktemp -d)
	gen_replay() { # name, control bytes, generator arguments...
		local name=$1 ctl=$2
		shift 2
		rm -rf "$rt/t"
		"$BUILD/hpcvet-gen" "$@" -o "$rt/t" >/dev/null 2>&1 && "$BUILD/fuzz/hpcvet-pack" "$rt/t" "$rt/p" >/dev/null 2>&1 &&
			{ printf "$ctl"; cat "$rt/p"; } >"corpus/diff_ovni_replay/$name"
	}
	for v in 0 1 2 3; do
		gen_replay "y_ovni-trace-len200_$v" "${replay_ctl[v]}" --what=ovni-trace --trace-len=200
	done
	gen_replay n_ovni.model.state-pop_ovni-trace '\x0a\x00' --what=ovni-trace --break=ovni.model.state-pop
	gen_replay n_ovni.model.cpu-shared_ovni-trace '\x30\x01' --what=ovni-trace --break=ovni.model.cpu-shared
	rm -rf "$rt"
fi

# diff_simd: the HPCToolkit database container as it is
mkdir -p corpus/diff_simd
for f in $(sources hpctk_db set); do
	case $(basename "$f") in *hpctoolkit*) cp "$f" "corpus/diff_simd/$(basename "$(dirname "$f")")_$(basename "$f")" ;; esac
done
# and the value seeds (other ctxId numberings, negative values, ctxIds out
# of order: the value walk's slow paths)
for f in corpus/hpctk_db/s_values_*; do
	[ -f "$f" ] || continue
	cp "$f" "corpus/diff_simd/hpctk_db_$(basename "$f")"
done

# diff_dump: one file (control bit 0 clear) or a directory (set)
for f in $(sources single dump); do seed diff_dump '\x00' "$f"; done
for f in $(sources set hpctk_db dumpi_trace ovni_trace); do seed diff_dump '\x01' "$f"; done

# certify: JSON certificates of small generated inputs (one, two, a
# nonconforming one), the per-rule list cut to three entries so a seed stays
# far below the target's max_len (the rest of a certificate is what
# certify --verify reads). Needs jq; relative paths keep the seeds the same
# on every run.
BUILD=${BUILD:-build}
if command -v jq >/dev/null && [ -x "$BUILD/hpcvet" ] && [ -x "$BUILD/hpcvet-gen" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	root=$PWD
	mkdir -p corpus/certify
	(
		cd "$tmp"
		"$root/$BUILD/hpcvet-gen" --what=metadb -o meta.db
		"$root/$BUILD/hpcvet-gen" --what=hpctoolkit-db --edition=draft -o db
		"$root/$BUILD/hpcvet-gen" --what=dumpi-trace -o dumpi
		"$root/$BUILD/hpcvet-gen" --what=metadb --break=metadb.hdr.magic -o broken.db
	) >/dev/null 2>&1 || true
	cert() { # name, inputs...
		local name=$1
		shift
		(cd "$tmp" && "$root/$BUILD/hpcvet" certify --format=json "$@" 2>/dev/null) |
			jq -c '.certificate.inputs[].rules |= .[0:3]' >"corpus/certify/$name" || rm -f "corpus/certify/$name"
	}
	cert y_cert_metadb meta.db
	cert y_cert_draft-db db
	cert y_cert_two-inputs meta.db dumpi
	cert y_cert_nonconforming broken.db
fi

# fault_*: two bytes picking the allocation to fail (target_family.h,
# FUZZ_FAULTS), over the family's valid and rule-breaking seeds of at most
# 64 KiB (a fault target checks each input twice), at most 8 of each a target.
fault_ctl=('\x00\x00' '\x01\x00' '\x07\x00' '\x2a\x00' '\xff\x00' '\x00\x01' '\x99\x03' '\xff\xff')
for fam in hpctk_db ovni_trace dumpi_trace; do
	for kind in y n; do
		k=0
		for f in $(ls corpus/"$fam"/"$kind"_* 2>/dev/null | grep -v '_big$' || true); do
			[ "$(wc -c <"$f")" -le 65536 ] || continue
			seed "fault_$fam" "${fault_ctl[k % ${#fault_ctl[@]}]}" "$f"
			k=$((k + 1))
			[ "$k" -lt 8 ] || break
		done
	done
done
