# SPDX-License-Identifier: Apache-2.0
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
#      verify --strict passes on the operator's status and a real checkpoint
#      through the service proxy, the filters' pipeline gives what fluid
#      verify gives, and verify's refusals (another schema, an old
#      snapshot) and OAuth2 through TLS hold on the running job;
#   2. a non-breaking change (fluid diff says so) applied: the operator
#      stops with a savepoint on S3 and restores; exactly once across it;
#   3. state: suspended, then running: suspended with a savepoint, resumed
#      from it; exactly once;
#   4. the JobManager's process killed: the process kubelet's restart and
#      Kubernetes HA bring the same job back from its latest checkpoint;
#      exactly once;
#   5. the savepoint location made unwritable: the suspension's savepoint
#      fails; the operator reports it, and fluid apply refuses to change
#      the job, saying why; once writable, suspended and resumed; exactly
#      once.
# "Exactly once" is the oracle and the partition/offset accounting after
# each step: every record produced so far in the table once.
#
# The state's S3 endpoint: the lane gives it to every deployment as the
# operator's default configuration (lib/cluster.sh start_operator: s3.endpoint
# on the bridge, port 9002, path-style), as a platform team would; there
# lib/s3-gate.py relays to moto, and makes the savepoint location
# unwritable when step 5 asks it to.

# operator check_operator_stream_lifecycle
# timeout-s check_operator_stream_lifecycle 2400

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
		--id-col event_id --id-from "${PRODUCED:-0}" \
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
	local what=$1 n job rows=0 t=$(date +%s)
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
	echo "k8s:     $what: $rows rows in the table after $(( $(date +%s) - t )) s"
	try "$PY" "$LIVE_PY_DIR/lanecheck.py" verify --shape landed --state "$CHECK_DIR/records.pkl" \
		--contract "$ORACLE_CONTRACT" --key event_id ||
		{ fail "$what: the oracle: $(grep -m5 'lanecheck' "$OUT" | tr '\n' ' ' | head -c 800)"; return 1; }
	st_accounting "$what" || return
	echo "k8s:     $what: $PRODUCED records, each once in the table (the oracle)"
}

# st_accounting WHAT : every record produced so far, by its Kafka partition
# and offset, is in the table exactly once, and no row was never produced
# (the live lane's upgrade accounting); $CHECK_DIR/jobs.txt gets the Flink
# jobs that committed, in commit order (the snapshots' flink.job-id).
st_accounting() {
	try "$PY" - "$LIVE_PY_DIR" "$ST_TABLE" "$CHECK_DIR/records.pkl" "$CHECK_DIR/jobs.txt" <<'PYEOF'
import collections, pickle, sys
sys.path.insert(0, sys.argv[1])
import livelib as L
recs = pickle.load(open(sys.argv[3], "rb"))["records"]
t = L.catalog().load_table(sys.argv[2])
rows = t.scan(selected_fields=("kafka_partition", "kafka_offset")).to_arrow().to_pylist()
landed = collections.Counter((r["kafka_partition"], r["kafka_offset"]) for r in rows)
produced = {(r["partition"], r["offset"]) for r in recs}
missing = sorted(k for k in produced if landed[k] == 0)
dup = sorted(k for k, n in landed.items() if n > 1)
extra = sorted(k for k in landed if k not in produced)
jobs = []
for s in sorted(t.snapshots(), key=lambda s: s.sequence_number):
    j = (s.summary.additional_properties if s.summary else {}).get("flink.job-id")
    if j and j not in jobs:
        jobs.append(j)
open(sys.argv[4], "w").write("\n".join(jobs) + "\n")
print(f"accounting: {len(produced)} records produced on {len({p for p, _ in produced})} partitions, "
      f"{sum(landed.values())} rows; missing {len(missing)} {missing[:3]}, duplicated {len(dup)} {dup[:3]}, "
      f"never produced {len(extra)} {extra[:3]}; committed by {len(jobs)} jobs")
sys.exit(1 if missing or dup or extra or len(produced) != len(recs) else 0)
PYEOF
	local rc=$?
	echo "k8s:     $1: $(grep -m1 '^accounting:' "$OUT")"
	[ "$rc" -eq 0 ] || { fail "$1: partition/offset accounting: $(grep -m1 '^accounting:' "$OUT") $(tail -n 3 "$ERR")"; return 1; }
}

