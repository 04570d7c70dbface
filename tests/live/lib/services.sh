# SPDX-License-Identifier: Apache-2.0
# tests/live/lib/services.sh - start, probe and stop the live lane's services.
# Sourced by tests/live/lane.sh, inside the lane's own network and PID
# namespaces.  Needs: LIVE_HERE (tests/live), LIVE_RUN (this run's dir),
# LIVE_CP (classpath files), PY (the venv's python).
#
# Readiness is always a probe with a deadline (wait_http, wait_kafka): no
# fixed sleeps.  Every process started here is recorded in SVC_PIDS and
# stopped by svc_stop_all (TERM, then KILL after a bounded wait).

LOGS="$LIVE_RUN/logs"
mkdir -p "$LOGS"
PROCS_TAG=live PROCS_ROOT=$LIVE_RUN
# svc_start, svc_pid, wait_until, svc_stop_all, log_tails (both lanes').
# shellcheck source=procs.sh
. "$LIVE_HERE/lib/procs.sh"

# Same environment for every AWS SDK user (REST server, Flink, pyiceberg).
export AWS_ACCESS_KEY_ID=fluid-live AWS_SECRET_ACCESS_KEY=fluid-live-secret
export AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
export AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED
export AWS_RESPONSE_CHECKSUM_VALIDATION=WHEN_REQUIRED
export AWS_EC2_METADATA_DISABLED=true

S3_PORT=9000 REST_PORT=8181 KAFKA_PORT=9092 REGISTRY_PORT=8081 REGISTRY_MGMT_PORT=9001
S3_URL="http://127.0.0.1:$S3_PORT"
REST_URL="http://127.0.0.1:$REST_PORT"
KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT"
REGISTRY_URL="http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7"

JAVA_SVC_OPTS=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k -Djava.net.preferIPv4Stack=true)

wait_http() { wait_until "$1" "$3" curl -sf --max-time 2 -o /dev/null "$2"; }

start_s3() {
	# moto's S3 server, in memory, on the loopback (pyiceberg's own tests use it).
	svc_start s3 "$PY" "$LIVE_HERE/py/s3_server.py" 127.0.0.1 "$S3_PORT"
	wait_http s3 "$S3_URL/" 60 || return 1
	"$PY" - "$S3_URL" <<'PYEOF' || return 1
import sys, boto3
s3 = boto3.client("s3", endpoint_url=sys.argv[1])
# flink-state: the checkpoint and savepoint locations of the lane's contracts.
for b in ("warehouse", "lake", "flink-state"):
    s3.create_bucket(Bucket=b)
print("live: buckets", sorted(x["Name"] for x in s3.list_buckets()["Buckets"]))
PYEOF
}

start_rest() {
	# Iceberg's reference REST catalog server (iceberg-open-api 1.10.0), as the
	# apache/iceberg-rest-fixture image runs it: configured through CATALOG_*
	# (CATALOG_ stripped, __ -> -, _ -> ., lower-cased).  It binds every
	# interface; inside the lane's network namespace that is the loopback only.
	mkdir -p "$LIVE_RUN/rest"
	svc_start rest env \
		CATALOG_CATALOG__IMPL=org.apache.iceberg.jdbc.JdbcCatalog \
		CATALOG_URI="jdbc:sqlite:$LIVE_RUN/rest/catalog.db" \
		CATALOG_JDBC_USER=user CATALOG_JDBC_PASSWORD=password \
		CATALOG_WAREHOUSE=s3://warehouse/ \
		CATALOG_IO__IMPL=org.apache.iceberg.aws.s3.S3FileIO \
		CATALOG_S3_ENDPOINT="$S3_URL" \
		CATALOG_S3_PATH__STYLE__ACCESS=true \
		CATALOG_CLIENT_REGION=us-east-1 \
		CATALOG_REST_PORT="$REST_PORT" \
		java "${JAVA_SVC_OPTS[@]}" -Xmx512m -jar "$(cat "$LIVE_CP/rest.classpath")"
	wait_http rest "$REST_URL/v1/config" 120
}

start_registry() {
	# Apicurio Registry 3.3.3, its Confluent-compatible API (ccompat v7), storage
	# in memory (H2, the default).  Built for Java 21+: LIVE_JAVA21 (tests/live/run
	# finds one).  Its management interface is always on, default port 9000 (moto's):
	# moved, and both bound to the loopback.
	svc_start registry "$LIVE_JAVA21" "${JAVA_SVC_OPTS[@]}" -Xmx384m \
		-Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$REGISTRY_PORT" -Dquarkus.http.access-log.enabled=true \
		-Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$REGISTRY_MGMT_PORT" \
		-jar "$LIVE_REGISTRY_DIR/quarkus-run.jar"
	wait_http registry "$REGISTRY_URL/subjects" 120
}

kafka_probe() {
	"$PY" "$LIVE_HERE/py/kafka_admin.py" --bootstrap "$KAFKA_BOOTSTRAP" ready --timeout 3
}

start_kafka() {
	local cp dir props id
	cp=$(cat "$LIVE_CP/kafka.classpath")
	dir="$LIVE_RUN/kafka"
	props="$LIVE_RUN/kafka.properties"
	mkdir -p "$dir"
	# The SASL_SSL listener opens its keystore at start: prepare.py makes it
	# for the live lane; another lane starting this broker gets its own.
	if [ ! -f "$LIVE_RUN/tls/broker.p12" ]; then
		"$PY" "$LIVE_HERE/py/sasl_check.py" tls --run "$LIVE_RUN" >"$LOGS/tls.log" 2>&1 || {
			echo "live: making the broker's TLS material failed" >&2; cat "$LOGS/tls.log" >&2; return 1; }
	fi
	{ cat "$LIVE_HERE/conf/kafka.properties"; echo "log.dirs=$dir/data"; } >"$props"
	id=$("$PY" -c 'import base64, uuid; print(base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("="))')
	java "${JAVA_SVC_OPTS[@]}" -Xmx256m -cp "$cp" \
		-Dlog4j2.configurationFile="$LIVE_HERE/conf/log4j2-kafka.properties" \
		kafka.tools.StorageTool format -t "$id" -c "$props" >"$LOGS/kafka-format.log" 2>&1 || {
		echo "live: kafka storage format failed" >&2; cat "$LOGS/kafka-format.log" >&2; return 1; }
	svc_start kafka java "${JAVA_SVC_OPTS[@]}" -Xmx768m -cp "$cp" \
		-Dlog4j2.configurationFile="$LIVE_HERE/conf/log4j2-kafka.properties" \
		kafka.Kafka "$props"
	wait_until kafka 120 kafka_probe
}
