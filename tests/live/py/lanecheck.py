# SPDX-License-Identifier: Apache-2.0
"""The live lane's data side: produce records to Kafka, read tables back with
pyiceberg and compare every value.

  lanecheck.py produce --dataset orders|schema (--contract C | --table-json J) --key-col C
               [--id-col C [--id-from N]] --topic T --count N --seed S [--rate R] [--malformed-at I]
               [--expect SHAPE=CONTRACT]... --state FILE
  lanecheck.py verify --shape landed|flattened|reshaped --state FILE
               (--contract C | --table-json J) [--key PATH] [--name NAME --known known-findings.tsv]
  lanecheck.py count --shape S --state FILE (--contract C | --table-json J)
  lanecheck.py absent NS.NAME...        no such table (yet): the runner must create it
  lanecheck.py drop NS.NAME...          drop the tables (those the explain check created)
  lanecheck.py drift-create (--contract C | --table-json J) --table NS.NAME --mutation M
  lanecheck.py untouched (--contract C | --table-json J) --table NS.NAME --mutation M

With --contract, nothing of fluid's output is read: the records are
generated from the contract's stream.schema, and verify's expected rows and
the table's expected schema come from the contract's YAML through
py/oracle.py (the spec's rules, computed here).  Without it (the older
form), the expected rows are built from fluid's BUILD.table.json and verify
says so.  verify runs oracle.selftest() first: a comparator that cannot see
an extra column, a float not rounded to binary32 or a lost row fails it.

Datasets.  "schema": values generated from the value columns (the
contract's stream.schema, or the landed table's columns but the key column
and the kafka_* metadata columns), so any nested schema can be fed.
"orders": the same generator over the examples' orders value, plus a raw
key and a trace-id header.  With --contract, every float and double value
generated is then replaced by one of FLOATS / DOUBLES, most of them not exactly
representable (0.1, 1/3, 16777217 for a float), so that the comparison
sees binary32 rounding.

The state file (a pickle) keeps every produced record with its Kafka
partition, offset and timestamp, which the expected rows need.
"""
import argparse
import json
import pickle
import sys
import time
from decimal import Decimal

import livelib as L
import oracle as O

META = {"kafka_partition", "kafka_offset", "kafka_timestamp", "kafka_headers"}
# Values whose binary32 (FLOATS) or binary64 (DOUBLES) is not the decimal
# text: the JSON carries repr(x), Flink rounds it to the column's type.
FLOATS = [0.1, 1 / 3, 16777217.0, 1.4e-45, -2.5, 3.4028234663852886e38, 0.0, 1e-7, 16777219.0]
DOUBLES = [0.1, 1 / 3, 5e-324, 1.7976931348623157e308, -0.0, 123456.789, 2.0 ** 53 + 2]


def hard_numbers(cols, v, counter):
    """v with every float/double value (nested too) replaced by a hard one."""
    def walk(col, x):
        if x is None:
            return None
        kind, _, _ = L.parse_type(col["type"])
        if kind in ("float", "double"):
            counter[0] += 1
            pool = FLOATS if kind == "float" else DOUBLES
            return pool[counter[0] % len(pool)]
        if kind == "struct":
            return {f["name"]: walk(f, x.get(f["name"])) for f in col["fields"] if f["name"] in x}
        if kind == "array":
            return [walk(col["element"], e) for e in x]
        if kind == "map":
            return {k: walk(col["value"], e) for k, e in x.items()}
        return x
    return {c["name"]: walk(c, v[c["name"]]) if c["name"] in v else None for c in cols
            if c["name"] in v}


def oracle_records(state):
    """The state's records in oracle.py's form (raw key, aware timestamp)."""
    out = []
    for r in state["records"]:
        out.append({"value": r["value"], "key": r["key"], "partition": r["partition"],
                    "offset": r["offset"], "timestamp": ts_ltz(r["ts"]),
                    "headers": r["headers"], "topic": state.get("topic")})
    return out


def value_columns(table, key_col):
    return [c for c in table["columns"] if c["name"] not in META and c["name"] != key_col]


