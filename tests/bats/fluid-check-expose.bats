#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-expose.bats - the expose a build writes (the "Output table"
# and "Storage" of "What is supported", "Partitioning", and the catalog
# rules of "Operator settings"): the exposes list, identity partitions,
# the REST catalog, its properties and credentials, the S3 warehouse.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

@test "contract: exposes: null names no expose, so a build's output is refused" {
	null_list exposes
	validate
	build_refused "$(at '^ *outputs: ' orders)" 'outputs[0]' \
	    '^orders is not the exposeId of any expose$'
}

@test "contract: identity partitions are accepted" {
	add partitionSpec '- {column: quantity, transform: identity}'
	check
	ir
	assert_jq '.check.builds[0].table.partitionBy == ["country", "quantity"]'
}

@test "contract: other partition transforms are refused, with the reason" {
	local tr
	for tr in day bucket; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		add partitionSpec "- {column: event_time, transform: $tr}"
		validate
		refused "$(at "transform: $tr" "$tr")" \
		    'exposes[0].binding.icebergConfig.partitionSpec[1].transform' \
		    "^only identity partitions: Iceberg's other transforms are hidden partitioning, which Flink SQL cannot declare"
	done
}

# --- catalog text -----------------------------------------------------------

BEARER='catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}'

# oauth2 [SCOPE [TOKEN_URI]]: catalogAuth becomes OAuth2 (both written as
# YAML double-quoted strings).
oauth2() {
	subst "$BEARER" "catalogAuth: {type: oauth2, credentialEnv: ICEBERG_CREDENTIAL, oauth2ServerUri: \"${2:-https://identity.example.com/token}\", scope: \"${1:-catalog}\"}"
}

# The pipeline's standard error and SQL for $F, in $stderr and $output.
sql() {
	run --separate-stderr timeout "$((60 * FLUID_SLOWDOWN))" bash -c \
	    'set -o pipefail; "$1/fluid-resolve" -- "$2" | "$1/fluid-check" |
	    "$1/fluid-sqlgen" --sql' sql "$BIN" "$F"
}

@test "contract: env:, \${ and control characters are refused in every piece of catalog text" {
	local f pos path why
	why="^must not start with env:, contain \\$\\{ or a control character: Iceberg would resolve it from the job's environment \\(only catalogAuth references a variable\\)$"
	for f in uri warehouse oauth2ServerUri scope scope-bell scope-csi property; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		case $f in
		uri)	subst 'uri: https://catalog.example.com/api/catalog' \
			    'uri: "https://catalog.example.com/${CATALOG_PATH}"'
			pos=$(at 'uri: "' '"') path=location.uri ;;
		warehouse)
			subst 'warehouse: s3://lake/warehouse' \
			    'warehouse: "env:AWS_SECRET_ACCESS_KEY"'
			pos=$(at 'warehouse: "' '"') path=location.warehouse ;;
		oauth2ServerUri)
			oauth2 catalog 'https://identity.example.com/${TOKEN_PATH}'
			pos=$(at oauth2ServerUri '"https:') \
			    path=catalogAuth.oauth2ServerUri ;;
		scope)	oauth2 'env:AWS_SECRET_ACCESS_KEY'
			pos=$(at 'scope: "' '"env:') path=catalogAuth.scope ;;
		scope-bell)
			oauth2 'cata\u0007log'
			pos=$(at 'scope: "' '"cata') path=catalogAuth.scope ;;
		scope-csi)	# C1 CSI, U+009B: a terminal reads it as ESC [.
			oauth2 'cata\u009b31mlog'
			pos=$(at 'scope: "' '"cata') path=catalogAuth.scope ;;
		property)
			add catalogProperties 'client.region: "ENV:AWS_REGION"'
			pos=$(at 'client.region' '"') \
			    path=catalogProperties.client.region ;;
		esac
		validate
		refused "$pos" "exposes[0].binding.$path" "$why"
		[[ $stderr != *AWS_SECRET_ACCESS_KEY* && $stderr != *_PATH* &&
		    $stderr != *$'\a'* && $stderr != *$'\xc2\x9b'* ]] ||
		    fail "$f: the value is echoed" "$stderr"
	done
}

