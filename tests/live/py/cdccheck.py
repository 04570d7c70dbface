# SPDX-License-Identifier: Apache-2.0
"""The live lane's change-stream checks (issue 22): Debezium and Canal JSON
change envelopes produced to Kafka, the Iceberg tables read back and
compared with the keyed final state, or with every change, computed here
from the changes themselves (not from fluid's output).

  cdccheck.py plan --format debezium|canal --keys N --seed S --state FILE
  cdccheck.py produce --state FILE --topic T [--rate R]
  cdccheck.py verify --mode upsert|ops --state FILE --table NS.NAME

plan: a seeded history of changes per customer key: a create (some as a
snapshot read, op r), updates (some keys updated again and again), a
delete (Debezium: followed by a tombstone, a null value), some keys
created again after their delete, in an order that keeps each key's own.
The state file holds the changes; FILE.counts the rows each table commits
(the harness's --expect-rows @FILE.counts:upsert|ops): an upsert table's
data rows are one per create or update (a delete writes only a delete
file), an append-with-op table's one per change.

produce: the planned changes as envelopes, keyed by customer_id, so a
key's changes keep their order in their partition.  Debezium: before,
after, op and source, without Kafka Connect's schema.  Canal: data, old
(an update's changed fields, their old values), type, with one DDL event
(type CREATE) that has no rows, and a few inserts of two rows at once.

verify: the table's current snapshot read through pyiceberg's metadata
(manifests, sequence numbers) and its Parquet data and delete files read
with pyarrow, with Iceberg v2's rules applied: a position delete removes
a row of a data file of a sequence number not greater than its own, an
equality delete one of a data file of a smaller sequence number (pyiceberg
0.12's scan does not apply equality deletes).  upsert: the rows equal the
final state of every key, every value compared, and the schema's
identifier field is customer_id.  ops: one row per change, with its
operation (insert, update, delete) and the row's values (a delete's from
its before image).
"""
import argparse
import datetime as dt
import json
import pickle
import random
import sys
import time

import livelib as L

UTC = dt.timezone.utc
NAMES = ["Ada", "Grace", "zoë", "東京 Ltd", "quote ' and \"", "", None]
CITIES = ["Lyon", "Osaka", "Zürich", None]
COUNTRIES = ["FR", "JP", "CH", None]

# The row as the stream declares it (examples/changes/customers-cdc.fluid.yaml).
STREAM = [
    {"name": "customer_id", "type": "long", "required": True},
    {"name": "name", "type": "string", "required": False},
    {"name": "email", "type": "string", "required": False},
    {"name": "address", "type": "struct", "required": False, "fields": [
        {"name": "city", "type": "string", "required": False},
        {"name": "country", "type": "string", "required": False}]},
    {"name": "points", "type": "int", "required": False},
    {"name": "updated_at", "type": "timestamp_ltz(3)", "required": False},
]
# The table's columns: country lifted out of address, points widened.
TABLE = [
    {"name": "customer_id", "type": "long", "required": True},
    {"name": "name", "type": "string", "required": False},
    {"name": "email", "type": "string", "required": False},
    {"name": "country", "type": "string", "required": False},
    {"name": "points", "type": "long", "required": False},
    {"name": "updated_at", "type": "timestamp_ltz(3)", "required": False},
]
OP = {"name": "op", "type": "string", "required": True}


def row(g, key, n):
    """A customer row; n numbers the change, so every version differs."""
    addr = None if g.random() < 0.15 else {"city": g.choice(CITIES), "country": g.choice(COUNTRIES)}
    return {
        "customer_id": key,
        "name": g.choice(NAMES),
        "email": None if g.random() < 0.2 else f"c{key}.v{n}@example.com",
        "address": addr,
        "points": g.choice([0, 1, -5, 2147483647, -2147483648, n * 7, None]),
        "updated_at": dt.datetime(2026, 1, 1, tzinfo=UTC) + dt.timedelta(seconds=n, milliseconds=n % 1000),
    }


