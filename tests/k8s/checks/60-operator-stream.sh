# tests/k8s/checks/60-operator-stream.sh - a fluid contract's stream on the
# real operator with running pods, through its lifecycle.
#
# Inside the lane's namespace: the live lane's moto S3, Iceberg REST
# catalog and Kafka (tests/live/lib/services.sh; bound beyond the loopback
# so that Pods reach them at the bridge's address), the real operator
# (1.13.0), and the process kubelet (STANDS IN FOR THE KUBELET AND THE
# CONTAINER RUNTIME: the JobManager and TaskManager run as processes of the
# lane, tests/k8s/kubelet).  The rows are judged by the live lane's
# independent oracle (tests/live/py/lanecheck.py verify --contract: the
# expected rows from the contract's YAML, every produced record by its
# Kafka partition and offset exactly once, every value compared).
#
# One FlinkDeployment goes through, in order (each step needs the one
# before, and each JVM start costs tens of seconds here):
#   1. fluid apply; the operator deploys; the job runs; rows land; fluid
#      verify --strict passes on the operator's status and a real checkpoint;
#   2. a non-breaking change (fluid diff says so) applied: the operator
#      stops with a savepoint and restores; exactly once across it;
#   3. state: suspended, then running: suspended with a savepoint, resumed
#      from it; exactly once;
#   4. the JobManager's process killed: Kubernetes HA and the process
#      kubelet's restart bring the job back; exactly once;
#   5. the savepoint location made unwritable: a change that needs a
#      savepoint fails; the operator reports it, and fluid apply refuses
#      to replace the job by a fresh start, saying why.
#
# The state's S3 endpoint: the lane gives it to every deployment as the
# operator's default configuration (lib/cluster.sh start_operator: s3.endpoint
# on the bridge, port 9002, path-style), as a platform team would; there
# lib/s3-gate.py relays to moto, and makes the savepoint location
# unwritable when step 5 asks it to.

# operator check_operator_stream_lifecycle
# timeout-s check_operator_stream_lifecycle 1800

LIVE_PY_DIR=$(cd "$K8S_HERE/../live/py" && pwd)
ST_TABLE=live.upgrade_orders
ST_TOPIC=live-upgrade

# st_contract NAME : the live lane's upgrade contract NAME (v1, v2) with the
# lane's endpoints (the bridge's address, where the Pods reach them), this
# check's namespace and the lane's context; prints its path.
st_contract() {
	local d=$CHECK_DIR/contracts
	mkdir -p "$d"
	cp "$K8S_HERE/../live/contracts/fluid.workspace.yaml" "$d/"
	sed -e "s#127\.0\.0\.1:\(8181\|9000\|9092\)#$LANE_IP:\1#g" \
		-e "s/^\( *\)context: development$/\1context: $K8S_CONTEXT/" \
		-e "s/^\( *\)namespace: data-products$/\1namespace: $CHECK_NS/" \
		"$K8S_HERE/../live/contracts/upgrade/orders-$1.fluid.yaml" >"$d/orders-$1.fluid.yaml"
	grep -q "context: $K8S_CONTEXT" "$d/orders-$1.fluid.yaml" || { fail "test bug: no context in $1"; return 1; }
	echo "$d/orders-$1.fluid.yaml"
}

