#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-apply.bats - fluid apply (fluid(1), APPLY) offline: what it
# refuses before it would call kubectl (an edited plan, another mode,
# replace and reset, the allowlists, a write without --yes) and that a
# dry run calls no kubectl at all.  kubectl here is the tests' fake
# (fake-kubectl), which records that it was called and fails; a test that must not
# reach kubectl asserts it was never called.  The real cluster is the
# Kubernetes lane's (tests/k8s/checks/10-apply.sh).

load helpers
load fake-kubectl

setup() {
	TOOL=fluid
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	LANDED=shapes/landed/orders-landed.fluid.yaml
	# The fake: any call is recorded in kubectl.calls and fails.
	fake_kubectl fail
}

teardown() { fluid_teardown; }

plan() { "$BIN/fluid" plan --mode "$1" --out "${2:-p.json}" "$LANDED" >/dev/null; }

@test "apply: a dry run checks the allowlists, prints what it would apply and calls no kubectl" {
	allow_landed
	plan dry-run
	tool apply --mode dry-run p.json
	assert_status 0
	assert_no_stderr
	cm=$(jq -r .builds[0].configMap p.json)
	assert_equal "$output" "would apply ConfigMap data-products/$cm (new)
would apply FlinkDeployment data-products/commerce-orders-landed (new)" "standard output"
	kubectl_not_called
}

@test "apply: every allowlist refusal is reported together, exit 1, dry run included, before kubectl" {
	allow_landed
	unset FLUID_FLINK_IMAGE_ALLOWLIST
	export FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com
	export FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@other.example.com
	plan dry-run
	tool apply --mode dry-run p.json
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" "deployment.image: image 'registry.example.com/forge-flink' is not allowed"
	assert_match "$stderr" "s3.endpoint: host 's3.example.com' is not allowed"
	assert_match "$stderr" "source.bootstrapServers: host 'kafka' is not allowed"
	assert_match "$stderr" "catalog credential 'ICEBERG_TOKEN' may not be sent to 'catalog.example.com'"
	assert_equal "$(grep -c "^p.json: error: build 'land-orders': " <<<"$stderr")" 4 "refusals"
	# The admitted targets are not among them.
	[[ $stderr != *"kube context"* && $stderr != *"namespace 'data"* ]] || fail "an allowed target refused" "$stderr"
	# The same refusals stop a real apply before any kubectl call.
	plan amend
	tool apply --mode amend --yes p.json
	assert_status 1
	assert_equal "$(grep -c "^p.json: error: build 'land-orders': " <<<"$stderr")" 4 "refusals"
	kubectl_not_called
}

@test "apply: a plan edited after fluid plan wrote it is refused (exit 1)" {
	allow_landed
	plan dry-run
	jq '.resources[1].resource.spec.job.parallelism = 4' p.json >edited.json
	tool apply --mode dry-run edited.json
	assert_status 1
	assert_match "$stderr" "^edited.json: error: the plan's digest sha256:[0-9a-f]{64} is not its content's"
	kubectl_not_called
}

@test "apply: a script that is not its ConfigMap's digest is refused, even with a recomputed plan digest" {
	allow_landed
	plan dry-run
	# Edit the script and give the plan a digest that matches again
	# (computed here, as fluid-plan.bats does): only the re-render can
	# catch it.
	python3 - p.json edited.json <<-'EOF2'
	import hashlib, json, sys
	p = json.load(open(sys.argv[1]))
	cm = p["resources"][0]["resource"]
	cm["data"]["land-orders.sql"] += "-- and something else\n"
	c = json.loads(json.dumps(p))
	del c["digest"]
	for e in c["resources"]:
	    e["resource"]["metadata"].get("annotations", {}).pop("fluid.dev/plan-digest", None)
	d = "sha256:" + hashlib.sha256(json.dumps(c, sort_keys=True, separators=(",", ":"),
	    ensure_ascii=False).encode()).hexdigest()
	p["digest"] = d
	p["resources"][1]["resource"]["metadata"]["annotations"]["fluid.dev/plan-digest"] = d
	json.dump(p, open(sys.argv[2], "w"), indent=2)
	EOF2
	tool apply --mode dry-run edited.json
	assert_status 1
	assert_equal "$stderr" "edited.json: error: the plan's resources[0].resource.data.land-orders.sql is not what fluid renders from the plan's bundle: the plan was edited after fluid plan wrote it; make the plan again" "stderr"
	kubectl_not_called
}

