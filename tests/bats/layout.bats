#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# layout.bats - the rule of lib/fluid.h: the modules that check, render
# and run the stages never reach the network or start a process, so
# that generate, plan and dry runs cannot contact anything.  Checked on
# the sources (what they include, through every header) and on the
# objects and programs built (what they call).

load helpers

setup() { fluid_setup; }
teardown() { fluid_teardown; }

# The modules allowed to contact something or start a process: the
# libcurl HTTP wrapper, proc (the one that starts a program), kubectl
# and git (fluid diff --baseline-rev) through it, and the stages built
# on them.
contacting='^(net|proc|kube|verify|gw|git)([_.]|$)'
bad_headers='^(net|proc|kube|git)([_.].*)?\.h$'
bad_system='^(spawn\.h|sys/socket\.h|netdb\.h)$'
bad_symbols='^(curl_easy_|curl_multi_|curl_global_|curl_share_|posix_spawn|exec[lv]|fork$|vfork$|system$|popen$|socket$|connect$|getaddrinfo$)'

# include_rule DIR: every file of DIR (a lib/) that may not contact
# anything includes, directly or through its headers, no module that
# may.  Prints "FILE includes HEADER (through A -> B)" for each breach.
include_rule() {
	local dir=$1 f rc=0
	for f in "$dir"/*.c "$dir"/*.h; do
		local base=${f##*/}
		[[ ${base%.*} =~ $contacting ]] && continue
		awk -v dir="$dir" -v start="$base" -v badh="$bad_headers" \
		    -v bads="$bad_system" '
		function scan(file, via,   line, h, q) {
			if (file in seen) return
			seen[file] = 1
			while ((getline line < (dir "/" file)) > 0) {
				if (line ~ /^#[ \t]*include[ \t]*"/) {
					h = line; sub(/^#[ \t]*include[ \t]*"/, "", h)
					sub(/".*/, "", h)
					if (h ~ badh) {
						print start " includes " h " (through " via " -> " h ")"
						bad = 1
					}
					q[h] = 1
				} else if (line ~ /^#[ \t]*include[ \t]*</) {
					h = line; sub(/^#[ \t]*include[ \t]*</, "", h)
					sub(/>.*/, "", h)
					if (h ~ bads || (h == "curl/curl.h" &&
					    file != "url.c" && file != "url.h")) {
						print start " includes <" h "> (through " via ")"
						bad = 1
					}
				}
			}
			close(dir "/" file)
			for (h in q)
				scan(h, via " -> " h)
		}
		BEGIN { scan(start, start); exit bad }' || rc=1
	done
	return $rc
}

# symbol_rule OBJ...: none of the objects calls a network or process
# function.  Prints "OBJ calls SYMBOL" for each.
symbol_rule() {
	local o s rc=0
	for o in "$@"; do
		for s in $(nm -u "$o" | awk '{ print $NF }'); do
			if [[ $s =~ $bad_symbols ]]; then
				echo "${o##*/} calls $s"
				rc=1
			fi
		done
	done
	return $rc
}

@test "layout: no checker, renderer or stage source includes a network or kubectl module" {
	run include_rule "$TOP/lib"
	assert_status 0
	assert_equal "$output" "" "breaches"
}

@test "layout: the include rule fails when a checker file includes the network module" {
	cp -R "$TOP/lib" "$TMP/lib"
	printf '/* net.h */\n#include <curl/curl.h>\n' >"$TMP/lib/net.h"
	sed -i 's|#include "check_int.h"|#include "check_int.h"\n#include "net.h"|' \
	    "$TMP/lib/check_util.c"
	run include_rule "$TMP/lib"
	[ "$status" -ne 0 ] || fail "the rule let check_util.c include net.h" "$output"
	[[ $output == *"check_util.c includes net.h (through check_util.c -> net.h)"* ]] ||
	    fail "no line naming the breach" "$output"
	# Through a header, too: every file that includes check_int.h.
	cp "$TOP/lib/check_util.c" "$TMP/lib/check_util.c"
	sed -i 's|#include <jansson.h>|#include <jansson.h>\n#include "net.h"|' \
	    "$TMP/lib/check_int.h"
	grep -q 'net.h' "$TMP/lib/check_int.h" || fail "the test could not edit check_int.h"
	run include_rule "$TMP/lib"
	[ "$status" -ne 0 ] || fail "the rule let check_int.h include net.h" "$output"
	[[ $output == *"check_expose.c includes net.h (through check_expose.c -> check_int.h -> net.h)"* ]] ||
	    fail "no line naming the breach through the header" "$output"
}

@test "layout: the include rule refuses <spawn.h> and <curl/curl.h> outside url.c" {
	cp -R "$TOP/lib" "$TMP/lib"
	sed -i '0,/#include <stdlib.h>/s||#include <stdlib.h>\n#include <spawn.h>\n#include <curl/curl.h>|' \
	    "$TMP/lib/sqlgen.c"
	grep -q '<spawn.h>' "$TMP/lib/sqlgen.c" || fail "the test could not edit sqlgen.c"
	run include_rule "$TMP/lib"
	[ "$status" -ne 0 ] || fail "the rule let sqlgen.c include <spawn.h>" "$output"
	[[ $output == *"sqlgen.c includes <spawn.h>"* ]] || fail "spawn.h not named" "$output"
	[[ $output == *"sqlgen.c includes <curl/curl.h>"* ]] || fail "curl.h not named" "$output"
}

@test "layout: no object of a checker, renderer or stage module calls a network or process function" {
	local objs=() f base
	for f in "$REAL_BIN"/../lib/*.o; do
		base=${f##*/}
		[[ ${base%.o} =~ $contacting ]] && continue
		objs+=("$f")
	done
	[ "${#objs[@]}" -gt 10 ] || fail "no objects found beside $REAL_BIN" "${objs[*]}"
	run symbol_rule "${objs[@]}"
	assert_status 0
	assert_equal "$output" "" "calls"
}

@test "layout: the symbol rule fails on an object that calls curl_easy_perform or posix_spawn" {
	cat >"$TMP/check_fake.c" <<-'EOF'
	#include <spawn.h>
	#include <curl/curl.h>
	int f(void *h, char **argv) { pid_t p; curl_easy_perform(h);
	    return posix_spawn(&p, "x", 0, 0, argv, 0); }
	EOF
	cc -c "$TMP/check_fake.c" -o "$TMP/check_fake.o"
	run symbol_rule "$TMP/check_fake.o"
	[ "$status" -ne 0 ] || fail "the rule let an object call curl" "$output"
	[[ $output == *"check_fake.o calls curl_easy_perform"* &&
	   $output == *"check_fake.o calls posix_spawn"* ]] || fail "calls not named" "$output"
}

# The process functions, of bad_symbols.
spawn_symbols='^(posix_spawn|exec[lv]|fork$|vfork$|system$|popen$)'

# What writes to a standard stream without being given it.
stream_symbols='^(stdout|stderr|printf|vprintf|puts|putchar|perror|v?warnx?|v?errx?|__v?printf_chk)$'

# only_object_uses OBJ REGEX WHY: of lib/'s objects, none but OBJ uses a
# symbol matching REGEX (nm -u); fails naming the object, the symbol and WHY.
only_object_uses() {
	local f base s objs=0
	for f in "$REAL_BIN"/../lib/*.o; do
		base=${f##*/}
		[ "$base" = "$1" ] && continue
		objs=$((objs + 1))
		for s in $(nm -u "$f" | awk '{ print $NF }'); do
			[[ $s =~ $2 ]] && fail "$base uses $s: $3" ""
		done
	done
	[ "$objs" -gt 10 ] || fail "no objects found beside $REAL_BIN" ""
}