def cmd_plan(a):
    g = random.Random(a.seed)
    per_key = []
    n = 0
    for k in range(1, a.keys + 1):
        key = 1000 + k * 17
        ch = []
        cur = row(g, key, n)
        n += 1
        ch.append(("r" if g.random() < 0.15 else "c", None, cur))
        # A fifth of the keys is updated again and again.
        for _ in range(g.choice([0, 1, 2]) if g.random() > 0.2 else g.randint(5, 9)):
            new = row(g, key, n)
            n += 1
            ch.append(("u", cur, new))
            cur = new
        if g.random() < 0.3:
            ch.append(("d", cur, None))
            if g.random() < 0.4:
                cur = row(g, key, n)
                n += 1
                ch.append(("c", None, cur))
                if g.random() < 0.5:
                    new = row(g, key, n)
                    n += 1
                    ch.append(("u", cur, new))
        per_key.append(ch)
    # Interleave the keys, each key's changes in their order.
    changes = []
    queues = [list(c) for c in per_key]
    while any(queues):
        q = g.choice([q for q in queues if q])
        changes.append(q.pop(0))
    upsert_rows = sum(1 for op, _, _ in changes if op != "d")
    state = {"changes": changes, "format": a.format}
    with open(a.state, "wb") as f:
        pickle.dump(state, f)
    with open(a.state + ".counts", "w") as f:
        f.write(f"upsert={upsert_rows}\nops={len(changes)}\n")
    print(f"cdccheck: planned {len(changes)} changes of {a.keys} keys, "
          f"{sum(1 for c in changes if c[0] == 'd')} deletes, {upsert_rows} upsert data rows")


def enc(r):
    return None if r is None else json.loads(L.encode_json(STREAM, r))


def envelopes(state):
    """(key bytes, value bytes or None) per record, in order."""
    out = []
    fmt = state["format"]
    g = random.Random(5)
    i = 0
    if fmt == "canal":
        out.append((b"ddl", json.dumps({
            "data": None, "old": None, "database": "crm", "table": "customers",
            "type": "CREATE", "isDdl": True, "es": 0, "ts": 0,
            "sql": "CREATE TABLE customers (customer_id BIGINT PRIMARY KEY)"}).encode()))
    changes = state["changes"]
    while i < len(changes):
        op, before, after = changes[i]
        key = str((after or before)["customer_id"]).encode()
        if fmt == "debezium":
            v = {"before": enc(before), "after": enc(after), "op": op,
                 "source": {"connector": "mysql", "db": "crm", "table": "customers"},
                 "ts_ms": 1_767_225_600_000 + i, "transaction": None}
            out.append((key, json.dumps(v, ensure_ascii=False).encode()))
            if op == "d":
                out.append((key, None))  # the tombstone after a delete
            i += 1
            continue
        rows = [after if op != "d" else before]
        old = None
        if op == "u":
            b, a_ = enc(before), enc(after)
            old = [{k: b[k] for k in b if b[k] != a_.get(k)}]
        # Two inserts at once now and then: data holds both rows.
        if op in ("c", "r") and i + 1 < len(changes) and changes[i + 1][0] in ("c", "r") \
                and g.random() < 0.3:
            rows.append(changes[i + 1][2])
            i += 1
        v = {"data": [enc(r) for r in rows], "old": old, "database": "crm", "table": "customers",
             "type": {"c": "INSERT", "r": "INSERT", "u": "UPDATE", "d": "DELETE"}[op],
             "isDdl": False, "pkNames": ["customer_id"], "es": 1_767_225_600_000 + i,
             "ts": 1_767_225_600_000 + i}
        out.append((key, json.dumps(v, ensure_ascii=False).encode()))
        i += 1
    return out


def cmd_produce(a):
    from confluent_kafka import Producer

    with open(a.state, "rb") as f:
        state = pickle.load(f)
    p = Producer({"bootstrap.servers": a.bootstrap, "enable.idempotence": True})
    recs = envelopes(state)
    for n, (k, v) in enumerate(recs):
        p.produce(a.topic, key=k, value=v)
        p.poll(0)
        if a.rate and n % 5 == 4:
            p.flush(30)
            time.sleep(5 / a.rate)
    if p.flush(60) != 0:
        sys.exit("cdccheck: records left unsent")
    print(f"cdccheck: produced {len(recs)} records to {a.topic}")


def table_row(r):
    addr = r.get("address")
    return {"customer_id": r["customer_id"], "name": r["name"], "email": r["email"],
            "country": addr.get("country") if addr else None, "points": r["points"],
            "updated_at": r["updated_at"]}


def expected(state, mode):
    if mode == "upsert":
        final = {}
        for op, before, after in state["changes"]:
            if op == "d":
                final.pop(before["customer_id"], None)
            else:
                final[after["customer_id"]] = table_row(after)
        return list(final.values())
    names = {"c": "insert", "r": "insert", "u": "update", "d": "delete"}
    out = []
    for op, before, after in state["changes"]:
        r = table_row(after if op != "d" else before)
        r["op"] = names[op]
        out.append(r)
    return out


