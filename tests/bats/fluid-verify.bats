#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-verify.bats - fluid verify's HTTP client and evidence against a
# FAKE Iceberg REST catalog over TLS (tests/net/fake_catalog.py), with a
# self-signed CA made here with openssl and handed to fluid through
# FLUID_CA_BUNDLE.  The real catalog is the live lane's (tests/live).

load helpers
load fake-kubectl

TOKEN=fake-token-Zq81
SECRET=fake-secret-Wx92
FAKE_PID=

setup() {
	TOOL=fluid
	fluid_setup
	command -v python3 >/dev/null || skip "python3 is not installed"
	make_test_ca
	cp -R "$EXAMPLES/shapes" shapes
	export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development
	export FLUID_FLINK_NAMESPACE_ALLOWLIST=data-products
	export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink
	export FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=flink
	export FLUID_FLINK_SECRET_ALLOWLIST=flink-storage
	export FLUID_CA_BUNDLE=$TMP/ca.pem
	export ICEBERG_TOKEN=$TOKEN
	# No kubectl unless a test names the fake one: the deployment is
	# then unavailable, whatever this machine has installed.
	export KUBECTL=$TMP/no-such-kubectl
	C=shapes/landed/orders-landed.fluid.yaml
}

teardown() {
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	fluid_teardown
}

# fake ARGS...: start the fake catalog and point the contract at it.
fake() {
	start_fake fake_catalog.py --token "$TOKEN" \
	    --client "fluid-client:$SECRET" "$@" || return
	sed -i "s|https://catalog.example.com/api/catalog|https://127.0.0.1:$PORT/api/catalog|" "$C"
}

# no_secret FILE...: neither the token nor the client secret is in them.
no_secret() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || continue
		! grep -q -e "$TOKEN" -e "$SECRET" "$f" ||
		    fail "$f holds the token or the client secret" "$(cat "$f")"
	done
}

verify() {
	run --separate-stderr "$BIN/fluid" verify "$@"
	printf '%s\n' "$output" >out.txt
	printf '%s\n' "$stderr" >err.txt
}

table_reads() {
	grep -c 'GET /api/catalog/v1/wh1/namespaces/commerce/tables/orders_landed ' requests.log
}

@test "verify: schema and a young snapshot from the fake catalog pass; delivery.json says what was checked" {
	fake --age 10
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 0
	[[ $output == *"land-orders: catalog-schema: pass"* ]] || fail "no schema pass" "$output"
	[[ $output == *"land-orders: catalog-snapshot: pass"* ]] || fail "no snapshot pass" "$output"
	[[ $stderr == *"warning: Flink build land-orders: deployment: unavailable"* ]] ||
	    fail "the unread deployment is not a warning" "$stderr"
	grep -q "token-ok=yes" requests.log || fail "the token did not reach the catalog" "$(cat requests.log)"
	python3 - delivery.json "$PORT" <<-'EOF'
	import json, sys
	text = open(sys.argv[1]).read()
	d = json.loads(text)
	def sorted_keys(o):
	    if isinstance(o, dict):
	        assert list(o) == sorted(o), list(o)
	        for v in o.values(): sorted_keys(v)
	    elif isinstance(o, list):
	        for v in o: sorted_keys(v)
	sorted_keys(d)
	assert "not per-record delivery" in d["notice"], d["notice"]
	assert d["outcome"] == "pass"
	ev = {e["evidence"]: e for e in d["builds"][0]["evidence"]}
	assert set(ev) == {"catalog-schema", "catalog-snapshot", "deployment", "checkpoint"}, ev
	s = ev["catalog-schema"]
	assert s["outcome"] == "pass" and s["required"] is True
	assert s["endpoint"] == "https://127.0.0.1:%s/api/catalog/v1/wh1/namespaces/commerce/tables/orders_landed" % sys.argv[2], s["endpoint"]
	assert s["at"].endswith("Z") and s["checked"]
	assert ev["deployment"]["outcome"] == "unavailable" and ev["deployment"]["required"] is False
	EOF
	[ $? -eq 0 ] || fail "delivery.json is not as documented" "$(cat delivery.json)"
	no_secret out.txt err.txt delivery.json
}

@test "verify: --strict fails while the deployment and checkpoint are not read" {
	fake --age 10
	verify "$C" --strict --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"error: Flink build land-orders: deployment: unavailable"* ]] || fail "not an error" "$stderr"
}

@test "verify: a schema that differs fails, naming the nested field, at the contract's schema" {
	local at
	fake --drift type
	verify "$C" --streaming-timeout 0
	assert_status 1
	# The schema list: the line after the expose's "schema:", column 9.
	at=$(awk '/^      schema:$/ { print NR + 1 ":9"; exit }' "$C")
	[[ $stderr == *"orders-landed.fluid.yaml:$at: error: Flink build land-orders: catalog-schema: the table's schema differs from the contract: customer.address.country: string in the contract (Iceberg string), int in the table"* ]] ||
	    fail "no schema difference" "$stderr"
}

@test "verify: two fields swapped fail by position" {
	fake --drift order
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"customer.address.city: position 1 is 'country' in the table, 'city' in the contract"* ]] ||
	    fail "no order difference" "$stderr"
}

@test "verify: a snapshot older than maxSnapshotAgeSeconds fails; no snapshot fails" {
	fake --age 2000
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"catalog-snapshot: no snapshot is young enough: the newest, 7001, was committed 20"*" s ago, maxSnapshotAgeSeconds is 900"* ]] ||
	    fail "no age failure" "$stderr"
	kill "$FAKE_PID"; rm -f port
	cp "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" "$C"
	fake --age -1
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"catalog-snapshot: the table has no committed snapshot"* ]] || fail "no snapshot failure" "$stderr"
}

@test "verify: a refused token is one 401 line, without the token the fake echoes back" {
	fake --token another-token
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $stderr == *"'https://127.0.0.1:$PORT/api/catalog/v1/config': 401 Unauthorized: the credential was refused, or none was sent: Not authorized: Bearer [redacted]"* ]] ||
	    fail "no 401 line" "$stderr"
	[ "$(grep -c 'GET /api/catalog/v1/config' requests.log)" -eq 1 ] || fail "a 401 was retried" "$(cat requests.log)"
	no_secret out.txt err.txt delivery.json
}

