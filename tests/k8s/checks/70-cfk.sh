# SPDX-License-Identifier: Apache-2.0
# tests/k8s/checks/70-cfk.sh - the CFK target (management: cfk) on the
# lane's real API server: the CFK 3.3.0 CRDs rebuilt from CFK's JSON
# Schemas (tests/k8s/cfk-crds/) installed server-side, fluid plan and
# fluid apply of a CFK contract, a changed SQL, CFK's CEL rules, and
# fluid's refusals when CMF reports a failure; and every example rendered
# for both targets, each resource accepted by the API server.
#
# Real: the API server, its storage, server-side apply, field ownership,
# strict validation against the rebuilt CRDs' schemas and their CEL rules.
# NOT real: CFK and CMF, which exist only as container images.  The
# status CFK would write is written by a STAND-IN,
# lib/cfk-standin-status.py, through the status subresource only, named
# as one in its log (logs/cfk-standin-status.log of each check); each
# check that runs it asserts that it wrote nothing but status.  So these
# checks prove what the API server does with fluid's resources and what
# fluid does with the statuses CFK documents, not that CFK or CMF report
# them so, nor that CMF runs a statement.
#
# fluid's kubectl is tests/k8s/kubectl-record behind a wrapper that keeps
# each object fluid sends (bodies/N.json, N the call's line in calls.log).

# shellcheck source=../lib/cfk-lane.sh
. "$K8S_HERE/lib/cfk-lane.sh"

# timeout-s check_cfk_apply_new_sql 480
# timeout-s check_cfk_cel_rules 300
# timeout-s check_cfk_refusals 300
# timeout-s check_cfk_every_example 300

CFK_HOLD=lane.fluid.test/held-by-check

# cfk_apply_v1 : the CFK contract planned (amend-and-build) as
# $CHECK_DIR/p1.json and applied by fluid, exit 0; sets C (the contract).
cfk_apply_v1() {
	C=$(cfk_contract) || return
	cfk_plan "$C" amend-and-build "$CHECK_DIR/p1.json" || return
	cfk_apply "$CHECK_DIR/p1.json" amend-and-build ||
		{ fail "fluid apply of the CFK contract: exit $?: $(head -c 600 "$ERR")"; return 1; }
}

# cfk_call_at VERB NAME FROM : the line of calls.log, after line FROM, of
# fluid's first kubectl VERB (apply: its object, from bodies/) of NAME.
cfk_call_at() {
	local f n
	if [ "$1" = apply ]; then
		for f in "$CHECK_DIR"/bodies/*.json; do
			n=${f##*/}
			n=${n%.json}
			[ "$n" -gt "$3" ] && jq -e --arg n "$2" '.metadata.name == $n' "$f" >/dev/null && echo "$n"
		done | sort -n | head -n 1
	else
		awk -v v="$1" -v nm="$2" -v from="$3" 'NR > from {
			hv = 0; hn = 0
			# A name is an argument, or the last segment of a --raw path
		# (fluid deletes a statement with preconditions that way).
		for (i = 1; i <= NF; i++) { if ($i == v) hv = 1
			if ($i == nm || ($i ~ /^--raw=/ && substr($i, length($i) - length(nm)) == "/" nm)) hn = 1 }
			if (hv && hn) { print NR; exit } }' "$CHECK_DIR/calls.log"
	fi
}
# cfk_verbs FROM : the verb of each of fluid's kubectl calls after line FROM
# of calls.log, and the rest of the call (fluid puts --context and
# --request-timeout first).
cfk_verbs() { awk -v from="$1" 'NR > from { v = $3; $1 = $2 = $3 = ""; print v "\t" substr($0, 4) }' "$CHECK_DIR/calls.log"; }
# cfk_ncalls : the number of kubectl calls fluid has made.
cfk_ncalls() { if [ -f "$CHECK_DIR/calls.log" ]; then wc -l <"$CHECK_DIR/calls.log"; else echo 0; fi; }

# cfk_in_order WHAT FROM VERB:NAME... : those calls were made after line
# FROM, each once, in that order.
cfk_in_order() {
	local what=$1 from=$2 prev=0 at vn; shift 2
	for vn in "$@"; do
		at=$(cfk_call_at "${vn%%:*}" "${vn#*:}" "$from")
		[ -n "$at" ] || { fail "$what: no kubectl ${vn%%:*} of ${vn#*:}: $(tail -n +"$((from + 1))" "$CHECK_DIR/calls.log" | cut -c1-200)"; return 1; }
		[ "$at" -gt "$prev" ] || { fail "$what: kubectl ${vn%%:*} of ${vn#*:} (call $at) is not after call $prev"; return 1; }
		prev=$at
	done
}

# cfk_only_bundle_changed OLD-PLAN NEW-PLAN NAME... : those resources differ
# between the two plans in their fluid.dev/bundle-digest annotation only.
cfk_only_bundle_changed() {
	local old=$1 new=$2 n; shift 2
	for n in "$@"; do
		eq "$n: only the bundle digest differs" \
			"$(jq -S --arg n "$n" '.resources[].resource | select(.metadata.name == $n) |
				del(.metadata.annotations["fluid.dev/bundle-digest"])' "$new")" \
			"$(jq -S --arg n "$n" '.resources[].resource | select(.metadata.name == $n) |
				del(.metadata.annotations["fluid.dev/bundle-digest"])' "$old")" || return
	done
}

