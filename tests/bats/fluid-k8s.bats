#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
#
# fluid-k8s.bats - fluid-k8s render (fluid-k8s(1)): the ConfigMap and the
# FlinkDeployment of each managed build, checked against the contract
# they come from (its deployment fields, the script fluid-sqlgen wrote,
# the table file fluid generate writes), deterministic, without any
# credential, and refusing names the API server would refuse.  The
# shape is checked against the operator's CRD in tests/k8s-schema/.

load helpers
load fake-kubectl

setup() {
	TOOL=fluid-k8s
	fluid_setup
	cp -R "$EXAMPLES/shapes" shapes
	LANDED=shapes/landed/orders-landed.fluid.yaml
}

teardown() { fluid_teardown; }

# sqlgen_doc CONTRACT: fluid-sqlgen's document for CONTRACT on stdout.
sqlgen_doc() {
	"$BIN/fluid-resolve" "$1" | "$BIN/fluid-check" | "$BIN/fluid-sqlgen"
}

# res KIND: the resource of that kind in the last output (a List).
res() {
	jq -c --arg k "$1" '.items[] | select(.kind == $k)' <<<"$output"
}

@test "fluid-k8s render: adds the k8s section after sqlgen, and passes the rest on" {
	sqlgen_doc "$LANDED" >in.json
	tool render <in.json
	assert_status 0
	assert_no_stderr
	assert_jq '.stages == ["resolve", "check", "sqlgen", "k8s"]'
	assert_jq '.k8s.builds | length == 1 and .[0].build == "land-orders"'
	assert_jq '.k8s.builds[0].resources | map(.kind) == ["ConfigMap", "FlinkDeployment"]'
	# The sections before are as they came.
	for s in resolve check sqlgen; do
		assert_equal "$(jq -cS ".$s" <<<"$output")" "$(jq -cS ".$s" in.json)" "section $s"
	done
}

@test "fluid-k8s render: the ConfigMap is immutable, named by the SQL digest, and holds generate's very files" {
	sqlgen_doc "$LANDED" >in.json
	"$BIN/fluid" generate flink --out gen "$LANDED" >/dev/null
	tool render --resources <in.json
	assert_status 0
	local cm sha
	cm=$(res ConfigMap)
	sha=$(sha256sum gen/land-orders.sql | cut -d' ' -f1)
	assert_equal "$(jq -r .metadata.name <<<"$cm")" "commerce-orders-landed-sql-${sha:0:12}" "the name"
	assert_equal "$(jq -r .metadata.namespace <<<"$cm")" data-products "the namespace"
	assert_equal "$(jq -r .immutable <<<"$cm")" true "immutable"
	assert_equal "$(jq -r '.data | keys | join(" ")' <<<"$cm")" \
	    "land-orders.sql land-orders.table.json" "the keys"
	jq -j '.data["land-orders.sql"]' <<<"$cm" >cm.sql
	jq -j '.data["land-orders.table.json"]' <<<"$cm" >cm.table.json
	cmp cm.sql gen/land-orders.sql || fail "the script is not generate's"
	cmp cm.table.json gen/land-orders.table.json || fail "the table file is not generate's"
	assert_equal "$(jq -r '.metadata.annotations["fluid.dev/sql-digest"]' <<<"$cm")" \
	    "sha256:$sha" "the SQL digest annotation"
}

