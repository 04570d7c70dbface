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

A record is a dict: value (dict, a missing field reads as null), key (dict
or None: a record with no key reads its key columns as null), partition,
offset, timestamp (an aware datetime), headers (list of (name, bytes)).

Rules implemented (the spec's words in quotes):
  - "Without a mapping, each output column is read from the stream column
    of the same name, nested fields included"; struct fields bind by name;
    "A struct built from one nullable source struct is null where that
    struct is".
  - Key columns "sit next to the value's", named prefix + field; metadata
    columns by their name.
  - mapping.columns: {name, from[, cast]}; a dotted name builds a nested
    output "field by field, and the fields you do not list are read from
    the same path".  Paths: dotted names and ['literal'] map lookups; the
    first step is a stream column or the explode's alias.
  - "An explode drops a record whose array is null or empty. A null element
    becomes a row whose element fields are null."
  - Widenings (int to long, float to double, decimal precision, timestamp
    precision) and cast: string of binary (UTF-8).
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
STEP_RE = re.compile(r"""\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\.?([A-Za-z_][A-Za-z0-9_]*)""")


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
        for c in self.key_cols:
            row[self.key_prefix + c["name"]] = None if k is None else k.get(c["name"])
        for name, frm in self.metadata:
            row[name] = {"partition": rec.get("partition"), "offset": rec.get("offset"),
                         "timestamp": rec.get("timestamp"), "topic": rec.get("topic"),
                         "headers": dict(rec.get("headers") or [])}[frm]
        return row

    def rows(self, records):
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
        steps.append(("key", m.group(1).replace("\\'", "'")) if m.group(1) is not None
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


def copy_columns(cols):
    return copy.deepcopy(cols)
