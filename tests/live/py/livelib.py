# SPDX-License-Identifier: Apache-2.0
"""Shared helpers of the live lane's Python side.

Types are fluid's IR columns (lib/types.h): {"name", "type", "required",
"fields" | "element" | "key" | "value"}, as fluid-sqlgen writes them to
BUILD.table.json.  Values are plain Python: str, bool, int, float,
Decimal, datetime.date/time/datetime, bytes, dict (struct), list (array),
dict (map).

Three jobs:
  - generate values for a column tree (nulls, empty containers, edge values);
  - encode them as the JSON that Flink's json format reads (exact decimal
    text, SQL timestamp text);
  - canonicalise a value (expected or read back by pyiceberg) to one
    comparable JSON form, walking the same column tree.
"""
import base64
import datetime as dt
import json
import os
import random
import re
import decimal
from decimal import Decimal

decimal.getcontext().prec = 100

UTC = dt.timezone.utc
TYPE_RE = re.compile(r"^([a-z_]+)(?:\((\d+)(?:,(\d+))?\))?$")


def parse_type(t):
    m = TYPE_RE.match(t)
    if not m:
        raise ValueError(f"unknown type {t!r}")
    kind = m.group(1)
    p = int(m.group(2)) if m.group(2) else None
    s = int(m.group(3)) if m.group(3) else None
    if kind in ("timestamp", "timestamp_ltz") and p is None:
        p = 6
    return kind, p, s


def load_table_json(path):
    with open(path) as f:
        return json.load(f)


# ---------------------------------------------------------------- generate

STRINGS = ["", "a", "zoë", "東京", "quote ' and \" and \\ back", "tab\there", "line\nbreak",
           "emoji \U0001F600", "x" * 300, "semi;colon", "-- not a comment", "{\"json\":1}"]
KEYS = ["k", "", "ключ", "a.b", "with space", "'quoted'", "channel", "trace-id"]


class Gen:
    """Deterministic value generator; edge values first, then random ones."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.n = 0

    def value(self, col, depth=0, force_present=False):
        kind, p, s = parse_type(col["type"])
        if not col["required"] and not force_present and self.r.random() < 0.15:
            return None
        r = self.r
        if kind == "string":
            return r.choice(STRINGS) if r.random() < 0.5 else f"s{r.randrange(10**9)}"
        if kind == "boolean":
            return r.random() < 0.5
        if kind == "int":
            return r.choice([0, 1, -1, 2**31 - 1, -(2**31), r.randrange(-10**6, 10**6)])
        if kind == "long":
            return r.choice([0, 2**63 - 1, -(2**63), 2**53 + 1, r.randrange(-10**15, 10**15)])
        if kind == "float":
            return r.choice([0.0, 0.5, -1.25, 1024.0, 3.0, -0.0078125])
        if kind == "double":
            return r.choice([0.0, 0.1, -2.5, 1e300, 123456.789, 5e-324, r.randrange(10**6) / 64])
        if kind == "decimal":
            return self.decimal(p, s)
        if kind == "date":
            return dt.date(1970, 1, 1) + dt.timedelta(days=r.choice([0, -1, -25567, 47482, r.randrange(-3000, 40000)]))
        if kind == "time":
            return dt.time(r.randrange(24), r.randrange(60), r.randrange(60))
        if kind in ("timestamp", "timestamp_ltz"):
            base = dt.datetime(1970, 1, 1) + dt.timedelta(
                seconds=r.choice([0, -1, 4102444799, r.randrange(0, 2 * 10**9)]),
                microseconds=r.randrange(10**6))
            micros = base.microsecond - base.microsecond % (10 ** (6 - p))
            base = base.replace(microsecond=micros)
            return base.replace(tzinfo=UTC) if kind == "timestamp_ltz" else base
        if kind == "binary":
            return bytes(r.randrange(256) for _ in range(r.choice([0, 1, 5, 33])))
        if kind == "struct":
            return {f["name"]: self.value(f, depth + 1) for f in col["fields"]}
        if kind == "array":
            n = r.choice([0, 0, 1, 2, 3])
            return [self.value(col["element"], depth + 1) for _ in range(n)]
        if kind == "map":
            n = r.choice([0, 0, 1, 2, 3])
            keys = r.sample(KEYS, n)
            return {k: self.value(col["value"], depth + 1) for k in keys}
        raise ValueError(kind)

    def decimal(self, p, s):
        r = self.r
        digits = r.choice([1, p, p, r.randrange(1, p + 1)])
        unscaled = r.randrange(10 ** (digits - 1) if digits > 1 else 0, 10 ** digits)
        if r.random() < 0.3:
            unscaled = -unscaled
        return Decimal(unscaled).scaleb(-s)


# ------------------------------------------------------------------ encode

def encode_json(col_list, row, decimal_as_string=False):
    """The record value as Flink's json format (SQL timestamp standard) reads it."""
    return "{" + ",".join(
        json.dumps(c["name"]) + ":" + _enc(c, row.get(c["name"]), decimal_as_string)
        for c in col_list if c["name"] in row) + "}"


