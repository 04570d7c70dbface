# SPDX-License-Identifier: Apache-2.0
"""The live lane's avro-confluent check: records produced with confluent-kafka's
AvroSerializer against the lane's schema registry (Apicurio, ccompat API),
read back from Iceberg and compared with what the contract says, computed by
py/oracle.py from the contract's YAML (not from fluid's output).

  avrocheck.py produce --contract C --topic T --count N --seed S --state FILE
  avrocheck.py verify --contract C --state FILE

produce: the subject <topic>-value is set to FORWARD compatibility; the
first half of the records is written with the reader schema the contract
declares (v1), the second half with a schema evolved from it FORWARD-
compatibly (v2: a new top-level field, a new field in a struct, fields in
another order), which the registry must accept as version 2; a schema the
contract's reader cannot read (a required field removed) must be refused by
its compatibility check.  Keys are avro too (<topic>-key), a tenth of them
null.  float and double values include ones that are not exactly
representable (0.1, 1/3, 16777217, the smallest subnormal).

verify: the Iceberg table's schema equals the contract's expose (names,
order, types, nullability, nested included); the current snapshot's
Parquet data files hold exactly the expected rows and no column or field
the contract does not declare; pyiceberg's scan holds them too.
"""
import argparse
import datetime as dt
import json
import pickle
import sys
import time
import urllib.request

import livelib as L
import oracle as O

EPOCH = dt.datetime(1970, 1, 1)
EPOCH_Z = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
FLOATS = [0.1, 1 / 3, 16777217.0, 1.4e-45, -2.5, 3.4028234663852886e38, 0.0, 1e-7]
DOUBLES = [0.1, 1 / 3, 5e-324, 1.7976931348623157e308, -0.0, 2 ** 53 + 1.0, 123456.789]


def millis(v):
    td = v - (EPOCH_Z if v.tzinfo else EPOCH)
    return td.days * 86_400_000 + td.seconds * 1000 + td.microseconds // 1000


# -------------------------------------------------------------- avro schema

def avro_type(col, name, evolve):
    """The Avro type of a contract column, as Flink's avro format reads it:
    timestamp(p)/timestamp_ltz(p) (p <= 3) as timestamp-millis, decimal as
    bytes, a nullable type as a union with null first."""
    kind, p, s = O.parse_type(col["type"])
    simple = {"string": "string", "boolean": "boolean", "int": "int", "long": "long",
              "float": "float", "double": "double", "binary": "bytes"}
    if kind in simple:
        t = simple[kind]
    elif kind in ("timestamp", "timestamp_ltz"):
        t = {"type": "long", "logicalType": "timestamp-millis"}
    elif kind == "date":
        t = {"type": "int", "logicalType": "date"}
    elif kind == "decimal":
        t = {"type": "bytes", "logicalType": "decimal", "precision": p, "scale": s}
    elif kind == "struct":
        fields = [avro_field(f, name + "_" + f["name"], evolve) for f in col["fields"]]
        if evolve:
            # FORWARD: a field the reader does not know is skipped by it.
            fields.append({"name": "source", "type": ["null", "string"], "default": None})
            fields.reverse()
        t = {"type": "record", "name": name, "fields": fields}
    elif kind == "array":
        t = {"type": "array", "items": avro_type(col["element"], name + "_element", evolve)}
    elif kind == "map":
        t = {"type": "map", "values": avro_type(col["value"], name + "_value", evolve)}
    else:
        raise ValueError(kind)
    return t if col["required"] else ["null", t]


def avro_field(col, name, evolve):
    f = {"name": col["name"], "type": avro_type(col, name, evolve)}
    if not col["required"]:
        f["default"] = None
    return f


def record_schema(cols, name, evolve=False):
    fields = [avro_field(c, name + "_" + c["name"], evolve) for c in cols]
    if evolve:
        fields.insert(0, {"name": "note", "type": ["null", "string"], "default": None})
        fields[1:] = fields[1:][::-1]
    return json.dumps({"type": "record", "name": name, "namespace": "live", "fields": fields})


def to_avro(col, v, evolve, i):
    if v is None:
        return None
    kind, _, _ = O.parse_type(col["type"])
    if kind in ("timestamp", "timestamp_ltz"):
        return millis(v)
    if kind == "struct":
        out = {f["name"]: to_avro(f, v.get(f["name"]), evolve, i) for f in col["fields"]}
        if evolve:
            out["source"] = f"src-{i}"
        return out
    if kind == "array":
        return [to_avro(col["element"], e, evolve, i) for e in v]
    if kind == "map":
        return {k: to_avro(col["value"], e, evolve, i) for k, e in v.items()}
    return v


