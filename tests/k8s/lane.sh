#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/k8s/lane.sh - the Kubernetes lane's cluster and checks.
# tests/k8s/run starts it as PID 1 of new network, PID and mount namespaces
# (unshare --net --pid --fork --kill-child --mount-proc): the interfaces are
# the loopback and the lane's bridge (made here), so the cluster is
# reachable from nothing else, and when this script ends every process it
# started ends with it.  It still stops them in order (trap), so that their
# logs are complete.  The process kubelet bind-mounts its hosts file over
# /etc/hosts in this mount namespace only (Service names for the operator).
#
# Needs K8S_HERE, K8S_RUN, K8S_BIN, K8S_OPERATOR (set by tests/k8s/run).  Runs
# every check named in $K8S_RUN/plan.txt, each in its own process
# (lib/runcheck.sh) bounded by K8S_CHECK_TIMEOUT_S, and writes
# $K8S_RUN/results.tsv: name, ok|failed, seconds, why.
set -uo pipefail
: "${K8S_HERE:?}" "${K8S_RUN:?}" "${K8S_BIN:?}" "${K8S_OPERATOR:?}"
T0=${K8S_T0:-$(date +%s)}
phase() {
	echo "k8s: [$(( $(date +%s) - T0 )) s] $*"
	printf '%s\t%s\n' "$(date +%s)" "$*" >>"$K8S_RUN/phases.tsv"
}
why() { echo "$*" >"$K8S_RUN/lane.why"; }

ip link set lo up || { why "cannot bring up the loopback"; exit 1; }
# Its own UTS namespace: the process kubelet's /etc/hosts (bind-mounted here)
# knows localhost, not the machine's name, which a MiniCluster resolves.
hostname localhost || { why "cannot set the lane's hostname"; exit 1; }
# Nothing of the lane writes to the caller's home (~/.kube/cache included).
export HOME=$K8S_RUN/home
mkdir -p "$HOME"

# shellcheck source=lib/cluster.sh
. "$K8S_HERE/lib/cluster.sh"

CHECK_PID=
finish() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$CHECK_PID" ] && kill -0 "$CHECK_PID" 2>/dev/null; then
		kill -TERM "$CHECK_PID" 2>/dev/null
		wait "$CHECK_PID" 2>/dev/null
	fi
	phase "stopping the operator, the cluster and etcd"
	svc_stop_all
	exit "$rc"
}
trap finish EXIT
trap 'why "interrupted"; exit 130' INT TERM

make_bridge || { why "cannot make the lane's bridge $LANE_BRIDGE"; exit 1; }
phase "keys and certificates"
make_pki || { why "openssl failed (logs/pki.log)"; exit 1; }
phase "starting etcd and kube-apiserver"
start_etcd || { why "etcd did not start (logs/etcd.log)"; exit 1; }
start_apiserver || { why "kube-apiserver did not start (logs/kube-apiserver.log)"; exit 1; }
make_kubeconfig || { why "kubectl config failed"; exit 1; }
phase "installing the operator's CRDs (kubectl apply --server-side)"
install_crd || { why "the FlinkDeployment CRD was not established (logs/crd-apply.log)"; exit 1; }
phase "starting kube-controller-manager and kube-scheduler"
start_controllers || { why "the controller manager or the scheduler did not start (logs/kube-controller-manager.log, logs/kube-scheduler.log)"; exit 1; }
phase "starting the process kubelet (STANDS IN FOR THE KUBELET AND THE CONTAINER RUNTIME)"
start_kubelet || { why "the process kubelet did not get ready (logs/kubelet.log)"; exit 1; }
# The operator watches the namespaces of the checks that run on it: a line
# "# operator check_NAME" in their file (the others write status themselves).
OPERATOR_WATCHED=$(sed -n 's/^# operator \(check_[A-Za-z0-9_]*\)$/\1/p' "$K8S_HERE"/checks/*.sh |
	sed 's/^check_//; s/_/-/g' | cut -c1-50 | paste -sd, -)
export OPERATOR_WATCHED=${OPERATOR_WATCHED:-flink-operator}
phase "starting the Flink Kubernetes operator (watching $OPERATOR_WATCHED)"
start_operator || { why "the operator's health probe did not answer (logs/operator.log)"; exit 1; }

export K8S_CONTEXT KUBECONFIG_FILE
: >"$K8S_RUN/results.tsv"
phase "checks ($(grep -c . "$K8S_RUN/plan.txt"))"
while IFS= read -r check; do
	[ -n "$check" ] || continue
	t=$(now_s)
	# A check may name a longer limit of its own: "# timeout-s CHECK N".
	limit=$(sed -n "s/^# timeout-s $check \([0-9][0-9]*\)\$/\1/p" "$K8S_HERE"/checks/*.sh | head -n 1)
	limit=${limit:-${K8S_CHECK_TIMEOUT_S:-180}}
	# In the background, so that a TERM reaches the trap at once.
	timeout -k 5 "$limit" bash "$K8S_HERE/lib/runcheck.sh" "$check" \
		>"$LOGS/check-$check.log" 2>&1 &
	CHECK_PID=$!
	wait "$CHECK_PID"
	rc=$?
	CHECK_PID=
	secs=$(elapsed "$t")
	if [ "$rc" -eq 0 ]; then
		printf '%s\tok\t%s\t\n' "$check" "$secs" >>"$K8S_RUN/results.tsv"
		echo "k8s: ok      $check ($secs s)"
	else
		reason=$(tr '\n\t' '  ' <"$K8S_RUN/checks/$check/why" 2>/dev/null)
		[ "$rc" -eq 124 ] && reason="timed out after $limit s; $reason"
		printf '%s\tfailed\t%s\t%s\n' "$check" "$secs" "${reason:-exit $rc (logs/check-$check.log)}" \
			>>"$K8S_RUN/results.tsv"
		echo "k8s: FAILED  $check ($secs s)"
	fi
done <"$K8S_RUN/plan.txt"
exit 0
