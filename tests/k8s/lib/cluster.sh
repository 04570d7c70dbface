# SPDX-License-Identifier: Apache-2.0
# tests/k8s/lib/cluster.sh - the lane's cluster: its bridge, keys and
# certificates, etcd, kube-apiserver, the kubeconfigs, the operator's CRDs,
# kube-controller-manager, kube-scheduler and the Flink Kubernetes operator.
# Sourced by tests/k8s/lane.sh inside the lane's own network, PID and mount
# namespaces.  Needs K8S_RUN (this run's directory), K8S_BIN (etcd,
# kube-apiserver, kubectl, kube-controller-manager, kube-scheduler) and
# K8S_OPERATOR (the operator's jars and crd/, tests/k8s/build-operator).
#
# Readiness is always a probe with a deadline (wait_until): no fixed sleeps.
# Every process started here is recorded in SVC_PIDS and stopped by
# svc_stop_all (TERM, then KILL after a bounded wait).

LOGS=$K8S_RUN/logs
PKI=$K8S_RUN/pki
mkdir -p "$LOGS" "$PKI"
PROCS_TAG=k8s PROCS_ROOT=$K8S_RUN
# svc_start, svc_pid, wait_until, svc_stop_all, log_tails: the live lane's
# own (one copy for both lanes).
# shellcheck source=../../live/lib/procs.sh
. "$K8S_HERE/../live/lib/procs.sh"

ETCD_URL=http://127.0.0.1:2379
API_URL=https://127.0.0.1:6443
# The lane's bridge: the API server's address as pods (and the operator)
# see it; the process kubelet puts each pod's veth on it.
LANE_BRIDGE=lane0
LANE_IP=10.244.0.1
LANE_POD_CIDR=10.244.0.0/16
SERVICE_CIDR=10.96.0.0/24
SERVICE_API_IP=10.96.0.1
# What the controllers, the scheduler, the kubelet and the operator use: an
# RSA client certificate (the operator's Java clients cannot read the P-256
# key), current-context set.
SYSTEM_KUBECONFIG=$K8S_RUN/kubeconfig-system
OPERATOR_HEALTH_PORT=8085
FLINK_JAVA17_OPTS="--add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED"
# The context the contracts name; the kubeconfig has no current-context, so
# a kubectl call without --context never reaches the lane's server.
K8S_CONTEXT=fluid-lane
KUBECONFIG_FILE=$K8S_RUN/kubeconfig
KUBE_CACHE=$K8S_RUN/kube-cache

# --- keys and certificates ---------------------------------------------------
# One CA signs the API server's serving certificate (IP:127.0.0.1) and the
# admin's client certificate (O=system:masters: every RBAC check passes).
# The service-account pair signs and verifies tokens.  All valid for a day,
# all made afresh per run.
# pki_sign NAME SUBJECT EXTENSIONS [rsa] : a key (P-256, or RSA-2048) and a
# certificate by the CA.
pki_sign() {
	local name=$1 subj=$2 ext=$3 kt=(-newkey ec -pkeyopt ec_paramgen_curve:P-256)
	[ "${4:-}" = rsa ] && kt=(-newkey rsa:2048)
	openssl req -new "${kt[@]}" -nodes \
		-keyout "$PKI/$name.key" -subj "$subj" -out "$PKI/$name.csr" 2>>"$LOGS/pki.log" &&
	printf '%s\n' "$ext" >"$PKI/$name.ext" &&
	openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" \
		-CAcreateserial -days 1 -sha256 -extfile "$PKI/$name.ext" \
		-out "$PKI/$name.crt" 2>>"$LOGS/pki.log"
}

