# SPDX-License-Identifier: Apache-2.0
"""The live lane's own oracle: the rows a contract says a record becomes,
computed from the contract's YAML as the specification states the rules
("Record shapes", "The record key and Kafka metadata"), never from fluid's
output (no table.json, no SQL).

  load(path, build_id=None) -> Contract: the expose's schema, the build's
      stream (value schema, key, metadata) and mapping, $refs resolved here
      (relative to the file: the spec's fragments).
  Contract.rows(records) -> expected rows, one dict per output row, values
      conformed to the expose's types (float: IEEE binary32, double:
      binary64, decimal: the scale, timestamps: the precision).
  Contract.schema_problems(iceberg_schema) -> the differences between the
      Iceberg table's schema and the expose's columns (names, order, types,
      nullability), nested included.
  shape_problems(columns, rows) -> rows (read from the data files) holding
      a column or struct field the expose does not declare, or lacking one.
  row_problems(columns, expected, actual, key) -> the strict comparison of
      the data files' rows: shape_problems, then every value (livelib.compare).
  selftest() -> problems: the comparator run on rows built to be wrong (an
      extra column, a float not rounded to binary32, a lost row); each must
      be caught.  lanecheck.py verify runs it before it compares anything.

A record is a dict: value (dict, a missing field reads as null), key (dict
for json/avro-confluent keys; bytes or str for a raw key; None: a record
with no key reads its key columns as null), partition, offset, timestamp
(an aware datetime), headers (list of (name, bytes)), topic.

Rules implemented (the spec's words in quotes):
  - "Without a mapping, each output column is read from the stream column
    of the same name, nested fields included"; struct fields bind by name;
    "A struct built from one nullable source struct is null where that
    struct is".
  - Key columns "sit next to the value's", named prefix + field; a raw key
    is "one string or binary column" (a string decodes the bytes as UTF-8);
    metadata columns by their name, headers as map<string, binary>.
  - mapping.columns: {name, from[, cast]}; a dotted name builds a nested
    output "field by field, and the fields you do not list are read from
    the same path".  Paths: dotted names and ['literal'] map lookups; the
    first step is a stream column or the explode's alias.
  - "An explode drops a record whose array is null or empty. A null element
    becomes a row whose element fields are null."
  - Widenings (int to long, float to double, decimal precision, timestamp
    precision) and cast: string of binary (UTF-8).
  - float is IEEE binary32: the value a record carries (a JSON number, an
    avro float) is rounded to nearest-even binary32 (f32()); double is
    binary64.  The lane's values are ones where rounding the JSON text
    directly or through binary64 gives the same binary32.
"""
import copy
import datetime as dt
import os
import re
import struct
from decimal import Decimal

import yaml

UTC = dt.timezone.utc
TYPE_RE = re.compile(r"^([a-z_]+)(?:\((\d+)(?:,\s*(\d+))?\))?$")
# A path step: .name, or ['literal'] with '' standing for ' (as SQL writes it).
STEP_RE = re.compile(r"""\[\s*'((?:[^']|'')*)'\s*\]|\.?([A-Za-z_][A-Za-z0-9_]*)""")


def parse_type(t):
    m = TYPE_RE.match(str(t).replace(" ", ""))
    if not m:
        raise ValueError(f"oracle: unknown type {t!r}")
    kind = m.group(1)
    p = int(m.group(2)) if m.group(2) else None
    s = int(m.group(3)) if m.group(3) else None
    if kind in ("timestamp", "timestamp_ltz") and p is None:
        p = 6
    if kind == "decimal" and s is None:
        s = 0
    return kind, p, s


# ------------------------------------------------------------------ loading

def _resolve(node, base):
    if isinstance(node, dict):
        if set(node) == {"$ref"}:
            path = os.path.join(base, node["$ref"])
            with open(path) as f:
                return _resolve(yaml.safe_load(f), os.path.dirname(path))
        return {k: _resolve(v, base) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(v, base) for v in node]
    return node


def _norm(col):
    """A column as the spec writes it, with required defaulted to false."""
    c = dict(col)
    c["required"] = bool(c.get("required", False))
    kind, _, _ = parse_type(c["type"])
    if kind == "struct":
        c["fields"] = [_norm(f) for f in c["fields"]]
    elif kind == "array":
        c["element"] = _norm(c["element"])
    elif kind == "map":
        c["key"] = _norm(c["key"])
        c["value"] = _norm(c["value"])
    return c