# st_running WHAT [SECONDS] : the operator reports the job STABLE and
# RUNNING with the current generation reconciled, and the JobManager that
# the rest Service's ready endpoint leads to runs that job (Flink's own
# REST API says RUNNING): a status left from before a loss is not enough.
st_running() {
	local what=$1 secs=${2:-600} deadline job state=
	deadline=$(( $(date +%s) + secs ))
	while :; do
		if kc -n "$CHECK_NS" get flinkdeployment "$NAME" -o json >"$CHECK_DIR/fd.json" 2>/dev/null &&
			jq -e '.status.lifecycleState == "STABLE" and .status.jobStatus.state == "RUNNING" and
				(.status.observedGeneration // .metadata.generation) == .metadata.generation' \
				"$CHECK_DIR/fd.json" >/dev/null 2>&1; then
			job=$(jq -r .status.jobStatus.jobId "$CHECK_DIR/fd.json")
			state=$(st_flink "/jobs/$job" 2>/dev/null | jq -r .state 2>/dev/null)
			if [ "$state" = RUNNING ]; then
				echo "k8s:     $what: the job runs after $(( $(date +%s) - deadline + secs )) s"
				return 0
			fi
		fi
		if [ "$(date +%s)" -ge "$deadline" ]; then
			fail "$what: the job runs: not within $secs s (Flink says '${state:-nothing}'); the operator's status: $(jq -c .status "$CHECK_DIR/fd.json" 2>/dev/null | head -c 600)"
			return 1
		fi
		sleep 2
	done
}

# st_apply CONTRACT TAG [MODE] : fluid plan and fluid apply --yes (amend,
# or MODE: amend-and-build when the script changes); apply waits for the
# operator to take the change (its default bound).
st_apply() {
	local mode=${3:-amend} t=$(date +%s) rc=0
	fluid_plan "$1" "$mode" "$CHECK_DIR/plan-$2.json" || return
	try fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST="example.com,kafka,$LANE_IP" \
		"$FLUID_BIN/fluid" apply --mode "$mode" --yes "$CHECK_DIR/plan-$2.json" || rc=$?
	echo "k8s:     fluid apply $2: exit $rc after $(( $(date +%s) - t )) s"
	return "$rc"
}

# st_verified JOB : fluid verify's report ($CHECK_DIR/verify.json) passes
# every piece, the deployment on the operator's status of job JOB and the
# checkpoint read through the API server's service proxy.
st_verified() {
	local v=$CHECK_DIR/verify.json
	eq "verify: outcome" "$(jq -r .outcome "$v")" pass || return
	eq "verify: pieces" "$(jq -c '[.builds[0].evidence[] | "\(.evidence) \(.outcome)"]' "$v")" \
		'["catalog-schema pass","catalog-snapshot pass","deployment pass","checkpoint pass"]' || return
	jq -e --arg j "$1" '.builds[0].evidence[] | select(.evidence == "deployment") | .detail |
		contains("lifecycleState STABLE, jobStatus.state RUNNING, job " + $j)' "$v" >/dev/null ||
		{ fail "verify: the deployment piece is not the operator's status of job $1: $(jq -c '.builds[0].evidence' "$v" | head -c 600)"; return 1; }
	eq "verify: the checkpoint through the service proxy" \
		"$(jq -r '.builds[0].evidence[] | select(.evidence == "checkpoint") | .endpoint' "$v")" \
		"kubectl --context=$K8S_CONTEXT get --raw /api/v1/namespaces/$CHECK_NS/services/$NAME-rest:rest/proxy/jobs/$1/checkpoints" || return
	echo "k8s:     fluid verify --strict: every piece passes on the operator's status and checkpoint of job $1"
}

# st_pipeline_same CONTRACT : the filters, fluid-resolve | fluid-check |
# fluid-sqlgen | fluid-k8s render | fluid-verify --strict, give what
# fluid verify --strict gives on the live job: the same exit status and
# standard error, byte for byte, and the same report.  fluid-verify writes
# the pipeline document with the report as its "verify" section (as
# tests/bats/fluid-verify.bats compares it, byte for byte, under a fixed
# clock); here two reads of a live job differ in their times (each
# piece's "at", startedAt, finishedAt, and the ages in the details), so the
# report is compared without them: every build, piece, outcome and
# endpoint.  Should fluid-verify print fluid verify's output instead (issue
# #28), the standard outputs are compared byte for byte.
st_pipeline_same() {
	local c=$1 d=$CHECK_DIR/pipe rc1 rc2 shape
	mkdir -p "$d"
	shape='[.outcome, .strict, .contract, .digest, (.builds[] | [.build, .product, .outcome,
		(.evidence[] | [.evidence, .outcome, .endpoint])])]'
	fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST="example.com,kafka,$LANE_IP" \
		"$FLUID_BIN/fluid" verify --strict --streaming-timeout 120 --out "$d/driver.json" "$c" \
		>"$d/driver.out" 2>"$d/driver.err"
	rc1=$?
	fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST="example.com,kafka,$LANE_IP" bash -c '
		set -o pipefail
		"$1/fluid-resolve" "$2" | "$1/fluid-check" | "$1/fluid-sqlgen" | "$1/fluid-k8s" render |
			"$1/fluid-verify" --strict --streaming-timeout 120' pipe "$FLUID_BIN" "$c" \
		>"$d/pipe.out" 2>"$d/pipe.err"
	rc2=$?
	eq "the pipeline's exit status (fluid verify's: $rc1)" "$rc2" "$rc1" || return
	cmp -s "$d/driver.err" "$d/pipe.err" ||
		{ fail "the pipeline's standard error differs from fluid verify's: $(diff "$d/driver.err" "$d/pipe.err" | head -c 600)"; return 1; }
	if jq -e '.fluidIR and .verify' "$d/pipe.out" >/dev/null 2>&1; then
		jq -c ".verify | $shape" "$d/pipe.out" >"$d/pipe.report"
		jq -c "$shape" "$d/driver.json" >"$d/driver.report"
		cmp -s "$d/driver.report" "$d/pipe.report" ||
			{ fail "the pipeline's report differs from fluid verify's: $(diff "$d/driver.report" "$d/pipe.report" | head -c 600)"; return 1; }
		echo "k8s:     fluid-resolve | fluid-check | fluid-sqlgen | fluid-k8s render | fluid-verify --strict: exit $rc2, the same standard error and report as fluid verify --strict: $(head -c 300 "$d/pipe.report")"
	else
		cmp -s "$d/driver.out" "$d/pipe.out" ||
			{ fail "the pipeline's standard output differs from fluid verify's: $(diff "$d/driver.out" "$d/pipe.out" | head -c 600)"; return 1; }
		echo "k8s:     fluid-resolve | fluid-check | fluid-sqlgen | fluid-k8s render | fluid-verify --strict: exit $rc2, byte for byte fluid verify --strict's output"
	fi
}