@test "verify: 503 then success is retried by the client; 500 is not, and the next reading succeeds" {
	fake --mode 503-once
	verify "$C" --streaming-timeout 0
	assert_status 0
	[ "$(table_reads)" -eq 2 ] || fail "503 was not retried once" "$(cat requests.log)"
	kill "$FAKE_PID"; rm -f port requests.log
	cp "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" "$C"
	fake --mode 500-once
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"500 Internal Server Error: the server failed: try later"* ]] || fail "no 500 line" "$stderr"
	[ "$(table_reads)" -eq 1 ] || fail "500 was retried" "$(cat requests.log)"
	# A fresh fake: the first reading fails, verify reads again and passes.
	kill "$FAKE_PID"; rm -f port requests.log
	cp "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" "$C"
	fake --mode 500-once
	verify "$C" --streaming-timeout 10
	assert_status 0
	[ "$(table_reads)" -eq 2 ] || fail "not read twice" "$(cat requests.log)"
}

@test "verify: a server slower than FLUID_HTTP_TIMEOUT is a timeout, not a wait" {
	fake --mode slow
	SECONDS=0
	FLUID_HTTP_TIMEOUT=1 verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"no complete answer within 1000 ms (1 attempt)"* ]] || fail "no timeout line" "$stderr"
	[ "$SECONDS" -lt 4 ] || fail "the timeout took $SECONDS s" ""
}

@test "verify: a body over 16 MiB is not read" {
	fake --mode huge
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"the response is larger than 16777216 bytes; not read"* ]] || fail "no size line" "$stderr"
}

@test "verify: TLS verification stays on: without the test CA the fake's certificate is refused" {
	fake
	FLUID_CA_BUNDLE= verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"TLS: SSL certificate problem"* ]] || fail "the certificate was accepted" "$stderr"
	! grep -q tables requests.log 2>/dev/null || fail "a request got through" "$(cat requests.log)"
}

@test "verify: OAuth2 client credentials are exchanged at the token endpoint; a bad secret is not echoed" {
	fake
	sed -i "s|catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}|catalogAuth: {type: oauth2, credentialEnv: ICEBERG_CREDENTIAL, oauth2ServerUri: \"https://127.0.0.1:$PORT/v1/oauth/tokens\", scope: catalog}|" "$C"
	grep -q oauth2 "$C" || fail "the test could not edit the contract" ""
	unset ICEBERG_TOKEN
	ICEBERG_CREDENTIAL="fluid-client:$SECRET" verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 0
	grep -q "POST /v1/oauth/tokens" requests.log || fail "no token request" "$(cat requests.log)"
	grep -q "tables/orders_landed auth=yes token-ok=yes" requests.log || fail "the minted token was not used" "$(cat requests.log)"
	no_secret out.txt err.txt delivery.json
	ICEBERG_CREDENTIAL="fluid-client:wrong-$SECRET" verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"OAuth2 token from ICEBERG_CREDENTIAL: 'https://127.0.0.1:$PORT/v1/oauth/tokens': 401 Unauthorized"*"bad client [redacted]"* ]] ||
	    fail "no token failure line" "$stderr"
	no_secret out.txt err.txt
}

@test "verify: the allowlists refuse before any request" {
	fake
	unset FLUID_FLINK_IMAGE_ALLOWLIST
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"FLUID_FLINK_IMAGE_ALLOWLIST"*"nothing was contacted"* ]] || fail "no refusal" "$stderr"
	[ ! -e requests.log ] || fail "the catalog was contacted" "$(cat requests.log)"
}

@test "verify: an unset token variable is named, not guessed" {
	fake
	unset ICEBERG_TOKEN
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"catalogAuth names ICEBERG_TOKEN, which is not set in this environment"* ]] || fail "no line" "$stderr"
}

@test "verify: usage errors" {
	run "$BIN/fluid" verify
	assert_status 2
	run "$BIN/fluid" verify --streaming-timeout -1 x.yaml
	assert_status 2
	[[ $output == *"--streaming-timeout expects seconds"* ]] || fail "no line" "$output"
}

# --- the deployment, read through a FAKE kubectl -------------------------
# The real API server is the Kubernetes lane's (tests/k8s/checks/
# 20-verify.sh); here a fake kubectl prints fd.json for any get of a
# flinkdeployment and rec.json for a configmap (nothing when the file is
# absent: kubectl --ignore-not-found), logging its arguments.

# fake_kube JQ-STATUS [JQ-RECORD-SPEC]: the FlinkDeployment fluid plan
# renders, with the status JQ-STATUS (jq, given the spec as $spec), and
# the last-applied record of it, its spec edited by JQ-RECORD-SPEC.
fake_kube() {
	"$BIN/fluid" plan --mode amend --out plan.json "$C" >/dev/null 2>&1 ||
	    fail "fluid plan failed" "$("$BIN/fluid" plan --mode amend --out plan.json "$C" 2>&1)"
	jq '.resources[] | select(.resource.kind == "FlinkDeployment") | .resource' plan.json >fd0.json
	jq --argjson spec "$(jq -c .spec fd0.json)" ". + {status: ($1)}" fd0.json >fd.json
	jq -n --slurpfile fd fd0.json --slurpfile p plan.json '{
	    apiVersion: "v1", kind: "ConfigMap",
	    metadata: {name: ($fd[0].metadata.name + "-fluid-last-applied"), labels: $fd[0].metadata.labels},
	    data: {"resources.json": ({apiVersion: "v1", kind: "List",
	        items: [($p[0].resources[0].resource), ($fd[0] | .spec |= ('"${2:-.}"'))]} | tojson)}}' >rec.json
	# The tests' fake (fake-kubectl): fd.json, rec.json, svc.json, and
	# the JobManager's answers ck, job and ev, from here; calls logged.
	export FAKE_CALLS=$TMP/calls
	fake_kubectl verify
}

