# HPCToolkit databases as wide as hpcprof writes them (`make bench-width
# FAMILIES=hpctoolkit`): sourced by bench/width.sh, whose measure_runs() (bench/lib.sh), $gen, $hv,
# $runs, $widths and $dir it uses. One database per width in HPCTK_WIDTHS profiles
# (default "64 1024 16384 65536"), each thread profile of the same shape: the
# same CONTEXTS contexts (default 40), METRICS metrics (default 3: a few
# hundred non-zero values a profile, as hpcprof writes for a thread of a
# 10,000-rank x 16-thread run) and TRACE_LEN trace samples (default 16),
# plus the summary profile; so the values per profile, and with them the
# work per profile, are the same at every width. For each width: `cat` of the
# files, `hpcvet -q -j1` and `-j2`. A row gives the CPU time (median of
# RUNS), the CPU per profile and per value (profile.db's values, the summary's
# included), its ratio to `cat`'s CPU, the peak RSS and the exit code.
#
# The databases are kept in BENCH_DIR when set and reused when their
# parameters match: 65,536 profiles are ~470 MB, 1,048,576 ~7.5 GB.
contexts=${CONTEXTS:-40}
metrics=${METRICS:-3}
trace_len=${TRACE_LEN:-16}
shape="$contexts $metrics $trace_len"

# database W: the database of W thread profiles (generated unless kept), printed.
database() {
	local w=$1 out=$dir/hpctk-width-$1
	if [ -e "$out" ] && [ "$(cat "$out.param" 2>/dev/null)" = "$shape" ]; then
		echo "$out"
		return
	fi
	rm -rf "$out"
	"$gen" --what=hpctoolkit-db --profiles="$w" --contexts="$contexts" --metrics="$metrics" \
		--trace-len="$trace_len" -o "$out" >&2
	# profile.db's values: the sum of nValues over its Profile Info array
	python3 - "$out/profile.db" >"$out.values" <<'PY'
import struct, sys
with open(sys.argv[1], "rb") as f:
    hdr = f.read(0x20)
    _, p_sec = struct.unpack_from("<QQ", hdr, 0x10)
    f.seek(p_sec)
    p_arr, n, sz = struct.unpack("<QIB", f.read(13))
    f.seek(p_arr)
    arr = f.read(n * sz)
print(sum(struct.unpack_from("<Q", arr, i * sz)[0] for i in range(n)))
PY
	echo "$shape" >"$out.param"
	sync
	echo "$out"
}

printf '# %s contexts, %s metrics, %s samples per profile; CPU: median of %s runs; load %s\n' \
	"$contexts" "$metrics" "$trace_len" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %9s %11s %-12s %8s %11s %9s %7s %9s %4s\n' profiles MiB values command "CPU s" "ns/profile" "ns/value" "x cat" "RSS MiB" exit
for w in $widths; do
	in=$(database "$w")
	bytes=$(bytes_of "$in")
	nval=$(cat "$in.values")
	measure_cat "$dir/log" "$in"
	row() {
		printf '%-8s %9s %11s %-12s %8.3f %11.0f %9.1f %7s %9s %4s\n' "$w" "$(mib "$bytes")" "$nval" "$1" "$CPU" \
			"$(ns_per "$CPU" "$w")" \
			"$(ns_per "$CPU" "$nval")" \
			"$(x_cat "$CPU")" "$RSS" "$EXIT"
	}
	row cat
	measure_runs "$dir/log" "$hv" -q -j1 "$in"
	row "hpcvet -j1"
	measure_runs "$dir/log" "$hv" -q -j2 "$in"
	row "hpcvet -j2"
done
