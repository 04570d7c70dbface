#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-scale.bats - a deployment's sizing (fluid-check(1), SCALING):
# parallelism, maxParallelism, the TaskManagers, the JobManager and the
# operator's autoscaler, rendered into the FlinkDeployment and into the
# CFK INSERT statement; the defaults render as if spelled out.  The
# refusals of bad values are tests/bad/450-462.

load helpers

setup() {
	TOOL=fluid-k8s
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	cp -R "$EXAMPLES/cfk" cfk
	LANDED=shapes/landed/orders-landed.fluid.yaml
	CFK=cfk/orders-cfk.fluid.yaml
}

teardown() { fluid_teardown; }

# size CONTRACT LINES...: add LINES to CONTRACT's deployment, after its
# context key (at 12 spaces in both examples).
size() {
	local f=$1 line
	shift
	grep -q '^            context: development$' "$f" || fail "no deployment context in $f" ""
	for line in "$@"; do
		awk -v add="            $line" '{ print }
		    /^            context: development$/ { print add }' "$f" >"$f.new" &&
		    mv "$f.new" "$f"
	done
}

# render CONTRACT: the rendered resources (a List) in $output.
render() {
	"$BIN/fluid-resolve" "$1" | "$BIN/fluid-check" | "$BIN/fluid-sqlgen" >in.json ||
	    fail "check of $1 failed" "$(cat in.json)"
	tool render --resources <in.json
	assert_status 0
}

fd() { jq -c '.items[] | select(.kind == "FlinkDeployment")' <<<"$output"; }

@test "scale: the sizing fields become spec.job.parallelism, the pods' resources, the slots, the key groups and the autoscaler's keys" {
	size "$LANDED" "parallelism: 4" "maxParallelism: 256" \
	    "taskManager: {slots: 2, memory: 4096m, cpu: 2}" \
	    "jobManager: {memory: 3g, cpu: 0.5}" \
	    "autoscaler: {enabled: true, minParallelism: 2, maxParallelism: 16, targetUtilization: 0.6}"
	render "$LANDED"
	local f
	f=$(fd)
	t() { jq -e "$1" <<<"$f" >/dev/null || fail "not true of the FlinkDeployment: $1" "$f"; }
	t '.spec.job.parallelism == 4'
	t '.spec.taskManager.resource == {"memory": "4096m", "cpu": 2}'
	t '.spec.jobManager.resource == {"memory": "3g", "cpu": 0.5}'
	t '.spec.flinkConfiguration["taskmanager.numberOfTaskSlots"] == "2"'
	t '.spec.flinkConfiguration["pipeline.max-parallelism"] == "256"'
	# AutoScalerOptions' current names (operator 1.13), not the
	# deprecated target.utilization or the kubernetes.operator. fallbacks.
	t '.spec.flinkConfiguration | with_entries(select(.key | startswith("job.autoscaler."))) ==
	    {"job.autoscaler.enabled": "true", "job.autoscaler.vertex.min-parallelism": "2",
	     "job.autoscaler.vertex.max-parallelism": "16", "job.autoscaler.utilization.target": "0.6"}'
	t '.spec.flinkConfiguration | keys | map(select(startswith("kubernetes.operator."))) == []'
	# Wider than one subtask, a reader may get no Kafka partition and
	# would hold back the watermark for good (scale.h).
	t '.spec.flinkConfiguration["table.exec.source.idle-timeout"] == "5 min"'
	# The operator's rule 1 would override the job's parallelism.
	t '.spec.taskManager | has("replicas") | not'
}

@test "scale: the autoscaler block's defaults are the operator's minimum, the key groups and 0.7; disabled is written false" {
	size "$LANDED" "parallelism: 2" "autoscaler: {enabled: false}"
	render "$LANDED"
	jq -e '.spec.flinkConfiguration | with_entries(select(.key | startswith("job.autoscaler."))) ==
	    {"job.autoscaler.enabled": "false", "job.autoscaler.vertex.min-parallelism": "1",
	     "job.autoscaler.vertex.max-parallelism": "128", "job.autoscaler.utilization.target": "0.7"}' \
	    <<<"$(fd)" >/dev/null || fail "autoscaler keys" "$(fd)"
}

@test "scale: the defaults spelled out render the same bytes as none" {
	render "$LANDED"
	local plain=$output
	size "$LANDED" "parallelism: 1" "maxParallelism: 128" \
	    "taskManager: {slots: 1, memory: 2048m, cpu: 1}" "jobManager: {memory: 2048m, cpu: 1}"
	render "$LANDED"
	# The bundle digest annotation differs (the contract's bytes do):
	# compare everything else.
	assert_equal "$(jq -S 'del(.items[].metadata.annotations)' <<<"$output")" \
	    "$(jq -S 'del(.items[].metadata.annotations)' <<<"$plain")"
}

