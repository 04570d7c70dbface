#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/k8s/kubelet/stop.sh - stop the process kubelet that start.sh
# started, the lane's stand-in for the kubelet and the container runtime:
#
#   stop.sh --state-dir DIR
#
# TERM (it stops its Pods' processes, TERM then KILL after 10 s, removes
# their sandboxes and marks its Node NotReady), then KILL after
# K8S_KUBELET_STOP_S (default 30 s).  Exits 0 when it is gone (or was not
# running), 2 on a usage error.
set -uo pipefail
[ $# -eq 2 ] && [ "$1" = --state-dir ] || { echo "usage: stop.sh --state-dir DIR" >&2; exit 2; }
pid=$(cat "$2/pid" 2>/dev/null) || exit 0
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || exit 0
kill -TERM "$pid"
deadline=$(( $(date +%s) + ${K8S_KUBELET_STOP_S:-30} ))
while kill -0 "$pid" 2>/dev/null; do
	if [ "$(date +%s)" -ge "$deadline" ]; then
		echo "stop.sh: the process kubelet (pid $pid) did not stop; killing it" >&2
		kill -KILL "$pid" 2>/dev/null
		break
	fi
	sleep 0.2
done
rm -f "$2/pid" "$2/ready"
