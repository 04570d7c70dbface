# SPDX-License-Identifier: Apache-2.0
# Makefile - builds lib/libfluid.a and one executable per stage.
#
# Hand-written; ./configure (from configure.ac) only writes config.mk
# with the compiler and the library flags.  Targets:
#   make              the library, the tools (in bin/) and the unit tests
#   make check        every fast test: C unit tests, bats, man page lint
#   make check-asan   the same suite, built with ASan and UBSan
#   make check-k8s-schema  the rendered FlinkDeployments against the
#                     operator's CRD, fetched once from Maven Central
#   make check-odcs   every ODCS export against real ODCS tools (PyPI)
#   make fuzz         libFuzzer targets (clang), FUZZ_SECONDS each
#   make fuzz-smoke   every fuzz target built, its regressions run, and
#                     fuzzed FUZZ_SMOKE_SECONDS from its seeds (CI)
#   make bench        the benchmarks (tests/bench/)
#   make live         the live lane: real Kafka, Flink, Iceberg (tests/live/)
#   make k8s          the Kubernetes lane: real kube-apiserver, etcd, CRD (tests/k8s/)
#   make demo         a contract end to end on this machine (tools/demo/run),
#                     CONTRACT=FILE for another than the landed example
#   make install      into $(DESTDIR)$(PREFIX): tools, man pages, libfluid.a,
#                     its public header fluid/fluid.h, fluid.pc, LICENSE
#                     and NOTICE
#   make install-strip the same, the tools stripped
#   make uninstall    removes every file make install writes
#   make clean
#
# O=DIR puts objects and executables under DIR instead of the tree
# (check-asan uses build/asan), so several builds can live side by side.

-include config.mk

PREFIX ?= $(if $(prefix),$(prefix),/usr/local)
BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
INCLUDEDIR = $(PREFIX)/include
MANDIR = $(PREFIX)/share/man
DOCDIR = $(PREFIX)/share/doc/fluid
# The version fluid --version prints (the public header's), for fluid.pc.
FLUID_VERSION = $(shell sed -n 's/^\#define FLUID_VERSION[^_"]*"\(.*\)"/\1/p' $(PUB_HDR))
# The commit the tools are built from, for --version ("unknown" outside
# a git checkout).
FLUID_COMMIT := $(shell tools/git-commit .)
O ?= .
OBJCOPY ?= objcopy
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
       -Wmissing-prototypes -Wformat=2
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(WARN) $(CFLAGS_CONFIGURED) $(CFLAGS) -Ilib $(PKG_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS_CONFIGURED) $(LDFLAGS)
# The compiler writes what each object includes (FILE.d beside it):
# an object is rebuilt when a header it includes changes, and only then.
DEPFLAGS = -MMD -MP
# A program built from its source in one step: its FILE.d in tools/ too.
BIN_DEPFLAGS = $(DEPFLAGS) -MF $(O)/tools/$(@F).d