# cfk_hold NAME... : a finalizer of the check's own on those statements,
# so that fluid's delete leaves them visible (deletionTimestamp set) until
# cfk_release.  A check's write of metadata, never of spec or status.
cfk_hold() {
	local n
	for n in "$@"; do
		must "hold $n" kc -n "$CHECK_NS" patch flinkstatement "$n" --type=merge \
			--field-manager=check -p "{\"metadata\":{\"finalizers\":[\"$CFK_HOLD\"]}}" || return
	done
}
cfk_release() {
	local n
	for n in "$@"; do
		must "release $n" kc -n "$CHECK_NS" patch flinkstatement "$n" --type=json \
			-p '[{"op":"remove","path":"/metadata/finalizers"}]' || return
		cfk_gone flinkstatement "$n" || { fail "$n was not deleted once released"; return 1; }
	done
}

# cfk_live_as_planned PLAN : every resource of PLAN is on the server with
# the plan's spec, labels and annotations, fluid's server-side apply
# owning its spec, the stand-in's status for its generation; and fluid's
# labels select exactly those FlinkComputePools and FlinkStatements.
cfk_live_as_planned() {
	local plan=$1 i kind name live want got role
	for (( i=0; i<$(jq '.resources | length' "$plan"); i++ )); do
		kind=$(jq -r ".resources[$i].resource.kind" "$plan")
		name=$(jq -r ".resources[$i].resource.metadata.name" "$plan")
		live=$CHECK_DIR/live-$name.json
		kc -n "$CHECK_NS" get "$(echo "$kind" | tr A-Z a-z)" "$name" -o json --show-managed-fields >"$live" ||
			{ fail "$kind $name of the plan is not on the server"; return 1; }
		eq "$kind $name: the spec as planned" "$(jq -S .spec "$live")" \
			"$(jq -S ".resources[$i].resource.spec" "$plan")" || return
		eq "$kind $name: fluid's labels" "$(jq -S .metadata.labels "$live")" \
			"$(jq -S ".resources[$i].resource.metadata.labels" "$plan")" || return
		eq "$kind $name: the plan's annotations" \
			"$(jq -S --argjson want "$(jq -c ".resources[$i].resource.metadata.annotations // {}" "$plan")" \
				'.metadata.annotations // {} | with_entries(select(.key as $k | $want | has($k)))' "$live")" \
			"$(jq -S ".resources[$i].resource.metadata.annotations // {}" "$plan")" || return
		eq "$kind $name: fluid's server-side apply owns the spec" \
			"$(jq '[.metadata.managedFields[] | select(.manager == "fluid" and .operation == "Apply") |
				.fieldsV1["f:spec"] != null] | any' "$live")" true || return
		role=$(jq -r '.metadata.annotations["fluid.dev/statement-role"] // "pool"' "$live")
		case $role in source|sink) want=COMPLETED ;; insert) want=RUNNING ;; *) want=RUNNING ;; esac
		got=$(jq -r '"\(.status.phase) \(.status.cmfSync.status) \(.status.observedGeneration == .metadata.generation)"' "$live")
		eq "$kind $name ($role): the stand-in's status" "$got" "$want Created true" || return
	done
	eq "fluid's labels select the plan's objects" \
		"$(kc -n "$CHECK_NS" get flinkcomputepools,flinkstatements -o name \
			-l "app.kubernetes.io/managed-by=fluid,app.kubernetes.io/name=$(jq -r .product "$plan"),fluid.dev/build=$(jq -r '.builds[0].build' "$plan")" |
			sed 's,^[^/]*/,,' | sort)" \
		"$(jq -r '.resources[].resource.metadata.name' "$plan" | sort)"
}