@test "contract: catalog text with letters past U+009F (U+00A0 and up) is accepted and written" {
	oauth2 'catalogue lac:\u00e9crire\u00a0tout'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.auth.scope ==
	    "catalogue lac:\u00e9crire\u00a0tout"'
	sql
	assert_status 0
	[[ $output == *"'scope' = 'catalogue lac:"$'\xc3\xa9'"crire"$'\xc2\xa0'"tout'"* ]] ||
	    fail "the scope is not written" "$output"
}

@test "sqlgen: a C1 control character in catalog text of the IR is refused, not written" {
	oauth2 'catalog'
	run --separate-stderr bash -c '"$1/fluid-resolve" -- "$2" | "$1/fluid-check" |
	    jq -c ".check.builds[0].table.catalog.auth.scope = \"cata\u009blog\"" |
	    "$1/fluid-sqlgen" --sql' sql "$BIN" "$F"
	assert_status 1
	assert_no_stdout
	[[ $stderr == *"a catalog option that reads the job's environment"* ]] ||
	    fail "not the refusal" "$(show)"
	[[ $stderr != *$'\xc2\x9b'* ]] || fail "the value is echoed" "$stderr"
}

@test "contract: catalog text with env: past its start and a lone \$ is accepted and written as it is" {
	oauth2 'catalog lake:env:write $x'
	add catalogProperties 'client.region: "eu-west-1 env:x"'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.auth.scope ==
	    "catalog lake:env:write $x"'
	sql
	assert_status 0
	[[ $output == *"'scope' = 'catalog lake:env:write \$x'"* ]] ||
	    fail "the scope is not written" "$output"
	[[ $output == *"'client.region' = 'eu-west-1 env:x'"* ]] ||
	    fail "the region is not written" "$output"
}

# --- catalog properties: a closed list --------------------------------------

# The catalog properties and their kinds, as fluid-check(1) lists them.
man_props() {
	sed -n 's/^\.It Li \([a-z0-9.-]*\) Pq \(.*\)$/\1 \2/p' \
	    "$TOP/man/fluid-check.1"
}

@test "contract: every catalog property fluid-check(1) lists is accepted with a value of its kind" {
	local name kind val n=0 want='{}'
	while read -r name kind; do
		case $kind in
		'true or false') val=false ;;
		'whole number') val=8 ;;
		text) val=eu-west-1 ;;
		URL) val=https://$n.example.com ;;
		none,*) val=kms ;;
		*) fail "fluid-check(1) lists $name as '$kind', a kind this test does not know" ;;
		esac
		[ "$name" = s3.endpoint ] || [ "$name" = s3.path-style-access ] ||
		    add catalogProperties "$name: \"$val\""
		[ "$name" != s3.endpoint ] || val=https://s3.example.com
		[ "$name" != s3.path-style-access ] || val=true
		want=$(jq -c --arg k "$name" --arg v "$val" '.[$k] = $v' <<<"$want")
		n=$((n + 1))
	done < <(man_props)
	[ "$n" -ge 10 ] || fail "found only $n properties in fluid-check(1)"
	check
	ir
	assert_jq --argjson w "$want" '.check.builds[0].table.catalog.properties == $w'
	# The IR has them in key order.
	assert_jq '.check.builds[0].table.catalog.properties |
	    keys_unsorted == keys'
}

@test "contract: an unknown catalog property is refused with the list and a did-you-mean" {
	local list
	add catalogProperties 's3.endpont: https://s3.example.com'
	validate
	list=$(man_props | awk '{ printf "%s%s", sep, $1; sep = ", " }')
	refused "$(at 's3.endpont' https)" \
	    'exposes[0].binding.catalogProperties.s3.endpont' \
	    "^is not a catalog property fluid passes on \\(did you mean 's3\\.endpoint'\\?\\): it passes on "
	[[ $stderr == *": it passes on $list; credentials never go into catalog properties"* ]] ||
	    fail "the list is not fluid-check(1)'s" "want: $list" "$stderr"
}

