# hpcvet — build, test, demo. `make help` lists the targets.
#
# Builds go to $(BUILD) (default build/). `make test` runs the suite twice:
# a plain optimised build and an ASan+UBSan build (build-san/, clang).

BUILD   ?= build
CC      ?= cc
SAN     ?=
OPT     ?= -O2
# Debug information: full in build/ (the program make install installs);
# line tables only in build-san/ and the fuzzing builds (below): all that a
# sanitizer's report prints, file and line of each frame, inlined ones too,
# in less compile and link CPU (CONTRIBUTING.md, "Tests"). PLAIN_GFLAGS is
# build/'s: CI (.ci/run) sets -g1 (gcc's line tables), as nothing it runs
# reads more and nothing it builds is installed for a debugger.
PLAIN_GFLAGS ?= -g
GFLAGS  ?= $(if $(filter 1,$(SAN)),-gline-tables-only,$(PLAIN_GFLAGS))
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wvla
CPPFLAGS_HV := -D_DEFAULT_SOURCE -Ivalidator
ifeq ($(SAN),1)
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  # core/alloc.c's test hook: HPCVET_TEST_FAIL_ALLOC=k fails the k-th
  # allocation (the torture test's leak check, where LD_PRELOAD cannot reach
  # the sanitizer's allocator)
  CPPFLAGS_HV += -DHV_ALLOC_TEST_HOOK
  OPT := -O1
endif
# -fPIC: the same objects make the shared library. -fvisibility=hidden: only
# what validator/include/hpcvet.h marks HPCVET_API is exported from it.
CFLAGS_HV := $(CSTD) $(OPT) $(GFLAGS) $(WARN) -fPIC -fvisibility=hidden $(SANFLAGS) $(CFLAGS)
# Programs link with lld where it is installed (Debian: lld, which the web
# page's build needs too): the suite's ~140 test programs and drivers link
# in less CPU than with ld.bfd (CONTRIBUTING.md, "Tests").
LINK_LD := $(if $(shell command -v ld.lld 2>/dev/null),-fuse-ld=lld)
LDLIBS_HV := -lcjson -lyaml -lm -pthread
# Quiet by default: one short line per file built; `make V=1` prints the
# compiler command lines.
V ?= 0
ifeq ($(V),1)
  Q :=
  say = true
else ifeq ($(QUIET_BUILD),1)
  Q := @
  say = true
else
  Q := @
  say = printf '  %-5s %s\n' $(1) $(2)
endif

# The library links the CLI's file readers for hpcvet_validate_path
# (validator/api/path.c) and hpcvet_dump_path (dump_path.c), its thread pool for the options' jobs
# (validator/cli/jobs.c) and its certificate code for hpcvet_certify_json and
# hpcvet_certificate_verify (digest.c, progress.c, verify.c:
# validator/api/certify.c); fileio.c stays the only code that opens files.
LIB_SRCS  := $(shell find validator -name '*.c' ! -path 'validator/cli/*' ! -path 'validator/mpi/*' | sort) validator/cli/fileio.c validator/cli/validate_path.c validator/cli/dump_path.c validator/cli/jobs.c \
	     validator/cli/digest.c validator/cli/progress.c validator/cli/verify.c