# --- the CRDs ----------------------------------------------------------------------------
# The nine rebuilt CRDs are accepted by the API server (which refuses a
# non-structural schema and a CEL rule it cannot compile), Established,
# their names accepted; the CEL rules are in the stored schemas; the
# schemas refuse an undeclared field, a missing required one and a value
# outside an enum, by server-side apply with strict validation, and
# accept the same document without the flaw.
check_cfk_crds_served() {
	local f n conds doc
	cfk_crds_ready || return
	for f in "$K8S_HERE"/cfk-crds/*.yaml; do
		n=$(basename "$f" .yaml)
		conds=$(kc get crd "$n" -o json | jq -c '[.status.conditions[] | {(.type): .status}] | add')
		eq "CRD $n: its conditions" "$(jq -c '{Established, NamesAccepted, NonStructuralSchema}' <<<"$conds")" \
			'{"Established":"True","NamesAccepted":"True","NonStructuralSchema":null}' || return
	done
	eq "CRDs of $CFK_GROUP on the server" "$(kc get crd -o json |
		jq "[.items[] | select(.spec.group == \"$CFK_GROUP\")] | length")" "$(ls "$K8S_HERE"/cfk-crds/*.yaml | wc -l)" || return
	eq "FlinkStatement's CEL rule, stored" \
		"$(kc get crd "flinkstatements.$CFK_GROUP" -o json |
			jq -c '.spec.versions[0].schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"]')" \
		'[{"message":"statement is immutable once running","rule":"self.statement == oldSelf.statement || oldSelf.statement == '"''"'"}]' || return
	eq "FlinkComputePool's CEL rules, stored" \
		"$(kc get crd "flinkcomputepools.$CFK_GROUP" -o json |
			jq -r '.spec.versions[0].schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"][].message')" \
		"type is immutable
flinkEnvironment is immutable
spec.state is only valid for SHARED compute pools; DEDICATED pools must omit it" || return
	doc=$(jq -cn --arg ns "$CHECK_NS" '{apiVersion: "platform.confluent.io/v1beta1", kind: "FlinkStatement",
		metadata: {name: "schema-probe", namespace: $ns},
		spec: {flinkEnvironment: "flink-env1", computePoolName: "pool", statement: "SELECT 1"}}')
	must_refuse "an undeclared spec.catalog" 'field not declared in schema' \
		kc apply --server-side --dry-run=server --validate=strict -f - <<<"$(jq -c '.spec.catalog = "kafka-catalog"' <<<"$doc")" || return
	must_refuse "no spec.computePoolName" 'spec.computePoolName: Required value' \
		kc apply --server-side --dry-run=server --validate=strict -f - <<<"$(jq -c 'del(.spec.computePoolName)' <<<"$doc")" || return
	must_refuse "a FlinkComputePool of type BIG" 'spec.type: Unsupported value: "BIG"' \
		kc apply --server-side --dry-run=server --validate=strict -f - <<<"$(jq -c --arg ns "$CHECK_NS" '{apiVersion: "platform.confluent.io/v1beta1",
			kind: "FlinkComputePool", metadata: {name: "schema-probe", namespace: $ns},
			spec: {type: "BIG", flinkEnvironment: "flink-env1", clusterSpec: {}}}' <<<'{}')" || return
	must "the document without a flaw" \
		kc apply --server-side --dry-run=server --validate=strict -f - <<<"$doc" || return
	must_refuse "nothing was created" 'NotFound|not found' kc -n "$CHECK_NS" get flinkstatement schema-probe
}

# --- fluid apply, then a changed SQL ----------------------------------------------------------
# fluid apply of the CFK contract: every rendered object accepted and
# stored as planned, with fluid's labels, the DDL COMPLETED before the
# INSERT was written.  Then a changed output column (channel read from
# another map key: the INSERT changes, not the tables): fluid plan names a
# new INSERT and keeps the DDL's names, apply writes it, stops the old one
# (spec.stopped: true, seen on the server) and deletes it.  Then a
# changed consumer group (the source table and the INSERT change): the old
# INSERT stopped, then the old INSERT and source deleted in that order,
# the sink kept.  fluid never sent a statement's name with another SQL
# (it could not: the CEL rule, check_cfk_cel_rules), and the stand-in
# wrote only status.
check_cfk_apply_new_sql() {
	local p1=$CHECK_DIR/p1.json p2=$CHECK_DIR/p2.json p3=$CHECK_DIR/p3.json
	local src1 snk1 ins1 ins2 src3 ins3 from n
	cfk_crds_ready || return
	cfk_standin_start
	cfk_apply_v1 || return
	src1=$(cfk_statement_of "$p1" src) snk1=$(cfk_statement_of "$p1" snk) ins1=$(cfk_statement_of "$p1" ins)
	[ -n "$src1" ] && [ -n "$snk1" ] && [ -n "$ins1" ] || { fail "the plan names no statements: $(jq -c .builds "$p1")"; return 1; }
	for n in "FlinkComputePool $CHECK_NS/fluid-dedicated: synced with CMF" \
		"FlinkStatement $CHECK_NS/$src1: COMPLETED" "FlinkStatement $CHECK_NS/$snk1: COMPLETED" \
		"FlinkStatement $CHECK_NS/$ins1: synced with CMF"; do
		grep -qFx -- "$n" "$OUT" || { fail "apply v1 did not say '$n': $(head -c 600 "$OUT")"; return 1; }
	done
	cfk_live_as_planned "$p1" || return
	cfk_in_order "apply v1: pool, DDL, then the INSERT" 0 apply:fluid-dedicated \
		"apply:$src1" "apply:$snk1" "apply:$ins1" || return

	# A changed output expression: a new INSERT, the same DDL.
	C=$(cfk_contract "s/from: \"attributes\\['channel'\\]\"/from: \"attributes['source']\"/") || return
	grep -qF "from: \"attributes['source']\"" "$C" || { fail "test bug: the mapping was not edited"; return 1; }
	jq '[.resources[].resource]' "$p1" >"$CHECK_DIR/last1.json"
	cfk_plan "$C" amend-and-build "$p2" --last-applied "$CHECK_DIR/last1.json" || return
	ins2=$(cfk_statement_of "$p2" ins)
	# The DDL keep their names; their bundle-digest annotation (of the
	# whole contract) is all that changes.
	eq "plan v2: the DDL keep their names, the INSERT is new" \
		"$(jq -c '[.resources[] | [.resource.metadata.name, .action]]' "$p2")" \
		"[[\"fluid-dedicated\",\"unchanged\"],[\"$src1\",\"changed\"],[\"$snk1\",\"changed\"],[\"$ins2\",\"new\"]]" || return
	cfk_only_bundle_changed "$p1" "$p2" "$src1" "$snk1" || return
	[ "$ins2" != "$ins1" ] || { fail "the changed INSERT kept its name $ins1"; return 1; }
	! cfk_exists flinkstatement "$ins2" || { fail "$ins2 exists before apply"; return 1; }
	cfk_hold "$ins1" || return
	from=$(cfk_ncalls)
	cfk_apply "$p2" amend-and-build || { fail "apply v2: exit $?: $(head -c 600 "$ERR")"; return 1; }
	for n in "FlinkStatement $CHECK_NS/$ins1: stopped (spec.stopped: true)" \
		"FlinkStatement $CHECK_NS/$ins2: synced with CMF" "FlinkStatement $CHECK_NS/$ins1: deleted"; do
		grep -qFx -- "$n" "$OUT" || { fail "apply v2 did not say '$n': $(head -c 600 "$OUT")"; return 1; }
	done
	cfk_in_order "apply v2: stop the old INSERT, write the new, delete the old" "$from" \
		"patch:$ins1" "apply:$ins2" "delete:$ins1" || return
	# The old INSERT, held by the check's finalizer: stopped by fluid, the
	# SQL as it was, then deleted.  Generation 2 is the stop (the stand-in
	# saw it, below), 3 the deletion (the API server counts setting
	# deletionTimestamp as one).
	must "the old INSERT" kc -n "$CHECK_NS" get flinkstatement "$ins1" -o json --show-managed-fields || return
	eq "the old INSERT: stopped, its SQL unchanged, deleted" \
		"$(jq -c '[.spec.stopped, .metadata.generation, (.metadata.deletionTimestamp != null)]' "$OUT")" '[true,3,true]' || return
	eq "the old INSERT's SQL" "$(jq -r .spec.statement "$OUT")" \
		"$(jq -r --arg n "$ins1" '.resources[].resource | select(.metadata.name == $n) | .spec.statement' "$p1")" || return
	eq "fluid's patch owns spec.stopped" "$(jq '[.metadata.managedFields[] | select(.manager == "fluid" and
		.operation == "Update") | .fieldsV1["f:spec"]["f:stopped"] != null] | any' "$OUT")" true || return
	grep -qF "wrote status of FlinkStatement $CHECK_NS/$ins1 generation 2: phase STOPPED, cmfSync Created, spec.stopped true" \
		"$CFK_STANDIN_LOG" || { fail "the stand-in never saw $ins1 stopped: $(tail -n 5 "$CFK_STANDIN_LOG")"; return 1; }
	eq "the DDL untouched" "$(kc -n "$CHECK_NS" get flinkstatement "$src1" "$snk1" -o json |
		jq -c '[.items[] | [.metadata.generation, .metadata.deletionTimestamp, .spec.stopped]]')" '[[1,null,null],[1,null,null]]' || return
	cfk_release "$ins1" || return
	cfk_live_as_planned "$p2" || return

	# A changed consumer group: a new source table and INSERT, the sink kept.
	C=$(cfk_contract 's/groupId: .*/groupId: forge-commerce-orders-reshaped-v3/') || return
	jq '[.resources[].resource]' "$p2" >"$CHECK_DIR/last2.json"
	cfk_plan "$C" amend-and-build "$p3" --last-applied "$CHECK_DIR/last2.json" || return
	src3=$(cfk_statement_of "$p3" src) ins3=$(cfk_statement_of "$p3" ins)
	eq "plan v3: a new source and INSERT, the sink kept" \
		"$(jq -c '[.resources[] | [.resource.metadata.name, .action]]' "$p3")" \
		"[[\"fluid-dedicated\",\"unchanged\"],[\"$src3\",\"new\"],[\"$snk1\",\"changed\"],[\"$ins3\",\"new\"]]" || return
	cfk_only_bundle_changed "$p2" "$p3" "$snk1" || return
	[ "$src3" != "$src1" ] && [ "$ins3" != "$ins2" ] || { fail "v3 kept a changed statement's name"; return 1; }
	cfk_hold "$src1" "$ins2" || return
	from=$(cfk_ncalls)
	cfk_apply "$p3" amend-and-build || { fail "apply v3: exit $?: $(head -c 600 "$ERR")"; return 1; }
	cfk_in_order "apply v3: new source, stop the old INSERT, new INSERT, delete the old INSERT then the old source" "$from" \
		"apply:$src3" "patch:$ins2" "apply:$ins3" "delete:$ins2" "delete:$src1" || return
	[ -z "$(cfk_call_at patch "$src1" 0)" ] || { fail "fluid patched the old source table's statement"; return 1; }
	eq "the old INSERT and source: deleted, only the INSERT stopped" \
		"$(kc -n "$CHECK_NS" get flinkstatement "$ins2" "$src1" -o json |
			jq -c '[.items[] | [.metadata.name, .spec.stopped, (.metadata.deletionTimestamp != null)]] | sort')" \
		"$(jq -cn --arg i "$ins2" --arg s "$src1" '[[$i, true, true], [$s, null, true]] | sort')" || return
	cfk_release "$src1" "$ins2" || return
	cfk_live_as_planned "$p3" || return

	# fluid never sent a statement's name with another SQL: every object it
	# applied, grouped by name, has one statement.
	eq "fluid applied each statement name with one SQL" \
		"$(jq -s -c '[.[] | select(.kind == "FlinkStatement")] | group_by(.metadata.name) |
			map(select([.[].spec.statement] | unique | length > 1) | .[0].metadata.name)' "$CHECK_DIR"/bodies/*.json)" '[]' || return
	eq "the statement names fluid applied" \
		"$(jq -s -c '[.[] | select(.kind == "FlinkStatement") | .metadata.name] | unique | length' "$CHECK_DIR"/bodies/*.json)" 6 || return
	eq "fluid's verbs" "$(cfk_verbs 0 | cut -f1 | sort -u | paste -sd, -)" apply,delete,get,patch || return
	# The stop: a JSON patch that first tests the uid fluid read, then
	# sets spec.stopped, and nothing else.
	eq "fluid's only patch is the stop" "$(cfk_verbs 0 | grep -c '^patch')" \
		"$(cfk_verbs 0 | grep '^patch' | grep -F -- '--type=json' |
			grep -E -- '--patch=\\\[\\\{\\"op\\":\\"test\\"\\,\\"path\\":\\"/metadata/uid\\"\\,\\"value\\":\\"[0-9a-f-]+\\"\\\}\\,\\\{\\"op\\":\\"add\\"\\,\\"path\\":\\"/spec/stopped\\"\\,\\"value\\":true\\\}\\\] ' | grep -c .)" || return
	cfk_standin_wrote_only_status || return
	cfk_calls_clean
}

