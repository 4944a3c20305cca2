#!/usr/bin/env bash
# The layers of validator/LAYERS hold: no include and no call goes up a layer
# or across families (tests/check_layers.py). The checker is then shown to
# fail on a planted include that goes up, one across families, and a planted
# call that goes up.
source "$(dirname "$0")/lib.sh"
check "includes and calls go down the layers" python3 "$ROOT/tests/check_layers.py" --objects "$BUILD/obj" "$ROOT"
# The rest shows the checker failing on planted violations in a copy of the
# sources and in objects compiled here: nothing of it comes from the build,
# so the plain build runs it and the sanitizer build, whose own objects were
# checked above, skips it (CI time).
if is_san_build; then done_testing; exit; fi

# A copy of the sources (no build) to plant violations in.
copy=$TMP/tree
mkdir -p "$copy"
(cd "$ROOT" && find validator golden -path golden/cases -prune -o \( -name "*.[ch]" -o -name "*.def" -o -name LAYERS \) -print | tar -cf - -T -) | tar -xf - -C "$copy"
check "the copy passes too" python3 "$ROOT/tests/check_layers.py" "$copy"

cp "$copy/validator/ovni/stream/obs.c" "$TMP/obs.c"
echo '#include "ovni/model/model.h"' >>"$copy/validator/ovni/stream/obs.c"
python3 "$ROOT/tests/check_layers.py" "$copy" >"$TMP/up.out" && up=0 || up=$?
check "an include that goes up fails" test "$up" = 1
check "it is named" grep -q '^validator/ovni/stream/obs.c (ovni/stream/): includes validator/ovni/model/model.h, a layer above it$' "$TMP/up.out"
cp "$TMP/obs.c" "$copy/validator/ovni/stream/obs.c"

echo '#include "dumpi/dumpi.h"' >>"$copy/validator/hpctoolkit/format/ranges.c"
python3 "$ROOT/tests/check_layers.py" "$copy" >"$TMP/across.out" && across=0 || across=$?
check "an include across families fails" test "$across" = 1
check "it is named" grep -q '^validator/hpctoolkit/format/ranges.c: includes validator/dumpi/dumpi.h, of another family$' "$TMP/across.out"
cp "$ROOT/validator/hpctoolkit/format/ranges.c" "$copy/validator/hpctoolkit/format/ranges.c"

# A call that goes up: a stream file using a function of the trace's layer,
# seen in the objects.
mkdir -p "$TMP/obj/validator/ovni/stream" "$TMP/obj/validator/ovni"
printf 'void planted_up(void);\nvoid planted_low(void) { planted_up(); }\n' >"$copy/validator/ovni/stream/planted.c"
printf 'void planted_up(void) {}\n' >"$copy/validator/ovni/planted_up.c"
cc -c "$copy/validator/ovni/stream/planted.c" -o "$TMP/obj/validator/ovni/stream/planted.o"
cc -c "$copy/validator/ovni/planted_up.c" -o "$TMP/obj/validator/ovni/planted_up.o"
python3 "$ROOT/tests/check_layers.py" --objects "$TMP/obj" "$copy" >"$TMP/call.out" && call=0 || call=$?
check "a call that goes up fails" test "$call" = 1
check "it is named" grep -q '^validator/ovni/stream/planted.c (ovni/stream/): uses planted_up of validator/ovni/planted_up.c, a layer above it$' "$TMP/call.out"
# A name that repeats its folder, and a folder grown past 25 files.
touch "$copy/validator/ovni/model/model_extra.c"
python3 "$ROOT/tests/check_layers.py" "$copy" >"$TMP/name.out" && name=0 || name=$?
check "a name repeating its folder fails" test "$name" = 1
check "it is named" grep -q '^validator/ovni/model/model_extra.c: its name repeats its folder$' "$TMP/name.out"
rm "$copy/validator/ovni/model/model_extra.c"
for i in $(seq 1 30); do touch "$copy/validator/dumpi/format/part$i.c"; done
python3 "$ROOT/tests/check_layers.py" "$copy" >"$TMP/wide.out" && wide=0 || wide=$?
check "a folder of more than 25 files fails" test "$wide" = 1
check "it is named" grep -q '^validator/dumpi/format/: 3[0-9] source files, more than 25' "$TMP/wide.out"
done_testing