@test "layout: the library reports, the tool prints: of lib/'s objects only xalloc.o (out of memory) writes to stdout or stderr" {
	only_object_uses xalloc.o "$stream_symbols" "lib/ writes only to a stream it is given"
	nm -u "$REAL_BIN/../lib/xalloc.o" | grep -q ' stderr$' ||
	    fail "xalloc.o uses no stderr: the test is not looking at the right symbols" ""
}

@test "layout: of lib/'s objects only proc.o starts a process, and only kube.c and git.c include proc.h" {
	only_object_uses proc.o "$spawn_symbols" "only proc.o starts a process"
	nm -u "$REAL_BIN/../lib/proc.o" | grep -q ' posix_spawnp$' ||
	    fail "proc.o calls no posix_spawnp: the test is not looking at the right symbols" ""
	run grep -l '^#include "proc.h"' "$TOP"/lib/*.c "$TOP"/lib/*.h "$TOP"/tools/*.c "$TOP"/tools/*.h
	assert_equal "$(printf '%s\n' "$output" | sed 's|.*/||' | sort | tr '\n' ' ')" \
	    "git.c kube.c proc.c " "the files that include proc.h"
}

@test "layout: fluid-check and fluid-sqlgen import no network or process function" {
	local t s
	if nm "$REAL_BIN/fluid-check" 2>/dev/null | grep -q ' T curl_url$'; then
		skip "libcurl is linked statically (--enable-static-deps): its whole closure is inside; the object test covers the rule"
	fi
	for t in fluid-check fluid-sqlgen; do
		for s in $(nm -D --undefined-only "$REAL_BIN/$t" | awk '{ print $NF }'); do
			s=${s%%@*}
			[[ $s =~ $bad_symbols ]] && fail "$t imports $s" ""
		done
	done
	# And the rule can see an import: fluid-check does use libcurl's URL parser.
	nm -D --undefined-only "$REAL_BIN/fluid-check" | grep -qE ' curl_url(@|$)' ||
	    fail "fluid-check imports no curl_url: the test is not looking at the right symbols" ""
}

