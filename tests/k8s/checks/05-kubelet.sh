# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/05-kubelet.sh - the process kubelet (tests/k8s/kubelet),
# the lane's STAND-IN FOR THE KUBELET AND THE CONTAINER RUNTIME, on the
# lane's real API server: bare Pods with shell commands reach Running and
# Ready, crash into CrashLoopBackOff, wait on a missing Secret, and stop when
# deleted.  Each check starts its own process kubelet on its own bridge and
# Node (so it does not depend on, or disturb, one the lane runs for the
# operator) and pins its Pods to that Node with spec.nodeName.

KUBELET_HERE=$K8S_HERE/kubelet
KL_NODE=process-kubelet-check
KL_BRIDGE=kbr-check
KL_CIDR=10.245.0.0/24
KL_GW=10.245.0.1

# kl_start [WRAPPER...]: a bridge with the gateway address, a tiny image
# directory, the default ServiceAccount (no controller-manager may have made
# it), and the process kubelet itself (started through WRAPPER, if any).
kl_start() {
	KL_STATE=$CHECK_DIR/kubelet
	KL_LOGS=$CHECK_DIR/kubelet-logs
	mkdir -p "$CHECK_DIR/image/lib" "$KL_LOGS"
	echo "the check's image directory" >"$CHECK_DIR/image/image.txt"
	ip link del "$KL_BRIDGE" 2>/dev/null
	must "bridge $KL_BRIDGE" ip link add "$KL_BRIDGE" type bridge || return 1
	must "bridge address" ip addr add "$KL_GW/24" dev "$KL_BRIDGE" || return 1
	must "bridge up" ip link set "$KL_BRIDGE" up || return 1
	kc delete node "$KL_NODE" --ignore-not-found >/dev/null 2>&1
	kc -n "$CHECK_NS" get serviceaccount default >/dev/null 2>&1 ||
		must "service account default" kc -n "$CHECK_NS" create serviceaccount default || return 1
	must "start.sh" "$@" "$KUBELET_HERE/start.sh" --kubeconfig "$KUBECONFIG_FILE" --context "$K8S_CONTEXT" \
		--kubectl "$K8S_BIN/kubectl" --node "$KL_NODE" --pod-cidr "$KL_CIDR" --bridge "$KL_BRIDGE" \
		--image-dir "${KL_IMAGE:-$CHECK_DIR/image}" --log-dir "$KL_LOGS" --state-dir "$KL_STATE" ${KL_ARGS[@]+"${KL_ARGS[@]}"}
}

# kl_stop: stop it (its Pods with it), show its logs when the check failed.
kl_stop() {
	"$KUBELET_HERE/stop.sh" --state-dir "$KL_STATE"
	ip link del "$KL_BRIDGE" 2>/dev/null
	if [ -s "$CHECK_WHY" ]; then
		local f
		for f in "$KL_LOGS"/*.log; do
			[ -f "$f" ] || continue
			echo "----- ${f##*/} (last 30 lines) -----" >&2
			tail -n 30 "$f" >&2
		done
	fi
	return 0
}

# kl_pod NAME RESTART-POLICY COMMAND [CONTAINER-JSON [SPEC-JSON]] : a bare
# Pod on the check's Node running `sh -c COMMAND`, with the Flink image's
# name; the JSON objects are merged into its container and its spec.
kl_pod() {
	local extra=${4:-'{}'} spec=${5:-'{}'}
	jq -n --arg name "$1" --arg policy "$2" --arg cmd "$3" --arg node "$KL_NODE" \
		--argjson extra "$extra" --argjson spec "$spec" '{
		apiVersion: "v1", kind: "Pod",
		metadata: {name: $name, labels: {app: $name}},
		spec: ({nodeName: $node, restartPolicy: $policy, automountServiceAccountToken: false,
			terminationGracePeriodSeconds: 5,
			containers: [({name: "main", image: "flink:1.20.1-scala_2.12-java17",
				command: ["sh", "-c", $cmd]} + $extra)]} + $spec)}' >"$CHECK_DIR/$1.json" &&
	must "create pod $1" kc -n "$CHECK_NS" create -f "$CHECK_DIR/$1.json"
}

# kl_wait WHAT SECONDS CMD... : wait_until, and a failure that says what.
kl_wait() {
	local what=$1 secs=$2; shift 2
	wait_until "$what" "$secs" "$@" || fail "$what: not within $secs s"
}