def load(path, build_id=None):
    with open(path) as f:
        doc = _resolve(yaml.safe_load(f), os.path.dirname(os.path.abspath(path)))
    builds = doc["builds"]
    b = next(b for b in builds if build_id is None or b["id"] == build_id)
    out_id = b["outputs"][0]
    ex = next(e for e in doc["exposes"] if e["exposeId"] == out_id)
    return Contract(ex, b["properties"])


META_TYPES = {"topic": "string", "partition": "int", "offset": "long",
              "timestamp": "timestamp_ltz(3)", "timestamp-type": "string",
              "headers": "map", "leader-epoch": "int"}


class Contract:
    def __init__(self, expose, props):
        loc = expose["binding"]["location"]
        self.ident = f'{loc["namespace"]}.{loc["table"]}'
        self.columns = [_norm(c) for c in expose["contract"]["schema"]]
        st = props["stream"]
        self.value_cols = [_norm(c) for c in st["schema"]]
        key = st.get("key") or {}
        self.key_format = key.get("format")
        self.key_prefix = key.get("prefix", "")
        self.key_cols = [_norm(c) for c in key.get("schema", [])]
        self.metadata = [(m["name"], m["from"]) for m in st.get("metadata", [])]
        m = props.get("mapping") or {}
        self.explode = m.get("explode")
        self.mapped = {c["name"]: c for c in m.get("columns", [])}

    # ------------------------------------------------------------ rows

    def stream_row(self, rec):
        """The stream's columns for one record: value, key (prefixed), metadata."""
        row = {}
        v = rec["value"] or {}
        for c in self.value_cols:
            row[c["name"]] = v.get(c["name"])
        k = rec.get("key")
        if self.key_format == "raw" and k is not None:
            # raw: the key's bytes are the one column (string: UTF-8 text).
            c = self.key_cols[0]
            b = k.encode("utf-8") if isinstance(k, str) else bytes(k)
            k = {c["name"]: b.decode("utf-8") if parse_type(c["type"])[0] == "string" else b}
        for c in self.key_cols:
            row[self.key_prefix + c["name"]] = None if k is None else k.get(c["name"])
        for name, frm in self.metadata:
            row[name] = {"partition": rec.get("partition"), "offset": rec.get("offset"),
                         "timestamp": rec.get("timestamp"), "topic": rec.get("topic"),
                         "headers": dict(rec.get("headers") or [])}[frm]
        return row

    def rows(self, records, null_elements=True):
        """null_elements=False drops the rows of null elements instead of
        giving a row of nulls (not the spec: only to name a difference)."""
        out = []
        for rec in records:
            if rec["value"] is None:
                continue
            src = self.stream_row(rec)
            if self.explode:
                arr = eval_path(src, self.explode["path"], {})
                if not arr:
                    continue
                for e in arr:
                    if e is None and not null_elements:
                        continue
                    out.append(self.output_row(src, {self.explode["as"]: e}))
            else:
                out.append(self.output_row(src, {}))
        return out

    def output_row(self, src, alias):
        return {c["name"]: conform(c, self.column_value(c, c["name"], src, alias))
                for c in self.columns}

    def column_value(self, col, name, src, alias):
        """The value of the output column (or nested field) at dotted NAME."""
        if name in self.mapped:
            m = self.mapped[name]
            v = eval_path(src, m["from"], alias)
            if m.get("cast") == "string" and isinstance(v, (bytes, bytearray)):
                v = bytes(v).decode("utf-8")
            return v
        kind, _, _ = parse_type(col["type"])
        if kind == "struct" and any(n.startswith(name + ".") for n in self.mapped):
            # Built field by field: never null itself.
            return {f["name"]: self.column_value(f, name + "." + f["name"], src, alias)
                    for f in col["fields"]}
        if name in alias:
            return alias[name]
        return eval_path(src, name, alias)


def eval_path(src, path, alias):
    steps = []
    pos = 0
    while pos < len(path):
        m = STEP_RE.match(path, pos)
        if not m or m.end() == pos:
            raise ValueError(f"oracle: cannot read path {path!r}")
        steps.append(("key", m.group(1).replace("''", "'")) if m.group(1) is not None
                     else ("field", m.group(2)))
        pos = m.end()
    first = steps[0][1]
    cur = alias[first] if first in alias else src.get(first)
    for kind, s in steps[1:]:
        if cur is None:
            return None
        cur = cur.get(s)
    return cur


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def conform(col, v):
    """v as a value of the output column's type: the spec's widenings, the
    type's own precision (float is binary32), struct fields by name."""
    if v is None:
        return None
    kind, p, s = parse_type(col["type"])
    if kind == "float":
        return f32(float(v))
    if kind == "double":
        return float(v)
    if kind in ("int", "long"):
        return int(v)
    if kind == "decimal":
        return Decimal(v).quantize(Decimal(1).scaleb(-s))
    if kind in ("timestamp", "timestamp_ltz"):
        return v.replace(microsecond=v.microsecond - v.microsecond % (10 ** (6 - p)))
    if kind == "struct":
        return {f["name"]: conform(f, v.get(f["name"])) for f in col["fields"]}
    if kind == "array":
        return [conform(col["element"], e) for e in v]
    if kind == "map":
        return {conform(col["key"], k): conform(col["value"], e) for k, e in v.items()}
    return v


