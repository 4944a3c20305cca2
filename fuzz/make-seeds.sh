#!/usr/bin/env bash
# Regenerate corpus/single and corpus/set from hpcvet-gen: every kind in both
# editions (valid), and every rule's breaking case. Deterministic (fixed seeds).
set -eu
BUILD=${1:-build}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p corpus/single corpus/set
emit() { # name, hpcvet-gen args...
	local name=$1
	shift
	rm -rf "$tmp/o"
	"$BUILD/hpcvet-gen" "$@" -o "$tmp/o" 2>/dev/null || return 0
	if [ -d "$tmp/o" ]; then
		"$BUILD/fuzz/hpcvet-pack" "$tmp/o" "corpus/set/$name"
	else
		cp "$tmp/o" "corpus/single/$name"
	fi
}
for what in $("$BUILD/hpcvet-gen" --list); do
	for ed in release draft; do
		emit "y_${what}_${ed}" --what="$what" --edition="$ed" --contexts=20 --depth=5
		emit "y_${what}_${ed}_minor1" --what="$what" --edition="$ed" --minor=1 --contexts=20 --depth=5
	done
	for rule in $("$BUILD/hpcvet" rules | awk '{print $1}'); do
		for ed in release draft; do
			emit "n_${rule}_${what}_${ed}" --what="$what" --edition="$ed" --break="$rule"
		done
	done
done
echo "corpus/single: $(ls corpus/single | wc -l) files, corpus/set: $(ls corpus/set | wc -l) files"
