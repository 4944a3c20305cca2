#!/usr/bin/env bash
# The public C API: programs that include only <hpcvet.h> build and run
# against the shared and the static library, and the libraries export only
# hpcvet_* symbols.
source "$(dirname "$0")/lib.sh"

CCX=${CC:-cc}
FLAGS=(-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wvla)
# A sanitizer build's library needs the sanitizer runtimes in the program.
if is_san_build; then
	CCX=clang
	FLAGS+=(-fsanitize=address,undefined)
fi
# Only the public header is on the include path: a copy in an empty folder.
mkdir -p "$TMP/inc" && cp "$ROOT/validator/include/hpcvet.h" "$TMP/inc/"

check "shared library exists" test -e "$BUILD/libhpcvet.so"
exported=$(nm -D --defined-only "$BUILD/libhpcvet.so" | awk 'NF==3 {print $3}' | sort)
check "shared library exports something" test -n "$exported"
check "shared library exports only hpcvet_*" bash -c "! grep -v '^hpcvet_' <<<'$exported'"
declared=$(grep -oE '^HPCVET_API [^(]*\(' "$ROOT/validator/include/hpcvet.h" | grep -oE 'hpcvet_[a-z_]+\($' | tr -d '(' | sort)
check "exports are exactly the header's API" test "$exported" = "$declared"
check "soname libhpcvet.so.0" bash -c "objdump -p '$BUILD/libhpcvet.so' | grep -q 'SONAME *libhpcvet.so.0'"
static_syms=$(nm -g --defined-only "$BUILD/pub/libhpcvet.a" | awk 'NF==3 {print $3}' | sort)
check "static library defines only hpcvet_* globally" test "$static_syms" = "$declared"

"$GEN" --what=metadb -o "$TMP/good.db" && "$GEN" --what=metadb --break=metadb.hdr.footer -o "$TMP/bad.db" ||
	not_ok "generate inputs"
"$GEN" --what=hpctoolkit-db -o "$TMP/db" || not_ok "generate database"
"$GEN" --what=dumpi-trace -o "$TMP/dumpi" || not_ok "generate DUMPI trace"

check "example builds against the shared library" "$CCX" "${FLAGS[@]}" -I"$TMP/inc" "$ROOT/examples/validate.c" \
	-L"$BUILD" -lhpcvet -o "$TMP/validate"
export LD_LIBRARY_PATH="$BUILD"
expect_exit 0 "example: valid file" "$TMP/validate" "$TMP/good.db"
check "example: conforming line" grep -q "^$TMP/good.db: conforming (hpctoolkit meta.db" "$TMP/out"
expect_exit 1 "example: broken file" "$TMP/validate" "$TMP/bad.db"
check "example: diagnostic as the CLI reports it" grep -q "^$TMP/bad.db:0x[0-9a-f]*: error\[metadb.hdr.footer\]:" "$TMP/out"
expect_exit 3 "example: missing path" "$TMP/validate" "$TMP/nothing"
expect_exit 0 "example: database directory" "$TMP/validate" "$TMP/db"
# Same verdicts and diagnostics as the CLI.
"$TMP/validate" "$TMP/bad.db" | grep -o 'error\[[a-z.-]*\]' >"$TMP/ex.rules"
"$HPCVET" "$TMP/bad.db" | grep -o 'error\[[a-z.-]*\]' >"$TMP/cli.rules"
check "example and CLI agree" cmp -s "$TMP/ex.rules" "$TMP/cli.rules"

