#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# readme-ci.bats - README's CI jobs (section "In CI"), their commands
# taken from README as written and run here, in a shallow, detached
# clone of a repository laid out as the jobs expect (contracts/ is
# examples/shapes/, runtime/flink/ committed), as a CI server checks out
# a pull request.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	command -v git >/dev/null || fail "git is not installed"
	command -v xmllint >/dev/null || fail "xmllint is missing: tools/bootstrap --deps installs libxml2-utils"
	export GIT_CEILING_DIRECTORIES=$TMP
	export PATH="$BIN:$PATH"
	C=contracts/landed/orders-landed.fluid.yaml
	git init -q -b main up && cd up || return
	cp -R "$TOP/examples/shapes" contracts
	fluid generate flink -q --out runtime/flink "$C"
	commit base
	# The pull request: a column's description (an info change), its
	# generated tree made again and committed.
	git checkout -qb feature
	sed -i 's/description: "The record'"'"'s offset in its partition"/description: "Offset in the partition"/' "$C"
	git diff --quiet && fail "the edit changed nothing"
	fluid generate flink -q --out runtime/flink "$C"
	commit change
	cd "$TMP" || return
	git clone -q --depth 1 --branch feature "file://$TMP/up" pr
	git -C pr checkout -q --detach
}
teardown() { fluid_teardown; }

commit() {
	git add -A && git -c user.email=t@example.com -c user.name=t \
	    commit -qm "$1"
}

# readme_job FIRST LAST: the commands of README's job from the line
# holding FIRST to the one holding LAST: each "- run: CMD" (GitHub) or
# each "- CMD" under "script:" (GitLab), one a line.
readme_job() {
	awk -v first="$1" -v last="$2" 'index($0, first) { on = 1; next }
	    on && index($0, last) { exit } on' "$TOP/README.md" |
	    awk '/^ *- run: / { sub(/^ *- run: /, ""); print; next }
	        /^ *script:/ { s = 1; next }
	        s && /^ *- / { sub(/^ *- /, ""); print; next }
	        s && !/^ *- / { s = 0 }'
}

# run_job FILE: each line of FILE in bash in the clone, as a step;
# the first that fails ends it.
run_job() {
	local cmd
	while IFS= read -r cmd; do
		(cd "$TMP/pr" && bash -e -o pipefail -c "$cmd") </dev/null >>"$TMP/job.log" 2>&1 ||
		    { echo "step failed: $cmd"; return 1; }
	done <"$1"
}

@test "README: the GitHub Actions job's commands run here and pass on a good pull request" {
	readme_job '# .github/workflows/contracts.yml' 'GitLab CI:' >job.txt
	assert_equal "$(wc -l <job.txt)" 4 "the job's run: steps"
	grep -q -- '--diagnostics=github' job.txt || fail "no --diagnostics=github" "$(cat job.txt)"
	export GITHUB_STEP_SUMMARY=$TMP/summary.md
	run run_job job.txt
	assert_status 0 || fail "$(cat job.log)"
	# The review's summary reached the step summary.
	grep -q '^info (1):$' summary.md || fail "no summary" "$(cat summary.md job.log)"
	python3 - "$TOP/tests/schemas/sarif-2.1.0-rtm.5.json" pr/fluid.sarif <<-'PY'
	import json, sys, jsonschema
	jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
	PY
	xmllint --noout --schema "$TOP/tests/schemas/junit-10.xsd" pr/contracts.xml
}

@test "README: the GitHub job fails a contract with only a warning, on its line" {
	readme_job '# .github/workflows/contracts.yml' 'GitLab CI:' >job.txt
	sed -i 's/management: operator/management: external/' "pr/$C"
	line=$(line_of "pr/$C" '^  - id: land-orders')
	export GITHUB_STEP_SUMMARY=$TMP/summary.md
	run run_job job.txt
	assert_status 1
	assert_match "$output" "step failed: fluid validate --strict"
	grep -q "^::error file=$C,line=$line,col=3,title=fluid validate::builds: no build sets " job.log ||
	    fail "no annotation on the line" "$(cat job.log)"
}

@test "README: the GitLab job's commands run here; a stale generated tree fails it" {
	readme_job '# .gitlab-ci.yml' 'artifacts:' >job.txt
	assert_equal "$(wc -l <job.txt)" 4 "the job's script lines"
	run run_job job.txt
	assert_status 0 || fail "$(cat job.log)"
	grep -q '^info (1):$' job.log || fail "no summary in the log" "$(cat job.log)"
	xmllint --noout --schema "$TOP/tests/schemas/junit-10.xsd" pr/contracts.xml
	# A contract changed without generating again: the last step fails.
	sed -i 's/table: orders_landed$/table: orders_landed_v2/' "pr/$C"
	: >job.log
	run run_job job.txt
	assert_status 1
	assert_match "$output" "step failed: fluid generate flink"
}

@test "examples/README: its commands run once its PATH line is run, and fail before" {
	local setpath cmd
	setpath=$(grep '^export PATH=' "$TOP/examples/README.md")
	[ -n "$setpath" ] || fail "examples/README.md has no PATH line"
	cmd=$(grep -m1 '^fluid validate --schema-version' "$TOP/examples/README.md")
	[ -n "$cmd" ] || fail "no fluid validate command in examples/README.md"
	# A source tree whose bin/ is the build under test.
	mkdir src && cp -R "$TOP/examples" src/examples && ln -s "$BIN" src/bin
	# A PATH without fluid, as a new user's.
	run -127 env -i PATH=/usr/bin:/bin bash -c "cd src/examples && $cmd"
	run env -i PATH=/usr/bin:/bin bash -c "cd src/examples && $setpath && $cmd"
	assert_status 0
	assert_equal "$output" "shapes/fragments/streams/orders.yaml: ok"
}
