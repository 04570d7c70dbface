#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# demo.bats - tools/demo/run (make demo) up to the point where it would
# start anything: its arguments, and the contracts it refuses because they
# need what the demo does not start (a schema registry, TLS/SASL
# credentials, a CFK build, a change stream).  java, mvn and unshare are
# stand-ins that record being run, so a refusal is shown to come before
# any of them.  The demo itself runs in CI (.ci/run, make demo).

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
	DEMO="$TOP/tools/demo/run"
	export DEMO_RUN="$TMP/run" FLUID_BIN="$BIN"
	unset CI
	# Stand-ins: each records its run; unshare refuses, so that an accepted
	# contract stops at the environment check, before any component.
	mkdir -p fake
	for t in java mvn unshare; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/ran"\n' "$t" "$TMP" >"fake/$t"
	done
	printf 'echo "openjdk version \\"17.0.9\\"" >&2\n' >>fake/java
	echo 'exit 1' >>fake/unshare
	chmod +x fake/*
	export PATH="$TMP/fake:$PATH"
}

teardown() { fluid_teardown; }

# demo ARGS... : the demo, its output and status in $output/$stderr/$status.
demo() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" "$DEMO" "$@"
}

# refused_before_start ERE : status 1, one line on stderr matching ERE,
# and none of java, mvn or unshare run.
refused_before_start() {
	assert_status 1
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "not one line" "$stderr"
	[[ $stderr =~ $1 ]] || fail "stderr does not match $1" "$stderr"
	[ ! -e ran ] || fail "ran $(cat ran)"
}

@test "demo: --help prints the usage, status 0" {
	demo --help
	assert_status 0
	[[ $output == usage:\ tools/demo/run* ]] || fail "no usage" "$output"
	[[ $output == *"make demo [CONTRACT=FILE]"* ]] || fail "no make line" "$output"
	[[ $output == *"Exit status:"* ]] || fail "no exit status" "$output"
}

@test "demo: bad arguments are usage errors, status 2, before anything runs" {
	local args
	for args in "--bogus" "--contract" "--count" "--count 0" "--count x1" "--count 10001" \
	    "--contract $TMP/none.fluid.yaml"; do
		# shellcheck disable=SC2086
		demo $args
		assert_status 2
		[[ $stderr == demo:\ * ]] || fail "$args: no demo: message" "$stderr"
		[ ! -e ran ] || fail "$args: ran $(cat ran)"
	done
}

@test "demo: a contract fluid validate refuses is refused, with fluid's diagnostics" {
	sed 's/type: timestamp_ltz(3)}$/type: timestamp_lz(3)}/' \
	    "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" >bad.fluid.yaml
	demo --contract bad.fluid.yaml
	assert_status 1
	[[ $stderr == *"bad.fluid.yaml:"*"error:"* ]] || fail "no diagnostic" "$stderr"
	[[ $stderr == *"demo: bad.fluid.yaml: refused by fluid validate" ]] || fail "no refusal" "$stderr"
	[ ! -e ran ] || fail "ran $(cat ran)"
}

@test "demo: avro-confluent needs a schema registry: refused" {
	demo --contract "$TOP/tests/live/contracts/avro/avro-ltz.fluid.yaml"
	refused_before_start '^demo: .*avro-ltz\.fluid\.yaml: refused: it reads Avro through a schema registry \(avro-confluent\); the demo starts no schema registry$'
}

@test "demo: a Kafka source over TLS/SASL is refused" {
	awk '{ print } /groupId: forge-commerce-orders-landed-v1$/ {
	    print "            security:"
	    print "              protocol: SASL_SSL"
	    print "              sasl: {mechanism: SCRAM-SHA-512, usernameEnv: KAFKA_USERNAME, passwordEnv: KAFKA_PASSWORD}"
	    print "              tls:"
	    print "                truststore: {path: /etc/kafka-tls/truststore.p12, passwordEnv: KAFKA_TRUSTSTORE_PASSWORD}"
	}' "$EXAMPLES/shapes/inlined/orders-landed.fluid.yaml" >sasl.fluid.yaml
	grep -q 'protocol: SASL_SSL' sasl.fluid.yaml || fail "the edit did not take"
	demo --contract sasl.fluid.yaml
	refused_before_start '^demo: sasl\.fluid\.yaml: refused: it reads Kafka over TLS/SASL \(parameters\.flink\.source\.security\); '
}

@test "demo: a CFK build is refused" {
	"$TOP/tests/cfk/variant" "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" tree
	demo --contract tree/landed/orders-landed.fluid.yaml
	refused_before_start '^demo: tree/landed/orders-landed\.fluid\.yaml: refused: build land-orders is management: cfk '
}

@test "demo: a change stream (Debezium) is refused" {
	demo --contract "$EXAMPLES/changes/customers-cdc.fluid.yaml"
	refused_before_start 'refused: its stream format is debezium-json; the demo.s producer writes plain JSON records only'
}

@test "demo: the examples are accepted and get the demo's endpoints; then the environment is checked" {
	local c
	for c in landed/orders-landed flattened/orders-items reshaped/orders-reshaped; do
		rm -f ran
		demo --contract "$EXAMPLES/shapes/$c.fluid.yaml"
		# The fake unshare refuses: an environment error, after the contract.
		assert_status 2
		[[ $stderr == "demo: unshare cannot create network and PID namespaces here (root needed)" ]] ||
		    fail "$c: not the unshare refusal" "$stderr"
		grep -q '^unshare ' ran || fail "$c: unshare was not tried"
		! grep -q '^mvn ' ran || fail "$c: mvn ran before the environment was checked"
		local d="$TMP/run/contract"
		"$BIN/fluid" validate "$d/demo.fluid.yaml" >/dev/null || fail "$c: the demo's copy is refused"
		grep -q 'uri: http://127.0.0.1:8181$' "$d/demo.fluid.yaml" || fail "$c: no demo catalog"
		grep -q 's3.endpoint: http://127.0.0.1:9000$' "$d/demo.fluid.yaml" || fail "$c: no demo S3"
		grep -q 'bootstrapServers: 127.0.0.1:9092$' "$d/demo.fluid.yaml" || fail "$c: no demo Kafka"
		! grep -q 'catalogAuth' "$d/demo.fluid.yaml" || fail "$c: catalogAuth kept"
		grep -q 'gateway: "http://127.0.0.1:8083"' "$d/fluid.targets.yaml" || fail "$c: no target"
	done
}