def cmd_produce(a):
    from confluent_kafka import Producer

    if a.contract:
        table = None
        cols = O.load(a.contract).value_cols
    elif a.table_json:
        table = L.load_table_json(a.table_json)
        cols = value_columns(table, a.key_col)
    else:
        raise SystemExit("lanecheck: produce needs --contract or --table-json")
    g = L.Gen(a.seed)
    recs = []
    base_ts = 1_700_000_000_000
    hard = [0]
    for i in range(a.count):
        v = {}
        for c in cols:
            v[c["name"]] = g.value(c)
        if a.contract:
            v = hard_numbers(cols, v, hard)
        if a.id_col:
            v[a.id_col] = f"r{a.id_from + i:04d}"
        if a.dataset == "orders" and isinstance(v.get("attributes"), dict) and g.r.random() < 0.6:
            v["attributes"]["channel"] = g.r.choice(["web", "app", "store", ""])
        # Leave some nullable fields out of the JSON entirely: missing reads as null.
        omit = [c["name"] for c in cols if not c["required"] and v.get(c["name"]) is None
                and g.r.random() < 0.5]
        for k in omit:
            del v[k]
        key = None if g.r.random() < 0.1 else f"key-{i}-ü"
        headers = []
        if g.r.random() < 0.7:
            headers.append(("trace-id", f"trace-{i}".encode()))
        if g.r.random() < 0.3:
            headers.append(("other", bytes([0xff, 0x00, i % 256])))
        text = L.encode_json(cols, v, decimal_as_string=(i % 5 == 0))
        if a.malformed_at is not None and i == a.malformed_at:
            text = '{"event_id": "broken", "customer": {"id": '  # truncated JSON
            v = None
        recs.append({"i": i, "key": key, "headers": headers, "value": v, "text": text,
                     "ts": base_ts + i * 1000})

    p = Producer({"bootstrap.servers": a.bootstrap, "enable.idempotence": True,
                  "linger.ms": 5, "message.timeout.ms": 30000})
    meta = {}

    def delivered(err, msg, i=None):
        if err is not None:
            raise SystemExit(f"lanecheck: delivery failed: {err}")
        meta[i] = (msg.partition(), msg.offset(), msg.timestamp()[1])

    t0 = time.monotonic()
    for r in recs:
        p.produce(a.topic, key=None if r["key"] is None else r["key"].encode(),
                  value=r["text"].encode(), headers=r["headers"] or None, timestamp=r["ts"],
                  on_delivery=lambda err, msg, i=r["i"]: delivered(err, msg, i))
        p.poll(0)
        if a.rate:
            # Pace the producer so that the job sees the records over time.
            due = t0 + (r["i"] + 1) / a.rate
            while time.monotonic() < due:
                p.poll(min(0.05, max(0.0, due - time.monotonic())))
    left = p.flush(60)
    if left or len(meta) != len(recs):
        raise SystemExit(f"lanecheck: {left} records not delivered")
    for r in recs:
        r["partition"], r["offset"], r["ts"] = meta[r["i"]]
    state = {"table": table, "key_col": a.key_col, "records": recs, "topic": a.topic}
    with open(a.state, "wb") as f:
        pickle.dump(state, f)
    # Expected row counts per shape, for the harness's --expect-rows @FILE:SHAPE:
    # the oracle's (--expect SHAPE=CONTRACT), else the table.json-based ones.
    with open(a.state + ".counts", "w") as f:
        if a.expect:
            for e in a.expect:
                sh, _, path = e.partition("=")
                f.write(f"{sh}={len(O.load(path).rows(oracle_records(state)))}\n")
        elif table is not None:
            shapes = ["landed", "flattened", "reshaped"] if a.dataset == "orders" else ["landed"]
            for sh in shapes:
                f.write(f"{sh}={len(expected_rows(sh, state, table))}\n")
    parts = sorted({r["partition"] for r in recs})
    print(f"lanecheck: produced {len(recs)} records to {a.topic} (partitions {parts}) "
          f"in {time.monotonic() - t0:.1f} s")


# ------------------------------------------------------------ expected rows

def header(r, name):
    for k, v in r["headers"]:
        if k == name:
            return v
    return None


def ts_ltz(ms):
    import datetime as dt
    return dt.datetime.fromtimestamp(ms / 1000, tz=L.UTC)


def get(d, *path):
    for p in path:
        if d is None:
            return None
        d = d.get(p)
    return d


