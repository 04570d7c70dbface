# SPDX-License-Identifier: Apache-2.0
"""The demo's view of a contract: whether the demo can run it, and the
copy it runs, with the demo's endpoints.

  contract.py BUNDLED.yaml NAME OUTDIR

BUNDLED.yaml is `fluid bundle` of the contract (every $ref inlined), NAME
the contract's name as the user gave it (for the refusal).  The demo starts
Kafka (PLAINTEXT on 127.0.0.1:9092), an Iceberg REST catalog without
authentication (127.0.0.1:8181) over S3 (127.0.0.1:9000) and a Flink SQL
Gateway (127.0.0.1:8083), and produces plain JSON records with a string
key: a contract that needs anything else is refused, on one line, status 1,
before anything starts.  Otherwise writes OUTDIR/demo.fluid.yaml (the
contract with the demo's endpoints: catalog URI, s3.endpoint,
bootstrapServers; catalogAuth left out, as the demo's catalog has none),
OUTDIR/fluid.targets.yaml (target "demo", the gateway) and prints what the
demo needs as NAME=VALUE lines (sh-quoted).
"""
import argparse
import os
import shlex
import sys

import yaml

CATALOG = "http://127.0.0.1:8181"
S3 = "http://127.0.0.1:9000"
KAFKA = "127.0.0.1:9092"
GATEWAY = "http://127.0.0.1:8083"


class Refused(Exception):
    pass


def need(cond, why):
    if not cond:
        raise Refused(why)


def flink_builds(doc):
    return [b for b in doc.get("builds") or [] if b.get("engine") == "flink"]


def check(doc):
    """The one build the demo runs, or Refused naming what the demo lacks."""
    builds = flink_builds(doc)
    need(len(builds) == 1, f"it has {len(builds)} Flink builds; the demo deploys exactly one")
    b = builds[0]
    props = b.get("properties") or {}
    flink = (props.get("parameters") or {}).get("flink") or {}
    need(flink.get("management", "operator") != "cfk",
         f"build {b.get('id')} is management: cfk (Confluent for Kubernetes); "
         "the demo deploys through a Flink SQL Gateway, which a CFK build does not use")
    stream = props.get("stream") or {}
    need(stream.get("kind", "kafka") == "kafka", f"its stream is {stream.get('kind')}, not kafka")
    fmt = stream.get("format")
    key = stream.get("key") or {}
    registry = "avro-confluent" in (fmt, key.get("format")) or \
        "schemaRegistryUrl" in (flink.get("source") or {})
    need(not registry, "it reads Avro through a schema registry (avro-confluent); "
         "the demo starts no schema registry")
    need(not (flink.get("source") or {}).get("security"),
         "it reads Kafka over TLS/SASL (parameters.flink.source.security); "
         "the demo's broker has a plain listener and no credentials")
    need(fmt == "json", f"its stream format is {fmt}; the demo's producer writes plain JSON "
         "records only (no change-stream envelopes)")
    need(key.get("format") in (None, "raw"),
         f"its key format is {key.get('format')}; the demo's producer writes raw string keys")
    outs = set(b.get("outputs") or [])
    exposes = [e for e in doc.get("exposes") or [] if e.get("exposeId") in outs]
    for e in exposes:
        bind = e.get("binding") or {}
        loc = bind.get("location") or {}
        need(bind.get("format") == "iceberg" and loc.get("catalog") == "rest",
             f"expose {e.get('exposeId')} is not an Iceberg table in a REST catalog; "
             "the demo starts an Iceberg REST catalog only")
    need(len(exposes) == 1, f"build {b.get('id')} writes {len(exposes)} tables; "
         "the demo shows exactly one")
    return b, flink, stream, key, exposes[0]


def localise(b, flink, e):
    """The demo's endpoints in place of the contract's."""
    bind = e["binding"]
    bind["location"]["uri"] = CATALOG
    cp = bind.get("catalogProperties") or {}
    cp["s3.endpoint"] = S3
    cp["s3.path-style-access"] = "true"
    bind["catalogProperties"] = cp
    bind.pop("catalogAuth", None)
    flink.setdefault("source", {})["bootstrapServers"] = KAFKA


def repository(image):
    """The image's repository: no digest, no tag (a registry's :port stays)."""
    image = image.split("@")[0]
    slash = image.rfind("/")
    colon = image.rfind(":")
    return image[:colon] if colon > slash else image


def main():
    ap = argparse.ArgumentParser(description="whether the demo can run a contract, "
                                 "and its copy with the demo's endpoints (tools/demo/run)")
    ap.add_argument("bundled", help="fluid bundle's output for the contract")
    ap.add_argument("name", help="the contract's name as the user gave it")
    ap.add_argument("outdir", help="where demo.fluid.yaml and fluid.targets.yaml go")
    a = ap.parse_args()
    path, name, out = a.bundled, a.name, a.outdir
    with open(path) as fh:
        doc = yaml.safe_load(fh)
    try:
        b, flink, stream, key, e = check(doc)
    except Refused as r:
        print(f"demo: {name}: refused: {r}", file=sys.stderr)
        sys.exit(1)
    localise(b, flink, e)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "demo.fluid.yaml"), "w") as fh:
        yaml.safe_dump(doc, fh, sort_keys=False, allow_unicode=True)
    with open(os.path.join(out, "fluid.targets.yaml"), "w") as fh:
        fh.write(f"targets:\n  demo:\n    backend: flink\n    flink: {{gateway: \"{GATEWAY}\"}}\n")
    loc = e["binding"]["location"]
    dep = flink.get("deployment") or {}
    keycols = key.get("schema") or []
    vals = {
        "DEMO_BUILD": b.get("id", ""),
        "DEMO_TOPIC": stream.get("topic", ""),
        "DEMO_KEY_COL": keycols[0]["name"] if keycols else "",
        "DEMO_TABLE": f"{loc.get('namespace')}.{loc.get('table')}",
        # fluid verify's allowlists: this contract's own deployment values,
        # since the demo is the operator of this machine.
        "DEMO_CONTEXT": dep.get("context", ""),
        "DEMO_NAMESPACE": dep.get("namespace", ""),
        "DEMO_IMAGE": repository(str(dep.get("image", ""))),
        "DEMO_SERVICE_ACCOUNT": dep.get("serviceAccount", ""),
        "DEMO_SECRETS": ",".join(dep.get("secretRefs") or []),
    }
    for k, v in vals.items():
        print(f"{k}={shlex.quote(str(v))}")


if __name__ == "__main__":
    main()