# The operator's status for a running job, lastReconciledSpec as given.
running='{lifecycleState: "STABLE", jobStatus: {state: "RUNNING", jobId: "7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6"},
    reconciliationStatus: {state: "DEPLOYED", lastReconciledSpec: ($spec | tojson)}}'

deployment_piece() {
	jq -r '.builds[0].evidence[] | select(.evidence == "deployment") | .outcome + " " + .detail' delivery.json
}

@test "verify: the deployment passes when the reconciled spec (as the spec alone) is the applied one and the job runs" {
	fake --age 10
	fake_kube "$running"
	verify "$C" --strict --streaming-timeout 0 --out delivery.json
	[[ $output == *"land-orders: deployment: pass"* ]] || fail "no deployment pass" "$output$stderr"
	[[ $(deployment_piece) == "pass the reconciled spec is the applied one; lifecycleState STABLE, jobStatus.state RUNNING, job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6" ]] ||
	    fail "not the pass" "$(deployment_piece)"
	grep -q -- "--context=development" calls || fail "kubectl without the contract's context" "$(cat calls)"
	grep -q -- "get --namespace=data-products --output=json --ignore-not-found -- flinkdeployment commerce-orders-landed" calls ||
	    fail "not the contract's deployment" "$(cat calls)"
	grep -q -- "get --namespace=data-products --output=json --ignore-not-found -- configmap commerce-orders-landed-fluid-last-applied" calls ||
	    fail "not the record" "$(cat calls)"
	# Only the checkpoint is left: --strict makes it the one error.
	assert_status 1
	[[ $stderr == *"error: Flink build land-orders: checkpoint: unavailable"* ]] || fail "checkpoint" "$stderr"
	[[ $stderr != *"deployment:"* ]] || fail "a deployment diagnostic" "$stderr"
}

@test "verify: the operator's defaults do not count, a field fluid set does" {
	fake --age 10
	fake_kube '{lifecycleState: "DEPLOYED", jobStatus: {state: "RUNNING"},
	    reconciliationStatus: {lastReconciledSpec: ({spec: ($spec | .job.allowNonRestoredState = false
	        | .restartNonce = 0), resource_metadata: {apiVersion: "flink.apache.org/v1beta1"}} | tojson)}}'
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 0
	[[ $(deployment_piece) == pass* ]] || fail "defaults counted" "$(deployment_piece)"
	fake_kube '{lifecycleState: "STABLE", jobStatus: {state: "RUNNING"},
	    reconciliationStatus: {lastReconciledSpec: ({spec: ($spec | .image = "flink:1.19"),
	        resource_metadata: {}} | tojson)}}'
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $stderr == *'error: Flink build land-orders: deployment: the operator'"'"'s reconciled spec is not the applied one: spec.image is "flink:1.19" reconciled, "registry.example.com/forge-flink@sha256:'* ]] ||
	    fail "not the image" "$stderr"
}

@test "verify: a deployment that is not fluid's, or was not applied by fluid, fails" {
	fake --age 10
	fake_kube "$running"
	jq '.metadata.labels["fluid.dev/build"] = "other"' fd.json >x && mv x fd.json
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail FlinkDeployment data-products/commerce-orders-landed is not fluid's for product 'commerce.orders-landed' build 'land-orders' (its labels)" ]] ||
	    fail "not the labels" "$(deployment_piece)"
	fake_kube "$running"
	rm rec.json
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail no record of fluid apply"* ]] || fail "not the record" "$(deployment_piece)"
	rm fd.json
	verify "$C" --streaming-timeout 0 --out delivery.json
	[[ $(deployment_piece) == "fail FlinkDeployment data-products/commerce-orders-landed does not exist" ]] ||
	    fail "not the missing deployment" "$(deployment_piece)"
}

@test "verify: a rolled-back deployment fails with the operator's error; a job not yet running is waited for" {
	fake --age 10
	fake_kube '{lifecycleState: "ROLLED_BACK", error: "bad config", jobStatus: {state: "RUNNING"},
	    reconciliationStatus: {state: "ROLLED_BACK", lastReconciledSpec: ($spec | tojson)}}'
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail the operator rolled the deployment back (reconciliationStatus.state ROLLED_BACK); the operator's status.error: bad config" ]] ||
	    fail "not the rollback" "$(deployment_piece)"
	fake_kube '{lifecycleState: "DEPLOYED", jobStatus: {state: "RECONCILING"},
	    reconciliationStatus: {lastReconciledSpec: ($spec | tojson)}}'
	verify "$C" --streaming-timeout 2 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail lifecycleState DEPLOYED, jobStatus.state RECONCILING: want STABLE or DEPLOYED, and RUNNING" ]] ||
	    fail "not the state" "$(deployment_piece)"
	(( $(grep -c -- "-- flinkdeployment" calls) >= 2 )) || fail "not read again" "$(cat calls)"
}

# --- the checkpoint, read through the same FAKE kubectl --------------------
# ck.json stands for the JobManager REST API's GET /jobs/JOB/checkpoints
# answer (Flink's CheckpointingStatistics, the fields verify reads); the
# real one, through a real API server's service proxy, is the Kubernetes
# lane's (tests/k8s/checks/60-operator-stream.sh, on the real operator).

# fake_checkpoint AGE_S [COMPLETED] : a latest completed checkpoint (id 7)
# acknowledged AGE_S seconds ago; COMPLETED 0: none completed yet.
fake_checkpoint() {
	local now ack
	now=$(date +%s)
	ack=$(( (now - $1) * 1000 ))
	if [ "${2:-1}" = 0 ]; then
		jq -n '{counts: {restored: 0, total: 2, in_progress: 1, completed: 0, failed: 1},
		    latest: {completed: null, savepoint: null, restored: null,
		        failed: {id: 1, status: "FAILED", failure_message: "Checkpoint expired before completing."}},
		    history: []}' >ck.json
	else
		jq -n --argjson ack "$ack" '{counts: {restored: 0, total: 8, in_progress: 0, completed: 7, failed: 1},
		    latest: {completed: {id: 7, status: "COMPLETED", is_savepoint: false,
		        trigger_timestamp: ($ack - 300), latest_ack_timestamp: $ack},
		        savepoint: null, failed: null, restored: null}, history: []}' >ck.json
	fi
}