# The modules that check, make SQL or render: a program that only reads
# a document (fluid-verify, fluid-diff) must not link them (stage.h).
stage_modules='^(check|check_.*|stage_check|sqlgen|sqlgen_.*|stage_sqlgen|k8s_render|cfk_render|stage_k8s|pipeline|plan_check)$'

# linked_stages PROG: "PROG defines SYMBOL (MODULE)" for each global
# symbol of a stage module (stage_modules) that PROG's executable defines.
linked_stages() {
	local prog=$1 o m s
	declare -A def
	for o in "$REAL_BIN"/../lib/*.o; do
		m=${o##*/}
		m=${m%.o}
		[[ $m =~ $stage_modules ]] || continue
		for s in $(nm -g --defined-only "$o" | awk '$2 ~ /[TDBRC]/ { print $3 }'); do
			def[$s]=$m
		done
	done
	[ "${#def[@]}" -gt 50 ] || { echo "no stage module objects beside $REAL_BIN"; return 2; }
	for s in $(nm --defined-only "$REAL_BIN/$prog" | awk '$2 ~ /[TDBRC]/ { print $3 }'); do
		[ -n "${def[$s]:-}" ] && echo "$prog defines $s (${def[$s]})"
	done
	return 0
}

@test "layout: fluid-verify and fluid-diff link no checker, sqlgen or renderer" {
	local t
	for t in fluid-verify fluid-diff; do
		run linked_stages "$t"
		assert_status 0
		assert_equal "$output" "" "$t's stage symbols"
	done
	# And the rule sees a stage when one is linked: fluid-check's own.
	run linked_stages fluid-check
	assert_status 0
	[[ $output == *"defines check_run (check)"* ]] ||
	    fail "linked_stages does not see fluid-check's checker" "$output"
}

