#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/demo/lane.sh - the demo's components and steps.  tools/demo/run
# starts it as PID 1 of new network and PID namespaces (ns_run of
# tests/live/lib/prep.sh), as the live lane starts tests/live/lane.sh: only
# the loopback exists, and every process started here ends when this
# script does.  It still stops them in order (trap), TERM then KILL.
#
# Starts S3 (moto), the Iceberg REST catalog, Kafka and Flink's SQL Gateway
# with its session cluster with the live lane's own functions
# (tests/live/lib/services.sh, gateway.sh); produces DEMO_COUNT records
# generated from the contract's stream schema; applies the contract with
# `fluid apply --target demo`; waits for the rows and prints them; runs
# `fluid verify`.
#
# Needs LIVE_HERE, LIVE_RUN, LIVE_CP, PY, FLUID_BIN, DEMO_DIR (the contract
# copy of tools/demo/contract.py and its targets file), the DEMO_* values it
# printed, DEMO_QUIET and DEMO_T0 (set by tools/demo/run).  Status: 0 the
# rows landed and fluid verify passed, 1 a step failed, 2 a component did
# not start, 130 interrupted.
set -uo pipefail
: "${LIVE_HERE:?}" "${LIVE_RUN:?}" "${LIVE_CP:?}" "${PY:?}" "${FLUID_BIN:?}" "${DEMO_DIR:?}"
DEMO=$(cd "$(dirname "$0")" && pwd)
T0=${DEMO_T0:-$(date +%s)}
COUNT=${DEMO_COUNT:-40}

phase() { [ "${DEMO_QUIET:-0}" = 1 ] || echo "demo: [$(( $(date +%s) - T0 )) s] $*"; }
# Quiet: a step's own lines go to logs/steps.log, printed only on failure.
step() {
	if [ "${DEMO_QUIET:-0}" = 1 ]; then
		"$@" >>"$LOGS/steps.log" 2>&1
	else
		"$@"
	fi
}

ip link set lo up || { echo "demo: cannot bring up the loopback" >&2; exit 2; }

# shellcheck source=../../tests/live/lib/services.sh
. "$LIVE_HERE/lib/services.sh"
# shellcheck source=../../tests/live/lib/gateway.sh
. "$LIVE_HERE/lib/gateway.sh"
PROCS_TAG=demo
export LIVE_REST_URL=$REST_URL LIVE_S3_URL=$S3_URL

finish() {
	local rc=$?
	# A second signal (tools/demo/run's TERM after a Ctrl-C) must not cut
	# the stop short.
	trap - EXIT
	trap '' INT TERM
	phase "stopping everything the demo started"
	step svc_stop_all
	exit "$rc"
}
trap finish EXIT
trap 'echo "demo: interrupted" >&2; exit 130' INT TERM

# Readiness probes and their deadlines are the lane's (services.sh).
phase "starting S3 (moto), the Iceberg REST catalog, Kafka, Flink 1.20.1's SQL Gateway and cluster"
for svc in s3 rest kafka gateway; do
	step "start_$svc" || { echo "demo: $svc did not start (tests/live/.cache/demo/logs/$svc.log)" >&2; exit 2; }
done

phase "kafka: $COUNT records for topic $DEMO_TOPIC, generated from the contract's stream schema"
step "$PY" "$LIVE_HERE/py/kafka_admin.py" --bootstrap "$KAFKA_BOOTSTRAP" create "$DEMO_TOPIC" --partitions 2 ||
	exit 1
step "$PY" "$LIVE_HERE/py/lanecheck.py" produce --bootstrap "$KAFKA_BOOTSTRAP" --dataset schema \
	--contract "$DEMO_DIR/demo.fluid.yaml" --expect "rows=$DEMO_DIR/demo.fluid.yaml" \
	--key-col "${DEMO_KEY_COL:-none}" --topic "$DEMO_TOPIC" --count "$COUNT" --seed 7 \
	--state "$LIVE_RUN/records.pkl" || exit 1
expect=$(sed -n 's/^rows=//p' "$LIVE_RUN/records.pkl.counts")

phase "fluid apply --target demo: build $DEMO_BUILD through the SQL Gateway ($LIVE_GATEWAY_URL)"
( cd "$DEMO_DIR" && step "$FLUID_BIN/fluid" apply --target demo demo.fluid.yaml ) || exit 1

phase "waiting for the $expect rows the contract makes of them in $DEMO_TABLE"
"$PY" "$DEMO/rows.py" --table "$DEMO_TABLE" --expect "$expect" --timeout 300 || exit 1

phase "fluid verify: the table's schema and snapshot from the catalog"
# The allowlists are the contract's own deployment values: the demo is the
# operator of this machine.  Without Kubernetes, the FlinkDeployment and
# checkpoint pieces are warnings (fluid-verify(1)).
out=$(cd "$DEMO_DIR" && \
	FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=$DEMO_CONTEXT FLUID_FLINK_NAMESPACE_ALLOWLIST=$DEMO_NAMESPACE \
	FLUID_FLINK_IMAGE_ALLOWLIST=$DEMO_IMAGE FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=$DEMO_SERVICE_ACCOUNT \
	FLUID_FLINK_SECRET_ALLOWLIST=$DEMO_SECRETS \
	"$FLUID_BIN/fluid" verify demo.fluid.yaml --streaming-timeout 0 --out "$LIVE_RUN/delivery.json" 2>&1)
rc=$?
printf '%s\n' "$out" >"$LOGS/verify.log"
if [ "${DEMO_QUIET:-0}" = 1 ]; then
	grep -E ': catalog-(schema|snapshot): ' <<<"$out"
else
	printf '%s\n' "$out"
fi
[ "$rc" -eq 0 ] || { echo "demo: fluid verify exited $rc (tests/live/.cache/demo/logs/verify.log)" >&2; exit 1; }
exit 0