checkpoint_piece() {
	jq -r '.builds[0].evidence[] | select(.evidence == "checkpoint") | .outcome + " " + .detail' delivery.json
}

@test "verify: a young completed checkpoint of the status's job, through the service proxy, passes with --strict" {
	fake --age 10
	fake_kube "$running"
	fake_checkpoint 5
	verify "$C" --strict --streaming-timeout 0 --out delivery.json
	assert_status 0
	[[ $output == *"land-orders: checkpoint: pass"* ]] || fail "no checkpoint pass" "$output$stderr"
	# 5 s old when written; a loaded machine may take a while to read it.
	[[ $(checkpoint_piece) =~ ^"pass checkpoint 7 of job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6 completed "([5-9]|[1-5][0-9])" s ago (7 completed, 1 failed), within maxSnapshotAgeSeconds"$ ]] ||
	    fail "not the pass" "$(checkpoint_piece)"
	grep -qx -- "--context=development --request-timeout=[0-9]*s get --raw=/api/v1/namespaces/data-products/services/commerce-orders-landed-rest:rest/proxy/jobs/7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6/checkpoints" calls ||
	    fail "not the service proxy of the operator's rest service, with the context" "$(cat calls)"
	[[ $(jq -r '.builds[0].evidence[] | select(.evidence == "checkpoint") | .endpoint' delivery.json) == \
	    "kubectl --context=development get --raw /api/v1/namespaces/data-products/services/commerce-orders-landed-rest:rest/proxy/jobs/7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6/checkpoints" ]] ||
	    fail "the endpoint" "$(cat delivery.json)"
}

@test "verify: no completed checkpoint, or one older than maxSnapshotAgeSeconds, fails" {
	fake --age 10
	fake_kube "$running"
	fake_checkpoint 0 0
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $stderr == *"error: Flink build land-orders: checkpoint: no checkpoint completed: job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6 has 0 completed, 1 in progress, 1 failed; the latest failed one: Checkpoint expired before completing."* ]] ||
	    fail "not the missing checkpoint" "$stderr"
	fake_checkpoint 1000
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $stderr == *"checkpoint: no checkpoint is young enough: the latest completed one, 7 of job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6, was acknowledged 10"[0-9][0-9]" s ago, maxSnapshotAgeSeconds is 900"* ]] ||
	    fail "not the old checkpoint" "$stderr"
}

@test "verify: checkpointing disabled, no rest service and no job id in the status are named" {
	fake --age 10
	fake_kube "$running"
	# What kubectl prints for the JobManager's 404 "Checkpointing has not
	# been enabled.": its body is not passed on.  The job is known
	# (job.json, Flink's GET /jobs/JOB), so checkpointing is off.
	printf '%s\n' 'Error from server (NotFound): the server could not find the requested resource' >ck.err
	jq -n '{jid: "7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6", name: "insert-into_iceberg", state: "RUNNING"}' >job.json
	verify "$C" --streaming-timeout 5
	assert_status 1
	[[ $stderr == *"checkpoint: checkpointing is not enabled for job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6: the Iceberg sink commits only on checkpoints"* ]] || fail "not disabled" "$stderr"
	grep -qx -- "--context=development --request-timeout=[0-9]*s get --raw=/api/v1/namespaces/data-products/services/commerce-orders-landed-rest:rest/proxy/jobs/7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6" calls ||
	    fail "the job not read through the same proxy" "$(cat calls)"
	# Final: read once, not again until the timeout.
	assert_equal "$(grep -c 'proxy/jobs/7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6/checkpoints$' calls)" 1 "checkpoint reads"
	# The JobManager does not know the job either: it says so.
	cp ck.err job.err
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"checkpoint: the JobManager behind service data-products/commerce-orders-landed-rest does not know job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6"* ]] || fail "not unknown" "$stderr"
	rm job.err job.json
	printf '%s\n' 'Error from server (NotFound): services "commerce-orders-landed-rest" not found' >ck.err
	verify "$C" --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"checkpoint: service data-products/commerce-orders-landed-rest does not exist"* ]] || fail "no service" "$stderr"
	printf '%s\n' 'Error from server (ServiceUnavailable): no endpoints available for service "commerce-orders-landed-rest"' >ck.err
	verify "$C" --streaming-timeout 0
	# Without --strict an unreadable checkpoint is a warning.
	assert_status 0
	[[ $stderr == *"warning: Flink build land-orders: checkpoint: unavailable: the JobManager REST API through the service proxy: Error from server (ServiceUnavailable): no endpoints available"* ]] ||
	    fail "not unavailable" "$stderr"
	rm ck.err calls
	# A job id that is no Flink JobID (32 lowercase hex digits) goes into
	# no path, and is not echoed.
	fake_checkpoint 5
	for id in '../../../../api/v1/secrets' 'J1%2F..' 7D9F0E4C2B1A48D6A5E3C1F0B9D8E7A6 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a; do
		fake_kube "$(sed "s|7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6|$id|" <<<"$running")"
		verify "$C" --strict --streaming-timeout 0
		assert_status 1
		[[ $stderr == *"error: Flink build land-orders: checkpoint: unavailable: status.jobStatus.jobId is not a Flink job id"* ]] ||
		    fail "not refused: $id" "$stderr"
		[[ $stderr != *"$id"* ]] || fail "echoed: $id" "$stderr"
		! grep -q -- "--raw" calls || fail "asked the JobManager with $id" "$(cat calls)"
		rm calls
	done
	fake_kube '{lifecycleState: "STABLE", jobStatus: {state: "RUNNING"},
	    reconciliationStatus: {state: "DEPLOYED", lastReconciledSpec: ($spec | tojson)}}'
	verify "$C" --strict --streaming-timeout 0
	assert_status 1
	[[ $stderr == *"error: Flink build land-orders: checkpoint: unavailable: the FlinkDeployment's status names no job yet (status.jobStatus.jobId)"* ]] ||
	    fail "no job id" "$stderr"
	! grep -q -- "--raw" calls || fail "asked the JobManager without a job" "$(cat calls)"
}

