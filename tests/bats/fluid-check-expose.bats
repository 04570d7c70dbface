#!/usr/bin/env bats
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

@test "contract: catalog properties that are plain text are accepted" {
	add catalogProperties 'client.region: eu-west-1'
	check
	ir
	assert_jq '.check.builds[0].table.catalog.properties == {
	    "s3.endpoint": "https://s3.example.com",
	    "s3.path-style-access": "true", "client.region": "eu-west-1"}'
	assert_jq '.check.builds[0].table.catalog.auth == {"type": "bearer",
	    "tokenEnv": "ICEBERG_TOKEN"}'
}

@test "contract: a catalog property starting with env: is refused" {
	add catalogProperties 'client.region: "env:AWS_REGION"'
	validate
	refused "$(at 'client.region' '"')" \
	    'exposes[0].binding.catalogProperties.client.region' \
	    "must not start with env:, contain \\$\\{ or a control character: Iceberg would resolve it"
}

@test "contract: a catalog property holding \${ is refused" {
	add catalogProperties 'client.region: "eu-${REGION}"'
	validate
	refused "$(at 'client.region' '"')" \
	    'exposes[0].binding.catalogProperties.client.region' \
	    'must not start with env:, contain'
}

@test "contract: a catalog property holding a control character is refused" {
	add catalogProperties 'client.region: "eu\u001bwest"'
	validate
	refused "$(at 'client.region' '"')" \
	    'exposes[0].binding.catalogProperties.client.region' \
	    'must not start with env:, contain'
	[[ $stderr != *$'\e'* ]] || fail "the control character is echoed"
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