def expected_rows(shape, state, table, null_elements=True):
    """The rows fluid's contract semantics give (examples/README.md): for the
    flattened shape a null element of items is a row with null item fields.
    null_elements=False drops them instead (what to compare when diagnosing)."""
    out = []
    for r in state["records"]:
        v = r["value"]
        if v is None:
            continue
        meta = {"kafka_partition": r["partition"], "kafka_offset": r["offset"],
                "kafka_timestamp": ts_ltz(r["ts"])}
        if shape == "landed":
            row = dict(v)
            row[state["key_col"]] = r["key"]
            row.update(meta)
            out.append({c["name"]: row.get(c["name"]) for c in table["columns"]})
        elif shape == "flattened":
            items = v.get("items")
            for e in items or []:
                if e is None and not null_elements:
                    continue
                tr = header(r, "trace-id")
                out.append({
                    "event_id": v["event_id"], "event_time": v.get("event_time"),
                    "customer_id": get(v, "customer", "id"),
                    "country": get(v, "customer", "address", "country"),
                    "channel": (v.get("attributes") or {}).get("channel"),
                    "sku": get(e, "sku"), "quantity": get(e, "quantity"), "price": get(e, "price"),
                    "kafka_partition": r["partition"], "kafka_offset": r["offset"],
                    "trace_id": None if tr is None else tr.decode("utf-8", "replace"),
                })
        elif shape == "reshaped":
            out.append({
                "order": {"id": v["event_id"], "key": r["key"]},
                "kafka": {"partition": r["partition"], "offset": r["offset"],
                          "timestamp": ts_ltz(r["ts"])},
                "customer": v.get("customer"), "items": v.get("items"),
                "channel": (v.get("attributes") or {}).get("channel"),
                "event_time": v.get("event_time"),
            })
        else:
            raise SystemExit(f"unknown shape {shape}")
    return out


def cmd_expect_count(a):
    with open(a.state, "rb") as f:
        state = pickle.load(f)
    if a.contract:
        print(len(O.load(a.contract).rows(oracle_records(state))))
        return
    table = L.load_table_json(a.table_json)
    print(len(expected_rows(a.shape, state, table)))


def load_known(path):
    known = {}
    if path:
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                f = line.rstrip("\n").split("\t")
                if f[0] == "rows":
                    known[f[1]] = f[1:]
    return known


def cmd_verify(a):
    broken = O.selftest()
    if broken:
        for p in broken:
            print("lanecheck: comparator self-test: " + p)
        sys.exit(1)
    if a.contract:
        return verify_oracle(a)
    if not a.table_json:
        raise SystemExit("lanecheck: verify needs --contract or --table-json")
    print("lanecheck: expected rows from fluid's table.json, not the oracle (pass --contract)")
    with open(a.state, "rb") as f:
        state = pickle.load(f)
    table = L.load_table_json(a.table_json)
    ident = f'{table["namespace"]}.{table["name"]}'
    exp = expected_rows(a.shape, state, table)
    t, rows = L.read_table(ident)
    snaps = list(t.snapshots())
    kinds = describe_values(table["columns"], exp)
    print(f"lanecheck: {ident}: {len(rows)} rows read back with pyiceberg, {len(exp)} expected, "
          f"{len(snaps)} snapshots; {kinds}")
    bad = False
    diagnosis = None
    # 1. The Parquet data files of the current snapshot, read directly: exact.
    raw = L.read_data_files(t)
    problems = L.compare(table["columns"], exp, raw, key=a.key)
    if problems and a.shape == "flattened":
        alt = expected_rows(a.shape, state, table, null_elements=False)
        if not L.compare(table["columns"], alt, raw, key=a.key):
            n = len(exp) - len(alt)
            diagnosis = (f"diagnosis: null elements dropped: every row matches except that the "
                         f"{n} null elements of items gave no row (the contract says a row of nulls)")
            exp = alt
    if problems:
        print(f"lanecheck: {ident}: the data files differ from what the contract says:")
        for p in problems[:12]:
            print("lanecheck: " + p)
        if diagnosis:
            print(f"lanecheck: {ident}: {diagnosis}")
        k = load_known(a.known).get(a.name or "")
        if diagnosis and k and k[1] in diagnosis:
            print(f"lanecheck: KNOWN generator finding {a.name}: {k[2] if len(k) > 2 else k[1]}")
        else:
            bad = True
    else:
        print(f"lanecheck: {ident}: data files: every value equal, none lost or duplicated")
        if a.name and a.name in load_known(a.known):
            print(f"lanecheck: {a.name} is listed in known-findings.tsv but its rows are right now: "
                  "remove the line")
            bad = True
    # 2. pyiceberg's scan: every value equal, except that its reader confuses
    #    null and empty containers in nested positions; those are counted.
    if a.key:
        problems, tolerated = L.compare_lenient(table["columns"], exp, rows, a.key)
    else:
        problems, tolerated = L.compare(table["columns"], exp, rows), {}
    if problems:
        bad = True
        print(f"lanecheck: {ident}: pyiceberg's scan differs from the data files' rows:")
        for p in problems[:12]:
            print("lanecheck: " + p)
    else:
        print(f"lanecheck: {ident}: pyiceberg: every value equal, none lost or duplicated"
              + (", except null/empty containers that pyiceberg's reader confuses "
                 "(the data files hold the right value):" if tolerated else ""))
        for k, n in sorted(tolerated.items()):
            print(f"lanecheck:   {k} (x{n})")
    if bad:
        sys.exit(1)


