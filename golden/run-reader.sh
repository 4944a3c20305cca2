#!/usr/bin/env bash
# Reader conformance: runs a reader command over the conformance corpus with
# the JSONTestSuite contract and prints what it got wrong.
#
#   golden/run-reader.sh [--timeout=SEC] [--cases=DIR] [--only=REGEX] [-v] CMD [ARG...]
#
# For every case of DIR/MANIFEST.json (default: golden/cases beside this
# script) runs `CMD ARG... /absolute/path/of/the/case` and reads its exit
# status: 0 = the reader accepted the input, 1 = it rejected it, a timeout
# (default 10 s) = a hang, anything else (another code, a signal) = a crash.
# y_ cases must be accepted, n_ cases rejected; i_ cases are left open by the
# spec, so either answer is fine (the table shows where the reader differs
# from hpcvet's decision). Exit status: 0 when the reader has no
# SHOULD_HAVE_PASSED, SHOULD_HAVE_FAILED, crash or hang; 1 otherwise; 2 on a
# usage error.
#
# --content: content conformance instead. For every y_ case listing a content
# file (its decoded values, hpcvet dump --format=json) the reader prints what
# it decoded as JSON in that shape ({"files": [{"name", "items": [...]}]},
# any subset of item kinds and keys; examples/content_reader_ovni.py is an
# adapter) and golden/content_diff.py compares: every expected item of each
# kind the reader printed must be there with the same values. Prints
# CONTENT_DIFFERS per case with the first differences; exit 0 when none.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
cases="$here/cases"
timeout_s=10
only=""
verbose=false
content=false
while [ $# -gt 0 ]; do
	case $1 in
	--timeout=*) timeout_s=${1#*=} ;;
	--cases=*) cases=${1#*=} ;;
	--only=*) only=${1#*=} ;;
	-v) verbose=true ;;
	--content) content=true ;;
	--) shift; break ;;
	-*) echo "run-reader: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
if [ $# -eq 0 ]; then
	echo "usage: run-reader.sh [--timeout=SEC] [--cases=DIR] [--only=REGEX] [--content] [-v] CMD [ARG...]" >&2
	exit 2
fi
command -v jq >/dev/null || { echo "run-reader: needs jq" >&2; exit 2; }
[ -f "$cases/MANIFEST.json" ] || { echo "run-reader: no $cases/MANIFEST.json" >&2; exit 2; }
cases=$(cd "$cases" && pwd)

if $content; then
	command -v python3 >/dev/null || { echo "run-reader: --content needs python3" >&2; exit 2; }
	out=$(mktemp)
	trap 'rm -f "$out"' EXIT
	total=0 differ=0 failed=0
	while IFS=$'\t' read -r path expected; do
		if [ -n "$only" ] && ! [[ $path =~ $only ]]; then continue; fi
		total=$((total + 1))
		timeout -k 2 "$timeout_s" "$@" "$cases/$path" </dev/null >"$out" 2>/dev/null
		rc=$?
		if [ $rc -ne 0 ]; then
			failed=$((failed + 1))
			printf '%-22s %s\n' "READER_FAILED (exit $rc)" "$path"
			continue
		fi
		if ! res=$(python3 "$here/content_diff.py" "$cases/$expected" "$path" "$out" "$cases/$path"); then
			differ=$((differ + 1))
			printf '%-22s %s\n' CONTENT_DIFFERS "$path"
			head -5 <<<"$res" | sed 's/^/    /'
		elif $verbose; then
			printf '%-22s %s (%s)\n' "ok" "$path" "$(tail -1 <<<"$res")"
		fi
	done < <(jq -r '.cases[] | select(has("content")) | [.path, .content] | @tsv' "$cases/MANIFEST.json")
	echo "$total cases with content: CONTENT_DIFFERS $differ, reader failed $failed"
	[ $((differ + failed)) -eq 0 ]
	exit
fi

declare -A count
for k in y n i; do for o in accept reject crash hang; do count[$k.$o]=0; done; done
should_pass=0 should_fail=0 crashes=0 hangs=0 i_differ=0 total=0

while IFS=$'\t' read -r kind path verdict; do
	name=${path##*/}
	if [ -n "$only" ] && ! [[ $path =~ $only ]]; then continue; fi
	total=$((total + 1))
	timeout -k 2 "$timeout_s" "$@" "$cases/$path" </dev/null >/dev/null 2>&1
	rc=$?
	case $rc in
	0) got=accept ;;
	1) got=reject ;;
	124 | 137) got=hang ;;
	*) got=crash ;;
	esac
	count[$kind.$got]=$((${count[$kind.$got]} + 1))
	line=""
	case $kind.$got in
	y.reject) should_pass=$((should_pass + 1)) line="SHOULD_HAVE_PASSED" ;;
	n.accept) should_fail=$((should_fail + 1)) line="SHOULD_HAVE_FAILED" ;;
	*.crash) crashes=$((crashes + 1)) line="CRASH (exit $rc)" ;;
	*.hang) hangs=$((hangs + 1)) line="HANG (over ${timeout_s}s)" ;;
	i.*) if [ "$got" != "$verdict" ]; then
		i_differ=$((i_differ + 1))
		$verbose && line="i_ ${got}ed (hpcvet: $verdict)"
	fi ;;
	esac
	[ -n "$line" ] && printf '%-22s %s\n' "$line" "$path"
	$verbose && [ -z "$line" ] && printf '%-22s %s\n' "ok ($got)" "$path"
done < <(jq -r '.cases[] | [.kind, .path, .verdict] | @tsv' "$cases/MANIFEST.json")

printf '\n%-6s %9s %9s %9s %9s\n' "" accepted rejected crashed hung
for k in y n i; do
	printf '%-6s %9d %9d %9d %9d\n' "${k}_" "${count[$k.accept]}" "${count[$k.reject]}" "${count[$k.crash]}" "${count[$k.hang]}"
done
echo
echo "$total cases: SHOULD_HAVE_PASSED $should_pass, SHOULD_HAVE_FAILED $should_fail, crashes $crashes, hangs $hangs" \
	"(i_ answered unlike hpcvet: $i_differ)"
[ $((should_pass + should_fail + crashes + hangs)) -eq 0 ]
