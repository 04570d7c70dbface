# SPDX-License-Identifier: Apache-2.0
# tests/live/lib/prep.sh - what runs before the live components start, and
# the namespaces they run in: the one copy of this code for the live lane
# (tests/live/run) and the demo (tools/demo/run), so that both use the same
# pinned versions (tests/live/pom.xml, tests/live/requirements.txt) and the
# same caches (the Maven repository, tests/live/.cache).  Needs LIVE_HERE
# (tests/live).  Each function prints nothing on success and returns 1 with
# its reason in PREP_ERR otherwise; the caller decides how to report it.

PREP_ERR=

# prep_tools FLUID_BIN : the commands, Java 17, a built fluid and namespaces.
prep_tools() {
	local t
	for t in java mvn python3 unshare ip curl; do
		command -v "$t" >/dev/null || { PREP_ERR="'$t' is missing (see tests/live/README.md)"; return 1; }
	done
	java -version 2>&1 | grep -q 'version "17' ||
		{ PREP_ERR="Java 17 is required: $(java -version 2>&1 | head -1)"; return 1; }
	[ -x "$1/fluid" ] || { PREP_ERR="$1/fluid is missing: build fluid first (make)"; return 1; }
	unshare --net --pid --fork --kill-child --mount-proc true 2>/dev/null ||
		{ PREP_ERR="unshare cannot create network and PID namespaces here (root needed)"; return 1; }
}

# prep_maven LOG [MVN_ARG...] : the runner, the harness, the SQL Gateway and
# the services' classpaths (tests/live/.cache/cp), all from tests/live/pom.xml.
# LIVE_M2 names a Maven repository other than ~/.m2.
prep_maven() {
	local log=$1; shift
	local mvn=(mvn -B -q -f "$LIVE_HERE/pom.xml")
	[ -n "${LIVE_M2:-}" ] && mvn+=("-Dmaven.repo.local=$LIVE_M2")
	"${mvn[@]}" "$@" package >"$log" 2>&1 && return 0
	tail -n 60 "$log"
	PREP_ERR="mvn package failed ($log)"
	return 1
}

# prep_stale ROOT : true when tests/live's Maven build is missing or older
# than its sources (the runner, harness/, deps/, pom.xml), so that a lane
# that only uses it (the demo, the Kubernetes lane) runs Maven only then.
prep_stale() {
	local live=$1/tests/live f
	local jar=$live/harness/target/live-harness.jar
	for f in "$jar" "$1/tools/flink-runner/target/fluid-flink-runner.jar" \
		"$live/deps/gateway/target/live-gateway.jar" \
		"$live"/.cache/cp/{flink,rest,kafka,gateway}.classpath; do
		[ -e "$f" ] || return 0
	done
	# The classpath names this tree's runner, not another checkout's.
	grep -q "$1/tools/flink-runner/target/" "$live/.cache/cp/flink.classpath" || return 0
	[ -n "$(find "$1/tools/flink-runner" "$live/harness" "$live/deps" "$live/pom.xml" \
		-path '*/target' -prune -o -newer "$jar" -type f -print -quit)" ]
}

# prep_venv VENV LOG : the pinned Python packages, reinstalled only when
# requirements.txt changed (its digest is kept in VENV/.stamp).
prep_venv() {
	local venv=$1 log=$2 stamp
	stamp=$(sha256sum "$LIVE_HERE/requirements.txt" | cut -c1-16)
	[ "$(cat "$venv/.stamp" 2>/dev/null)" = "$stamp" ] && return 0
	rm -rf "$venv"
	if { python3 -m venv "$venv" &&
	     "$venv/bin/pip" install -q --disable-pip-version-check -r "$LIVE_HERE/requirements.txt"; } \
		>"$log" 2>&1; then
		echo "$stamp" >"$venv/.stamp"
		return 0
	fi
	tail -n 30 "$log"
	PREP_ERR="pip install failed ($log)"
	return 1
}

# ns_run CMD... : CMD as PID 1 of new network and PID namespaces, waited for;
# returns its status (NS_RC).  unshare --kill-child: when unshare ends, CMD
# gets SIGKILL, and with it every process of the namespace.  unshare itself
# blocks TERM and INT, so on TERM or INT this asks CMD (unshare's child) to
# stop its processes in order, calls NS_ON_STOP (a function naming why, if
# set), and kills unshare if CMD has not ended 60 s later.  NS_STOPPED is 1
# after such a signal.
NS_PID= NS_RC= NS_STOPPED=0
ns_run() {
	unshare --net --pid --fork --kill-child --mount-proc -- "$@" &
	NS_PID=$!
	trap ns_stop INT TERM
	wait "$NS_PID"
	NS_RC=$?
	# wait returns early when a trapped signal arrives: wait for CMD to end.
	while kill -0 "$NS_PID" 2>/dev/null; do wait "$NS_PID"; NS_RC=$?; done
	trap - INT TERM
	return "$NS_RC"
}

ns_stop() {
	local child n
	NS_STOPPED=1
	[ -n "${NS_ON_STOP:-}" ] && "$NS_ON_STOP"
	child=$(pgrep -P "$NS_PID" 2>/dev/null | head -n 1)
	[ -n "$child" ] && kill -TERM "$child" 2>/dev/null
	for (( n=0; n<240; n++ )); do
		kill -0 "$NS_PID" 2>/dev/null || return 0
		sleep 0.25
	done
	kill -KILL "$NS_PID" 2>/dev/null
}