# st_verify TAG CONTRACT TIMEOUT [VAR=VALUE...] : fluid verify --strict
# --streaming-timeout TIMEOUT of CONTRACT, with the variables; its status
# in RC, the report in $CHECK_DIR/verify-TAG.json.
st_verify() {
	local tag=$1 c=$2 t=$3; shift 3
	try fluid_env env FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST="example.com,kafka,$LANE_IP,127.0.0.1" \
		"$@" "$FLUID_BIN/fluid" verify --strict --streaming-timeout "$t" --out "$CHECK_DIR/verify-$tag.json" "$c"
	RC=$?
	echo "k8s:     verify $tag: exit $RC: $(tr '\n' ' ' <"$OUT")"
}

# st_piece TAG EVIDENCE OUTCOME : that piece of verify-TAG.json came out so.
st_piece() {
	eq "verify $1: $2" "$(jq -r --arg e "$2" '.builds[0].evidence[] | select(.evidence == $e) | .outcome' \
		"$CHECK_DIR/verify-$1.json")" "$3"
}

# st_verify_variants CONTRACT : on the same running job, fluid verify
# --strict passes with the catalog behind OAuth2 (its own token route)
# and TLS (a relay with a CA of the check's), and fails, each with its
# reason, when the table's schema is not the contract's and when no
# snapshot is young enough.  No file of the run holds the client secret
# or the token.
st_verify_variants() {
	local c=$1 d=$CHECK_DIR/tls ca cs co secret token hits
	mkdir -p "$d"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=lane-check-ca \
		-keyout "$d/ca.key" -out "$d/ca.crt" -addext basicConstraints=critical,CA:TRUE \
		-addext keyUsage=critical,keyCertSign >/dev/null 2>&1 &&
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
		-keyout "$d/srv.key" -out "$d/srv.csr" >/dev/null 2>&1 &&
	openssl x509 -req -in "$d/srv.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 1 \
		-extfile <(printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n') \
		-out "$d/srv.crt" >/dev/null 2>&1 || { fail "openssl: the catalog relay's certificate"; return 1; }
	svc_start relay-catalog "$PY" "$K8S_HERE/lib/tcp-relay.py" 127.0.0.1 8443 "$LANE_IP" 8181 "$d/srv.crt" "$d/srv.key"
	wait_until relay-catalog 30 curl -sf --cacert "$d/ca.crt" https://127.0.0.1:8443/v1/config >/dev/null ||
		{ fail "the catalog's TLS relay did not answer"; return 1; }
	secret=lane-secret-$(openssl rand -hex 12)
	ca=${c%.fluid.yaml}-oauth2.fluid.yaml
	sed -e "s#uri: http://$LANE_IP:8181#uri: https://127.0.0.1:8443#" \
		-e 's#^\( *\)catalogProperties:.*#&\n\1catalogAuth: {type: oauth2, credentialEnv: LANE_CATALOG_CREDENTIAL, oauth2ServerUri: "https://127.0.0.1:8443/v1/oauth/tokens", scope: catalog}#' \
		"$c" >"$ca"
	grep -q "type: oauth2" "$ca" && grep -q "uri: https://127.0.0.1:8443" "$ca" ||
		{ fail "test bug: no catalogAuth in $ca"; return 1; }
	token=$(curl -sf --cacert "$d/ca.crt" -d grant_type=client_credentials -d client_id=lane-client \
		-d "client_secret=$secret" -d scope=catalog https://127.0.0.1:8443/v1/oauth/tokens | jq -r .access_token)
	[ -n "$token" ] && [ "$token" != null ] || { fail "the catalog's token route gave no token"; return 1; }
	st_verify oauth2 "$ca" 60 LANE_CATALOG_CREDENTIAL="lane-client:$secret" FLUID_CA_BUNDLE="$d/ca.crt" \
		FLUID_ACQUISITION_SECRET_REF_ALLOWLIST="LANE_CATALOG_CREDENTIAL@127.0.0.1"
	eq "verify with OAuth2 through TLS: exit (stderr: $(head -c 600 "$ERR"))" "$RC" 0 || return
	case $(jq -r '.builds[0].evidence[] | select(.evidence == "catalog-schema") | .endpoint' "$CHECK_DIR/verify-oauth2.json") in
	https://127.0.0.1:8443/v1/*) ;;
	*) fail "verify with OAuth2 did not read the catalog through TLS: $(head -c 600 "$CHECK_DIR/verify-oauth2.json")"; return 1 ;;
	esac
	# The table's schema differs from the contract: the checkpoint passes.
	cs=${c%.fluid.yaml}-schema.fluid.yaml
	sed 's#{name: kafka_partition, type: int, required: true}#{name: kafka_partition, type: long, required: true}#' "$c" >"$cs"
	cmp -s "$c" "$cs" && { fail "test bug: the schema did not change"; return 1; }
	st_verify schema "$cs" 0
	eq "verify, another schema: exit" "$RC" 1 || return
	grep -q "error: Flink build land-upgrade-orders: catalog-schema: the table's schema differs from the contract: kafka_partition: long in the contract (Iceberg long), int in the table" "$ERR" ||
		{ fail "verify, another schema: not the reason: $(head -c 800 "$ERR")"; return 1; }
	st_piece schema checkpoint pass || return
	st_piece schema deployment pass || return
	# No snapshot young enough: a 1 s budget (no record since the last commit).
	co=${c%.fluid.yaml}-1s.fluid.yaml
	sed 's#maxSnapshotAgeSeconds: 900#maxSnapshotAgeSeconds: 1#' "$c" >"$co"
	cmp -s "$c" "$co" && { fail "test bug: the budget did not change"; return 1; }
	sleep 2.5
	st_verify old "$co" 0
	eq "verify, an old snapshot: exit" "$RC" 1 || return
	grep -q "error: Flink build land-upgrade-orders: catalog-snapshot: no snapshot is young enough: .* maxSnapshotAgeSeconds is 1" "$ERR" ||
		{ fail "verify, an old snapshot: not the reason: $(head -c 800 "$ERR")"; return 1; }
	st_piece old deployment pass || return
	hits=$(grep -rlF -e "$secret" -e "$token" "$CHECK_DIR" "$K8S_RUN/logs" 2>/dev/null)
	[ -z "$hits" ] || { fail "the client secret or the token is in: $hits"; return 1; }
	echo "k8s:     verify: OAuth2 through TLS passes; another schema and an old snapshot fail, each with its reason"
}

