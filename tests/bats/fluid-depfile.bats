#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
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

# ref_as NAME: the contract's one fragment reference made NAME (a copy
# of the fragment, in its directory), as a YAML double-quoted string.
ref_as() {
	local dir=shapes/fragments/streams q
	cp "$dir/orders.yaml" "$dir/$1"
	q=$(jq -n --arg s "../fragments/streams/$1" '$s')
	# A JSON string is a YAML double-quoted one; sed's & and \ doubled.
	q=$(printf '%s' "$q" | sed 's/[&\\|]/\\&/g')
	sed -i "s|\$ref: ../fragments/streams/orders.yaml|\$ref: $q|" "$C"
	grep -qF '$ref: "' "$C" || fail "the reference was not changed" ""
}

@test "depfile: a name make cannot read literally is refused, naming it, exit 2, nothing written" {
	local name why i=0
	for name in 'a;b.yaml' $'a\nb.yaml' $'a\tb.yaml' 'a=b.yaml' 'a|b.yaml' \
	    'a%b.yaml' 'lib(m.yaml)' 'a.yaml\' 'a.yaml '; do
		i=$((i + 1))
		rm -rf shapes out b.d
		cp -r "$EXAMPLES/shapes" .
		ref_as "$name"
		tool bundle --depfile b.d -o out/b.yaml "$C"
		assert_status 2
		assert_match "$stderr" "^fluid: --depfile: the file 'shapes/fragments/streams/.*' cannot be written as a make rule: .*; no depfile written$"
		[ "$(printf '%s' "$stderr" | wc -l)" = 0 ] || fail "more than one line ($i)" "$stderr"
		[ ! -e b.d ] || fail "a depfile was written ($i)" "$(cat b.d)"
		[ ! -e out/b.yaml ] || fail "the bundle was written ($i)" ""
	done
	# The same for validate, whose target is the depfile less .d.
	tool validate --depfile c.d "$C"
	assert_status 2
	assert_match "$stderr" "the file '.*a\\.yaml ' cannot be written as a make rule: make drops a blank"
	[ ! -e c.d ]
	# And a target make cannot read: before anything is read.
	rm -rf shapes
	cp -r "$EXAMPLES/shapes" .
	tool bundle --depfile b.d -o 'out/x;rm -rf ~.yaml' "$C"
	assert_status 2
	assert_match "$stderr" "the target 'out/x;rm -rf ~.yaml' cannot be written as a make rule: make reads what follows ';' as a recipe"
	[ ! -e b.d ] && [ ! -e 'out/x;rm -rf ~.yaml' ]
	# A special target (make drops the leading ./).
	tool validate --depfile ./.IGNORE.d "$C"
	assert_status 2
	assert_match "$stderr" "the target '\\./\\.IGNORE' cannot be written as a make rule: make reads it as a special target"
}

@test "depfile: blanks, '#', '\$', ':', wildcards and backslashes escaped as gcc -MD escapes them: make -q is up to date after a build, and rebuilds after a change" {
	command -v make >/dev/null || fail "make is not installed" ""
	local name c
	# A fragment's name ('#' starts a $ref's pointer: the contract's).
	for name in 'a b$d.yaml' 'x\y.yaml' 'p\ q.yaml' 's\\ t.yaml' \
	    'c:\d.yaml' 'w*?[z].yaml' 'v$$w.yaml' 'o#1 \#2.fluid.yaml'; do
		rm -rf shapes out Makefile
		cp -r "$EXAMPLES/shapes" .
		c=$C
		case $name in
		*.fluid.yaml) c="shapes/flattened/$name"; mv "$C" "$c" ;;
		*) ref_as "$name"
		   # A file the wildcard would match, if it were one.
		   touch shapes/fragments/streams/wxz.yaml ;;
		esac
		# Its prerequisites are the depfile's alone.
		printf 'out/b.yaml:\n\t%s bundle -q --depfile out/b.d -o $@ %s\n-include out/b.d\n' \
		    "$BIN/fluid" "'$c'" >Makefile
		run make -s
		assert_status 0
		run make -q
		[ "$status" = 0 ] || fail "not up to date after a build ($name)" "$(cat out/b.d)"
		# What gcc -MD writes for it (gcc 12, tried), but for '\#':
		# gcc 12 writes \\#, which make 4.3 reads as \ and a comment.
		case $name in
		'p\ q.yaml') grep -qF 'p\\\ q.yaml' out/b.d || fail "not escaped as gcc does" "$(cat out/b.d)" ;;
		'x\y.yaml') grep -qF 'x\y.yaml' out/b.d || fail "a backslash doubled" "$(cat out/b.d)" ;;
		'o#1 \#2.fluid.yaml') grep -qF 'o\#1\ \\\#2.fluid.yaml' out/b.d || fail "not escaped as gcc does" "$(cat out/b.d)" ;;
		esac
		sleep 1
		case $name in
		*.fluid.yaml) touch "$c" ;;
		*) touch "shapes/fragments/streams/$name" ;;
		esac
		run make -q
		[ "$status" = 1 ] || fail "not rebuilt after a change ($name)" "$(cat out/b.d)"
		[ "$name" = 'o#1 \#2.fluid.yaml' ] && continue
		rm "shapes/fragments/streams/$name"
		run make -q
		[ "$status" -le 1 ] || fail "make failed on the deleted file ($name)" "$output"
	done
}