make_pki() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$PKI/ca.key" -out "$PKI/ca.crt" -days 1 -subj "/CN=fluid-lane-ca" \
		-addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign" 2>>"$LOGS/pki.log" || return 1
	pki_sign apiserver "/CN=kube-apiserver" \
		"$(printf '%s\n' "subjectAltName=IP:127.0.0.1,IP:$LANE_IP,IP:$SERVICE_API_IP,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local" \
			"keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth")" || return 1
	pki_sign admin "/O=system:masters/CN=fluid-lane-admin" \
		"$(printf '%s\n' "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=clientAuth")" || return 1
	pki_sign system "/O=system:masters/CN=fluid-lane-system" \
		"$(printf '%s\n' "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=clientAuth")" rsa || return 1
	openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$PKI/sa.key" 2>>"$LOGS/pki.log" &&
	openssl pkey -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>>"$LOGS/pki.log"
}

# --- etcd ------------------------------------------------------------------------
etcd_healthy() { curl -sf --max-time 2 "$ETCD_URL/health" | grep -q '"health":"true"'; }

start_etcd() {
	# --unsafe-no-fsync: the lane's data dies with the run; fsync only costs time.
	svc_start etcd "$K8S_BIN/etcd" --name lane --data-dir "$K8S_RUN/etcd" \
		--listen-client-urls "$ETCD_URL" --advertise-client-urls "$ETCD_URL" \
		--listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
		--initial-cluster lane=http://127.0.0.1:2380 \
		--unsafe-no-fsync --log-level warn
	wait_until etcd 60 etcd_healthy
}

# --- kube-apiserver ---------------------------------------------------------------
api_ready() {
	curl -sf --max-time 3 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
		"$API_URL/readyz" | grep -qx ok
}

# --- the lane's bridge ----------------------------------------------------------
# The API server is reached beyond the loopback, at LANE_IP, by the pods
# (each in a network namespace of its own, a veth on this bridge).
make_bridge() {
	ip link add "$LANE_BRIDGE" type bridge &&
	ip addr add "$LANE_IP/16" dev "$LANE_BRIDGE" &&
	ip link set "$LANE_BRIDGE" up
}

start_apiserver() {
	# Bound on every address of the lane's namespace (the loopback and the
	# bridge); it maintains the kubernetes Service's endpoints (LANE_IP).
	svc_start kube-apiserver "$K8S_BIN/kube-apiserver" \
		--etcd-servers="$ETCD_URL" \
		--bind-address=0.0.0.0 --advertise-address="$LANE_IP" --secure-port=6443 \
		--cert-dir="$K8S_RUN/apiserver" \
		--tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
		--client-ca-file="$PKI/ca.crt" \
		--service-account-issuer=https://kubernetes.default.svc.cluster.local \
		--service-account-key-file="$PKI/sa.pub" \
		--service-account-signing-key-file="$PKI/sa.key" \
		--authorization-mode=RBAC \
		--service-cluster-ip-range="$SERVICE_CIDR" \
		--profiling=false
	wait_until kube-apiserver 120 api_ready
}

# --- kubeconfig and kubectl --------------------------------------------------------
make_kubeconfig() {
	local k=("$K8S_BIN/kubectl" --kubeconfig="$KUBECONFIG_FILE")
	"${k[@]}" config set-cluster lane --server="$API_URL" \
		--certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null &&
	"${k[@]}" config set-credentials lane-admin \
		--client-certificate="$PKI/admin.crt" --client-key="$PKI/admin.key" --embed-certs=true >/dev/null &&
	"${k[@]}" config set-context "$K8S_CONTEXT" --cluster=lane --user=lane-admin >/dev/null || return
	# The components': the bridge address, the RSA certificate, a current-context.
	k=("$K8S_BIN/kubectl" --kubeconfig="$SYSTEM_KUBECONFIG")
	"${k[@]}" config set-cluster lane --server="https://$LANE_IP:6443" \
		--certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null &&
	"${k[@]}" config set-credentials lane-system \
		--client-certificate="$PKI/system.crt" --client-key="$PKI/system.key" --embed-certs=true >/dev/null &&
	"${k[@]}" config set-context "$K8S_CONTEXT" --cluster=lane --user=lane-system >/dev/null &&
	"${k[@]}" config use-context "$K8S_CONTEXT" >/dev/null
}