# module_edges OBJ...: "A B" for each object A that uses a symbol object
# B defines (a module is a file: lib/check_cdc.o is check_cdc).
module_edges() {
	local o s m
	declare -A def
	for o in "$@"; do
		m=${o##*/}
		m=${m%.o}
		for s in $(nm -g --defined-only "$o" | awk '$2 ~ /[TDBRC]/ { print $3 }'); do
			def[$s]=$m
		done
	done
	for o in "$@"; do
		m=${o##*/}
		m=${m%.o}
		for s in $(nm -u "$o" | awk '{ print $2 }'); do
			[ -n "${def[$s]:-}" ] && [ "${def[$s]}" != "$m" ] &&
			    echo "$m ${def[$s]}"
		done
	done | sort -u
}

# module_cycles OBJ...: no circle between the modules, one-way
# dependencies only.  Prints the modules of each circle tsort finds.
module_cycles() {
	local edges out
	edges=$(module_edges "$@")
	[ -n "$edges" ] || { echo "no references between the objects"; return 2; }
	out=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null)
	[ -z "$out" ] && return 0
	printf '%s\n' "$out" | sed -n 's/^tsort: \([^ :]*\)$/circle: \1/p'
	return 1
}

@test "layout: no circle between the modules of lib/ and of the driver's tools/" {
	local lib=$REAL_BIN/../lib tools=$REAL_BIN/../tools
	[ -f "$tools/fluid.o" ] || fail "no tools/fluid.o beside $REAL_BIN" ""
	run module_cycles "$lib"/*.o
	assert_status 0
	run module_cycles "$tools"/*.o
	assert_status 0
	# The checker sees the edges it must: the driver uses its commands.
	module_edges "$tools"/*.o | grep -qx 'fluid fluid_plan' ||
	    fail "no edge fluid -> fluid_plan: the checker sees nothing" \
	    "$(module_edges "$tools"/*.o)"
}

@test "layout: the circle checker fails on two modules that use each other" {
	printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$TMP/m_a.c"
	printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$TMP/m_b.c"
	printf 'int a(int);\nint c(void) { return a(3); }\n' >"$TMP/m_c.c"
	cc -c "$TMP/m_a.c" -o "$TMP/m_a.o"
	cc -c "$TMP/m_b.c" -o "$TMP/m_b.o"
	cc -c "$TMP/m_c.c" -o "$TMP/m_c.o"
	run module_cycles "$TMP/m_c.o" "$TMP/m_a.o"
	assert_status 0
	run module_cycles "$TMP"/m_*.o
	[ "$status" -eq 1 ] || fail "the checker let m_a and m_b use each other" "$output"
	[[ $output == *"circle: m_a"* && $output == *"circle: m_b"* ]] ||
	    fail "the circle's modules not named" "$output"
	[[ $output != *"m_c"* ]] || fail "m_c is in no circle" "$output"
}

# --- the licence line: tools/spdx-headers --------------------------------
# Every tracked source file carries the line (the tree itself), and the
# script that puts it there is checked on a sample of each syntax and on
# a copy of the tree.

@test "layout: every tracked source file carries SPDX-License-Identifier: Apache-2.0" {
	cd "$TOP"
	run tools/spdx-headers --check
	[ "$status" -eq 0 ] && [ -z "$output" ] ||
	    fail "tools/spdx-headers --check: files without the line" "$output"
}

@test "layout: tools/spdx-headers puts the SPDX line in each syntax's header comment, once" {
	local s=$TOP/tools/spdx-headers
	printf '/*\n * a.c - a\n */\nint a;\n' >a.c
	printf '#include <b.h>\n' >b.h
	printf '#!/bin/sh\n# run - r\n' >run
	printf '#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n"""p"""\n' >p.py
	printf '"""q"""\n' >q.py
	printf 'package x;\n' >X.java
	printf 'package main\n' >m.go
	printf '# Makefile - m\nall:\n' >Makefile
	printf 'dnl configure.ac\nAC_INIT([x], [1])\n' >configure.ac
	printf '.\\" x.1 - x\n.Dd x\n' >x.1
	printf 'a: 1\n' >data.yaml
	chmod 755 run
	run "$s" a.c b.h run p.py q.py X.java m.go Makefile configure.ac x.1 data.yaml
	assert_status 0
	assert_equal "$(cat a.c)" $'/*\n * SPDX-License-Identifier: Apache-2.0\n *\n * a.c - a\n */\nint a;' "a.c"
	assert_equal "$(cat b.h)" $'/* SPDX-License-Identifier: Apache-2.0 */\n#include <b.h>' "b.h"
	assert_equal "$(cat run)" $'#!/bin/sh\n# SPDX-License-Identifier: Apache-2.0\n# run - r' "run"
	assert_equal "$(cat p.py)" $'#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n# SPDX-License-Identifier: Apache-2.0\n"""p"""' "p.py"
	assert_equal "$(cat q.py)" $'# SPDX-License-Identifier: Apache-2.0\n"""q"""' "q.py"
	assert_equal "$(cat X.java)" $'// SPDX-License-Identifier: Apache-2.0\npackage x;' "X.java"
	assert_equal "$(cat m.go)" $'// SPDX-License-Identifier: Apache-2.0\npackage main' "m.go"
	assert_equal "$(cat Makefile)" $'# SPDX-License-Identifier: Apache-2.0\n# Makefile - m\nall:' "Makefile"
	assert_equal "$(cat configure.ac)" $'dnl SPDX-License-Identifier: Apache-2.0\ndnl configure.ac\nAC_INIT([x], [1])' "configure.ac"
	assert_equal "$(cat x.1)" $'.\\" SPDX-License-Identifier: Apache-2.0\n.\\" x.1 - x\n.Dd x' "x.1"
	assert_equal "$(cat data.yaml)" 'a: 1' "data is not a source"
	[ -x run ] || fail "run lost its mode"
	local before
	before=$(cat a.c b.h run p.py q.py X.java m.go Makefile configure.ac x.1 | sha256sum)
	run "$s" a.c b.h run p.py q.py X.java m.go Makefile configure.ac x.1 data.yaml
	assert_status 0
	assert_equal "$(cat a.c b.h run p.py q.py X.java m.go Makefile configure.ac x.1 | sha256sum)" \
	    "$before" "a second run"
	printf 'int c;\n' >c.c
	run "$s" --check a.c c.c data.yaml
	assert_status 1
	assert_equal "$output" c.c "--check"
}

@test "layout: tools/spdx-headers on a copy of the tree: every tracked source file then carries the line, and still parses" {
	mkdir tree
	(cd "$TOP" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C tree
	cd tree
	git init -q && git add -A
	run -0 "$TOP/tools/spdx-headers" --list
	local n=${#lines[@]} f syn
	[ "$n" -gt 300 ] || fail "only $n source files selected" "$output"
	[[ $output == *"lib/fluid.h c"* && $output == *"Makefile hash"* &&
	   $output == *"configure.ac dnl"* && $output == *"man/fluid.7 roff"* &&
	   $output == *"tests/run hash"* ]] || fail "a kind of source not selected" "$output"
	run -0 "$TOP/tools/spdx-headers"
	run "$TOP/tools/spdx-headers" --check
	assert_status 0
	assert_equal "$output" "" "files without the line"
	local sum
	sum=$(git ls-files -z | xargs -0 cat | sha256sum)
	run -0 "$TOP/tools/spdx-headers"
	assert_equal "$(git ls-files -z | xargs -0 cat | sha256sum)" "$sum" "a second run"
	# Each kind still parses: scripts keep their #! line and their mode.
	while read -r f syn; do
		case $f in
		*.c|*.h) ;;
		*.[1-9]) mandoc -Tlint -W warning "$f" || fail "$f no longer lints" ;;
		*.py) python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' "$f" ||
		    fail "$f no longer parses" ;;
		*.bats|*.java|*.go|*.ac|Makefile|*.in) ;;
		*) if [ "$(git show ":$f" | head -c 2)" = '#!' ]; then
			[ "$(head -c 2 "$f")" = '#!' ] || fail "$f lost its #! line"
			[ -x "$f" ] || fail "$f lost its mode"
			case $(head -n 1 "$f") in
			*bash*) bash -n "$f" || fail "$f no longer parses" ;;
			*/sh) sh -n "$f" || fail "$f no longer parses" ;;
			esac
		   fi ;;
		esac
	done < <("$TOP/tools/spdx-headers" --list)
	autoconf -o /dev/null configure.ac || fail "configure.ac no longer makes configure"
	gcc -std=c11 -Wall -Werror -fsyntax-only -Ilib \
	    $(pkg-config --cflags yaml-0.1 jansson libcurl libcrypto) lib/api.c ||
	    fail "lib/api.c no longer compiles"
}

