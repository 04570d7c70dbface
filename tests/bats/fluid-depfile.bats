#!/usr/bin/env bats
#
# fluid-depfile.bats - --depfile writes the rule gcc -MD -MP would: the
# output depends on the contract and every fragment and workspace file it
# read, so a Makefile rebuilds exactly when one of them changes.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	cp -r "$EXAMPLES/shapes" .
	C=shapes/flattened/orders-items.fluid.yaml
}
teardown() { fluid_teardown; }

@test "depfile: the target, then the contract, the workspace file and each fragment it read" {
	tool bundle --depfile b.d -o out/b.yaml "$C"
	assert_status 0
	run cat b.d
	[ "${lines[0]}" = "out/b.yaml: \\" ] || fail "the target" "$output"
	[[ $output == *"  $C \\"* ]] || fail "the contract" "$output"
	[[ $output == *"  shapes/fluid.workspace.yaml \\"* ]] || fail "the workspace" "$output"
	[[ $output == *"  shapes/fragments/streams/orders.value.yaml"* ]] || fail "a fragment" "$output"
	# -MP: an empty rule per file, so a deleted fragment is no make error.
	grep -qx "shapes/fragments/streams/orders.yaml:" b.d || fail "no empty rule" "$output"
}

@test "depfile: a Makefile rebuilds exactly when the contract or a fragment changes" {
	command -v make >/dev/null || fail "make is not installed" ""
	cat >Makefile <<EOF2
FLUID = $BIN/fluid
all: gen/stamp out/bundle.yaml build/c.ok
gen/stamp: $C
	\$(FLUID) generate flink -q --depfile gen.d --out gen $C && touch \$@
out/bundle.yaml: $C
	\$(FLUID) bundle -q --depfile out/bundle.d -o \$@ $C
build/c.ok: $C
	\$(FLUID) validate --depfile build/c.ok.d $C >/dev/null && touch \$@
-include out/bundle.d build/c.ok.d
EOF2
	run make -s
	assert_status 0
	[ -s out/bundle.yaml ] && [ -f build/c.ok ] && [ -f gen/flatten-order-items.sql ] ||
	    fail "not built" "$(find . -newer Makefile -type f)"
	# make -q: status 0 when the target is up to date, 1 when not.
	run make -q
	assert_status 0
	# A fragment the contract reads: the bundle and the validation again.
	sleep 1
	touch shapes/fragments/streams/orders.value.yaml
	run make -q out/bundle.yaml
	assert_status 1
	run make -q build/c.ok
	assert_status 1
	# gen/stamp's rule has no -include of gen.d: only its contract.
	run make -q gen/stamp
	assert_status 0
	run make -s
	assert_status 0
	run make -q
	assert_status 0
	# A file no contract reads: nothing.
	touch shapes/fragments/unrelated.yaml
	run make -q
	assert_status 0
	# The depfile names a deleted fragment's empty rule: still no error.
	rm shapes/fragments/streams/orders.value.yaml
	run make -q out/bundle.yaml
	[ "$status" -le 1 ] || fail "make failed on the deleted fragment" "$output"
}

@test "depfile: usage errors: bundle without --out, validate of a name without .d or of two files" {
	tool bundle --depfile b.d "$C"
	assert_status 2
	assert_match "$stderr" "bundle --depfile needs --out"
	tool validate --depfile b.dep "$C"
	assert_status 2
	assert_match "$stderr" "validate --depfile names FILE.d"
	tool validate --depfile b.d "$C" "$C"
	assert_status 2
	assert_match "$stderr" "validate --depfile takes one FILE"
	[ ! -e b.d ] && [ ! -e b.dep ]
}

@test "depfile: a refused contract writes no depfile" {
	sed -i 's/^fluidVersion: .*/fluidVersion: "0.0.1"/' "$C"
	tool validate --depfile c.d "$C"
	assert_status 1
	[ ! -e c.d ] || fail "a depfile was written" "$(cat c.d)"
}
