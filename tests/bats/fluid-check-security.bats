#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-security.bats - parameters.flink.source.security (Kafka TLS
# and SASL, fluid-check(1) and fluid-sqlgen(1)): what the checker accepts
# and refuses, that no credential is ever echoed or written, the
# ${fluidenv:NAME} references fluid-sqlgen writes instead (with the
# Kafka EnvVarConfigProvider that resolves them, allowlisted to exactly
# the variables named), the
# clear-text warnings, and fluid apply's pairing of every variable with
# every broker (FLUID_ACQUISITION_SECRET_REF_ALLOWLIST).
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load fake-kubectl
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

SRC=properties.parameters.flink.source.security
SCRAM='sasl: {mechanism: SCRAM-SHA-512, usernameEnv: KAFKA_USERNAME, passwordEnv: KAFKA_PASSWORD}'
TRUST='truststore: {path: /etc/kafka-tls/truststore.p12, passwordEnv: KAFKA_TRUSTSTORE_PASSWORD}'

# security PROTOCOL [LINES...]: a security block under the source, each
# further line indented under it.
security() {
	local text="security:
  protocol: $1" l
	shift
	for l in "$@"; do
		text+="
  $l"
	done
	add source "$text"
}

# sql: the build's SQL (fluid-resolve | fluid-check | fluid-sqlgen --sql).
sql() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" bash -c \
	    'set -o pipefail; "$1/fluid-resolve" -- "$2" | "$1/fluid-check" |
	    "$1/fluid-sqlgen" --sql' sql "$BIN" "$F"
}

# has_option KEY VALUE: the last SQL sets the WITH option KEY to VALUE.
has_option() {
	grep -Fqx "  '$1' = '$2'," <<<"$output" ||
	    grep -Fqx "  '$1' = '$2'" <<<"$output" ||
	    fail "no option '$1' = '$2'" "$output"
}

# has_providers PATTERN: Kafka's EnvVarConfigProvider, named fluidenv,
# allowed to read exactly the variables PATTERN names, once each.
has_providers() {
	has_option properties.config.providers fluidenv
	has_option properties.config.providers.fluidenv.class \
	    org.apache.kafka.common.config.provider.EnvVarConfigProvider
	has_option properties.config.providers.fluidenv.param.allowlist.pattern "$1"
	[ "$(grep -c "config\.providers" <<<"$output")" -eq 3 ] ||
	    fail "other config.providers options" "$output"
}

# --- accepted ----------------------------------------------------------------

@test "security: SASL_SSL with SCRAM and a truststore is accepted; the IR names only variables and a path" {
	security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	validate
	accepted
	check
	ir
	assert_jq ".check.builds[0].stream.source.security == {
	    \"protocol\": \"SASL_SSL\",
	    \"sasl\": {\"mechanism\": \"SCRAM-SHA-512\",
	      \"usernameEnv\": \"KAFKA_USERNAME\",
	      \"passwordEnv\": \"KAFKA_PASSWORD\"},
	    \"tls\": {\"truststore\": {\"path\": \"/etc/kafka-tls/truststore.p12\",
	      \"type\": \"PKCS12\", \"passwordEnv\": \"KAFKA_TRUSTSTORE_PASSWORD\"},
	      \"keystore\": null},
	    \"variables\": [\"KAFKA_USERNAME\", \"KAFKA_PASSWORD\",
	      \"KAFKA_TRUSTSTORE_PASSWORD\"]}"
}

