# SPDX-License-Identifier: Apache-2.0
# tests/live/lib/gateway.sh - the Flink SQL Gateway of check "gateway"
# (README.md, "The SQL Gateway"), with the session cluster it submits to.
# Sourced after the services (it uses services.sh's svc_start, wait_http
# and LOGS) by lane.sh, which calls start_gateway only when the plan holds
# the check or check "cfk" (py/cfk_check.py), so other LIVE_ONLY runs pay
# nothing for it, and by the demo (tools/demo/lane.sh).
#
# One JVM of its own (deps/gateway, GatewayMain): a MiniCluster with its
# REST endpoint on 127.0.0.1:$GATEWAY_CLUSTER_PORT, and Flink's SqlGateway
# (flink-sql-gateway 1.20.1) on 127.0.0.1:$GATEWAY_PORT submitting to it
# with execution.target remote.  svc_stop_all stops it (TERM: its shutdown
# hook stops the gateway, then the cluster).

# Fixed ports: py/prepare.py writes the target's URL before the lane starts.
GATEWAY_PORT=8083 GATEWAY_CLUSTER_PORT=8091
export LIVE_GATEWAY_URL="http://127.0.0.1:$GATEWAY_PORT"
export LIVE_GATEWAY_CLUSTER_URL="http://127.0.0.1:$GATEWAY_CLUSTER_PORT"

start_gateway() {
	local jar="$LIVE_HERE/deps/gateway/target/live-gateway.jar" cp
	[ -f "$jar" ] && [ -f "$LIVE_CP/gateway.classpath" ] || {
		echo "live: $jar or gateway.classpath is missing (mvn package)" >&2
		return 1
	}
	# The gateway plans the jobs, the cluster runs them: both need the
	# connectors, which the harness's classpath holds (same versions).
	cp="$jar:$(cat "$LIVE_CP/gateway.classpath"):$(cat "$LIVE_CP/flink.classpath")"
	mkdir -p "$LIVE_RUN/tmp-gateway"
	# Flink 1.20's Java 17 module options (its config.yaml's env.java.opts.all).
	svc_start gateway java \
		--add-exports=java.base/sun.net.util=ALL-UNNAMED \
		--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED \
		--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED \
		--add-opens=java.base/java.lang=ALL-UNNAMED \
		--add-opens=java.base/java.net=ALL-UNNAMED \
		--add-opens=java.base/java.io=ALL-UNNAMED \
		--add-opens=java.base/java.nio=ALL-UNNAMED \
		--add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
		--add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
		--add-opens=java.base/java.text=ALL-UNNAMED \
		--add-opens=java.base/java.time=ALL-UNNAMED \
		--add-opens=java.base/java.util=ALL-UNNAMED \
		--add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
		--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED \
		--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED \
		-Xmx1500m -XX:+UseParallelGC -Djava.net.preferIPv4Stack=true \
		-Dlog4j2.configurationFile="$LIVE_HERE/conf/log4j2-flink.properties" \
		-Dfluid.live.log="$LOGS/gateway-flink.log" \
		-Djava.io.tmpdir="$LIVE_RUN/tmp-gateway" \
		-cp "$cp" fluid.live.gateway.GatewayMain \
		--cluster-port "$GATEWAY_CLUSTER_PORT" --gateway-port "$GATEWAY_PORT" \
		--set execution.checkpointing.interval=2s \
		--set parallelism.default=1 \
		--set restart-strategy.type=fixed-delay \
		--set restart-strategy.fixed-delay.attempts=3 \
		--set restart-strategy.fixed-delay.delay=1s
	# Generous: two cores shared by six engineers.
	wait_http gateway "$LIVE_GATEWAY_URL/v2/info" 240
}