def verify_oracle(a):
    """verify --contract: the expected rows and schema from the contract's YAML
    (py/oracle.py); fluid's table.json and SQL are not read."""
    with open(a.state, "rb") as f:
        state = pickle.load(f)
    c = O.load(a.contract)
    recs = oracle_records(state)
    exp = c.rows(recs)
    t, rows = L.read_table(c.ident)
    snaps = list(t.snapshots())
    print(f"lanecheck: {c.ident}: {len(rows)} rows read back with pyiceberg, {len(exp)} expected "
          f"by the oracle (from {a.contract}), {len(snaps)} snapshots; "
          f"{describe_values(c.columns, exp)}; comparator self-test passed")
    bad = False
    sp = O.schema_problems(c.columns, t.schema())
    if sp:
        bad = True
        print(f"lanecheck: {c.ident}: the table's schema is not the contract's:")
        for p in sp:
            print("lanecheck:   " + p)
    else:
        print(f"lanecheck: {c.ident}: the table's schema is the contract's ({len(c.columns)} "
              "columns: names, order, types, nullability, nested included)")
    # 1. The Parquet data files of the current snapshot, read directly: exact,
    #    and no column or struct field the contract does not declare.
    raw = L.read_data_files(t)
    problems = O.row_problems(c.columns, exp, raw, key=a.key)
    diagnosis = None
    if problems and c.explode:
        alt = c.rows(recs, null_elements=False)
        if len(alt) < len(exp) and not O.row_problems(c.columns, alt, raw, key=a.key):
            diagnosis = (f"diagnosis: null elements dropped: every row matches except that the "
                         f"{len(exp) - len(alt)} null elements of {c.explode['path']} gave no row "
                         "(the contract says a row of nulls)")
            exp = alt
    known = load_known(a.known).get(a.name or "")
    if problems:
        print(f"lanecheck: {c.ident}: the data files differ from the oracle's rows:")
        for p in problems[:12]:
            print("lanecheck: " + p)
        if diagnosis:
            print(f"lanecheck: {c.ident}: {diagnosis}")
        if diagnosis and known and known[1] in diagnosis:
            print(f"lanecheck: KNOWN generator finding {a.name}: {known[2] if len(known) > 2 else known[1]}")
        else:
            bad = True
    else:
        nf = sum(1 for r in raw for col in c.columns if col["type"] == "float"
                 and r.get(col["name"]) is not None)
        print(f"lanecheck: {c.ident}: data files: {len(raw)} rows, every value equal to the "
              f"oracle's, none lost or duplicated, no undeclared column or field"
              + (f" ({nf} top-level float values compared as binary32)" if nf else ""))
        if known:
            print(f"lanecheck: {a.name} is listed in known-findings.tsv but its rows are right now: "
                  "remove the line")
            bad = True
    # 2. pyiceberg's scan, null/empty container confusions counted (see cmd_verify).
    if a.key:
        problems, tolerated = L.compare_lenient(c.columns, exp, rows, a.key)
    else:
        problems, tolerated = L.compare(c.columns, exp, rows), {}
    if problems:
        bad = True
        print(f"lanecheck: {c.ident}: pyiceberg's scan differs from the oracle's rows:")
        for p in problems[:12]:
            print("lanecheck: " + p)
    else:
        print(f"lanecheck: {c.ident}: pyiceberg: every value equal, none lost or duplicated"
              + (", except null/empty containers that pyiceberg's reader confuses "
                 "(the data files hold the right value):" if tolerated else ""))
        for k, n in sorted(tolerated.items()):
            print(f"lanecheck:   {k} (x{n})")
    if bad:
        sys.exit(1)