# --- CFK's CEL rules on the real API server ----------------------------------------------
# On what fluid applied (the INSERT RUNNING by the stand-in's status): a
# change of spec.statement, by replace and by another manager's forced
# server-side apply, is refused with CFK's message, stopped or not; the
# same statement's parallelism may change; a statement created empty may
# get its SQL; the pool's type, a state on the DEDICATED pool (at update
# and at create) and either's flinkEnvironment are refused, each with
# CFK's message, and a SHARED pool takes a state.  The objects stay as
# fluid applied them.
check_cfk_cel_rules() {
	local p1=$CHECK_DIR/p1.json ins sql doc
	cfk_crds_ready || return
	cfk_standin_start
	cfk_apply_v1 || return
	ins=$(cfk_statement_of "$p1" ins)
	sql=$(jq -r --arg n "$ins" '.resources[].resource | select(.metadata.name == $n) | .spec.statement' "$p1")
	eq "the INSERT's phase, as the stand-in wrote it" "$(jget "flinkstatement/$ins" .status.phase)" RUNNING || return

	kc -n "$CHECK_NS" get flinkstatement "$ins" -o json |
		jq '.spec.statement |= sub("SELECT"; "SELECT /* edited */")' >"$CHECK_DIR/edited.json"
	grep -qF 'SELECT /* edited */' "$CHECK_DIR/edited.json" || { fail "test bug: the statement was not edited"; return 1; }
	must_refuse "kubectl replace with another statement" 'statement is immutable once running' \
		kc -n "$CHECK_NS" replace -f "$CHECK_DIR/edited.json" || return
	jq '{apiVersion, kind, metadata: {name: .metadata.name, namespace: .metadata.namespace},
		spec: {flinkEnvironment: .spec.flinkEnvironment, computePoolName: .spec.computePoolName,
		statement: .spec.statement}}' "$CHECK_DIR/edited.json" >"$CHECK_DIR/edited-apply.json"
	must_refuse "another manager's forced server-side apply of another statement" 'statement is immutable once running' \
		kc -n "$CHECK_NS" apply --server-side --field-manager=someone-else --force-conflicts \
		-f "$CHECK_DIR/edited-apply.json" || return
	must "the parallelism of the same statement may change (server dry run)" \
		kc -n "$CHECK_NS" patch flinkstatement "$ins" --dry-run=server --type=merge -p '{"spec":{"parallelism":2}}' || return
	must_refuse "the statement's flinkEnvironment" 'flinkEnvironment is immutable' \
		kc -n "$CHECK_NS" patch flinkstatement "$ins" --type=merge -p '{"spec":{"flinkEnvironment":"flink-env2"}}' || return
	must "stop the INSERT" kc -n "$CHECK_NS" patch flinkstatement "$ins" --type=merge -p '{"spec":{"stopped":true}}' || return
	must_refuse "a stopped statement's SQL" 'statement is immutable once running' \
		kc -n "$CHECK_NS" patch flinkstatement "$ins" --type=merge \
		-p "$(jq -cn --arg s "$sql -- edited" '{spec: {statement: $s}}')" || return
	eq "the INSERT's SQL as fluid applied it" "$(jget "flinkstatement/$ins" .spec.statement)" "$sql" || return
	# The rule's other branch: an empty statement may be given its SQL.
	doc=$(jq -cn --arg ns "$CHECK_NS" '{apiVersion: "platform.confluent.io/v1beta1", kind: "FlinkStatement",
		metadata: {name: "cel-empty", namespace: $ns},
		spec: {flinkEnvironment: "flink-env1", computePoolName: "fluid-dedicated", statement: ""}}')
	must "a statement created empty" kc create -f - <<<"$doc" || return
	must "its SQL given later" kc -n "$CHECK_NS" patch flinkstatement cel-empty --type=merge \
		-p '{"spec":{"statement":"SELECT 1"}}' || return
	must_refuse "then changed" 'statement is immutable once running' \
		kc -n "$CHECK_NS" patch flinkstatement cel-empty --type=merge -p '{"spec":{"statement":"SELECT 2"}}' || return

	must_refuse "the pool's type" 'type is immutable' \
		kc -n "$CHECK_NS" patch flinkcomputepool fluid-dedicated --type=merge -p '{"spec":{"type":"SHARED"}}' || return
	must_refuse "a state on the DEDICATED pool" \
		'spec.state is only valid for SHARED compute pools; DEDICATED pools must omit it' \
		kc -n "$CHECK_NS" patch flinkcomputepool fluid-dedicated --type=merge -p '{"spec":{"state":"SUSPENDED"}}' || return
	must_refuse "the pool's flinkEnvironment" 'flinkEnvironment is immutable' \
		kc -n "$CHECK_NS" patch flinkcomputepool fluid-dedicated --type=merge -p '{"spec":{"flinkEnvironment":"flink-env2"}}' || return
	doc=$(jq -c '.resources[0].resource | .metadata.name = "cel-pool" | .spec.state = "RUNNING"' "$p1")
	must_refuse "a DEDICATED pool created with a state" \
		'spec.state is only valid for SHARED compute pools; DEDICATED pools must omit it' \
		kc apply --server-side --dry-run=server --validate=strict -f - <<<"$doc" || return
	must "a SHARED pool created with a state (server dry run)" \
		kc apply --server-side --dry-run=server --validate=strict -f - <<<"$(jq -c '.spec.type = "SHARED"' <<<"$doc")" || return
	eq "the pool's spec as fluid applied it" "$(jget flinkcomputepool/fluid-dedicated '.spec' | jq -S .)" \
		"$(jq -S '.resources[0].resource.spec' "$p1")" || return
	cfk_standin_wrote_only_status || return
	cfk_calls_clean
}