# sa_whoami: who the web Pod's service-account token is, as the API server
# says (a selfsubjectreview), the token read from the process kubelet's
# volume files and passed in a header file, never in an argument.
sa_whoami() {
	local tok hdr=$CHECK_DIR/authz
	tok=$(ls "$KL_STATE"/pods/*/volumes/kube-api-access-*/token 2>/dev/null | head -n 1)
	[ -n "$tok" ] || { echo "no service-account token volume"; return 0; }
	( umask 077; printf 'Authorization: Bearer %s\n' "$(cat "$tok")" >"$hdr" )
	curl -s --max-time 10 --cacert "$PKI/ca.crt" -H @"$hdr" -H 'Content-Type: application/json' \
		-d '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' \
		"$API_URL/apis/authentication.k8s.io/v1/selfsubjectreviews"
	rm -f "$hdr"
}

pod_field() { kc -n "$CHECK_NS" get pod "$1" -o "jsonpath=$2" 2>/dev/null; }
pod_ready() { [ "$(pod_field "$1" '{.status.conditions[?(@.type=="Ready")].status}')" = True ]; }
pod_waiting() { [ "$(pod_field "$1" '{.status.containerStatuses[0].state.waiting.reason}')" = "$2" ]; }
pod_phase_is() { [ "$(pod_field "$1" '{.status.phase}')" = "$2" ]; }
pod_gone() { ! kc -n "$CHECK_NS" get pod "$1" >/dev/null 2>&1; }
node_ready_untainted() {
	[ "$(kc get node "$KL_NODE" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}')" = True ] &&
	! kc get node "$KL_NODE" -o 'jsonpath={.spec.taints[*].key}' | grep -q not-ready
}

