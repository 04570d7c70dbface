# SPDX-License-Identifier: Apache-2.0
# tests/k8s/lib/checklib.sh - what a check of the Kubernetes lane may use.
# Sourced (after cluster.sh) by lib/runcheck.sh, which runs one check
# function in its own process with a deadline.  A check is a shell function
# named check_* in a file of tests/k8s/checks/; it returns 0 when it passed,
# and otherwise says why through fail (the why goes to the results).
#
# Each check gets CHECK_NS, a namespace of its own made before it starts,
# and CHECK_DIR, a scratch directory.  kc (cluster.sh) is the lane's kubectl.

OUT=$CHECK_DIR/out
ERR=$CHECK_DIR/err

# fail WHY... : record why the check failed; returns 1, so `... || return`.
fail() {
	printf '%s\n' "$*" >>"$CHECK_WHY"
	echo "k8s:     $*" >&2
	return 1
}

# try CMD... : run CMD, stdout to $OUT, stderr to $ERR; its status.
try() { "$@" >"$OUT" 2>"$ERR"; }

# must WHAT CMD... : CMD must succeed.
must() {
	local what=$1 rc; shift
	try "$@" && return 0
	rc=$?
	fail "$what: exit $rc: $(head -c 600 "$ERR")"
}

# must_refuse WHAT PATTERN CMD... : CMD must fail, its stderr matching the
# extended regular expression PATTERN (so that a refusal for another reason,
# such as a typo in the test, does not count).
must_refuse() {
	local what=$1 pattern=$2; shift 2
	if try "$@"; then
		fail "$what: accepted, expected a refusal matching /$pattern/"
		return 1
	fi
	grep -Eq -- "$pattern" "$ERR" ||
		{ fail "$what: refused, but not with /$pattern/: $(head -c 600 "$ERR")"; return 1; }
	# The check's log says what the refusal was.
	echo "k8s:     $what: refused: $(grep -Em1 -- "$pattern" "$ERR" | head -c 300)"
}

# eq WHAT GOT WANT
eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }

# jget OBJECT JQ-FILTER : a field of a live object (kind/name in CHECK_NS).
jget() { kc -n "$CHECK_NS" get "$1" -o json | jq -r "$2"; }

# apply_fluid FILE [ARGS...] : what fluid will do: server-side apply as field
# manager fluid, strict field validation, never --force-conflicts.
apply_fluid() {
	kc -n "$CHECK_NS" apply --server-side --field-manager=fluid --validate=strict -f "$@"
}

# status_by_check KIND/NAME STATUS-JSON : a status written by the check
# itself, through the status subresource (the CRD's schema applies to it),
# in a namespace the lane's operator does not watch.  Only for a state the
# real operator does not reach within a check here; every use says which
# and why.  What the operator itself writes is judged in checks/50 and 60.
status_by_check() {
	kc -n "$CHECK_NS" patch "$1" --subresource=status --type=merge \
		-p "$(jq -cn --argjson s "$2" '{status: $s}')"
}

# flinkdeployment NAME [PARALLELISM] : a minimal valid FlinkDeployment, YAML
# on stdout, of the shape fluid-k8s will render.
flinkdeployment() {
	cat <<YAML
apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: $1
  labels:
    app.kubernetes.io/managed-by: fluid
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  flinkConfiguration:
    execution.checkpointing.interval: "60s"
  jobManager:
    resource: {memory: "1024m", cpu: 0.5}
  taskManager:
    resource: {memory: "1024m", cpu: 0.5}
  job:
    jarURI: local:///opt/flink/usrlib/fluid-flink-runner.jar
    parallelism: ${2:-1}
    upgradeMode: savepoint
    state: running
YAML
}

# --- the kubectl wrapper's log (tests/k8s/kubectl-record) --------------------------
# LOG has one line per recorded kubectl call, the arguments shell-quoted
# (printf %q), so eval gives the argv back.
# calls_all_bounded LOG : every recorded call names a context and a
# request timeout (as --flag=value or --flag value); else fail names the call.
calls_all_bounded() {
	local line n=0 a ctx rt
	local -a args
	[ -s "$1" ] || { fail "no kubectl call was recorded in $1"; return 1; }
	while IFS= read -r line; do
		n=$((n + 1))
		eval "args=($line)"
		ctx= rt=
		for (( a=0; a<${#args[@]}; a++ )); do
			case ${args[$a]} in
			--context=?*) ctx=1 ;;
			--context) [ $((a + 1)) -lt ${#args[@]} ] && ctx=1 ;;
			--request-timeout=?*) rt=1 ;;
			--request-timeout) [ $((a + 1)) -lt ${#args[@]} ] && rt=1 ;;
			esac
		done
		[ -n "$ctx" ] || { fail "kubectl call $n has no --context: $line"; return 1; }
		[ -n "$rt" ] || { fail "kubectl call $n has no --request-timeout: $line"; return 1; }
	done <"$1"
}