@test "apply: the mode must be the plan's; replace and reset are refused; an unknown mode is a usage error" {
	allow_landed
	plan amend
	tool apply --mode amend-and-build --yes p.json
	assert_status 1
	assert_equal "$stderr" "p.json: error: the plan was made for --mode amend, not amend-and-build: use the same mode for plan and apply" "stderr"
	for m in replace reset; do
		tool apply --mode "$m" --yes p.json
		assert_status 1
		assert_match "$stderr" "^fluid: --mode $m is refused: replace and reset would start the job without its state"
	done
	tool apply --mode whenever p.json
	assert_status 2
	assert_match "$stderr" "--mode whenever is not a mode"
	tool apply p.json
	assert_status 2
	assert_match "$stderr" "apply needs --mode"
	kubectl_not_called
}

@test "apply: a write without --yes is refused (exit 1) before any kubectl call" {
	allow_landed
	for m in amend amend-and-build create-only; do
		plan "$m"
		tool apply --mode "$m" p.json
		assert_status 1
		assert_equal "$stderr" "p.json: error: apply --mode $m writes to the cluster: add --yes to do it, or see what it would write with a dry-run plan" "stderr"
	done
	kubectl_not_called
}

@test "apply: kubectl missing is an environment error (exit 2), naming KUBECTL" {
	allow_landed
	plan amend
	KUBECTL=$TMP/no-such-kubectl tool apply --mode amend --yes p.json
	assert_status 2
	assert_match "$stderr" "^fluid: cannot run '$TMP/no-such-kubectl' \(set KUBECTL to name kubectl\) to read flinkdeployment data-products/commerce-orders-landed: No such file"
	assert_no_stdout
}

@test "apply: a kubectl that never answers is killed at fluid's deadline (exit 2), called with --context and --request-timeout" {
	allow_landed
	plan amend
	# The fake in mode hang: it records its argv, starts a child and
	# waits for it, never answering.
	fake_kubectl hang
	# 5 s: long enough for the fake (a shell script) to start and record
	# its argv on a loaded machine, where 1 s was not.
	SECONDS=0
	FLUID_KUBECTL_DEADLINE_S=5 tool apply --mode amend --yes p.json
	assert_status 2
	[ "$SECONDS" -lt 15 ] || fail "apply took $SECONDS s with a 5 s deadline"
	assert_match "$stderr" "^fluid: kubectl --context=development did not finish read flinkdeployment data-products/commerce-orders-landed within 5 s \(fluid's deadline"
	assert_equal "$(cat kubectl.calls)" "--context=development --request-timeout=5s get --namespace=data-products --output=json --ignore-not-found -- flinkdeployment commerce-orders-landed" "argv"
	[ -s hang.child ] || fail "the fake kubectl started no child" ""
	# Its process group was killed: the child it started, too (gone, or a
	# zombie when nothing reaps orphans here).
	sleep 0.2
	st=$(ps -o stat= -p "$(cat hang.child)" || true)
	[[ -z $st || $st == Z* ]] || fail "kubectl's child outlived the deadline: state $st" ""
}

@test "apply: a bad FLUID_KUBECTL_DEADLINE_S or a file that is not a plan is an environment error" {
	allow_landed
	plan amend
	FLUID_KUBECTL_DEADLINE_S=soon tool apply --mode amend --yes p.json
	assert_status 2
	assert_match "$stderr" "FLUID_KUBECTL_DEADLINE_S='soon' is not a whole number of seconds"
	echo '{"hello": 1}' >not-a-plan.json
	tool apply --mode amend --yes not-a-plan.json
	assert_status 2
	assert_equal "$stderr" "fluid: 'not-a-plan.json' is not a plan (fluidPlan 1): apply reads the output of fluid plan or fluid-k8s plan" "stderr"
	tool apply --mode amend --yes missing.json
	assert_status 2
	kubectl_not_called
}