@test "fluid-k8s render: the FlinkDeployment carries the contract's deployment" {
	sqlgen_doc "$LANDED" >in.json
	tool render --resources <in.json
	assert_status 0
	local fd cm bundle sha
	fd=$(res FlinkDeployment)
	cm=$(res ConfigMap | jq -r .metadata.name)
	bundle=$(digest_of "$LANDED")
	sha=$("$BIN/fluid-sqlgen" --sql <<<"$("$BIN/fluid-resolve" "$LANDED" | "$BIN/fluid-check")" |
	    sha256sum | cut -d' ' -f1)
	t() { jq -e "$1" <<<"$fd" >/dev/null || fail "not true of the FlinkDeployment: $1" "$fd"; }
	t '.apiVersion == "flink.apache.org/v1beta1"'
	t '.metadata.name == "commerce-orders-landed" and .metadata.namespace == "data-products"'
	t '.spec.image == "registry.example.com/forge-flink@sha256:0000000000000000000000000000000000000000000000000000000000000000"'
	t '.spec.flinkVersion == "v1_20" and .spec.serviceAccount == "flink"'
	t '.spec.job.upgradeMode == "savepoint" and .spec.job.state == "running"'
	t '.spec.job.jarURI == "local:///opt/flink/usrlib/fluid-flink-runner.jar"'
	t '.spec.job.entryClass == "fluid.runner.FlinkRunner"'
	t '.spec.flinkConfiguration["execution.checkpointing.dir"] == "s3://flink-state/commerce-orders-landed/checkpoints"'
	t '.spec.flinkConfiguration["execution.checkpointing.savepoint-dir"] == "s3://flink-state/commerce-orders-landed/savepoints"'
	t '.spec.flinkConfiguration["high-availability.storageDir"] == "s3://flink-state/commerce-orders-landed/ha"'
	t '.spec.flinkConfiguration["high-availability.type"] == "kubernetes"'
	t '.spec.flinkConfiguration["execution.checkpointing.interval"] == "60s"'
	# No sizing in the contract: one slot of one 2048m, 1-CPU TaskManager,
	# and the key groups pinned at the 128 Flink derives for parallelism 1.
	t '.spec.job.parallelism == 1'
	t '.spec.flinkConfiguration["pipeline.max-parallelism"] == "128"'
	t '.spec.flinkConfiguration["taskmanager.numberOfTaskSlots"] == "1"'
	t '.spec.jobManager.resource == {"memory": "2048m", "cpu": 1}'
	t '.spec.taskManager.resource == {"memory": "2048m", "cpu": 1}'
	t '.spec.flinkConfiguration | keys | map(select(startswith("job.autoscaler."))) == []'
	t '.spec.flinkConfiguration | has("table.exec.source.idle-timeout") | not'
	# Flink 1.20's names, not the deprecated state.checkpoints.dir and
	# state.savepoints.dir.
	t '.spec.flinkConfiguration | keys | map(select(startswith("state."))) == []'
	# Every value a string: the 1.10 CRD types them so.
	t '.spec.flinkConfiguration | map_values(type) | all(. == "string")'
	t '.spec.podTemplate.spec.containers[0].name == "flink-main-container"'
	t '.spec.podTemplate.spec.containers[0].envFrom == [{"secretRef": {"name": "flink-storage"}}]'
	t ".spec.podTemplate.spec.volumes == [{\"name\": \"fluid-sql\", \"configMap\": {\"name\": \"$cm\"}}]"
	# The runner's files are the ConfigMap's two keys, mounted, after
	# the one variable the build binds (the catalog's token).
	t '.spec.podTemplate.spec.containers[0].volumeMounts[0].mountPath as $m |
	    .spec.job.args == ["--env-allow", "ICEBERG_TOKEN",
	    $m + "/land-orders.sql", $m + "/land-orders.table.json"]'
	t '.metadata.labels == {"app.kubernetes.io/name": "commerce.orders-landed",
	    "fluid.dev/build": "land-orders", "app.kubernetes.io/managed-by": "fluid"}'
	t ".metadata.annotations[\"fluid.dev/bundle-digest\"] == \"$bundle\""
	t ".metadata.annotations[\"fluid.dev/sql-digest\"] == \"sha256:$sha\""
	# The ConfigMap has the same labels: apply's ownership check reads them.
	res ConfigMap | jq -e --argjson l "$(jq -c .metadata.labels <<<"$fd")" \
	    '.metadata.labels == $l' >/dev/null || fail "the ConfigMap's labels differ"
}

@test "fluid-k8s render: deployment.state suspended suspends the job" {
	sed -i 's/^            secretRefs: \[flink-storage\]/&\n            state: suspended/' "$LANDED"
	grep -q 'state: suspended' "$LANDED" || fail "could not edit the contract"
	sqlgen_doc "$LANDED" >in.json
	tool render --resources <in.json
	assert_status 0
	assert_equal "$(res FlinkDeployment | jq -r .spec.job.state)" suspended "job.state"
}