# --- refusals from what CMF reports --------------------------------------------------------
# With the contract applied, the stand-in reports a new source statement
# FAILED (CMF's detail), then, for the next change, a cmfSync failure
# (CFK's errorMessage): each time fluid apply exits 1 quoting it, writes
# neither the new INSERT nor a stop or delete, and the old INSERT stays
# as it ran (not stopped, its generation and phase unchanged).
check_cfk_refusals() {
	local p1=$CHECK_DIR/p1.json ins1 i plan src from msg
	cfk_crds_ready || return
	cfk_standin_start
	cfk_apply_v1 || return
	ins1=$(cfk_statement_of "$p1" ins)
	for i in 2 3; do
		if [ "$i" = 2 ]; then
			msg="stand-in for CMF: Table reshape-orders__source already exists"
			cfk_standin_control "$(jq -cn --arg m "$msg" '{ddl_phase: "FAILED", ddl_detail: $m}')"
		else
			msg="stand-in for CFK: environment flink-env1 not found in CMF"
			cfk_standin_control "$(jq -cn --arg m "$msg" '{sync_status: "Failed", sync_error: $m}')"
		fi
		C=$(cfk_contract "s/groupId: .*/groupId: forge-commerce-orders-reshaped-v$i/") || return
		plan=$CHECK_DIR/p$i.json
		cfk_plan "$C" amend-and-build "$plan" || return
		src=$(cfk_statement_of "$plan" src)
		from=$(cfk_ncalls)
		cfk_apply "$plan" amend-and-build
		eq "v$i: fluid apply's exit status" "$?" 1 || { fail "stderr: $(head -c 600 "$ERR")"; return 1; }
		if [ "$i" = 2 ]; then
			grep -qF "FlinkStatement $CHECK_NS/$src: CMF reports phase FAILED: $msg" "$ERR" ||
				{ fail "v$i: not CMF's FAILED with its detail: $(head -c 600 "$ERR")"; return 1; }
		else
			grep -qF "FlinkStatement $CHECK_NS/$src: CFK could not sync it with CMF (cmfSync.status Failed): $msg" "$ERR" ||
				{ fail "v$i: not CFK's cmfSync failure with its errorMessage: $(head -c 600 "$ERR")"; return 1; }
		fi
		echo "k8s:     v$i refused: $(grep -m1 -F "$msg" "$ERR" | head -c 300)"
		[ -z "$(cfk_call_at apply "$(cfk_statement_of "$plan" ins)" "$from")" ] ||
			{ fail "v$i: fluid applied the new INSERT after the refusal"; return 1; }
		! cfk_verbs "$from" | grep -Eq '^(patch|delete)' ||
			{ fail "v$i: fluid stopped or deleted after the refusal: $(cfk_verbs "$from" | grep -E '^(patch|delete)' | head -n 2)"; return 1; }
		eq "v$i: the old INSERT runs on" \
			"$(kc -n "$CHECK_NS" get flinkstatement "$ins1" -o json |
				jq -c '[.spec.stopped, .metadata.generation, .status.phase, .metadata.deletionTimestamp]')" \
			'[null,1,"RUNNING",null]' || return
		! cfk_exists flinkstatement "$(cfk_statement_of "$plan" ins)" || { fail "v$i: the new INSERT exists"; return 1; }
	done
	cfk_standin_wrote_only_status || return
	cfk_calls_clean
}