@test "apply: a project's .env cannot set an allowlist: warned by line, ignored" {
	allow_landed
	plan dry-run
	unset FLUID_FLINK_IMAGE_ALLOWLIST
	printf '%s\n' '# the project' 'OTHER=1' \
	    'export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink' >.env
	tool apply --mode dry-run p.json
	# The .env's entry would admit the image; it is ignored, so refused.
	assert_status 1
	[[ $stderr == *"fluid: warning: .env:3: sets FLUID_FLINK_IMAGE_ALLOWLIST, which only the operator's environment (a shell or a CI variable) can set: ignored"* ]] ||
	    fail "no warning naming the file, line and variable" "$stderr"
	assert_match "$stderr" "deployment.image: image 'registry.example.com/forge-flink' is not allowed"
	[[ $stderr != *".env:2"* ]] || fail "a line that sets no list was warned of" "$stderr"
	kubectl_not_called
}

# The plan-edit tests (issue 27): a real plan of fluid plan, edited as
# whoever can write plan.json could, every digest computed again by
# fixtures/plan/replan.py (not by fluid's code).
replan() { python3 "$FIXTURES/plan/replan.py" "$@" || fail "replan.py failed" ""; }

# An image pinned by digest on a host no list names.
EVIL_IMAGE=evil.example.net/miner@sha256:0000000000000000000000000000000000000000000000000000000000000000

@test "apply: replan.py computes fluid's digests: an unedited plan it re-digests is the same plan, and applies" {
	allow_landed
	plan dry-run
	replan p.json same.json
	assert_equal "$(jq -S . same.json)" "$(jq -S . p.json)" "the plan re-digested"
	tool apply --mode dry-run same.json
	assert_status 0
	assert_no_stderr
	kubectl_not_called
}

@test "apply: a script whose catalog uri (and so its token) goes to an unlisted host is refused" {
	allow_landed
	plan amend
	replan p.json edited.json \
	    'cm["data"]["land-orders.sql"] = cm["data"]["land-orders.sql"].replace("https://catalog.example.com/api/catalog", "https://evil.example.net/api/catalog")'
	grep -q evil.example.net edited.json || fail "the test could not edit the script" ""
	tool apply --mode amend --yes edited.json
	assert_status 1
	# The script's digest names the ConfigMap: the first field that differs.
	assert_match "$stderr" "^edited.json: error: the plan's builds\\[0\\]\\.configMap is not what fluid renders from the plan's bundle"
	kubectl_not_called
	# The same with the contract itself edited and planned by fluid: the
	# plan is consistent, and the host is refused by the allowlist.
	sed -i 's|uri: https://catalog.example.com/api/catalog|uri: https://evil.example.net/api/catalog|' "$LANDED"
	plan amend
	tool apply --mode amend --yes p.json
	assert_status 1
	assert_match "$stderr" "host 'evil.example.net' is not allowed"
	assert_match "$stderr" "catalog credential 'ICEBERG_TOKEN' may not be sent to 'evil.example.net'"
	kubectl_not_called
}

@test "apply: a ConfigMap moved to kube-system is refused, by the re-render and by the namespace check" {
	allow_landed
	plan dry-run
	replan p.json edited.json 'cm["metadata"]["namespace"] = "kube-system"'
	tool apply --mode dry-run edited.json
	assert_status 1
	assert_no_stdout
	assert_match "$stderr" "^edited.json: error: the plan's resources\\[0\\]\\.resource\\.metadata\\.namespace is not what fluid renders"
	assert_match "$stderr" "build 'land-orders': ConfigMap commerce-orders-landed-sql-[0-9a-f]{12} is not in the FlinkDeployment's namespace"
	kubectl_not_called
}

