#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-state-endpoint.bats - deployment.stateEndpoint, the
# S3-compatible service of a build's checkpoint, savepoint and HA
# locations (fluid-check(1) Deployment, fluid-k8s(1)): what fluid-check
# accepts and refuses, that fluid-k8s render writes it as Flink's
# s3.endpoint with path-style access (and re-checks the IR's value),
# and that fluid apply checks its host against the host allowlist.

load helpers
load fake-kubectl
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

# endpoint VALUE: the base contract's deployment with stateEndpoint VALUE.
endpoint() {
	subst '            haUri: s3://flink-state/shop-orders/ha' \
	    "            haUri: s3://flink-state/shop-orders/ha
            stateEndpoint: \"$1\""
}

# The flinkConfiguration fluid-k8s render writes for $F, in $output.
flink_conf() {
	run --separate-stderr bash -c 'set -o pipefail; "$1/fluid-resolve" -- "$2" |
	    "$1/fluid-check" | "$1/fluid-sqlgen" | "$1/fluid-k8s" render |
	    jq -c ".k8s.builds[0].resources[] | select(.kind == \"FlinkDeployment\") |
	    .spec.flinkConfiguration"' conf "$BIN" "$F"
}

@test "stateEndpoint: https, an http loopback or cluster name, with a port, is accepted into the IR" {
	local e
	for e in https://minio.example.com https://minio.example.com:9000 \
	    http://moto:5000 http://s3.storage.svc.cluster.local:9000 \
	    http://127.0.0.1:9000 'http://[::1]:9000' http://localhost:9000; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		endpoint "$e"
		check
		ir
		assert_jq --arg e "$e" '.check.builds[0].deployment.stateEndpoint == $e'
	done
}

@test "stateEndpoint: left out, the deployment has none and flinkConfiguration no s3.endpoint" {
	check
	ir
	assert_jq '.check.builds[0].deployment | has("stateEndpoint") | not'
	flink_conf
	assert_status 0
	[[ $output != *s3.endpoint* && $output != *path.style* ]] ||
	    fail "an endpoint was rendered" "$output"
}

@test "stateEndpoint: credentials, another scheme, clear text to a public host and a non-canonical spelling are refused" {
	local e why
	while IFS='|' read -r e why; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		endpoint "$e"
		validate
		build_refused "$(at 'stateEndpoint: ' '"')" \
		    'properties.parameters.flink.deployment.stateEndpoint' "$why"
		[[ $stderr != *hunter2* ]] || fail "$e: the credential is echoed" "$stderr"
	done <<-'EOF'
	https://AKIA:hunter2@minio.example.com|^must not carry credentials: the job's S3 credentials come from its Secrets \(secretRefs\)$
	s3://minio.example.com|^must be an https:// URL of the S3-compatible service: scheme://host\[:port\]$
	http://minio.example.com|^must be https: http is for loopback or a name inside the cluster
	http://10.0.0.5:9000|^must be https: http is for loopback or a name inside the cluster
	https://MINIO.example.com|^must be written https://minio.example.com: scheme and host in lower case
	https://minio.example.com/|^must be written https://minio.example.com: 
	https://minio.example.com/bucket|^must be written https://minio.example.com: 
	https://minio.example.com:443|^must be written https://minio.example.com: 
	https://minio.example.com.|^must be written https://minio.example.com: 
	https://minio.example.com?region=x|^must be written https://minio.example.com: 
	https://012.0.0.5|^names an IPv4 address that is not canonical dotted decimal
	EOF
}

@test "stateEndpoint: not a string is refused" {
	subst '            haUri: s3://flink-state/shop-orders/ha' \
	    '            haUri: s3://flink-state/shop-orders/ha
            stateEndpoint: [https://minio.example.com]'
	validate
	assert_status 1
	[[ $stderr == *"deployment.stateEndpoint: "* ]] || fail "not refused at stateEndpoint" "$(show)"
}

@test "stateEndpoint: fluid-k8s render writes s3.endpoint and path-style access" {
	endpoint http://moto:5000
	flink_conf
	assert_status 0
	assert_jq '."s3.endpoint" == "http://moto:5000" and
	    ."s3.path.style.access" == "true" and
	    ."execution.checkpointing.dir" == "s3://flink-state/shop-orders/checkpoints"'
}

@test "stateEndpoint: fluid-k8s render refuses an IR endpoint with credentials or a path (the IR is not trusted)" {
	local e
	endpoint https://minio.example.com
	for e in 'https://AKIA:hunter2@minio.example.com' 'https://minio.example.com/x' \
	    'file:///etc' 'https://minio.example.com\nx'; do
		run --separate-stderr bash -c 'set -o pipefail; "$1/fluid-resolve" -- "$2" |
		    "$1/fluid-check" | "$1/fluid-sqlgen" |
		    jq -c --arg e "$3" ".check.builds[0].deployment.stateEndpoint = \$e" |
		    "$1/fluid-k8s" render' r "$BIN" "$F" "$e"
		assert_status 1
		assert_no_stdout
		[[ $stderr == *"stateEndpoint must be scheme://host[:port]"* ]] ||
		    fail "$e: not the refusal" "$(show)"
		[[ $stderr != *hunter2* ]] || fail "the credential is echoed" "$stderr"
	done
}

# What fluid apply needs for the base contract, each list exactly.
allow_base() {
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=data-products
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink
	export FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=data-products/flink
	export FLUID_FLINK_SECRET_ALLOWLIST=data-products/flink-storage
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka$1
	# A kubectl that must not be called.
	fake_kubectl fail
}

@test "stateEndpoint: fluid apply refuses its host when the host allowlist does not list it, before kubectl" {
	endpoint https://minio.example.com
	allow_base
	run -0 "$BIN/fluid" plan --mode dry-run --out p.json "$F"
	tool apply --mode dry-run p.json
	assert_status 1
	assert_no_stdout
	[[ $stderr == *"stateEndpoint: host 'minio.example.com' is not allowed"* ]] ||
	    fail "not refused by the host allowlist" "$(show)"
	[ ! -e kubectl.calls ] || fail "kubectl was called"
}

@test "stateEndpoint: fluid apply accepts it when the host allowlist lists its host" {
	endpoint https://minio.example.com
	allow_base ,minio.example.com
	run -0 "$BIN/fluid" plan --mode dry-run --out p.json "$F"
	tool apply --mode dry-run p.json
	assert_status 0
	assert_no_stderr
	[ ! -e kubectl.calls ] || fail "kubectl was called"
}