@test "scale: fluid-k8s render refuses a check section whose parallelism fluid-check would refuse (the IR is not trusted)" {
	"$BIN/fluid-resolve" "$LANDED" | "$BIN/fluid-check" | "$BIN/fluid-sqlgen" >in.json
	jq '(.check.builds[0].deployment.parallelism) = 0' in.json >bad.json
	jq -e '.check.builds[0].deployment.parallelism == 0' bad.json >/dev/null ||
	    fail "the check section is not where the test edits it" "$(jq -c .check bad.json | head -c 400)"
	tool render --resources <bad.json
	assert_status 1
	assert_match "$stderr" "deployment.parallelism is not a value fluid-check accepts"
}

@test "scale: CFK's INSERT statement carries the parallelism and the pinned key groups" {
	size "$CFK" "parallelism: 3" "maxParallelism: 720"
	render "$CFK"
	jq -e '[.items[] | select(.kind == "FlinkStatement")] |
	    (.[2].metadata.annotations["fluid.dev/statement-role"] == "insert") and
	    (.[2].spec.parallelism == 3) and
	    (.[2].spec.flinkConfiguration["pipeline.max-parallelism"] == "720") and
	    (.[2].spec.flinkConfiguration["table.exec.source.idle-timeout"] == "5 min") and
	    ([.[0,1].spec | has("parallelism")] == [false, false])' <<<"$output" >/dev/null ||
	    fail "CFK statements" "$output"
}

@test "scale: CFK refuses the operator target's taskManager, jobManager and autoscaler, saying where its pool's resources go" {
	size "$CFK" "taskManager: {slots: 2}" "autoscaler: {enabled: true}"
	run --separate-stderr "$BIN/fluid" validate "$CFK"
	assert_status 1
	assert_match "$stderr" "deployment.taskManager: is a field of management: operator .*set computePool.jobManager and computePool.taskManager"
	assert_match "$stderr" "deployment.autoscaler: is a field of management: operator .*CMF runs no operator autoscaler"
}

@test "scale: a sized FlinkDeployment is valid against the operator's CRD (tests/k8s-schema's cached copy)" {
	local crd=$TOP/tests/k8s-schema/cache/flinkdeployments.flink.apache.org-v1.yml py=python3
	[ -f "$crd" ] || skip "no cached CRD: run make check-k8s-schema once"
	[ -x "$TOP/tests/k8s-schema/cache/venv/bin/python3" ] && py=$TOP/tests/k8s-schema/cache/venv/bin/python3
	"$py" -c 'import yaml, jsonschema' 2>/dev/null || skip "no python3 with PyYAML and jsonschema"
	size "$LANDED" "parallelism: 6" "maxParallelism: 720" \
	    "taskManager: {slots: 3, memory: 8g, cpu: 1.5}" "jobManager: {memory: 1024m, cpu: 0.25}" \
	    "autoscaler: {enabled: true, maxParallelism: 24}"
	render "$LANDED"
	printf '%s\n' "$output" >sized.json
	run --separate-stderr "$py" "$TOP/tests/k8s-schema/validate.py" "$crd" sized.json
	assert_status 0
	assert_match "$output" "1 FlinkDeployment\\(s\\) checked, 0 problem\\(s\\)"
}

@test "scale: fluid diff: a maxParallelism change is breaking, a rescale and new resources are for review, spelled-out defaults are none" {
	local d=shapes/landed
	cp "$LANDED" $d/old.yaml
	cp "$LANDED" $d/same.yaml
	size $d/same.yaml "parallelism: 1" "maxParallelism: 128" "taskManager: {slots: 1, memory: 2048m, cpu: 1}"
	run --separate-stderr "$BIN/fluid" diff --exit-on-breaking --baseline $d/old.yaml $d/same.yaml
	assert_status 0
	assert_jq '.changes == []'
	cp "$LANDED" $d/wide.yaml
	size $d/wide.yaml "parallelism: 3" "taskManager: {slots: 3}" "autoscaler: {enabled: true}"
	run --separate-stderr "$BIN/fluid" diff --exit-on-breaking --baseline $d/old.yaml $d/wide.yaml
	assert_status 0
	assert_jq '[.changes[] | [.severity, .change, .old.value, .new.value]] == [
	    ["non-breaking", "parallelism", 1, 3],
	    ["non-breaking", "taskManager", {"memory": "2048m", "cpu": 1, "slots": 1}, {"memory": "2048m", "cpu": 1, "slots": 3}],
	    ["non-breaking", "autoscaler", null, {"enabled": true, "minParallelism": 1, "maxParallelism": 128, "targetUtilization": 0.7}]]'
	assert_jq '.changes[0].new.path == "properties.parameters.flink.deployment.parallelism"'
	cp "$LANDED" $d/keys.yaml
	size $d/keys.yaml "maxParallelism: 720"
	run --separate-stderr "$BIN/fluid" diff --exit-on-breaking --baseline $d/old.yaml $d/keys.yaml
	assert_status 1
	assert_jq '[.changes[] | [.severity, .change, .old.value, .new.value]] == [["breaking", "maxParallelism", 128, 720]]'
	assert_jq '.changes[0].reason | test("cannot be restored")'
}