check_operator_stream_lifecycle() {
	trap 'svc_stop_all >/dev/null 2>&1' EXIT
	trap 'exit 143' TERM
	op_prereqs || return
	st_services || return
	local c1 c2 cs job1 job2 rc
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
	rc=$?
	eq "fluid verify --strict on the real operator: exit (stdout: $(head -c 400 "$OUT"); stderr: $(head -c 600 "$ERR"))" "$rc" 0 || return
	st_verified "$job1" || return
	st_pipeline_same "$c1" || return
	st_verify_variants "$c1" || return

	# 2. A non-breaking change (an optional stream field): savepoint upgrade.
	try "$FLUID_BIN/fluid" diff --exit-on-breaking --baseline "$c1" "$c2"
	eq "fluid diff v1 v2: exit" "$?" 0 || return
	eq "fluid diff: every change non-breaking" "$(jq -c '[.counts.breaking, .counts["non-breaking"], ([.changes[].severity] | unique)]' "$OUT")" \
		'[0,1,["non-breaking"]]' || return
	st_produce 20 12 || return
	st_apply "$c2" v2 amend-and-build || { fail "fluid apply v2: $(head -c 600 "$ERR")"; return 1; }
	st_running "after the upgrade" 900 || return
	job2=$(jq -r .status.jobStatus.jobId "$CHECK_DIR/fd.json")
	[ "$job2" != "$job1" ] || { fail "the upgrade did not start a new job ($job1)"; return 1; }
	jq -e '.status.jobStatus.upgradeSavepointPath // .status.jobStatus.savepointInfo.lastSavepoint.location // empty | test("^s3://flink-state/")' \
		"$CHECK_DIR/fd.json" >/dev/null ||
		{ fail "the upgrade left no savepoint on S3: $(jq -c .status.jobStatus "$CHECK_DIR/fd.json" | head -c 600)"; return 1; }
	st_produce 20 13 || return
	st_landed "across the savepoint upgrade" || return
	eq "the jobs that committed, in order (before and after the upgrade)" \
		"$(tr '\n' ' ' <"$CHECK_DIR/jobs.txt")" "$job1 $job2 " || return

	# 3. Suspended, then running.
	cs=${c1%.fluid.yaml}-suspended.fluid.yaml
	sed "s/^\( *\)context: $K8S_CONTEXT$/&\n\1state: suspended/" "$c2" >"$cs"
	st_apply "$cs" suspended || { fail "fluid apply suspended: $(head -c 600 "$ERR")"; return 1; }
	op_wait "suspended" 600 '.status.lifecycleState == "SUSPENDED"' || return
	jq -e '.status.jobStatus.upgradeSavepointPath // .status.jobStatus.savepointInfo.lastSavepoint.location // empty | test("^s3://flink-state/")' \
		"$CHECK_DIR/fd.json" >/dev/null ||
		{ fail "suspended without a savepoint on S3: $(jq -c .status.jobStatus "$CHECK_DIR/fd.json" | head -c 600)"; return 1; }
	# fluid verify judges the operator's suspended job (SUSPENDED, the job
	# FINISHED by its stop-with-savepoint) as the contract says.
	st_verify suspended "$cs" 0
	st_piece suspended deployment pass || { fail "$(jq -c '.builds[0].evidence[] | select(.evidence == "deployment")' "$CHECK_DIR/verify-suspended.json" | head -c 600)"; return 1; }
	echo "k8s:     suspended: $(jq -r '.builds[0].evidence[] | select(.evidence == "deployment") | .detail' "$CHECK_DIR/verify-suspended.json" | head -c 300)"
	st_produce 20 14 || return
	st_apply "$c2" resumed || { fail "fluid apply resumed: $(head -c 600 "$ERR")"; return 1; }
	st_running "resumed" 900 || return
	st_landed "across suspend and resume" || return

	# 4. The JobManager's process killed.
	local jmpod jmip pid p job3
	job3=$(jq -r .status.jobStatus.jobId "$CHECK_DIR/fd.json")
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
	# Kubernetes HA: the restarted JobManager recovers the same job (its
	# id from the HA ConfigMaps) from its latest checkpoint.
	eq "the job after the JobManager's loss (HA recovers it)" "$(jq -r .status.jobStatus.jobId "$CHECK_DIR/fd.json")" "$job3" || return
	local restored
	restored=$(st_flink "/jobs/$job3/checkpoints" | jq -r '.latest.restored.external_path // empty')
	case $restored in
	s3://flink-state/*) echo "k8s:     the JobManager's loss: job $job3 restored from $restored" ;;
	*) fail "after the JobManager's loss the job was not restored from a checkpoint on S3: '$restored'"; return 1 ;;
	esac
	st_landed "across the JobManager's loss" || return

	# 5. The savepoint location unwritable (the gate refuses every write
	#    under it; checkpoints and HA still work): the suspension's
	#    stop-with-savepoint fails, the operator says so, and fluid apply
	#    refuses to start the job again without its state.
	local spdir ncalls
	spdir=$(jq -r '.spec.flinkConfiguration | .["execution.checkpointing.savepoint-dir"] // .["state.savepoints.dir"]' "$CHECK_DIR/fd.json")
	case $spdir in s3://flink-state/*) ;; *) fail "savepoint dir: '$spdir'"; return 1 ;; esac
	echo "/flink-state/${spdir#s3://flink-state/}" >"$CHECK_DIR/s3-deny"
	st_apply "$cs" failing || { fail "fluid apply (the change that needs a savepoint): $(head -c 600 "$ERR")"; return 1; }
	op_wait "the operator reports the failed savepoint" 600 '(.status.error // "") | test("avepoint")' || return
	echo "k8s:     the operator reports: $(jq -r .status.error "$CHECK_DIR/fd.json" | head -c 600)"
	echo "k8s:     generation $(jq .metadata.generation "$CHECK_DIR/fd.json"), status.observedGeneration $(jq .status.observedGeneration "$CHECK_DIR/fd.json")"
	grep -q "s3-gate: denied" "$LIVE_RUN/logs/s3-gate.log" ||
		{ fail "the savepoint failed, but not at the gate: $(jq -r .status.error "$CHECK_DIR/fd.json" | head -c 600)"; return 1; }
	ncalls=$(wc -l <"$CHECK_DIR/calls.log")
	st_apply "$c2" after-failure
	rc=$?
	eq "fluid apply after a failed savepoint: exit (stderr: $(head -c 600 "$ERR"))" "$rc" 1 || return
	# Said from status.error, or, when the operator has cleared it before
	# its next attempt, from its SavepointError Event since it last took a
	# spec (a Normal Suspended follows as each new attempt starts).
	grep -Eq "FlinkDeployment $CHECK_NS/$NAME: the operator reports a failed savepoint \((status.error: .*avepoint.*|its event SavepointError since it last took a spec: .*)\).*fluid changes no job whose state could be lost" "$ERR" ||
		{ fail "fluid apply does not say why: $(head -c 600 "$ERR")"; return 1; }
	if tail -n +"$((ncalls + 1))" "$CHECK_DIR/calls.log" | grep -q ' apply '; then
		fail "fluid apply wrote after the refusal: $(tail -n +"$((ncalls + 1))" "$CHECK_DIR/calls.log" | grep ' apply ' | head -c 300)"
		return 1
	fi
	eq "the live spec after the refusal" "$(kc -n "$CHECK_NS" get flinkdeployment "$NAME" -o jsonpath='{.spec.job.state}')" suspended || return
	echo "k8s:     fluid apply refused: $(grep -m1 'failed savepoint' "$ERR" | head -c 400)"
	# The location writable again: the operator's next attempt suspends
	# the job with a savepoint, and the job resumes from it.
	rm -f "$CHECK_DIR/s3-deny"
	op_wait "suspended once the savepoint location is writable" 600 \
		'.status.lifecycleState == "SUSPENDED" and (.status.error // "") == ""' || return
	st_produce 20 16 || return
	st_apply "$c2" resumed-again || { fail "fluid apply once resolved: $(head -c 600 "$ERR")"; return 1; }
	st_running "resumed after the failed savepoint" 900 || return
	st_landed "across the failed savepoint" || return
	calls_clean
}