@test "apply: a sidecar with an unlisted image is refused, by the re-render and by the image check" {
	allow_landed
	plan amend
	replan p.json edited.json \
	    "pod['containers'].append({'name': 'side', 'image': '$EVIL_IMAGE'})"
	tool apply --mode amend --yes edited.json
	assert_status 1
	assert_match "$stderr" "the plan's resources\\[1\\]\\.resource\\.spec\\.podTemplate\\.spec\\.containers\\[1\\] is not what fluid renders"
	assert_match "$stderr" "build 'land-orders': deployment.image names an image that is not the FlinkDeployment's spec.image"
	kubectl_not_called
	# An init container, and the JobManager's own pod template, too.
	replan p.json edited2.json \
	    "fd['spec']['jobManager']['podTemplate'] = {'spec': {'initContainers': [{'name': 'i', 'image': '$EVIL_IMAGE'}]}}"
	tool apply --mode amend --yes edited2.json
	assert_status 1
	assert_match "$stderr" "resources\\[1\\]\\.resource\\.spec\\.jobManager\\.podTemplate is not what fluid renders"
	assert_match "$stderr" "names an image that is not the FlinkDeployment's spec.image"
	kubectl_not_called
}

@test "apply: an unlisted Secret, as a volume, an env reference or kubernetes.secrets, is refused" {
	allow_landed
	plan dry-run
	replan p.json vol.json \
	    "pod['volumes'].append({'name': 'admin', 'secret': {'secretName': 'cluster-admin-token'}})"
	tool apply --mode dry-run vol.json
	assert_status 1
	assert_match "$stderr" "resources\\[1\\]\\.resource\\.spec\\.podTemplate\\.spec\\.volumes\\[1\\] is not what fluid renders"
	assert_match "$stderr" "Secret 'data-products/cluster-admin-token' is not allowed"
	replan p.json env.json \
	    "pod['containers'][0]['env'] = [{'name': 'T', 'valueFrom': {'secretKeyRef': {'name': 'other-secret', 'key': 'k'}}}]"
	tool apply --mode dry-run env.json
	assert_status 1
	assert_match "$stderr" "Secret 'data-products/other-secret' is not allowed"
	replan p.json conf.json \
	    "fd['spec']['flinkConfiguration']['kubernetes.secrets'] = 'mounted-secret:/opt/s'"
	tool apply --mode dry-run conf.json
	assert_status 1
	assert_match "$stderr" "flinkConfiguration.kubernetes.secrets: Secret 'data-products/mounted-secret' is not allowed"
	kubectl_not_called
}

@test "apply: other SQL with no FLUID_FLINK_CONTRACT_SQL_ALLOWLIST entry is refused" {
	allow_landed
	plan amend
	replan p.json edited.json \
	    'cm["data"]["land-orders.sql"] += "INSERT INTO elsewhere SELECT * FROM orders;\n"'
	tool apply --mode amend --yes edited.json
	assert_status 1
	assert_match "$stderr" "^edited.json: error: the plan's builds\\[0\\]\\.configMap is not what fluid renders from the plan's bundle"
	kubectl_not_called
	# Own SQL the contract declares, planned by fluid: refused by the list
	# until its pinned entry is there.
	sed -i 's|^      parameters:$|      sql: SELECT * FROM source_events\n      parameters:|' "$LANDED"
	plan amend 2>/dev/null
	tool apply --mode amend --yes p.json
	assert_status 1
	assert_match "$stderr" "^p.json: error: build 'land-orders': properties.sql: .*FLUID_FLINK_CONTRACT_SQL_ALLOWLIST"
	kubectl_not_called
	sql=$(jq -r '.resources[0].resource.data["land-orders.sql"]' p.json)
	[ -n "$sql" ] || fail "no script" ""
	plan dry-run 2>/dev/null
	FLUID_FLINK_CONTRACT_SQL_ALLOWLIST=commerce.orders-landed/land-orders tool apply --mode dry-run p.json
	assert_status 0
}

@test "apply: a targets block rewritten to listed hosts while the script contacts a refused one is refused" {
	allow_landed
	sed -i 's|uri: https://catalog.example.com/api/catalog|uri: https://evil.example.net/api/catalog|' "$LANDED"
	plan amend
	replan p.json edited.json \
	    'tg["catalog"] = "https://catalog.example.com/api/catalog"' \
	    '[h.update(url="https://catalog.example.com/api/catalog", host="catalog.example.com") for h in tg["hosts"] if h["host"] == "evil.example.net"]'
	grep -q '"catalog": "https://catalog.example.com/api/catalog"' edited.json || fail "the test could not edit the targets" ""
	tool apply --mode amend --yes edited.json
	assert_status 1
	assert_match "$stderr" "the plan's targets\\[0\\]\\.[a-z]+ is not what fluid renders from the plan's bundle"
	kubectl_not_called
}

