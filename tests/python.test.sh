#!/usr/bin/env bash
# The Python package (python/hpcvet) through pytest (tests/python/), against
# this build's library: each pytest test counts as one in the closing line,
# a skipped one (real samples absent, no pandas, no jupyter) as a skip with
# its reason. A sanitizer build's library is loaded into Python with the
# ASan runtime preloaded (the interpreter itself is not instrumented).
source "$(dirname "$0")/lib.sh"

py=""
for c in ${PYTHON:-} python3 /usr/bin/python3; do
	if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import pytest' 2>/dev/null; then
		py=$c
		break
	fi
done
if [ -z "$py" ]; then
	skip "no python3 with pytest (Debian: python3-pytest)"
	done_testing
	exit
fi

export HPCVET_BUILD_DIR="$BUILD" HPCVET_LIBRARY="$BUILD/libhpcvet.so.0" HV_SHARED="$SHARED" PYTHONDONTWRITEBYTECODE=1
san_env=()
if is_san_build; then
	rt=$(clang -print-file-name=libclang_rt.asan-x86_64.so 2>/dev/null)
	if [ ! -f "$rt" ]; then
		skip "sanitizer build: the ASan runtime (libclang_rt.asan-x86_64.so) is not found to preload into python3"
		done_testing
		exit
	fi
	# Python's own allocations outlive it by design: no leak report; RSS
	# tests skip (ASan's quarantine, not the library, decides RSS there).
	san_env=(LD_PRELOAD="$rt" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 HPCVET_TEST_SANITIZED=1)
fi
env "${san_env[@]}" "$py" -m pytest -p no:cacheprovider -q -rs --basetemp="$TMP/pytest" \
	--junitxml="$TMP/junit.xml" "$ROOT/tests/python" >"$TMP/pytest.log" 2>&1
rc=$?
if [ ! -s "$TMP/junit.xml" ]; then
	not_ok "pytest ran no test (exit $rc)"
	tail -n 30 "$TMP/pytest.log"
	done_testing
	exit
fi
# One line per test: PASS, FAIL NAME, or SKIP REASON.
"$py" - "$TMP/junit.xml" >"$TMP/results" <<'PYEOF'
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    name = f"{case.get('classname')}::{case.get('name')}"
    if case.find("failure") is not None or case.find("error") is not None:
        print(f"FAIL {name}")
    elif case.find("skipped") is not None:
        why = case.find("skipped").get("message", "").replace("\n", " ")
        print(f"SKIP {name}: {why}")
    else:
        print("PASS")
PYEOF
while read -r kind rest; do
	case $kind in
	PASS) ok ;;
	FAIL) not_ok "$rest" ;;
	SKIP) skip "$rest" ;;
	esac
done <"$TMP/results"
if [ "$failed" -gt 0 ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; }; then
	grep -v '^\.*$' "$TMP/pytest.log" | tail -n 60
	[ "$failed" -gt 0 ] || not_ok "pytest exited $rc"
fi
done_testing
