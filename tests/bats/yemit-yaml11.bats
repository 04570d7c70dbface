#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fluid bundle writes YAML that a YAML 1.1 reader (PyYAML; Go yaml.v2,
# which older kubectl uses) and a YAML 1.2 reader (fluid-resolve) both
# read back as the same strings: what either would take for a number, a
# boolean, a null, a timestamp, a merge or a value key is quoted, and
# nothing else is.
#
# The strings are generated below from the YAML 1.1 type pages
# (yaml.org/type/{bool,int,float,null,timestamp,merge,value}.html), the
# regexps of PyYAML's resolver.py and go-yaml's resolve.go, not from
# lib/yemit.c.  PyYAML is the Debian package python3-yaml.

load helpers

setup() {
	TOOL=fluid
	fluid_setup
	python3 -c 'import yaml' 2>/dev/null ||
	    fail "PyYAML is not installed (apt-get install python3-yaml)"
	mkdir -p ws
	echo 'ref_root: .' >ws/fluid.workspace.yaml
}

teardown() {
	fluid_teardown
}

# gen: write tricky.json (strings a reader may take for another type),
# plain.json (strings that are strings to every reader) and
# contract.yaml, the contract holding both as values, as keys and as
# key and value at once, with a few genuine scalars of other types.
gen() {
	python3 - <<'EOF'
import itertools, json

def cases(w):
    """Every spelling of w in upper and lower case."""
    return sorted({''.join(p) for p in itertools.product(
        *[(c.lower(), c.upper()) for c in w])})

tricky = []
# bool (yaml.org/type/bool.html; y and n are the spec's and Go's).
for w in ['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false']:
    tricky += cases(w)
# null, merge, value.
tricky += cases('null') + ['~', '<<', '=']
# float: infinities and not-a-number in every case, with signs.
for w in cases('.inf'):
    tricky += [w, '+' + w, '-' + w]
tricky += cases('.nan')
tricky += [
    # int: base 2, 8, 10, 16 and 60, underscores, signs.
    '0', '-0', '+0', '1', '+1', '-1', '12', '012', '017', '-017', '0_7',
    '09', '1_000', '-1_000', '1__0', '1_', '0b101', '-0b101', '+0b1_0',
    '0x1F', '-0x1f', '0x_1F', '0o17', '1:30', '-1:30', '190:20:30',
    '9223372036854775808', '99999999999999999999999',
    # float: base 10 and 60, exponents, leading and trailing dots.
    '1.5', '-1.5', '+1.5', '1.', '+1.', '0.', '.5', '-.5', '+.5', '.5e3',
    '1e3', '1E3', '1e+3', '1e-3', '-1e3', '1.5e-3', '1.5E+3', '1e999',
    '685_230.15', '685.230_15e+03', '190:20:30.15', '1:30.5',
    # timestamp: dates, and date-times as the spec writes them.
    '2001-12-14', '2002-12-14', '1999-01-01',
    '2001-12-14t21:59:43.10-05:00', '2001-12-14T21:59:43.10-05:00',
    '2001-12-14 21:59:43.10 -5', '2001-12-15 2:59:43.10',
    '2001-12-15T02:59:43.1Z', '2001-12-14t21:59:43Z',
    '2001-12-14 21:59:43', '2001-12-14T21:59:43+05',
    # Go yaml.v2 (resolve.go): one-digit date and time fields, upper
    # case base prefixes, underscores anywhere in a number.
    '2002-1-2', '2002-12-2T1:2:3Z', '2002-1-2 1:2:3.5', '0B101',
    '0O17', '0X1F', '+_1', '1_e3', '1_0.5',
]
plain = [
    'hello', 'orders', 'a b', '0.7.7', '1.2.3', '10.0.0.1', 'v1.5',
    'yess', 'noo', 'onn', 'offf', 'yes please', 'n/a', 'Y2K', 'nulls',
    'truely', 'falsey', '~x', 'x~', '<', '<<<', '==', '=x', '2001-12',
    '2001-12-14x', '2001-123-14', '12:60', '1-2', '0x', '0b', '0o',
    '0xZZ', '0b12', '0o8', '1e', 'e3', '1_000x', '_1', 'a_b', '.',
    '..', '+', 'x1', 'abc123', '.info', '.nano', 'inf', 'nan', 'Infinity',
    'NaN', 'ON AIR', 'yes!', '1:2:3:4x', '12h', '1.5.0', 'ab:cd',
    'café', '☃',
]
assert not set(tricky) & set(plain)
assert len(set(tricky)) == len(tricky) and len(set(plain)) == len(plain)
every = tricky + plain
doc = {
    'fluidVersion': '0.7.7',
    'id': 'yaml11',
    'values': every,
    'keys': {s: 'k%d' % i for i, s in enumerate(every)},
    'pairs': {s: s for s in every},
    'genuine': {'t': True, 'f': False, 'nothing': None, 'int': 1000,
                'neg': -17, 'real': 1.5, 'big': 1e22, 'whole': 2.0},
}
json.dump(tricky, open('tricky.json', 'w'))
json.dump(plain, open('plain.json', 'w'))
json.dump(doc, open('expected.json', 'w'))
# JSON is YAML 1.2: the contract holds every string double-quoted.
open('contract.yaml', 'w').write(json.dumps(doc, indent=1) + '\n')
EOF
}