# --- every example, both targets ----------------------------------------------------------
# The examples fluid refuses as a CFK build, each with the start of
# fluid's reason (fluid-check(1), CFK TARGET); every other one must render.
# None today: the change stream example lands as upsert, which CMF runs.
# An entry: [changes/x.fluid.yaml]='append-with-op is not supported with management: cfk'
declare -A CFK_REFUSED_EXAMPLES=()

# cfk_dry_apply WHAT DOC : the API server accepts DOC by server-side apply
# as fluid, with strict field validation, in a dry run.
cfk_dry_apply() {
	must "$1" kc apply --server-side --field-manager=fluid --dry-run=server --validate=strict -f - <<<"$2" || return
	grep -q 'serverside-applied (server dry run)$' "$OUT" || { fail "$1: not applied: $(head -c 300 "$OUT")"; return 1; }
}

# cfk_render_filters DIR CONTRACT OUT : fluid-resolve | fluid-check |
# fluid-sqlgen | fluid-k8s render --resources of CONTRACT (relative to DIR,
# the tree its $refs resolve in), the rendered objects as an array in OUT.
cfk_render_filters() {
	(cd "$1" && "$FLUID_BIN/fluid-resolve" "$2" | "$FLUID_BIN/fluid-check" | "$FLUID_BIN/fluid-sqlgen" |
		"$FLUID_BIN/fluid-k8s" render --resources) >"$3.list" 2>"$ERR" &&
		jq '.items' "$3.list" >"$3" || { fail "$2: the filters did not render it: $(head -c 600 "$ERR")"; return 1; }
}

