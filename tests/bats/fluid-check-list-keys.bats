#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-check-list-keys.bats - the operator allowlists come from the
# process environment only (fluid(7), ENVIRONMENT): a contract that
# names one as a key is told it cannot set it, wherever the key is.

load helpers

setup() { TOOL=fluid; fluid_setup; }
teardown() { fluid_teardown; }

@test "list keys: a contract outside the lane that names an allowlist is warned, at the key" {
	cat >c.yaml <<-'YAML'
	fluidVersion: "0.7.6"
	kind: DataProduct
	id: shop.orders
	name: Orders
	metadata:
	  settings:
	    - note: first
	    - FLUID_FLINK_IMAGE_ALLOWLIST: ghcr.io/evil/
	YAML
	tool validate c.yaml
	assert_status 0
	[[ $stderr == *"c.yaml:8:36: warning: "*"metadata.settings[1].FLUID_FLINK_IMAGE_ALLOWLIST: FLUID_FLINK_IMAGE_ALLOWLIST is read only from the operator's environment (a shell or a CI variable): no file fluid reads can set it"* ]] ||
	    fail "no warning at the key" "$stderr"
	tool validate --diagnostics=json c.yaml
	[[ $stderr == *'"pointer":"/metadata/settings/1/FLUID_FLINK_IMAGE_ALLOWLIST"'* ]] ||
	    fail "no pointer to the key" "$stderr"
}

@test "list keys: a name that only looks like a list is not warned" {
	cat >c.yaml <<-'YAML'
	fluidVersion: "0.7.6"
	kind: DataProduct
	id: shop.orders
	name: Orders
	metadata:
	  FLUID_FLINK_IMAGE_ALLOWLISTS: x
	  fluid_flink_image_allowlist: y
	YAML
	tool validate c.yaml
	assert_status 0
	[[ $stderr != *"read only from the operator's environment"* ]] ||
	    fail "a warning for a name that is not a list" "$stderr"
}
