# SPDX-License-Identifier: Apache-2.0
# tests/k8s/lib/cfk-lane.sh - what checks/70-cfk.sh uses: the CFK CRDs
# installed on the lane's API server, the STAND-IN status writer
# (lib/cfk-standin-status.py: no CFK operator or CMF runs here), a CFK
# contract in the lane's context, and fluid run with a recording kubectl.
# Sourced by checks/70-cfk.sh, after cluster.sh and checklib.sh.

CFK_CRDS=$K8S_HERE/cfk-crds
CFK_GROUP=platform.confluent.io
CFK_EXAMPLES=$(cd "$K8S_HERE/../../examples" && pwd)

# --- the CRDs ------------------------------------------------------------------
# cfk_crds_ready : the CRDs of cfk-crds/ applied server-side (as the lane
# applies the operator's; a no-op when they are there), each Established,
# and discovery serving the kinds fluid writes with their status
# subresource.  A CRD the API server refuses (a non-structural schema,
# a CEL rule it cannot compile) fails here with its message.
cfk_crds_ready() {
	local f n
	must "kubectl apply --server-side of tests/k8s/cfk-crds/" \
		kc apply --server-side --field-manager=lane -f "$CFK_CRDS/" || return
	for f in "$CFK_CRDS"/*.yaml; do
		n=$(basename "$f" .yaml)
		wait_until "crd-$n" 60 cfk_crd_established "$n" >/dev/null ||
			{ fail "CRD $n is not Established: $(kc get crd "$n" -o json | jq -c .status.conditions)"; return 1; }
	done
	wait_until cfk-discovery 60 cfk_discoverable >/dev/null ||
		{ fail "discovery does not serve $CFK_GROUP/v1beta1 flinkstatements and flinkcomputepools with status"; return 1; }
}
cfk_crd_established() {
	[ "$(kc get crd "$1" -o 'jsonpath={.status.conditions[?(@.type=="Established")].status}')" = True ]
}
cfk_discoverable() {
	kc get --raw "/apis/$CFK_GROUP/v1beta1" | jq -e '[.resources[].name] as $r |
		all("flinkstatements", "flinkstatements/status", "flinkcomputepools",
		    "flinkcomputepools/status"; IN($r[]))'
}

# --- the stand-in status writer --------------------------------------------------
# cfk_standin_start : lib/cfk-standin-status.py for CHECK_NS in the
# background, its log $CHECK_DIR/logs/cfk-standin-status.log (tailed by
# run when a check fails), its control file CFK_STANDIN_CTL; stopped by
# cfk_standin_stop, and in any case when the check's process ends.
cfk_standin_start() {
	mkdir -p "$CHECK_DIR/logs"
	CFK_STANDIN_CTL=$CHECK_DIR/cfk-standin-control.json
	CFK_STANDIN_LOG=$CHECK_DIR/logs/cfk-standin-status.log
	echo '{}' >"$CFK_STANDIN_CTL"
	python3 "$K8S_HERE/lib/cfk-standin-status.py" "$CHECK_NS" "$CFK_STANDIN_CTL" -- \
		"$K8S_BIN/kubectl" --kubeconfig="$KUBECONFIG_FILE" --context="$K8S_CONTEXT" \
		--request-timeout=10s --cache-dir="$KUBE_CACHE" >"$CFK_STANDIN_LOG" 2>&1 &
	CFK_STANDIN_PID=$!
	trap cfk_standin_stop EXIT
	trap 'cfk_standin_stop; exit 143' TERM
	echo "k8s:     the STAND-IN status writer runs (pid $CFK_STANDIN_PID): no CFK or CMF here"
}
cfk_standin_stop() {
	[ -n "${CFK_STANDIN_PID:-}" ] || return 0
	kill -TERM "$CFK_STANDIN_PID" 2>/dev/null
	wait "$CFK_STANDIN_PID" 2>/dev/null
	CFK_STANDIN_PID=
}
# cfk_standin_control JSON : what the stand-in writes from now on
# (lib/cfk-standin-status.py: a DDL phase, a cmfSync failure).
cfk_standin_control() { printf '%s\n' "$1" >"$CFK_STANDIN_CTL.tmp" && mv "$CFK_STANDIN_CTL.tmp" "$CFK_STANDIN_CTL"; }

# cfk_standin_wrote_only_status : on every FlinkComputePool and
# FlinkStatement of CHECK_NS, the stand-in's field manager owns nothing
# but the status subresource, and it owns that.
cfk_standin_wrote_only_status() {
	local bad
	must "get the CFK objects with managedFields" kc -n "$CHECK_NS" get \
		flinkcomputepools,flinkstatements -o json --show-managed-fields || return
	bad=$(jq -r '.items[] | .metadata.name as $n | .metadata.managedFields[] |
		select(.manager == "cfk-standin-status" and .subresource != "status") |
		"\($n): \(.operation) \(.fieldsV1 | tojson)"' "$OUT")
	[ -z "$bad" ] || { fail "the stand-in wrote outside status: $bad"; return 1; }
	bad=$(jq -r '.items[] | select([.metadata.managedFields[] |
		select(.manager == "cfk-standin-status" and .subresource == "status")] | length == 0) |
		.metadata.name' "$OUT")
	[ -z "$bad" ] || { fail "the stand-in wrote no status of: $bad"; return 1; }
}

# --- a CFK contract and fluid ----------------------------------------------------------
# cfk_contract [SED-EXPR...] : the reshaped example made a CFK build by
# tests/cfk/variant (a FlinkEnvironment, the CMFRestClass, a DEDICATED
# pool fluid renders), its deployment in the lane's context and CHECK_NS,
# each sed expression applied; prints its path (one copy per check,
# edited in place by later calls).
cfk_contract() {
	local c=$CHECK_DIR/tree/reshaped/orders-reshaped.fluid.yaml e
	if [ ! -f "$c" ]; then
		c=$(cfk_variant shapes/reshaped/orders-reshaped.fluid.yaml "$CHECK_DIR/tree") || return
	fi
	for e in "$@"; do sed -i -e "$e" "$c"; done
	cfk_is_lane_contract "$c" || return
	echo "$c"
}

# cfk_variant EXAMPLE DIR : EXAMPLE (a path under examples/) made a CFK
# build by tests/cfk/variant in DIR (a copy of its tree), its deployment
# in the lane's context and CHECK_NS; prints the copy's path.
cfk_variant() {
	local c
	c=$2/$(basename "$(dirname "$1")")/$(basename "$1")
	"$K8S_HERE/../cfk/variant" "$CFK_EXAMPLES/$1" "$2" || { fail "tests/cfk/variant $1 failed"; return 1; }
	sed -i -e "s/^\( *\)context: development$/\1context: $K8S_CONTEXT/" \
		-e "s/^\( *\)namespace: data-products$/\1namespace: $CHECK_NS/" "$c"
	cfk_is_lane_contract "$c" || return
	echo "$c"
}
cfk_is_lane_contract() {
	grep -q "management: cfk" "$1" && grep -q "context: $K8S_CONTEXT" "$1" &&
		grep -q "namespace: $CHECK_NS" "$1" || { fail "test bug: $1 is not a lane CFK contract"; return 1; }
}

# cfk_fluid CMD... : CMD with the lane's kubeconfig, the allowlists of the
# CFK contract in CHECK_NS, and kubectl through cfk_kubectl_wrapper (every
# call in $CHECK_DIR/calls.log, each object written in bodies/).
cfk_fluid() {
	cfk_kubectl_wrapper || return
	env KUBECONFIG="$KUBECONFIG_FILE" KUBECTL="$CHECK_DIR/kubectl-bodies" \
		KUBECTL_RECORD_LOG="$CHECK_DIR/calls.log" KUBECTL_REAL="$K8S_BIN/kubectl" \
		CFK_BODIES="$CHECK_DIR/bodies" \
		FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST="$K8S_CONTEXT" \
		FLUID_FLINK_NAMESPACE_ALLOWLIST="$CHECK_NS" \
		FLUID_FLINK_IMAGE_ALLOWLIST=confluentinc/cp-flink-sql \
		FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST=flink-env1 \
		FLUID_CFK_CMF_REST_CLASS_ALLOWLIST=default \
		FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka \
		"$@"
}

# cfk_kubectl_wrapper : $CHECK_DIR/kubectl-bodies, fluid's kubectl: what a
# call reads from its standard input (the object of an apply) is kept as
# bodies/N.json, N the call's line in calls.log, then tests/k8s/kubectl-record
# logs the call and runs the real kubectl with that input.
cfk_kubectl_wrapper() {
	[ -x "$CHECK_DIR/kubectl-bodies" ] && return 0
	mkdir -p "$CHECK_DIR/bodies"
	cat >"$CHECK_DIR/kubectl-bodies" <<EOF
#!/usr/bin/env bash
case " \$* " in
*" --filename=- "*|*" -f - "*)
	n=\$(( \$(cat "\$KUBECTL_RECORD_LOG" 2>/dev/null | wc -l) + 1 ))
	cat >"\$CFK_BODIES/\$n.json"
	exec "$K8S_HERE/kubectl-record" "\$@" <"\$CFK_BODIES/\$n.json" ;;
esac
exec "$K8S_HERE/kubectl-record" "\$@"
EOF
	chmod +x "$CHECK_DIR/kubectl-bodies"
}

# cfk_plan CONTRACT MODE OUT [ARGS...]
cfk_plan() {
	local c=$1 mode=$2 out=$3; shift 3
	must "fluid plan --mode $mode" "$FLUID_BIN/fluid" plan --mode "$mode" --out "$out" "$@" "$c"
}
# cfk_apply PLAN MODE : fluid apply --yes --wait 60 (the stand-in answers
# within a second), through try: the status is the exit status.
cfk_apply() { try cfk_fluid "$FLUID_BIN/fluid" apply --mode "$2" --yes --wait 60 "$1"; }

# cfk_calls_clean : every kubectl call fluid made was bounded, none forced
# a conflict.
cfk_calls_clean() {
	calls_all_bounded "$CHECK_DIR/calls.log" || return
	! grep -q -- '--force-conflicts' "$CHECK_DIR/calls.log" ||
		{ fail "fluid passed --force-conflicts: $(grep -m1 -- --force-conflicts "$CHECK_DIR/calls.log")"; return 1; }
}

# cfk_statement_of PLAN ROLE : the plan's FlinkStatement of ROLE (src, snk, ins).
cfk_statement_of() {
	jq -r --arg r "$2" '.builds[0].statements[] | select(test("-" + $r + "-[0-9a-f]{12}$"))' "$1"
}

# cfk_exists KIND NAME : whether the object is on the server (not NotFound).
cfk_exists() { [ -n "$(kc -n "$CHECK_NS" get "$1" "$2" --ignore-not-found -o name)" ]; }

# cfk_gone KIND NAME : wait (30 s) until the object is deleted.
cfk_gone() { wait_until "gone-$2" 30 cfk_absent "$1" "$2" >/dev/null; }
cfk_absent() { ! cfk_exists "$1" "$2"; }
