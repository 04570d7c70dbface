#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/k8s/lib/runcheck.sh CHECK - run one check function of tests/k8s/checks/
# in a process of its own (lane.sh bounds it with timeout).  Makes the
# check's namespace and scratch directory first; exits with the check's
# status, its reasons in $CHECK_WHY.
set -uo pipefail
: "${K8S_HERE:?}" "${K8S_RUN:?}" "${K8S_BIN:?}" "${K8S_OPERATOR:?}"
CHECK=$1
CHECK_NS=$(echo "${CHECK#check_}" | tr _ - | cut -c1-50)
CHECK_DIR=$K8S_RUN/checks/$CHECK
CHECK_WHY=$CHECK_DIR/why
mkdir -p "$CHECK_DIR"
: >"$CHECK_WHY"
export CHECK CHECK_NS CHECK_DIR CHECK_WHY

# shellcheck source=cluster.sh
. "$K8S_HERE/lib/cluster.sh"
# shellcheck source=checklib.sh
. "$K8S_HERE/lib/checklib.sh"
for f in "$K8S_HERE"/checks/*.sh; do
	# shellcheck disable=SC1090
	. "$f"
done
declare -F "$CHECK" >/dev/null || { fail "no such check function"; exit 1; }

must "namespace $CHECK_NS" kc create namespace "$CHECK_NS" || exit 1
"$CHECK"
rc=$?
[ "$rc" -eq 0 ] || [ -s "$CHECK_WHY" ] || fail "returned $rc"
exit "$rc"