check "API smoke test builds (shared)" "$CCX" "${FLAGS[@]}" -I"$TMP/inc" "$ROOT/tests/api/api_smoke.c" -L"$BUILD" -lhpcvet -o "$TMP/smoke"
(cd "$TMP/db" && "$TMP/smoke" "$TMP/good.db" "$TMP/bad.db" *.db metrics/default.yaml -- "$TMP"/dumpi/*) >"$TMP/smoke.out" 2>&1
check "API smoke test passes (shared): $(tail -1 "$TMP/smoke.out")" grep -q '^[0-9]* passed, 0 failed$' "$TMP/smoke.out"
grep FAIL "$TMP/smoke.out"

# The text results, the dump and certificates: what the CLI prints for the same inputs.
check "API results test builds (shared)" "$CCX" "${FLAGS[@]}" -I"$TMP/inc" "$ROOT/tests/api/api_results.c" -L"$BUILD" -lhpcvet -o "$TMP/results"
mkdir -p "$TMP/res"
"$TMP/results" "$TMP/good.db" "$TMP/bad.db" "$TMP/db" "$TMP/res" >"$TMP/results.out" 2>&1
check "API results test passes (shared): $(tail -1 "$TMP/results.out")" grep -q '^[0-9]* passed, 0 failed$' "$TMP/results.out"
grep FAIL "$TMP/results.out"
"$HPCVET" --format=json "$TMP/bad.db" "$TMP/good.db" >"$TMP/cli.json"
check "hpcvet_reports_json is the CLI's JSON report" cmp -s "$TMP/cli.json" "$TMP/res/api.json"
"$HPCVET" --color=never --no-context "$TMP/bad.db" "$TMP/good.db" >"$TMP/cli.txt"
check "hpcvet_reports_text is the CLI's text report" cmp -s "$TMP/cli.txt" "$TMP/res/api.txt"
"$HPCVET" dump --format=json --select=file=bad "$TMP/bad.db" >"$TMP/cli.dump"
check "hpcvet_dump_path is the CLI's dump" cmp -s "$TMP/cli.dump" "$TMP/res/api.dump"
"$HPCVET" certify --format=json "$TMP/good.db" "$TMP/bad.db" >"$TMP/cli.cert"
check "hpcvet_certify_json is the CLI's certificate" cmp -s "$TMP/cli.cert" "$TMP/res/cert.json"
expect_exit 0 "the API's certificate verifies with the CLI" "$HPCVET" certify --verify "$TMP/res/good.cert.json"
unset LD_LIBRARY_PATH

check "API smoke test builds (static)" "$CCX" "${FLAGS[@]}" -I"$TMP/inc" "$ROOT/tests/api/api_smoke.c" \
	"$BUILD/pub/libhpcvet.a" -lcjson -lyaml -lm -o "$TMP/smoke-static"
(cd "$TMP/db" && "$TMP/smoke-static" "$TMP/good.db" "$TMP/bad.db" *.db metrics/default.yaml -- "$TMP"/dumpi/*) >"$TMP/smoke-static.out" 2>&1
check "API smoke test passes (static)" grep -q '^[0-9]* passed, 0 failed$' "$TMP/smoke-static.out"
check "API results test builds (static)" "$CCX" "${FLAGS[@]}" -I"$TMP/inc" "$ROOT/tests/api/api_results.c" \
	"$BUILD/pub/libhpcvet.a" -lcjson -lyaml -lm -o "$TMP/results-static"
mkdir -p "$TMP/res-static"
"$TMP/results-static" "$TMP/good.db" "$TMP/bad.db" "$TMP/db" "$TMP/res-static" >"$TMP/results-static.out" 2>&1
check "API results test passes (static)" grep -q '^[0-9]* passed, 0 failed$' "$TMP/results-static.out"
check "static program has no hv_ symbols to clash with" bash -c "! nm '$TMP/smoke-static' | grep -q ' [TD] hv_'"
# A program may define its own hv_report_init: the library's is hidden.
cat >"$TMP/clash.c" <<'CEOF'
#include <hpcvet.h>
#include <stdio.h>
int hv_report_init(void);
int hv_report_init(void) { return 42; }
int main(void) { printf("%d %s\n", hv_report_init(), hpcvet_version()); return 0; }
CEOF
check "internal names do not clash with a program's (static)" "$CCX" "${FLAGS[@]}" -I"$TMP/inc" "$TMP/clash.c" \
	"$BUILD/pub/libhpcvet.a" -lcjson -lyaml -lm -o "$TMP/clash"
check "the program's own function is called" bash -c "'$TMP/clash' | grep -q '^42 '"
if command -v c++ >/dev/null 2>&1; then
	printf '#include <hpcvet.h>\nint main() { return hpcvet_rule_count() > 0 ? 0 : 1; }\n' >"$TMP/cxx.cc"
	check "header works from C++" c++ -Wall -Werror -I"$TMP/inc" "$TMP/cxx.cc" -L"$BUILD" -lhpcvet -o "$TMP/cxx" $([ "$CCX" = clang ] && echo -fsanitize=address,undefined)
fi
done_testing
