#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-didyoumean.bats - a command, subcommand or option one edit away
# from a real one is named in the usage error, as the checker names a
# contract key (lib/suggest.c is the one test of closeness for both).

load helpers

setup() { TOOL=fluid; fluid_setup; }
teardown() { fluid_teardown; }

@test "did you mean: a mistyped command" {
	usage_error validat x.yaml "^fluid: unknown command 'validat' \(did you mean 'validate'\?\) \(see 'fluid --help'\)$"
	usage_error initt "^fluid: unknown command 'initt' \(did you mean 'init'\?\)"
	usage_error shcema "^fluid: unknown command 'shcema' \(did you mean 'schema'\?\)"
	# Nothing near: no guess.
	usage_error frobnicate "^fluid: unknown command 'frobnicate' \(see 'fluid --help'\)$"
}

@test "did you mean: a mistyped subcommand or shell" {
	usage_error generate flnik x.yaml --out d "^fluid: generate expects a target: generate flink \(did you mean 'flink'\?\)"
	usage_error export odc x.yaml "^fluid: export expects a format: export odcs \(did you mean 'odcs'\?\)"
	usage_error completion bsh "^fluid: completion knows bash, zsh and fish, not 'bsh' \(did you mean 'bash'\?\)"
	TOOL=fluid-k8s
	usage_error rendr "^fluid-k8s: unknown command 'rendr' \(did you mean 'render'\?\)"
	TOOL=fluid-gateway
	usage_error aply x.sql "^fluid-gateway: expects a command: apply \(did you mean 'apply'\?\)"
}

@test "did you mean: a mistyped option, the command's own first" {
	usage_error validate --jnuit r.xml x.yaml "^fluid: unknown option '--jnuit' \(did you mean '--junit'\?\) \(see 'fluid validate --help'\)$"
	usage_error validate --fromat=json x.yaml "^fluid: unknown option '--fromat=json' \(did you mean '--format'\?\)"
	usage_error plan --mdoe amend x.yaml "^fluid: unknown option '--mdoe' \(did you mean '--mode'\?\)"
	# An option of another command is still named: the error then says
	# who takes it.
	usage_error verify --stirct x.yaml "^fluid: unknown option '--stirct' \(did you mean '--strict'\?\)"
	usage_error validate --zzz x.yaml "^fluid: unknown option '--zzz' \(see 'fluid validate --help'\)$"
	# The fluid-* programs share the option table's errors.
	TOOL=fluid-diff
	usage_error --basline x.json "^fluid-diff: unknown option '--basline' \(did you mean '--baseline'\?\)"
}