@test "apply: a plan without a mode, or with one that is not a string, is a refusal (exit 1), not a crash" {
	allow_landed
	plan amend
	replan p.json nomode.json 'del p["mode"]'
	tool apply --mode amend --yes nomode.json
	assert_status 1
	assert_equal "$stderr" "nomode.json: error: the plan's mode is missing: fluid plan writes one of amend, amend-and-build, create-only or dry-run; make the plan again" "stderr"
	replan p.json intmode.json 'p["mode"] = 3'
	tool apply --mode amend --yes intmode.json
	assert_status 1
	assert_equal "$stderr" "intmode.json: error: the plan's mode is not a string: fluid plan writes one of amend, amend-and-build, create-only or dry-run; make the plan again" "stderr"
	kubectl_not_called
}

@test "apply: a plan with no bundle, or a bundle that does not check, is refused" {
	allow_landed
	plan dry-run
	replan p.json nobundle.json 'del p["bundle"]'
	tool apply --mode dry-run nobundle.json
	assert_status 1
	assert_match "$stderr" "the plan carries no bundle"
	replan p.json badbundle.json 'doc["builds"][0]["properties"]["parameters"]["flink"]["deployment"]["image"] = 7'
	tool apply --mode dry-run badbundle.json
	assert_status 1
	assert_match "$stderr" "the plan's bundle does not check"
	kubectl_not_called
}

# fake_cluster TAKE: a kubectl that knows nothing at first, answers each
# apply with the object it was given (generation 2 for a
# FlinkDeployment), and, once the FlinkDeployment is written, answers its
# reads with status.observedGeneration TAKE (empty: no status at all).
fake_cluster() {
	export FAKE_TAKE=$1
	fake_kubectl cluster
}

@test "apply: waits for the operator to take the change (status.observedGeneration), and says so" {
	allow_landed
	plan amend
	fake_cluster 2
	tool apply --mode amend --yes --wait 5 p.json
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "FlinkDeployment data-products/commerce-orders-landed: running
FlinkDeployment data-products/commerce-orders-landed: the operator took generation 2" "stdout"
	# The writes, in order: the ConfigMap, the FlinkDeployment, the record.
	assert_equal "$(grep -c ' apply ' kubectl.calls)" 3 "applies"
}

@test "apply: an operator that has not taken the change within --wait is reported (a warning; the write stands)" {
	allow_landed
	plan amend
	fake_cluster 1
	tool apply --mode amend --yes --wait 1 p.json
	assert_status 0
	assert_equal "$stderr" "p.json: warning: build 'land-orders': FlinkDeployment data-products/commerce-orders-landed: the operator has not taken generation 2 within 1 s (status.observedGeneration: older): the change is written, not yet running; see its status with kubectl" "stderr"
	rm -f fd.written kubectl.calls
	fake_cluster ""
	tool apply --mode amend --yes --wait 1 p.json
	assert_status 0
	assert_match "$stderr" "has not taken generation 2 within 1 s \\(status.observedGeneration: none\\)"
	# --wait 0 does not read the status at all.
	rm -f fd.written kubectl.calls
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	assert_no_stderr
	assert_equal "$(grep -c -- '-- flinkdeployment ' kubectl.calls)" 1 "reads"
	tool apply --mode amend --yes --wait 3601 p.json
	assert_status 2
	assert_match "$stderr" "--wait expects seconds from 0 to 3600"
}

@test "apply: an endpoint in flinkConfiguration (s3.endpoint) is a host the job contacts: checked against the host list" {
	allow_landed
	plan dry-run
	replan p.json edited.json \
	    "fd['spec']['flinkConfiguration']['s3.endpoint'] = 'https://state.evil.example.net'"
	tool apply --mode dry-run edited.json
	assert_status 1
	assert_match "$stderr" "the plan's resources\\[1\\]\\.resource\\.spec\\.flinkConfiguration\\.s3\\.endpoint is not what fluid renders"
	assert_match "$stderr" "build 'land-orders': s3.endpoint: host 'state.evil.example.net' is not allowed"
	kubectl_not_called
}