CLI_SRCS  := $(wildcard validator/cli/*.c)
GEN_SRCS  := $(filter-out golden/main.c,$(shell find golden -name '*.c' ! -path 'golden/tools/*' ! -path 'golden/cases/*' | sort))
TEST_SRCS := $(wildcard tests/test_*.c)
HEADERS   := $(shell find validator golden tests -name '*.h' -o -name '*.def')
SOVERSION := 0
LIBVERSION := 0.1.0

# The HTML report's style sheet and script, made C strings (html/embed.sh).
HTML_ASSETS := validator/output/html/report.css validator/output/html/report.js
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/html_assets.o
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
GEN_OBJS  := $(GEN_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps test test-build torture demo clean help check-layers tests-bin docs fuzz seeds install uninstall golden reader-matrix bench bench-hpctoolkit bench-ovni bench-dumpi bench-dumpi-records bench-damaged bench-certify bench-scaling bench-parallel bench-split bench-memory bench-ovni-runtime bench-hostile bench-python bench-html bench-web bench-web-reads bench-web-asks bench-width bench-device afl afl-build afl-smoke fuzz-build fuzz-smoke
all: deps $(BUILD)/libhpcvet.a $(BUILD)/libhpcvet-gen.a $(BUILD)/hpcvet $(BUILD)/hpcvet-gen \
     $(BUILD)/libhpcvet.so $(BUILD)/pub/libhpcvet.a

# hpcvet-mpi (validator/mpi/, README "MPI"): hpcvet over MPI ranks, built
# only when mpicc is found (Debian: libopenmpi-dev openmpi-bin), and not in
# the sanitizer build (LeakSanitizer reports Open MPI's own allocations).
MPICC    ?= mpicc
MPI_SRCS := $(wildcard validator/mpi/*.c)
MPI_OBJS := $(MPI_SRCS:%.c=$(BUILD)/obj/%.o)
HAVE_MPICC := $(if $(SAN),,$(shell command -v $(MPICC) 2>/dev/null))
ifneq ($(HAVE_MPICC),)
all: $(BUILD)/hpcvet-mpi
else
all: mpi-skip
endif
.PHONY: mpi-skip
mpi-skip:
	@echo "$(if $(SAN),sanitizer build,mpicc not found): skipping hpcvet-mpi"

$(BUILD)/obj/validator/mpi/%.o: validator/mpi/%.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)OMPI_CC=$(CC) $(MPICC) $(CPPFLAGS_HV) $(CFLAGS_HV) -c $< -o $@

# hpcvet's own main, renamed: hpcvet-mpi's main wraps it.
$(BUILD)/obj/mpi/cli_main.o: validator/cli/main.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) -Dmain=hv_cli_main -c $< -o $@

$(BUILD)/hpcvet-mpi: $(MPI_OBJS) $(BUILD)/obj/mpi/cli_main.o $(filter-out %/cli/main.o,$(CLI_OBJS)) \
		     $(BUILD)/obj/gen/corpus_cases.o $(BUILD)/obj/gen/rule_sources.o $(BUILD)/libhpcvet.a
	@$(call say,CC,$@)
	$(Q)OMPI_CC=$(CC) $(MPICC) $(CFLAGS_HV) $(LINK_LD) $^ $(LDLIBS_HV) -ldl -o $@

help:
	@echo "make          build $(BUILD)/hpcvet, $(BUILD)/hpcvet-gen, $(BUILD)/libhpcvet.a"
	@echo "make demo     generate a database, validate it, validate a broken one"
	@echo "make test     run the whole suite (plain build and ASan+UBSan build)"
	@echo "make test-build  build what make test runs (both builds and the web page), run nothing"
	@echo "make torture  hpcvet with each allocation, read and thread start failing in turn (tests/torture/run.sh)"
	@echo "make check-layers  includes and calls go down the layers of validator/LAYERS"
	@echo "make docs     regenerate docs/RULES.md and the example outputs in README, CONTRIBUTING, man page"
	@echo "make install  install into PREFIX (default /usr/local), staged under DESTDIR"
	@echo "make golden   regenerate the conformance corpus golden/cases/ (deterministic)"
	@echo "make reader-matrix  every installed reference reader on every case: docs/READERS.md (READERS=DIR)"
	@echo "make bench    throughput, RSS, scaling and -j speedup (BENCH_SIZE=MiB per format)"
	@echo "make bench-hpctoolkit|bench-ovni|bench-dumpi|bench-damaged|bench-certify|bench-scaling|"
	@echo "     bench-parallel|bench-split|bench-memory|bench-ovni-runtime|bench-hostile|bench-python|bench-html|bench-width|bench-device|"
	@echo "     bench-dumpi-records (BENCH_OLD=older hpcvet)"
	@echo "              one series of bench/RESULTS.md"
	@echo "make seeds    regenerate the fuzz seed corpora (corpus/) from hpcvet-gen"
	@echo "make fuzz TARGET=metadb SECONDS=600   libFuzzer campaign (targets: fuzz/README.md)"
	@echo "make afl TARGET=metadb SECONDS=600    AFL++ campaign (cmplog + custom mutator)"
	@echo "make fuzz-smoke   every libFuzzer target for its executions in fuzz/smoke-execs.tsv, or SMOKE_SECONDS (CI)"
	@echo "make web      the web page, built to WebAssembly, in $(BUILD)/web (README \"In the browser\")"
	@echo "make serve-web  serve it on http://127.0.0.1:$(WEB_PORT)/"
	@echo "make bench-web  the page beside hpcvet -j1 on generated inputs (WEB_SIZE=MiB, default 256; WEB_MODES)"
	@echo "make bench-web-reads  what a byte read costs Chromium, by read API and block size (WEB_READS_MIB)"
	@echo "make bench-web-asks   the MiB and reads the page asks of the browser, worker.js run in Node (WEB_SIZE, WEB_ASKS_INPUT)"
	@echo "make clean    remove build directories"
	@echo "V=1           print compiler command lines (quiet by default)"
	@echo "HV_SHARED=DIR the shared folder with real-samples/ (default ../shared); without it those tests skip"

# Debian packages the build needs. As root they are installed; otherwise the
# exact command is printed.
# python3-pytest runs the Python package's tests (tests/python.test.sh).
DEB_PKGS := libcjson-dev libyaml-dev clang libssl-dev python3-pytest
deps:
	@missing=""; \
	[ -f /usr/include/cjson/cJSON.h ] || missing="$$missing libcjson-dev"; \
	[ -d /usr/lib/python3/dist-packages/pytest ] || missing="$$missing python3-pytest"; \
	[ -f /usr/include/yaml.h ] || missing="$$missing libyaml-dev"; \
	[ -f /usr/include/openssl/evp.h ] || missing="$$missing libssl-dev"; \
	command -v clang >/dev/null 2>&1 || missing="$$missing clang"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing) >/dev/null || exit 1; \
	  else \
	    echo "missing packages; run: sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# The DUMPI record walk's steps and the MPI layer's fused paths are entered
# through tables, one small function a record: each on a cache line of its
# own, so none starts across a line (paired CPU on bench's DUMPI mix).
HOT_ALIGNED := validator/dumpi/format/decode validator/dumpi/mpi/fused validator/dumpi/mpi/fusedcoll
$(foreach f,$(HOT_ALIGNED),$(BUILD)/obj/$(f).o): CFLAGS_HV += -falign-functions=64

$(BUILD)/obj/%.o: %.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) -c $< -o $@

$(BUILD)/libhpcvet.a: $(LIB_OBJS)
	@rm -f $@
	@$(call say,AR,$@)
	$(Q)ar rcs $@ $^

# The shared library: every internal symbol hidden, the hpcvet_* API exported.
$(BUILD)/libhpcvet.so: $(LIB_OBJS)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS_HV) -shared -Wl,-soname,libhpcvet.so.$(SOVERSION) $(if $(SAN),,-Wl,--no-undefined) $^ $(LDLIBS_HV) \
	  -o $(BUILD)/libhpcvet.so.$(LIBVERSION)
	$(Q)ln -sf libhpcvet.so.$(LIBVERSION) $(BUILD)/libhpcvet.so.$(SOVERSION)
	$(Q)ln -sf libhpcvet.so.$(LIBVERSION) $@

# The installed static library: one relocatable object whose hidden symbols
# are made local, so a program linking it sees only hpcvet_* (the internal
# $(BUILD)/libhpcvet.a keeps everything global for the CLI and the tests).
$(BUILD)/pub/libhpcvet.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@$(call say,LD,$@)
	$(Q)$(LD) -r $^ -o $(BUILD)/pub/hpcvet.o
	$(Q)objcopy --localize-hidden $(BUILD)/pub/hpcvet.o
	@rm -f $@
	@$(call say,AR,$@)
	$(Q)ar rcs $@ $(BUILD)/pub/hpcvet.o

$(BUILD)/libhpcvet-gen.a: $(GEN_OBJS)
	@rm -f $@
	@$(call say,AR,$@)
	$(Q)ar rcs $@ $^

# libcrypto: certificate digests, opened by validator/cli/digest.c at the first
# certificate (not linked: loading it cost every run ~5 ms), in the program as in the library.
$(BUILD)/hpcvet: $(CLI_OBJS) $(BUILD)/obj/gen/corpus_cases.o $(BUILD)/obj/gen/rule_sources.o $(BUILD)/libhpcvet.a
	@$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS_HV) $(LINK_LD) $^ $(LDLIBS_HV) -ldl -o $@

# The corpus cases of each rule, for `hpcvet rules --format=json`: generated
# from golden/cases/MANIFEST.json (an empty table when it is absent).
$(BUILD)/tools/manifest2c: golden/tools/manifest2c.c | deps
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) $< $(LDLIBS_HV) -o $@

$(BUILD)/gen/corpus_cases.c: $(BUILD)/tools/manifest2c $(wildcard golden/cases/MANIFEST.json)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/manifest2c golden/cases/MANIFEST.json $@

$(BUILD)/obj/gen/corpus_cases.o: $(BUILD)/gen/corpus_cases.c $(HEADERS)
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) -c $< -o $@

$(BUILD)/gen/html_assets.c: validator/output/html/embed.sh $(HTML_ASSETS)
	@mkdir -p $(dir $@)
	$(Q)sh validator/output/html/embed.sh $@ $(HTML_ASSETS)

$(BUILD)/obj/gen/html_assets.o: $(BUILD)/gen/html_assets.c
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) -c $< -o $@

# Where each rule is checked, for `hpcvet explain`: derived from the sources
# (every use of HV_R_<SYMBOL>), so it follows the code by itself.
$(BUILD)/gen/rule_sources.c: validator/cli/rule-sources.sh $(LIB_SRCS) $(CLI_SRCS) $(HEADERS)
	@mkdir -p $(dir $@)
	$(Q)sh validator/cli/rule-sources.sh $@

$(BUILD)/obj/gen/rule_sources.o: $(BUILD)/gen/rule_sources.c $(HEADERS)
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) -c $< -o $@

$(BUILD)/hpcvet-gen: $(BUILD)/obj/golden/main.o $(BUILD)/libhpcvet-gen.a $(BUILD)/libhpcvet.a
	@$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS_HV) $(LINK_LD) $^ $(LDLIBS_HV) -o $@

$(BUILD)/tests/%: tests/%.c $(BUILD)/libhpcvet-gen.a $(BUILD)/libhpcvet.a $(HEADERS)
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) -Igolden $(CFLAGS_HV) $(LINK_LD) $< $(BUILD)/libhpcvet-gen.a $(BUILD)/libhpcvet.a $(LDLIBS_HV) -o $@

# Fuzz targets (fuzz/fuzz_*.c; see fuzz/README.md). Each builds three ways
# from the same source:
#   $(BUILD)/fuzz/regress_NAME     plain replay driver (fuzz/regress.c), any compiler: make test
#   build-fuzz/lf/fuzz_NAME        libFuzzer + ASan + UBSan + structure-aware mutator
#   build-fuzz/lf/bytes_NAME       the same without the custom mutator (for measure-mutator.sh)
#   build-fuzz/afl/afl_NAME        AFL++ persistent mode (fuzz/afl_driver.c), plus
#   build-fuzz/cmplog/afl_NAME     its cmplog build and build-fuzz/hv_mutator.so (AFL++ custom mutator)
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_REGRESS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/regress_%)
FUZZ_HDRS    := $(wildcard fuzz/*.h)
FUZZ_MUT_SRCS := fuzz/mutator.c $(wildcard fuzz/mutate_*.c)
FUZZ_DEF     := -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION

$(BUILD)/fuzz/regress_%: fuzz/fuzz_%.c fuzz/regress.c $(BUILD)/libhpcvet.a $(HEADERS) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) -Ifuzz $(CFLAGS_HV) $(LINK_LD) fuzz/fuzz_$*.c fuzz/regress.c $(BUILD)/libhpcvet.a $(LDLIBS_HV) -o $@

$(BUILD)/fuzz/hpcvet-pack: fuzz/pack.c fuzz/container.h
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) $< -o $@

# The mutator runs in make test too: fuzz/mutator_test.c drives it over the
# corpus and validates every mutant (so its own memory safety is checked under ASan).
$(BUILD)/fuzz/mutator_test: fuzz/mutator_test.c $(FUZZ_MUT_SRCS) $(BUILD)/libhpcvet.a $(HEADERS) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) -Ifuzz $(CFLAGS_HV) $(LINK_LD) fuzz/mutator_test.c $(FUZZ_MUT_SRCS) $(BUILD)/libhpcvet.a $(LDLIBS_HV) -o $@

# The differential targets (fuzz_diff_*.c) must see a planted defect: each
# planted driver is a target's replay driver linked with one library source
# rebuilt with a HV_FUZZ_PLANT_* switch (its object takes the place of the
# archive's), run by tests/fuzz_diff.test.sh, which expects it to abort.
#   planted_merge: diff_units, a unit loaded from bytes loses a diagnostic (core/units.c)
#   planted_split: diff_ovni_split, the chunk merge drops a diagnostic (ovni/stream/split.c)
#   planted_wide:  diff_simd, the AVX-512 value kernel miscounts (hpctoolkit/values/lanes.c)
#   planted_replay: diff_ovni_replay, the split replay's chunks miscount a check (ovni/model/split.c)
FUZZ_PLANTS := $(BUILD)/fuzz/planted_merge $(BUILD)/fuzz/planted_split $(BUILD)/fuzz/planted_wide \
	$(BUILD)/fuzz/planted_replay
$(BUILD)/fuzz/planted_merge: PLANT := diff_units validator/core/units.c HV_FUZZ_PLANT_MERGE_BUG
$(BUILD)/fuzz/planted_split: PLANT := diff_ovni_split validator/ovni/stream/split.c HV_FUZZ_PLANT_SPLIT_BUG
$(BUILD)/fuzz/planted_wide: PLANT := diff_simd validator/hpctoolkit/values/lanes.c HV_FUZZ_PLANT_WIDE_BUG
$(BUILD)/fuzz/planted_replay: PLANT := diff_ovni_replay validator/ovni/model/split.c HV_FUZZ_PLANT_REPLAY_BUG
$(FUZZ_PLANTS): fuzz/regress.c $(wildcard fuzz/fuzz_diff_*.c) validator/core/units.c validator/ovni/stream/split.c \
		validator/hpctoolkit/values/lanes.c validator/ovni/model/model.c $(BUILD)/libhpcvet.a $(HEADERS) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS_HV) -Ifuzz $(CFLAGS_HV) $(LINK_LD) -D$(word 3,$(PLANT)) fuzz/fuzz_$(word 1,$(PLANT)).c fuzz/regress.c \
		$(word 2,$(PLANT)) $(BUILD)/libhpcvet.a $(LDLIBS_HV) -o $@

tests-bin: all $(BUILD)/torture/faultinject.so $(TEST_BINS) $(FUZZ_REGRESS) $(FUZZ_PLANTS) $(BUILD)/fuzz/hpcvet-pack $(BUILD)/fuzz/mutator_test

# tests/changed.test.sh's writer that rewrites a file while it is read (an
# LD_PRELOAD interposer of open): the plain build only, a sanitizer build
# links its runtime statically and interposes open itself.
ifneq ($(SAN),1)
tests-bin: $(BUILD)/tests/preload_rewrite.so
endif
$(BUILD)/tests/preload_rewrite.so: tests/preload_rewrite.c | deps
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CSTD) -O1 -g $(WARN) -fPIC -shared -fvisibility=hidden $< -ldl -o $@

# The fuzzing builds of the library are sub-makes of the rules above with
# another BUILD; HV_SUBMAKE keeps these outer rules out of them.
ifndef HV_SUBMAKE
# ---- libFuzzer ----
# The fuzzing builds ask for line tables, not full debug information: a
# finding's stack trace still names file and line (all a sanitizer report
# prints), and the libFuzzer build's compiles and links cost less (a big
# source 20% less CPU under clang -O1 with ASan+UBSan, objects 40% smaller).
# afl-clang-fast (AFL++ 4.04c) appends -g -funroll-loops to every command
# unless AFL_DONT_OPTIMIZE is set: the AFL++ builds set it and ask for
# -funroll-loops themselves (AFL_OPT), the same code with line tables only
# (the AFL++ library's compiles 18-20% less CPU with ASan+UBSan, 11% less in
# the cmplog build).
FUZZ_G := -gline-tables-only
# The 69 fuzz programs link with lld where it is installed (LINK_LD, above):
# a target's link 0.6 CPU-s with ld.bfd, 0.23.
FUZZ_LD := $(LINK_LD)
LF := build-fuzz/lf
LF_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined $(FUZZ_DEF)
$(LF)/libhpcvet.a: $(LIB_SRCS) $(HTML_ASSETS) $(HEADERS)
	@$(MAKE) --no-print-directory HV_SUBMAKE=1 BUILD=$(LF) CC=clang OPT=-O1 GFLAGS=$(FUZZ_G) CFLAGS="$(LF_FLAGS)" $(LF)/libhpcvet.a
# The custom mutator's sources are compiled once for all targets (as objects,
# not an archive: libFuzzer finds LLVMFuzzerCustomMutator only if it is linked in).
LF_MUT_OBJS := $(patsubst fuzz/%.c,$(LF)/mut/%.o,fuzz/libfuzzer_mutator.c $(FUZZ_MUT_SRCS))
$(LF)/mut/%.o: fuzz/%.c $(FUZZ_HDRS) $(HEADERS)
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS_HV) -Ifuzz $(CSTD) -O1 $(FUZZ_G) $(WARN) $(FUZZ_DEF) -fsanitize=fuzzer-no-link,address,undefined \
	  -fno-sanitize-recover=undefined -c $< -o $@
$(LF)/fuzz_%: fuzz/fuzz_%.c $(LF_MUT_OBJS) $(FUZZ_HDRS) $(LF)/libhpcvet.a
	clang $(CPPFLAGS_HV) -Ifuzz $(CSTD) -O1 $(FUZZ_G) $(FUZZ_LD) $(WARN) $(FUZZ_DEF) -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined $< $(LF_MUT_OBJS) $(LF)/libhpcvet.a $(LDLIBS_HV) -o $@
$(LF)/bytes_%: fuzz/fuzz_%.c $(FUZZ_HDRS) $(LF)/libhpcvet.a
	clang $(CPPFLAGS_HV) -Ifuzz $(CSTD) -O1 $(FUZZ_G) $(FUZZ_LD) $(WARN) $(FUZZ_DEF) -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined $< $(LF)/libhpcvet.a $(LDLIBS_HV) -o $@

# ---- AFL++ ----
AFL_CC := AFL_DONT_OPTIMIZE=1 afl-clang-fast
AFL_OPT := -O2 -funroll-loops
# The main AFL++ build carries ASan+UBSan (a heap overflow that does not
# segfault is still a finding); the cmplog build only guides comparisons and
# stays plain, as AFL++ recommends.
AFL_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
build-fuzz/afl/libhpcvet.a: $(LIB_SRCS) $(HTML_ASSETS) $(HEADERS)
	@AFL_DONT_OPTIMIZE=1 $(MAKE) --no-print-directory HV_SUBMAKE=1 BUILD=build-fuzz/afl CC=afl-clang-fast OPT="$(AFL_OPT)" GFLAGS=$(FUZZ_G) CFLAGS="$(FUZZ_DEF) $(AFL_SAN)" build-fuzz/afl/libhpcvet.a
build-fuzz/cmplog/libhpcvet.a: $(LIB_SRCS) $(HTML_ASSETS) $(HEADERS)
	@AFL_LLVM_CMPLOG=1 AFL_DONT_OPTIMIZE=1 $(MAKE) --no-print-directory HV_SUBMAKE=1 BUILD=build-fuzz/cmplog CC=afl-clang-fast OPT="$(AFL_OPT)" GFLAGS=$(FUZZ_G) CFLAGS="$(FUZZ_DEF)" build-fuzz/cmplog/libhpcvet.a
# The persistent-mode driver is compiled once per build, not once per target.
build-fuzz/afl/afl_driver.o: fuzz/afl_driver.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(AFL_CC) $(CPPFLAGS_HV) -Ifuzz $(CSTD) $(AFL_OPT) $(FUZZ_G) $(FUZZ_DEF) $(AFL_SAN) -c $< -o $@
build-fuzz/cmplog/afl_driver.o: fuzz/afl_driver.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	AFL_LLVM_CMPLOG=1 $(AFL_CC) $(CPPFLAGS_HV) -Ifuzz $(CSTD) $(AFL_OPT) $(FUZZ_G) $(FUZZ_DEF) -c $< -o $@
build-fuzz/afl/afl_%: fuzz/fuzz_%.c build-fuzz/afl/afl_driver.o $(FUZZ_HDRS) build-fuzz/afl/libhpcvet.a
	$(AFL_CC) $(CPPFLAGS_HV) -Ifuzz $(CSTD) $(AFL_OPT) $(FUZZ_G) $(FUZZ_LD) $(FUZZ_DEF) $(AFL_SAN) $< build-fuzz/afl/afl_driver.o build-fuzz/afl/libhpcvet.a $(LDLIBS_HV) -o $@
build-fuzz/cmplog/afl_%: fuzz/fuzz_%.c build-fuzz/cmplog/afl_driver.o $(FUZZ_HDRS) build-fuzz/cmplog/libhpcvet.a
	AFL_LLVM_CMPLOG=1 $(AFL_CC) $(CPPFLAGS_HV) -Ifuzz $(CSTD) $(AFL_OPT) $(FUZZ_G) $(FUZZ_LD) $(FUZZ_DEF) $< build-fuzz/cmplog/afl_driver.o build-fuzz/cmplog/libhpcvet.a $(LDLIBS_HV) -o $@
# The mutator runs inside afl-fuzz, uninstrumented: it links the plain build's
# library (position-independent objects), not a sixth compile of the sources.
build-fuzz/hv_mutator.so: fuzz/afl_mutator.c $(FUZZ_MUT_SRCS) $(LIB_SRCS) $(HEADERS) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	@$(MAKE) --no-print-directory BUILD=build SAN= CC=$(CC) build/libhpcvet.a
	clang $(CPPFLAGS_HV) -Ifuzz $(CSTD) -O2 -g $(WARN) -fPIC -shared fuzz/afl_mutator.c $(FUZZ_MUT_SRCS) build/libhpcvet.a $(LDLIBS_HV) -o $@

# ---- campaigns ----
# make fuzz TARGET=metadb SECONDS=600 [ENGINE_ARGS=...]          (libFuzzer)
# make afl  TARGET=metadb SECONDS=600                              (AFL++ + cmplog + custom mutator)
# make fuzz-smoke [SMOKE_SECONDS=25]      every libFuzzer target, two at a time (CI): its
#   executions in fuzz/smoke-execs.tsv, or SMOKE_SECONDS each (AFL++: afl-smoke, AFL_SMOKE_SECONDS)
# Findings land in fuzz/out/TARGET/ (libFuzzer) and fuzz/afl-out/TARGET/ (AFL++).
TARGET  ?= single
SECONDS ?= 60
SMOKE_SECONDS ?= execs
AFL_SMOKE_SECONDS ?= execs
FUZZ_ARGS = $$(grep -v '^\[' fuzz/options/$(1).options 2>/dev/null | sed 's/ *= */=/; s/^/-/' | tr '\n' ' ')
fuzz-build: deps $(FUZZ_TARGETS:%=$(LF)/fuzz_%) build-fuzz/cpu-account
# SMOKE_CMPLOG=0 leaves the cmplog builds out (CI's smoke: .ci/run), and
# the campaign runner then runs afl-fuzz without -c. (Not AFL_CMPLOG:
# afl-cc reads that name as AFL_LLVM_CMPLOG and would make every AFL++
# build a cmplog one.)
SMOKE_CMPLOG ?= 1
afl-build: deps $(FUZZ_TARGETS:%=build-fuzz/afl/afl_%) $(if $(filter 0,$(SMOKE_CMPLOG)),,$(FUZZ_TARGETS:%=build-fuzz/cmplog/afl_%)) \
	build-fuzz/hv_mutator.so build-fuzz/cpu-account
# Counts the CPU time of a campaign and everything it forks (fuzz/campaign.sh).
build-fuzz/cpu-account: fuzz/cpu_account.c
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CSTD) -O2 $(WARN) $< -o $@
fuzz: deps $(LF)/fuzz_$(TARGET)
	@mkdir -p fuzz/out/$(TARGET)/queue
	ASAN_OPTIONS=$${ASAN_OPTIONS:-quarantine_size_mb=32} $(LF)/fuzz_$(TARGET) $(call FUZZ_ARGS,$(TARGET)) -dict=fuzz/dict/$(TARGET).dict -max_total_time=$(SECONDS) \
	  -print_final_stats=1 -artifact_prefix=fuzz/out/$(TARGET)/ $(ENGINE_ARGS) fuzz/out/$(TARGET)/queue corpus/$(TARGET)
