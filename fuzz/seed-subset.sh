#!/usr/bin/env bash
# The seeds a smoke starts from: at most MAX files of corpus/TARGET for each
# TARGET, every k-th in name order (the same files every run), copied into
# DEST/TARGET. Both smokes (fuzz/smoke.sh, fuzz/afl-smoke.sh) start from the
# same subset; every seed still replays under ASan+UBSan in
# tests/fuzz_regress.test.sh.
#
# usage: fuzz/seed-subset.sh MAX DEST TARGET...
set -euo pipefail
max=$1 dest=$2
shift 2
rm -rf "$dest"
for t in "$@"; do
	mkdir -p "$dest/$t"
	n=$(find "corpus/$t" -maxdepth 1 -type f | wc -l)
	k=$(((n + max - 1) / max))
	[ "$k" -ge 1 ] || k=1
	find "corpus/$t" -maxdepth 1 -type f -printf '%f\n' | LC_ALL=C sort | awk -v k="$k" '(NR - 1) % k == 0' |
		while read -r f; do cp "corpus/$t/$f" "$dest/$t/"; done
done