# fake_live_with_error STATE ERROR [OBSERVED]: the fake in mode
# live-error: the live FlinkDeployment is the plan's own (fluid's labels
# and script) at generation 3, its job.state STATE, and status.error
# ERROR as the operator (1.13) writes it: a FlinkResourceException as
# JSON; status.observedGeneration OBSERVED (none if not given).  kubectl
# answers its reads with it, the Events with events.json, no ConfigMap
# exists, and an apply echoes what it was given.
fake_live_with_error() {
	export FAKE_PLAN=$TMP/p.json FAKE_JOB_STATE=$1 FAKE_FD_ERROR=$2 FAKE_OBSERVED=${3-}
	fake_kubectl live-error
}

# What the operator 1.13 wrote in the Kubernetes lane when a
# stop-with-savepoint failed (AbstractFlinkService: "Savepoint Error"),
# its causes in throwableList: longer than any one line fluid shows whole.
OPERATOR_SAVEPOINT_ERROR='{"type":"org.apache.flink.kubernetes.operator.exception.UpgradeFailureException","message":"Savepoint Error","additionalMetadata":{},"throwableList":[{"type":"java.util.concurrent.ExecutionException","message":"org.apache.flink.runtime.rest.util.RestClientException: [org.apache.flink.runtime.rest.handler.RestHandlerException: Exception while stopping the job with savepoint]","additionalMetadata":{}},{"type":"org.apache.flink.runtime.checkpoint.CheckpointException","message":"Failure to finalize checkpoint.","additionalMetadata":{}}]}'

@test "apply: a failed savepoint the operator reports as JSON (1.13) blocks a change: its message said, nothing written" {
	allow_landed
	plan amend
	fake_live_with_error suspended "$OPERATOR_SAVEPOINT_ERROR"
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 1
	assert_no_stdout
	assert_equal "$stderr" "p.json: error: build 'land-orders': FlinkDeployment data-products/commerce-orders-landed: the operator reports a failed savepoint (status.error: Savepoint Error (its cause: Failure to finalize checkpoint.)): fluid changes no job whose state could be lost; resolve it with the operator first" "stderr"
	[ "$(grep -c ' apply ' kubectl.calls)" = 0 ] || fail "kubectl apply was called" "$(cat kubectl.calls)"
}

@test "apply: the operator's error as plain text is quoted as it is, escaped; another error does not block a change" {
	allow_landed
	plan amend
	fake_live_with_error suspended $'Savepoint failed:\n\e[31mtimeout'
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 1
	assert_match "$stderr" "status.error: Savepoint failed:\\\\n\\\\x1b\\[31mtimeout\\): fluid changes no job"
	[ "$(grep -c ' apply ' kubectl.calls)" = 0 ] || fail "kubectl apply was called" "$(cat kubectl.calls)"
	# An error that is not about a savepoint (nor one pending) does not.
	rm -f kubectl.calls
	fake_live_with_error suspended '{"type":"org.apache.flink.kubernetes.operator.exception.ValidationException","message":"Job could not be upgraded"}'
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	assert_equal "$(grep -c ' apply ' kubectl.calls)" 3 "applies"
}

@test "apply: with a failed savepoint reported, a plan that changes nothing is applied" {
	allow_landed
	plan amend
	fake_live_with_error running "$OPERATOR_SAVEPOINT_ERROR"
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	assert_no_stderr
	assert_equal "$(grep -c ' apply ' kubectl.calls)" 3 "applies"
}

# The operator's Events for the FlinkDeployment, oldest first: each
# argument REASON:TYPE, a minute apart.
events() {
	local i=0 a
	for a in "$@"; do
		jq -n --arg r "${a%%:*}" --arg t "${a#*:}" --arg at "2026-12-02T10:0$i:00Z" '{
		    type: $t, reason: $r, message: ("the operator: " + $r), lastTimestamp: $at,
		    involvedObject: {kind: "FlinkDeployment", name: "commerce-orders-landed"}}'
		i=$((i + 1))
	done | jq -s '{kind: "EventList", items: .}' >events.json
}

