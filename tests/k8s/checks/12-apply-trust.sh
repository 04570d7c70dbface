# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/12-apply-trust.sh - fluid apply trusts nothing a plan
# says of itself (issue 27), on the lane's API server: a plan of fluid
# plan, edited as whoever can write plan.json could (a sidecar with an
# unlisted image, the ConfigMap moved to kube-system, the script's
# catalog pointed at another host), with every digest computed again
# (tests/bats/fixtures/plan/replan.py, not fluid's code), is refused
# (exit 1) before any kubectl call, and no object is written in the
# check's namespace or in kube-system; the unedited plan then applies.
#
# Uses lane_contract, fluid_env, fluid_plan and calls_clean of
# 10-apply.sh.

REPLAN=$K8S_HERE/../bats/fixtures/plan/replan.py

# fluid_objects NS : the ConfigMaps and FlinkDeployments fluid labels in NS.
fluid_objects() {
	kc -n "$1" get configmap,flinkdeployment -l app.kubernetes.io/managed-by=fluid -o name
}

check_apply_edited_plan_refused_nothing_written() {
	local c plan name cm edit n=0
	local -a edits=(
		"pod['containers'].append({'name': 'side', 'image': 'evil.example.net/miner@sha256:' + '0' * 64})"
		"cm['metadata']['namespace'] = 'kube-system'"
		"cm['data']['land-orders.sql'] = cm['data']['land-orders.sql'].replace('https://catalog.example.com/api/catalog', 'https://evil.example.net/api/catalog')"
		"pod['volumes'].append({'name': 'admin', 'secret': {'secretName': 'cluster-admin-token'}})"
	)
	command -v lane_contract >/dev/null || { fail "test bug: 10-apply.sh's helpers are not loaded"; return 1; }
	c=$(lane_contract landed/orders-landed.fluid.yaml) || return
	plan=$CHECK_DIR/plan.json
	fluid_plan "$c" amend "$plan" || return
	name=$(jq -r '.builds[0].flinkDeployment' "$plan")
	cm=$(jq -r '.builds[0].configMap' "$plan")
	for edit in "${edits[@]}"; do
		n=$((n + 1))
		python3 "$REPLAN" "$plan" "$CHECK_DIR/edited-$n.json" "$edit" ||
			{ fail "replan.py: edit $n"; return 1; }
		rm -f "$CHECK_DIR/calls.log"
		if try fluid_env "$FLUID_BIN/fluid" apply --mode amend --yes --wait 0 \
			"$CHECK_DIR/edited-$n.json"; then
			fail "edit $n ($edit) was applied"
			return 1
		fi
		grep -q "is not what fluid renders from the plan's bundle" "$ERR" ||
			{ fail "edit $n: not the re-render's refusal: $(head -c 600 "$ERR")"; return 1; }
		[ ! -s "$CHECK_DIR/calls.log" ] ||
			{ fail "edit $n: kubectl was called: $(head -c 300 "$CHECK_DIR/calls.log")"; return 1; }
		eq "edit $n: fluid's objects in $CHECK_NS" "$(fluid_objects "$CHECK_NS")" "" || return
		must_refuse "edit $n: no ConfigMap in kube-system" 'NotFound|not found' \
			kc -n kube-system get configmap "$cm" || return
	done
	# The plan as fluid wrote it is applied: the refusals were the edits'.
	try fluid_env "$FLUID_BIN/fluid" apply --mode amend --yes --wait 0 "$plan" ||
		{ fail "the unedited plan: exit $?: $(head -c 600 "$ERR")"; return 1; }
	must "the FlinkDeployment" kc -n "$CHECK_NS" get flinkdeployment "$name" || return
	calls_clean
}
