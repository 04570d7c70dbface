#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/live/lane.sh - the live lane's services and checks.  tests/live/run
# starts it as PID 1 of new network and PID namespaces (unshare --net --pid
# --kill-child): the only interface is the loopback, so every service is
# reachable on 127.0.0.1 only (Iceberg's REST server binds all interfaces,
# and here that is the loopback), and when this script ends every process
# it started ends with it.  It still stops them in order (trap), so that
# their logs are complete.
#
# Needs LIVE_HERE, LIVE_RUN, LIVE_CP, PY (set by tests/live/run).
set -uo pipefail
: "${LIVE_HERE:?}" "${LIVE_RUN:?}" "${LIVE_CP:?}" "${PY:?}" "${LIVE_JAVA21:?}" "${LIVE_REGISTRY_DIR:?}"
T0=${LIVE_T0:-$(date +%s)}
phase() { echo "live: [$(( $(date +%s) - T0 )) s] $*"; }

ip link set lo up || { echo "live: cannot bring up the loopback" >"$LIVE_RUN/lane.why"; exit 1; }

# shellcheck source=lib/services.sh
. "$LIVE_HERE/lib/services.sh"
export LIVE_REST_URL=$REST_URL LIVE_S3_URL=$S3_URL LIVE_REGISTRY_URL=$REGISTRY_URL

HARNESS_PID=
# The harness first (TERM to its pipeline: timeout passes it on to the JVM),
# then the services, newest first.
finish() {
	local rc=$? n
	trap - EXIT INT TERM
	if [ -n "$HARNESS_PID" ] && kill -0 "$HARNESS_PID" 2>/dev/null; then
		phase "stopping the harness"
		pkill -TERM -P "$HARNESS_PID" 2>/dev/null
		for (( n=0; n<80; n++ )); do
			kill -0 "$HARNESS_PID" 2>/dev/null || break
			sleep 0.25
		done
	fi
	phase "stopping the services"
	svc_stop_all
	exit "$rc"
}
trap finish EXIT
trap 'echo "live: interrupted" >"$LIVE_RUN/lane.why"; exit 130' INT TERM

phase "starting S3 (moto), the Iceberg REST catalog, Kafka and the schema registry (Apicurio)"
for svc in s3 rest kafka registry; do
	if ! "start_$svc"; then
		echo "$svc did not start (logs/$svc.log)" >"$LIVE_RUN/lane.why"
		exit 1
	fi
done
. "$LIVE_HERE/lib/gateway.sh"
# The SQL Gateway only for the checks that use it.
if grep -qE '^check (gateway|cfk):' "$LIVE_RUN/plan.txt" 2>/dev/null && ! start_gateway; then
	echo "the SQL gateway did not start (logs/gateway.log)" >"$LIVE_RUN/lane.why"
	exit 1
fi

# The Flink JVM: Flink 1.20's Java 17 module options (env.java.opts.all of
# its default config.yaml), the harness and the runner on one classpath.
JAVA_OPENS=(
	--add-exports=java.base/sun.net.util=ALL-UNNAMED
	--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
	--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED
	--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
	--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED
	--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED
	--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED
	--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
	--add-opens=java.base/java.lang=ALL-UNNAMED
	--add-opens=java.base/java.net=ALL-UNNAMED
	--add-opens=java.base/java.io=ALL-UNNAMED
	--add-opens=java.base/java.nio=ALL-UNNAMED
	--add-opens=java.base/sun.nio.ch=ALL-UNNAMED
	--add-opens=java.base/java.lang.reflect=ALL-UNNAMED
	--add-opens=java.base/java.text=ALL-UNNAMED
	--add-opens=java.base/java.time=ALL-UNNAMED
	--add-opens=java.base/java.util=ALL-UNNAMED
	--add-opens=java.base/java.util.concurrent=ALL-UNNAMED
	--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
	--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)
mkdir -p "$LIVE_RUN/tmp"
CP="$LIVE_HERE/harness/target/live-harness.jar:$(cat "$LIVE_CP/flink.classpath")"
# The generated catalogs say 'token' = 'env:ICEBERG_TOKEN' only with
# catalogAuth, which the lane's plain-http catalog cannot have; set anyway.
export ICEBERG_TOKEN=unused-by-the-lane
# The sasl check's SCRAM user and a wrong password: the job reads them from
# its environment, as a pod from its Secret; random, so that the check's grep
# for them means something.
LIVE_KAFKA_PASSWORD=$(openssl rand -hex 16) LIVE_KAFKA_WRONG_PASSWORD=$(openssl rand -hex 16)
export LIVE_KAFKA_USER=fluid-live-kafka LIVE_KAFKA_PASSWORD LIVE_KAFKA_WRONG_PASSWORD
# Flink's S3 filesystem (flink-s3-fs-hadoop) as a plugin, where the image has
# it (plugins/s3-fs-hadoop/): the harness loads it for s3:// state.
export FLINK_PLUGINS_DIR=${LIVE_PLUGINS:?}

phase "harness: the plan ($(grep -c '^check ' "$LIVE_RUN/plan.txt") checks) on one Flink JVM"
# In the background, so that a TERM reaches the trap at once (bash runs
# traps only between commands); the harness dies with the namespace.
{ timeout --kill-after=30 "${LIVE_TIMEOUT_S:-1500}" \
	java "${JAVA_OPENS[@]}" -Xmx3g -XX:+UseParallelGC \
	-Dlog4j2.configurationFile="$LIVE_HERE/conf/log4j2-flink.properties" \
	-Dfluid.live.log="$LOGS/flink.log" \
	-Djava.io.tmpdir="$LIVE_RUN/tmp" \
	-cp "$CP" fluid.live.Main plan \
	--catalog-uri "$REST_URL" --s3-endpoint "$S3_URL" \
	--state-dir "$LIVE_RUN/state" --results "$LIVE_RUN/results.tsv" \
	--set execution.checkpointing.interval=2s \
	--set parallelism.default=1 \
	--set restart-strategy.type=fixed-delay \
	--set restart-strategy.fixed-delay.attempts=5 \
	--set restart-strategy.fixed-delay.delay=1s \
	"$LIVE_RUN/plan.txt" 2>&1 | grep --line-buffered -v -E '^SLF4J:|getCallerClass' | tee "$LOGS/harness.log"
  exit "${PIPESTATUS[0]}"; } &
HARNESS_PID=$!
wait "$HARNESS_PID"
rc=$?
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "the harness did not finish within ${LIVE_TIMEOUT_S:-1500} s" >"$LIVE_RUN/lane.why"
fi
exit "$rc"