@test "security: the SQL carries references, never a value, and hostname verification is written on" {
	security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	export KAFKA_USERNAME=orders-svc KAFKA_PASSWORD=Pa55-in-the-env
	export KAFKA_TRUSTSTORE_PASSWORD=trust-in-the-env
	sql
	assert_status 0
	has_option properties.security.protocol SASL_SSL
	has_option properties.sasl.mechanism SCRAM-SHA-512
	has_option properties.sasl.jaas.config 'org.apache.kafka.common.security.scram.ScramLoginModule required username="${fluidenv:KAFKA_USERNAME}" password="${fluidenv:KAFKA_PASSWORD}";'
	has_option properties.ssl.truststore.location /etc/kafka-tls/truststore.p12
	has_option properties.ssl.truststore.type PKCS12
	has_option properties.ssl.truststore.password '${fluidenv:KAFKA_TRUSTSTORE_PASSWORD}'
	has_option properties.ssl.endpoint.identification.algorithm https
	has_providers '^(KAFKA_PASSWORD|KAFKA_TRUSTSTORE_PASSWORD|KAFKA_USERNAME)$'
	[[ $output != *Pa55-in-the-env* && $output != *orders-svc* &&
	    $output != *trust-in-the-env* ]] || fail "a value is in the SQL"
}

@test "security: generate flink writes no credential into any file" {
	security SASL_SSL "$SCRAM" "tls:" "  $TRUST"
	export KAFKA_USERNAME=orders-svc KAFKA_PASSWORD=Pa55-in-the-env
	export KAFKA_TRUSTSTORE_PASSWORD=trust-in-the-env
	run --separate-stderr "$BIN/fluid" generate flink --out gen "$F"
	assert_status 0
	grep -rqF '${fluidenv:KAFKA_PASSWORD}' gen ||
	    fail "no reference in the generated files" "$(ls -R gen)"
	! grep -rqE 'Pa55-in-the-env|trust-in-the-env|orders-svc' gen ||
	    fail "a credential is in the generated files"
}

@test "security: PLAIN writes Kafka's PlainLoginModule" {
	security SASL_SSL \
	    'sasl: {mechanism: PLAIN, usernameEnv: KAFKA_USERNAME, passwordEnv: KAFKA_PASSWORD}'
	sql
	assert_status 0
	has_option properties.sasl.mechanism PLAIN
	has_option properties.sasl.jaas.config 'org.apache.kafka.common.security.plain.PlainLoginModule required username="${fluidenv:KAFKA_USERNAME}" password="${fluidenv:KAFKA_PASSWORD}";'
}

@test "security: the whole JAAS line may come from one variable" {
	security SASL_SSL 'sasl: {mechanism: SCRAM-SHA-256, jaasConfigEnv: KAFKA_JAAS}'
	sql
	assert_status 0
	has_option properties.sasl.mechanism SCRAM-SHA-256
	has_option properties.sasl.jaas.config '${fluidenv:KAFKA_JAAS}'
	has_providers '^(KAFKA_JAAS)$'
}

@test "security: mutual TLS reads a keystore from the pod, its passwords from variables" {
	security SSL "tls:" "  $TRUST" \
	    '  keystore: {path: /etc/kafka-tls/client.p12, type: PKCS12, passwordEnv: KAFKA_KEYSTORE_PASSWORD, keyPasswordEnv: KAFKA_KEY_PASSWORD}' \
	    '  hostnameVerification: true'
	validate
	accepted
	sql
	assert_status 0
	has_option properties.security.protocol SSL
	has_option properties.ssl.keystore.location /etc/kafka-tls/client.p12
	has_option properties.ssl.keystore.password '${fluidenv:KAFKA_KEYSTORE_PASSWORD}'
	has_option properties.ssl.key.password '${fluidenv:KAFKA_KEY_PASSWORD}'
	has_providers '^(KAFKA_KEYSTORE_PASSWORD|KAFKA_KEY_PASSWORD|KAFKA_TRUSTSTORE_PASSWORD)$'
	! grep -q sasl <<<"$output" || fail "SASL options without SASL" "$output"
}

@test "security: a PEM truststore needs no password" {
	security SSL "tls:" '  truststore: {path: /etc/kafka-tls/ca.pem, type: PEM}'
	sql
	assert_status 0
	has_option properties.ssl.truststore.type PEM
	! grep -q truststore.password <<<"$output" || fail "a PEM password" "$output"
	! grep -q config.providers <<<"$output" ||
	    fail "a config provider with no variable to read" "$output"
}

