#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-gateway-allow.bats - fluid-gateway apply and fluid apply --target
# run every check fluid apply makes of what the job contacts (issue 27):
# the own SQL allowlist, the catalog's, token endpoint's, s3.endpoint's,
# brokers' and schema registry's hosts, and the catalogAuth pairing,
# before the session opens.  Against the fake gateway
# (tests/net/fake_gateway.py); a refusal must leave its request log empty.

load helpers

FAKE_PID=

setup() {
	TOOL=fluid-gateway
	fluid_setup
	command -v python3 >/dev/null || skip "python3 is not installed"
	cp -R "$EXAMPLES/shapes" shapes
	C=shapes/landed/orders-landed.fluid.yaml
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com
	unset FLUID_FLINK_CONTRACT_SQL_ALLOWLIST
	start_fake fake_gateway.py || return
	mkfile shapes/fluid.targets.yaml <<-EOF2
	targets:
	  local:
	    backend: flink
	    flink: {gateway: "http://127.0.0.1:$PORT"}
	EOF2
}

teardown() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	fluid_teardown
}

no_request() {
	[ ! -s "$TMP/requests.log" ] || fail "the gateway was contacted" "$(cat "$TMP/requests.log")"
}

gw() { run --separate-stderr "$BIN/fluid-gateway" apply "$@"; }

@test "gateway allow: the landed example with its hosts listed reaches the gateway (the accepting case)" {
	gw "$C"
	assert_status 0
	[ -s "$TMP/requests.log" ] || fail "no request reached the fake" "$(show)"
}

@test "gateway allow: an unlisted catalog host and an unpaired catalogAuth variable are refused before any request" {
	sed -i 's|uri: https://catalog.example.com/api/catalog|uri: https://evil.example.net/api/catalog|' "$C"
	gw "$C"
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" "exposes\\[0\\]\\.binding\\.location\\.uri: host 'evil.example.net' is not allowed"
	assert_match "$stderr" "catalog credential 'ICEBERG_TOKEN' may not be sent to 'evil.example.net'"
	no_request
	# fluid apply --target runs the same checks.
	run --separate-stderr "$BIN/fluid" apply --target local "$C"
	assert_status 1
	assert_match "$stderr" "host 'evil.example.net' is not allowed"
	no_request
}

@test "gateway allow: an unlisted s3.endpoint or broker is refused before any request, dry run included" {
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com
	gw --dry-run "$C"
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" "s3.endpoint: host 's3.example.com' is not allowed"
	assert_match "$stderr" "source.bootstrapServers: host 'kafka' is not allowed"
	gw "$C"
	assert_status 1
	no_request
}

@test "gateway allow: the contract's own SQL needs its FLUID_FLINK_CONTRACT_SQL_ALLOWLIST entry" {
	sed -i 's|^      parameters:$|      sql: SELECT * FROM source_events\n      parameters:|' "$C"
	gw "$C"
	assert_status 1
	assert_match "$stderr" "properties.sql: .*FLUID_FLINK_CONTRACT_SQL_ALLOWLIST"
	no_request
	FLUID_FLINK_CONTRACT_SQL_ALLOWLIST=commerce.orders-landed/land-orders gw "$C"
	assert_status 0
}
