# SPDX-License-Identifier: Apache-2.0
# tests/live/lib/procs.sh - start, probe and stop background processes: the
# one copy of this code for both lanes.  Sourced by tests/live/lib/services.sh
# (the live lane's services) and tests/k8s/lib/cluster.sh (the Kubernetes
# lane's cluster).  Needs LOGS (where NAME.log goes) and PROCS_TAG (the
# lane's name in its messages: live, k8s).
#
# Readiness is always a probe with a deadline (wait_until): no fixed
# sleeps.  Every process started here is recorded in SVC_PIDS and stopped by
# svc_stop_all (TERM, then KILL after a bounded wait).

SVC_PIDS=()
SVC_NAMES=()

now_s() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.1f", b - a }'; }

# svc_start NAME CMD... : run CMD in the background, output to $LOGS/NAME.log.
svc_start() {
	local name=$1; shift
	"$@" >"$LOGS/$name.log" 2>&1 &
	SVC_PIDS+=("$!")
	SVC_NAMES+=("$name")
	echo "$PROCS_TAG: started $name (pid $!)"
}

svc_pid() {
	local i
	for i in "${!SVC_NAMES[@]}"; do
		[ "${SVC_NAMES[$i]}" = "$1" ] && { echo "${SVC_PIDS[$i]}"; return 0; }
	done
	return 1
}

# wait_until NAME TIMEOUT_S CMD... : poll CMD every 0.25 s until it succeeds,
# the deadline passes or NAME's process (if it is one) exits.
wait_until() {
	local name=$1 timeout=$2; shift 2
	local t0 pid deadline
	t0=$(now_s)
	deadline=$(( $(date +%s) + timeout ))
	pid=$(svc_pid "$name") || pid=
	while :; do
		if "$@" >/dev/null 2>&1; then
			echo "$PROCS_TAG: $name ready after $(elapsed "$t0") s"
			return 0
		fi
		if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
			echo "$PROCS_TAG: $name exited before it was ready" >&2
			return 1
		fi
		if [ "$(date +%s)" -ge "$deadline" ]; then
			echo "$PROCS_TAG: $name not ready after ${timeout} s" >&2
			return 1
		fi
		sleep 0.25
	done
}

# Stop every process started here, newest first: TERM, up to 20 s, then KILL.
svc_stop_all() {
	local i pid name n
	for (( i=${#SVC_PIDS[@]}-1; i>=0; i-- )); do
		pid=${SVC_PIDS[$i]} name=${SVC_NAMES[$i]}
		kill -0 "$pid" 2>/dev/null || continue
		kill -TERM "$pid" 2>/dev/null || true
		for (( n=0; n<80; n++ )); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.25
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "$PROCS_TAG: $name did not stop; killing it"
			kill -KILL "$pid" 2>/dev/null || true
		fi
		wait "$pid" 2>/dev/null || true
	done
	SVC_PIDS=() SVC_NAMES=()
}

# log_tails [N] : the last N (40) lines of every log in $LOGS, named from ROOT.
log_tails() {
	local f root=${PROCS_ROOT:-$LOGS}
	for f in "$LOGS"/*.log; do
		[ -s "$f" ] || continue
		echo "----- ${f#"$root"/} (last ${1:-40} lines) -----"
		tail -n "${1:-40}" "$f"
	done
}
