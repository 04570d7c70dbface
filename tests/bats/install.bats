#!/usr/bin/env bats
#
# install.bats - make install puts what a C program needs to reuse a
# stage (libfluid.a, its headers, fluid.pc) where pkg-config finds it,
# and a ten-line program built only from the installed copy runs the
# check stage.  install-strip strips the executables, install does not.

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

@test "install: the tools, libfluid.a, the headers, fluid.pc and the man pages" {
	for t in fluid fluid-resolve fluid-check fluid-sqlgen fluid-k8s; do
		[ -x "$INST/bin/$t" ] || fail "no $INST/bin/$t"
	done
	[ -f "$INST/lib/libfluid.a" ]
	[ -f "$INST/include/fluid/fluid.h" ]
	[ -f "$INST/include/fluid/stage.h" ]
	[ -f "$INST/share/man/man1/fluid.1" ]
	run env PKG_CONFIG_PATH="$INST/lib/pkgconfig" pkg-config --cflags fluid
	[ "$status" -eq 0 ]
	[[ "$output" == *"-I$INST/include/fluid"* ]]
}

@test "install: a C program built against the installed copy runs the check stage" {
	cat >prog.c <<'C'
#include <stdio.h>
#include <fluid/fluid.h>
int main(int argc, char **argv) {
	struct resolve_opts o = { .path = argc > 1 ? argv[1] : NULL };
	struct diags d; json_t *doc;
	diags_init(&d);
	if ((doc = stage_resolve(&o, &d)) != NULL) stage_check(doc, &d);
	diag_print(&d, stderr, DIAG_FORMAT_TEXT, "prog");
	printf("%d %s\n", diag_status(&d), doc ? "resolved" : "refused");
	json_decref(doc); diags_release(&d); return 0;
}
C
	[ "$(wc -l <prog.c)" -le 13 ]
	# Only the installed copy: the tree's lib/ is not on any path here.
	flags=$(PKG_CONFIG_PATH="$INST/lib/pkgconfig" pkg-config --cflags --libs fluid)
	cc -std=c11 -o prog prog.c -I"$INST/include" $flags ${FLUID_SAN_FLAGS:-}
	run ./prog "$EXAMPLES/shapes/flattened/orders-items.fluid.yaml"
	[ "$status" -eq 0 ]
	[ "$output" = "0 resolved" ]
	printf 'fluidVersion: "0.7.7"\nkind: nope\n' >bad.fluid.yaml
	run ./prog bad.fluid.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"error"* ]]
	[[ "${lines[-1]}" == "1 resolved" ]]
}

@test "install-strip: the installed executables are stripped; install's are not" {
	file "$INST/bin/fluid" | grep -q 'not stripped' ||
		fail "make install stripped: $(file "$INST/bin/fluid")"
	make_tree PREFIX="$BATS_TEST_TMPDIR/s" install-strip
	run file "$BATS_TEST_TMPDIR/s/bin/fluid-check"
	[[ "$output" == *", stripped"* ]]
}