@test "contract: a credential in a catalog property is refused, its value neither echoed nor written" {
	local kv key
	for kv in header.Authorization header.X-Api-Key s3.sse.key \
	    adls.auth.shared-key.account.key s3.secret-access-key \
	    s3.access-key-id s3.session-token gcs.oauth2.token token \
	    credential; do
		key=$kv
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		add catalogProperties "$key: \"Bearer zq-secret-value\""
		validate
		refused "$(at "^ *$key:" '"')" \
		    "exposes[0].binding.catalogProperties.$key" \
		    '^(is not a catalog property fluid passes on|chooses how the job authenticates|is set by fluid from binding.location and catalogAuth)'
		[[ $stderr != *zq-secret* && $output != *zq-secret* ]] ||
		    fail "$key: the value is echoed" "$stderr"
		rm -rf out
		tool generate flink "$F" --out out
		assert_status 1
		[[ $stderr != *zq-secret* && $output != *zq-secret* ]] ||
		    fail "$key: generate echoes the value" "$stderr"
		! grep -rq zq-secret . --exclude="$F" ||
		    fail "$key: the value was written" "$(grep -rl zq-secret . --exclude="$F")"
	done
}

@test "contract: a property that chooses how the job authenticates is refused: catalog auth is catalogAuth" {
	local kv key val
	for kv in rest.auth.type=sigv4 rest.sigv4-enabled=true \
	    rest.signing-region=us-east-1 rest.signing-name=s3tables \
	    client.credentials-provider=software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider \
	    client.assume-role.arn=arn:aws:iam::1:role/x \
	    s3.client-factory-impl=com.example.Factory \
	    s3.remote-signing-enabled=true audience=lake \
	    token-exchange-enabled=false; do
		key=${kv%%=*} val=${kv#*=}
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		add catalogProperties "$key: \"$val\""
		validate
		refused "$(at "^ *$key:" '"')" \
		    "exposes[0].binding.catalogProperties.$key" \
		    '^chooses how the job authenticates or a class it loads: catalog auth is what catalogAuth declares \(bearer or oauth2\)'
	done
}

@test "contract: catalogAuth alone authenticates the catalog, by reference" {
	oauth2 catalog
	sql
	assert_status 0
	[[ $output == *"'credential' = 'env:ICEBERG_CREDENTIAL'"* ]] ||
	    fail "no credential reference" "$output"
	! grep -Eq "'(token|header\.[^']*|rest\.[^']*)' =" <<<"$output" ||
	    fail "another auth option is written" "$output"
}

@test "contract: a catalog property value of the wrong kind is refused, without echoing it" {
	local kv key val why
	for kv in 's3.checksum-enabled=yes=must be "true" or "false"' \
	    's3.retry.num-retries=-1=must be a whole number' \
	    's3.multipart.part-size-bytes=0x10=must be a whole number' \
	    's3.sse.type=custom=must be none, s3, kms or dsse-kms: SSE-C'; do
		key=${kv%%=*} val=${kv#*=} why=${val#*=} val=${val%%=*}
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		add catalogProperties "$key: \"$val\""
		validate
		refused "$(at "^ *$key:" '"')" \
		    "exposes[0].binding.catalogProperties.$key" "^$why"
		[[ $stderr != *"'$val'"* ]] || fail "$key: the value is echoed"
	done
}

# --- hosts ---------------------------------------------------------------------

@test "contract: every URL the job contacts is a host in the IR, with the variable it receives" {
	oauth2 catalog
	add catalogProperties 's3.signer.uri: https://signer.example.com/v1'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.hosts == [
	    {"path": "exposes[0].binding.catalogAuth.oauth2ServerUri",
	     "url": "https://identity.example.com/token",
	     "host": "identity.example.com", "receives": "ICEBERG_CREDENTIAL"},
	    {"path": "exposes[0].binding.catalogProperties.s3.endpoint",
	     "url": "https://s3.example.com", "host": "s3.example.com",
	     "receives": null},
	    {"path": "exposes[0].binding.catalogProperties.s3.signer.uri",
	     "url": "https://signer.example.com/v1",
	     "host": "signer.example.com", "receives": "ICEBERG_CREDENTIAL"},
	    {"path": "exposes[0].binding.location.uri",
	     "url": "https://catalog.example.com/api/catalog",
	     "host": "catalog.example.com", "receives": "ICEBERG_CREDENTIAL"}]'
}

@test "contract: without catalogAuth the hosts receive nothing, and the S3 signer may use http" {
	drop 'catalogAuth:'
	add catalogProperties 's3.signer.uri: "http://[fd00::1]:8181/v1"'
	check
	ir
	assert_jq '[.check.builds[0].table.catalog.hosts[] |
	    {host, receives}] == [
	    {"host": "s3.example.com", "receives": null},
	    {"host": "fd00::1", "receives": null},
	    {"host": "catalog.example.com", "receives": null}]'
}

@test "contract: an S3 signer that receives the catalog's credential must use https" {
	add catalogProperties 's3.signer.uri: http://signer.example.com/v1'
	validate
	refused "$(at 's3.signer.uri' http)" \
	    'exposes[0].binding.catalogProperties.s3.signer.uri' \
	    '^must be https: the S3 signer receives credentials \(catalogAuth\)$'
}

@test "contract: a URL property that is not a URL, or carries credentials, is refused without echoing it" {
	subst 's3.endpoint: https://s3.example.com' \
	    's3.endpoint: "https://AKIAZQ:zq-secret-value@s3.example.com"'
	validate
	refused "$(at 's3.endpoint' '"')" \
	    'exposes[0].binding.catalogProperties.s3.endpoint' \
	    '^must not carry credentials$'
	[[ $stderr != *zq-secret* ]] || fail "the value is echoed"
	cp "$FIXTURES/check/base.fluid.yaml" "$F"
	subst 's3.endpoint: https://s3.example.com' 's3.endpoint: s3.example.com'
	validate
	refused "$(at 's3.endpoint' 's3.example')" \
	    'exposes[0].binding.catalogProperties.s3.endpoint' \
	    '^must be an absolute URL'
}

# --- canonical order --------------------------------------------------------

@test "contract: catalog properties in another order give one digest and the same SQL, byte for byte" {
	local d1 d2 sql1
	add catalogProperties 'client.region: eu-west-1'
	sql
	assert_status 0
	sql1=$output
	d1=$(digest_of "$F")
	# The same properties, written the other way round.
	drop 's3.endpoint: https://s3.example.com'
	drop 's3.path-style-access: "true"'
	add catalogProperties 's3.path-style-access: "true"'
	add catalogProperties 's3.endpoint: https://s3.example.com'
	[ "$(grep -n -E 'client.region|s3.endpoint:' "$F" | head -1 | cut -d: -f2-)" = "        client.region: eu-west-1" ] ||
	    fail "the contract's order did not change" "$(cat "$F")"
	d2=$(digest_of "$F")
	assert_equal "$d2" "$d1" "the digest"
	sql
	assert_status 0
	assert_equal "$output" "$sql1" "the SQL"
	# Sorted by name, bytewise: client.* before s3.*, after the fixed options.
	grep -A3 "'io-impl'" <<<"$output" | grep -q "'client.region'" ||
	    fail "client.region does not follow io-impl" "$output"
	# fluid-sqlgen sorts them too, whatever order its input has.
	check
	ir
	jq '.check.builds[0].table.catalog.properties |= (to_entries |
	    reverse | from_entries)' <<<"$output" >rev.json
	[ "$(jq -c '.check.builds[0].table.catalog.properties | keys_unsorted' rev.json)" = '["s3.path-style-access","s3.endpoint","client.region"]' ] ||
	    fail "the IR was not reversed" "$(cat rev.json)"
	run --separate-stderr "$BIN/fluid-sqlgen" --sql <rev.json
	assert_status 0
	assert_equal "$output" "$sql1" "the SQL of the reversed IR"
}