# The live lane's services, pod-reachable: moto and the catalog on every
# address of the lane, Kafka advertising the bridge's address.
st_services() {
	local live=$K8S_HERE/../live
	export LIVE_HERE=$live LIVE_RUN=$CHECK_DIR/live LIVE_CP=$live/.cache/cp
	export PY=$live/.cache/venv/bin/python
	# shellcheck source=../../live/lib/services.sh
	. "$live/lib/services.sh"
	export LIVE_S3_URL=http://$LANE_IP:9000 LIVE_REST_URL=http://$LANE_IP:8181
	S3_URL=$LIVE_S3_URL
	svc_start s3 "$PY" "$live/py/s3_server.py" 0.0.0.0 9000
	wait_http s3 "$S3_URL/" 60 >/dev/null || { fail "moto S3 did not start"; return 1; }
	"$PY" -c 'import sys, boto3
s3 = boto3.client("s3", endpoint_url=sys.argv[1])
for b in ("warehouse", "lake", "flink-state"): s3.create_bucket(Bucket=b)' "$S3_URL" ||
		{ fail "moto: buckets"; return 1; }
	svc_start s3-gate "$PY" "$K8S_HERE/lib/s3-gate.py" 0.0.0.0 9002 http://127.0.0.1:9000 "$CHECK_DIR/s3-deny"
	wait_http s3-gate "http://$LANE_IP:9002/" 60 >/dev/null || { fail "the S3 gate did not start"; return 1; }
	start_rest >/dev/null || { fail "the Iceberg REST catalog did not start: $(tail -n 5 "$LIVE_RUN/logs/rest.log")"; return 1; }
	# Kafka: the live lane's properties, PLAINTEXT only, advertised on the bridge.
	local props=$LIVE_RUN/kafka.properties dir=$LIVE_RUN/kafka cp id
	cp=$(cat "$LIVE_CP/kafka.classpath")
	mkdir -p "$dir"
	sed -e "s#^listeners=.*#listeners=PLAINTEXT://0.0.0.0:9092,CONTROLLER://127.0.0.1:9093#" \
		-e "s#^advertised.listeners=.*#advertised.listeners=PLAINTEXT://$LANE_IP:9092#" \
		-e "s#^listener.security.protocol.map=.*#listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT#" \
		-e '/sasl/d; /ssl/d' "$live/conf/kafka.properties" >"$props"
	echo "log.dirs=$dir/data" >>"$props"
	id=$("$PY" -c 'import base64, uuid; print(base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("="))')
	java -Xmx256m -cp "$cp" kafka.tools.StorageTool format -t "$id" -c "$props" >"$LIVE_RUN/logs/kafka-format.log" 2>&1 ||
		{ fail "kafka storage format: $(tail -n 5 "$LIVE_RUN/logs/kafka-format.log")"; return 1; }
	KAFKA_BOOTSTRAP=$LANE_IP:9092
	svc_start kafka java -XX:+UseSerialGC -Xmx512m -cp "$cp" \
		-Dlog4j2.configurationFile="$live/conf/log4j2-kafka.properties" kafka.Kafka "$props"
	wait_until kafka 120 kafka_probe >/dev/null || { fail "Kafka did not start: $(tail -n 5 "$LIVE_RUN/logs/kafka.log")"; return 1; }
}

# st_produce N SEED : N more records to the topic; the check's state file
# (every record so far, with its partition and offset) grows by them.
st_produce() {
	must "produce $1 records" "$PY" "$LIVE_PY_DIR/lanecheck.py" produce --bootstrap "$KAFKA_BOOTSTRAP" \
		--dataset orders --contract "$ORACLE_CONTRACT" --key-col order_key --topic "$ST_TOPIC" \
		--count "$1" --seed "$2" --state "$CHECK_DIR/batch.pkl" || return
	"$PY" - "$CHECK_DIR/batch.pkl" "$CHECK_DIR/records.pkl" <<'PYEOF' || { fail "merge the records"; return 1; }
import os, pickle, sys
new = pickle.load(open(sys.argv[1], "rb"))
if os.path.exists(sys.argv[2]):
    all_ = pickle.load(open(sys.argv[2], "rb"))
    all_["records"] += new["records"]
else:
    all_ = new
for i, r in enumerate(all_["records"]):
    r["i"] = i
seen = {(r["partition"], r["offset"]) for r in all_["records"]}
assert len(seen) == len(all_["records"]), "a partition/offset twice"
pickle.dump(all_, open(sys.argv[2], "wb"))
PYEOF
	PRODUCED=$("$PY" -c 'import pickle, sys; print(len(pickle.load(open(sys.argv[1], "rb"))["records"]))' "$CHECK_DIR/records.pkl")
}

# The table's row count (0 while it does not exist).
st_rows() {
	"$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import livelib as L
try:
    t, rows = L.read_table(sys.argv[2]); print(len(rows))
except Exception:
    print(0)' "$LIVE_PY_DIR" "$ST_TABLE"
}

# The JobManager's REST address: the rest Service's ready endpoint.
st_jm() { kc -n "$CHECK_NS" get endpoints "$NAME-rest" -o jsonpath='{.subsets[0].addresses[0].ip}'; }
st_flink() { curl -sf --max-time 10 "http://$(st_jm):8081$1"; }

