# tests/k8s/checks/40-e2e.sh - the live lane joined with this one: fluid
# verify --strict passes on a stream that really runs, and fails, each with
# its reason, when the evidence says otherwise.
#
# Inside this lane's network namespace the check starts the live lane's
# services it needs (moto S3, Iceberg's REST catalog, Kafka: the functions
# of tests/live/lib/services.sh) and then:
#
#   1. fluid apply writes the landed example (the lane's endpoints, no
#      catalogAuth: the catalog is plain http) to the real API server;
#   2. STANDING IN FOR THE OPERATOR (lib/stand-in-operator.sh): the
#      FlinkDeployment and its ConfigMap are read back from the API server,
#      and that SQL and table run with the product's runner on a Flink
#      MiniCluster (the live lane's harness, its run step); once the job
#      runs, its REST endpoint is exposed to the service proxy (a relay on
#      a veth address, a bare Pod with status.podIP patched, a selector-less
#      Service and Endpoints with a targetRef) and the status the operator
#      would write is written;
#   3. fluid verify reads the real status, the real JobManager's
#      checkpoints through the real service proxy, and the real catalog's
#      schema and snapshots.
#
# Checkpoints are triggered through Flink's REST API (the interval is an
# hour), so that "no checkpoint completed" and "no snapshot young enough"
# are states the check makes, not races.  Needs the live lane's jars,
# classpaths and venv: tests/k8s/run builds them (mvn, pip) when missing.

# timeout-s check_e2e_verify_live_stream 1500

. "$K8S_HERE/lib/stand-in-operator.sh"

LIVE_DIR=$(cd "$K8S_HERE/../live" && pwd)
E2E_IP=10.250.0.1
E2E_PIDS=()

# The live lane's built pieces (tests/k8s/run makes them when missing).
e2e_need() {
	local f
	for f in "$LIVE_DIR/harness/target/live-harness.jar" "$LIVE_DIR/.cache/cp/flink.classpath" \
		"$LIVE_DIR/.cache/cp/rest.classpath" "$LIVE_DIR/.cache/cp/kafka.classpath" \
		"$LIVE_DIR/.cache/venv/bin/python" \
		"$LIVE_DIR/.cache/plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.20.1.jar"; do
		[ -e "$f" ] || { fail "the live lane's $f is missing (tests/k8s/run builds it)"; return 1; }
	done
}

e2e_stop() {
	local p
	for p in "${E2E_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	declare -F svc_stop_all >/dev/null && svc_stop_all >/dev/null 2>&1
}

# e2e_bg NAME CMD... : CMD in the background, logged, stopped at the end.
e2e_bg() {
	local name=$1; shift
	"$@" >"$E2E/logs/$name.log" 2>&1 &
	E2E_PIDS+=("$!")
}

# The live lane's services, by its own functions, in this namespace.
e2e_services() {
	export LIVE_HERE=$LIVE_DIR LIVE_RUN=$E2E/live LIVE_CP=$LIVE_DIR/.cache/cp
	export PY=$LIVE_DIR/.cache/venv/bin/python
	# shellcheck source=../../live/lib/services.sh
	. "$LIVE_DIR/lib/services.sh"
	local svc
	for svc in s3 rest kafka; do
		"start_$svc" >>"$E2E/logs/services.log" 2>&1 ||
			{ fail "the live lane's $svc did not start ($LIVE_RUN/logs/$svc.log): $(tail -n 5 "$LIVE_RUN/logs/$svc.log")"; return 1; }
	done
}

# A CA and a certificate for IP:127.0.0.1, for the catalog's TLS relay.
e2e_tls() {
	local d=$E2E/tls
	mkdir -p "$d"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=e2e-ca \
		-keyout "$d/ca.key" -out "$d/ca.crt" -addext basicConstraints=critical,CA:TRUE \
		-addext keyUsage=critical,keyCertSign >/dev/null 2>&1 &&
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
		-keyout "$d/srv.key" -out "$d/srv.csr" >/dev/null 2>&1 &&
	openssl x509 -req -in "$d/srv.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 1 \
		-extfile <(printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n') \
		-out "$d/srv.crt" >/dev/null 2>&1 || { fail "openssl: the catalog relay's certificate"; return 1; }
}