@test "fluid-k8s render: the same document gives the same bytes; --yaml reads back as the JSON" {
	sqlgen_doc "$LANDED" >in.json
	"$BIN/fluid-k8s" render <in.json >a.json
	"$BIN/fluid-k8s" render <in.json >b.json
	cmp a.json b.json || fail "two renders differ"
	"$BIN/fluid-k8s" render --resources <in.json >a.list
	"$BIN/fluid-k8s" render --resources <in.json >b.list
	cmp a.list b.list || fail "two resource lists differ"
	jq -e '.apiVersion == "v1" and .kind == "List" and (.items | length) == 2' a.list >/dev/null ||
	    fail "not a kubectl List: $(head -c 300 a.list)"
	"$BIN/fluid-k8s" render --resources --yaml <in.json >a.yaml
	python3 -c 'import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
j = json.load(open(sys.argv[2]))
sys.exit(0 if y == j else 1)' a.yaml a.list || fail "the YAML is not the JSON" "$(head -c 600 a.yaml)"
}

@test "fluid-k8s render: no credential value, and the token variable only as a name" {
	sqlgen_doc "$LANDED" >in.json
	ICEBERG_TOKEN=s3cr3t-t0ken AWS_SECRET_ACCESS_KEY=s3cr3t-key tool render --resources <in.json
	assert_status 0
	[[ $output != *s3cr3t* ]] || fail "a value from the environment is in the resources"
	# ICEBERG_TOKEN is named twice: the catalog resolves env:NAME in the
	# pod, and the runner's --env-allow lets the script name it.
	assert_equal "$(grep -o 'ICEBERG_TOKEN' <<<"$output" | wc -l)" 2 "mentions of ICEBERG_TOKEN"
	assert_equal "$(res FlinkDeployment | jq -c '.spec.job.args[0:2]')" '["--env-allow","ICEBERG_TOKEN"]' "the runner's allowlist"
	[[ $output == *"'token' = 'env:ICEBERG_TOKEN'"* ]] || fail "the reference is not env:NAME"
	# The pod gets Secrets through envFrom only: no env entry with a value.
	res FlinkDeployment | jq -e '[.. | objects | select(has("env") or has("value"))] == []' \
	    >/dev/null || fail "an env or value entry in the FlinkDeployment"
	res FlinkDeployment | jq -e '[.. | objects | .secretRef? // empty | .name] == ["flink-storage"]' \
	    >/dev/null || fail "the Secrets are not the contract's"
}

@test "fluid-k8s render: a changed script is another ConfigMap, and the FlinkDeployment names it" {
	sqlgen_doc "$LANDED" >a.json
	sed -i 's/groupId: forge-commerce-orders-landed-v1/groupId: forge-commerce-orders-landed-v2/' "$LANDED"
	sqlgen_doc "$LANDED" >b.json
	local a b
	a=$("$BIN/fluid-k8s" render --resources <a.json | jq -r '.items[0].metadata.name')
	b=$("$BIN/fluid-k8s" render --resources <b.json | jq -r '.items[0].metadata.name')
	[ "$a" != "$b" ] || fail "the ConfigMap kept its name: $a"
	"$BIN/fluid-k8s" render --resources <b.json |
	    jq -e --arg b "$b" '.items[1].spec.podTemplate.spec.volumes[0].configMap.name == $b' \
	    >/dev/null || fail "the FlinkDeployment does not mount $b"
}

@test "fluid-k8s render: a deployment name the Services cannot take is refused at the contract" {
	# fluid-check allows a leading digit; a Service name (RFC 1035) does not.
	sed -i 's/^            name: commerce-orders-landed$/            name: 9-orders-landed/' "$LANDED"
	sqlgen_doc "$LANDED" >in.json || fail "a stage refused the contract"
	local line col
	line=$(line_of "$LANDED" '^            name: 9-orders-landed$')
	col=$(col_of "$LANDED" "$line" 9-orders)
	refuses 1 render <in.json \
	    "^shapes/landed/orders-landed\.fluid\.yaml:$line:$col: error: .*Flink build land-orders: deployment name '9-orders-landed' must be a DNS-1035 label"
}

@test "fluid-k8s render: a build id too long for a label value is refused" {
	sqlgen_doc "$LANDED" >in.json
	local long
	long=$(printf 'b%.0s' $(seq 1 64))
	jq --arg id "$long" '.check.builds[0].id = $id | .sqlgen.builds[0].build = $id' in.json >long.json
	refuses 1 render <long.json "error: .*build id '$long' cannot be the value of label fluid.dev/build"
}

@test "fluid-k8s render: a document whose SQL digest is not its script's is an error (2)" {
	sqlgen_doc "$LANDED" >in.json
	jq '.sqlgen.builds[0].sql += "-- edited\n"' in.json >bad.json
	refuses 2 render <bad.json "^fluid-k8s: build 'land-orders': the sqlgen section's digest is not its script's$"
}