# One mistake, one error: what follows from a list that cannot be read
# is not reported again.
@test "contract: exposes as a mapping is one error, not one per build" {
	subst 'exposes:
  - exposeId: orders' 'exposes:
  orders:
    exposeId: orders'
	validate
	assert_status 1
	assert_equal "$(errors)" "$F:$(at '^  orders:$'): error: exposes: must be a list, not a mapping" \
	    "the only error"
}

@test "contract: an exposeId that is not a string is one error" {
	subst '- exposeId: orders' '- exposeId: [orders]'
	validate
	refused "$(at 'exposeId: \[' '[')" 'exposes[0].exposeId' \
	    'must be a string, not a list'
}

@test "contract: the warehouse must name its bucket right after s3://" {
	# libcurl reads s3:///lake as the host "lake"; S3 clients read no bucket.
	subst 'warehouse: s3://lake/warehouse' 'warehouse: s3:///lake/warehouse'
	validate
	refused "$(at 'warehouse: s3:///' s3)" \
	    'exposes[0].binding.location.warehouse' \
	    'names no bucket: write s3://BUCKET/PATH$'
}

@test "contract: the warehouse must be an s3:// URI" {
	subst 'warehouse: s3://lake/warehouse' 'warehouse: gs://lake/warehouse'
	validate
	refused "$(at 'warehouse: gs' gs)" \
	    'exposes[0].binding.location.warehouse' 'must be an s3:// URI'
}