# The lane's own kubectl: the context named, each request bounded, and an
# overall deadline (--request-timeout bounds each request, not the command).
kc() {
	timeout -k 5 "${KC_DEADLINE_S:-60}" "$K8S_BIN/kubectl" --kubeconfig="$KUBECONFIG_FILE" \
		--context="$K8S_CONTEXT" --request-timeout="${KC_REQUEST_TIMEOUT:-10s}" \
		--cache-dir="$KUBE_CACHE" "$@"
}

# --- the operator's CRDs -----------------------------------------------------------
# The three CRDs of the operator's own 1.13.0 build (tests/k8s/build-operator).
CRD_NAME=flinkdeployments.flink.apache.org
crd_established() {
	[ "$(kc get crd "$CRD_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Established")].status}')" = True ]
}
# Discovery serves the resource (what kubectl apply of a FlinkDeployment needs).
crd_discoverable() {
	kc get --raw /apis/flink.apache.org/v1beta1 | jq -e '.resources[] | select(.name == "flinkdeployments")'
}

install_crd() {
	kc apply --server-side -f "$K8S_OPERATOR/crd/" >"$LOGS/crd-apply.log" 2>&1 || {
		cat "$LOGS/crd-apply.log" >&2; return 1; }
	# kubectl wait --for=condition=Established fails on a brand-new CRD (no
	# condition yet): poll the condition instead.
	wait_until crd-established 60 crd_established &&
	wait_until crd-discovery 60 crd_discoverable
}

# --- kube-controller-manager and kube-scheduler -------------------------------------
# The controllers pods need (no node-lifecycle: the process kubelet's Node
# stays as it says; no nodeipam).
KCM_CONTROLLERS=deployment,replicaset,endpoint,endpointslice,garbagecollector,serviceaccount,serviceaccount-token,root-ca-cert-publisher,namespace,podgc
healthz() { curl -sfk --max-time 3 "https://127.0.0.1:$1/healthz" | grep -qx ok; }

start_controllers() {
	svc_start kube-controller-manager "$K8S_BIN/kube-controller-manager" \
		--kubeconfig="$SYSTEM_KUBECONFIG" \
		--controllers="$KCM_CONTROLLERS" \
		--service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
		--use-service-account-credentials=false --leader-elect=false \
		--bind-address=127.0.0.1 --secure-port=10257 --cert-dir="$K8S_RUN/kcm" \
		--profiling=false &&
	svc_start kube-scheduler "$K8S_BIN/kube-scheduler" \
		--kubeconfig="$SYSTEM_KUBECONFIG" --leader-elect=false \
		--bind-address=127.0.0.1 --secure-port=10259 \
		--profiling=false &&
	wait_until kube-controller-manager 120 healthz 10257 &&
	wait_until kube-scheduler 120 healthz 10259
}

# --- the process kubelet: STANDS IN FOR THE KUBELET AND THE CONTAINER RUNTIME ----------
# tests/k8s/kubelet (its README): a Ready Node, the Pods bound to it run as
# processes in per-Pod namespaces on the lane's bridge, the image the
# directory K8S_IMAGE (kubelet/image.sh, made by tests/k8s/run).  It maps
# Service names to ready endpoints in /etc/hosts of the lane's mount
# namespace (never the machine's: K8S_MACHINE_MNTNS is the machine's).
KUBELET_NODE=lane-node
KUBELET_STATE=$K8S_RUN/kubelet
kubelet_ready() { [ -s "$KUBELET_STATE/ready" ]; }