# --- what the real operator (1.13) writes ----------------------------------
# The shapes below are the Flink Kubernetes operator's own, read from its
# 1.13.0 source (../shared/operator): SpecUtils.writeSpecWithMeta() writes
# lastReconciledSpec as {"spec", "resource_metadata": {"apiVersion",
# "firstDeployment"}}; updateStatusBeforeFirstDeployment() records
# upgradeMode stateless (savepoint with an initialSavepointPath);
# cancelJob() leaves a suspended job FINISHED; FlinkResourceExceptionUtils
# writes status.error as JSON; EventUtils records core/v1 Events with
# involvedObject the FlinkDeployment.  The Kubernetes lane runs the real
# operator (tests/k8s).

# op_status LIFECYCLE JOBSTATE FIRST SPEC-JQ [STATUS-JQ]: the operator's
# status, its reconciled spec the applied one edited by SPEC-JQ, with
# firstDeployment FIRST, then the whole status edited by STATUS-JQ.
op_status() {
	printf '%s' '{
	    clusterInfo: {"flink-version": "1.20.1", "flink-revision": "7a1b3c5 @ 2025-02-10T12:00:00+01:00", "total-cpu": "2.0", "total-memory": "3489660928"},
	    jobManagerDeploymentStatus: "READY",
	    jobStatus: {jobName: "insert-into_default_catalog.default_database.orders_landed",
	        jobId: "7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6", state: "'"$2"'",
	        startTime: "1764676800000", updateTime: "1764676830000",
	        savepointInfo: {lastSavepoint: null, triggerId: null, savepointHistory: []}},
	    error: null, observedGeneration: 1, lifecycleState: "'"$1"'",
	    reconciliationStatus: {reconciliationTimestamp: 1764676800000, state: "DEPLOYED",
	        lastReconciledSpec: ({spec: ($spec | '"$4"'), resource_metadata: {apiVersion: "flink.apache.org/v1beta1", firstDeployment: '"$3"'}} | tojson),
	        lastStableSpec: ({spec: ($spec | '"$4"'), resource_metadata: {apiVersion: "flink.apache.org/v1beta1", firstDeployment: '"$3"'}} | tojson)},
	    taskManager: {labelSelector: "component=taskmanager,app=commerce-orders-landed", replicas: 1}}'" | ${5:-.}"
}

# generation N: the FlinkDeployment's metadata.generation.
generation() {
	jq --argjson g "$1" '.metadata.generation = $g' fd.json >x && mv x fd.json
}

@test "verify: the operator's first deployment (upgradeMode stateless, firstDeployment true) is the applied spec" {
	fake --age 10
	fake_kube "$(op_status STABLE RUNNING true '.job.upgradeMode = "stateless"')"
	generation 1
	[ "$(jq -r '.spec.job.upgradeMode' fd.json)" = savepoint ] || fail "the example is not savepoint" "$(cat fd.json)"
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 0
	[[ $(deployment_piece) == "pass the reconciled spec is the applied one (first deployment: the operator records upgradeMode stateless until the first upgrade); lifecycleState STABLE, jobStatus.state RUNNING, job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6" ]] ||
	    fail "not the first deployment" "$(deployment_piece)"
	# After the first upgrade the operator records the mode it used:
	# stateless then is not what was applied.
	fake_kube "$(op_status STABLE RUNNING false '.job.upgradeMode = "stateless"')"
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == 'fail the operator'"'"'s reconciled spec is not the applied one: spec.job.upgradeMode is "stateless" reconciled, "savepoint" applied' ]] ||
	    fail "stateless taken after the first deployment" "$(deployment_piece)"
	# An initial savepoint makes the first deployment's mode savepoint.
	fake_kube "$(op_status STABLE RUNNING true '.job.upgradeMode = "stateless" | .job.initialSavepointPath = "s3://x/sp-1"')"
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == *"spec.job.upgradeMode is \"stateless\" reconciled"* ]] || fail "not refused" "$(deployment_piece)"
}

@test "verify: a suspended contract passes on SUSPENDED with FINISHED (stop-with-savepoint); a running one does not" {
	fake --age 10
	sed -i 's/^\( *\)context: development$/&\n\1state: suspended/' "$C"
	grep -q 'state: suspended' "$C" || fail "the test could not edit the contract" ""
	fake_kube "$(op_status SUSPENDED FINISHED false '.' '.jobManagerDeploymentStatus = "READY"')"
	[ "$(jq -r '.spec.job.state' fd.json)" = suspended ] || fail "not a suspended spec" "$(jq .spec.job fd.json)"
	verify "$C" --strict --streaming-timeout 0 --out delivery.json
	[[ $(deployment_piece) == "pass the reconciled spec is the applied one; lifecycleState SUSPENDED, jobStatus.state FINISHED, job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6" ]] ||
	    fail "suspended not taken" "$(deployment_piece)"
	[[ $(checkpoint_piece) == "unavailable the contract says suspended: the job is stopped, so it takes no checkpoint to read" ]] ||
	    fail "the checkpoint" "$(checkpoint_piece)"
	# Still RUNNING after the suspension was applied: not suspended.
	fake_kube "$(op_status STABLE RUNNING false '.')"
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail lifecycleState STABLE, jobStatus.state RUNNING: want SUSPENDED, and FINISHED or CANCELED (the contract says suspended)" ]] ||
	    fail "running taken as suspended" "$(deployment_piece)"
	# A running contract and a suspended job.
	cp "$EXAMPLES/shapes/landed/orders-landed.fluid.yaml" "$C"
	sed -i "s|https://catalog.example.com/api/catalog|https://127.0.0.1:$PORT/api/catalog|" "$C"
	fake_kube "$(op_status SUSPENDED FINISHED false '.job.state = "suspended"')"
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == *'spec.job.state is "suspended" reconciled, "running" applied'* ]] ||
	    fail "a suspended job taken as running" "$(deployment_piece)"
}

