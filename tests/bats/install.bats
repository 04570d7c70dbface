#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# install.bats - make install puts what a C program needs to check a
# contract (libfluid.a, its one public header, fluid.pc) where
# pkg-config finds it, and README's program, copied from README, builds
# from the installed copy with pkg-config alone, beside its own xmalloc.
# Only the public fluid_ names are global in the installed archive.
# make uninstall removes every file install wrote.  install-strip
# strips the executables, install does not.

load helpers

# make_tree ARGS...: make in the tree under test, with check-asan's flags
# when it runs us, so that anything make finds out of date is built as
# the rest of that tree was.
make_tree() {
	if [ -n "${FLUID_SAN_FLAGS:-}" ]; then
		make -s -C "$TOP" O="$O" CFLAGS="-O1 -g $FLUID_SAN_FLAGS" \
		    LDFLAGS="$FLUID_SAN_FLAGS" "$@" >/dev/null
	else
		make -s -C "$TOP" O="$O" "$@" >/dev/null
	fi
}

setup_file() {
	# The build under test: bin/ of the tree, or O=build/asan's.
	O=$(dirname "$REAL_BIN")
	export INST="$BATS_FILE_TMPDIR/inst" O
	make_tree PREFIX="$INST" install
}

setup() { fluid_setup; }
teardown() { fluid_teardown; }

# readme_program: README's C program, the indented block that includes
# <fluid/fluid.h>, as README shows it, less the indentation.
readme_program() {
	awk '/^    / || /^$/ { block = block substr($0, 5) "\n"; next }
	    block ~ /#include <fluid\/fluid.h>/ { printf "%s", block; exit }
	    { block = "" }' "$TOP/README.md"
}

# build SRC OUT: cc as README says, with pkg-config's flags for the
# installed copy only (no -I or -L of ours; the tree is not on a path).
build() {
	local flags
	flags=$(PKG_CONFIG_PATH="$INST/lib/pkgconfig" pkg-config --cflags --libs fluid) ||
	    fail "pkg-config does not know fluid"
	run cc -std=c11 "$1" -o "$2" $flags ${FLUID_SAN_FLAGS:-}
	[ "$status" -eq 0 ] || fail "$1 does not build against the installed copy" "$output"
}

@test "install: the tools, libfluid.a, only the public header, fluid.pc, the man pages, LICENSE and NOTICE" {
	for t in fluid fluid-resolve fluid-check fluid-sqlgen fluid-k8s; do
		[ -x "$INST/bin/$t" ] || fail "no $INST/bin/$t"
	done
	[ -f "$INST/lib/libfluid.a" ]
	[ "$(ls "$INST/include")" = fluid ] || fail "more than fluid/ in include/" "$(ls "$INST/include")"
	[ "$(ls "$INST/include/fluid")" = fluid.h ] ||
	    fail "headers other than the public one installed" "$(ls "$INST/include/fluid")"
	[ -f "$INST/share/man/man1/fluid.1" ]
	cmp "$TOP/LICENSE" "$INST/share/doc/fluid/LICENSE"
	cmp "$TOP/NOTICE" "$INST/share/doc/fluid/NOTICE"
	run env PKG_CONFIG_PATH="$INST/lib/pkgconfig" pkg-config --cflags fluid
	[ "$status" -eq 0 ]
	# The directory that holds fluid/, so that <fluid/fluid.h> is found.
	[[ " $output " == *" -I$INST/include "* ]] || fail "no -I$INST/include" "$output"
	run env PKG_CONFIG_PATH="$INST/lib/pkgconfig" pkg-config --modversion fluid
	[ "$output" = "$(sed -n 's/^#define FLUID_VERSION[^_"]*"\(.*\)"$/\1/p' "$TOP/lib/fluid/fluid.h")" ]
}

@test "install: README's program, copied from README, builds with pkg-config alone and checks a contract" {
	readme_program >prog.c
	grep -q '#include <fluid/fluid.h>' prog.c || fail "README's program not found" "$(cat prog.c)"
	grep -q 'fluid_check' prog.c || fail "README's program not found" "$(cat prog.c)"
	build prog.c prog
	run ./prog "$EXAMPLES/shapes/flattened/orders-items.fluid.yaml"
	[ "$status" -eq 0 ] || fail "an example refused" "$output"
	[ -z "$output" ] || fail "diagnostics for an example" "$output"
	printf 'fluidVersion: "0.7.7"\nkind: nope\n' >bad.fluid.yaml
	run ./prog bad.fluid.yaml
	[ "$status" -eq 1 ] || fail "a bad contract not refused" "$output"
	[[ "$output" == *"bad.fluid.yaml:"*"error"* ]] || fail "no error placed in the file" "$output"
	run ./prog missing.fluid.yaml
	[ "$status" -eq 2 ]
}

