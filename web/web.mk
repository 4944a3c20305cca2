# The web page (web/, README "In the browser"): the checking core and the
# report writers built to WebAssembly with Debian's toolchain, and the page
# that runs them in a Web Worker. Included by the Makefile.
#
#   make web        build $(BUILD)/web: index.html, page.js, worker.js, blocks.js, reader.js, page.css, hpcvet.wasm
#   make serve-web  serve it on http://127.0.0.1:$(WEB_PORT)/ (web/serve.py: cross-origin
#                   isolated, so that a browser without JSPI reads files ahead too; WEB_SERVE_FLAGS=--plain: not)
#
# Toolchain (Debian 12): clang-14 (--target=wasm32-wasi), lld (wasm-ld),
# wasi-libc (the C library and its headers under /usr/*/wasm32-wasi),
# libclang-rt-14-dev-wasm32 (compiler builtins), dpkg-dev (apt-get source
# unpacks with dpkg-source). cJSON and libyaml are compiled from Debian's
# source packages, downloaded by `apt-get source` into $(BUILD)/web/src
# with a sources list of the build's own ($(BUILD)/web/apt: a deb-src line
# for bookworm main; the system's APT configuration is not touched).

WEB_DIR    := $(BUILD)/web
WEB_PORT   ?= 8000
WASI_CC    ?= clang-14
WEB_DEBIAN ?= http://deb.debian.org/debian
WEB_SUITE  ?= bookworm
WASI_RES   := $(shell $(WASI_CC) -print-resource-dir 2>/dev/null)
# Debian's wasi-libc lives under /usr/{include,lib}/wasm32-wasi; only its
# headers and clang's own are searched (never the host's /usr/include).
WASI_LINK  := --target=wasm32-wasi --sysroot=/usr
WASI_FLAGS := $(WASI_LINK) -nostdlibinc -isystem $(WASI_RES)/include -isystem /usr/include/wasm32-wasi
# -msimd128: WebAssembly's 128-bit SIMD (every browser since 2021; the
# value checks' two-lane kernels, values/lanes.c, fuse.c, check.c).
WEB_CFLAGS := $(CSTD) -O2 -msimd128 $(WARN) -D_DEFAULT_SOURCE

# The core and the writers: everything of validator/ but the command line,
# the MPI program, the public C API (its thread pool and certificate code)
# and hpcvet dump.
WEB_CORE_SRCS := $(shell find validator -name '*.c' ! -path 'validator/cli/*' ! -path 'validator/mpi/*' \
		   ! -path 'validator/api/*' ! -path 'validator/dump/*' | sort)
WEB_GLUE_SRCS := $(wildcard web/wasm/*.c)
WEB_OBJS := $(patsubst %.c,$(WEB_DIR)/obj/%.o,$(WEB_CORE_SRCS) $(WEB_GLUE_SRCS))
WEB_SRC  := $(WEB_DIR)/src
WEB_YAML_SRCS := api dumper emitter loader parser reader scanner writer
WEB_DEP_OBJS := $(WEB_DIR)/obj/deps/cJSON.o $(WEB_YAML_SRCS:%=$(WEB_DIR)/obj/deps/yaml_%.o)
# Sources the Makefile generates into $(BUILD)/gen for the library's writers
# (the HTML report's style sheet and script, when it has them), compiled again.
WEB_GEN_OBJS := $(if $(HTML_ASSETS),$(WEB_DIR)/obj/gen/html_assets.o)
WEB_PAGE := index.html page.js worker.js blocks.js reader.js page.css
WEB_INC  := -Iweb/wasm -Ivalidator -I$(WEB_DIR)/include -I$(WEB_SRC)/libyaml/include

.PHONY: web serve-web web-deps web-fetch
web: web-deps $(WEB_DIR)/hpcvet.wasm $(WEB_PAGE:%=$(WEB_DIR)/%)
# The download alone (make test-build runs it beside the other compiles).
web-fetch: web-deps $(WEB_SRC)/.fetched

# As root the missing packages are installed (as `make` installs its own),
# unless WEB_DEPS_INSTALL=0 (the test asks so); otherwise the exact command
# is printed.
WEB_DEPS_INSTALL ?= 1
web-deps:
	@missing=""; \
	command -v $(WASI_CC) >/dev/null 2>&1 || missing="$$missing clang-14"; \
	command -v wasm-ld >/dev/null 2>&1 || missing="$$missing lld"; \
	[ -f /usr/include/wasm32-wasi/stdio.h ] || missing="$$missing wasi-libc"; \
	[ -n "$(WASI_RES)" ] && [ -f "$(WASI_RES)/lib/wasi/libclang_rt.builtins-wasm32.a" ] || missing="$$missing libclang-rt-14-dev-wasm32"; \
	command -v dpkg-source >/dev/null 2>&1 || missing="$$missing dpkg-dev"; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && [ "$(WEB_DEPS_INSTALL)" = 1 ]; then \
	  echo "installing:$$missing"; \
	  (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing) >/dev/null || exit 1; \
	elif [ -n "$$missing" ]; then \
	  echo "make web needs:$$missing (sudo apt-get install -y$$missing)"; exit 1; \
	fi

# apt-get with the build's own sources list, lists and cache.
WEB_APT_DIR := $(abspath $(WEB_DIR)/apt)
WEB_APT = apt-get -q -o Dir::Etc::SourceList=$(WEB_APT_DIR)/sources.list -o Dir::Etc::SourceParts=$(WEB_APT_DIR)/sources.list.d \
	  -o Dir::State::Lists=$(WEB_APT_DIR)/lists -o Dir::Cache=$(WEB_APT_DIR)/cache -o Debug::NoLocking=1

$(WEB_SRC)/.fetched:
	@mkdir -p $(WEB_APT_DIR)/sources.list.d $(WEB_APT_DIR)/lists/partial $(WEB_APT_DIR)/cache/archives/partial $(WEB_SRC)
	echo "deb-src $(WEB_DEBIAN) $(WEB_SUITE) main" >$(WEB_APT_DIR)/sources.list
	$(WEB_APT) update >$(WEB_APT_DIR)/update.log 2>&1 || { cat $(WEB_APT_DIR)/update.log; exit 1; }
	cd $(WEB_SRC) && rm -rf cjson* libyaml* && $(WEB_APT) source cjson libyaml >$(WEB_APT_DIR)/source.log 2>&1 || \
	  { cat $(WEB_APT_DIR)/source.log; exit 1; }
	cd $(WEB_SRC) && ln -sfn $$(ls -d cjson-*/ | head -n 1) cjson && ln -sfn $$(ls -d libyaml-*/ | head -n 1) libyaml
	@mkdir -p $(WEB_DIR)/include/cjson
	ln -sf $(abspath $(WEB_SRC))/cjson/cJSON.h $(WEB_DIR)/include/cjson/cJSON.h
	@touch $@