@test "verify: status.error as the operator writes it (JSON) shows its message and cause, escaped" {
	fake --age 10
	# FlinkResourceException: type, message, additionalMetadata,
	# throwableList; the message carries an ESC sequence and a newline.
	err='{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.util.FlinkRuntimeException: Could not start the job \u001b[2Jcleared\nsecond line","additionalMetadata":{},"throwableList":[{"type":"org.apache.flink.util.FlinkRuntimeException","message":"Could not start the job","additionalMetadata":{}},{"type":"java.io.IOException","message":"Could not find a file system implementation for scheme '"'"'s3'"'"'.","additionalMetadata":{}}]}'
	fake_kube "$(op_status FAILED FAILED false '.' ".error = $(jq -Rn --arg e "$err" '$e')")"
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $stderr == *"deployment: the job failed (lifecycleState FAILED, jobStatus.state FAILED); the operator's status.error: org.apache.flink.util.FlinkRuntimeException: Could not start the job \\x1b[2Jcleared\\nsecond line (its cause: Could not find a file system implementation for scheme 's3'.)"* ]] ||
	    fail "not the message" "$stderr"
	[[ $stderr != *"additionalMetadata"* && $stderr != *"ReconciliationException"* ]] || fail "the JSON, not its message" "$stderr"
	! grep -q $'\x1b' err.txt || fail "a raw escape reached the terminal" "$stderr"
	# The operator's fallback: the exception's text, not JSON.
	fake_kube "$(op_status FAILED FAILED false '.' '.error = "java.lang.IllegalStateException: bad state"')"
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == *"; the operator's status.error: java.lang.IllegalStateException: bad state" ]] ||
	    fail "not the text" "$(deployment_piece)"
}

@test "verify: a change the operator has not reconciled (observedGeneration behind generation) is named as pending" {
	fake --age 10
	# The operator waits for an upgradeable state: the reconciled spec is
	# still the previous one, observedGeneration 1, generation 2.
	fake_kube "$(op_status STABLE RUNNING false '.image = "registry.example.com/forge-flink@sha256:0000000000000000000000000000000000000000000000000000000000000000"')"
	generation 2
	# 5 s: time for more than one read even on a loaded machine.
	verify "$C" --streaming-timeout 5 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail the change is pending: the operator has not reconciled generation 2 yet (status.observedGeneration 1; lifecycleState STABLE)" ]] ||
	    fail "not pending" "$(deployment_piece)"
	(( $(grep -c -- "-- flinkdeployment " calls) >= 2 )) || fail "pending is final" "$(cat calls)"
	# Refused by the operator's validator: pending, with its error.
	fake_kube "$(op_status STABLE RUNNING false '.' '.error = ({type: "org.apache.flink.kubernetes.operator.exception.ValidationException", message: "Job parallelism must be larger than 0", additionalMetadata: {}, throwableList: []} | tojson)')"
	generation 3
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail the change is pending: the operator has not reconciled generation 3 yet (status.observedGeneration 1; lifecycleState STABLE); the operator's status.error: Job parallelism must be larger than 0" ]] ||
	    fail "not pending with the error" "$(deployment_piece)"
	# Reconciled: generation and observedGeneration equal.
	fake_kube "$(op_status STABLE RUNNING false '.' '.observedGeneration = 3')"
	generation 3
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 0
	[[ $(deployment_piece) == pass* ]] || fail "not reconciled" "$(deployment_piece)"
}

@test "verify: the service proxy's not found is told apart: a Service without endpoints is not a missing Service" {
	fake --age 10
	fake_kube "$running"
	# What the API server's proxy answers when the Service has no
	# endpoint (no controller-manager, or no ready JobManager pod).
	printf '%s\n' 'Error from server (NotFound): services "commerce-orders-landed-rest" not found' >ck.err
	jq -n '{apiVersion: "v1", kind: "Service", metadata: {name: "commerce-orders-landed-rest", namespace: "data-products"},
	    spec: {type: "ClusterIP", ports: [{name: "rest", port: 8081, protocol: "TCP", targetPort: 8081}],
	        selector: {app: "commerce-orders-landed", component: "jobmanager", type: "flink-native-kubernetes"}}}' >svc.json
	verify "$C" --strict --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(checkpoint_piece) == "unavailable service data-products/commerce-orders-landed-rest exists, but the API server's proxy has no endpoint for it: no JobManager pod of FlinkDeployment commerce-orders-landed is ready (Error from server (NotFound): services \"commerce-orders-landed-rest\" not found)" ]] ||
	    fail "not told apart" "$(checkpoint_piece)"
	grep -q -- "get --namespace=data-products --output=json --ignore-not-found -- service commerce-orders-landed-rest" calls || fail "the Service not read" "$(cat calls)"
	rm svc.json
	verify "$C" --strict --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(checkpoint_piece) == "fail service data-products/commerce-orders-landed-rest does not exist: no JobManager runs"* ]] ||
	    fail "a missing Service" "$(checkpoint_piece)"
}

