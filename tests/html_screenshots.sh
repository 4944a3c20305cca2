#!/usr/bin/env bash
# The README's pictures of the HTML report (docs/html-report*.png), taken by
# the test browser (headless Chromium through tests/html_report.py):
#   bash tests/html_screenshots.sh [BUILD_DIR]
# 1. a 48-rank DUMPI trace whose u16 seconds wrap (findings on every rank):
#    the input, its pictures and the list;
# 2. a broken HPCToolkit database of the corpus with a row picked: its
#    bytes and its rule's explanation.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/hpcvet-gen" --what=dumpi-trace --pattern=stencil3d --profiles=48 --trace-len=400000 -o "$tmp/stencil-48.d" >/dev/null
(cd "$tmp" && "$OLDPWD/$build/hpcvet" --max-per-rule=0 --max-diagnostics=2000 --format=html stencil-48.d >dumpi.html) || true
cp -r golden/cases/hpctoolkit/n_hpctkdb.ctx.unknown_01.d "$tmp/database.d"
(cd "$tmp" && "$OLDPWD/$build/hpcvet" --max-per-rule=0 --format=html database.d >hpctk.html) || true
/usr/bin/python3 tests/html_report.py --screenshot docs/html-report.png "$tmp/dumpi.html"
/usr/bin/python3 tests/html_report.py --screenshot docs/html-report-row.png "$tmp/hpctk.html" row
echo "docs/html-report.png docs/html-report-row.png"
