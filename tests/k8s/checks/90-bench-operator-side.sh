# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/90-bench-operator-side.sh - fluid apply, diff
# --exit-on-drift and verify --streaming-timeout 0 of a 1-build and a
# 20-build contract on the lane's API server, through tests/bench/k8s-apply:
# each command exits as it should and starts as many kubectl processes for
# 20 builds as for 1 (a read per kind, an apply per kind), with kubectl's
# real answers (a List for several names, --ignore-not-found, an applied
# List).  One round by default; K8S_BENCH=1 makes it the bench
# (K8S_BENCH_ROUNDS rounds, default 7), its table in
# $K8S_BENCH_OUT (default $CHECK_DIR/results.md) and the check's log.  No
# operator watches the check's namespace: nothing runs the jobs.

# timeout-s check_bench_operator_side 900

check_bench_operator_side() {
	local rounds=1 out=$CHECK_DIR/results.md
	if [ "${K8S_BENCH:-}" = 1 ]; then
		rounds=${K8S_BENCH_ROUNDS:-7}
		out=${K8S_BENCH_OUT:-$out}
	fi
	try env KUBECONFIG="$KUBECONFIG_FILE" K8S_BENCH_CONTEXT="$K8S_CONTEXT" \
		K8S_BENCH_NS="$CHECK_NS" KUBECTL_REAL="$K8S_BIN/kubectl" \
		"$K8S_HERE/../bench/k8s-apply" --rounds "$rounds" --out "$out" ||
		{ fail "tests/bench/k8s-apply: exit $?: $(head -c 800 "$ERR")"; return 1; }
	sed 's/^/k8s:     /' "$out"
}
