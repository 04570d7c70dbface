#!/usr/bin/env bats
# fluid-check-builds.bats - which builds are the managed lane's (the
# opt-in of the specification's introduction: fluidVersion "0.7.7" and
# parameters.flink.management: operator), and the builds and ids a
# managed contract may hold.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

@test "contract: the managed lane needs fluidVersion 0.7.7" {
	subst 'fluidVersion: "0.7.7"' 'fluidVersion: "0.7.6"'
	validate
	assert_status 1
	assert_stderr_line "^$F:$(at '^fluidVersion' '"'): error: fluidVersion: a build sets properties\.parameters\.flink\.management: operator, which needs fluidVersion \"0\.7\.7\"$"
}

@test "contract: builds that run elsewhere are not the managed lane's" {
	subst 'management: operator' 'management: external'
	check
	assert_status 0
	assert_stderr_line "^$F:$(at '^  - id: ingest-orders' -): warning: no build sets properties\.parameters\.flink\.management: operator, so the managed Flink lane checked nothing$"
	assert_jq '.check.managed == false and .check.builds == []'
}

@test "contract: builds: null still warns that the managed lane checked nothing" {
	null_list builds
	check
	assert_status 0
	assert_stderr_line "^$F:$(at '^builds: ' null): warning: no build sets properties\.parameters\.flink\.management: operator, so the managed Flink lane checked nothing\$"
}

@test "contract: two managed builds, each writing its own expose" {
	second
	check
	ir
	assert_jq '[.check.builds[].id] == ["ingest-orders", "ingest-returns"]'
	assert_jq '[.check.builds[].expose] == ["orders", "returns"]'
}

@test "contract: a build that is not managed is refused" {
	second
	drop 'management: operator # returns'
	validate
	# Where its properties start.
	refused "$(at 'stream: # returns' stream)" 'builds[1].properties' \
	    'a managed contract holds only managed builds: set parameters\.flink\.management: operator'
}

@test "contract: a management other than operator is refused" {
	second
	subst 'management: operator # returns' 'management: external # returns'
	validate
	refused "$(at 'management: external' external)" \
	    'builds[1].properties.parameters.flink.management' \
	    'a managed contract holds only managed builds'
}

@test "contract: two builds writing one expose are refused" {
	second ingest-returns orders
	validate
	refused "$(at 'outputs: \[orders\] # returns' orders)" \
	    'Flink build ingest-returns: outputs[0]' \
	    'one build writes each expose: exposes\[0\] is already written by builds\[0\]'
}

@test "contract: a build id with '--' is refused" {
	subst 'id: ingest-orders' 'id: ingest--orders'
	validate
	refused "$(at 'id: ingest--orders' ingest)" 'builds[0].id' \
	    "without '--' \(the in-pod SQL runner reads it as a comment\)"
}

@test "contract: a product id with '--' is refused" {
	subst 'id: shop.orders' 'id: shop--orders'
	validate
	refused "$(at '^id: shop--orders' shop)" id "without '--'"
}

@test "contract: two builds with one id are refused" {
	second ingest-orders
	validate
	refused "$(at 'id: ingest-orders # returns' ingest)" 'builds[1].id' \
	    'builds\[0\] has the same id'
}

# One mistake, one error: a builds that cannot be read as a list is not
# also reported as a contract with no managed build.
@test "contract: builds as a string is one error and no warning" {
	awk '/^builds:/ { print "builds: \"x\""; exit } { print }' \
	    "$F" >"$F.new" && mv "$F.new" "$F"
	validate
	assert_status 1
	assert_equal "$stderr" "$F:$(at '^builds:' '"'): error: builds: must be a list, not a string" \
	    "standard error"
}
