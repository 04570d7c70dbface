#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""validate.py SCHEMA_DIR RESOURCES.json... - check every CFK resource
(platform.confluent.io/v1beta1) in the kubectl Lists given against CFK
3.3.0's JSON Schema of its kind (SCHEMA_DIR/<kind>_v1beta1.json, lower
case), plus what the schemas leave to the API server and CMF: apiVersion,
a metadata.name of at most 45 characters of a-z, 0-9 and '-' starting
with a letter (CMF's name rule), a namespace.  Prints one line per
problem; exit 0 when there is none, 1 with problems, 2 when the check
could not run or could not fail."""
import json
import os
import re
import sys

import jsonschema

CMF_NAME = re.compile(r"^[a-z][a-z0-9-]{0,44}$")


def load(d, kind):
    return json.load(open(os.path.join(d, kind.lower() + "_v1beta1.json")))


def main(argv):
    d = argv[1]
    validators = {k: jsonschema.Draft7Validator(load(d, k))
                  for k in ("FlinkStatement", "FlinkComputePool")}
    # The check must be able to fail: an unknown field, a missing
    # required one, a wrong type and a bad enum are each refused.
    probe = {"apiVersion": "platform.confluent.io/v1beta1", "kind": "FlinkStatement",
             "metadata": {"name": "p"},
             "spec": {"flinkEnvironment": "e", "statement": "x", "catalog": "c",
                      "stopped": "yes"}}
    found = sorted(e.message for e in validators["FlinkStatement"].iter_errors(probe))
    want = ["'computePoolName' is a required property",
            "'yes' is not of type 'boolean'",
            "Additional properties are not allowed ('catalog' was unexpected)"]
    pool = {"apiVersion": "platform.confluent.io/v1beta1", "kind": "FlinkComputePool",
            "metadata": {"name": "p"},
            "spec": {"type": "BIG", "flinkEnvironment": "e", "clusterSpec": {}}}
    pfound = [e.message for e in validators["FlinkComputePool"].iter_errors(pool)]
    if sorted(found) != sorted(want) or len(pfound) != 1 or "BIG" not in pfound[0]:
        print(f"the validator does not refuse what it must: {found} {pfound}")
        return 2
    bad = seen = 0
    for path in argv[2:]:
        for r in json.load(open(path))["items"]:
            kind = r.get("kind")
            if kind not in validators:
                print(f"{path}: unexpected kind {kind}")
                bad += 1
                continue
            seen += 1
            name = r.get("metadata", {}).get("name", "")
            if r.get("apiVersion") != "platform.confluent.io/v1beta1":
                print(f"{path}: {name}: apiVersion {r.get('apiVersion')}")
                bad += 1
            if not CMF_NAME.match(name):
                print(f"{path}: {name}: not a CMF name (45 of a-z, 0-9, '-', a letter first)")
                bad += 1
            if not r.get("metadata", {}).get("namespace"):
                print(f"{path}: {name}: no namespace")
                bad += 1
            for e in validators[kind].iter_errors(r):
                where = "/".join(str(p) for p in e.absolute_path)
                print(f"{path}: {name}: /{where}: {e.message}")
                bad += 1
    if seen == 0:
        print("no CFK resource to validate")
        return 2
    print(f"{seen} CFK resource(s) checked, {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