def cmd_absent(a):
    """The tables do not exist: the job that follows must create them."""
    cat = L.catalog()
    there = [n for n in a.tables if cat.table_exists(n)]
    if there:
        sys.exit(f"lanecheck: {', '.join(there)} exist before the job: the runner's "
                 "create-the-missing-table path would not be taken")
    print(f"lanecheck: no table {', '.join(a.tables)}: the runner must create it")


def cmd_drop(a):
    cat = L.catalog()
    for n in a.tables:
        if cat.table_exists(n):
            cat.drop_table(n)
            print(f"lanecheck: dropped {n}")


def describe_values(columns, rows):
    """What the compared rows held: nulls, empty containers, depth."""
    stats = {"null": 0, "empty": 0, "decimal": 0, "timestamp": 0, "depth": 0}

    def walk(col, v, depth):
        stats["depth"] = max(stats["depth"], depth)
        if v is None:
            stats["null"] += 1
            return
        kind, _, _ = L.parse_type(col["type"])
        if kind == "decimal":
            stats["decimal"] += 1
        elif kind.startswith("timestamp"):
            stats["timestamp"] += 1
        elif kind == "struct":
            for f in col["fields"]:
                walk(f, v.get(f["name"]), depth + 1)
        elif kind == "array":
            if not v:
                stats["empty"] += 1
            for e in v:
                walk(col["element"], e, depth + 1)
        elif kind == "map":
            if not v:
                stats["empty"] += 1
            for e in v.values():
                walk(col["value"], e, depth + 1)

    for r in rows:
        for c in columns:
            walk(c, r.get(c["name"]), 0)
    return (f'{stats["null"]} nulls, {stats["empty"]} empty containers, {stats["decimal"]} decimals, '
            f'{stats["timestamp"]} timestamps, nesting depth {stats["depth"]}')


# ------------------------------------------------------------------- drift

def iceberg_type(col, ids):
    from pyiceberg import types as T
    kind, p, s = L.parse_type(col["type"])
    simple = {"string": T.StringType(), "boolean": T.BooleanType(), "int": T.IntegerType(),
              "long": T.LongType(), "float": T.FloatType(), "double": T.DoubleType(),
              "date": T.DateType(), "time": T.TimeType(), "binary": T.BinaryType(),
              "timestamp": T.TimestampType(), "timestamp_ltz": T.TimestamptzType()}
    if kind in simple:
        return simple[kind]
    if kind == "decimal":
        return T.DecimalType(p, s)
    if kind == "struct":
        return T.StructType(*[T.NestedField(next(ids), f["name"], iceberg_type(f, ids),
                                            required=f["required"]) for f in col["fields"]])
    if kind == "array":
        return T.ListType(next(ids), iceberg_type(col["element"], ids),
                          element_required=col["element"]["required"])
    if kind == "map":
        return T.MapType(next(ids), iceberg_type(col["key"], ids), next(ids),
                         iceberg_type(col["value"], ids), value_required=col["value"]["required"])
    raise ValueError(kind)


def find(cols, path):
    """The column list holding the last step of a dotted path ([] = element)."""
    steps = path.split(".")
    for st in steps[:-1]:
        if st.endswith("[]"):
            c = next(c for c in cols if c["name"] == st[:-2])["element"]
        else:
            c = next(c for c in cols if c["name"] == st)
        cols = c["fields"]
    return cols, steps[-1]


def mutate(columns, mutation):
    """A copy of the columns with one nested difference."""
    import copy
    cols = copy.deepcopy(columns)
    kind, _, arg = mutation.partition(":")
    holder, name = find(cols, arg)
    i = next(i for i, c in enumerate(holder) if c["name"] == name)
    if kind == "type":        # a nested field of another type
        holder[i]["type"] = "int" if holder[i]["type"] != "int" else "long"
    elif kind == "swap":      # two nested fields in the other order
        holder[i], holder[i + 1] = holder[i + 1], holder[i]
    elif kind == "required":  # a nested field whose nullability differs
        holder[i]["required"] = not holder[i]["required"]
    elif kind == "extra":     # one more nested field
        holder.insert(i + 1, {"name": "added", "type": "string", "required": False})
    elif kind == "decimal":   # another decimal scale
        holder[i]["type"] = "decimal(18,3)"
    elif kind == "same":
        pass
    else:
        raise SystemExit(f"unknown mutation {mutation}")
    return cols