afl: deps build-fuzz/afl/afl_$(TARGET) build-fuzz/cmplog/afl_$(TARGET) build-fuzz/hv_mutator.so
	@mkdir -p fuzz/afl-out
	AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
	AFL_CUSTOM_MUTATOR_LIBRARY=$(CURDIR)/build-fuzz/hv_mutator.so \
	  afl-fuzz -i corpus/$(TARGET) -o fuzz/afl-out/$(TARGET) -x fuzz/dict/$(TARGET).dict -V $(SECONDS) -t 900 \
	  -m none -c build-fuzz/cmplog/afl_$(TARGET) -- build-fuzz/afl/afl_$(TARGET)
SMOKE_TARGETS := $(FUZZ_TARGETS)
fuzz-smoke: deps fuzz-build
	bash fuzz/smoke.sh $(SMOKE_SECONDS) $(SMOKE_TARGETS)
afl-smoke: deps afl-build
	SMOKE_CMPLOG=$(SMOKE_CMPLOG) bash fuzz/afl-smoke.sh $(AFL_SMOKE_SECONDS) $(SMOKE_TARGETS)
endif

# The torture test (tests/torture/run.sh): hpcvet with one allocation, read
# or thread start failing at a time, for every fault point of a set of
# inputs of each family; the table goes to stdout (bench/RESULTS.md,
# "Faults"). tests/torture.test.sh runs a shortened form in make test.
$(BUILD)/torture/faultinject.so: tests/torture/faultinject.c
	@mkdir -p $(dir $@)
	@$(call say,CC,$@)
	$(Q)$(CC) $(CSTD) -O2 -g $(WARN) -fPIC -shared $< -o $@ -ldl