# ----------------------------------------------------------- schema checks

def _ice(col):
    """The contract type as pyiceberg prints it (Iceberg's own type names)."""
    kind, p, s = parse_type(col["type"])
    simple = {"string": "string", "boolean": "boolean", "int": "int", "long": "long",
              "float": "float", "double": "double", "date": "date", "time": "time",
              "binary": "binary", "timestamp": "timestamp", "timestamp_ltz": "timestamptz"}
    if kind in simple:
        return simple[kind]
    if kind == "decimal":
        return f"decimal({p}, {s})"
    return kind


def _describe_contract(col, path):
    """(path, type, required) for col and everything nested in it."""
    kind, _, _ = parse_type(col["type"])
    out = [(path, _ice(col), col["required"])]
    if kind == "struct":
        for f in col["fields"]:
            out += _describe_contract(f, f"{path}.{f['name']}")
    elif kind == "array":
        out += _describe_contract(col["element"], path + "[]")
    elif kind == "map":
        out += _describe_contract(col["key"], path + "{key}")
        out += _describe_contract(col["value"], path + "{value}")
    return out


def _describe_iceberg(name, typ, required, path):
    from pyiceberg import types as T
    if isinstance(typ, T.StructType):
        out = [(path, "struct", required)]
        for f in typ.fields:
            out += _describe_iceberg(f.name, f.field_type, f.required, f"{path}.{f.name}")
        return out
    if isinstance(typ, T.ListType):
        return [(path, "array", required)] + _describe_iceberg(
            None, typ.element_type, typ.element_required, path + "[]")
    if isinstance(typ, T.MapType):
        return ([(path, "map", required)]
                + _describe_iceberg(None, typ.key_type, True, path + "{key}")
                + _describe_iceberg(None, typ.value_type, typ.value_required, path + "{value}"))
    t = str(typ)
    if t.startswith("decimal("):
        t = t.replace(",", ", ").replace(",  ", ", ")
    return [(path, t, required)]


def schema_problems(columns, iceberg_schema):
    want = []
    for c in columns:
        want += _describe_contract(c, c["name"])
    got = []
    for f in iceberg_schema.fields:
        got += _describe_iceberg(f.name, f.field_type, f.required, f.name)
    if want == got:
        return []
    problems = []
    wd = {p: (t, r) for p, t, r in want}
    gd = {p: (t, r) for p, t, r in got}
    for p, t, r in want:
        if p not in gd:
            problems.append(f"{p}: in the contract ({t}), not in the table")
        elif gd[p] != (t, r):
            problems.append(f"{p}: contract {t} {'required' if r else 'optional'}, table "
                            f"{gd[p][0]} {'required' if gd[p][1] else 'optional'}")
    for p, t, r in got:
        if p not in wd:
            problems.append(f"{p}: in the table ({t}), not in the contract")
    if not problems:
        problems.append("the table's columns are in another order than the contract's: "
                        + ", ".join(p for p, _, _ in got if "." not in p and "[" not in p))
    return problems


def shape_problems(columns, rows, limit=5):
    """Rows whose columns or struct fields are not exactly the contract's."""
    problems = []

    def walk(col, v, path):
        if v is None:
            return
        kind, _, _ = parse_type(col["type"])
        if kind == "struct":
            want = [f["name"] for f in col["fields"]]
            if not isinstance(v, dict) or sorted(v) != sorted(want):
                problems.append(f"{path}: fields {sorted(v) if isinstance(v, dict) else v!r}, "
                                f"the contract says {want}")
                return
            for f in col["fields"]:
                walk(f, v[f["name"]], f"{path}.{f['name']}")
        elif kind == "array":
            for e in v:
                walk(col["element"], e, path + "[]")
        elif kind == "map":
            for _, e in (v.items() if isinstance(v, dict) else v):
                walk(col["value"], e, path + "{value}")

    want = [c["name"] for c in columns]
    for i, r in enumerate(rows):
        if sorted(r) != sorted(want):
            extra = sorted(set(r) - set(want))
            lost = sorted(set(want) - set(r))
            problems.append(f"row {i}: columns not in the contract {extra}, missing {lost}")
        for c in columns:
            walk(c, r.get(c["name"]), c["name"])
        if len(problems) >= limit:
            break
    return problems