def s3fs():
    import os
    import pyarrow.fs as pafs
    ep = os.environ.get("LIVE_S3_URL", "http://127.0.0.1:9000")
    scheme, _, host = ep.partition("://")
    return pafs.S3FileSystem(endpoint_override=host, scheme=scheme,
                             access_key=os.environ["AWS_ACCESS_KEY_ID"],
                             secret_key=os.environ["AWS_SECRET_ACCESS_KEY"], region="us-east-1")


def read_merged(t):
    """The live rows of t's current snapshot, Iceberg v2 deletes applied."""
    import pyarrow.parquet as pq
    from pyiceberg.manifest import DataFileContent, ManifestEntryStatus

    fs = s3fs()

    def load(path):
        if not path.startswith("s3://"):
            raise SystemExit(f"cdccheck: unexpected file location {path}")
        return pq.read_table(path[len("s3://"):], filesystem=fs).to_pylist()

    snap = t.current_snapshot()
    if snap is None:
        return [], {"data": 0, "pos": 0, "eq": 0}
    data, pos, eq = [], [], []
    for m in snap.manifests(t.io):
        for e in m.fetch_manifest_entry(t.io, discard_deleted=True):
            if e.status == ManifestEntryStatus.DELETED:
                continue
            seq = e.sequence_number
            df = e.data_file
            if df.content == DataFileContent.DATA:
                data.append((seq, df.file_path))
            elif df.content == DataFileContent.POSITION_DELETES:
                pos.append((seq, df.file_path))
            else:
                names = [t.schema().find_column_name(i) for i in df.equality_ids]
                eq.append((seq, df.file_path, names))
    posdel = {}
    for seq, path in pos:
        for r in load(path):
            posdel.setdefault((r["file_path"], r["pos"]), []).append(seq)
    eqdel = []
    for seq, path, names in eq:
        keys = {tuple(r[n] for n in names) for r in load(path)}
        eqdel.append((seq, names, keys))
    rows = []
    for seq, path in data:
        for i, r in enumerate(load(path)):
            if any(s >= seq for s in posdel.get((path, i), [])):
                continue
            if any(s > seq and tuple(r[n] for n in names) in keys for s, names, keys in eqdel):
                continue
            rows.append(r)
    return rows, {"data": len(data), "pos": len(pos), "eq": len(eq)}


def cmd_verify(a):
    with open(a.state, "rb") as f:
        state = pickle.load(f)
    t = L.catalog().load_table(a.table)
    cols = TABLE + ([OP] if a.mode == "ops" else [])
    problems = []
    names = [f.name for f in t.schema().fields]
    if names != [c["name"] for c in cols]:
        problems.append(f"columns {names}, expected {[c['name'] for c in cols]}")
    ident = sorted(t.schema().identifier_field_names())
    want = ["customer_id"] if a.mode == "upsert" else []
    if ident != want:
        problems.append(f"identifier fields {ident}, expected {want}")
    if t.metadata.format_version != 2:
        problems.append(f"format version {t.metadata.format_version}, expected 2")
    rows, files = read_merged(t)
    exp = expected(state, a.mode)
    problems += L.compare(cols, exp, rows, key="customer_id" if a.mode == "upsert" else None)
    if a.mode == "upsert":
        deletes = sum(1 for c in state["changes"] if c[0] == "d")
        if deletes and files["eq"] + files["pos"] == 0:
            problems.append("no delete files, though keys were updated and deleted")
        ops = {}
    else:
        ops = {}
        for r in rows:
            ops[r["op"]] = ops.get(r["op"], 0) + 1
    if problems:
        print(f"cdccheck: {a.table} ({a.mode}) differs from the changes' {len(exp)} expected rows:")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print(f"cdccheck: {a.table} ({a.mode}): {len(rows)} rows equal the {len(exp)} expected, every "
          f"value compared; files {files}" + (f"; operations {ops}" if ops else ""))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--format", choices=["debezium", "canal"], required=True)
    p.add_argument("--keys", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--state", required=True)
    p = sub.add_parser("produce")
    p.add_argument("--state", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--rate", type=float, default=0)
    p.add_argument("--bootstrap", default="127.0.0.1:9092")
    p = sub.add_parser("verify")
    p.add_argument("--mode", choices=["upsert", "ops"], required=True)
    p.add_argument("--state", required=True)
    p.add_argument("--table", required=True)
    a = ap.parse_args()
    {"plan": cmd_plan, "produce": cmd_produce, "verify": cmd_verify}[a.cmd](a)


if __name__ == "__main__":
    main()
