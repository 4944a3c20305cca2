#!/usr/bin/env bash
# `make install` into a temporary prefix (and staged with DESTDIR); the
# example program builds against the installed copy through pkg-config; the
# man page renders.
source "$(dirname "$0")/lib.sh"

# The nested make must not talk to the outer make's job server.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" "${MKSAN[@]}" "$@"; }
CCX=${CC:-cc}
SANFLAGS=()
# A sanitizer build is installed with its own flags (else `all` would link
# hpcvet-mpi with mpicc against sanitized objects).
MKSAN=()
if is_san_build; then
	CCX=clang
	SANFLAGS=(-fsanitize=address,undefined)
	MKSAN=(SAN=1 CC=clang)
fi

# 1. DESTDIR staging: files land under DESTDIR/PREFIX, the .pc names PREFIX.
check "make install DESTDIR" mk install PREFIX=/opt/hpcvet DESTDIR="$TMP/stage" >"$TMP/install.log" 2>&1 || cat "$TMP/install.log"
S="$TMP/stage/opt/hpcvet"
for f in bin/hpcvet bin/hpcvet-gen lib/libhpcvet.so lib/libhpcvet.so.0 lib/libhpcvet.a include/hpcvet.h \
	share/man/man1/hpcvet.1 share/man/man1/hpcvet-mpi.1 lib/pkgconfig/hpcvet.pc \
	lib/python3/dist-packages/hpcvet/__init__.py lib/python3/dist-packages/hpcvet/_install.py; do
	check "staged $f" test -e "$S/$f"
done
check "staged .pc names the final prefix" grep -qx 'prefix=/opt/hpcvet' "$S/lib/pkgconfig/hpcvet.pc"
check "staged Python package names the final LIBDIR" grep -qx 'LIBDIR = "/opt/hpcvet/lib"' \
	"$S/lib/python3/dist-packages/hpcvet/_install.py"
check "nothing outside DESTDIR/PREFIX" test "$(cd "$TMP/stage" && ls)" = opt

# 2. A real prefix: pkg-config finds it and the example builds and runs.
P="$TMP/prefix"
check "make install PREFIX" mk install PREFIX="$P" >"$TMP/install2.log" 2>&1 || cat "$TMP/install2.log"
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
check "pkg-config knows hpcvet" pkg-config --exists hpcvet
check "pkg-config version" test "$(pkg-config --modversion hpcvet)" = "$("$P/bin/hpcvet" --version | awk '{print $2}')"
check "pkg-config cflags: only the include dir" test "$(pkg-config --cflags hpcvet | xargs)" = "-I$P/include"
cp "$ROOT/examples/validate.c" "$TMP/validate.c"
# shellcheck disable=SC2046
check "example builds with pkg-config --cflags --libs hpcvet" "$CCX" -std=c11 -Wall -Wextra -Werror "${SANFLAGS[@]}" \
	"$TMP/validate.c" $(pkg-config --cflags --libs hpcvet) -Wl,-rpath,"$P/lib" -o "$TMP/validate"
check "example links the installed library" bash -c "ldd '$TMP/validate' | grep -q '$P/lib/libhpcvet.so.0'"
"$P/bin/hpcvet-gen" --what=metadb -o "$TMP/good.db"
"$P/bin/hpcvet-gen" --what=metadb --break=metadb.hdr.footer -o "$TMP/bad.db"
expect_exit 0 "installed example: valid" "$TMP/validate" "$TMP/good.db"
expect_exit 1 "installed example: broken" "$TMP/validate" "$TMP/bad.db"
check "installed example names the rule" grep -q "metadb.hdr.footer" "$TMP/out"
# shellcheck disable=SC2046
check "example builds statically with pkg-config --static" "$CCX" -std=c11 "${SANFLAGS[@]}" "$TMP/validate.c" \
	-I"$P/include" "$P/lib/libhpcvet.a" $(pkg-config --static --libs-only-l hpcvet | sed 's/-lhpcvet//') -o "$TMP/validate-static"
expect_exit 1 "static example: broken" "$TMP/validate-static" "$TMP/bad.db"
expect_exit 1 "installed CLI runs" "$P/bin/hpcvet" "$TMP/bad.db"

