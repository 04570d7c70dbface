# Makefile - builds lib/libfluid.a and one executable per stage.
#
# Hand-written; ./configure (from configure.ac) only writes config.mk
# with the compiler and the library flags.  Targets:
#   make            the library, the tools (in bin/) and the unit tests
#   make check      every fast test: C unit tests, bats, man page lint
#   make install    into $(DESTDIR)$(PREFIX): tools and man pages
#   make clean

-include config.mk

PREFIX ?= $(if $(prefix),$(prefix),/usr/local)
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
       -Wmissing-prototypes -Wformat=2
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(WARN) $(CFLAGS_CONFIGURED) $(CFLAGS) -Ilib $(PKG_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS_CONFIGURED) $(LDFLAGS)

LIB_SRCS = lib/xalloc.c lib/diag.c lib/jptr.c lib/yload.c lib/yemit.c \
	lib/resolve.c lib/ir.c lib/types.c lib/path.c lib/digest.c \
	lib/atomic.c lib/cli.c lib/url.c lib/check.c lib/check_util.c \
	lib/check_schema.c lib/check_stream.c lib/check_expose.c \
	lib/check_mapping.c lib/sqlq.c lib/sqlgen.c
LIB_OBJS = $(LIB_SRCS:.c=.o)
LIB_HDRS = $(wildcard lib/*.h)

TOOLS = fluid fluid-resolve fluid-check fluid-sqlgen
TOOL_BINS = $(addprefix bin/,$(TOOLS))

UNIT_TESTS = $(patsubst tests/unit/%.c,bin/%,$(wildcard tests/unit/t_*.c))

MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)
MAN7 = $(wildcard man/*.7)

all: config.mk lib/libfluid.a $(TOOL_BINS) $(UNIT_TESTS)

config.mk:
	@echo "config.mk is missing: run ./configure first" \
	    "(or tools/bootstrap on a fresh machine)" >&2; exit 2

lib/%.o: lib/%.c $(LIB_HDRS) config.mk
	$(CC) $(ALL_CFLAGS) -c $< -o $@

lib/libfluid.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

bin/%: tools/%.c lib/libfluid.a $(LIB_HDRS)
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) $< -o $@ $(ALL_LDFLAGS) lib/libfluid.a $(PKG_LIBS)

bin/t_%: tests/unit/t_%.c tests/unit/tap.h lib/libfluid.a $(LIB_HDRS)
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes $< -o $@ $(ALL_LDFLAGS) \
	    lib/libfluid.a $(PKG_LIBS)

check: all
	tests/run

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	cp $(TOOL_BINS) $(DESTDIR)$(BINDIR)/
	cp $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN5),cp $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	$(if $(MAN7),cp $(MAN7) $(DESTDIR)$(MANDIR)/man7/)

clean:
	rm -rf bin lib/*.o lib/libfluid.a tests/tmp

distclean: clean
	rm -rf config.mk config.log config.status configure autom4te.cache

.PHONY: all check install clean distclean
