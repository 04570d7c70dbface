#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# man.bats - the manual pages are clean mdoc, render with man(1), and
# stay in step with the tools: every long option a tool prints in its
# --help is in the option list of its page, and the other way round.
#
# Nothing here names a tool or a page: a new man/NAME.1 is linted and
# rendered as soon as it exists, and compared with bin/NAME as soon as
# that is built.

bats_require_minimum_version 1.5.0

BIN="${FLUID_BIN:-$BATS_TEST_DIRNAME/../../bin}"
MAN="$BATS_TEST_DIRNAME/../../man"
EXAMPLES="$BATS_TEST_DIRNAME/../../examples"

# Every page in sections 1, 5 and 7, one per line (names have no blanks).
pages() {
	local f

	for f in "$MAN"/*.1 "$MAN"/*.5 "$MAN"/*.7; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done
	return 0
}

# Every built tool (bin/fluid, bin/fluid-*) that has a page man/NAME.1.
tools_with_pages() {
	local t

	for t in "$BIN"/fluid "$BIN"/fluid-*; do
		[ -f "$t" ] && [ -x "$t" ] && [ -f "$MAN/${t##*/}.1" ] &&
		    printf '%s\n' "${t##*/}"
	done
	return 0
}

# The long options that text (a tool's --help) mentions, without "--".
help_options() {
	printf '%s\n' "$1" | grep -o -- '--[a-z][a-z-]*' | sed 's/^--//' |
	    sort -u
}

# The long options a page documents in an option list (".It Fl -name").
page_options() {
	grep -E '^\.It ' "$1" | grep -oE 'Fl \\?-[a-z][a-z-]*' |
	    sed -E 's/^Fl \\?-//' | sort -u
}

@test "the pages exist and the tools they describe are built" {
	[ -f "$MAN/fluid.1" ]
	[ -f "$MAN/fluid-resolve.1" ]
	[ -f "$MAN/fluid.7" ]
	# Without these the --help checks below would pass on nothing.
	run -0 tools_with_pages
	[[ $'\n'"$output"$'\n' == *$'\n'fluid$'\n'* ]] ||
	    { echo "bin/fluid is not built: run make"; false; }
	[[ $'\n'"$output"$'\n' == *$'\n'fluid-resolve$'\n'* ]] ||
	    { echo "bin/fluid-resolve is not built: run make"; false; }
}

@test "every section 1 page describes a program that is built" {
	local f bad=0

	for f in "$MAN"/*.1; do
		f=${f##*/}
		[ -x "$BIN/${f%.1}" ] && continue
		echo "man/$f describes ${f%.1}, which is not built (bin/${f%.1})"
		bad=$((bad + 1))
	done
	[ "$bad" -eq 0 ]
}

@test "every program a page refers to (.Xr NAME 1) is built" {
	local f x bad=0

	for f in $(pages); do
		for x in $(grep -E '^\.Xr fluid[a-z-]* 1' "$f" |
		    awk '{ print $2 }' | sort -u); do
			[ -x "$BIN/$x" ] && continue
			echo "${f##*/} refers to $x(1), which is not built"
			bad=$((bad + 1))
		done
	done
	[ "$bad" -eq 0 ]
}

# The commands a page's SYNOPSIS gives its own tool: ".Nm" (or ".Nm
# TOOL") then ".Cm CMD" (first word); a synopsis of another program
# (fluid-verify(1) also shows "fluid verify") is that program's.
page_commands() {
	awk -v t="$2" '/^\.Sh SYNOPSIS/ { s = 1; next } /^\.Sh / { s = 0 }
	    s && (prev == ".Nm" || prev == ".Nm " t) && /^\.Cm / { print $2 }
	    { prev = $0 }' "$1" | sort -u
}

@test "every command a page's SYNOPSIS names is in the tool's --help, and answers --help and -h" {
	local t c n=0 bad=0

	for t in $(tools_with_pages); do
		run "$BIN/$t" --help
		for c in $(page_commands "$MAN/$t.1" "$t"); do
			n=$((n + 1))
			printf '%s\n' "$output" | grep -Eq "(^|[[:space:]])$t $c( |\$)" ||
			    { echo "man/$t.1 names '$t $c', which '$t --help'" \
			    "does not list"; bad=$((bad + 1)); }
		done
		for c in $(page_commands "$MAN/$t.1" "$t"); do
			for h in --help -h; do
				run --separate-stderr "$BIN/$t" $c $h
				if [ "$status" -ne 0 ] || [[ "$output" != *"$t $c"* ]]
				then
					echo "'$t $c $h': exit status $status, no usage of '$t $c'"
					bad=$((bad + 1))
				fi
			done
		done
	done
	[ "$n" -gt 0 ]
	[ "$bad" -eq 0 ]
}

