#!/usr/bin/env bash
# Sums fuzz/campaigns.tsv (one line per finished campaign run, written by
# fuzz/campaign.sh) into the per-target table of fuzz/README.md: CPU-hours
# per engine, executions and their rate per CPU-second, the coverage the
# latest run reached (libFuzzer: edges/features; AFL++: edges of the
# instrumented total), the queue size, the findings and the dates (UTC) of
# the first and the last run; and the CPU-hours per engine of the runs on
# today's code (dated CURRENT or later: the code with the semantic layers,
# units, wide paths, dump and certify, which the earlier runs never saw).
# CURRENT_FOR lists targets whose current code starts later, as
# TARGET=TIMESTAMP (UTC, as the file writes it): diff_ovni_replay compared
# the one-thread replay with the pipeline before 2026-11-27T02:25:00Z, with
# the split replay since; dumpi_trace and ovni_trace run today's code (the DUMPI
# MPI layer's partial record and compact ranks, ovni payload judgement) with
# containers of up to 256 files from 2026-11-28T14:47:00Z;
# ovni_json and dumpi_meta ran with 1 MiB inputs, the growing text mutation and
# slow units reported from 2026-11-28T13:07:00Z, hpctk_db with the taxonomy
# as hpcviewer and hatchet read it (and the nesting bound) from 2026-11-28T14:10:00Z,
# diff_simd comparing one-slot value groups too from 2026-11-28T15:45:00Z.
#   usage: [CURRENT=YYYY-MM-DD] [CURRENT_FOR="T=TS ..."] fuzz/campaign-table.sh [campaigns.tsv]
set -eu
cd "$(dirname "$0")/.."
awk -F'\t' -v current="${CURRENT:-2026-11-26}" -v current_for="${CURRENT_FOR:-diff_ovni_replay=2026-11-27T02:25:00Z dumpi_trace=2026-11-28T14:47:00Z ovni_trace=2026-11-28T14:47:00Z ovni_json=2026-11-28T13:07:00Z dumpi_meta=2026-11-28T13:07:00Z hpctk_db=2026-11-28T14:10:00Z diff_simd=2026-11-28T15:45:00Z}" '
BEGIN {
	nf = split(current_for, cf, " ")
	for (i = 1; i <= nf; i++) { split(cf[i], kv, "="); since[kv[1]] = kv[2] }
}
NR == 1 { next }
{
	t = $3; e = ($2 == "afl++") ? "a" : "l"
	if (!(t in seen)) { seen[t] = 1; order[++n] = t }
	cpu[t, e] += $5; ex[t, e] += $6; runs[t, e]++
	cr[t] += $12; hg[t] += $13
	d = substr($1, 1, 10)
	if (t in since ? $1 >= since[t] : d >= current) cur[t, e] += $5
	if (!(t in first) || d < first[t]) first[t] = d
	if (!(t in last) || d > last[t]) last[t] = d
	if (all_first == "" || d < all_first) all_first = d
	if (d > all_last) all_last = d
	if (e == "l") { lcov[t] = $8; lft[t] = $9; lq[t] = $10 }
	else { acov[t] = $8; aq[t] = $10; split($14, w, "edges of "); split(w[2], w2, " "); atot[t] = w2[1] }
}
function h(s) { return sprintf("%.2f", s / 3600) }
function rate(e, s) { return s > 0 ? sprintf("%.0f", e / s) : "-" }
END {
	print "| target | libFuzzer CPU-h (runs) | AFL++ CPU-h (runs) | total CPU-h | on the current code: libFuzzer / AFL++ CPU-h | libFuzzer execs (per CPU-s) | AFL++ execs (per CPU-s) | libFuzzer cov / ft / queue | AFL++ edges / queue | crashes | hangs | runs dated |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		t = order[i]
		printf "| %s | %s (%d) | %s (%d) | **%s** | %s / %s | %d (%s) | %d (%s) | %s / %s / %s | %s%s / %s | %d | %d | %s |\n", t,
			h(cpu[t, "l"]), runs[t, "l"], h(cpu[t, "a"]), runs[t, "a"], h(cpu[t, "l"] + cpu[t, "a"]), h(cur[t, "l"]), h(cur[t, "a"]),
			ex[t, "l"], rate(ex[t, "l"], cpu[t, "l"]), ex[t, "a"], rate(ex[t, "a"], cpu[t, "a"]),
			(t in lcov) ? lcov[t] : "-", (t in lft) ? lft[t] : "-", (t in lq) ? lq[t] : "-",
			(t in acov) ? acov[t] : "-", (t in atot && atot[t] != "") ? " of " atot[t] : "", (t in aq) ? aq[t] : "-",
			cr[t], hg[t], (first[t] == last[t]) ? first[t] : first[t] " to " last[t]
		tl += cpu[t, "l"]; ta += cpu[t, "a"]; tc += cr[t]; th += hg[t]; cl += cur[t, "l"]; ca += cur[t, "a"]
	}
	printf "| all | %s | %s | **%s** | %s / %s | | | | | %d | %d | %s |\n", h(tl), h(ta), h(tl + ta), h(cl), h(ca), tc, th,
		(all_first == all_last) ? all_first : all_first " to " all_last
}' "${1:-fuzz/campaigns.tsv}"