start_kubelet() {
	mkdir -p "$LOGS/kubelet" "$KUBELET_STATE"
	svc_start kubelet "$K8S_HERE/kubelet/start.sh" --foreground \
		--kubeconfig "$SYSTEM_KUBECONFIG" --context "$K8S_CONTEXT" --kubectl "$K8S_BIN/kubectl" \
		--node "$KUBELET_NODE" --pod-cidr "$LANE_POD_CIDR" --bridge "$LANE_BRIDGE" \
		--image-dir "${K8S_IMAGE:?}" --log-dir "$LOGS/kubelet" --state-dir "$KUBELET_STATE" \
		--bind-etc-hosts "${K8S_MACHINE_MNTNS:?}"
	wait_until kubelet 120 kubelet_ready
}

# --- the Flink Kubernetes operator --------------------------------------------------
# Out of the cluster, on the lane's bridge address, watching OPERATOR_WATCHED
# (the namespaces of the checks that run on it, comma-separated).  Ready is
# its health probe answering (its JVM outlives a failed start, so its process
# says nothing).  KUBERNETES_SERVICE_HOST: unset, the operator replaces
# every JobManager address by localhost.
operator_healthy() { curl -sf --max-time 3 "http://127.0.0.1:$OPERATOR_HEALTH_PORT/" >/dev/null; }

start_operator() {
	local conf=$K8S_RUN/operator/conf
	mkdir -p "$conf" "$K8S_RUN/operator/tmp"
	kc create namespace flink-operator >/dev/null || return
	cat >"$conf/flink-conf.yaml" <<EOF
kubernetes.operator.watched.namespaces: ${OPERATOR_WATCHED:-flink-operator}
kubernetes.operator.reconcile.interval: 5 s
kubernetes.operator.observer.progress-check.interval: 5 s
kubernetes.operator.deployment.readiness.timeout: 5 min
kubernetes.operator.health.probe.enabled: true
kubernetes.operator.health.probe.port: $OPERATOR_HEALTH_PORT
kubernetes.operator.dynamic.config.enabled: false
kubernetes.operator.leader-election.enabled: false
# The lane's default for every deployment, as a platform would set it:
# Flink's s3:// file system (state, savepoints, HA) at the lane's S3 (the
# gate of checks/60-operator-stream.sh on the bridge), path-style.
s3.endpoint: http://$LANE_IP:9002
s3.path.style.access: true
# What Flink 1.20's own conf/config.yaml sets for Java 17 (the image's; the
# operator's ConfigMap replaces that directory in a Pod): without it the
# job fails (InaccessibleObjectException on java.util.Collections).
env.java.default-opts.all: $FLINK_JAVA17_OPTS
EOF
	cat >"$conf/log4j-operator.properties" <<'EOF'
rootLogger.level = INFO
rootLogger.appenderRef.console.ref = ConsoleAppender
appender.console.name = ConsoleAppender
appender.console.type = CONSOLE
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n
logger.fabric8.name = io.fabric8
logger.fabric8.level = WARN
logger.josdk.name = io.javaoperatorsdk
logger.josdk.level = WARN
EOF
	svc_start operator env KUBECONFIG="$SYSTEM_KUBECONFIG" FLINK_CONF_DIR="$conf" \
		KUBERNETES_SERVICE_HOST="$LANE_IP" KUBERNETES_SERVICE_PORT=6443 \
		OPERATOR_NAMESPACE=flink-operator OPERATOR_NAME=flink-kubernetes-operator \
		POD_NAME=flink-kubernetes-operator-lane POD_IP="$LANE_IP" HOST_IP="$LANE_IP" \
		java -Xmx768m -XX:+UseSerialGC -Djava.io.tmpdir="$K8S_RUN/operator/tmp" \
		-Dlog4j.configurationFile="$conf/log4j-operator.properties" \
		-cp "$K8S_OPERATOR/flink-kubernetes-standalone.jar:$K8S_OPERATOR/flink-kubernetes-operator-shaded.jar" \
		org.apache.flink.kubernetes.operator.FlinkOperator
	wait_until operator 240 operator_healthy
}