# st_landed WHAT : every record produced so far lands exactly once (the
# oracle compares the whole table); checkpoints are triggered through
# Flink's REST API meanwhile, so the sink commits without waiting a minute.
st_landed() {
	local what=$1 n job rows=0
	job=$(jq -r '.status.jobStatus.jobId' "$CHECK_DIR/fd.json")
	for (( n=0; n<60; n++ )); do
		rows=$(st_rows)
		[ "$rows" -ge "$PRODUCED" ] 2>/dev/null && break
		curl -sf --max-time 10 -X POST -H 'Content-Type: application/json' -d '{}' \
			"http://$(st_jm):8081/jobs/$job/checkpoints" >/dev/null 2>&1
		sleep 5
	done
	[ "$rows" -ge "$PRODUCED" ] 2>/dev/null ||
		{ fail "$what: $rows rows in the table, $PRODUCED records produced, after 300 s"; return 1; }
	try "$PY" "$LIVE_PY_DIR/lanecheck.py" verify --shape landed --state "$CHECK_DIR/records.pkl" \
		--contract "$ORACLE_CONTRACT" ||
		{ fail "$what: the oracle: $(grep -m5 'lanecheck' "$OUT" | tr '\n' ' ' | head -c 800)"; return 1; }
	echo "k8s:     $what: $PRODUCED records, each once in the table (the oracle)"
}

