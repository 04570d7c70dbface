# SPDX-License-Identifier: Apache-2.0
# fake-kubectl.bash - the bats tests' one fake kubectl (the script
# fake-kubectl beside this file, which says what each mode answers).
#
# fake_kubectl MODE: $TMP/fake/kubectl is the fake in MODE, first on
# PATH and in KUBECTL; FAKE_DIR (default $TMP) holds its files and
# kubectl.calls (FAKE_CALLS names another log); in mode store, the
# objects and their log are in FAKE_STORE (default $FAKE_DIR/kube).

fake_kubectl() {
	command -v python3 >/dev/null || skip "python3 is not installed (the fake kubectl is a Python script)"
	mkdir -p "$TMP/fake"
	cp "$BATS_TEST_DIRNAME/fake-kubectl" "$TMP/fake/kubectl"
	chmod +x "$TMP/fake/kubectl"
	export FAKE_KUBECTL_MODE=$1 FAKE_DIR=${FAKE_DIR:-$TMP}
	export FAKE_STORE=${FAKE_STORE:-$FAKE_DIR/kube}
	export KUBECTL=$TMP/fake/kubectl PATH="$TMP/fake:$PATH"
}

# kubectl_not_called: the fake logged no call.
kubectl_not_called() {
	local calls=${FAKE_CALLS:-$FAKE_DIR/kubectl.calls}
	[ ! -e "$calls" ] || fail "kubectl was called" "$(cat "$calls")"
}

# kubectl_wrote_nothing: the fake in mode store logged no apply, patch
# or delete.
kubectl_wrote_nothing() {
	! grep -q '^\(apply\|patch\|delete\) ' "$FAKE_STORE/calls" 2>/dev/null ||
	    fail "kubectl wrote" "$(cat "$FAKE_STORE/calls")"
}