def row_problems(columns, expected, actual, key=None):
    """The data files' rows against the expected ones, strictly: a column or
    struct field the contract does not declare fails (livelib's canonical
    form alone would drop it), then every value, as a multiset."""
    import livelib
    return shape_problems(columns, actual) + livelib.compare(columns, expected, actual, key=key)


def copy_columns(cols):
    return copy.deepcopy(cols)


# ----------------------------------------------------------------- selftest

def _selftest_columns():
    return [_norm(c) for c in [
        {"name": "id", "type": "string", "required": True},
        {"name": "f", "type": "float"},
        {"name": "d", "type": "double"},
        {"name": "s", "type": "struct", "fields": [{"name": "a", "type": "int"}]},
        {"name": "m", "type": "map", "key": {"type": "string", "required": True},
         "value": {"type": "struct", "fields": [{"name": "x", "type": "float"}]}}]]


def selftest():
    """The comparator must reject rows that are wrong in each way the lane
    relies on it to see; returns what it failed to catch (empty: good)."""
    cols = _selftest_columns()
    src = [{"id": "r0", "f": 0.1, "d": 0.1, "s": {"a": 1}, "m": {"k": {"x": 1 / 3}}},
           {"id": "r1", "f": 16777217.0, "d": 2.0 ** 53 + 1, "s": None, "m": {}},
           {"id": "r2", "f": None, "d": 5e-324, "s": {"a": None}, "m": None}]
    exp = [{c["name"]: conform(c, r.get(c["name"])) for c in cols} for r in src]
    # As pyarrow reads a Parquet file: maps as lists of (key, value).
    good = [dict(r, m=None if r["m"] is None else list(r["m"].items())) for r in exp]
    failed = []
    if row_problems(cols, exp, good, key="id"):
        failed.append("right rows were refused: " + "; ".join(row_problems(cols, exp, good, key="id")))
    bad = {
        "an extra column": [dict(good[0], extra=1)] + good[1:],
        "an extra struct field": [dict(good[0], s={"a": 1, "b": 2})] + good[1:],
        "an extra field in a map value's struct": [dict(good[0], m=[("k", {"x": f32(1 / 3), "y": 0})])]
        + good[1:],
        "a missing column": [{k: v for k, v in good[0].items() if k != "d"}] + good[1:],
        "a float not rounded to binary32": [dict(good[0], f=0.1)] + good[1:],
        "a nested float not rounded to binary32": [dict(good[0], m=[("k", {"x": 1 / 3})])] + good[1:],
        "a double rounded to binary32": [dict(good[0], d=f32(0.1))] + good[1:],
        "a lost row": good[1:],
        "a duplicated row": good + good[:1],
        "a null struct read as a struct of nulls": [good[0], dict(good[1], s={"a": None}), good[2]],
    }
    for what, rows in bad.items():
        if not row_problems(cols, exp, rows, key="id"):
            failed.append(f"{what} was not caught")
    if f32(16777217.0) != 16777216.0 or f32(0.1) == 0.1 or f32(1.4e-45) != 2.0 ** -149:
        failed.append("f32() does not round to nearest binary32")
    try:
        from pyiceberg import types as T
        from pyiceberg.schema import Schema
    except ImportError:
        return failed
    flat = cols[:3]

    def schema(*fields):
        return Schema(*[T.NestedField(i + 1, n, t, required=r) for i, (n, t, r) in enumerate(fields)])
    right = schema(("id", T.StringType(), True), ("f", T.FloatType(), False), ("d", T.DoubleType(), False))
    if schema_problems(flat, right):
        failed.append("the right schema was refused: " + "; ".join(schema_problems(flat, right)))
    wrong = {
        "an extra table column": schema(("id", T.StringType(), True), ("f", T.FloatType(), False),
                                        ("d", T.DoubleType(), False), ("x", T.IntegerType(), False)),
        "two columns swapped": schema(("id", T.StringType(), True), ("d", T.DoubleType(), False),
                                      ("f", T.FloatType(), False)),
        "float stored as double": schema(("id", T.StringType(), True), ("f", T.DoubleType(), False),
                                         ("d", T.DoubleType(), False)),
        "required made optional": schema(("id", T.StringType(), False), ("f", T.FloatType(), False),
                                         ("d", T.DoubleType(), False)),
    }
    for what, sch in wrong.items():
        if not schema_problems(flat, sch):
            failed.append(f"schema with {what} was not caught")
    return failed