st_running() {
	op_wait "$1: the job runs" "${2:-600}" \
		'.status.lifecycleState == "STABLE" and .status.jobStatus.state == "RUNNING" and
		 (.status.observedGeneration // .metadata.generation) == .metadata.generation' || return
	local d
	d=$(st_jm) || d=
	[ -n "$d" ] || { fail "$1: no ready JobManager endpoint"; return 1; }
}

st_apply() {
	fluid_plan "$1" amend "$CHECK_DIR/plan-$2.json" || return
	try fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST="example.com,kafka,$LANE_IP" \
		"$FLUID_BIN/fluid" apply --mode amend --yes "$CHECK_DIR/plan-$2.json"
}

check_operator_stream_lifecycle() {
	trap 'svc_stop_all >/dev/null 2>&1' EXIT
	trap 'exit 143' TERM
	op_prereqs || return
	st_services || return
	local c1 c2 cs cr job1 job2
	c1=$(st_contract v1) || return
	c2=$(st_contract v2) || return
	ORACLE_CONTRACT=$c1
	must "create topic $ST_TOPIC" "$PY" "$LIVE_PY_DIR/upgradecheck.py" --bootstrap "$KAFKA_BOOTSTRAP" topic \
		--topic "$ST_TOPIC" --partitions 2 || return
	st_produce 40 11 || return

	# 1. Deploy: the operator, the pods, the job, the rows, fluid verify.
	st_apply "$c1" v1 || { fail "fluid apply: $(head -c 600 "$ERR")"; return 1; }
	NAME=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan-v1.json")
	st_running "first deployment" 900 || return
	job1=$(jq -r .status.jobStatus.jobId "$CHECK_DIR/fd.json")
	st_landed "first deployment" || return
	try fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST="example.com,kafka,$LANE_IP" \
		"$FLUID_BIN/fluid" verify --strict --streaming-timeout 120 --out "$CHECK_DIR/verify.json" "$c1"
	eq "fluid verify --strict on the real operator: exit (stdout: $(head -c 400 "$OUT"); stderr: $(head -c 600 "$ERR"))" "$?" 0 || return

	# 2. A non-breaking change (an optional stream field): savepoint upgrade.
	try "$FLUID_BIN/fluid" diff --exit-on-breaking --baseline "$c1" "$c2"
	eq "fluid diff v1 v2: exit" "$?" 0 || return
	eq "fluid diff: every change non-breaking" "$(jq -c '[.counts.breaking, .counts["non-breaking"], ([.changes[].severity] | unique)]' "$OUT")" \
		'[0,1,["non-breaking"]]' || return
	st_produce 20 12 || return
	st_apply "$c2" v2 || { fail "fluid apply v2: $(head -c 600 "$ERR")"; return 1; }
	st_running "after the upgrade" 900 || return
	job2=$(jq -r .status.jobStatus.jobId "$CHECK_DIR/fd.json")
	[ "$job2" != "$job1" ] || { fail "the upgrade did not start a new job ($job1)"; return 1; }
	jq -e '.status.jobStatus.upgradeSavepointPath // .status.jobStatus.savepointInfo.lastSavepoint.location // empty | test("^s3://flink-state/")' \
		"$CHECK_DIR/fd.json" >/dev/null ||
		{ fail "the upgrade left no savepoint on S3: $(jq -c .status.jobStatus "$CHECK_DIR/fd.json" | head -c 600)"; return 1; }
	st_produce 20 13 || return
	st_landed "across the savepoint upgrade" || return

	# 3. Suspended, then running.
	cs=${c1%.fluid.yaml}-suspended.fluid.yaml
	sed "s/^\( *\)context: $K8S_CONTEXT$/&\n\1state: suspended/" "$c2" >"$cs"
	st_apply "$cs" suspended || { fail "fluid apply suspended: $(head -c 600 "$ERR")"; return 1; }
	op_wait "suspended" 600 '.status.lifecycleState == "SUSPENDED"' || return
	st_produce 20 14 || return
	st_apply "$c2" resumed || { fail "fluid apply resumed: $(head -c 600 "$ERR")"; return 1; }
	st_running "resumed" 900 || return
	st_landed "across suspend and resume" || return

	# 4. The JobManager's process killed.
	local jmpod jmip pid p
	jmip=$(st_jm)
	for p in /proc/[0-9]*; do
		tr '\0' '\n' <"$p/cmdline" 2>/dev/null | grep -qx 'org.apache.flink.kubernetes.entrypoint.KubernetesApplicationClusterEntrypoint' || continue
		tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qx "_POD_IP_ADDRESS=$jmip" || continue
		pid=${p#/proc/}
	done
	[ -n "${pid:-}" ] || { fail "no JobManager process with the pod address $jmip"; return 1; }
	jmpod=$(kc -n "$CHECK_NS" get pods -l "app=$NAME,component=jobmanager" -o jsonpath='{.items[0].metadata.name}')
	kill -KILL "$pid"
	echo "k8s:     killed the JobManager (pid $pid, pod $jmpod)"
	st_produce 20 15 || return
	local n restarts=0
	for (( n=0; n<120; n++ )); do
		restarts=$(kc -n "$CHECK_NS" get pod "$jmpod" -o jsonpath='{.status.containerStatuses[0].restartCount}' 2>/dev/null)
		[ "${restarts:-0}" -ge 1 ] 2>/dev/null && break
		sleep 1
	done
	[ "${restarts:-0}" -ge 1 ] 2>/dev/null || { fail "the JobManager's container was not restarted"; return 1; }
	st_running "after the JobManager's loss" 900 || return
	st_landed "across the JobManager's loss" || return

	# 5. The savepoint location unwritable (the gate refuses every write
	#    under it; checkpoints and HA still work).
	local spdir
	spdir=$(jq -r '.spec.flinkConfiguration["state.savepoints.dir"]' "$CHECK_DIR/fd.json")
	case $spdir in s3://flink-state/*) ;; *) fail "savepoint dir: '$spdir'"; return 1 ;; esac
	echo "/flink-state/${spdir#s3://flink-state/}" >"$CHECK_DIR/s3-deny"
	cr=${c1%.fluid.yaml}-v3.fluid.yaml
	sed "s/^\( *\)context: $K8S_CONTEXT$/&\n\1state: suspended/" "$c2" >"$cr"
	st_apply "$cr" failing || { fail "fluid apply (the change that needs a savepoint): $(head -c 600 "$ERR")"; return 1; }
	op_wait "the operator reports the failed savepoint" 600 '(.status.error // "") | length > 0' || return
	echo "k8s:     the operator reports: $(jq -r .status.error "$CHECK_DIR/fd.json" | head -c 300)"
	st_apply "$c1" after-failure
	eq "fluid apply after a failed savepoint: exit (stderr: $(head -c 400 "$ERR"))" "$?" 1 || return
	grep -q 'savepoint' "$ERR" || { fail "fluid apply does not say why: $(head -c 600 "$ERR")"; return 1; }
	calls_clean
}
