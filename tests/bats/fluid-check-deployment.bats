#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-deployment.bats - parameters.flink.deployment
# ("Credentials and operations" in the specification, and the dedicated
# checkpoint, savepoint and HA prefixes of "What is supported"): the
# required fields, one deployment per namespace/name, locations that
# neither repeat nor nest.
#
# check-helpers.bash says how each test edits the base contract and
# judges what the tools say.

load helpers
load check-helpers

setup() { check_setup; }
teardown() { fluid_teardown; }

@test "contract: two deployments with one namespace and name are refused" {
	second ingest-returns returns shop-orders
	validate
	refused "$(at 'name: shop-orders # returns' shop)" \
	    'Flink build ingest-returns: properties.parameters.flink.deployment.name' \
	    'deployment data-products/shop-orders is also builds\[0\]'"'"'s: namespace/name pairs may not repeat'
}

@test "contract: the same name in another namespace is accepted" {
	second ingest-returns returns shop-orders
	subst 'namespace: data-products # returns' 'namespace: returns # returns'
	check
	ir
	assert_jq '[.check.builds[].deployment | .namespace + "/" + .name] ==
	    ["data-products/shop-orders", "returns/shop-orders"]'
}

@test "contract: a location equal to another is refused" {
	second
	subst 'haUri: s3://flink-state/shop-returns/ha # returns' \
	    'haUri: s3://flink-state/shop-orders/savepoints/ # returns'
	validate
	refused "$(at 'haUri: s3://flink-state/shop-orders/savepoints/' s3)" \
	    'Flink build ingest-returns: properties.parameters.flink.deployment.haUri' \
	    "is the same location as build ingest-orders's savepointUri"
}

@test "contract: a location nested in another is refused" {
	subst 'haUri: s3://flink-state/shop-orders/ha' \
	    'haUri: s3://flink-state/shop-orders/checkpoints/ha'
	validate
	build_refused "$(at 'haUri: ' s3)" \
	    'properties.parameters.flink.deployment.haUri' \
	    "lies inside build ingest-orders's checkpointUri: .*may not nest"
}

@test "deployment: a port in a location's authority is refused, so that it cannot hide nesting" {
	local st
	for st in 's3://flink-state:443/shop-orders/checkpoints/ha' \
	    's3://flink-state:/shop-orders/checkpoints/ha' \
	    's3://flink-state:9000/elsewhere/ha'; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		subst 'haUri: s3://flink-state/shop-orders/ha' "haUri: $st"
		validate
		build_refused "$(at 'haUri: ' s3)" \
		    'properties.parameters.flink.deployment.haUri' \
		    '^must not name a port: an S3 location is s3://BUCKET/PATH, the bucket alone, so that nested locations compare$'
	done
}

@test "deployment: a colon in a location's path is no port, and is accepted" {
	subst 'haUri: s3://flink-state/shop-orders/ha' \
	    'haUri: s3://flink-state/shop-orders/ha:1'
	check
	ir
	assert_jq '.check.builds[0].deployment.haUri == "s3://flink-state/shop-orders/ha:1"'
}

@test "contract: locations that only share a prefix are accepted" {
	second ingest-returns returns shop-returns s3://flink-state/shop-orders-2
	check
	ir
	assert_jq '.check.builds[1].deployment.checkpointUri ==
	    "s3://flink-state/shop-orders-2/checkpoints"'
}

@test "contract: each required deployment field is required" {
	local key
	for key in name namespace context serviceAccount image checkpointUri \
	    savepointUri haUri; do
		cp "$FIXTURES/check/base.fluid.yaml" "$F"
		drop "            $key: "
		validate
		# A missing key is reported where its mapping starts.
		build_refused "$(after '^ *deployment:$')" \
		    "properties.parameters.flink.deployment.$key" '^is required$'
	done
}

@test "contract: the deployment's IR" {
	check
	ir
	assert_jq '.check.builds[0].deployment | .name == "shop-orders" and
	    .namespace == "data-products" and .context == "development" and
	    .serviceAccount == "flink" and .state == "running" and
	    .haUri == "s3://flink-state/shop-orders/ha" and
	    .secretRefs == ["flink-storage"]'
}

@test "deployment: an s3 URI must name its bucket" {
	subst 'haUri: s3://flink-state/shop-orders/ha' \
	    'haUri: s3:///flink-state/shop-orders/ha'
	validate
	build_refused "$(at 'haUri: s3:///' s3)" \
	    'properties.parameters.flink.deployment.haUri' 'names no bucket'
}

# Locations are compared as Flink's Path reads them (chk_uri_norm(),
# tested on its own in tests/unit/t_locnorm.c): these spell a place of
# ingest-orders otherwise.
@test "deployment: a location equal to another after its '..' is refused" {
	second
	subst 'haUri: s3://flink-state/shop-returns/ha # returns' \
	    'haUri: s3://flink-state/shop-orders/x/../checkpoints # returns'
	validate
	refused "$(at 'haUri: s3://flink-state/shop-orders/x' s3)" \
	    'Flink build ingest-returns: properties.parameters.flink.deployment.haUri' \
	    "^is the same location as build ingest-orders's checkpointUri$"
}

@test "deployment: a location with repeated slashes nests like one without" {
	second
	subst 'haUri: s3://flink-state/shop-returns/ha # returns' \
	    'haUri: s3://flink-state//shop-orders/savepoints//ha # returns'
	validate
	refused "$(at 'haUri: s3://flink-state//' s3)" \
	    'Flink build ingest-returns: properties.parameters.flink.deployment.haUri' \
	    "^lies inside build ingest-orders's savepointUri: .*may not nest$"
}

@test "deployment: a location equal to another but for case, escapes and a trailing slash is refused" {
	second
	subst 'haUri: s3://flink-state/shop-returns/ha # returns' \
	    'haUri: s3://FLINK-STATE/shop-orders/%68a/ # returns'
	validate
	refused "$(at 'haUri: s3://FLINK-STATE' s3)" \
	    'Flink build ingest-returns: properties.parameters.flink.deployment.haUri' \
	    "^is the same location as build ingest-orders's haUri$"
}

@test "deployment: a location whose '..' leads elsewhere is accepted as written" {
	second ingest-returns returns shop-returns \
	    s3://flink-state/shop-orders/../shop-returns
	check
	ir
	# The IR keeps the contract's spelling: only the comparison normalises.
	assert_jq '.check.builds[1].deployment.checkpointUri ==
	    "s3://flink-state/shop-orders/../shop-returns/checkpoints"'
}

@test "deployment: a location that percent-encodes a control character is refused" {
	subst 'haUri: s3://flink-state/shop-orders/ha' \
	    'haUri: s3://flink-state/shop-orders/h%0Aa'
	validate
	build_refused "$(at 'haUri: ' s3)" \
	    'properties.parameters.flink.deployment.haUri' \
	    '^must not percent-encode control characters$'
}
