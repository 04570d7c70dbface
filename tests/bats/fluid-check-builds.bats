#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
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

# What the warning outside the managed lane says fluid did not check.
UNCHECKED="fluid checked only fluidVersion, kind, id and name, not the FLUID schema's rules: expose kinds and bindings, build engines and outputs, and column names and types were not checked"

# returns_location NS TABLE [URI [WAREHOUSE]]: the location of the
# expose second adds.
returns_location() {
	subst 'uri: https://catalog.example.com/api/catalog
        warehouse: s3://lake/warehouse
        namespace: shop
        table: returns' "uri: ${3:-https://catalog.example.com/api/catalog}
        warehouse: ${4:-s3://lake/warehouse}
        namespace: $1
        table: $2"
}
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
	assert_stderr_line "^$F:$(at '^  - id: ingest-orders' -): warning: builds: no build sets properties\.parameters\.flink\.management: operator, so the managed Flink lane's rules did not apply: $UNCHECKED\$"
	# external is no misspelt operator: no hint.
	[[ $stderr != *'did you mean'* ]] || fail "a hint for external" "$stderr"
	assert_jq '.check.managed == false and .check.builds == []'
}

@test "contract: builds: null still warns that the managed lane checked nothing" {
	null_list builds
	check
	assert_status 0
	assert_stderr_line "^$F:$(at '^builds: ' null): warning: builds: no build sets properties\.parameters\.flink\.management: operator, so the managed Flink lane's rules did not apply: $UNCHECKED\$"
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
	    '^ingest-orders is also builds\[0\]\.id$'
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

@test "contract: build ids that differ only by case are refused" {
	second Ingest-Orders
	validate
	refused "$(at 'id: Ingest-Orders # returns' Ingest)" 'builds[1].id' \
	    '^Ingest-Orders differs from builds\[0\]\.id ingest-orders only by case: generate writes one <id>\.sql per build, and a case-insensitive file system holds one file for both$'
}

@test "contract: build ids that differ by more than case are accepted" {
	second ingest_orders
	check
	ir
	assert_jq '[.check.builds[].id] == ["ingest-orders", "ingest_orders"]'
}

@test "contract: two exposes naming one Iceberg table are refused" {
	second
	# The same catalog and warehouse spelt otherwise, the names in
	# another case: one table for a catalog that folds case.
	returns_location SHOP Orders \
	    https://CATALOG.example.com:443/api//catalog/ s3://lake/warehouse/
	validate
	refused "$(at 'table: Orders' Orders)" \
	    'exposes[1].binding.location.table' \
	    '^exposes\[0\] names the same Iceberg table \(catalog uri, warehouse, namespace and table, the names compared ignoring case\): one build writes each table$'
}

@test "contract: the same table name in another namespace or warehouse is accepted" {
	second
	returns_location shop_eu orders
	check
	ir
	assert_jq '.check.builds[1].table | .namespace == "shop_eu" and
	    .name == "orders"'
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	second
	returns_location shop orders https://catalog.example.com/api/catalog \
	    s3://lake/warehouse-eu
	check
	ir
	assert_jq '.check.builds[1].table.catalog.warehouse ==
	    "s3://lake/warehouse-eu"'
}

@test "contract: a misspelt management in a managed contract gets a hint" {
	local v
	for v in operater Operator; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		second
		subst 'management: operator # returns' "management: $v # returns"
		validate
		refused "$(at "management: $v" "$v")" \
		    'builds[1].properties.parameters.flink.management' \
		    "^'$v' is not a management fluid knows \\(did you mean 'operator'\\?\\): a managed contract holds only managed builds\$"
	done
}

@test "contract: a misspelt management where no build is managed is a warning" {
	subst 'management: operator' 'management: opertor'
	validate
	assert_status 0
	assert_equal "$output" "$F: ok" "standard output"
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "want two warnings" "$(show)"
	[[ ${stderr_lines[0]} == "$F:$(at 'management: opertor' opertor): warning: builds[0].properties.parameters.flink.management: 'opertor' is not operator (did you mean 'operator'?), so this build is not in the managed Flink lane" ]] ||
	    fail "no hint at the management" "$(show)"
	[[ ${stderr_lines[1]} == "$F:$(at '^  - id: ingest-orders' -): warning: builds: no build sets "* ]] ||
	    fail "no warning that the lane did not apply" "$(show)"
}

# A 0.7.6 contract is the stable schema's: fluid does not check it, and
# says so instead of a bare ok (the issue's reproduction: an expose kind,
# an engine and a column name the managed lane would refuse).
@test "contract: a 0.7.6 contract says the managed lane's rules did not apply" {
	subst 'fluidVersion: "0.7.7"' 'fluidVersion: "0.7.6"'
	drop 'management: operator'
	subst 'kind: table' 'kind: view'
	subst 'engine: flink' 'engine: spark'
	subst '{name: quantity, type: int}' '{name: bad name, type: int}'
	validate
	assert_status 0
	assert_equal "$output" "$F: ok" "standard output"
	assert_equal "$stderr" "$F:$(at '^fluidVersion' '"'): warning: fluidVersion: \"0.7.6\" is not the managed Flink lane's schema version (\"0.7.7\"), so the lane's rules did not apply: $UNCHECKED" \
	    "standard error"
}

@test "contract: a managed 0.7.7 contract has no such warning" {
	validate
	accepted
}
