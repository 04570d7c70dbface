#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The Kubernetes lane's process kubelet (tests/k8s/kubelet), a stand-in for
# the kubelet and the container runtime: its pure parts (a Pod's spec to a
# plan of processes: environment, Flink's entrypoints, volume mounts,
# restarts, addresses, hosts) and its scripts' interface.  No root, cluster
# or Java: the lane (tests/k8s/checks/05-kubelet.sh) runs it for real.

load helpers

KUBELET=$BATS_TEST_DIRNAME/../k8s/kubelet

setup() { fluid_setup; }
teardown() { fluid_teardown; }

@test "process kubelet: the unit tests of its pure parts pass" {
	run python3 "$KUBELET/test_podplan.py"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" =~ ([0-9]+)\ passed,\ 0\ failed$ ]]
	[ "${BASH_REMATCH[1]}" -ge 30 ]
}

@test "process kubelet: the unit tests fail when the plan is wrong (a missing Secret not refused)" {
	cp "$KUBELET"/*.py .
	# The mutation: envFrom's missing Secret is skipped as if optional.
	python3 - <<'PY'
import re
s = open("podplan.py").read()
s = s.replace('            if obj is None:\n                if ref.get("optional"):\n                    continue\n                raise _not_found(kind, ref.get("name", ""))\n            for k, v in sorted',
              '            if obj is None:\n                continue\n            for k, v in sorted', 1)
open("podplan.py", "w").write(s)
PY
	run python3 test_podplan.py
	[ "$status" -eq 1 ]
	[[ "$output" == *"test_missing_secret_is_create_container_config_error"*FAIL* ]] ||
		[[ "$output" == *"FAIL: test_missing_secret_is_create_container_config_error"* ]]
	[[ "$output" =~ [0-9]+\ passed,\ [1-9][0-9]*\ failed$ ]]
}

@test "process kubelet: start.sh and stop.sh refuse a bad command line (exit 2, nothing started)" {
	run "$KUBELET/start.sh" --node n1
	[ "$status" -eq 2 ]
	[[ "$output" == *"--kubeconfig FILE --context NAME"* ]]
	run "$KUBELET/start.sh" --state-dir s --log-dir l --bogus x
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown argument: --bogus"* ]]
	[ ! -e s/pid ]
	run "$KUBELET/stop.sh"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: stop.sh --state-dir DIR"* ]]
	# Nothing running under that state directory: nothing to stop.
	run "$KUBELET/stop.sh" --state-dir nowhere
	[ "$status" -eq 0 ]
}

@test "process kubelet: every message and file names it a stand-in for the kubelet and container runtime" {
	grep -q 'WHO = "process kubelet (stands in for the kubelet and container runtime)"' "$KUBELET/stand_in_kubelet.py"
	for f in "$KUBELET"/*.py "$KUBELET"/*.sh "$KUBELET/README.md"; do
		grep -qiE 'stand-in for the kubelet|stands in for the kubelet|standing in for the (kubelet|container runtime)|STAND-IN FOR THE KUBELET|stand-in for the kubelet and the container runtime' "$f" ||
			{ echo "$f does not say what it stands in for"; false; }
	done
	# Never for the operator: the only mentions say "never".
	run bash -c "grep -rihE 'in for the operator|stand-in operator' '$KUBELET' | grep -vi never"
	[ -z "$output" ] || { echo "$output"; false; }
}
