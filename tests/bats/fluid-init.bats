#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid-init.bats - fluid init [DIR] writes a commented starter contract,
# its workspace file and the schema its first line names; the contract
# validates with no diagnostic at all; an existing file is never
# replaced (exit 1, nothing written).

load helpers

setup() { TOOL=fluid; fluid_setup; }
teardown() { fluid_teardown; }

@test "init: writes the three files into DIR, and the contract validates with no warning" {
	tool init proj
	assert_status 0
	assert_no_stderr
	assert_equal "$output" "wrote proj/product.fluid.yaml
wrote proj/fluid.workspace.yaml
wrote proj/fluid.schema.json"
	head -n 1 proj/product.fluid.yaml | grep -qx '# yaml-language-server: $schema=fluid.schema.json' ||
	    fail "no yaml-language-server header" "$(head -n 1 proj/product.fluid.yaml)"
	cmp proj/fluid.schema.json <("$BIN/fluid" schema) || fail "not fluid schema's text"
	cd proj
	run --separate-stderr "$BIN/fluid" validate --format json product.fluid.yaml
	assert_status 0
	assert_no_stderr
	assert_jq '.status == "ok" and .diagnostics == []'
	run "$BATS_TEST_DIRNAME/../tools/schema-check" validate fluid.schema.json - product.fluid.yaml
	assert_status 0
	# The placeholders to replace are named in comments.
	[ "$(grep -c 'REPLACE' product.fluid.yaml)" -ge 6 ] ||
	    fail "too few placeholders named" "$(grep REPLACE product.fluid.yaml)"
	grep -q '^ref_root: \.$' fluid.workspace.yaml || fail "no ref_root"
}

@test "init: with no DIR, the current directory" {
	tool init
	assert_status 0
	[ -f product.fluid.yaml ] && [ -f fluid.workspace.yaml ] && [ -f fluid.schema.json ] ||
	    fail "files missing" "$(ls -la)"
}

@test "init: an existing file is refused, exit 1, and nothing is written" {
	local f
	for f in product.fluid.yaml fluid.workspace.yaml fluid.schema.json; do
		rm -rf d
		mkdir d
		printf 'mine\n' >"d/$f"
		tool init d
		assert_status 1
		assert_no_stdout
		assert_stderr_line "^fluid: 'd/$f' exists: init wrote nothing \(it never replaces a file\)$"
		assert_equal "$(ls d)" "$f" "the files in d"
		assert_equal "$(cat "d/$f")" "mine"
	done
	# A dangling symbolic link is a file too: not followed, not replaced.
	rm -rf d && mkdir d && ln -s nowhere d/fluid.schema.json
	tool init d
	assert_status 1
	[ ! -e d/nowhere ] && [ ! -e d/product.fluid.yaml ] || fail "written through the link"
}

@test "init: a write that fails takes back the files already written" {
	# A file size limit of 6 KiB lets the contract and the workspace file
	# through and stops the schema (17 KiB) short; SIGXFSZ ignored makes
	# that a failed write (EFBIG), not a killed process.
	run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 12; exec "$0" init d' "$BIN/fluid"
	assert_status 2
	assert_stderr_line "^fluid: cannot write 'd/fluid.schema.json': File too large$"
	assert_equal "$(ls -A d)" "" "the files in d"
}

@test "init: usage" {
	usage_error init a b "^fluid: init expects at most one DIR"
	usage_error init --out x "^fluid: --out is for "
}

@test "init: README's lines run: init, the header and the editors' settings name the file init writes" {
	local line
	line=$(grep -E '^    \.\./bin/fluid init ' "$TOP/README.md") || fail "no init line in README"
	line=${line#    }
	# README's commands run from examples/, after Quick start's build.
	line=${line//..\/bin\/fluid/$BIN/fluid}
	line=${line//\/tmp\/my-product/$TMP/my-product}
	run bash -c "$line"
	assert_status 0
	assert_equal "${lines[-1]}" "$TMP/my-product/product.fluid.yaml: ok"
	# The header README shows is the starter's first line.
	grep -qxF "    $(head -n 1 "$TMP/my-product/product.fluid.yaml")" "$TOP/README.md" ||
	    fail "README does not show the starter's header"
	# VS Code's and Neovim's settings map the file init writes to contracts.
	grep -qF '"yaml.schemas": { "./fluid.schema.json": "*.fluid.yaml" }' "$TOP/README.md" ||
	    fail "no VS Code line"
	grep -qF "['./fluid.schema.json'] = '*.fluid.yaml'" "$TOP/README.md" || fail "no Neovim line"
	[ -f "$TMP/my-product/fluid.schema.json" ] || fail "init wrote no fluid.schema.json"
}
