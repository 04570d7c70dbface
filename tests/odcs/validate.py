# SPDX-License-Identifier: Apache-2.0
"""Every export against the ODCS tools (tests/odcs/run).

validate.py BUNDLE EXPORT.yaml EXPORT.json

For one contract: BUNDLE is its `fluid bundle` (every $ref inlined),
EXPORT.yaml and EXPORT.json its `fluid export odcs` without and with
--json.  Checks, each failure one line on stderr:
  - PyYAML (a YAML 1.1 reader) reads the YAML back as the JSON, exactly;
  - the ODCS v3.2.0 JSON schema that datacontract-cli ships
    (datacontract/schemas/odcs-3.2.0.schema.json, found in the installed
    package, never copied here) accepts it;
  - the open-data-contract-standard model loads it (extra keys forbidden);
  - each property's fluid.recursiveType is the contract's own column type,
    spelt here from the contract's YAML independently of fluid's printer,
    and nested properties follow the contract's nesting (a struct's
    properties, an array's named items, a map's named key and value);
  - physicalType is the type alone (no NOT NULL of its own: nullability
    is required), and the expose's primaryKey is the properties marked
    primaryKey, in primaryKeyPosition order.
Exit 0 all passed, 1 a check failed.
"""
import json
import os
import sys

import jsonschema
import yaml
import datacontract
from open_data_contract_standard.model import OpenDataContractStandard

failures = []


def fail(msg):
    failures.append(msg)
    print("odcs: %s: %s" % (sys.argv[2], msg), file=sys.stderr)


def spell(col):
    """The FLUID type syntax of a contract column (types.h, ty_print)."""
    t = col["type"]
    if t == "timestamp" or t == "timestamp_ltz":
        t += "(6)"
    t = t.replace(" ", "")
    if t == "struct":
        t += "<%s>" % ", ".join("%s: %s" % (f["name"], spell(f))
                                for f in col["fields"])
    elif t == "array":
        t += "<%s>" % spell(col["element"])
    elif t == "map":
        t += "<%s, %s>" % (spell(col["key"]), spell(col["value"]))
    if col.get("required") is True:
        t += " not null"
    return t


def custom(prop, name):
    vals = [c["value"] for c in prop.get("customProperties", [])
            if c["property"] == name]
    return vals[0] if len(vals) == 1 else None


def walk(prop, col, where):
    """prop (an ODCS property) against col (the contract's column)."""
    want = spell(col)
    got = custom(prop, "fluid.recursiveType")
    if got != want:
        fail("%s: fluid.recursiveType %r, the contract says %r"
             % (where, got, want))
    if prop.get("required") is not (col.get("required") is True):
        fail("%s: required %r" % (where, prop.get("required")))
    if prop.get("physicalType", "").upper().endswith("NOT NULL"):
        fail("%s: physicalType %r carries nullability"
             % (where, prop.get("physicalType")))
    if not prop.get("name"):
        fail("%s: no name" % where)
    kind = col["type"]
    lt = {"struct": "object", "map": "map", "array": "array"}.get(kind)
    if lt and prop.get("logicalType") != lt:
        fail("%s: logicalType %r, want %r" % (where, prop.get("logicalType"),
                                              lt))
    if kind == "struct":
        kids = prop.get("properties", [])
        if [k.get("name") for k in kids] != [f["name"] for f in col["fields"]]:
            fail("%s: properties %r" % (where, [k.get("name") for k in kids]))
        for k, f in zip(kids, col["fields"]):
            walk(k, f, where + "." + f["name"])
    elif kind == "array":
        if "items" not in prop:
            fail("%s: an array without items" % where)
        else:
            walk(prop["items"], col["element"], where + "[]")
    elif kind == "map":
        m = prop.get("map") or {}
        if "key" not in m or "value" not in m:
            fail("%s: a map without its key and value" % where)
        else:
            walk(m["key"], col["key"], where + "{key}")
            walk(m["value"], col["value"], where + "{value}")


def main():
    bundle_path, ypath, jpath = sys.argv[1:4]
    with open(bundle_path) as f:
        contract = yaml.safe_load(f)
    with open(ypath) as f:
        doc = yaml.safe_load(f)
    with open(jpath) as f:
        doc_json = json.load(f)
    if doc != doc_json:
        fail("PyYAML reads the YAML as something else than the JSON")

    schema_path = os.path.join(os.path.dirname(datacontract.__file__),
                               "schemas", "odcs-3.2.0.schema.json")
    with open(schema_path) as f:
        schema = json.load(f)
    v = jsonschema.Draft201909Validator(
        schema, format_checker=jsonschema.Draft201909Validator.FORMAT_CHECKER)
    # ODCS_NO_SCHEMA: see tests/odcs/run (exponential in nested maps).
    errs = [] if os.environ.get("ODCS_NO_SCHEMA") else v.iter_errors(doc)
    for e in sorted(errs, key=lambda e: list(e.path)):
        fail("schema: %s: %s" % ("/".join(map(str, e.path)), e.message))

    try:
        OpenDataContractStandard.model_validate(doc)
    except Exception as e:  # pydantic's ValidationError, whatever the version
        fail("open-data-contract-standard model: %s" % e)

    if doc.get("apiVersion") != "v3.2.0":
        fail("apiVersion %r" % doc.get("apiVersion"))
    exposes = {x["exposeId"]: x for x in contract.get("exposes", [])}
    objs = doc.get("schema", [])
    if len(objs) != len(exposes):
        fail("%d schema objects for %d exposes" % (len(objs), len(exposes)))
    for obj in objs:
        xid = custom(obj, "fluid.expose")
        x = exposes.get(xid)
        if x is None:
            fail("schema %r: no expose %r" % (obj.get("name"), xid))
            continue
        cols = x["contract"]["schema"]
        props = obj.get("properties", [])
        if [p["name"] for p in props] != [c["name"] for c in cols]:
            fail("%s: columns %r" % (xid, [p["name"] for p in props]))
        for p, c in zip(props, cols):
            walk(p, c, "%s.%s" % (xid, c["name"]))
            if not p.get("transformSourceObjects") or not p.get("transformLogic"):
                fail("%s.%s: no transformSourceObjects/transformLogic"
                     % (xid, c["name"]))
        keys = sorted((p.get("primaryKeyPosition"), p["name"])
                      for p in props if p.get("primaryKey"))
        want = x["contract"].get("primaryKey") or []
        if [k[1] for k in keys] != want or \
                [k[0] for k in keys] != list(range(1, len(want) + 1)):
            fail("%s: primary key %r, the contract's is %r" % (xid, keys, want))
        if not obj.get("dataGranularityDescription"):
            fail("%s: no dataGranularityDescription" % xid)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