@test "install: README's program builds beside its own xmalloc, slurp and path_parse" {
	{
		printf '#include <stddef.h>\n#include <stdlib.h>\n'
		printf 'void *xmalloc(size_t n) { return malloc(n ? n : 1); }\n'
		printf 'char *slurp(const char *p) { (void)p; return NULL; }\n'
		printf 'int path_parse(const char *s) { return s != NULL; }\n'
		printf 'void *diag_print;\n'
		readme_program
	} >prog.c
	grep -q 'fluid_check' prog.c || fail "README's program not found" "$(cat prog.c)"
	build prog.c prog
	run ./prog "$EXAMPLES/shapes/flattened/orders-items.fluid.yaml"
	[ "$status" -eq 0 ] || fail "an example refused" "$output"
	run ./prog bad.fluid.yaml
	[ "$status" -eq 2 ]
}

@test "install: every global symbol libfluid.a defines is a fluid_ one of the public header" {
	local syms s bad=
	syms=$(nm -g --defined-only "$INST/lib/libfluid.a" | awk 'NF == 3 { print $3 }')
	[[ $syms == *fluid_resolve* ]] || fail "fluid_resolve not defined" "$syms"
	for s in $syms; do
		[[ $s == fluid_* ]] || bad="$bad $s"
		grep -q "[^a-z0-9_]$s(" "$INST/include/fluid/fluid.h" ||
		    bad="$bad $s(not in fluid.h)"
	done
	[ -z "$bad" ] || fail "global symbols outside the public API:$bad"
	# And each function the header declares is there.
	for s in $(sed -n 's/.*[^a-z0-9_]\(fluid_[a-z0-9_]*\)(.*/\1/p' "$INST/include/fluid/fluid.h"); do
		[[ $'\n'$syms$'\n' == *$'\n'$s$'\n'* ]] || fail "$s declared, not defined"
	done
}

@test "install: fluid.h stands alone and its version is the library's and fluid --version's" {
	cat >v.c <<'C'
#include <fluid/fluid.h>
#include <string.h>
#if FLUID_VERSION_NUM < 0x000100
#error FLUID_VERSION_NUM
#endif
int main(void) {
	printf("%s %d.%d.%d %06x\n", fluid_version(), FLUID_VERSION_MAJOR,
	    FLUID_VERSION_MINOR, FLUID_VERSION_PATCH, FLUID_VERSION_NUM);
	return strcmp(fluid_version(), FLUID_VERSION) != 0;
}
C
	flags=$(PKG_CONFIG_PATH="$INST/lib/pkgconfig" pkg-config --cflags --libs fluid)
	run cc -std=c11 -Wall -Wextra -Werror -pedantic v.c -o v $flags ${FLUID_SAN_FLAGS:-}
	[ "$status" -eq 0 ] || fail "fluid.h alone does not compile" "$output"
	run ./v
	[ "$status" -eq 0 ]
	local v=${output%% *} num=${output##* } mmp
	mmp=${output#* }; mmp=${mmp%% *}
	[ "$v" = "$mmp" ] || fail "FLUID_VERSION $v, MAJOR.MINOR.PATCH $mmp"
	IFS=. read -r ma mi pa <<<"$v"
	[ "$num" = "$(printf '%02x%02x%02x' "$ma" "$mi" "$pa")" ] || fail "FLUID_VERSION_NUM $num for $v"
	run "$INST/bin/fluid" --version
	[[ $output == "fluid $v (commit "* ]] || fail "fluid --version is not $v" "$output"
}

@test "uninstall: removes every file install wrote, into an empty DESTDIR" {
	local d=$BATS_TEST_TMPDIR/dest
	mkdir "$d"
	make_tree DESTDIR="$d" prefix=/opt/fl install
	[ -f "$d/opt/fl/lib/libfluid.a" ] && [ -f "$d/opt/fl/share/doc/fluid/LICENSE" ] ||
	    fail "install wrote nowhere expected" "$(find "$d")"
	# Staged in DESTDIR, README's program builds through pkg-config's
	# sysroot, as a distribution's package build does.
	readme_program >prog.c
	run env PKG_CONFIG_SYSROOT_DIR="$d" PKG_CONFIG_PATH="$d/opt/fl/lib/pkgconfig" \
	    pkg-config --cflags --libs fluid
	[ "$status" -eq 0 ] || fail "pkg-config in DESTDIR" "$output"
	run cc -std=c11 prog.c -o prog $output ${FLUID_SAN_FLAGS:-}
	[ "$status" -eq 0 ] || fail "README's program against DESTDIR" "$output"
	run ./prog "$EXAMPLES/shapes/flattened/orders-items.fluid.yaml"
	[ "$status" -eq 0 ] || fail "an example refused" "$output"
	make_tree DESTDIR="$d" prefix=/opt/fl uninstall
	run find "$d" ! -type d
	[ -z "$output" ] || fail "left after uninstall" "$output"
	[ ! -e "$d/opt/fl/include/fluid" ] || fail "include/fluid/ left"
}

@test "install-strip: the installed executables are stripped; install's are not" {
	file "$INST/bin/fluid" | grep -q 'not stripped' ||
		fail "make install stripped: $(file "$INST/bin/fluid")"
	make_tree PREFIX="$BATS_TEST_TMPDIR/s" install-strip
	run file "$BATS_TEST_TMPDIR/s/bin/fluid-check"
	[[ "$output" == *", stripped"* ]]
}
