#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""validate.py CRD.yml RESOURCES.json... - check every FlinkDeployment in
the kubectl Lists given against the CRD's openAPIV3Schema (served version
v1beta1), as the API server's strict field validation would: types, enums
and required fields through jsonschema, and every field the schema does
not declare refused (a structural schema prunes or, with
fieldValidation=Strict, refuses them; jsonschema alone would let them
pass).  Prints one line per problem; exit 0 when there is none."""
import json
import sys

import jsonschema
import yaml


def strict(schema):
    """The schema with unknown fields refused wherever it declares fields."""
    if isinstance(schema, dict):
        out = {k: strict(v) for k, v in schema.items()}
        if ("properties" in out and "additionalProperties" not in out
                and not out.get("x-kubernetes-preserve-unknown-fields")):
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [strict(v) for v in schema]
    return schema


def main(argv):
    crd = yaml.safe_load(open(argv[1]))
    if crd.get("kind") != "CustomResourceDefinition" or \
            crd["spec"]["names"]["kind"] != "FlinkDeployment":
        print(f"{argv[1]}: not the FlinkDeployment CRD")
        return 2
    versions = {v["name"]: v for v in crd["spec"]["versions"]}
    root = dict(versions["v1beta1"]["schema"]["openAPIV3Schema"])
    # The API server checks these itself; a CRD's schema leaves them out.
    root["properties"] = dict(root["properties"], apiVersion={"type": "string"},
                              kind={"type": "string"}, metadata={"type": "object"})
    root["required"] = ["apiVersion", "kind", "metadata", "spec"]
    schema = strict(root)
    enum = schema["properties"]["spec"]["properties"]["flinkVersion"]["enum"]
    if "v1_20" not in enum:
        print(f"{argv[1]}: flinkVersion has no v1_20: {enum}")
        return 2
    validator = jsonschema.Draft4Validator(schema)
    # The check can fail: a bad enum, a string for an integer and an
    # undeclared field must each be refused, or this test proves nothing.
    probe = {"apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
             "metadata": {"name": "p"},
             "spec": {"job": {"upgradeMode": "bogus", "parallelism": "1"},
                      "podTemplate": {"spec": {"containers": [{"name": "c", "envFromm": []}]}}}}
    found = sorted("/".join(str(p) for p in e.absolute_path) for e in validator.iter_errors(probe))
    if found != ["spec/job/parallelism", "spec/job/upgradeMode",
                 "spec/podTemplate/spec/containers/0"]:
        print(f"the validator does not refuse what the API server would: {found}")
        return 2
    bad = seen = 0
    for path in argv[2:]:
        for r in json.load(open(path))["items"]:
            if r["kind"] != "FlinkDeployment":
                continue
            seen += 1
            if r["apiVersion"] != "flink.apache.org/v1beta1":
                print(f"{path}: apiVersion {r['apiVersion']}")
                bad += 1
            for e in validator.iter_errors(r):
                where = "/".join(str(p) for p in e.absolute_path)
                print(f"{path}: {r['metadata']['name']}: /{where}: {e.message}")
                bad += 1
    if seen == 0:
        print("no FlinkDeployment to validate")
        return 2
    print(f"{seen} FlinkDeployment(s) checked, {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
