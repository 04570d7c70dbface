# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/35-drift-trust.sh - what drift trusts, on the lane's
# API server: a last-applied record forged by someone who may write
# ConfigMaps in the namespace (a name that is a kubectl flag, another
# namespace) is no drift answer, exit 2, and nothing is read outside the
# deployment's namespace; fields another field manager adds to the live
# spec (kubectl apply --server-side --field-manager=someone) are drift,
# each with that manager's name.
#
# It uses lane_contract, fluid_env, calls_clean (10-apply.sh) and drift,
# applied (30-drift.sh).  The expected values come from the plan and from
# what the check wrote, never from fluid's code.

# forge JQ : the record of $name in CHECK_NS, its resources.json edited
# by JQ, written back by another field manager.
forge() {
	kc -n "$CHECK_NS" get configmap "$name-fluid-last-applied" -o json |
		jq '.data["resources.json"] |= (fromjson | '"$1"' | tojson)
			| del(.metadata.managedFields, .metadata.resourceVersion)' \
		>"$CHECK_DIR/forged.json" || return
	kc -n "$CHECK_NS" replace -f "$CHECK_DIR/forged.json" >/dev/null
}

# Every call fluid made read in CHECK_NS, by --namespace=CHECK_NS, each name
# after "--"; none names OTHER or carries a flag from the record.
calls_in_namespace() {
	local other=$1 line
	local -a args
	while IFS= read -r line; do
		eval "args=($line)"
		case " ${args[*]} " in
		*" get --namespace=$CHECK_NS "*" -- "*) ;;
		*) fail "a kubectl call outside the deployment's namespace: $line"; return 1 ;;
		esac
		case " ${args[*]} " in
		*"$other"*|*" --server"*) fail "a call names what the record forged: $line"; return 1 ;;
		esac
	done <"$CHECK_DIR/calls.log"
}

check_drift_forged_record_refused() {
	local c name other=$CHECK_NS-x cm
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	applied "$c" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	cm=$(jq -r '.builds[0].configMap' "$CHECK_DIR/plan.json")
	# Another namespace, with a ConfigMap of the script's name there.
	must "another namespace" kc create namespace "$other" || return
	must "a ConfigMap there" kc -n "$other" create configmap "$cm" \
		--from-literal=token=value-of-the-other-namespace || return
	: >"$CHECK_DIR/calls.log"
	drift "$c"
	eq "clean before (the real kubectl takes -- NAME)" "$?:$(jq -r '.builds[0].status' "$OUT")" 0:clean || return
	# The record's ConfigMap moved to the other namespace.
	must "forge the namespace" forge '.items[0].metadata.namespace = "'"$other"'"' || return
	: >"$CHECK_DIR/calls.log"
	drift "$c"
	eq "exit status (namespace)" "$?" 2 || return
	[ ! -s "$OUT" ] || { fail "an answer from a forged record: $(head -c 300 "$OUT")"; return 1; }
	grep -q "the last-applied record ConfigMap $CHECK_NS/$name-fluid-last-applied lists a ConfigMap that is in another namespace: it is not fluid's record of this deployment" "$ERR" ||
		{ fail "not the forged namespace: $(head -c 600 "$ERR")"; return 1; }
	! grep -q value-of-the-other-namespace "$ERR" || { fail "the other namespace was read"; return 1; }
	calls_in_namespace "$other" || return
	# The record's ConfigMap named as a kubectl flag.
	must "forge the name" forge '.items[0].metadata.namespace = "'"$CHECK_NS"'"
		| .items[0].metadata.name = "--server=http://127.0.0.1:9"' || return
	: >"$CHECK_DIR/calls.log"
	drift "$c"
	eq "exit status (name)" "$?" 2 || return
	[ ! -s "$OUT" ] || { fail "an answer from a forged record: $(head -c 300 "$OUT")"; return 1; }
	grep -q "lists a ConfigMap that has another name than fluid renders for the deployment" "$ERR" ||
		{ fail "not the forged name: $(head -c 600 "$ERR")"; return 1; }
	calls_in_namespace "$other" || return
	eq "reads (the record and the FlinkDeployment)" "$(wc -l <"$CHECK_DIR/calls.log")" 2 || return
	calls_clean
}

check_drift_field_added_by_another_manager() {
	local c name
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	applied "$c" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$CHECK_DIR/plan.json")
	drift "$c"
	eq "clean before" "$?:$(jq -r '.builds[0].status' "$OUT")" 0:clean || return
	cat >"$CHECK_DIR/someone.yaml" <<YAML
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: $name
  namespace: $CHECK_NS
spec:
  restartNonce: 5
  flinkConfiguration:
    kubernetes.secrets: "admin-token:/mnt/admin"
  job:
    allowNonRestoredState: true
    initialSavepointPath: s3://elsewhere/savepoint-1
YAML
	# Fields fluid never sent: no conflict, no --force-conflicts needed.
	must "someone adds fields" kc -n "$CHECK_NS" apply --server-side \
		--field-manager=someone -f "$CHECK_DIR/someone.yaml" || return
	eq "the cluster has them" "$(jq_fd "$name" '.spec.job.allowNonRestoredState')" true || return
	drift "$c"
	eq "exit status" "$?" 1 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
	eq "drift" "$(jq -r '.builds[0].status' "$OUT")" drift || return
	eq "each added field, by someone" \
		"$(jq -r '[.builds[0].fields[] | "\(.field)=\(.live) applied \(.applied) by \(.manager)"] | sort | join(";")' "$OUT")" \
		".spec.flinkConfiguration[\"kubernetes.secrets\"]=admin-token:/mnt/admin applied null by someone;.spec.job.allowNonRestoredState=true applied null by someone;.spec.job.initialSavepointPath=s3://elsewhere/savepoint-1 applied null by someone;.spec.restartNonce=5 applied null by someone" || return
	# The filter gives the same answer from the rendered document.
	try fluid_env sh -c '"$1/fluid-resolve" "$2" | "$1/fluid-check" | "$1/fluid-sqlgen" |
		"$1/fluid-k8s" render | "$1/fluid-diff" --live --report --exit-on-drift' sh "$FLUID_BIN" "$c"
	eq "fluid-diff --live: exit status" "$?" 1 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
	eq "fluid-diff --live: the same fields" "$(jq -c '.builds[0].fields' "$OUT")" \
		"$(fluid_env "$FLUID_BIN/fluid" diff --exit-on-drift "$c" | jq -c '.builds[0].fields')" || return
	calls_clean
}