torture: all $(BUILD)/torture/faultinject.so
	bash tests/torture/run.sh $(BUILD) full

# Seed corpora made from the golden generator: every kind valid, every rule broken.
seeds: all $(BUILD)/fuzz/hpcvet-pack
	bash fuzz/make-seeds.sh $(BUILD)

# The suite: plain build, then sanitizer build; one closing line for both.
# test-build is its build phase alone (.ci/run starts the fuzzing builds
# after it). The web page's wasm module is built there too, with the other
# compiles, so that tests/web.test.sh finds it made; a web build that
# cannot be made (no toolchain, no network for cJSON's and libyaml's Debian
# sources) is left to that test, which says why it skips or fails.
# The three builds share make's job slots: the plain and the sanitizer
# builds side by side (no file in common), the page once the plain build
# is made (it compiles the plain build's generated sources), and the
# download of cJSON's and libyaml's sources, which waits on the network,
# beside the plain build's compiles rather than in front of the page's. So
# no core idles while one build ends on its slowest file.
QB = QUIET_BUILD=$(if $(filter 1,$(V)),0,1)
test: test-build
	@bash tests/run.sh build build-san
test-build: deps
	@echo "building build/ and build-san/ (make V=1 test shows the commands)"
	@$(MAKE) --no-print-directory test-build-web test-build-san