@test "verify: the operator's Events for the FlinkDeployment say why it failed; none are read when it passes" {
	fake --age 10
	fake_kube "$(op_status FAILED FAILED false '.')"
	# core/v1 Events as the operator's EventUtils records them.
	jq -n '{apiVersion: "v1", kind: "EventList", metadata: {resourceVersion: "812"}, items: [
	  {metadata: {name: "commerce-orders-landed.Submit", namespace: "data-products"},
	   involvedObject: {apiVersion: "flink.apache.org/v1beta1", kind: "FlinkDeployment", name: "commerce-orders-landed", namespace: "data-products"},
	   type: "Normal", reason: "Submit", message: "Starting deployment", count: 1,
	   firstTimestamp: "2026-12-02T10:00:00Z", lastTimestamp: "2026-12-02T10:00:00Z", source: {component: "JobManagerDeployment"}},
	  {metadata: {name: "commerce-orders-landed.SavepointError", namespace: "data-products"},
	   involvedObject: {apiVersion: "flink.apache.org/v1beta1", kind: "FlinkDeployment", name: "commerce-orders-landed", namespace: "data-products"},
	   type: "Warning", reason: "SavepointError", message: "Savepoint failed for savepointTriggerNonce: null", count: 2,
	   firstTimestamp: "2026-12-02T10:01:00Z", lastTimestamp: "2026-12-02T10:02:00Z", source: {component: "Job"}},
	  {metadata: {name: "commerce-orders-landed.JobStatusChanged", namespace: "data-products"},
	   involvedObject: {apiVersion: "flink.apache.org/v1beta1", kind: "FlinkDeployment", name: "commerce-orders-landed", namespace: "data-products"},
	   type: "Normal", reason: "JobStatusChanged", message: "Job status changed from RUNNING to FAILED", count: 1,
	   firstTimestamp: "2026-12-02T10:03:00Z", lastTimestamp: "2026-12-02T10:03:00Z", source: {component: "Job"}},
	  {metadata: {name: "other.Error", namespace: "data-products"},
	   involvedObject: {apiVersion: "flink.apache.org/v1beta1", kind: "FlinkDeployment", name: "other", namespace: "data-products"},
	   type: "Warning", reason: "Error", message: "not ours", count: 1,
	   firstTimestamp: "2026-12-02T10:04:00Z", lastTimestamp: "2026-12-02T10:04:00Z"}]}' >ev.json
	verify "$C" --streaming-timeout 0 --out delivery.json
	assert_status 1
	[[ $(deployment_piece) == "fail the job failed (lifecycleState FAILED, jobStatus.state FAILED); the operator's latest Warning event SavepointError at 2026-12-02T10:02:00Z: Savepoint failed for savepointTriggerNonce: null" ]] ||
	    fail "not the event" "$(deployment_piece)"
	grep -q -- "get --raw=/api/v1/namespaces/data-products/events?fieldSelector=involvedObject.kind%3DFlinkDeployment%2CinvolvedObject.name%3Dcommerce-orders-landed$" calls ||
	    fail "not the deployment's events" "$(cat calls)"
	# Only Normal events: the newest one.
	jq '.items |= map(select(.type == "Normal"))' ev.json >x && mv x ev.json
	verify "$C" --streaming-timeout 0 --out delivery.json
	[[ $(deployment_piece) == *"; the operator's latest event JobStatusChanged at 2026-12-02T10:03:00Z: Job status changed from RUNNING to FAILED" ]] ||
	    fail "not the newest event" "$(deployment_piece)"
	rm calls
	fake_kube "$running"
	fake_checkpoint 5
	verify "$C" --strict --streaming-timeout 0 --out delivery.json
	assert_status 0
	! grep -q events calls || fail "events read on a pass" "$(cat calls)"
}

@test "verify: an answer through the service proxy is bounded (4 MiB): kubectl is stopped, nothing is parsed, no retry reads it again" {
	fake --age 10
	fake_kube "$running"
	echo $(( 100 << 20 )) >ck.big
	verify "$C" --strict --streaming-timeout 3 --out delivery.json
	assert_status 1
	[[ $(checkpoint_piece) == "unavailable the JobManager REST API through the service proxy: kubectl --context=development get --raw /api/v1/namespaces/data-products/services/commerce-orders-landed-rest:rest/proxy/jobs/7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6/checkpoints: the answer is larger than 4194304 bytes; not read" ]] ||
	    fail "not bounded" "$(checkpoint_piece)"
	[ ! -e ck.done ] || fail "kubectl was read to its end" ""
	assert_equal "$(grep -c 'proxy/jobs/7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6/checkpoints$' calls)" 1 "checkpoint reads"
	# Just under the bound is read and parsed.
	rm calls
	echo $(( (4 << 20) - 100 )) >ck.big
	verify "$C" --strict --streaming-timeout 0 --out delivery.json
	[ -e ck.done ] || fail "the fake did not finish" ""
	[[ $(checkpoint_piece) == "unavailable the JobManager's answer for job 7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6 has no checkpoint counts" ]] ||
	    fail "not read under the bound" "$(checkpoint_piece)"
}

# --- fluid-verify, the filter ---------------------------------------------

# fixed_clock: build tests/bats/fixtures/fixed-clock.c (LD_PRELOAD: the
# real-time clock reads FIXED_TIME), so that two runs write the same
# report; CLOCK is what to preload.
fixed_clock() {
	command -v cc >/dev/null || skip "no C compiler for the fixed clock"
	cc -shared -fPIC -o fixed-clock.so "$TOP/tests/bats/fixtures/fixed-clock.c" -ldl ||
	    fail "cannot build the fixed clock" ""
	CLOCK=$TMP/fixed-clock.so
	export FIXED_TIME
	FIXED_TIME=$(date +%s)
}

# pipeline ARGS...: the filters, fluid-resolve to fluid-verify ARGS, with
# the fixed clock; the document in pipe.json, stderr in pipe.err.
pipeline() {
	LD_PRELOAD=$CLOCK ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" sh -c '"$1/fluid-resolve" "$2" | "$1/fluid-check" | "$1/fluid-sqlgen" |
	    "$1/fluid-k8s" render | { shift 2; "$BIN_V/fluid-verify" "$@"; }' sh "$BIN" "$C" "$@" >pipe.json 2>pipe.err
}