$(WEB_DIR)/obj/deps/cJSON.o: $(WEB_SRC)/.fetched
	@mkdir -p $(dir $@)
	@$(call say,WASM,$@)
	$(Q)$(WASI_CC) $(WASI_FLAGS) -std=c89 -O2 -c $(WEB_SRC)/cjson/cJSON.c -o $@

# libyaml's version comes from its source folder's name (libyaml-0.2.5).
$(WEB_DIR)/obj/deps/yaml_%.o: $(WEB_SRC)/.fetched
	@mkdir -p $(dir $@)
	@$(call say,WASM,$@)
	$(Q)v=$$(basename $$(readlink $(WEB_SRC)/libyaml) | sed 's/^libyaml-//'); \
	$(WASI_CC) $(WASI_FLAGS) -O2 -DYAML_DECLARE_STATIC -DYAML_VERSION_STRING=\"$$v\" \
	  -DYAML_VERSION_MAJOR=$$(echo $$v | cut -d. -f1) -DYAML_VERSION_MINOR=$$(echo $$v | cut -d. -f2) \
	  -DYAML_VERSION_PATCH=$$(echo $$v | cut -d. -f3) -I$(WEB_SRC)/libyaml/include -I$(WEB_SRC)/libyaml/src \
	  -c $(WEB_SRC)/libyaml/src/$*.c -o $@

$(WEB_DIR)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(call say,WASM,$@)
	$(Q)$(WASI_CC) $(WASI_FLAGS) $(WEB_CFLAGS) $(WEB_INC) -c $< -o $@

# memcpy, memmove and memset as memory.copy and memory.fill (web/wasm/mem.c,
# which says why that file alone).
$(WEB_DIR)/obj/web/wasm/mem.o: WEB_CFLAGS += -mbulk-memory

$(WEB_DIR)/obj/%.o: %.c $(HEADERS) $(wildcard web/wasm/*.h) $(WEB_SRC)/.fetched
	@mkdir -p $(dir $@)
	@$(call say,WASM,$@)
	$(Q)$(WASI_CC) $(WASI_FLAGS) $(WEB_CFLAGS) $(WEB_INC) -DYAML_DECLARE_STATIC -c $< -o $@

# A reactor: no main; worker.js calls the exports of web/wasm/entry.c.
# 8 MiB of stack, as a thread of the CLI has at least; memory grows up to
# the 4 GiB a wasm32 module can address.
$(WEB_DIR)/hpcvet.wasm: $(WEB_OBJS) $(WEB_GEN_OBJS) $(WEB_DEP_OBJS)
	@$(call say,LD,$@)
	$(Q)$(WASI_CC) $(WASI_LINK) -mexec-model=reactor -Wl,-z,stack-size=8388608 -Wl,--max-memory=4294967296 \
	  -Wl,--strip-all $^ -lm -o $@

$(WEB_DIR)/%: web/%
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

WEB_SERVE_FLAGS ?=
serve-web: web
	python3 web/serve.py $(WEB_DIR) $(WEB_PORT) $(WEB_SERVE_FLAGS)