@test "apply: the operator failing a savepoint for a change it has not taken (a SavepointError since it last took a spec, status.error cleared) blocks another change" {
	allow_landed
	plan amend
	# 1.13 clears status.error each time it observes the job healthy,
	# before it tries the savepoint again: its Events keep saying why.
	fake_live_with_error suspended "" 2
	local evs
	# As the Kubernetes lane's operator writes them, each attempt a
	# Normal Suspended and then the Warning: between the two, as well.
	for evs in "SpecChanged:Normal SavepointError:Warning" \
	    "SpecChanged:Normal SavepointError:Warning Suspended:Normal"; do
		rm -f kubectl.calls
		events $evs
		tool apply --mode amend --yes --wait 0 p.json
		assert_status 1
		assert_no_stdout
		assert_equal "$stderr" "p.json: error: build 'land-orders': FlinkDeployment data-products/commerce-orders-landed: the operator reports a failed savepoint (its event SavepointError since it last took a spec: the operator: SavepointError) and has not taken the last change: fluid changes no job whose state could be lost; resolve it with the operator first" "stderr ($evs)"
		[ "$(grep -c ' apply ' kubectl.calls)" = 0 ] || fail "kubectl apply was called ($evs)" "$(cat kubectl.calls)"
		assert_match "$(cat kubectl.calls)" "get --raw=/api/v1/namespaces/data-products/events\?fieldSelector=involvedObject.kind%3DFlinkDeployment%2CinvolvedObject.name%3Dcommerce-orders-landed"
	done
	# Its reconciliationTimestamp in the second of the SavepointError
	# (10:01): it still counts.
	rm -f kubectl.calls
	export FAKE_RECONCILED_MS=$(( $(date -u -d 2026-12-02T10:01:00Z +%s) * 1000 + 500 ))
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 1
}

@test "apply: while a change is pending, Events that give no list (Forbidden, over the bound, not JSON, no items, none) refuse the apply: the guard fails closed" {
	allow_landed
	plan amend
	fake_live_with_error suspended "" 2
	local how
	for how in forbidden big notjson noitems missing; do
		rm -f kubectl.calls events.*
		case $how in
		forbidden) echo 'Error from server (Forbidden): events is forbidden: User "ci" cannot list resource "events" in API group "" in the namespace "data-products"' >events.err ;;
		big) echo $((5 << 20)) >events.big ;;
		notjson) echo 'this is not JSON' >events.json ;;
		noitems) echo '{"kind": "Status", "items": {}}' >events.json ;;
		esac
		tool apply --mode amend --yes --wait 0 p.json
		assert_status 1
		assert_no_stdout
		assert_match "$stderr" "^p.json: error: build 'land-orders': FlinkDeployment data-products/commerce-orders-landed: the operator has not taken the last change and its Events cannot be read: cannot tell whether the last savepoint failed: .*: fluid changes no job whose state could be lost"
		[ "$(grep -c ' apply ' kubectl.calls)" = 0 ] || fail "kubectl apply was called ($how)" "$(cat kubectl.calls)"
		[ ! -e events.done ] || fail "the answer past the bound was read whole"
	done
	# What each said.
	echo 'Error from server (Forbidden): events is forbidden' >events.err
	tool apply --mode amend --yes --wait 0 p.json
	assert_match "$stderr" "cannot tell whether the last savepoint failed: Error from server \(Forbidden\): events is forbidden: "
	rm events.err
	echo $((5 << 20)) >events.big
	tool apply --mode amend --yes --wait 0 p.json
	assert_match "$stderr" "cannot tell whether the last savepoint failed: .*the answer is larger than 4194304 bytes"
	# An EventList with no SavepointError lets it through.
	rm -f events.big kubectl.calls
	events SpecChanged:Normal
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	assert_equal "$(grep -c ' apply ' kubectl.calls)" 3 "applies"
}