@test "fluid-verify: ... | fluid-k8s render | fluid-verify --strict equals fluid verify --strict, byte for byte" {
	fixed_clock
	LD_PRELOAD=$CLOCK ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" fake --age 10
	fake_kube "$running"
	jq -n --argjson ack "$(( (FIXED_TIME - 5) * 1000 ))" '{counts: {restored: 0, total: 8, in_progress: 0, completed: 7, failed: 1},
	    latest: {completed: {id: 7, status: "COMPLETED", is_savepoint: false, trigger_timestamp: ($ack - 300),
	        latest_ack_timestamp: $ack}, savepoint: null, failed: null, restored: null}, history: []}' >ck.json
	st=0; LD_PRELOAD=$CLOCK ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$BIN/fluid" verify --strict --streaming-timeout 0 --out delivery.json "$C" >drv.out 2>drv.err || st=$?
	assert_equal "$st" 0 "fluid verify's status"
	st=0; BIN_V=$BIN pipeline --strict --streaming-timeout 0 || st=$?
	assert_equal "$st" 0 "the pipeline's status"
	jq -e '.stages == ["resolve", "check", "sqlgen", "k8s", "verify"]' pipe.json >/dev/null ||
	    fail "not the document with a verify section" "$(jq -c .stages pipe.json)"
	jq -S --indent 2 .verify pipe.json >from-pipe.json
	cmp from-pipe.json delivery.json || fail "the filter's report is not the driver's" "$(diff from-pipe.json delivery.json)"
	cmp pipe.err drv.err || fail "not the same diagnostics" "$(diff pipe.err drv.err)"
	[[ $(jq -r '.builds[0].evidence | map(.outcome) | join(" ")' delivery.json) == "pass pass pass pass" ]] ||
	    fail "not four passes" "$(cat delivery.json)"
	# Failing evidence: the same report, exit 1 from both, and the
	# filter still writes the document (the report says fail).
	fake_kube "$(op_status FAILED FAILED false '.' '.error = "java.lang.IllegalStateException: bad state"')"
	st=0; LD_PRELOAD=$CLOCK ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$BIN/fluid" verify --strict --streaming-timeout 0 --out delivery.json "$C" >drv.out 2>drv.err || st=$?
	assert_equal "$st" 1 "fluid verify's status"
	st=0; BIN_V=$BIN pipeline --strict --streaming-timeout 0 || st=$?
	assert_equal "$st" 1 "the pipeline's status"
	jq -S --indent 2 .verify pipe.json >from-pipe.json
	cmp from-pipe.json delivery.json || fail "the failed report differs" "$(diff from-pipe.json delivery.json)"
	cmp pipe.err drv.err || fail "not the same diagnostics" "$(diff pipe.err drv.err)"
	[ "$(jq -r .verify.outcome pipe.json)" = fail ] || fail "not a failed report" "$(jq .verify pipe.json)"
}

@test "fluid-verify: a stage's wrong output says which it expects; usage, --help and --diagnostics=json" {
	"$BIN/fluid-resolve" "$C" >resolved.json
	run --separate-stderr "$BIN/fluid-verify" <resolved.json
	assert_status 2
	[[ $stderr == *"expects the output of fluid-k8s, got the output of fluid-resolve"* ]] || fail "not the stage" "$stderr"
	[ -z "$output" ] || fail "wrote something" "$output"
	"$BIN/fluid" plan --mode amend --out plan.json "$C" >/dev/null 2>&1 || fail "fluid plan failed" ""
	run --separate-stderr "$BIN/fluid-verify" <plan.json
	assert_status 2
	[[ $stderr == *"fluid-verify reads the output of fluid-k8s render"* ]] || fail "a plan not named" "$stderr"
	run "$BIN/fluid-verify" --help
	assert_status 0
	for opt in --strict --streaming-timeout --diagnostics --help --version; do
		[[ $output == *"$opt"* ]] || fail "--help lacks $opt" "$output"
	done
	run "$BIN/fluid-verify" --streaming-timeout x
	assert_status 2
	[[ $output == *"--streaming-timeout expects seconds from 0 to 86400"* ]] || fail "no line" "$output"
	run "$BIN/fluid-verify" file.json
	assert_status 2
	# A contract with no managed build: refused, nothing written.
	"$BIN/fluid-resolve" "$C" | "$BIN/fluid-check" | "$BIN/fluid-sqlgen" | "$BIN/fluid-k8s" render |
	    jq '.check.builds = []' >none.json
	run --separate-stderr "$BIN/fluid-verify" <none.json
	assert_status 1
	[[ $stderr == *"no managed build to verify"* ]] || fail "not refused" "$stderr"
	[ -z "$output" ] || fail "wrote something" "$output"
	run --separate-stderr "$BIN/fluid-verify" --diagnostics=json <none.json
	assert_status 1
	jq -e 'select(.level == "error") | .message | test("no managed build to verify")' <<<"$stderr" >/dev/null ||
	    fail "not JSON lines" "$stderr"
}

# --- waiting, as a CI log sees it --------------------------------------------

@test "verify: off a terminal, each re-read is one line naming the pieces pending and why" {
	fake --age 10
	fake_kube "$(op_status STABLE RUNNING false '.')"
	generation 2
	verify "$C" --streaming-timeout 3 --out delivery.json
	assert_status 1
	grep -q "^verify: [0-9]* s of 3, reading again in [0-9]* s; pending: land-orders deployment (the change is pending: the operator has not reconciled generation 2 yet (status.observedGeneration 1; lifecycleState STABLE)); land-orders checkpoint (the JobManager REST API through the service proxy: " err.txt ||
	    fail "no line per re-read" "$stderr"
	n=$(grep -c '^verify: ' err.txt)
	(( n >= 1 && n <= 3 )) || fail "not one line a re-read: $n" "$stderr"
	[[ $stderr != *$'\r'* && $stderr != *$'\033['* ]] || fail "terminal controls off a terminal" "$stderr"
	# Settled at once: no line at all.
	fake_kube "$running"
	fake_checkpoint 5
	verify "$C" --strict --streaming-timeout 3
	assert_status 0
	[[ $stderr != *"verify: "* ]] || fail "a line without a re-read" "$stderr"
}

@test "verify: a catalog host that does not resolve is final, not read again" {
	fake --age 10
	sed -i "s|https://127.0.0.1:$PORT/api/catalog|https://no-such-host.invalid/api/catalog|" "$C"
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=no-such-host.invalid
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@no-such-host.invalid
	command -v cc >/dev/null || skip "no C compiler for the resolver counter"
	cc -shared -fPIC -o count-resolve.so "$TOP/tests/bats/fixtures/count-resolve.c" -ldl ||
	    fail "cannot build the resolver counter" ""
	RESOLVE_LOG=$TMP/resolved LD_PRELOAD=$TMP/count-resolve.so ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" verify "$C" --streaming-timeout 20
	assert_status 1
	[[ $stderr == *"catalog-schema: unavailable: 'https://no-such-host.invalid/api/catalog/v1/config"*"Could not resolve host"* ]] ||
	    fail "not the resolve failure" "$stderr"
	[[ $stderr != *"reading again"* ]] || fail "read again" "$stderr"
	assert_equal "$(grep -c '^no-such-host.invalid$' resolved)" 1 "look-ups of the catalog's host"
}