@test "contract: the catalog must be a REST catalog" {
	subst 'catalog: rest' 'catalog: glue'
	validate
	refused "$(at 'catalog: glue' glue)" 'exposes[0].binding.location.catalog' \
	    "'glue' is not supported: use rest"
}

@test "contract: a catalog without credentials may use http" {
	subst 'uri: https://catalog.example.com/api/catalog' \
	    'uri: http://catalog.example.com/api/catalog'
	drop 'catalogAuth:'
	check
	ir
	assert_jq '.check.builds[0].table.catalog | .auth == null and
	    .uri == "http://catalog.example.com/api/catalog"'
}

@test "contract: a catalog that receives credentials must use https" {
	subst 'uri: https://catalog.example.com/api/catalog' \
	    'uri: http://catalog.example.com/api/catalog'
	validate
	refused "$(at 'uri: http:' http)" 'exposes[0].binding.location.uri' \
	    'must be https: the catalog receives credentials'
}

@test "contract: a loopback catalog that receives credentials must use https" {
	subst 'uri: https://catalog.example.com/api/catalog' \
	    'uri: http://localhost:8181/api/catalog'
	validate
	refused "$(at 'uri: http:' http)" 'exposes[0].binding.location.uri' \
	    'must be https: the catalog receives credentials'
}

@test "contract: an OAuth2 token endpoint over https is accepted" {
	subst 'catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}' \
	    'catalogAuth: {type: oauth2, credentialEnv: ICEBERG_CREDENTIAL, oauth2ServerUri: "https://identity.example.com/token", scope: catalog}'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.auth.oauth2ServerUri ==
	    "https://identity.example.com/token"'
}

@test "contract: an OAuth2 token endpoint over http is refused" {
	subst 'catalogAuth: {type: bearer, tokenEnv: ICEBERG_TOKEN}' \
	    'catalogAuth: {type: oauth2, credentialEnv: ICEBERG_CREDENTIAL, oauth2ServerUri: "http://identity.example.com/token", scope: catalog}'
	validate
	refused "$(at 'oauth2ServerUri' '"http:')" \
	    'exposes[0].binding.catalogAuth.oauth2ServerUri' \
	    'must be an https:// URI'
}
