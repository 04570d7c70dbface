#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# host-literals.bats - an IPv4 address in a host is canonical dotted
# decimal, or refused (lib/url.c, url_host_literal_ok()): libcurl reads
# 0177.1.2.3 as 127.1.2.3 and 012.0.0.5 as 10.0.0.5 (octal), the job's
# Java clients as 177.1.2.3 and 12.0.0.5, so the checker, the targets and
# the allowlists would judge another host than the job contacts.  One
# message says why, at the contract's line and column.

load helpers

WHY="names an IPv4 address that is not canonical dotted decimal (four numbers 0-255 without leading zeros, such as 10.0.0.5): libcurl and the job's Java clients read other forms (leading zeros, octal, hex, fewer parts) as different addresses"

setup() {
	TOOL=fluid-check
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	C=shapes/landed/orders-landed.fluid.yaml
	unset FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST
	unset FLUID_ACQUISITION_SECRET_REF_ALLOWLIST
}

teardown() { fluid_teardown; }

# edit SED: the landed example, edited in place.
edit() { sed -i "$1" "$C"; }

# check: the stages as a pipeline, fluid-resolve | fluid-check.
check() {
	run --separate-stderr bash -c 'set -o pipefail; "$1/fluid-resolve" -- "$2" | "$1/fluid-check" >/dev/null' _ "$BIN" "$C"
}

@test "host literals: a catalog uri in octal is refused at its line and column, by fluid-check and fluid validate" {
	edit 's|https://catalog.example.com/api/catalog|https://012.0.0.5/api/catalog|'
	check
	assert_status 1
	assert_equal "$stderr" "$C:25:14: error: Managed Flink: exposes[0].binding.location.uri: $WHY"
	run --separate-stderr "$BIN/fluid" validate "$C"
	assert_status 1
	[[ $stderr == *"orders-landed.fluid.yaml:25:14: error: Managed Flink: exposes[0].binding.location.uri: $WHY"* ]] ||
	    fail "validate" "$(show)"
}

@test "host literals: the same address in canonical form is accepted" {
	edit 's|https://catalog.example.com/api/catalog|https://10.0.0.5/api/catalog|'
	check
	assert_status 0
	assert_equal "$stderr" ""
}

@test "host literals: 127.1, 0x7f.0.0.1, 2130706433 and a broker in octal are refused, each where it is written" {
	edit 's|https://catalog.example.com/api/catalog|http://127.1:8181/api/catalog|'
	edit 's|https://s3.example.com|https://0x7f.0.0.1|'
	edit 's|bootstrapServers: kafka:9092|bootstrapServers: "kafka:9092,0177.1.2.3:9092"|'
	check
	assert_status 1
	[[ $stderr == *"$C:25:14: error: Managed Flink: exposes[0].binding.location.uri: $WHY"* ]] ||
	    fail "127.1" "$(show)"
	[[ $stderr == *"$C:29:40: error: Managed Flink: exposes[0].binding.catalogProperties.s3.endpoint: $WHY"* ]] ||
	    fail "0x7f.0.0.1" "$(show)"
	[[ $stderr == *"$C:$(grep -n 'bootstrapServers:' "$C" | cut -d: -f1):31: error: Managed Flink: Flink build land-orders: properties.parameters.flink.source.bootstrapServers: $WHY"* ]] ||
	    fail "the broker" "$(show)"
	cp "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" "$C"
	edit 's|https://s3.example.com|http://2130706433:9000|'
	check
	assert_status 1
	[[ $stderr == *"s3.endpoint: $WHY"* ]] || fail "one number" "$(show)"
}

# target URL: a targets file beside the contract with one target.
target() {
	printf 'targets:\n  t:\n    backend: flink\n    flink: {gateway: "%s"}\n' "$1" >shapes/fluid.targets.yaml
}

@test "host literals: a target's gateway in octal is refused at its line and column, nothing contacted" {
	target "http://0177.0.0.1:8083"
	run --separate-stderr "$BIN/fluid-gateway" apply "$C"
	assert_status 1
	assert_equal "$stderr" "shapes/fluid.targets.yaml:4:22: error: targets.t.flink.gateway: $WHY"
	assert_equal "$output" ""
}

@test "host literals: an allowlist entry in another form admits nothing, and the refusal says why" {
	target "http://177.1.2.3:8083"
	FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=0177.1.2.3 \
	    run --separate-stderr "$BIN/fluid-gateway" apply --dry-run "$C"
	assert_status 1
	assert_equal "$stderr" "shapes/fluid.targets.yaml:3:5: error: targets.t.flink.gateway: host '177.1.2.3' is not allowed: export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=\"\$FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST,177.1.2.3\" (entry 1 of FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST admits nothing: it $WHY)"
	# Listed canonically (with what else the job contacts, which apply
	# --target checks too), the same gateway is admitted.
	FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=177.1.2.3,catalog.example.com,s3.example.com,kafka \
	FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com \
	    run --separate-stderr "$BIN/fluid-gateway" apply --dry-run "$C"
	assert_status 0
}