@test "security: without a security block the source options are as before" {
	sql
	assert_status 0
	! grep -Eq 'security|sasl|ssl' <<<"$output" ||
	    fail "security options without security" "$output"
}

# --- refused ---------------------------------------------------------------------

@test "security: a credential written in the contract is refused at its value, never echoed" {
	local kv key val instead
	for kv in 'password=Hunter2-SeKrit=passwordEnv' \
	    'username=svc-SeKrit=usernameEnv' \
	    'jaasConfig=ScramLoginModule-SeKrit=jaasConfigEnv'; do
		IFS== read -r key val instead <<<"$kv"
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		security SASL_SSL "sasl: {mechanism: PLAIN, $key: $val}"
		validate
		refused "$(at "sasl: \\{mechanism: PLAIN, $key:" "$val")" \
		    "Flink build ingest-orders: $SRC.sasl.$key" \
		    "^a credential never goes into the contract: name the environment variable that holds it in $instead "
		[[ $stderr != *SeKrit* ]] || fail "$key: the value is echoed" "$stderr"
	done
}

@test "security: a variable name that is not a name is refused, not echoed" {
	security SASL_SSL \
	    'sasl: {mechanism: PLAIN, usernameEnv: KAFKA_USERNAME, passwordEnv: "hunter2 SeKrit!"}'
	validate
	refused "$(at 'passwordEnv: "hunter2' '"hunter2')" \
	    "Flink build ingest-orders: $SRC.sasl.passwordEnv" \
	    '^must be the name of an environment variable of the pod'
	[[ $stderr != *SeKrit* && $stderr != *hunter2* ]] ||
	    fail "the value is echoed" "$stderr"
}

@test "security: a Kafka variable that is the catalog's credential variable is refused" {
	security SASL_SSL \
	    'sasl: {mechanism: PLAIN, usernameEnv: KAFKA_USERNAME, passwordEnv: ICEBERG_TOKEN}' \
	    "tls:" "  $TRUST"
	validate
	refused "$(at 'passwordEnv: ICEBERG_TOKEN' ICEBERG_TOKEN)" \
	    "Flink build ingest-orders: $SRC.sasl.passwordEnv" \
	    "^ICEBERG_TOKEN is the catalog's credential variable \\(exposes\\[0\\].binding.catalogAuth.tokenEnv\\): the job would send a credential meant for the catalog to the Kafka brokers"
	# The same for a store's password.
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	security SSL "tls:" '  truststore: {path: /etc/kafka-tls/truststore.p12, passwordEnv: ICEBERG_TOKEN}'
	validate
	refused "$(at 'passwordEnv: ICEBERG_TOKEN' ICEBERG_TOKEN)" \
	    "Flink build ingest-orders: $SRC.tls.truststore.passwordEnv" \
	    "^ICEBERG_TOKEN is the catalog's credential variable"
}

@test "security: each of many credentials by value is refused once" {
	security SASL_SSL \
	    'sasl: {mechanism: PLAIN, username: u1, Username: u2, USERNAME: u3, password: p1, Password: p2, PASSWORD: p3, jaas: j1, JAAS: j2, jaasConfig: j3}' \
	    "tls:" "  $TRUST"
	validate
	assert_status 1
	assert_equal "$(errors | wc -l)" 9 "errors"
	for k in username Username USERNAME password Password PASSWORD jaas JAAS jaasConfig; do
		assert_equal "$(errors | grep -c -- "$SRC.sasl.$k: ")" 1 "errors at $k"
		errors | grep -q -- "$SRC.sasl.$k: a credential never goes into the contract" ||
		    fail "$k: not the credential's reason" "$stderr"
	done
}

@test "security: a store's literal password is refused, not echoed" {
	security SSL "tls:" \
	    '  truststore: {path: /etc/kafka-tls/t.p12, password: changeit-SeKrit}'
	validate
	refused "$(at 'truststore: \{path' 'changeit')" \
	    "Flink build ingest-orders: $SRC.tls.truststore.password" \
	    '^a credential never goes into the contract'
	[[ $stderr != *SeKrit* ]] || fail "the value is echoed" "$stderr"
}

@test "security: hostname verification cannot be turned off, by the flag or by Kafka's option" {
	security SSL "tls:" "  $TRUST" '  hostnameVerification: false'
	validate
	refused "$(at 'hostnameVerification: false' 'false')" \
	    "Flink build ingest-orders: $SRC.tls.hostnameVerification" \
	    '^hostname verification is never turned off'
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	security SSL "tls:" "  $TRUST" "  ssl.endpoint.identification.algorithm: none"
	validate
	refused "$(at 'ssl.endpoint.identification.algorithm:' 'none')" \
	    "Flink build ingest-orders: $SRC.tls.ssl.endpoint.identification.algorithm" \
	    '^hostname verification is never turned off'
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	security SSL "endpointIdentificationAlgorithm: none"
	validate
	refused "$(at 'endpointIdentificationAlgorithm:' 'none')" \
	    "Flink build ingest-orders: $SRC.endpointIdentificationAlgorithm" \
	    '^hostname verification is never turned off'
}

@test "security: SASL needs a mechanism of the three and the variables" {
	security SASL_SSL 'sasl: {mechanism: OAUTHBEARER, usernameEnv: U, passwordEnv: P}'
	validate
	refused "$(at 'mechanism: OAUTHBEARER' 'OAUTHBEARER')" \
	    "Flink build ingest-orders: $SRC.sasl.mechanism" \
	    "^'OAUTHBEARER' is not supported: use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512$"
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	security SASL_SSL 'sasl: {mechanism: PLAIN, usernameEnv: U}'
	validate
	refused "$(at 'sasl: \{mechanism: PLAIN, usernameEnv: U\}' '{')" \
	    "Flink build ingest-orders: $SRC.sasl.passwordEnv" '^is required'
}

@test "security: SASL and TLS settings that the protocol does not use are refused" {
	security PLAINTEXT "$SCRAM"
	validate
	refused "$(at "^ *sasl: \\{mechanism: SCRAM" '{')" \
	    "Flink build ingest-orders: $SRC.sasl" \
	    '^applies to SASL_PLAINTEXT and SASL_SSL only'
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	security SASL_PLAINTEXT "$SCRAM" "tls:" "  $TRUST"
	validate
	refused "$(after '^ *tls:$')" "Flink build ingest-orders: $SRC.tls" \
	    '^applies to SSL and SASL_SSL only'
}

@test "security: a store path must be an absolute plain path inside the pod, not echoed" {
	local p
	for p in etc/t.p12 /etc/../root/t.p12 /etc/./t.p12 '/etc/t p12' \
	    '/etc//t.p12' '/etc/t.p12/'; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		security SSL "tls:" "  truststore: {path: \"$p\"}"
		validate
		refused "$(at 'truststore: \{path' '"')" \
		    "Flink build ingest-orders: $SRC.tls.truststore.path" \
		    '^must be an absolute path of a file inside the pod'
		[[ $stderr != *"$p"* ]] || fail "$p is echoed" "$stderr"
	done
}

@test "security: the variables need a Secret in deployment.secretRefs" {
	security SASL_SSL "$SCRAM"
	drop 'secretRefs: [flink-storage]'
	validate
	refused "$(after '^ *security:$')" "Flink build ingest-orders: $SRC" \
	    'deployment.secretRefs lists no Secret'
}

# --- clear-text warnings -----------------------------------------------------------

@test "security: SASL_PLAINTEXT and PLAINTEXT to a host outside the cluster warn, naming the host" {
	subst 'bootstrapServers: kafka:9092' \
	    'bootstrapServers: "kafka.example.com:9092,127.0.0.1:9092,kafka-0.kafka.data.svc.cluster.local:9093,[::1]:9094"'
	security SASL_PLAINTEXT "$SCRAM"
	validate
	assert_status 0
	assert_equal "$stderr" "$F:$(at '^ *protocol: SASL_PLAINTEXT' SASL): warning: Managed Flink: Flink build ingest-orders: $SRC.protocol: SASL_PLAINTEXT sends to broker 'kafka.example.com' without TLS: the credential and the records cross the network in clear text; use SASL_SSL" "the warning"
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	subst 'bootstrapServers: kafka:9092' 'bootstrapServers: "b1.example.com:9092,b2.example.net:9092"'
	security PLAINTEXT
	validate
	assert_status 0
	assert_equal "$(grep -c ': warning: ' <<<"$stderr")" 2 "warnings"
	assert_match "$stderr" "PLAINTEXT sends to broker 'b1.example.com' without TLS: the records"
	assert_match "$stderr" "broker 'b2.example.net'"
}

@test "security: a name that only begins like a loopback address is no loopback" {
	subst 'bootstrapServers: kafka:9092' \
	    'bootstrapServers: "127.attacker.com:9092,127.0.0.9:9092,::1.example.com:9092,localhost:9092"'
	security SASL_PLAINTEXT "$SCRAM"
	validate
	assert_status 0
	assert_equal "$(grep -c ': warning: ' <<<"$stderr")" 2 "warnings"
	assert_match "$stderr" "SASL_PLAINTEXT sends to broker '127.attacker.com' without TLS"
	assert_match "$stderr" "broker '::1.example.com'"
}

@test "security: no security block is PLAINTEXT, and warns the same way" {
	subst 'bootstrapServers: kafka:9092' \
	    'bootstrapServers: "b1.example.com:9092,kafka-0.kafka.data.svc:9092,127.0.0.1:9092,b2.example.net:9092"'
	validate
	assert_status 0
	assert_equal "$(grep -c ': warning: ' <<<"$stderr")" 2 "warnings"
	assert_match "$stderr" "^$F:$(at 'bootstrapServers:' '"'): warning: Managed Flink: Flink build ingest-orders: properties.parameters.flink.source.bootstrapServers: PLAINTEXT \\(no source.security\\) sends to broker 'b1.example.com' without TLS: the records cross the network in clear text"
	assert_match "$stderr" "broker 'b2.example.net'"
	# The base's one-label name is a Service of the cluster: no warning.
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	validate
	accepted
}

@test "security: clear text inside the pod or the cluster, and TLS anywhere, do not warn" {
	security SASL_PLAINTEXT "$SCRAM"
	validate
	accepted
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	subst 'bootstrapServers: kafka:9092' 'bootstrapServers: "kafka.example.com:9093"'
	security SASL_SSL "$SCRAM"
	validate
	accepted
}

# --- fluid-sqlgen judges the IR again ---------------------------------------------

@test "security: fluid-sqlgen refuses IR whose variable is not a name, without quoting it" {
	security SASL_SSL "$SCRAM"
	check
	ir
	jq '.check.builds[0].stream.source.security.sasl.passwordEnv =
	    "X}\" password=\"SeKrit"' <<<"$output" >ir.json
	run --separate-stderr "$BIN/fluid-sqlgen" --sql <ir.json
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" 'the Kafka security settings cannot be written safely as Flink SQL'
	[[ $stderr != *SeKrit* ]] || fail "the value is quoted" "$stderr"
}

@test "security: fluid-sqlgen refuses IR whose store path has a '.' or '..' segment or ends in '/'" {
	local p
	security SSL "tls:" "  $TRUST"
	check
	ir
	printf '%s\n' "$output" >good.json
	# The IR as fluid-check wrote it passes: the refusals below are the path's.
	run --separate-stderr "$BIN/fluid-sqlgen" --sql <good.json
	assert_status 0
	for p in /etc/kafka/.. /etc/kafka/. /etc/kafka/ /.. /etc/../x.p12; do
		jq --arg p "$p" '.check.builds[0].stream.source.security.tls.truststore.path = $p' \
		    good.json >ir.json
		run --separate-stderr "$BIN/fluid-sqlgen" --sql <ir.json
		assert_status 1
		assert_no_stdout
		assert_match "$stderr" 'the Kafka security settings cannot be written safely as Flink SQL'
	done
}

# --- fluid apply: each variable with each broker -------------------------------------

# apply_setup: the landed example with SCRAM over SASL_SSL to two
# brokers, every other allowlist admitting it, and a kubectl that fails
# if called.
apply_setup() {
	cp -R "$EXAMPLES/shapes" shapes
	LANDED=shapes/landed/orders-landed.fluid.yaml
	sed -i 's/^\( *\)bootstrapServers: kafka:9092$/\1bootstrapServers: "kafka:9093,kafka-1.example.com:9093"\n\1security:\n\1  protocol: SASL_SSL\n\1  sasl: {mechanism: SCRAM-SHA-512, usernameEnv: KAFKA_USERNAME, passwordEnv: KAFKA_PASSWORD}/' "$LANDED"
	grep -q 'protocol: SASL_SSL' "$LANDED" || fail "the example did not take the edit"
	fake_kubectl fail
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=data-products
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink
	export FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=data-products/flink
	export FLUID_FLINK_SECRET_ALLOWLIST=data-products/flink-storage
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka,kafka-1.example.com
	"$BIN/fluid" plan --mode dry-run --out p.json "$LANDED" >/dev/null ||
	    fail "fluid plan refused the example"
}

@test "apply: a Kafka variable needs NAME@host for every broker, and the refusal names each pair" {
	apply_setup
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com,KAFKA_USERNAME@kafka,KAFKA_PASSWORD@kafka.example.com
	TOOL=fluid tool apply --mode dry-run p.json
	assert_status 1
	assert_no_stdout
	assert_equal "$(grep -c "^p.json: error: build 'land-orders': source.security: Kafka credential " <<<"$stderr")" 3 "refusals"
	assert_match "$stderr" "Kafka credential 'KAFKA_USERNAME' may not be sent to 'kafka-1.example.com': export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=\"\\\$FLUID_ACQUISITION_SECRET_REF_ALLOWLIST,KAFKA_USERNAME@kafka-1.example.com\""
	assert_match "$stderr" "'KAFKA_PASSWORD' may not be sent to 'kafka':"
	assert_match "$stderr" "'KAFKA_PASSWORD' may not be sent to 'kafka-1.example.com':"
	[ ! -e kubectl.calls ] || fail "kubectl was called"
}

@test "apply: every pair listed, or a bare NAME, admits the Kafka variables" {
	apply_setup
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com,KAFKA_USERNAME@kafka,KAFKA_USERNAME@kafka-1.example.com,KAFKA_PASSWORD
	TOOL=fluid tool apply --mode dry-run p.json
	assert_status 0
	assert_no_stderr
	assert_jq -R -s 'test("would apply FlinkDeployment")'
	[ ! -e kubectl.calls ] || fail "kubectl was called"
}

@test "apply: a loopback broker needs its pairing too (localhost is the pod)" {
	apply_setup
	sed -i 's/"kafka:9093,kafka-1.example.com:9093"/"localhost:9093"/' "$LANDED"
	"$BIN/fluid" plan --mode dry-run --out p.json "$LANDED" >/dev/null
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST="$FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST,localhost"
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com,KAFKA_USERNAME@localhost
	TOOL=fluid tool apply --mode dry-run p.json
	assert_status 1
	assert_stderr_line "^p.json: error: build 'land-orders': source.security: Kafka credential 'KAFKA_PASSWORD' may not be sent to 'localhost': "
}
