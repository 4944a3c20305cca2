#!/usr/bin/env bash
# Coverage the structure-aware mutator adds over byte-level mutation alone:
# for each target, fuzz_NAME (custom mutator) and bytes_NAME (libFuzzer's
# byte-level mutations only) run side by side with the same seeds (corpus/),
# dictionary, seed and time budget. Prints the final edges (cov) and features
# (ft) of each.   usage: fuzz/measure-mutator.sh SECONDS TARGET...
set -eu
cd "$(dirname "$0")/.."
secs=$1
shift
out=build-fuzz/measure
printf '%-12s %8s %8s %10s | %8s %8s %10s\n' target cov ft execs bytes-cov bytes-ft execs
for t in "$@"; do
	make -s build-fuzz/lf/fuzz_$t build-fuzz/lf/bytes_$t >/dev/null
	for v in fuzz bytes; do
		rm -rf "$out/$t-$v" && mkdir -p "$out/$t-$v"
		build-fuzz/lf/${v}_$t -seed=1 -dict=fuzz/dict/$t.dict -max_total_time="$secs" -rss_limit_mb=512 -timeout=2 \
			-max_len=262144 -print_final_stats=1 -artifact_prefix="$out/$t-$v/" "$out/$t-$v" corpus/$t \
			>"$out/$t-$v.log" 2>&1 &
	done
	wait
	row() { # the last status line's cov and ft, and the execution count
		local l
		l=$(grep -E '^#[0-9]+' "$out/$t-$1.log" | tail -1)
		printf '%8s %8s %10s' "$(sed -E 's/.*cov: ([0-9]+).*/\1/' <<<"$l")" "$(sed -E 's/.*ft: ([0-9]+).*/\1/' <<<"$l")" \
			"$(grep -m1 stat::number_of_executed_units "$out/$t-$1.log" | awk '{print $2}')"
	}
	printf '%-12s %s | %s\n' "$t" "$(row fuzz)" "$(row bytes)"
done