def registry(method, url, body=None):
    req = urllib.request.Request(url, method=method, data=None if body is None else
                                 json.dumps(body).encode(),
                                 headers={"Content-Type": "application/vnd.schemaregistry.v1+json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


# ------------------------------------------------------------------ produce

def cmd_produce(a):
    from confluent_kafka import Producer
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    c = O.load(a.contract)
    url = a.registry
    subject = f"{a.topic}-value"
    st, body = registry("PUT", f"{url}/config/{subject}", {"compatibility": "FORWARD"})
    if st != 200:
        sys.exit(f"avrocheck: cannot set {subject} to FORWARD: {st} {body}")
    v1 = record_schema(c.value_cols, "Event")
    v2 = record_schema(c.value_cols, "Event", evolve=True)
    kschema = record_schema(c.key_cols, "EventKey")
    client = SchemaRegistryClient({"url": url})
    conf = {"auto.register.schemas": True}
    ser = [AvroSerializer(client, v1, conf=conf), AvroSerializer(client, v2, conf=conf)]
    kser = AvroSerializer(client, kschema, conf=conf)

    g = L.Gen(a.seed)
    recs = []
    base_ts = 1_700_000_000_000
    for i in range(a.count):
        v = {col["name"]: g.value(col) for col in c.value_cols}
        v["event_id"] = f"a{i:04d}"
        for col in c.value_cols:
            if col["type"] == "float" and v[col["name"]] is not None:
                v[col["name"]] = FLOATS[i % len(FLOATS)]
            if col["type"] == "double" and v[col["name"]] is not None:
                v[col["name"]] = DOUBLES[i % len(DOUBLES)]
        key = None if g.r.random() < 0.1 else {kc["name"]: g.value(kc) for kc in c.key_cols}
        recs.append({"i": i, "value": v, "key": key, "ts": base_ts + i * 1000,
                     "writer": 1 if i < a.count // 2 else 2})

    p = Producer({"bootstrap.servers": a.bootstrap, "enable.idempotence": True, "linger.ms": 5})
    meta = {}

    def delivered(err, msg, i):
        if err is not None:
            raise SystemExit(f"avrocheck: delivery failed: {err}")
        meta[i] = (msg.partition(), msg.offset(), msg.timestamp()[1])

    t0 = time.monotonic()
    for r in recs:
        ev = r["writer"] == 2
        datum = {col["name"]: to_avro(col, r["value"].get(col["name"]), ev, r["i"])
                 for col in c.value_cols}
        if ev:
            datum["note"] = f"written with v2 ({r['i']})"
        value = ser[r["writer"] - 1](datum, SerializationContext(a.topic, MessageField.VALUE))
        key = None
        if r["key"] is not None:
            kd = {kc["name"]: to_avro(kc, r["key"].get(kc["name"]), False, r["i"]) for kc in c.key_cols}
            key = kser(kd, SerializationContext(a.topic, MessageField.KEY))
        p.produce(a.topic, key=key, value=value, timestamp=r["ts"],
                  on_delivery=lambda err, msg, i=r["i"]: delivered(err, msg, i))
        p.poll(0)
    if p.flush(60) or len(meta) != len(recs):
        sys.exit("avrocheck: records not delivered")
    for r in recs:
        r["partition"], r["offset"], ts = meta[r["i"]]
        r["timestamp"] = dt.datetime.fromtimestamp(ts / 1000, tz=dt.timezone.utc)

    # The registry holds both writer schemas under the subject, v2 as version 2,
    # accepted by its FORWARD check; a schema the reader cannot read is refused.
    st, versions = registry("GET", f"{url}/subjects/{subject}/versions")
    if st != 200 or versions != [1, 2]:
        sys.exit(f"avrocheck: {subject} versions: {st} {versions}, expected [1, 2]")
    st, cfg = registry("GET", f"{url}/config/{subject}")
    print(f"avrocheck: {subject}: versions {versions}, compatibility {cfg}")
    broken = json.loads(v1)
    broken["fields"] = [f for f in broken["fields"] if f["name"] != "event_id"]
    st, res = registry("POST", f"{url}/compatibility/subjects/{subject}/versions/latest",
                       {"schema": json.dumps(broken)})
    if st != 200 or not isinstance(res, dict) or res.get("is_compatible") is not False:
        sys.exit(f"avrocheck: a schema without the required event_id was not refused as "
                 f"FORWARD-incompatible: {st} {res}")
    st, res2 = registry("POST", f"{url}/subjects/{subject}/versions", {"schema": json.dumps(broken)})
    if st == 200:
        sys.exit(f"avrocheck: the registry registered a FORWARD-incompatible schema: {res2}")
    print(f"avrocheck: the registry refuses a schema without the required event_id "
          f"(compatibility {res}, register {st})")

    with open(a.state, "wb") as f:
        pickle.dump({"records": recs}, f)
    with open(a.state + ".counts", "w") as f:
        f.write(f"avro={len(c.rows(recs))}\n")
    nk = sum(1 for r in recs if r["key"] is None)
    print(f"avrocheck: produced {len(recs)} avro records to {a.topic} "
          f"({a.count // 2} with v1, {a.count - a.count // 2} with v2; {nk} null keys) "
          f"in {time.monotonic() - t0:.1f} s")


# ------------------------------------------------------------------- verify

def cmd_verify(a):
    c = O.load(a.contract)
    with open(a.state, "rb") as f:
        recs = pickle.load(f)["records"]
    exp = c.rows(recs)
    t, scanned = L.read_table(c.ident)
    bad = False
    sp = O.schema_problems(c.columns, t.schema())
    if sp:
        bad = True
        print(f"avrocheck: {c.ident}: the table's schema is not the contract's:")
        for p in sp:
            print("avrocheck:   " + p)
    else:
        print(f"avrocheck: {c.ident}: the table's schema is the contract's "
              f"({len(c.columns)} columns, nested types and nullability included)")
    raw = L.read_data_files(t)
    sh = O.shape_problems(c.columns, raw)
    if sh:
        bad = True
        print(f"avrocheck: {c.ident}: the data files hold other columns than the contract's:")
        for p in sh:
            print("avrocheck:   " + p)
    problems = L.compare(c.columns, exp, raw, key="event_id")
    known = load_known(a.known).get(a.name or "")
    if problems:
        # Flink's key formats other than raw give no key row for a record without
        # a key, and the Kafka source then emits no row at all for that record.
        alt = c.rows([r for r in recs if r["key"] is not None])
        diagnosis = None
        if len(alt) < len(exp) and not L.compare(c.columns, alt, raw, key="event_id"):
            diagnosis = (f"records without a key dropped: every row matches except that the "
                         f"{len(exp) - len(alt)} records with no key gave no row (the spec: "
                         f"a record with no key reads its key columns as null)")
        print(f"avrocheck: {c.ident}: the data files differ from the oracle's rows:")
        for p in problems[:12]:
            print("avrocheck:   " + p)
        if diagnosis:
            print(f"avrocheck: {c.ident}: diagnosis: {diagnosis}")
        if diagnosis and known and known[1] in diagnosis:
            print(f"avrocheck: KNOWN finding {a.name}: {known[2] if len(known) > 2 else known[1]}")
            exp = alt
        else:
            bad = True
    elif known:
        bad = True
        print(f"avrocheck: {a.name} is listed in known-findings.tsv but its rows are right now: "
              "remove the line")
    else:
        nts = sum(1 for r in exp for k in ("event_time", "key_at") if r.get(k) is not None)
        print(f"avrocheck: {c.ident}: data files: {len(raw)} rows, every value equal to the "
              f"oracle's ({nts} top-level timestamp_ltz values, floats as binary32)")
    problems, tolerated = L.compare_lenient(c.columns, exp, scanned, "event_id")
    if problems:
        bad = True
        print(f"avrocheck: {c.ident}: pyiceberg's scan differs:")
        for p in problems[:12]:
            print("avrocheck:   " + p)
    else:
        print(f"avrocheck: {c.ident}: pyiceberg: every value equal"
              + (f" (null/empty containers confused by its reader: {tolerated})" if tolerated else ""))
    if bad:
        sys.exit(1)


def load_known(path):
    known = {}
    if path:
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                f = line.rstrip("\n").split("\t")
                if f[0] == "rows":
                    known[f[1]] = f[1:]
    return known


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("produce")
    p.add_argument("--bootstrap", default="127.0.0.1:9092")
    p.add_argument("--registry", default="http://127.0.0.1:8081/apis/ccompat/v7")
    p.add_argument("--contract", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--state", required=True)
    v = sub.add_parser("verify")
    v.add_argument("--contract", required=True)
    v.add_argument("--state", required=True)
    v.add_argument("--name", help="this check's name in --known")
    v.add_argument("--known", help="known-findings.tsv")
    a = ap.parse_args()
    {"produce": cmd_produce, "verify": cmd_verify}[a.cmd](a)


if __name__ == "__main__":
    main()