# --- the module map -----------------------------------------------------------

# map_missing LIBDIR: the headers of LIBDIR (and of its subdirectories,
# as "fluid/fluid.h") that the module map of LIBDIR/fluid.h does not
# list, one a line.  An entry is a comment line whose first word, after
# " *" and a tab, is the header's name.  fluid.h, which holds the map,
# is not an entry of it.
map_missing() {
	local lib=$1 h
	for h in "$lib"/*.h "$lib"/*/*.h; do
		[ -f "$h" ] || continue
		h=${h#"$lib"/}
		[ "$h" = fluid.h ] && continue
		grep -qE "^ \\*	${h//./\\.}( |\$)" "$lib/fluid.h" || echo "$h"
	done
}

@test "layout: lib/fluid.h's module map lists every header of lib/" {
	run map_missing "$TOP/lib"
	assert_status 0
	assert_equal "$output" "" "headers missing from lib/fluid.h's map"
}

@test "layout: the map check names a header missing from the map" {
	mkdir -p lib/fluid
	cp "$TOP/lib/fluid.h" "$TOP/lib/xalloc.h" lib/
	printf '/* a new module */\n' >lib/newmod.h
	printf '/* a new public header */\n' >lib/fluid/extra.h
	run map_missing lib
	assert_status 0
	assert_equal "$output" "newmod.h
fluid/extra.h" "what the check names"
	# A name in another entry's text is no entry: xalloc.h is listed
	# only while its own line is.
	sed -i '/^ \*\txalloc\.h /d' lib/fluid.h
	grep -q 'xalloc\.h' lib/fluid.h || fail "xalloc.h is named nowhere else"
	run map_missing lib
	assert_equal "$output" "newmod.h
xalloc.h
fluid/extra.h" "what the check names without xalloc.h's entry"
}