# A Pod in its own namespaces serves what it sees over HTTP (python3 of the
# machine, bound into its root): its hostname, /etc/hosts, environment, the
# configMap volume and the image directory; a readiness probe on the same
# port decides Ready.
check_process_kubelet_runs_a_pod_until_deleted() {
	local ok=0 ip mntns kpid
	mntns=$(stat -L -c %i /proc/self/ns/mnt)
	# --bind-etc-hosts refuses the mount namespace named as the machine's.
	KL_STATE=$CHECK_DIR/refused
	must_refuse "--bind-etc-hosts in the namespace named the machine's" "refusing to bind over /etc/hosts" \
		"$KUBELET_HERE/start.sh" --kubeconfig "$KUBECONFIG_FILE" --context "$K8S_CONTEXT" \
		--kubectl "$K8S_BIN/kubectl" --node "$KL_NODE" --pod-cidr "$KL_CIDR" --bridge lo \
		--image-dir "$CHECK_DIR" --log-dir "$CHECK_DIR/refused" --state-dir "$KL_STATE" \
		--bind-etc-hosts "$mntns" || return 1
	# Here it runs in a mount namespace of its own below the check's, which
	# it takes for the lane's: its /etc/hosts is its hosts file, the
	# check's stays as it was.
	KL_ARGS=(--bind-etc-hosts "$mntns")
	kl_start unshare --mount --propagation private -- || { kl_stop; return 1; }
	kpid=$(cat "$KL_STATE/pid")
	must "node Ready" node_ready_untainted &&
	must "configmap" kc -n "$CHECK_NS" create configmap greeting --from-literal=greeting=hello-from-cm \
		--from-literal=FROM_ENVFROM=yes &&
	# The service-account volume's CA (the controller-manager publishes it
	# when it runs; made here when it does not).
	{ kc -n "$CHECK_NS" get configmap kube-root-ca.crt >/dev/null 2>&1 ||
		must "kube-root-ca.crt" kc -n "$CHECK_NS" create configmap kube-root-ca.crt --from-file=ca.crt="$PKI/ca.crt"; } &&
	kl_pod web Always 'mkdir -p /tmp/www && cd /tmp/www && hostname >hostname && ln -s /etc/hosts hosts &&
env >env && cp /config/greeting greeting && cp /opt/flink/image.txt image.txt &&
ls /var/run/secrets/kubernetes.io/serviceaccount >sa-files &&
cp /var/run/secrets/kubernetes.io/serviceaccount/namespace sa-namespace &&
exec python3 -m http.server 8080 --bind 0.0.0.0' '{
		"ports": [{"name": "http", "containerPort": 8080}],
		"readinessProbe": {"httpGet": {"path": "/hostname", "port": "http"}, "periodSeconds": 1},
		"env": [{"name": "MY_POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
			{"name": "GREETING", "valueFrom": {"configMapKeyRef": {"name": "greeting", "key": "greeting"}}}],
		"envFrom": [{"configMapRef": {"name": "greeting"}}],
		"volumeMounts": [{"name": "cfg", "mountPath": "/config", "readOnly": true}]}' \
		'{"automountServiceAccountToken": true, "volumes": [{"name": "cfg", "configMap": {"name": "greeting"}}]}' &&
	kl_wait "pod web Ready" 90 pod_ready web &&
	ip=$(pod_field web '{.status.podIP}') &&
	case $ip in 10.245.0.*) ;; *) fail "podIP '$ip' is not in $KL_CIDR" ;; esac &&
	eq "phase" "$(pod_field web '{.status.phase}')" Running &&
	eq "hostIP" "$(pod_field web '{.status.hostIP}')" "$KL_GW" &&
	eq "hostname (UTS namespace)" "$(curl -sf --max-time 5 "http://$ip:8080/hostname")" web &&
	eq "configMap volume" "$(curl -sf --max-time 5 "http://$ip:8080/greeting")" hello-from-cm &&
	eq "image at /opt/flink" "$(curl -sf --max-time 5 "http://$ip:8080/image.txt")" "the check's image directory" &&
	curl -sf --max-time 5 "http://$ip:8080/env" >"$CHECK_DIR/env" &&
	eq "fieldRef status.podIP" "$(sed -n 's/^MY_POD_IP=//p' "$CHECK_DIR/env")" "$ip" &&
	eq "configMapKeyRef" "$(sed -n 's/^GREETING=//p' "$CHECK_DIR/env")" hello-from-cm &&
	eq "envFrom" "$(sed -n 's/^FROM_ENVFROM=//p' "$CHECK_DIR/env")" yes &&
	eq "FLINK_HOME (the image's env)" "$(sed -n 's/^FLINK_HOME=//p' "$CHECK_DIR/env")" /opt/flink &&
	curl -sf --max-time 5 "http://$ip:8080/hosts" >"$CHECK_DIR/hosts" &&
	{ grep -q "^$ip	web$" "$CHECK_DIR/hosts" || fail "the Pod's /etc/hosts lacks '$ip web': $(cat "$CHECK_DIR/hosts")"; } &&
	# Its own network namespace: the address is on no interface of the lane's.
	{ ! ip -4 addr | grep -q "inet $ip/" || fail "the pod address $ip is on an interface of the lane's namespace"; } &&
	# The projected service-account volume: the token the API server made
	# for the Pod (by TokenRequest) authenticates as its service account.
	eq "service-account files" "$(curl -sf --max-time 5 "http://$ip:8080/sa-files" | tr '\n' ' ')" "ca.crt namespace token " &&
	eq "service-account namespace" "$(curl -sf --max-time 5 "http://$ip:8080/sa-namespace")" "$CHECK_NS" &&
	sa_whoami >"$CHECK_DIR/whoami" &&
	{ grep -q "system:serviceaccount:$CHECK_NS:default" "$CHECK_DIR/whoami" ||
		fail "the Pod's token is not its service account's: $(head -c 300 "$CHECK_DIR/whoami")"; } &&
	eq "the token's bound Pod" "$(jq -r '.status.userInfo.extra["authentication.kubernetes.io/pod-name"][0]' \
		"$CHECK_DIR/whoami")" web &&
	# A Service's ready endpoint becomes a name in the Pod's /etc/hosts and
	# in the process kubelet's own; its hosts file is not bound over the
	# check's /etc/hosts (the machine's here).  The check's /etc/hosts may
	# name web-svc all the same: it is the lane's, which the lane's own
	# process kubelet (lib/cluster.sh) writes with every Service.
	must "service" kc -n "$CHECK_NS" create service clusterip web-svc --tcp=8080:8080 &&
	kc -n "$CHECK_NS" delete endpoints web-svc --ignore-not-found >/dev/null 2>&1 &&
	jq -n --arg ip "$ip" --arg ns "$CHECK_NS" '{apiVersion: "v1", kind: "Endpoints", metadata: {name: "web-svc"},
		subsets: [{addresses: [{ip: $ip, targetRef: {kind: "Pod", name: "web", namespace: $ns}}],
			ports: [{port: 8080}]}]}' >"$CHECK_DIR/ep.json" &&
	must "endpoints" kc -n "$CHECK_NS" apply -f "$CHECK_DIR/ep.json" &&
	kl_wait "web-svc in the Pod's /etc/hosts" 30 bash -c "curl -sf --max-time 3 http://$ip:8080/hosts |
		grep -q '^$ip	web-svc web-svc.$CHECK_NS web-svc.$CHECK_NS.svc web-svc.$CHECK_NS.svc.cluster.local$'" &&
	kl_wait "web-svc in the process kubelet's /etc/hosts" 30 bash -c \
		"nsenter -t $kpid -m cat /etc/hosts | grep -q '^$ip	web-svc.$CHECK_NS '" &&
	{ grep -q web-svc "$KL_STATE/hosts" || fail "this process kubelet's hosts file lacks web-svc"; } &&
	{ [ "$(stat -L -c %d:%i /etc/hosts)" != "$(stat -L -c %d:%i "$KL_STATE/hosts")" ] ||
		fail "this process kubelet's hosts file is bound over the check's /etc/hosts"; } &&
	ok=1
	if [ "$ok" = 1 ]; then
		ok=0
		must "delete pod web" kc -n "$CHECK_NS" delete pod web --wait=false &&
		kl_wait "pod web deleted" 60 pod_gone web &&
		{ ! curl -sf --max-time 2 "http://$ip:8080/hostname" >/dev/null ||
			fail "the Pod's server still answers after its deletion"; } &&
		{ grep -q "pod $CHECK_NS/web: stopped and removed" "$KL_LOGS/process-kubelet.log" ||
			fail "the process kubelet's log does not say it stopped pod web"; } &&
		ok=1
	fi
	kl_stop
	[ "$ok" = 1 ]
}