def _enc(col, v, das):
    if v is None:
        return "null"
    kind, p, s = parse_type(col["type"])
    if kind == "decimal":
        text = format(v, "f")
        return json.dumps(text) if das else text
    if kind == "float" or kind == "double":
        return repr(float(v))
    if kind == "date":
        return json.dumps(v.isoformat())
    if kind == "time":
        return json.dumps(v.strftime("%H:%M:%S"))
    if kind == "timestamp":
        return json.dumps(_sql_ts(v, p))
    if kind == "timestamp_ltz":
        return json.dumps(_sql_ts(v.astimezone(UTC).replace(tzinfo=None), p) + "Z")
    if kind == "binary":
        return json.dumps(base64.b64encode(v).decode())
    if kind == "struct":
        return "{" + ",".join(json.dumps(f["name"]) + ":" + _enc(f, v.get(f["name"]), das)
                              for f in col["fields"]) + "}"
    if kind == "array":
        return "[" + ",".join(_enc(col["element"], e, das) for e in v) + "]"
    if kind == "map":
        return "{" + ",".join(json.dumps(k) + ":" + _enc(col["value"], e, das) for k, e in v.items()) + "}"
    return json.dumps(v, ensure_ascii=False)


def _sql_ts(v, p):
    text = v.strftime("%Y-%m-%d %H:%M:%S")
    if p > 0:
        text += "." + f"{v.microsecond:06d}"[:p]
    return text


# ------------------------------------------------------------- canonicalise

def canon(col, v):
    """One comparable, JSON-serialisable form of v as a value of col."""
    if v is None:
        return None
    kind, p, s = parse_type(col["type"])
    if kind == "decimal":
        return str(Decimal(v).quantize(Decimal(1).scaleb(-s)))
    if kind in ("float", "double"):
        return repr(float(v))
    if kind == "date":
        return v.isoformat()
    if kind == "time":
        return v.isoformat()
    if kind == "timestamp":
        if v.tzinfo is not None:
            return "tz!" + v.isoformat()
        return v.isoformat(timespec="microseconds")
    if kind == "timestamp_ltz":
        if v.tzinfo is None:
            return "naive!" + v.isoformat()
        return v.astimezone(UTC).isoformat(timespec="microseconds")
    if kind == "binary":
        return bytes(v).hex()
    if kind == "struct":
        return {f["name"]: canon(f, v.get(f["name"])) for f in col["fields"]}
    if kind == "array":
        return [canon(col["element"], e) for e in v]
    if kind == "map":
        items = v.items() if isinstance(v, dict) else v
        out = {}
        for k, e in items:
            ck = json.dumps(canon(col["key"], k), ensure_ascii=False)
            if ck in out:
                out["dup!" + ck] = canon(col["value"], e)
            else:
                out[ck] = canon(col["value"], e)
        return out
    if kind == "int" or kind == "long":
        return int(v)
    if kind == "boolean":
        return bool(v)
    return v


def canon_row(columns, row):
    return json.dumps({c["name"]: canon(c, row.get(c["name"])) for c in columns},
                      sort_keys=True, ensure_ascii=False)


# ----------------------------------------------------------------- iceberg

def catalog():
    from pyiceberg.catalog import load_catalog
    return load_catalog("live", **{
        "type": "rest",
        "uri": os.environ.get("LIVE_REST_URL", "http://127.0.0.1:8181"),
        "s3.endpoint": os.environ.get("LIVE_S3_URL", "http://127.0.0.1:9000"),
        "s3.access-key-id": os.environ["AWS_ACCESS_KEY_ID"],
        "s3.secret-access-key": os.environ["AWS_SECRET_ACCESS_KEY"],
        "s3.region": "us-east-1",
    })


def read_table(ident):
    """Every row of the table (current snapshot) as Python values."""
    t = catalog().load_table(ident)
    return t, t.scan().to_arrow().to_pylist()


def read_data_files(t):
    """The rows of the current snapshot's Parquet data files, read with pyarrow
    directly (no pyiceberg projection). Append-only tables: no delete files."""
    import pyarrow.fs as pafs
    import pyarrow.parquet as pq
    ep = os.environ.get("LIVE_S3_URL", "http://127.0.0.1:9000")
    scheme, _, host = ep.partition("://")
    fs = pafs.S3FileSystem(endpoint_override=host, scheme=scheme,
                           access_key=os.environ["AWS_ACCESS_KEY_ID"],
                           secret_key=os.environ["AWS_SECRET_ACCESS_KEY"], region="us-east-1")
    rows = []
    for task in t.scan().plan_files():
        if task.delete_files:
            raise SystemExit("lanecheck: unexpected delete files")
        path = task.file.file_path
        if not path.startswith("s3://"):
            raise SystemExit(f"lanecheck: unexpected data file location {path}")
        rows.extend(pq.read_table(path[len("s3://"):], filesystem=fs).to_pylist())
    return rows