# same_as_expected READER FILE: FILE, read with READER (a PyYAML
# loader, or ir: the document of fluid-resolve's output), holds the document of expected.json, every scalar of
# the same type (Python's True == 1, so types are compared too).
same_as_expected() {
	python3 - "$@" <<'EOF'
import json, sys

def strict(a, b, where):
    if type(a) is not type(b):
        sys.exit('%s: %r (%s) read as %r (%s)' % (where, b, type(b).__name__,
                 a, type(a).__name__))
    if isinstance(a, dict):
        if list(a) != list(b):
            sys.exit('%s: keys differ: %r' % (
                where, sorted(set(a) ^ set(b), key=str)[:10]))
        for k in a:
            strict(a[k], b[k], '%s.%s' % (where, k))
    elif isinstance(a, list):
        if len(a) != len(b):
            sys.exit('%s: %d items, expected %d' % (where, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            strict(x, y, '%s[%d]' % (where, i))
    elif a != b:
        sys.exit('%s: %r read as %r' % (where, b, a))

want = json.load(open('expected.json'))
reader, path = sys.argv[1], sys.argv[2]
if reader == 'ir':
    got = json.load(open(path))['resolve']['document']
else:
    import yaml
    loader = getattr(yaml, reader)
    try:
        got = yaml.load(open(path, encoding='utf-8'), Loader=loader)
    except yaml.YAMLError as e:
        sys.exit('%s cannot read %s: %s' % (reader, path, e))
strict(got, want, reader)
EOF
}

@test "yemit-yaml11: PyYAML reads every string of the bundle back as the same string" {
	gen
	"$BIN/fluid" bundle contract.yaml >ws/bundle.yaml || fail "bundle failed"
	same_as_expected SafeLoader ws/bundle.yaml
}

@test "yemit-yaml11: PyYAML's libyaml loader reads the bundle the same" {
	python3 -c 'import yaml; yaml.CSafeLoader' 2>/dev/null ||
	    skip "PyYAML was built without libyaml"
	gen
	"$BIN/fluid" bundle contract.yaml >ws/bundle.yaml || fail "bundle failed"
	same_as_expected CSafeLoader ws/bundle.yaml
}

@test "yemit-yaml11: fluid-resolve (YAML 1.2) reads the bundle back as the contract" {
	gen
	"$BIN/fluid" bundle contract.yaml >ws/bundle.yaml || fail "bundle failed"
	run --separate-stderr "$BIN/fluid-resolve" ws/bundle.yaml
	assert_status 0
	assert_no_stderr
	# Not through jq, which prints the real 2.0 as 2.
	printf '%s\n' "$output" >ir.json
	same_as_expected ir ir.json
	run --separate-stderr "$BIN/fluid-resolve" contract.yaml
	assert_status 0
	local want=$(jqo .resolve.digest)
	assert_equal "${want#sha256:}" "$(head -1 ws/bundle.yaml |
	    sed 's/.* digest sha256://')" "digest in the bundle's comment"
}

@test "yemit-yaml11: the tricky strings are quoted, the ordinary ones and genuine scalars are not" {
	gen
	"$BIN/fluid" bundle contract.yaml >ws/bundle.yaml || fail "bundle failed"
	python3 - ws/bundle.yaml <<'EOF'
import json, sys

lines = {l.strip() for l in open(sys.argv[1], encoding='utf-8')}
tricky = json.load(open('tricky.json'))
plain = json.load(open('plain.json'))
every = tricky + plain
bad = []
for i, s in enumerate(every):
    forms = ['- ' + s, '%s: k%d' % (s, i), '%s: %s' % (s, s)]
    if s in plain:
        bad += ['not plain: ' + f for f in forms if f not in lines]
    else:
        bad += ['plain: ' + f for f in forms if f in lines]
for f in ['t: true', 'f: false', 'nothing: null', 'int: 1000', 'neg: -17',
          'real: 1.5', 'big: 1.0e+22', 'whole: 2.0']:
    if f not in lines:
        bad.append('not plain: ' + f)
if bad:
    sys.exit('\n'.join(bad[:40]))
EOF
}