# restartPolicy Always: a container that exits 3 is restarted at once, then
# backs off (CrashLoopBackOff, lastState exit 3); restartPolicy Never: the
# Pod is Failed with the exit code.
check_process_kubelet_reports_crash_loop() {
	kl_start || { kl_stop; return 1; }
	local ok=0
	kl_pod crash Always 'echo crashing; exit 3' &&
	kl_pod once Never 'exit 4' &&
	kl_wait "pod crash in CrashLoopBackOff" 60 pod_waiting crash CrashLoopBackOff &&
	eq "lastState exit code" "$(pod_field crash '{.status.containerStatuses[0].lastState.terminated.exitCode}')" 3 &&
	{ [ "$(pod_field crash '{.status.containerStatuses[0].restartCount}')" -ge 1 ] ||
		fail "restartCount $(pod_field crash '{.status.containerStatuses[0].restartCount}'), want >= 1"; } &&
	eq "phase while crash-looping" "$(pod_field crash '{.status.phase}')" Running &&
	{ pod_field crash '{.status.containerStatuses[0].state.waiting.message}' | grep -Eq "^back-off [0-9]+s restarting failed container=main pod=crash_$CHECK_NS" ||
		fail "CrashLoopBackOff message: $(pod_field crash '{.status.containerStatuses[0].state.waiting.message}')"; } &&
	{ grep -c crashing "$KL_LOGS/pod-$CHECK_NS-crash-main.log" | grep -qv '^[01]$' ||
		fail "the container ran fewer than twice"; } &&
	kl_wait "pod once Failed" 60 pod_phase_is once Failed &&
	eq "Never: exit code" "$(pod_field once '{.status.containerStatuses[0].state.terminated.exitCode}')" 4 &&
	eq "Never: no restart" "$(pod_field once '{.status.containerStatuses[0].restartCount}')" 0 &&
	must "delete pods" kc -n "$CHECK_NS" delete pod crash once --wait=false &&
	kl_wait "pods deleted" 60 pod_gone crash &&
	ok=1
	kl_stop
	[ "$ok" = 1 ]
}