# e2e_verify CONTRACT NAME TIMEOUT [VAR=VALUE...] : fluid verify --strict
# --streaming-timeout TIMEOUT, with the variables; its status in RC,
# stdout/stderr/report kept as $E2E/verify-NAME.{out,err,json}.
e2e_verify() {
	local c=$1 name=$2 t=$3; shift 3
	try fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=example.com,kafka,127.0.0.1 \
		"$@" "$FLUID_BIN/fluid" verify --strict --streaming-timeout "$t" --out "$E2E/verify-$name.json" "$c"
	RC=$?
	cp "$OUT" "$E2E/verify-$name.out"
	cp "$ERR" "$E2E/verify-$name.err"
	echo "k8s:     verify $name: exit $RC: $(tr '\n' ' ' <"$OUT")"
}

# piece NAME EVIDENCE : "outcome detail" of a piece of verify-NAME.json.
piece() {
	jq -r --arg e "$2" '.builds[0].evidence[] | select(.evidence == $e) | .outcome + " " + .detail' \
		"$E2E/verify-$1.json"
}

# expect_piece NAME EVIDENCE OUTCOME [DETAIL-GLOB]
expect_piece() {
	local got
	got=$(piece "$1" "$2")
	[[ $got == "$3 "${4:-*} ]] || { fail "verify $1: $2: got '$got', want '$3 ${4:-*}'"; return 1; }
}

flink() { curl -sf --max-time 10 "http://127.0.0.1:$FLINK_PORT$1"; }
completed_checkpoints() { flink "/jobs/$JOB/checkpoints" | jq -r .counts.completed; }
# Trigger one checkpoint through Flink's REST API and wait for it.
trigger_checkpoint() {
	local before n
	before=$(completed_checkpoints) || return
	curl -sf --max-time 10 -X POST -H 'Content-Type: application/json' -d '{}' \
		"http://127.0.0.1:$FLINK_PORT/jobs/$JOB/checkpoints" >/dev/null || return
	for (( n=0; n<240; n++ )); do
		[ "$(completed_checkpoints)" -gt "$before" ] 2>/dev/null && return 0
		sleep 0.5
	done
	return 1
}