cfk_check_file() { "$FLUID_BIN/fluid-check" <"$1"; }

# Every contract of examples/ (each *.fluid.yaml), none left out: for the
# operator target, fluid plan of the example as it is and the filters
# render the same objects (fluid plan adds its plan-digest annotation),
# one FlinkDeployment of the deployment's name and its ConfigMap (for an
# example that is a CFK build as it is, examples/cfk, its own pool and a
# FlinkStatement per statement instead), each accepted by the API server
# (server-side apply as fluid, strict field validation, dry run, in
# CHECK_NS).  For the CFK target, the example made
# a CFK build by tests/cfk/variant: fluid plan and the filters render the
# same objects, the FlinkComputePool and a FlinkStatement for each
# statement the plan names (a source, a sink and an INSERT among them),
# each accepted the same way against the rebuilt CRDs (schemas and CEL
# rules).  An example of CFK_REFUSED_EXAMPLES must instead be refused as
# a CFK build, by fluid plan and by fluid-check, exit 1, with its reason.
# The examples covered are as many as examples/ holds; nothing was created.
check_cfk_every_example() {
	local all rel n=0 rendered=0 refused=0 ex dir c op ff i doc kind name why
	cfk_crds_ready || return
	all=$(cd "$CFK_EXAMPLES" && find . -name '*.fluid.yaml' -type f | sed 's,^\./,,' | LC_ALL=C sort)
	[ -n "$all" ] || { fail "no *.fluid.yaml in $CFK_EXAMPLES"; return 1; }
	for rel in "${!CFK_REFUSED_EXAMPLES[@]}"; do
		grep -qFx -- "$rel" <<<"$all" || { fail "CFK_REFUSED_EXAMPLES names $rel, not an example"; return 1; }
	done
	for rel in $all; do
		n=$((n + 1))
		ex=$CHECK_DIR/ex$n
		mkdir -p "$ex"
		# Its tree: the directory above its own (the workspace file, the fragments).
		dir=$(cd "$CFK_EXAMPLES/$(dirname "$rel")/.." && pwd)
		c=$(basename "$(dirname "$rel")")/$(basename "$rel")

		# The operator target, the example as it is.
		op=$ex/operator-plan.json
		(cd "$dir" && "$FLUID_BIN/fluid" plan --mode amend-and-build --out "$op" "$c") >"$OUT" 2>"$ERR" ||
			{ fail "$rel: fluid plan (operator): exit $?: $(head -c 600 "$ERR")"; return 1; }
		cfk_render_filters "$dir" "$c" "$ex/operator-render.json" || return
		eq "$rel (operator): fluid plan and the filters render the same" \
			"$(jq -S '[.resources[].resource | del(.metadata.annotations["fluid.dev/plan-digest"])]' "$op")" \
			"$(jq -S . "$ex/operator-render.json")" || return
		if grep -q '^ *management: cfk$' "$CFK_EXAMPLES/$rel"; then
			# A CFK build as it is (examples/cfk): its own pool, then
			# its statements, accepted below like the operator's.
			eq "$rel (as it is, cfk): the pool, then a statement for each the plan names" \
				"$(jq -c '[.resources[].resource.kind]' "$op")" \
				"$(jq -c '["FlinkComputePool"] + [.builds[0].statements[] | "FlinkStatement"]' "$op")" || return
		else
			eq "$rel (operator): the kinds" "$(jq -c '[.resources[].resource.kind] | sort' "$op")" \
				'["ConfigMap","FlinkDeployment"]' || return
			name=$(sed -n '/^ *deployment:$/,$s/^ *name: *//p' "$CFK_EXAMPLES/$rel" | head -n 1)
			eq "$rel (operator): the FlinkDeployment's name" \
				"$(jq -r '.resources[].resource | select(.kind == "FlinkDeployment") | .metadata.name' "$op")" "$name" || return
		fi
		for (( i=0; i<$(jq '.resources | length' "$op"); i++ )); do
			doc=$(jq -c --arg ns "$CHECK_NS" ".resources[$i].resource | .metadata.namespace = \$ns" "$op")
			kind=$(jq -r .kind <<<"$doc")
			cfk_dry_apply "$rel (operator): $kind $(jq -r .metadata.name <<<"$doc")" "$doc" || return
		done

		# The CFK target: the example made a CFK build.
		c=$(cfk_variant "$rel" "$ex/cfk-tree") || return
		ff=$ex/cfk-plan.json
		if [ -n "${CFK_REFUSED_EXAMPLES[$rel]+x}" ]; then
			why=${CFK_REFUSED_EXAMPLES[$rel]}
			must_refuse "$rel (cfk): fluid plan" "error: .*: $why" \
				"$FLUID_BIN/fluid" plan --mode amend-and-build --out "$ff" "$c" || return
			[ ! -e "$ff" ] || { fail "$rel (cfk): fluid plan refused it but wrote $ff"; return 1; }
			(cd "$ex/cfk-tree" && "$FLUID_BIN/fluid-resolve" "${c#"$ex/cfk-tree/"}") >"$ex/cfk-resolved.json" ||
				{ fail "$rel (cfk): fluid-resolve failed"; return 1; }
			must_refuse "$rel (cfk): fluid-check" "$why" cfk_check_file "$ex/cfk-resolved.json" || return
			refused=$((refused + 1))
			echo "k8s:     $rel: operator target rendered and accepted; CFK target refused, as fluid-check(1) says"
			continue
		fi
		must "$rel (cfk): fluid plan" "$FLUID_BIN/fluid" plan --mode amend-and-build --out "$ff" "$c" || return
		cfk_render_filters "$ex/cfk-tree" "${c#"$ex/cfk-tree/"}" "$ex/cfk-render.json" || return
		eq "$rel (cfk): fluid plan and the filters render the same" \
			"$(jq -S '[.resources[].resource]' "$ff")" "$(jq -S . "$ex/cfk-render.json")" || return
		eq "$rel (cfk): the pool, then a statement for each the plan names" \
			"$(jq -c '[.resources[].resource | [.kind, .metadata.name]]' "$ff")" \
			"$(jq -c '[["FlinkComputePool", "fluid-dedicated"]] + [.builds[0].statements[] | ["FlinkStatement", .]]' "$ff")" || return
		for i in src snk ins; do
			[ -n "$(cfk_statement_of "$ff" "$i")" ] || { fail "$rel (cfk): no $i statement: $(jq -c .builds "$ff")"; return 1; }
		done
		for (( i=0; i<$(jq '.resources | length' "$ff"); i++ )); do
			doc=$(jq -c ".resources[$i].resource" "$ff")
			eq "$rel (cfk): resource $i's namespace" "$(jq -r .metadata.namespace <<<"$doc")" "$CHECK_NS" || return
			cfk_dry_apply "$rel (cfk): $(jq -r '.kind + " " + .metadata.name' <<<"$doc")" "$doc" || return
		done
		rendered=$((rendered + 1))
		echo "k8s:     $rel: operator target rendered and accepted; CFK target: $(jq '.resources | length' "$ff") objects accepted"
	done
	eq "examples covered (both targets rendered, or CFK refused as listed)" "$((rendered + refused))" \
		"$(wc -l <<<"$all")" || return
	eq "examples refused as a CFK build" "$refused" "${#CFK_REFUSED_EXAMPLES[@]}" || return
	echo "k8s:     $n examples: $rendered rendered for both targets, $refused for the operator target only"
	eq "nothing was created" "$(kc -n "$CHECK_NS" get flinkcomputepools,flinkstatements,flinkdeployments,configmaps \
		-l app.kubernetes.io/managed-by=fluid -o name)" ""
}