@test "every page passes mandoc -Tlint -Wwarning without a message" {
	command -v mandoc >/dev/null ||
	    skip "mandoc is not installed (tools/bootstrap installs it)"
	local f n=0 bad=0

	for f in $(pages); do
		n=$((n + 1))
		run mandoc -Tlint -Wwarning "$f"
		if [ "$status" -ne 0 ] || [ -n "$output" ]; then
			echo "${f##*/}: mandoc exit status $status"
			printf '%s\n' "$output"
			bad=$((bad + 1))
		fi
	done
	[ "$n" -gt 0 ]
	[ "$bad" -eq 0 ]
}

@test "every page renders with man -l at 80 columns" {
	command -v man >/dev/null ||
	    skip "man is not installed (apt-get install man-db)"
	export MANWIDTH=80 MANPAGER=cat PAGER=cat
	local f n=0 bad=0 err

	for f in $(pages); do
		n=$((n + 1))
		# --warnings: groff names undefined macros and the like.
		run --separate-stderr man --warnings -l "$f"
		# man-db's complaint about an unset locale is not the page's.
		err=$(printf '%s\n' "$stderr" |
		    grep -v "^man: can't set the locale" || true)
		if [ "$status" -ne 0 ] || [ -z "$output" ] || [ -n "$err" ]
		then
			echo "${f##*/}: man exit status $status," \
			    "${#output} bytes of output"
			printf '%s\n' "$err"
			bad=$((bad + 1))
		fi
	done
	[ "$n" -gt 0 ]
	[ "$bad" -eq 0 ]
}

@test "every section 1 page has EXIT STATUS, EXAMPLES and DIAGNOSTICS" {
	local f s bad=0

	for f in "$MAN"/*.1; do
		for s in 'EXIT STATUS' 'EXAMPLES' 'DIAGNOSTICS'; do
			grep -qx "\.Sh $s" "$f" && continue
			echo "${f##*/}: no .Sh $s"
			bad=$((bad + 1))
		done
	done
	[ "$bad" -eq 0 ]
}

@test "every tool with a page prints its usage for --help and exits 0" {
	local t n=0 bad=0

	for t in $(tools_with_pages); do
		n=$((n + 1))
		run --separate-stderr "$BIN/$t" --help
		if [ "$status" -ne 0 ] || [ -z "$output" ] ||
		    [ -n "$stderr" ]; then
			echo "$t --help: exit status $status," \
			    "${#output} bytes on standard output"
			printf '%s\n' "$stderr"
			bad=$((bad + 1))
		fi
	done
	[ "$n" -gt 0 ]
	[ "$bad" -eq 0 ]
}

@test "every long option in a tool's --help is in its page's option list" {
	local t o n=0 missing=0

	for t in $(tools_with_pages); do
		run "$BIN/$t" --help
		if [ "$status" -ne 0 ]; then
			echo "$t --help: exit status $status"
			missing=$((missing + 1))
			continue
		fi
		for o in $(help_options "$output"); do
			n=$((n + 1))
			grep -Eq "^\.It .*Fl \\\\?-$o([^[:alnum:]-]|\$)" \
			    "$MAN/$t.1" && continue
			echo "man/$t.1: --$o is in '$t --help' but has no" \
			    "'.It Fl -$o' item"
			missing=$((missing + 1))
		done
	done
	[ "$n" -gt 0 ]
	[ "$missing" -eq 0 ]
}

@test "every long option in a page's option list is in the tool's --help" {
	local t o missing=0

	for t in $(tools_with_pages); do
		run "$BIN/$t" --help
		if [ "$status" -ne 0 ]; then
			echo "$t --help: exit status $status"
			missing=$((missing + 1))
			continue
		fi
		for o in $(page_options "$MAN/$t.1"); do
			printf '%s\n' "$output" |
			    grep -Eq -- "--$o([^[:alnum:]-]|\$)" && continue
			echo "man/$t.1 documents --$o, which '$t --help'" \
			    "does not mention"
			missing=$((missing + 1))
		done
	done
	[ "$missing" -eq 0 ]
}

@test "every examples/ file a page names exists" {
	local f p bad=0

	for f in $(pages); do
		for p in $(grep -oE 'shapes/[A-Za-z0-9_./-]+\.yaml' "$f" |
		    sort -u); do
			[ -f "$EXAMPLES/$p" ] && continue
			echo "${f##*/}: examples/$p does not exist"
			bad=$((bad + 1))
		done
	done
	[ "$bad" -eq 0 ]
}
