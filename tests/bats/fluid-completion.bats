#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-completion.bats - fluid completion bash|zsh|fish: the bash script
# is sourced and asked to complete, as bash would (COMP_WORDS,
# COMP_CWORD, then COMPREPLY); zsh's and fish's are parsed (zsh -n,
# fish -n) and fish's is asked to complete.  What is offered comes from
# the option table: every option --help lists, and every value offered
# is one the command accepts.

load helpers

setup() { TOOL=fluid; fluid_setup; }
teardown() { fluid_teardown; }

# complete WORD...: COMPREPLY for the words, the last being completed,
# one a line, sorted.
complete_words() {
	bash -c 'source <("$0" completion bash) || exit 3
	COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
	_fluid fluid "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	printf "%s\n" "${COMPREPLY[@]}" | sort' "$BIN/fluid" "$@"
}

@test "completion: bash completes commands, subcommands and a command's options" {
	run complete_words fluid ""
	assert_status 0
	assert_equal "$(tr '\n' ' ' <<<"$output")" "--help --version apply bundle completion diff export generate init lineage plan schema validate verify "
	run complete_words fluid val
	assert_equal "$output" "validate"
	run complete_words fluid generate ""
	assert_equal "$output" "flink"
	run complete_words fluid export ""
	assert_equal "$output" "odcs"
	run complete_words fluid completion ""
	assert_equal "$(tr '\n' ' ' <<<"$output")" "bash fish zsh "
	run complete_words fluid validate --ju
	assert_equal "$output" "--junit"
	run complete_words fluid generate flink --o
	assert_equal "$output" "--out"
	# An option of another command is not offered.
	run complete_words fluid validate --mo
	assert_equal "$output" ""
}

@test "completion: bash completes every option --help lists, for each command" {
	local c want got bad=0
	for c in validate bundle "generate flink" plan apply diff "export odcs" verify schema completion init; do
		want=$("$BIN/fluid" $c --help | grep -oE '^  (-[a-z], )?--[a-z][a-z-]*' |
		    grep -oE -- '--[a-z-]+' | sort -u | tr '\n' ' ')
		got=$(complete_words fluid $c -- | grep -E -- '^--' | sort -u | tr '\n' ' ')
		[ "$want" = "$got" ] && continue
		echo "fluid $c: --help lists '$want', completion offers '$got'"
		bad=$((bad + 1))
	done
	[ "$bad" -eq 0 ]
}

@test "completion: bash completes option values, and each is accepted" {
	local v
	run complete_words fluid plan --mode ""
	assert_equal "$(tr '\n' ' ' <<<"$output")" "amend amend-and-build create-only dry-run "
	for v in $output; do
		"$BIN/fluid" plan -q --mode "$v" -o plan.json \
		    "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" ||
		    fail "--mode $v refused"
	done
	# The check above can fail: a mode plan does not take.
	! "$BIN/fluid" plan -q --mode replace -o plan.json \
	    "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" 2>/dev/null ||
	    fail "plan took --mode replace"
	run complete_words fluid validate --format ""
	assert_equal "$(tr '\n' ' ' <<<"$output")" "json text "
	# --diagnostics=VALUE: bash splits at '='.
	run complete_words fluid validate --diagnostics = ""
	[ -n "$output" ] || fail "no --diagnostics values"
	for v in $output; do
		run "$BIN/fluid" validate --diagnostics="$v" "$EXAMPLES/changes/customers-cdc.fluid.yaml"
		assert_status 0
	done
	run complete_words fluid validate --diagnostics = j
	assert_equal "$output" "json"
	run complete_words fluid validate --fragment ""
	assert_equal "$(tr '\n' ' ' <<<"$output")" "recordMapping schema streamSource "
	# A number is not completed as a file.
	touch 5
	run complete_words fluid apply --wait ""
	assert_equal "$output" ""
}

@test "completion: bash completes files where a file is taken, directories for init" {
	mkdir -p dir/sub
	touch c.fluid.yaml dir/x.yaml
	run complete_words fluid validate c
	assert_equal "$output" "c.fluid.yaml"
	run complete_words fluid validate --diagnostics json dir/
	assert_equal "$(tr '\n' ' ' <<<"$output")" "dir/sub dir/x.yaml "
	run complete_words fluid generate flink --out dir/s
	assert_equal "$output" "dir/sub"
	run complete_words fluid init d
	assert_equal "$output" "dir"
	run complete_words fluid init dir/
	assert_equal "$output" "dir/sub"
	run complete_words fluid schema ""
	assert_equal "$output" ""
}

@test "completion: the zsh and fish scripts parse, and fish completes from the same table" {
	command -v zsh >/dev/null || fail "zsh is not installed (tools/bootstrap installs it)"
	command -v fish >/dev/null || fail "fish is not installed (tools/bootstrap installs it)"
	"$BIN/fluid" completion zsh >c.zsh
	run zsh -n c.zsh
	assert_status 0
	head -n 1 c.zsh | grep -qx '#compdef fluid' || fail "no #compdef line"
	run zsh -c 'source ./c.zsh && whence -w _fluid'
	assert_status 0
	assert_equal "$output" "_fluid: function"
	"$BIN/fluid" completion fish >c.fish
	run fish -n c.fish
	assert_status 0
	run fish -c 'source c.fish; complete -C"fluid plan --mode "' 
	assert_status 0
	assert_equal "$(cut -f1 <<<"$output" | tr '\n' ' ')" "amend amend-and-build create-only dry-run "
	run fish -c 'source c.fish; complete -C"fluid validate --ju"'
	assert_equal "$(cut -f1 <<<"$output")" "--junit"
	run fish -c 'source c.fish; complete -C"fluid generate "'
	assert_equal "$(cut -f1 <<<"$output")" "flink"
}

@test "completion: usage" {
	usage_error completion "^fluid: completion expects one shell: bash, zsh or fish"
	usage_error completion tcsh "^fluid: completion knows bash, zsh and fish, not 'tcsh'"
}