@test "fluid-k8s render: usage errors" {
	sqlgen_doc "$LANDED" >in.json
	usage_error render --yaml <in.json "^fluid-k8s: --yaml goes with --resources"
	usage_error <in.json "^fluid-k8s: expects a command: render, plan or apply"
	usage_error frobnicate <in.json "^fluid-k8s: unknown command 'frobnicate'"
	usage_error render in.json <in.json "^fluid-k8s: render reads standard input; no FILE"
	# A document that has not been through fluid-sqlgen.
	"$BIN/fluid-resolve" "$LANDED" | "$BIN/fluid-check" >chk.json
	tool render <chk.json
	assert_status 2
	assert_no_stdout
	[[ $stderr == *sqlgen* ]] || fail "the message does not name fluid-sqlgen" "$(show)"
}

@test "fluid-k8s render: every example renders, one ConfigMap and one FlinkDeployment per build" {
	local f n=0
	for f in shapes/*/*.fluid.yaml; do
		sqlgen_doc "$f" >in.json || fail "$f refused"
		tool render --resources <in.json
		assert_status 0
		assert_jq '[.items[].kind] == ["ConfigMap", "FlinkDeployment"]'
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n examples"
}

@test "fluid-k8s render: every example's FlinkDeployment is valid under the operator's CRD (when cached)" {
	# make check-k8s-schema fetches the CRD from Maven Central; make check
	# needs no network, so here it runs only once that cache exists.
	[ -f "$TOP/tests/k8s-schema/cache/flinkdeployments.flink.apache.org-v1.yml" ] ||
	    skip "no cached CRD: run make check-k8s-schema (needs the network once)"
	run --separate-stderr env FLUID_BIN="$BIN" "$TOP/tests/k8s-schema/run"
	assert_status 0
	assert_match "$output" "^3 FlinkDeployment\(s\) checked, 0 problem\(s\)$" "the summary"
}

# --- plan and apply (fluid-k8s(1), PLAN and APPLYING) ---------------------

# rendered_doc CONTRACT: fluid-k8s render's document for CONTRACT.
rendered_doc() { sqlgen_doc "$1" | "$BIN/fluid-k8s" render; }

@test "fluid-k8s render: the runner gets --env-allow with the build's Kafka credential and catalog variables, sorted, before its files" {
	sed -i 's|^            bootstrapServers: kafka:9092$|            bootstrapServers: kafka:9092\n            security:\n              protocol: SASL_SSL\n              sasl: {mechanism: SCRAM-SHA-512, usernameEnv: KAFKA_USERNAME, passwordEnv: KAFKA_PASSWORD}|' "$LANDED"
	grep -q KAFKA_USERNAME "$LANDED" || fail "the test could not add source.security" ""
	sqlgen_doc "$LANDED" >in.json
	tool render --resources <in.json
	assert_status 0
	assert_equal "$(res FlinkDeployment | jq -c .spec.job.args)" \
	    '["--env-allow","ICEBERG_TOKEN,KAFKA_PASSWORD,KAFKA_USERNAME","/opt/flink/usrlib/sql/land-orders.sql","/opt/flink/usrlib/sql/land-orders.table.json"]' "args"
}

@test "fluid-k8s render: without bound variables the runner gets only its files" {
	# No catalogAuth, no source.security: nothing bound.
	python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
def strip(o):
    if isinstance(o, dict):
        o.pop("catalogAuth", None)
        for v in o.values(): strip(v)
    elif isinstance(o, list):
        for v in o: strip(v)
strip(d)
yaml.safe_dump(d, open(sys.argv[1], "w"), sort_keys=False)' "$LANDED"
	! grep -q catalogAuth "$LANDED" || fail "the test could not drop catalogAuth" ""
	sqlgen_doc "$LANDED" >in.json
	tool render --resources <in.json
	assert_status 0
	assert_equal "$(res FlinkDeployment | jq -c .spec.job.args)" \
	    '["/opt/flink/usrlib/sql/land-orders.sql","/opt/flink/usrlib/sql/land-orders.table.json"]' "args"
}

@test "fluid-k8s plan: the pipeline's plan is fluid plan's, byte for byte, on every example and mode" {
	local f m n=0
	while IFS= read -r f; do
		for m in amend dry-run; do
			sqlgen_doc "$f" | "$BIN/fluid-k8s" render |
			    "$BIN/fluid-k8s" plan --mode "$m" >pipe.json ||
			    fail "the pipeline failed on $f" ""
			"$BIN/fluid" plan --mode "$m" "$f" >driver.json ||
			    fail "fluid plan failed on $f" ""
			cmp pipe.json driver.json || fail "$f --mode $m: the pipeline's plan differs" "$(diff pipe.json driver.json | head -20)"
			n=$((n + 1))
		done
	done < <(find "$EXAMPLES" -name '*.fluid.yaml' | sort)
	[ "$n" -ge 8 ] || fail "only $n plans compared" ""
}

@test "fluid-k8s plan: a stage given the wrong section says which stage's output it expected" {
	sqlgen_doc "$LANDED" >sqlgen.json
	tool plan --mode amend <sqlgen.json
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "expects the output of fluid-k8s, got the output of fluid-sqlgen"
	rendered_doc "$LANDED" >rendered.json
	tool apply --mode dry-run <rendered.json
	assert_status 2
	assert_no_stdout
	assert_match "$stderr" "is not a plan \\(fluidPlan 1\\): apply reads the output of fluid plan or fluid-k8s plan, not a pipeline document: run it through fluid-k8s plan --mode MODE first"
	"$BIN/fluid-k8s" plan --mode amend <rendered.json >plan.json
	tool render <plan.json
	assert_status 2
	assert_equal "$stderr" "fluid-k8s: standard input is not a fluid pipeline document of version 1: expects the output of fluid-sqlgen, got a plan" "stderr"
	tool plan --mode amend <plan.json
	assert_status 2
	assert_equal "$stderr" "fluid-k8s: standard input is not a fluid pipeline document of version 1: expects the output of fluid-k8s, got a plan" "stderr"
}

@test "fluid-k8s plan and apply: usage errors; --diagnostics=json" {
	rendered_doc "$LANDED" >rendered.json
	usage_error plan <rendered.json "^fluid-k8s: plan needs --mode"
	usage_error plan --mode whenever <rendered.json "^fluid-k8s: --mode whenever is not a mode"
	usage_error plan --mode amend --yes <rendered.json "^fluid-k8s: --yes is for apply"
	usage_error render --mode amend <rendered.json "^fluid-k8s: --mode is for plan and apply"
	usage_error apply --mode amend --wait soon <rendered.json "^fluid-k8s: --wait expects seconds from 0 to 3600"
	tool plan --mode reset <rendered.json
	assert_status 1
	assert_match "$stderr" "--mode reset is refused"
	"$BIN/fluid-k8s" plan --mode amend <rendered.json >plan.json
	jq '.mode = 3' plan.json >bad.json
	tool apply --mode amend --diagnostics=json <bad.json
	assert_status 1
	assert_equal "$(jq -r .level <<<"$stderr" | sort -u | head -1)" error "level"
	[ "$(jq -s 'map(select(.message | test("the plan.s mode is not a string"))) | length' <<<"$stderr")" = 1 ] ||
	    fail "no JSON diagnostic about the mode" "$stderr"
}

@test "fluid-k8s apply: a dry run of the pipeline's plan checks the allowlists and contacts nothing; refusals exit 1" {
	fake_kubectl fail
	rendered_doc "$LANDED" | "$BIN/fluid-k8s" plan --mode dry-run >plan.json
	tool apply --mode dry-run <plan.json
	assert_status 1
	assert_match "$stderr" "^<stdin>: error: build 'land-orders': deployment.context: kube context 'development' is not allowed"
	FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development \
	FLUID_FLINK_NAMESPACE_ALLOWLIST=data-products \
	FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink \
	FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=data-products/flink \
	FLUID_FLINK_SECRET_ALLOWLIST=data-products/flink-storage \
	FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=catalog.example.com,s3.example.com,kafka \
	FLUID_ACQUISITION_SECRET_REF_ALLOWLIST=ICEBERG_TOKEN@catalog.example.com \
	    tool apply --mode dry-run <plan.json
	assert_status 0
	assert_no_stderr
	assert_match "$output" "^would apply ConfigMap data-products/commerce-orders-landed-sql-[0-9a-f]{12} \\(new\\)"
	kubectl_not_called
}