.PHONY: test-build-plain test-build-web test-build-san
test-build-plain: deps
	@mkdir -p build
	@$(MAKE) --no-print-directory BUILD=build WEB_DEPS_INSTALL=0 web-fetch >build/web-fetch.log 2>&1 & fetch=$$!; \
	  $(MAKE) --no-print-directory BUILD=build $(QB) tests-bin; rc=$$?; wait $$fetch; exit $$rc
test-build-web: test-build-plain
	@$(MAKE) --no-print-directory BUILD=build $(QB) WEB_DEPS_INSTALL=0 web \
	  >build/web-build.log 2>&1 || echo "web page not built here (tests/web.test.sh says why): $$(tail -n 1 build/web-build.log)"
test-build-san: deps
	@$(MAKE) --no-print-directory BUILD=build-san SAN=1 CC=clang $(QB) tests-bin

# Installation. `make install PREFIX=/usr DESTDIR=/tmp/stage` stages a package.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# The Python package (python/hpcvet) goes beside the library; Debian's
# python3 searches $(PREFIX)/lib/python3/dist-packages for /usr and /usr/local.
# hpcvet/_install.py records LIBDIR, where the package looks for the library.
# The Python package goes where python3 looks under PREFIX: Debian's python3
# reads /usr/local/lib/python3.N/dist-packages and /usr/lib/python3/dist-packages
# (site.getsitepackages()); a prefix it does not read gets lib/python3/dist-packages,
# for PYTHONPATH.
PYTHONDIR  ?= $(shell python3 -c 'import site; d = [p for p in site.getsitepackages() if p.startswith("$(PREFIX)/lib/")]; print(d[0] if d else "$(PREFIX)/lib/python3/dist-packages")' 2>/dev/null || echo $(PREFIX)/lib/python3/dist-packages)
PY_FILES   := $(wildcard python/hpcvet/*.py) python/hpcvet/py.typed
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(PYTHONDIR)/hpcvet
	install -m 644 $(filter-out %/_install.py,$(PY_FILES)) $(DESTDIR)$(PYTHONDIR)/hpcvet/
	printf '# Where make install put libhpcvet (hpcvet._lib looks there).\nLIBDIR = "%s"\n' '$(LIBDIR)' \
	  >$(DESTDIR)$(PYTHONDIR)/hpcvet/_install.py
	install -m 755 $(BUILD)/hpcvet $(BUILD)/hpcvet-gen $(DESTDIR)$(BINDIR)/
	if [ -x $(BUILD)/hpcvet-mpi ]; then install -m 755 $(BUILD)/hpcvet-mpi $(DESTDIR)$(BINDIR)/; fi
	install -m 755 $(BUILD)/libhpcvet.so.$(LIBVERSION) $(DESTDIR)$(LIBDIR)/
	$(Q)ln -sf libhpcvet.so.$(LIBVERSION) $(DESTDIR)$(LIBDIR)/libhpcvet.so.$(SOVERSION)
	$(Q)ln -sf libhpcvet.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libhpcvet.so
	install -m 644 $(BUILD)/pub/libhpcvet.a $(DESTDIR)$(LIBDIR)/libhpcvet.a
	install -m 644 validator/include/hpcvet.h $(DESTDIR)$(INCLUDEDIR)/hpcvet.h
	install -m 644 docs/hpcvet.1 $(DESTDIR)$(MANDIR)/man1/hpcvet.1
	install -m 644 docs/hpcvet-mpi.1 $(DESTDIR)$(MANDIR)/man1/hpcvet-mpi.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@VERSION@|$(LIBVERSION)|g' hpcvet.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/hpcvet.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/hpcvet $(DESTDIR)$(BINDIR)/hpcvet-gen $(DESTDIR)$(BINDIR)/hpcvet-mpi $(DESTDIR)$(LIBDIR)/libhpcvet.so* \
	  $(DESTDIR)$(LIBDIR)/libhpcvet.a $(DESTDIR)$(INCLUDEDIR)/hpcvet.h $(DESTDIR)$(MANDIR)/man1/hpcvet.1 $(DESTDIR)$(MANDIR)/man1/hpcvet-mpi.1 \
	  $(DESTDIR)$(PKGCONFIGDIR)/hpcvet.pc
	rm -f $(addprefix $(DESTDIR)$(PYTHONDIR)/hpcvet/,$(notdir $(PY_FILES)) _install.py)
	rm -rf $(DESTDIR)$(PYTHONDIR)/hpcvet/__pycache__
	-rmdir $(DESTDIR)$(PYTHONDIR)/hpcvet $(DESTDIR)$(PYTHONDIR) 2>/dev/null

# docs/RULES.md is generated from the rule table, and the example outputs in
# README.md, CONTRIBUTING.md and the man page come from real runs
# (tests/examples.sh); tests/docs.test.sh and tests/examples.test.sh check both are current.
# The layers of validator/LAYERS against the includes and, in the objects,
# the calls (tests/check_layers.py; tests/layers.test.sh runs it in make test).
check-layers: all
	python3 tests/check_layers.py --objects $(BUILD)/obj

docs: all
	$(BUILD)/hpcvet rules --format=markdown > docs/RULES.md
	bash tests/examples.sh update $(BUILD)

# The conformance corpus (golden/cases/, checked in): every case rebuilt from
# hpcvet-gen with fixed seeds, validated, and its expected report rewritten.
golden: all
	rm -rf golden/cases.new
	bash golden/make-cases.sh $(BUILD) golden/cases.new
	rm -rf golden/cases
	mv golden/cases.new golden/cases

# The reader conformance matrix (golden/readers/): every reference reader that
# ../shared/tools/readers/setup.sh installed under READERS (its default OUT) on
# every case of its family, corpus and real samples, with hpcvet beside them;
# writes docs/READERS.md and docs/readers-matrix.svg. A reader not installed is
# skipped, and the page says so.
READERS ?= $(or $(TMPDIR),/tmp)/readers
reader-matrix: all
	python3 golden/readers/matrix.py --readers=$(READERS) --build=$(BUILD)

# Benchmarks (not part of make test): bench/run.sh, sizes in MiB. Each
# bench-* target is one series of bench/RESULTS.md: bench/run.sh with the
# other series switched off (RUNS, BENCH_DIR, BENCH_BASE and the other
# variables of bench/run.sh pass through the environment or the command line).
BENCH_SIZE ?= 1024
BENCH_PROFILES ?= 180
BENCH_ONLY = SCALING=0 PARALLEL=0 DAMAGED=0 CERTIFY=0 IN_FLIGHT=0
BENCH_RUN = BENCH_SIZE=$(BENCH_SIZE) bash bench/run.sh $(BUILD)
bench: all
	$(BENCH_RUN)
	BENCH_SIZE=$(BENCH_SIZE) bash bench/split.sh $(BUILD)
bench-hpctoolkit: all
	FORMATS="hpctoolkit hpctk-levels hpctk-rand" $(BENCH_ONLY) $(BENCH_RUN)
bench-ovni: all
	FORMATS="ovni ovni-trace ovni-mix ovni-runtime" $(BENCH_ONLY) $(BENCH_RUN)
bench-dumpi: all
	FORMATS="dumpi dumpi-stencil dumpi-lammps" SCALING=0 PARALLEL=0 DAMAGED=0 CERTIFY=0 $(BENCH_RUN)
# What a DUMPI record costs against an older build (bench/dumpi-records.sh):
# callgrind's instructions a record, then CPU paired A B A B with BENCH_OLD
# (and with `cat`) on BENCH_SIZE MiB inputs.
bench-dumpi-records: all
	BENCH_OLD=$(BENCH_OLD) BENCH_SIZE=$(BENCH_SIZE) bash bench/dumpi-records.sh $(BUILD)
bench-damaged: all
	FORMATS="hpctoolkit ovni dumpi" $(BENCH_ONLY) DAMAGED=1 $(BENCH_RUN)
bench-certify: all
	FORMATS="$${FORMATS:-hpctoolkit ovni dumpi ovni-mix}" $(BENCH_ONLY) CERTIFY=1 $(BENCH_RUN)
bench-scaling: all
	FORMATS="$${FORMATS:-hpctoolkit ovni dumpi}" $(BENCH_ONLY) TABLE=0 SCALING=1 $(BENCH_RUN)
bench-parallel: all
	FORMATS="$${FORMATS:-hpctoolkit ovni dumpi}" $(BENCH_ONLY) PARALLEL=1 $(BENCH_RUN)
# The ovni-runtime row alone (bench/run.sh RUNTIME): RUNTIME_SIZE MiB of
# input on disk (default 1024; e.g. RUNTIME_SIZE=256 where 1 GB is not
# free), BENCH_OLD=path/to/hpcvet adds an older build's row on the same input.
RUNTIME_SIZE ?= 1024
bench-ovni-runtime: all
	FORMATS=ovni-runtime TABLE=0 SCALING=0 PARALLEL=0 CERTIFY=0 IN_FLIGHT=0 TAXONOMY=0 \
		RUNTIME_SIZE=$(RUNTIME_SIZE) BENCH_OLD=$(BENCH_OLD) $(BENCH_RUN)
bench-split: all
	BENCH_SIZE=$(BENCH_SIZE) bash bench/split.sh $(BUILD)
bench-memory: all
	PROFILES=$(BENCH_PROFILES) bash bench/bigdb.sh $(BUILD)
# Hostile shapes beside each family's valid input, at HOSTILE_SIZES MiB.
HOSTILE_SIZES ?= 1 16
bench-hostile: all
	SIZES="$(HOSTILE_SIZES)" bash bench/hostile.sh $(BUILD)
# DUMPI traces of WIDTHS ranks (bench/width.sh): CPU per record and peak RSS
# at -j1, -j2 and under mpirun, RECORDS records per rank at every width;
# then ovni traces of OVNI_WIDTHS (STREAMSxLOOMS, bench/width-ovni.sh), EVENTS
# events per worker at every width; then HPCToolkit databases of HPCTK_WIDTHS
# profiles (bench/width-hpctk.sh; 1048576 profiles are 7.5 GB).
# FAMILIES="ovni" (or any of dumpi ovni hpctoolkit) runs those families.
WIDTHS ?= 64 1024 16384 65536
OVNI_WIDTHS ?= 16x1 256x1 1024x1 16x64 16x1024 16x4096
HPCTK_WIDTHS ?= 64 1024 16384 65536
FAMILIES ?= dumpi ovni hpctoolkit
bench-width: all
	WIDTHS="$(WIDTHS)" OVNI_WIDTHS="$(OVNI_WIDTHS)" HPCTK_WIDTHS="$(HPCTK_WIDTHS)" FAMILIES="$(FAMILIES)" bash bench/width.sh $(BUILD)
# One prepared run for a lent 16-core machine (bench/device.sh): it builds,
# generates its inputs and writes markdown tables (to $$OUT when set) of the
# width series and of -j1 to -j16, in under 8 minutes.
bench-device:
	bash bench/device.sh $(BUILD)
# The Python package beside the program (bench/python.sh): CPU time on
# BENCH_SIZE MiB inputs, paired, and RSS over 10,000 small validations.
# The HTML report of a wide DUMPI trace, ~100,000 diagnostics (bench/html_report.sh).
bench-html: all
	bash bench/html_report.sh $(BUILD)
bench-python: all
	BENCH_SIZE=$(BENCH_SIZE) bash bench/python.sh $(BUILD)

# The web page (make web) beside hpcvet -j1 on a generated database and ovni
# trace of WEB_SIZE MiB each (bench/web.sh; Chromium and python3-selenium).
WEB_SIZE ?= 256
bench-web: all web
	WEB_SIZE=$(WEB_SIZE) bash bench/web.sh $(BUILD)

# What a byte read from a picked file costs Chromium, by read API and block
# size (bench/web_read_cost.py), on a generated file of WEB_READS_MIB MiB.
WEB_READS_MIB ?= 256
bench-web-reads:
	@f=$${TMPDIR:-/tmp}/hpcvet-web-reads.bin; \
	[ "$$(stat -c %s $$f 2>/dev/null)" = $$(($(WEB_READS_MIB) * 1048576)) ] || head -c $(WEB_READS_MIB)M /dev/urandom >$$f; \
	$${PYTHON:-/usr/bin/python3} bench/web_read_cost.py $$f

# The bytes and reads the page asks of the browser for one input
# (WEB_ASKS_INPUT: a generated database of WEB_SIZE MiB by default), counted
# by web/worker.js and blocks.js run in Node (bench/web_reads.js): the same figures
# as bench-web's "MiB read" and "browser reads", exact on a loaded machine;
# READ_AHEAD=1: the read-ahead mode's (the core's hints included), and the
# browser reads reader.js opens for them and the MiB their streams read past
# the runs (Chromium's rchar less "MiB read").
bench-web-asks: all web
	@command -v node >/dev/null || { echo "bench-web-asks needs Node (Debian: nodejs)" >&2; exit 2; }
	@bash -c 'in="$(WEB_ASKS_INPUT)"; if [ -z "$$in" ]; then \
	  source bench/lib.sh; gen=$(BUILD)/hpcvet-gen hv=$(BUILD)/hpcvet d=$${BENCH_DIR:-$${TMPDIR:-/tmp}/hpcvet-web-asks}; \
	  mkdir -p $$d; in=$$(bench_generate hpctoolkit "$$(bench_param hpctoolkit $(WEB_SIZE))" $$d/hpctoolkit) || exit 1; fi; \
	node bench/web_reads.js $(BUILD)/web "$$in"'

demo: all
	@bash tests/demo.sh $(BUILD)

clean:
	rm -rf build build-san build-fuzz demo-out fuzz/out fuzz/afl-out

include web/web.mk
