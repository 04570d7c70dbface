# tests/k8s/lib/stand-in-operator.sh - STANDS IN FOR THE FLINK KUBERNETES
# OPERATOR in the end-to-end check (checks/40-e2e.sh).  The operator is not
# published on Maven Central and no kubelet runs pods here, so this does,
# from the API server's objects, the part of the operator's work that
# fluid verify judges:
#
#   stand_in_operator_job NAME DIR      read FlinkDeployment NAME and the
#       ConfigMap its pod template mounts, from the API server, and write
#       the job's files (spec.job.args, by their base names) under DIR/usrlib
#       and DIR/job.args: what the runner's container would be given (a
#       leading "--env-allow VARS" pair, which fluid renders when the
#       contract binds variables, is no file: its VARS go to
#       DIR/job.env-allow instead);
#   stand_in_operator_expose NAME IP    the JobManager's rest service as the
#       operator's native mode names it (NAME-rest, port "rest" 8081),
#       backed by a bare Pod whose status.podIP is IP (an address of the
#       lane's own network namespace; the relay there carries it to the
#       MiniCluster) and an Endpoints object with a targetRef to that Pod,
#       which the API server's service proxy requires;
#   stand_in_operator_report NAME JOB [JQ]  the status the operator writes
#       once the job runs: lifecycleState STABLE, jobStatus RUNNING with the
#       job's id, and reconciliationStatus.lastReconciledSpec, the live spec
#       as the operator serialises it ({"spec": ..., "resource_metadata":
#       ...}), edited by JQ (on .spec) to stand for an operator that
#       reconciled something else.
#
# The job itself runs with the product's runner on the live lane's Flink
# MiniCluster (tests/live/harness), started by the check.  Sourced after
# cluster.sh and checklib.sh (kc, stand_in_operator_status, CHECK_NS).

stand_in_operator_job() {
	local name=$1 dir=$2 fd cm arg base
	fd=$(kc -n "$CHECK_NS" get flinkdeployment "$name" -o json) ||
		{ fail "stand-in operator: cannot read FlinkDeployment $name"; return 1; }
	# The ConfigMap the pod template mounts (fluid's SQL volume).
	cm=$(jq -r '[.spec.podTemplate.spec.volumes[]? | .configMap.name // empty][0] // empty' <<<"$fd")
	[ -n "$cm" ] || { fail "stand-in operator: FlinkDeployment $name mounts no ConfigMap"; return 1; }
	kc -n "$CHECK_NS" get configmap "$cm" -o json >"$dir/configmap.json" ||
		{ fail "stand-in operator: cannot read ConfigMap $cm"; return 1; }
	mkdir -p "$dir/usrlib"
	: >"$dir/job.args"
	: >"$dir/job.env-allow"
	local -a args
	mapfile -t args < <(jq -r '.spec.job.args[]' <<<"$fd")
	if [ "${args[0]:-}" = --env-allow ]; then
		[ "${#args[@]}" -ge 2 ] || { fail "stand-in operator: --env-allow without its value in spec.job.args"; return 1; }
		printf '%s\n' "${args[1]}" >"$dir/job.env-allow"
		args=("${args[@]:2}")
	fi
	for arg in "${args[@]}"; do
		base=${arg##*/}
		jq -e -r --arg k "$base" '.data[$k] // error("no key \($k)")' "$dir/configmap.json" >"$dir/usrlib/$base" ||
			{ fail "stand-in operator: ConfigMap $cm has no $base (spec.job.args: $arg)"; return 1; }
		echo "$dir/usrlib/$base" >>"$dir/job.args"
	done
	echo "k8s:     stand-in operator: FlinkDeployment $name, ConfigMap $cm: $(tr '\n' ' ' <"$dir/job.args")"
}

stand_in_operator_expose() {
	local name=$1 ip=$2 pod=$1-jobmanager-stand-in
	kc -n "$CHECK_NS" get serviceaccount default >/dev/null 2>&1 ||
		kc -n "$CHECK_NS" create serviceaccount default >/dev/null || return
	kc -n "$CHECK_NS" apply -f - >/dev/null <<YAML || return
apiVersion: v1
kind: Pod
metadata:
  name: $pod
  labels: {app: $name, component: jobmanager, fluid.dev/stand-in: operator}
spec:
  containers:
  - name: flink-main-container
    image: stand-in.invalid/not-run
    ports: [{name: rest, containerPort: 8081}]
---
apiVersion: v1
kind: Service
metadata:
  name: $name-rest
  labels: {app: $name, fluid.dev/stand-in: operator}
spec:
  ports: [{name: rest, port: 8081, targetPort: 8081}]
YAML
	kc -n "$CHECK_NS" patch pod "$pod" --subresource=status --type=merge \
		-p "{\"status\":{\"podIP\":\"$ip\",\"podIPs\":[{\"ip\":\"$ip\"}]}}" >/dev/null || return
	kc -n "$CHECK_NS" apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Endpoints
metadata:
  name: $name-rest
  labels: {fluid.dev/stand-in: operator}
subsets:
- addresses: [{ip: "$ip", targetRef: {kind: Pod, name: $pod, namespace: $CHECK_NS}}]
  ports: [{name: rest, port: 8081}]
YAML
}

stand_in_operator_report() {
	local name=$1 job=$2 spec
	spec=$(kc -n "$CHECK_NS" get flinkdeployment "$name" -o json | jq -c "{spec: (.spec | ${3:-.}),
		resource_metadata: {apiVersion: \"flink.apache.org/v1beta1\", metadata: {generation: .metadata.generation}, firstDeployment: true}}") ||
		{ fail "stand-in operator: read the live spec"; return 1; }
	must "stand-in operator: the status of $name" stand_in_operator_status "flinkdeployment/$name" "$(jq -cn \
		--arg job "$job" --arg spec "$spec" '{
		lifecycleState: "STABLE",
		jobManagerDeploymentStatus: "READY",
		jobStatus: {state: "RUNNING", jobId: $job, jobName: "stand-in"},
		reconciliationStatus: {state: "DEPLOYED", lastReconciledSpec: $spec}}')"
}