# The installed Python package, imported away from the checkout, loads the
# installed library (the one make install recorded) and gives the CLI's report.
if command -v python3 >/dev/null 2>&1; then
	pyenv=(env -u HPCVET_LIBRARY -u LD_LIBRARY_PATH PYTHONPATH="$P/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1)
	is_san_build && pyenv+=(LD_PRELOAD="$(clang -print-file-name=libclang_rt.asan-x86_64.so)" ASAN_OPTIONS=detect_leaks=0)
	(cd "$TMP" && "${pyenv[@]}" python3 -c 'import hpcvet, sys; print(hpcvet.library_path); sys.stdout.write(hpcvet.validate(sys.argv[1]).to_json())' "$TMP/bad.db") >"$TMP/py.out" 2>"$TMP/py.err"
	check "installed Python package loads the installed library" test "$(head -1 "$TMP/py.out")" = "$P/lib/libhpcvet.so.0"
	"$P/bin/hpcvet" --format=json "$TMP/bad.db" >"$TMP/cli.json"
	check "installed Python package reports as the CLI" cmp -s <(tail -n +2 "$TMP/py.out") "$TMP/cli.json"
	(cd "$TMP" && "${pyenv[@]}" python3 -m hpcvet "$TMP/bad.db" >/dev/null 2>&1)
	check "installed python3 -m hpcvet exits 1 on a broken file" test $? -eq 1
	# Where a plain `make install` puts the package, python3 imports it
	# without PYTHONPATH (Debian's python3 reads /usr/local/lib/python3.N/dist-packages).
	if python3 -c 'import site, sys; sys.exit(not any(p.startswith("/usr/local/lib/") for p in site.getsitepackages()))'; then
		pydir=$(mk -n install PREFIX=/usr/local | grep -o '/usr/local/lib/[^ ]*-packages' | head -1)
		check "make install PREFIX=/usr/local puts the package where python3 imports it ($pydir)" \
			python3 -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$pydir"
	else
		skip "python3 reads no site folder under /usr/local/lib (not Debian's python3): where the package goes by default"
	fi
else
	skip "no python3: the installed Python package"
fi

# 3. The man page renders, installed and from the source tree.
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man -l "$ROOT/docs/hpcvet.1" >"$TMP/man.txt" 2>"$TMP/man.err"
	check "man -l docs/hpcvet.1 renders" grep -q '^NAME' "$TMP/man.txt"
	(cd "$ROOT" && MANWIDTH=80 man ./docs/hpcvet.1 >"$TMP/man0.txt" 2>/dev/null)
	check "man ./docs/hpcvet.1 renders the same" cmp -s "$TMP/man0.txt" "$TMP/man.txt"
	check "man page: exit status section" grep -q '^EXIT STATUS' "$TMP/man.txt"
	check "man page: every report format" grep -q 'sarif' "$TMP/man.txt"
	MANPATH="$P/share/man" MANWIDTH=80 man hpcvet >"$TMP/man2.txt" 2>/dev/null
	check "installed man page found by man" grep -q "hpcvet *- *validate" "$TMP/man2.txt"
	MANPATH="$P/share/man" MANWIDTH=80 man hpcvet-mpi >"$TMP/man3.txt" 2>/dev/null
	check "installed hpcvet-mpi man page found by man" grep -q "hpcvet-mpi *- *hpcvet over MPI ranks" "$TMP/man3.txt"
elif [ -n "${CI:-}" ]; then
	not_ok "man is missing in CI (install man-db)"
fi
if command -v groff >/dev/null 2>&1; then
	for m in hpcvet hpcvet-mpi; do
		check "$m.1 has no roff warnings" bash -c "groff -man -Tutf8 -ww -z '$ROOT/docs/$m.1' 2>&1 | (! grep -q .)"
	done
fi
# Every option in --help is documented in the man page.
for opt in $("$P/bin/hpcvet" --help | grep -oE -- '--[a-z-]+' | sort -u); do
	check "man page documents $opt" grep -qF -- "$(sed 's/-/\\-/g' <<<"$opt")" "$ROOT/docs/hpcvet.1"
done

# Every variable the program reads (getenv) is in a man page's ENVIRONMENT
# section (HPCVET_MPI_FAULT is the tests' fault injection, not for users).
for m in hpcvet hpcvet-mpi; do
	sed -n '/^\.SH ENVIRONMENT/,/^\.SH EX/p' "$ROOT/docs/$m.1"
done | grep '^\.BR\? ' >"$TMP/env.txt"
for v in $(grep -rhoE 'getenv\("[A-Z0-9_]+"\)' "$ROOT/validator" | sed -E 's/getenv\("(.*)"\)/\1/' | sort -u); do
	[ "$v" = HPCVET_MPI_FAULT ] || check "a man page's ENVIRONMENT documents $v" grep -qw "$v" "$TMP/env.txt"
done
check "make uninstall" mk uninstall PREFIX="$P" >/dev/null 2>&1
check "uninstall leaves no files" test -z "$(find "$P" -type f -o -type l)"
done_testing
