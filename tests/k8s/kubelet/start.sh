#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/k8s/kubelet/start.sh - start the process kubelet, the Kubernetes
# lane's STAND-IN FOR THE KUBELET AND THE CONTAINER RUNTIME (never for the
# operator): it registers a Ready Node and runs the Pods bound to it as
# local processes in per-Pod network, mount and UTS namespaces.  README.md
# in this directory says what it does and does not do.
#
#   start.sh --kubeconfig FILE --context NAME --kubectl PATH --node NAME \
#            --pod-cidr CIDR --bridge NAME --image-dir DIR --log-dir DIR \
#            --state-dir DIR [--api-addr HOST:PORT] [--cpu N] [--memory Q] \
#            [--bind-etc-hosts MACHINE_MNTNS_INODE] [--foreground]
#
# Root, inside the lane's network namespace, where the bridge already has
# an address in CIDR.  Background (default): starts it with its log in
# LOG_DIR/process-kubelet.log and its pid in STATE_DIR/pid, waits (at most
# K8S_KUBELET_START_S, default 60 s) until the Node is registered Ready
# and untainted, and prints the pid; exits 1 if it did not get there (the
# log's tail on stderr), 2 on a usage error.  --foreground: runs it in
# this process (exec), for a supervisor such as the lane's svc_start.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '8,12p' "$0" | sed 's/^# //' >&2; exit 2; }

fg=0 state= logd= args=()
while [ $# -gt 0 ]; do
	case $1 in
	--foreground) fg=1; shift ;;
	--state-dir) [ $# -ge 2 ] || usage; state=$2; args+=("$1" "$2"); shift 2 ;;
	--log-dir) [ $# -ge 2 ] || usage; logd=$2; args+=("$1" "$2"); shift 2 ;;
	--kubeconfig|--context|--kubectl|--node|--pod-cidr|--bridge|--image-dir|--api-addr|--cpu|--memory|--bind-etc-hosts)
		[ $# -ge 2 ] || usage; args+=("$1" "$2"); shift 2 ;;
	*) echo "start.sh: unknown argument: $1" >&2; usage ;;
	esac
done
[ -n "$state" ] && [ -n "$logd" ] || usage
mkdir -p "$state" "$logd" || exit 2
rm -f "$state/ready" "$state/pid"

if [ "$fg" = 1 ]; then
	echo $$ >"$state/pid"
	exec python3 "$HERE/stand_in_kubelet.py" "${args[@]}"
fi
python3 "$HERE/stand_in_kubelet.py" "${args[@]}" >>"$logd/process-kubelet.log" 2>&1 &
pid=$!
echo "$pid" >"$state/pid"
deadline=$(( $(date +%s) + ${K8S_KUBELET_START_S:-60} ))
while [ ! -s "$state/ready" ]; do
	if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
		echo "start.sh: the process kubelet (stand-in for the kubelet) did not get ready:" >&2
		tail -n 20 "$logd/process-kubelet.log" >&2
		kill -TERM "$pid" 2>/dev/null
		exit 1
	fi
	sleep 0.2
done
echo "$pid"