# Every lib/*.c is a module of libfluid.a (the order does not matter to ar).
LIB_SRCS = $(sort $(wildcard lib/*.c))
LIB_OBJS = $(patsubst %.c,$(O)/%.o,$(LIB_SRCS))
# The public header, the only one installed: what a program calls.
PUB_HDR = lib/fluid/fluid.h
LIBFLUID = $(O)/lib/libfluid.a
# The installed libfluid.a: the same objects, prelinked into one whose
# only global symbols are the public header's fluid_ functions.
LIBFLUID_PUB = $(O)/lib/pub/libfluid.a

TOOLS = fluid fluid-resolve fluid-check fluid-sqlgen fluid-k8s fluid-diff \
	fluid-verify fluid-odcs fluid-gateway fluid-lineage
TOOL_BINS = $(addprefix $(O)/bin/,$(TOOLS))
# What every tool's main() shares, and the only code that exits.
TOOL_COMMON = $(O)/tools/cli.o $(O)/tools/cli_opt.o \
	$(O)/tools/cli_help.o $(O)/tools/cli_suggest.o
# The driver's commands that have a file of their own (tools/fluid_*.c).
FLUID_CMDS = $(O)/tools/fluid_apply.o $(O)/tools/fluid_export.o \
	$(O)/tools/fluid_verify.o $(O)/tools/fluid_diff.o \
	$(O)/tools/fluid_gateway.o $(O)/tools/apply_cli.o \
	$(O)/tools/fluid_plan.o $(O)/tools/fluid_dep.o \
	$(O)/tools/fluid_generate.o $(O)/tools/fluid_opts.o \
	$(O)/tools/cli_stages.o $(O)/tools/gateway_load.o \
	$(O)/tools/fluid_validate.o $(O)/tools/fluid_lineage.o \
	$(O)/tools/fluid_schema.o $(O)/tools/fluid_completion.o \
	$(O)/tools/fluid_init.o
# Made by a pattern rule for every tool: not intermediates to delete.
.SECONDARY: $(TOOL_COMMON) $(FLUID_CMDS) $(O)/tools/fluid.o

UNIT_TESTS = $(patsubst tests/unit/%.c,$(O)/bin/%,\
	$(wildcard tests/unit/t_*.c))

MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)
MAN7 = $(wildcard man/*.7)

all: config.mk $(LIBFLUID) $(TOOL_BINS) $(UNIT_TESTS)

config.mk:
	@echo "config.mk is missing: run ./configure first" \
	    "(or tools/bootstrap on a fresh machine)" >&2; exit 2

$(O)/lib/%.o: lib/%.c config.mk
	@mkdir -p $(O)/lib
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(LIBFLUID): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

# The tools and tests link lib/libfluid.a, where every module's names
# are global.  A program that links the installed copy must not meet
# them (its own xmalloc or slurp would clash), and renaming them all
# would touch every file: so the installed archive holds one object,
# every module linked by ld -r, in which objcopy leaves global only the
# functions the public header declares.
$(LIBFLUID_PUB): $(LIB_OBJS) $(PUB_HDR)
	@mkdir -p $(O)/lib/pub
	sed -n 's/.*[^a-z0-9_]\(fluid_[a-z0-9_]*\)(.*/\1/p' $(PUB_HDR) \
	    >$(O)/lib/pub/public.syms
	$(LD) -r -o $(O)/lib/pub/fluid.o $(LIB_OBJS)
	$(OBJCOPY) --keep-global-symbols=$(O)/lib/pub/public.syms \
	    $(O)/lib/pub/fluid.o
	rm -f $@
	$(AR) rcs $@ $(O)/lib/pub/fluid.o

$(O)/tools/%.o: tools/%.c config.mk
	@mkdir -p $(O)/tools
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Itools -I$(O)/tools -c $< -o $@

# Rewritten only when the commit changes: then cli_help.o, which prints
# it, is rebuilt and the tools relinked, nothing more.
$(O)/tools/commit.h: FORCE
	@mkdir -p $(O)/tools
	@printf '#define FLUID_COMMIT "%s"\n' '$(FLUID_COMMIT)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(O)/tools/cli_help.o: $(O)/tools/commit.h
FORCE:

# The driver's main is an object too, for layout.bats's module graph.
$(O)/bin/fluid: $(O)/tools/fluid.o $(FLUID_CMDS) $(TOOL_COMMON) $(LIBFLUID)
	@mkdir -p $(O)/bin
	$(CC) $(ALL_CFLAGS) $< -o $@ $(ALL_LDFLAGS) $(FLUID_CMDS) \
	    $(TOOL_COMMON) $(LIBFLUID) $(PKG_LIBS)

# Text built into bin/fluid as C strings: the schema fluid schema
# prints, and the starter files fluid init writes.
SHARE_INC = $(O)/tools/schema.inc $(O)/tools/init_contract.inc \
	$(O)/tools/init_workspace.inc
$(O)/tools/schema.inc: tools/fluid.schema.json
$(O)/tools/init_contract.inc: tools/init/product.fluid.yaml
$(O)/tools/init_workspace.inc: tools/init/fluid.workspace.yaml
$(SHARE_INC):
	@mkdir -p $(O)/tools
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $< >$@.tmp && mv $@.tmp $@
$(O)/tools/fluid_schema.o $(O)/tools/fluid_init.o: $(SHARE_INC)
$(O)/tools/fluid_schema.o $(O)/tools/fluid_init.o: \
    ALL_CFLAGS += -I$(O)/tools

# fluid-gateway apply and fluid apply --target share fluid_gateway.o.
$(O)/bin/fluid-gateway: tools/fluid-gateway.c config.mk \
    $(O)/tools/fluid_gateway.o $(O)/tools/gateway_load.o \
    $(O)/tools/cli_stages.o $(TOOL_COMMON) $(LIBFLUID)
	@mkdir -p $(O)/bin $(O)/tools
	$(CC) $(ALL_CFLAGS) $(BIN_DEPFLAGS) -Itools $< -o $@ $(ALL_LDFLAGS) \
	    $(O)/tools/fluid_gateway.o $(O)/tools/gateway_load.o \
	    $(O)/tools/cli_stages.o \
	    $(TOOL_COMMON) $(LIBFLUID) $(PKG_LIBS)

# fluid-k8s apply and fluid apply share apply_cli.o.
$(O)/bin/fluid-k8s: tools/fluid-k8s.c config.mk $(O)/tools/apply_cli.o \
    $(TOOL_COMMON) $(LIBFLUID)
	@mkdir -p $(O)/bin $(O)/tools
	$(CC) $(ALL_CFLAGS) $(BIN_DEPFLAGS) -Itools $< -o $@ $(ALL_LDFLAGS) \
	    $(O)/tools/apply_cli.o $(TOOL_COMMON) $(LIBFLUID) $(PKG_LIBS)

$(O)/bin/%: tools/%.c config.mk $(TOOL_COMMON) $(LIBFLUID)
	@mkdir -p $(O)/bin $(O)/tools
	$(CC) $(ALL_CFLAGS) $(BIN_DEPFLAGS) -Itools $< -o $@ $(ALL_LDFLAGS) \
	    $(TOOL_COMMON) $(LIBFLUID) $(PKG_LIBS)

$(O)/bin/t_%: tests/unit/t_%.c config.mk $(LIBFLUID)
	@mkdir -p $(O)/bin $(O)/tools
	$(CC) $(ALL_CFLAGS) $(BIN_DEPFLAGS) -Wno-missing-prototypes $< -o $@ \
	    $(ALL_LDFLAGS) $(LIBFLUID) $(PKG_LIBS)

check: all
	FLUID_BIN=$(abspath $(O)/bin) tests/run

SAN = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
check-asan: config.mk
	$(MAKE) O=build/asan CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" all
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    FLUID_SAN_FLAGS="$(SAN)" FLUID_BIN=$(abspath build/asan/bin) tests/run

# Needs the network the first time (tests/k8s-schema/run); after that
# make check runs the same validation from the cache.
check-k8s-schema: all
	FLUID_BIN=$(abspath $(O)/bin) tests/k8s-schema/run

# The ODCS export against datacontract-cli and the ODCS model and JSON
# schema, from PyPI at pinned versions (tests/odcs/); needs the network
# the first time.
check-odcs: all
	FLUID_BIN=$(abspath $(O)/bin) tests/odcs/run

fuzz: config.mk
	tests/fuzz/run $(FUZZ_SECONDS)

# What CI runs: a target that no longer builds (a renamed function) or
# crashes on its seeds fails here, not in the next long fuzzing run.
fuzz-smoke: config.mk
	tests/fuzz/run $(FUZZ_SMOKE_SECONDS)

bench: all
	tests/bench/run

live: all
	FLUID_BIN=$(abspath $(O)/bin) tests/live/run

k8s: all
	FLUID_BIN=$(abspath $(O)/bin) tests/k8s/run

# A contract end to end on this machine, the live lane's components
# (tools/demo/run); CONTRACT=FILE for another contract than the example.
demo: all
	FLUID_BIN=$(abspath $(O)/bin) tools/demo/run $(if $(CONTRACT),--contract '$(CONTRACT)')

# What a C program that checks a contract needs: libfluid.a, the
# public header (#include <fluid/fluid.h>, -I$(INCLUDEDIR) through
# fluid.pc) and fluid.pc for pkg-config.
install: all $(LIBFLUID_PUB)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
	    $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/fluid \
	    $(DESTDIR)$(DOCDIR)
	install -m 755 $(INSTALL_STRIP) $(TOOL_BINS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(LIBFLUID_PUB) $(DESTDIR)$(LIBDIR)/
	install -m 644 $(PUB_HDR) $(DESTDIR)$(INCLUDEDIR)/fluid/
	install -m 644 LICENSE NOTICE $(DESTDIR)$(DOCDIR)/
	@# The libraries libfluid.a needs, by pkg-config module: then
	@# `pkg-config --cflags --libs fluid` is all a program's build needs.
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' \
	    'includedir=$(INCLUDEDIR)' '' 'Name: fluid' \
	    'Description: the stages of fluid: a data-product contract to Kafka, Flink and Iceberg' \
	    'Version: $(FLUID_VERSION)' 'Requires: yaml-0.1 jansson libcurl libcrypto' \
	    'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lfluid' \
	    >$(DESTDIR)$(LIBDIR)/pkgconfig/fluid.pc
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN5),install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	$(if $(MAN7),install -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7/)

# As GNU's install-strip: the same, with the executables stripped.
install-strip:
	$(MAKE) INSTALL_STRIP=-s install

# Every file install writes, and the directories that are fluid's own.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(TOOLS)) \
	    $(DESTDIR)$(LIBDIR)/libfluid.a \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/fluid.pc \
	    $(DESTDIR)$(INCLUDEDIR)/fluid/fluid.h \
	    $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7))) \
	    $(DESTDIR)$(DOCDIR)/LICENSE $(DESTDIR)$(DOCDIR)/NOTICE
	rmdir $(DESTDIR)$(INCLUDEDIR)/fluid $(DESTDIR)$(DOCDIR) 2>/dev/null || :

clean:
	rm -rf bin lib/*.o lib/*.d lib/libfluid.a lib/pub tools/*.o tools/*.d tools/*.inc \
	    tools/commit.h build tests/tmp

distclean: clean
	rm -rf config.mk config.log config.status configure autom4te.cache

# What the compiler wrote (DEPFLAGS); none before the first build.
-include $(wildcard $(O)/lib/*.d $(O)/tools/*.d)

.PHONY: all check check-asan check-k8s-schema check-odcs fuzz fuzz-smoke bench live k8s \
	demo install install-strip uninstall FORCE \
	clean distclean