# live_fd PLAN JQ: the plan's FlinkDeployment, edited by JQ, as the
# live object the fake kubectl answers.
live_fd() {
	mkdir -p fake
	jq '.resources[] | .resource | select(.kind == "FlinkDeployment") | '"$2" "$1" \
	    >fake/flinkdeployment-commerce-orders-landed.json
}

@test "scale: fluid apply refuses a live deployment's maxParallelism change, and takes one left out by an older fluid at the 128 Flink derived" {
	load fake-kubectl
	TOOL=fluid
	allow_landed
	export FAKE_CALLS=$TMP/calls
	fake_kubectl objects
	"$BIN/fluid" plan --mode amend --out old.json "$LANDED" >/dev/null
	size "$LANDED" "maxParallelism: 256"
	"$BIN/fluid" plan --mode amend --out p.json "$LANDED" >/dev/null
	live_fd old.json .
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 1
	assert_match "$stderr" "FlinkDeployment data-products/commerce-orders-landed: pipeline.max-parallelism changes \\(128 -> 256\\): the job's keyed state is stored by key group and cannot be restored with another number; keep deployment.maxParallelism at 128, or start a new deployment under another deployment.name"
	! grep -q ' apply ' calls || fail "applied" "$(cat calls)"
	# A FlinkDeployment an older fluid wrote: no key, parallelism 1, so
	# Flink derived 128; the plan's 128 is no change, its 256 is one.
	live_fd old.json 'del(.spec.flinkConfiguration["pipeline.max-parallelism"])'
	tool apply --mode amend --yes --wait 0 p.json
	assert_status 1
	assert_match "$stderr" "changes \\(128 -> 256\\)"
	tool apply --mode amend --yes --wait 0 old.json
	[[ $stderr != *"max-parallelism"* ]] || fail "refused the derived 128" "$stderr"
	# What the cluster says is untrusted: a key that is no number is
	# refused, fail closed; a parallelism past any bound derives 32768.
	live_fd old.json '.spec.flinkConfiguration["pipeline.max-parallelism"] = "lots"'
	tool apply --mode amend --yes --wait 0 old.json
	assert_status 1
	assert_match "$stderr" "FlinkDeployment data-products/commerce-orders-landed: its pipeline.max-parallelism is not a positive number: fluid cannot tell whether the job's keyed state restores with 128 key groups"
	live_fd old.json 'del(.spec.flinkConfiguration["pipeline.max-parallelism"]) | .spec.job.parallelism = "BIG"'
	# jq would write 7e+18, a real; the API server writes an integer.
	sed -i 's/"BIG"/7000000000000000000/' fake/flinkdeployment-commerce-orders-landed.json
	tool apply --mode amend --yes --wait 0 old.json
	assert_status 1
	assert_match "$stderr" "changes \\(32768 -> 128\\)"
	# No deployment live: a new one takes any number.
	rm fake/flinkdeployment-commerce-orders-landed.json
	tool apply --mode amend --yes --wait 0 p.json
	[[ $stderr != *"max-parallelism"* ]] || fail "refused a new deployment" "$stderr"
}

@test "scale: the source idle timeout is written only for a job that may run wider than one subtask" {
	local d=shapes/landed
	cp "$LANDED" $d/one.yaml
	size $d/one.yaml "autoscaler: {enabled: true, maxParallelism: 1}"
	render $d/one.yaml
	jq -e '.spec.flinkConfiguration | has("table.exec.source.idle-timeout") | not' <<<"$(fd)" >/dev/null ||
	    fail "idle timeout at parallelism 1" "$(fd)"
	cp "$LANDED" $d/auto.yaml
	size $d/auto.yaml "autoscaler: {enabled: true, maxParallelism: 4}"
	render $d/auto.yaml
	jq -e '.spec.job.parallelism == 1 and .spec.flinkConfiguration["table.exec.source.idle-timeout"] == "5 min"' <<<"$(fd)" >/dev/null ||
	    fail "no idle timeout for an autoscaler that may widen the job" "$(fd)"
}