def key_of(row, key):
    """The value at a dotted key path of a canonical row."""
    for step in key.split("."):
        row = row.get(step) if isinstance(row, dict) else None
    return row


def compare_lenient(columns, expected_rows, actual_rows, key):
    """Row by row (matched on key): like compare(), except that a null container
    read back as an empty one, or an empty one read back as null, is counted per
    path instead of failing. For pyiceberg's scan, whose reader confuses the two
    in nested positions (apache/iceberg-python#3833 and the like); the data files
    themselves are compared strictly by compare(). Returns (problems, tolerated),
    tolerated a dict "path: what" -> count."""
    def keyof(c):
        return key_of(c, key)

    exp = {}
    for r in expected_rows:
        c = json.loads(canon_row(columns, r))
        exp.setdefault(keyof(c), []).append(c)
    if any(len(v) > 1 for v in exp.values()):
        return compare(columns, expected_rows, actual_rows), {}
    problems, tolerated = [], {}
    seen = set()
    for r in actual_rows:
        a = json.loads(canon_row(columns, r))
        k = keyof(a)
        if k in seen:
            problems.append(f"row {k!r} read back twice")
            continue
        seen.add(k)
        if k not in exp:
            problems.append(f"row {k!r} read back, not expected")
            continue
        diffs = []
        _walk_diff(exp[k][0], a, "", diffs, tolerated)
        for d in diffs[:3]:
            problems.append(f"  row {k!r}: {d}")
    for k in exp:
        if k not in seen:
            problems.append(f"row {k!r} not read back")
    return problems, tolerated


def _empty(v):
    return v == [] or v == {}


def _walk_diff(e, a, path, diffs, tolerated):
    if e == a:
        return
    if (e is None and _empty(a)) or (_empty(e) and a is None):
        what = "null read back as empty" if e is None else "empty read back as null"
        p = re.sub(r"\[\d+\]", "[]", path)
        tolerated[f"{p}: {what}"] = tolerated.get(f"{p}: {what}", 0) + 1
        return
    if isinstance(e, dict) and isinstance(a, dict) and set(e) == set(a):
        for k in e:
            _walk_diff(e[k], a[k], f"{path}.{k}" if path else k, diffs, tolerated)
        return
    if isinstance(e, list) and isinstance(a, list) and len(e) == len(a):
        for i, (x, y) in enumerate(zip(e, a)):
            _walk_diff(x, y, f"{path}[{i}]", diffs, tolerated)
        return
    diffs.append(f"{path or '(row)'}: expected {json.dumps(e, ensure_ascii=False)[:200]}, "
                 f"read back {json.dumps(a, ensure_ascii=False)[:200]}")


def compare(columns, expected_rows, actual_rows, key=None, limit=5):
    """Multiset comparison; returns a list of human-readable problems."""
    from collections import Counter
    exp = Counter(canon_row(columns, r) for r in expected_rows)
    act = Counter(canon_row(columns, r) for r in actual_rows)
    problems = []
    if len(expected_rows) != len(actual_rows):
        problems.append(f"{len(actual_rows)} rows read back, {len(expected_rows)} expected")
    missing = exp - act
    extra = act - exp
    dups = [r for r, n in act.items() if n > 1 and exp.get(r, 0) < n]
    if dups:
        problems.append(f"{len(dups)} rows duplicated")
    if missing or extra:
        problems.append(f"{sum(missing.values())} expected rows not found, "
                        f"{sum(extra.values())} rows read back that were not expected")
        ex_by_key = {}
        if key:
            for r in extra:
                ex_by_key.setdefault(key_of(json.loads(r), key), []).append(json.loads(r))
        for r in list(missing)[:limit]:
            e = json.loads(r)
            cands = ex_by_key.get(key_of(e, key)) if key else None
            if cands:
                problems.append("  row " + json.dumps(key_of(e, key)) + ": " + first_diff(e, cands[0]))
            else:
                problems.append("  missing: " + r[:400])
        if not key:
            for r in list(extra)[:limit]:
                problems.append("  unexpected: " + r[:400])
    return problems


def first_diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return first_diff(a.get(k), b.get(k), f"{path}.{k}" if path else k)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_diff(x, y, f"{path}[{i}]")
    return f"{path or '(row)'}: expected {json.dumps(a, ensure_ascii=False)[:200]}, " \
           f"read back {json.dumps(b, ensure_ascii=False)[:200]}"
