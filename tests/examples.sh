#!/usr/bin/env bash
# examples.sh check|update BUILD [FILE...]: the program output shown in the
# docs comes from real runs. An example is a marker followed by a block:
#   Markdown (README.md, CONTRIBUTING.md):   <!-- example: CMD -->  then a ``` fenced block
#   roff (docs/*.1):                         .\" example: CMD       then .EX ... .EE
# CMD runs with bash in a scratch folder holding the inputs made below (by
# hpcvet-gen: deterministic), with BUILD's hpcvet and hpcvet-gen first on
# PATH; the block is its standard output and error. `update` rewrites the
# blocks (make docs); `check` fails with a diff when one is not current
# (tests/examples.test.sh).
set -euo pipefail
mode=$1
build=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
case "$build" in /*) ;; *) build="$root/$build" ;; esac
[ $# -gt 0 ] || set -- README.md CONTRIBUTING.md docs/hpcvet.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The inputs the examples name. Add one here when an example needs it.
mkdir -p "$tmp/bin" "$tmp/w/broken.d" "$tmp/w/small.d"
ln -s "$build/hpcvet" "$build/hpcvet-gen" "$tmp/bin/"
export PATH="$tmp/bin:$PATH" NO_COLOR= LC_ALL=C
(
	cd "$tmp/w"
	hpcvet-gen --what=hpctoolkit-db -o db
	hpcvet-gen --what=hpctoolkit-db --break=hpctkdb.cct.transpose -o bad.d
	hpcvet-gen --what=metadb --break=metadb.ctx.children-contained -o broken.d/meta.db
	hpcvet-gen --what=metadb --break=metadb.hdr.magic -o small.d/meta.db
	hpcvet-gen --what=ovni-trace -o trace-dir
	hpcvet-gen --what=dumpi-trace -o dumpi-dir
) >/dev/null

# roff: a backslash is \e, a minus \-, a line starting with . or ' is escaped.
roff_escape() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

run_example() { # CMD: its output, with the scratch folder's path written as "."
	(cd "$tmp/w" && bash -c "$1" 2>&1 || true) | sed -e "s|$tmp/w/||g" -e "s|$tmp/w|.|g"
}

# Writes FILE with every example block regenerated to stdout.
regenerate() { # FILE
	local file=$1 line cmd kind closer
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		cmd=
		if [[ $line =~ ^'<!-- example: '(.*)' -->'$ ]]; then
			cmd=${BASH_REMATCH[1]} kind=md closer='```'
		elif [[ $line =~ ^'.\" example: '(.*)$ ]]; then
			cmd=${BASH_REMATCH[1]} kind=roff closer=.EE
		fi
		[ -n "$cmd" ] || continue
		IFS= read -r line || { echo "$file: example '$cmd' has no block" >&2; return 1; }
		case "$kind:$line" in
		md:'```'*|roff:.EX) ;;
		*) echo "$file: example '$cmd' is not followed by a block" >&2; return 1 ;;
		esac
		printf '%s\n' "$line"
		while IFS= read -r line && [ "$line" != "$closer" ]; do :; done
		[ "$line" = "$closer" ] || { echo "$file: example '$cmd': block not closed" >&2; return 1; }
		if [ $kind = roff ]; then run_example "$cmd" | roff_escape; else run_example "$cmd"; fi
		printf '%s\n' "$closer"
	done <"$file"
}

status=0
for f in "$@"; do
	case "$f" in /*) path=$f ;; *) path=$root/$f ;; esac
	[ -f "$path" ] || { echo "examples: no file $f" >&2; status=1; continue; }
	regenerate "$path" >"$tmp/new" || { status=1; continue; }
	if [ "$mode" = update ]; then
		cmp -s "$tmp/new" "$path" || { cat "$tmp/new" >"$path"; echo "examples: rewrote $f"; }
	elif ! diff -u --label "$f (in the repository)" --label "$f (from real runs)" "$path" "$tmp/new"; then
		echo "$f: an example's output is not what the program prints (run 'make docs')" >&2
		status=1
	fi
done
exit $status