check_e2e_verify_live_stream() {
	E2E=$CHECK_DIR/e2e
	mkdir -p "$E2E/logs" "$E2E/job"
	trap e2e_stop EXIT
	trap 'exit 143' TERM
	e2e_need || return

	# The address the service proxy reaches: a veth end in this namespace.
	ip link add e2e0 type veth peer name e2e1 && ip addr add "$E2E_IP/32" dev e2e0 &&
		ip link set e2e0 up && ip link set e2e1 up || { fail "veth $E2E_IP"; return 1; }
	e2e_services || return

	# 1. fluid apply: the landed example, with the lane's endpoints.
	VC=$(lane_contract landed/orders-landed.fluid.yaml \
		's#https://catalog.example.com/api/catalog#http://127.0.0.1:8181#' \
		's#https://s3.example.com#http://127.0.0.1:9000#' \
		's#bootstrapServers: kafka:9092#bootstrapServers: 127.0.0.1:9092#' \
		'/catalogAuth:/d') || return
	fluid_plan "$VC" amend "$E2E/plan.json" || return
	VNAME=$(jq -r '.builds[0].flinkDeployment' "$E2E/plan.json")
	try fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=example.com,kafka,127.0.0.1 \
		"$FLUID_BIN/fluid" apply --mode amend --yes --wait 0 "$E2E/plan.json" ||
		{ fail "fluid apply: $(head -c 600 "$ERR")"; return 1; }

	# 2. The stand-in operator reads back what fluid applied; the records.
	stand_in_operator_job "$VNAME" "$E2E/job" || return
	mapfile -t ARGS <"$E2E/job/job.args"
	[ "${#ARGS[@]}" -eq 2 ] || { fail "the job's args: ${ARGS[*]}"; return 1; }
	must "create topic orders" "$PY" "$LIVE_DIR/py/kafka_admin.py" create orders --partitions 2 || return
	must "produce" "$PY" "$LIVE_DIR/py/lanecheck.py" produce --dataset orders --table-json "${ARGS[1]}" \
		--key-col order_key --id-col event_id --topic orders --count 60 --seed 11 \
		--state "$E2E/orders.pkl" || return
	cat >"$E2E/during.sh" <<EOF
# Run by the harness once the job runs: the check goes on, then says done.
touch "$E2E/running"
for (( i=0; i<2400; i++ )); do [ -e "$E2E/done" ] && exit 0; sleep 0.5; done
exit 1
EOF
	cat >"$E2E/plan.txt" <<EOF
check e2e: the stand-in operator's job (FlinkDeployment $CHECK_NS/$VNAME)
run --script ${ARGS[0]} --table ${ARGS[1]} --expect-rows @$E2E/orders.pkl.counts:landed --timeout-s 1200 --during bash $E2E/during.sh
EOF
	e2e_harness || return
	local n
	for (( n=0; n<1200; n++ )); do
		[ -e "$E2E/running" ] && break
		kill -0 "$HARNESS_PID" 2>/dev/null || { fail "the harness ended before the job ran: $(tail -n 20 "$E2E/logs/harness.log")"; return 1; }
		sleep 0.5
	done
	[ -e "$E2E/running" ] || { fail "the job did not run within 600 s"; return 1; }
	FLINK_PORT=$(sed -n 's/.*REST on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$E2E/logs/harness.log" | head -n 1)
	JOB=$(flink /jobs/overview | jq -r '[.jobs[] | select(.state == "RUNNING") | .jid][0] // empty')
	[ -n "$FLINK_PORT" ] && [ -n "$JOB" ] || { fail "no running job on the MiniCluster (port '$FLINK_PORT')"; return 1; }
	echo "k8s:     job $JOB runs; MiniCluster REST on 127.0.0.1:$FLINK_PORT"

	# The service proxy reaches the MiniCluster; the operator's status.
	e2e_bg relay-flink "$PY" "$K8S_HERE/lib/tcp-relay.py" "$E2E_IP" 8081 127.0.0.1 "$FLINK_PORT"
	RELAY_FLINK_PID=$!
	stand_in_operator_expose "$VNAME" "$E2E_IP" || { fail "stand-in operator: expose $VNAME-rest"; return 1; }
	wait_until relay 30 kc get --raw "/api/v1/namespaces/$CHECK_NS/services/$VNAME-rest:rest/proxy/jobs/overview" ||
		{ fail "the service proxy does not reach the MiniCluster: $(kc get --raw "/api/v1/namespaces/$CHECK_NS/services/$VNAME-rest:rest/proxy/jobs/overview" 2>&1 | head -c 300)"; return 1; }
	stand_in_operator_report "$VNAME" "$JOB" || return

	# 3a. No checkpoint completed yet (and so no snapshot): fails.
	eq "completed checkpoints before the first trigger" "$(completed_checkpoints)" 0 || return
	e2e_verify "$VC" no-checkpoint 0
	eq "verify, no checkpoint: exit" "$RC" 1 || return
	grep -q "error: Flink build land-orders: checkpoint: no checkpoint completed: job $JOB has 0 completed" "$ERR" ||
		{ fail "verify, no checkpoint: not the reason: $(head -c 800 "$ERR")"; return 1; }
	expect_piece no-checkpoint deployment pass || return

	# 3b. A checkpoint completes (the sink commits): everything passes.
	trigger_checkpoint || { fail "no checkpoint completed after a trigger"; return 1; }
	e2e_verify "$VC" pass 120
	eq "verify --strict on the live stream: exit (stderr: $(head -c 600 "$ERR"))" "$RC" 0 || return
	expect_piece pass catalog-schema pass || return
	expect_piece pass catalog-snapshot pass || return
	expect_piece pass deployment pass "the reconciled spec is the applied one*; lifecycleState STABLE, jobStatus.state RUNNING, job $JOB" || return
	expect_piece pass checkpoint pass "checkpoint * of job $JOB completed * s ago*" || return
	eq "checkpoint endpoint" "$(jq -r '.builds[0].evidence[] | select(.evidence == "checkpoint") | .endpoint' "$E2E/verify-pass.json")" \
		"kubectl --context=$K8S_CONTEXT get --raw /api/v1/namespaces/$CHECK_NS/services/$VNAME-rest:rest/proxy/jobs/$JOB/checkpoints" || return
	eq "delivery.json outcome" "$(jq -r .outcome "$E2E/verify-pass.json")" pass || return

	# 3c. OAuth2 at the REST catalog's own token route, through TLS.
	e2e_tls || return
	e2e_bg relay-catalog "$PY" "$K8S_HERE/lib/tcp-relay.py" 127.0.0.1 8443 127.0.0.1 8181 "$E2E/tls/srv.crt" "$E2E/tls/srv.key"
	wait_until relay 30 curl -sf --cacert "$E2E/tls/ca.crt" https://127.0.0.1:8443/v1/config ||
		{ fail "the catalog's TLS relay"; return 1; }
	SECRET=e2e-secret-$(openssl rand -hex 12)
	VCA=${VC%.fluid.yaml}-oauth2.fluid.yaml
	sed -e 's#uri: http://127.0.0.1:8181#uri: https://127.0.0.1:8443#' \
		-e 's#^\( *\)catalogProperties:.*#&\n\1catalogAuth: {type: oauth2, credentialEnv: E2E_CATALOG_CREDENTIAL, oauth2ServerUri: "https://127.0.0.1:8443/v1/oauth/tokens", scope: catalog}#' \
		"$VC" >"$VCA"
	grep -q "type: oauth2" "$VCA" || { fail "test bug: no catalogAuth in $VCA"; return 1; }
	TOKEN=$(curl -sf --cacert "$E2E/tls/ca.crt" -d grant_type=client_credentials -d client_id=e2e-client \
		-d "client_secret=$SECRET" -d scope=catalog https://127.0.0.1:8443/v1/oauth/tokens | jq -r .access_token)
	[ -n "$TOKEN" ] && [ "$TOKEN" != null ] || { fail "the catalog's token route gave no token"; return 1; }
	e2e_verify "$VCA" oauth2 30 E2E_CATALOG_CREDENTIAL="e2e-client:$SECRET" \
		FLUID_CA_BUNDLE="$E2E/tls/ca.crt"
	eq "verify with OAuth2 through TLS: exit (stderr: $(head -c 600 "$ERR"))" "$RC" 0 || return
	case $(jq -r '.builds[0].evidence[] | select(.evidence == "catalog-schema") | .endpoint' "$E2E/verify-oauth2.json") in
	https://127.0.0.1:8443/v1/*) ;;
	*) fail "verify with OAuth2 did not read the catalog through TLS: $(cat "$E2E/verify-oauth2.json")"; return 1 ;;
	esac

	# 3d. The table's schema differs from the contract.
	VCS=${VC%.fluid.yaml}-schema.fluid.yaml
	sed 's#{name: kafka_partition, type: int, required: true}#{name: kafka_partition, type: long, required: true}#' "$VC" >"$VCS"
	e2e_verify "$VCS" schema 0
	eq "verify, another schema: exit" "$RC" 1 || return
	grep -q "error: Flink build land-orders: catalog-schema: the table's schema differs from the contract: kafka_partition: long in the contract (Iceberg long), int in the table" "$ERR" ||
		{ fail "verify, another schema: not the reason: $(head -c 800 "$ERR")"; return 1; }
	expect_piece schema checkpoint pass || return

	# 3e. The operator reconciled another spec than the applied one.
	stand_in_operator_report "$VNAME" "$JOB" '.job.parallelism = 7' || return
	e2e_verify "$VC" reconciled 0
	eq "verify, another reconciled spec: exit" "$RC" 1 || return
	grep -q "error: Flink build land-orders: deployment: the operator's reconciled spec is not the applied one: spec.job.parallelism is 7 reconciled, 1 applied" "$ERR" ||
		{ fail "verify, another reconciled spec: not the reason: $(head -c 800 "$ERR")"; return 1; }
	expect_piece reconciled catalog-schema pass || return
	stand_in_operator_report "$VNAME" "$JOB" || return

	# 3f. No snapshot young enough: a 1 s budget, no checkpoint since.
	VCO=${VC%.fluid.yaml}-1s.fluid.yaml
	sed 's#maxSnapshotAgeSeconds: 900#maxSnapshotAgeSeconds: 1#' "$VC" >"$VCO"
	sleep 2.5
	e2e_verify "$VCO" old 0
	eq "verify, an old snapshot: exit" "$RC" 1 || return
	grep -q "error: Flink build land-orders: catalog-snapshot: no snapshot is young enough: .* maxSnapshotAgeSeconds is 1" "$ERR" ||
		{ fail "verify, an old snapshot: not the reason: $(head -c 800 "$ERR")"; return 1; }
	expect_piece old deployment pass || return

	# The job ends as the harness expects: every row committed.  The
	# proxy's kept-alive connections go first: the MiniCluster's REST
	# server waits for open connections when it closes.
	kill -TERM "$RELAY_FLINK_PID" 2>/dev/null
	touch "$E2E/done"
	# Checkpoints until the harness has stopped it (it commits on them).
	for (( n=0; n<200; n++ )); do
		kill -0 "$HARNESS_PID" 2>/dev/null || break
		[ "$(flink "/jobs/$JOB" | jq -r .state)" = RUNNING ] || break
		trigger_checkpoint >/dev/null 2>&1 || sleep 1
	done
	wait "$HARNESS_PID"
	eq "the harness (the stand-in operator's job): exit (see $E2E/logs/harness.log)" "$?" 0 || return
	grep -q $'\tok\t' "$E2E/results.tsv" || { fail "the job's check: $(cat "$E2E/results.tsv")"; return 1; }

	# No output, report or log of the run holds the secret or the token.
	local hits
	hits=$(grep -rlF -e "$SECRET" -e "$TOKEN" "$CHECK_DIR" "$K8S_RUN/logs" 2>/dev/null)
	[ -z "$hits" ] || { fail "the client secret or the token is in: $hits"; return 1; }
	calls_clean
}

# The live lane's harness (its JVM options, as tests/live/lane.sh runs it)
# on the stand-in operator's plan; HARNESS_PID.
e2e_harness() {
	local cp
	cp="$LIVE_DIR/harness/target/live-harness.jar:$(cat "$LIVE_DIR/.cache/cp/flink.classpath")"
	mkdir -p "$E2E/tmp"
	# The harness sets up Flink's s3:// file system from the plugin, as
	# the live lane runs it (tests/live/lane.sh).
	FLINK_PLUGINS_DIR=$LIVE_DIR/.cache/plugins \
	java --add-exports=java.base/sun.net.util=ALL-UNNAMED \
		--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED \
		--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED \
		--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED \
		--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
		--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
		--add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED \
		--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
		--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED \
		--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED \
		-Xmx2g -XX:+UseParallelGC \
		-Dlog4j2.configurationFile="$LIVE_DIR/conf/log4j2-flink.properties" \
		-Dfluid.live.log="$E2E/logs/flink.log" -Djava.io.tmpdir="$E2E/tmp" \
		-cp "$cp" fluid.live.Main plan \
		--catalog-uri http://127.0.0.1:8181 --s3-endpoint http://127.0.0.1:9000 \
		--state-dir "$E2E/state" --results "$E2E/results.tsv" \
		--set execution.checkpointing.interval=1h --set parallelism.default=1 \
		"$E2E/plan.txt" >"$E2E/logs/harness.log" 2>&1 &
	HARNESS_PID=$!
	E2E_PIDS+=("$HARNESS_PID")
}
