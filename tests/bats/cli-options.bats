#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# cli-options.bats - every program's options come from one table
# (tools/cli_opt.c): each command and subcommand answers --help and -h
# with its own usage, and an option given to a command that does not
# take it is refused with the commands that do, as their own --help
# says.

load helpers

setup() { fluid_setup; }
teardown() { fluid_teardown; }

# The long options a usage text lists, one a line, without "--".
listed() {
	printf '%s\n' "$1" | grep -oE '^  (-[a-z], )?--[a-z][a-z-]*' |
	    sed -E 's/.*--//' | sort -u
}

FLUID_CMDS=("validate" "bundle" "generate flink" "plan" "apply" "diff"
    "export odcs" "verify" "lineage" "schema" "completion" "init")

@test "cli: every command and subcommand answers --help and -h with its own usage" {
	local c p h other bad=0
	for c in "${FLUID_CMDS[@]}"; do
		for h in --help -h; do
			run --separate-stderr "$BIN/fluid" $c $h
			if [ "$status" -ne 0 ] || [[ ${lines[0]} != "usage: fluid $c "* &&
			    ${lines[0]} != "usage: fluid $c" ]]; then
				echo "'fluid $c $h': status $status, first line '${lines[0]:-}'"
				bad=$((bad + 1))
			fi
			# Its own usage: no other command's synopsis.
			for other in "${FLUID_CMDS[@]}"; do
				[ "$other" = "$c" ] && continue
				grep -qE "^(usage: |       )fluid $other( |\$)" <<<"$output" ||
				    continue
				echo "'fluid $c $h' shows 'fluid $other'"
				bad=$((bad + 1))
			done
		done
	done
	for c in render plan apply; do
		for h in --help -h; do
			run --separate-stderr "$BIN/fluid-k8s" $c $h
			[ "$status" -eq 0 ] && [[ ${lines[0]} == "usage: fluid-k8s $c "* ]] &&
			    [ "$(grep -cE '^(usage: |       )fluid-k8s ' <<<"$output")" -eq 1 ] ||
			    { echo "'fluid-k8s $c $h': ${lines[0]:-}"; bad=$((bad + 1)); }
		done
	done
	for h in --help -h; do
		run --separate-stderr "$BIN/fluid-gateway" apply $h
		[ "$status" -eq 0 ] && [[ ${lines[0]} == "usage: fluid-gateway apply "* ]] ||
		    { echo "'fluid-gateway apply $h': ${lines[0]:-}"; bad=$((bad + 1)); }
		for p in fluid-resolve fluid-check fluid-sqlgen fluid-diff fluid-verify fluid-odcs; do
			run --separate-stderr "$BIN/$p" $h
			[ "$status" -eq 0 ] && [[ ${lines[0]} == "usage: $p "* ]] ||
			    { echo "'$p $h': ${lines[0]:-}"; bad=$((bad + 1)); }
		done
	done
	[ "$bad" -eq 0 ]
}

@test "cli: an option a command does not take names every command whose --help lists it" {
	local c o want got help n=0 bad=0
	declare -A takers
	for c in "${FLUID_CMDS[@]}"; do
		run --separate-stderr "$BIN/fluid" $c --help
		for o in $(listed "$output"); do
			takers[$o]="${takers[$o]:+${takers[$o]}|}$c"
		done
	done
	[ "${#takers[@]}" -gt 15 ] || fail "too few options found: ${!takers[*]}" ""
	for c in "${FLUID_CMDS[@]}"; do
		help=$("$BIN/fluid" $c --help)
		for o in "${!takers[@]}"; do
			listed "$help" | grep -qx -- "$o" && continue
			n=$((n + 1))
			# "a, b and c": the commands of its table, in its order.
			want=$(printf '%s\n' "${takers[$o]}" | tr '|' '\n' |
			    awk '{ a[NR] = $0 } END { for (i = 1; i <= NR; i++)
			    printf "%s%s", (i == 1 ? "" : i == NR ? " and " : ", "), a[i] }')
			run --separate-stderr "$BIN/fluid" $c --$o x x.fluid.yaml
			got=${stderr%% (see*}
			if [ "$status" -ne 2 ] || [ "$got" != "fluid: --$o is for $want" ]; then
				echo "fluid $c --$o: status $status, '$stderr', not 'fluid: --$o is for $want'"
				bad=$((bad + 1))
			fi
		done
	done
	[ "$n" -gt 20 ] || fail "only $n refused options tried" ""
	[ "$bad" -eq 0 ]
}

@test "cli: --out given to validate names the seven commands that write a result" {
	TOOL=fluid usage_error validate --out x.json c.fluid.yaml \
	    "^fluid: --out is for bundle, generate flink, plan, diff, export odcs, verify and lineage \(see 'fluid validate --help'\)$"
	# Each of them takes it.
	local c
	for c in bundle "generate flink" plan diff "export odcs" verify lineage; do
		run --separate-stderr "$BIN/fluid" $c --help
		[[ $output == *"-o, --out"* ]] || fail "fluid $c --help lists no --out" "$output"
	done
}

@test "cli: fluid-k8s checks an option given before its command against that command's table" {
	TOOL=fluid-k8s usage_error --yes render "^fluid-k8s: --yes is for apply"
	TOOL=fluid-k8s usage_error --resources plan --mode amend \
	    "^fluid-k8s: --resources is for render \(see 'fluid-k8s plan --help'\)"
	TOOL=fluid-k8s usage_error render --wait 5 "^fluid-k8s: --wait is for apply"
}

@test "cli: a bad argument or a missing one is a usage error naming the option" {
	TOOL=fluid usage_error apply --mode amend --wait 99999 p.json \
	    "^fluid: --wait expects seconds from 0 to 3600"
	TOOL=fluid usage_error verify --streaming-timeout x c.yaml \
	    "^fluid: --streaming-timeout expects seconds from 0 to 86400"
	TOOL=fluid usage_error plan --mode "^fluid: option '--mode' needs an argument"
	TOOL=fluid usage_error plan -x c.yaml "^fluid: unknown option '-x'"
	TOOL=fluid usage_error plan --version c.yaml "^fluid: unknown option '--version'"
	TOOL=fluid usage_error apply --mode amend --build b p.json \
	    "^fluid: --build goes with --target"
	TOOL=fluid-gateway usage_error apply --timeout 0 c.yaml \
	    "^fluid-gateway: --timeout expects seconds from 1 to 86400"
}
