# hpcvet — build, test, demo. `make help` lists the targets.
#
# Builds go to $(BUILD) (default build/). `make test` runs the suite twice:
# a plain optimised build and an ASan+UBSan build (build-san/, clang).

BUILD   ?= build
CC      ?= cc
SAN     ?=
OPT     ?= -O2
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wvla
CPPFLAGS_HV := -D_DEFAULT_SOURCE -Ivalidator
ifeq ($(SAN),1)
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  OPT := -O1
endif
# -fPIC: the same objects make the shared library. -fvisibility=hidden: only
# what validator/include/hpcvet.h marks HPCVET_API is exported from it.
CFLAGS_HV := $(CSTD) $(OPT) -g $(WARN) -fPIC -fvisibility=hidden $(SANFLAGS) $(CFLAGS)
LDLIBS_HV := -lcjson -lm -pthread

# The library links the CLI's file readers for hpcvet_validate_path
# (validator/api/api_path.c); fileio.c stays the only code that opens files.
LIB_SRCS  := $(shell find validator -name '*.c' ! -path 'validator/cli/*' | sort) validator/cli/fileio.c
CLI_SRCS  := $(wildcard validator/cli/*.c)
GEN_SRCS  := $(filter-out golden/main.c,$(wildcard golden/*.c))
TEST_SRCS := $(wildcard tests/test_*.c)
HEADERS   := $(shell find validator golden tests -name '*.h' -o -name '*.def')
SOVERSION := 0
LIBVERSION := 0.1.0

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
GEN_OBJS  := $(GEN_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps test demo clean help tests-bin docs fuzz seeds install uninstall golden bench
all: deps $(BUILD)/libhpcvet.a $(BUILD)/libhpcvet-gen.a $(BUILD)/hpcvet $(BUILD)/hpcvet-gen \
     $(BUILD)/libhpcvet.so $(BUILD)/pub/libhpcvet.a

help:
	@echo "make          build $(BUILD)/hpcvet, $(BUILD)/hpcvet-gen, $(BUILD)/libhpcvet.a"
	@echo "make demo     generate a database, validate it, validate a broken one"
	@echo "make test     run the whole suite (plain build and ASan+UBSan build)"
	@echo "make docs     regenerate docs/RULES.md from the rule table"
	@echo "make install  install into PREFIX (default /usr/local), staged under DESTDIR"
	@echo "make golden   regenerate the conformance corpus golden/cases/ (deterministic)"
	@echo "make bench    throughput, RSS, scaling and -j speedup (BENCH_SIZE=MiB per format)"
	@echo "make clean    remove build directories"

# Debian packages the build needs. As root they are installed; otherwise the
# exact command is printed.
DEB_PKGS := libcjson-dev clang
deps:
	@missing=""; \
	[ -f /usr/include/cjson/cJSON.h ] || missing="$$missing libcjson-dev"; \
	command -v clang >/dev/null 2>&1 || missing="$$missing clang"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing) >/dev/null || exit 1; \
	  else \
	    echo "missing packages; run: sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) -c $< -o $@

$(BUILD)/libhpcvet.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The shared library: every internal symbol hidden, the hpcvet_* API exported.
$(BUILD)/libhpcvet.so: $(LIB_OBJS)
	$(CC) $(CFLAGS_HV) -shared -Wl,-soname,libhpcvet.so.$(SOVERSION) $(if $(SAN),,-Wl,--no-undefined) $^ $(LDLIBS_HV) \
	  -o $(BUILD)/libhpcvet.so.$(LIBVERSION)
	ln -sf libhpcvet.so.$(LIBVERSION) $(BUILD)/libhpcvet.so.$(SOVERSION)
	ln -sf libhpcvet.so.$(LIBVERSION) $@

# The installed static library: one relocatable object whose hidden symbols
# are made local, so a program linking it sees only hpcvet_* (the internal
# $(BUILD)/libhpcvet.a keeps everything global for the CLI and the tests).
$(BUILD)/pub/libhpcvet.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(LD) -r $^ -o $(BUILD)/pub/hpcvet.o
	objcopy --localize-hidden $(BUILD)/pub/hpcvet.o
	@rm -f $@
	ar rcs $@ $(BUILD)/pub/hpcvet.o

$(BUILD)/libhpcvet-gen.a: $(GEN_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/hpcvet: $(CLI_OBJS) $(BUILD)/obj/gen/corpus_cases.o $(BUILD)/libhpcvet.a
	$(CC) $(CFLAGS_HV) $^ $(LDLIBS_HV) -o $@

# The corpus cases of each rule, for `hpcvet rules --format=json`: generated
# from golden/cases/MANIFEST.json (an empty table when it is absent).
$(BUILD)/tools/manifest2c: golden/tools/manifest2c.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) $< $(LDLIBS_HV) -o $@

$(BUILD)/gen/corpus_cases.c: $(BUILD)/tools/manifest2c $(wildcard golden/cases/MANIFEST.json)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/manifest2c golden/cases/MANIFEST.json $@

$(BUILD)/obj/gen/corpus_cases.o: $(BUILD)/gen/corpus_cases.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) -c $< -o $@

$(BUILD)/hpcvet-gen: $(BUILD)/obj/golden/main.o $(BUILD)/libhpcvet-gen.a $(BUILD)/libhpcvet.a
	$(CC) $(CFLAGS_HV) $^ $(LDLIBS_HV) -o $@

$(BUILD)/tests/%: tests/%.c $(BUILD)/libhpcvet-gen.a $(BUILD)/libhpcvet.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_HV) -Igolden $(CFLAGS_HV) $< $(BUILD)/libhpcvet-gen.a $(BUILD)/libhpcvet.a $(LDLIBS_HV) -o $@

# Fuzz targets (fuzz/fuzz_*.c). Each builds as a plain regression driver
# (fuzz/regress.c, any compiler: part of make test) and, with `make fuzz`, as a
# libFuzzer binary.
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_REGRESS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/regress_%)

$(BUILD)/fuzz/regress_%: fuzz/fuzz_%.c fuzz/regress.c $(BUILD)/libhpcvet.a $(HEADERS) fuzz/container.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) fuzz/fuzz_$*.c fuzz/regress.c $(BUILD)/libhpcvet.a $(LDLIBS_HV) -o $@

$(BUILD)/fuzz/hpcvet-pack: fuzz/pack.c fuzz/container.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_HV) $(CFLAGS_HV) $< -o $@

tests-bin: all $(TEST_BINS) $(FUZZ_REGRESS) $(BUILD)/fuzz/hpcvet-pack

# libFuzzer campaign: make fuzz TARGET=single SECONDS=60
TARGET  ?= single
SECONDS ?= 60
FUZZ_CFLAGS := $(CSTD) -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
fuzz: deps
	@mkdir -p build-fuzz corpus/$(TARGET) fuzz/out/$(TARGET)
	clang $(CPPFLAGS_HV) $(FUZZ_CFLAGS) fuzz/fuzz_$(TARGET).c $(LIB_SRCS) $(LDLIBS_HV) -o build-fuzz/fuzz_$(TARGET)
	build-fuzz/fuzz_$(TARGET) -max_total_time=$(SECONDS) -rss_limit_mb=512 -timeout=5 -max_len=1048576 \
	  -artifact_prefix=fuzz/out/$(TARGET)/ fuzz/out/$(TARGET) corpus/$(TARGET)

# Seed corpora made from the golden generator: every kind valid, every rule broken.
seeds: all $(BUILD)/fuzz/hpcvet-pack
	bash fuzz/make-seeds.sh $(BUILD)

# The suite: plain build, then sanitizer build; one closing line for both.
test: deps
	@$(MAKE) --no-print-directory BUILD=build tests-bin
	@$(MAKE) --no-print-directory BUILD=build-san SAN=1 CC=clang tests-bin
	@bash tests/run.sh build build-san

# Installation. `make install PREFIX=/usr DESTDIR=/tmp/stage` stages a package.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(BUILD)/hpcvet $(BUILD)/hpcvet-gen $(DESTDIR)$(BINDIR)/
	install -m 755 $(BUILD)/libhpcvet.so.$(LIBVERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libhpcvet.so.$(LIBVERSION) $(DESTDIR)$(LIBDIR)/libhpcvet.so.$(SOVERSION)
	ln -sf libhpcvet.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libhpcvet.so
	install -m 644 $(BUILD)/pub/libhpcvet.a $(DESTDIR)$(LIBDIR)/libhpcvet.a
	install -m 644 validator/include/hpcvet.h $(DESTDIR)$(INCLUDEDIR)/hpcvet.h
	install -m 644 docs/hpcvet.1 $(DESTDIR)$(MANDIR)/man1/hpcvet.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@VERSION@|$(LIBVERSION)|g' hpcvet.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/hpcvet.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/hpcvet $(DESTDIR)$(BINDIR)/hpcvet-gen $(DESTDIR)$(LIBDIR)/libhpcvet.so* \
	  $(DESTDIR)$(LIBDIR)/libhpcvet.a $(DESTDIR)$(INCLUDEDIR)/hpcvet.h $(DESTDIR)$(MANDIR)/man1/hpcvet.1 \
	  $(DESTDIR)$(PKGCONFIGDIR)/hpcvet.pc

# docs/RULES.md is generated from the rule table; tests/docs.test.sh checks it is current.
docs: all
	$(BUILD)/hpcvet rules --format=markdown > docs/RULES.md

# The conformance corpus (golden/cases/, checked in): every case rebuilt from
# hpcvet-gen with fixed seeds, validated, and its expected report rewritten.
golden: all
	rm -rf golden/cases.new
	bash golden/make-cases.sh $(BUILD) golden/cases.new
	rm -rf golden/cases
	mv golden/cases.new golden/cases

# Benchmarks (not part of make test): bench/run.sh, sizes in MiB.
BENCH_SIZE ?= 1024
bench: all
	BENCH_SIZE=$(BENCH_SIZE) bash bench/run.sh $(BUILD)

demo: all
	@bash tests/demo.sh $(BUILD)

clean:
	rm -rf build build-san build-fuzz demo-out fuzz/out