# A Secret the Pod's envFrom names and that does not exist: Pending with
# CreateContainerConfigError `secret "..." not found`, nothing run; once
# the Secret exists the Pod runs, with its value in the environment.
check_process_kubelet_waits_for_missing_secret() {
	kl_start || { kl_stop; return 1; }
	local ok=0
	kl_pod needs-secret Always 'echo "user=$KAFKA_USER"; exec sleep 600' \
		'{"envFrom": [{"secretRef": {"name": "kafka-creds"}}]}' &&
	kl_wait "CreateContainerConfigError" 60 pod_waiting needs-secret CreateContainerConfigError &&
	eq "waiting message" "$(pod_field needs-secret '{.status.containerStatuses[0].state.waiting.message}')" \
		'secret "kafka-creds" not found' &&
	eq "phase" "$(pod_field needs-secret '{.status.phase}')" Pending &&
	{ [ ! -s "$KL_LOGS/pod-$CHECK_NS-needs-secret-main.log" ] || fail "the container ran without its Secret"; } &&
	must "secret" kc -n "$CHECK_NS" create secret generic kafka-creds --from-literal=KAFKA_USER=alice &&
	kl_wait "pod needs-secret Ready" 60 pod_ready needs-secret &&
	kl_wait "container output" 30 grep -q "^user=alice$" "$KL_LOGS/pod-$CHECK_NS-needs-secret-main.log" &&
	must "delete pod" kc -n "$CHECK_NS" delete pod needs-secret --wait=false &&
	kl_wait "pod deleted" 60 pod_gone needs-secret &&
	ok=1
	kl_stop
	[ "$ok" = 1 ]
}

# Flink's native JobManager container, as the operator's FlinkDeployment
# makes it (the image's /docker-entrypoint.sh, `bash -c
# "kubernetes-jobmanager.sh kubernetes-application"`, the configuration
# from a ConfigMap at /opt/flink/conf), on the lane's image directory
# (K8S_CACHE/image, tests/k8s/kubelet/image.sh): the process kubelet runs
# BashJavaUtils and the JVM with the memory it computes and Flink's own
# entrypoint class, which starts and reads the mounted configuration.  No
# API server is reachable from the Pod here, so the entrypoint is expected
# to end there; the whole JobManager runs in the operator's checks.
# timeout-s check_process_kubelet_translates_flink_jobmanager 300
check_process_kubelet_translates_flink_jobmanager() {
	local img=${K8S_CACHE:?}/image ok=0 log
	[ -f "$img/MANIFEST.txt" ] ||
		{ fail "$img: no image directory (tests/k8s/kubelet/image.sh, which tests/k8s/run runs first)"; return 1; }
	KL_IMAGE=$img kl_start || { kl_stop; return 1; }
	log=$KL_LOGS/pod-$CHECK_NS-jm-flink-main-container.log
	must "flink config" kc -n "$CHECK_NS" create configmap flink-config-jm \
		--from-literal=config.yaml="$(printf '%s\n' 'jobmanager.memory.process.size: 1g' \
			'kubernetes.cluster-id: jm' "kubernetes.namespace: $CHECK_NS" \
			'execution.target: kubernetes-application' 'env.java.opts.jobmanager: -Dfluid.lane.check=jm-opts')" \
		--from-literal=log4j-console.properties="$(printf '%s\n' 'rootLogger.level = INFO' \
			'rootLogger.appenderRef.console.ref = ConsoleAppender' 'appender.console.name = ConsoleAppender' \
			'appender.console.type = CONSOLE' 'appender.console.layout.type = PatternLayout' \
			'appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c - %m%n')" &&
	kl_pod jm Never 'unused' '{"name": "flink-main-container", "command": ["/docker-entrypoint.sh"],
		"args": ["bash", "-c", "kubernetes-jobmanager.sh kubernetes-application"],
		"env": [{"name": "_POD_IP_ADDRESS", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}],
		"volumeMounts": [{"name": "flink-config-volume", "mountPath": "/opt/flink/conf"}]}' \
		'{"volumes": [{"name": "flink-config-volume", "configMap": {"name": "flink-config-jm"}}]}' &&
	kl_wait "the JobManager's entrypoint class started" 240 \
		grep -q "Starting KubernetesApplicationClusterEntrypoint" "$log" &&
	kl_wait "the JobManager's JVM options logged" 60 grep -q -- "-Dfluid.lane.check=jm-opts" "$log" &&
	{ grep -q -- "-Xmx469762048" "$log" ||
		fail "the JVM did not get BashJavaUtils' heap for 1g (-Xmx469762048): $(grep -m3 -i xmx "$log")"; } &&
	{ grep -q "flink_launch (process kubelet, standing in for the jobmanager's entrypoint script)" "$log" ||
		fail "the container did not run the process kubelet's launcher"; } &&
	ok=1
	kc -n "$CHECK_NS" delete pod jm --wait=false >/dev/null 2>&1
	kl_wait "pod jm deleted" 60 pod_gone jm || ok=0
	kl_stop
	[ "$ok" = 1 ]
}