@test "apply: a SavepointError before the operator last took a spec, or while it has taken the last change, does not block a change" {
	allow_landed
	plan amend
	fake_live_with_error suspended "" 2
	# Resolved since: the operator took a spec after it (10:01).
	events SpecChanged:Normal SavepointError:Warning Suspended:Normal
	export FAKE_RECONCILED_MS=$(( $(date -u -d 2026-12-02T10:02:00Z +%s) * 1000 ))
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	assert_equal "$(grep -c ' apply ' kubectl.calls)" 3 "applies"
	# The operator took the last change: its Events are not read.
	rm -f kubectl.calls
	unset FAKE_RECONCILED_MS
	export FAKE_OBSERVED=3
	events SpecChanged:Normal SavepointError:Warning
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 0
	assert_equal "$(grep -c ' apply ' kubectl.calls)" 3 "applies"
	[ "$(grep -c 'get --raw' kubectl.calls)" = 0 ] || fail "the events were read" "$(cat kubectl.calls)"
}

@test "apply CONTRACT: says a plan is expected and how to make one, not only JSON's error" {
	tool apply --mode amend --yes "$LANDED"
	assert_status 2
	assert_stderr_line "^fluid: '$LANDED' is not a plan \([0-9]+:[0-9]+: .*\): apply reads the output of fluid plan or fluid-k8s plan, not a contract: make one with 'fluid plan --mode MODE CONTRACT > plan\.json'\$"
	kubectl_not_called
}

@test "apply --wait: on a terminal a progress line per re-read; off a terminal nothing more" {
	allow_landed
	plan amend
	fake_cluster 1
	# A terminal: script(1) gives apply a pty.
	run script -qec "\"$BIN/fluid\" apply --mode amend --yes --wait 3 p.json" /dev/null
	assert_status 0
	[[ $output == *"waiting for the operator to take 1 FlinkDeployment ("*"s left of --wait 3)"* ]] ||
	    fail "no progress line on a terminal" "$output"
	# Off a terminal: the result and the warning only.
	rm -f fd.written kubectl.calls
	fake_cluster 1
	tool apply --mode amend --yes --wait 3 p.json
	assert_status 0
	[[ $stderr != *waiting* && $output != *waiting* ]] ||
	    fail "progress off a terminal" "$(show)"
	assert_match "$stderr" "has not taken generation 2 within 3 s"
}
@test "apply: a plan's bundle past a contract's limit (nodes, one string, one key, every string and key) is refused before it is rendered, one diagnostic naming the limit" {
	allow_landed
	plan dry-run
	local edit want
	while IFS='|' read -r edit want; do
		replan p.json edited.json "$edit"
		tool apply --mode dry-run edited.json
		assert_status 1
		assert_no_stdout
		assert_equal "$stderr" "edited.json: error: the plan's bundle is past a limit of a contract ($want): fluid validate would refuse it; not rendered" "stderr ($want)"
	done <<'EOF2'
doc["x-pad"] = [0] * 4000001|it has more than 4000000 nodes
doc["description"] = "x" * ((1 << 20) + 1)|a string is longer than 1048576 bytes
doc["k" * 4097] = 1|a mapping key is longer than 4096 bytes
doc["x-pad"] = ["x" * (1 << 20)] * 64 + ["y"]|it holds more than 64 MiB of strings and keys
EOF2
	kubectl_not_called
	# At the limits of one key and one string, not past them: applied.
	replan p.json edited.json 'doc["k" * 4096] = "x" * (1 << 20)'
	tool apply --mode dry-run edited.json
	assert_status 0
	assert_no_stderr
}

@test "apply: a plan is read with a pipeline document's bound: past 512 MiB it is refused unread, exit 2" {
	# Valid JSON past the bound, on standard input (no file of 512 MiB):
	# read whole, it would parse.
	run --separate-stderr bash -c '{ printf "{\"fluidPlan\": 1, \"pad\": \""
	    head -c $((512 << 20)) /dev/zero | tr "\\0" x; printf "\"}"; } |
	    "$1" apply --mode dry-run' _ "$BIN/fluid-k8s"
	assert_status 2
	assert_equal "$stderr" "fluid-k8s: '<stdin>' is larger than 536870912 bytes, the limit of a pipeline document and of a plan: not read" "stderr"
	kubectl_not_called
}