def schema_of(columns):
    import itertools
    from pyiceberg.schema import Schema
    from pyiceberg import types as T
    ids = itertools.count(1)
    top = [(c, next(ids)) for c in columns]
    return Schema(*[T.NestedField(fid, c["name"], iceberg_type(c, ids), required=c["required"])
                    for c, fid in top])


def drift_columns(a):
    """The expose's columns: from the contract's YAML (--contract), or fluid's
    table.json (the older form)."""
    if a.contract:
        c = O.load(a.contract)
        return c.ident.split(".")[0], c.columns
    if not a.table_json:
        raise SystemExit("lanecheck: needs --contract or --table-json")
    table = L.load_table_json(a.table_json)
    return table["namespace"], table["columns"]


def cmd_drift_create(a):
    ns, columns = drift_columns(a)
    cat = L.catalog()
    try:
        cat.create_namespace(ns)
    except Exception:
        pass
    schema = schema_of(mutate(columns, a.mutation))
    cat.create_table(a.table, schema=schema)
    print(f"lanecheck: created {a.table} with mutation {a.mutation}")


def cmd_untouched(a):
    """The table still has no snapshot and the schema it was created with."""
    _, columns = drift_columns(a)
    t = L.catalog().load_table(a.table)
    want = schema_of(mutate(columns, a.mutation))
    problems = []
    if t.current_snapshot() is not None or list(t.snapshots()):
        problems.append(f"{a.table} has {len(list(t.snapshots()))} snapshots: it was written")
    if len(t.schemas()) != 1:
        problems.append(f"{a.table} has {len(t.schemas())} schemas: it was altered")
    if str(t.schema().as_struct()) != str(want.as_struct()):
        problems.append(f"{a.table} schema changed")
    if problems:
        for p in problems:
            print("lanecheck: " + p)
        sys.exit(1)
    print(f"lanecheck: {a.table}: no snapshot, schema unchanged")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("produce")
    p.add_argument("--bootstrap", default="127.0.0.1:9092")
    p.add_argument("--dataset", choices=["orders", "schema"], required=True)
    p.add_argument("--contract", help="the value schema from this contract (not fluid's output)")
    p.add_argument("--table-json")
    p.add_argument("--expect", action="append",
                   help="SHAPE=CONTRACT: write SHAPE's oracle row count to STATE.counts")
    p.add_argument("--key-col", required=True)
    p.add_argument("--id-col")
    p.add_argument("--id-from", type=int, default=0,
                   help="the first id's number (a later batch to the same table: ids stay unique)")
    p.add_argument("--topic", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float)
    p.add_argument("--malformed-at", type=int)
    p.add_argument("--state", required=True)
    v = sub.add_parser("verify")
    v.add_argument("--shape", required=True)
    v.add_argument("--state", required=True)
    v.add_argument("--contract", help="expected rows and schema from this contract (py/oracle.py)")
    v.add_argument("--table-json", help="the older form: expected rows from fluid's table.json")
    v.add_argument("--key")
    v.add_argument("--name", help="this check's name in --known")
    v.add_argument("--known", help="known-findings.tsv")
    c = sub.add_parser("count")
    c.add_argument("--shape", required=True)
    c.add_argument("--state", required=True)
    c.add_argument("--contract")
    c.add_argument("--table-json")
    d = sub.add_parser("drift-create")
    d.add_argument("--contract")
    d.add_argument("--table-json")
    d.add_argument("--table", required=True)
    d.add_argument("--mutation", required=True)
    u = sub.add_parser("untouched")
    u.add_argument("--contract")
    u.add_argument("--table-json")
    u.add_argument("--table", required=True)
    u.add_argument("--mutation", required=True)
    x = sub.add_parser("absent")
    x.add_argument("tables", nargs="+")
    x = sub.add_parser("drop")
    x.add_argument("tables", nargs="+")
    a = ap.parse_args()
    {"produce": cmd_produce, "verify": cmd_verify, "count": cmd_expect_count,
     "absent": cmd_absent, "drop": cmd_drop,
     "drift-create": cmd_drift_create, "untouched": cmd_untouched}[a.cmd](a)


if __name__ == "__main__":
    main()
