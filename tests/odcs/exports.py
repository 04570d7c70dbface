"""What datacontract-cli makes of an export (tests/odcs/run).

exports.py BUNDLE DIR

BUNDLE is the contract's `fluid bundle`; DIR holds datacontract-cli
1.2.8's `export --format F` of fluid's ODCS export, one file per format:
sql.sql, avro.avsc, dbt-models.yaml, jsonschema.json.  Each is checked
against the contract's own YAML (never against fluid's export): every
column of the expose's schema is there, by name, in order where the
format keeps an order, with its nullability (required: NOT NULL, a
non-null Avro type, a not_null constraint, no "null" in the JSON type)
and a type of the kind the contract declares, nested levels included
(a struct's fields, an array's element, a map's value), and the
contract's description where the format has a place for it (a SQL
COMMENT, an Avro field's doc, a dbt column's and a JSON Schema
property's description; none where the contract gives none).  A
physicalType that carries its own NOT NULL shows up here as "NOT NULL
not null".
Exit 0 all passed, 1 a check failed; each failure one line on stderr.
"""
import json
import re
import sys

import yaml

failures = []


def fail(msg):
    failures.append(msg)
    print("odcs: %s: %s" % (sys.argv[2], msg), file=sys.stderr)


def base(col):
    """The contract's type name without parameters: decimal(18,2) ->
    decimal, timestamp_ltz(3) -> timestamp_ltz."""
    return re.sub(r"\(.*", "", col["type"]).strip()


# --- SQL (snowflake, datacontract-cli's fallback for a custom server) -------

SQL_KIND = {
    "string": r"(STRING|VARCHAR|TEXT)$",
    "boolean": r"BOOLEAN$",
    "int": r"(NUMBER|INT|INTEGER)$",
    "long": r"(NUMBER|BIGINT)$",
    "float": r"(FLOAT|REAL)$",
    "double": r"(DOUBLE|FLOAT)$",
    "decimal": r"(DECIMAL|NUMBER)\(\d+, ?\d+\)$",
    "date": r"DATE$",
    "time": r"TIME(\(\d\))?$",
    # datacontract-cli 1.2.8 maps a physicalType TIMESTAMP(p) to
    # snowflake's TIMESTAMP_TZ whatever logicalTypeOptions.timezone says
    # (its converter reads the base name only): its mapping, kept here.
    "timestamp": r"TIMESTAMP(_NTZ|_TZ)?\(\d\)$",
    "timestamp_ltz": r"TIMESTAMP_LTZ\(\d\)$",
    "binary": r"(BYTES|BINARY|VARBINARY)$",
    "struct": r"(ROW<.*>|OBJECT)$",
    "array": r"ARRAY(<.*>)?$",
    "map": r"(MAP\(.*\)|MAP<.*>|OBJECT)$",
}


def sql_comment(rest):
    """rest without its COMMENT '...', and the comment's text (None when
    there is none): snowflake's literal, '' and backslash escapes."""
    m = re.search(r" COMMENT '((?:[^'\\]|''|\\.)*)'$", rest)
    if not m:
        return rest, None
    text = re.sub(r"''|\\(.)", lambda x: "'" if x.group(0) == "''" else x.group(1),
                  m.group(1))
    return rest[:m.start()], text


def same_doc(fmt, where, got, col):
    if got != col.get("description"):
        fail("%s: %s: description %r, the contract's is %r"
             % (fmt, where, got, col.get("description")))


def check_sql(path, cols, keys):
    text = open(path).read()
    m = re.search(r"CREATE TABLE \S+ \((.*)\);", text, re.S)
    if not m:
        fail("sql: no CREATE TABLE")
        return
    lines = [ln.strip().rstrip(",") for ln in m.group(1).strip().split("\n")]
    if len(lines) != len(cols):
        fail("sql: %d columns for %d" % (len(lines), len(cols)))
    for ln, c in zip(lines, cols):
        name, _, rest = ln.partition(" ")
        rest, comment = sql_comment(rest)
        if name != c["name"]:
            fail("sql: column %r where the contract has %r" % (name, c["name"]))
            continue
        same_doc("sql", name, comment, c)
        pk = rest.endswith(" primary key")
        if pk:
            rest = rest[:-len(" primary key")]
        if pk != (name in keys):
            fail("sql: %s: %r: the primary key is not the contract's"
                 % (name, ln))
        nn = rest.endswith(" not null")
        typ = rest[:-len(" not null")] if nn else rest
        if nn != (c.get("required") is True):
            fail("sql: %s: %r: nullability is not the contract's" % (name, ln))
        if "NOT NULL" in typ.upper().split("<")[0]:
            fail("sql: %s: %r: the type carries nullability" % (name, ln))
        if not re.match(SQL_KIND[base(c)], typ):
            fail("sql: %s: type %r is no %s" % (name, typ, c["type"]))


# --- Avro -------------------------------------------------------------------

# binary: ODCS has no binary logical type, only a string of format
# binary, which datacontract-cli 1.2.8 writes as an Avro string.
AVRO_KIND = {
    "string": "string", "boolean": "boolean", "int": "int", "long": "long",
    "float": "float", "double": "double", "binary": "string",
}


def avro_type(t, col, where):
    """t, an Avro type without the null branch, against col."""
    b = base(col)
    if b in AVRO_KIND:
        if t != AVRO_KIND[b]:
            fail("avro: %s: %r is no %s" % (where, t, col["type"]))
        return
    if (b == "decimal" and t == "bytes") or (b == "time" and t == "long"):
        return      # datacontract-cli's Avro for a number, and for a time
    if not isinstance(t, dict):
        fail("avro: %s: %r is no %s" % (where, t, col["type"]))
        return
    if b == "decimal":
        ok = t.get("type") == "bytes"
    elif b == "date":
        ok = t.get("type") == "int" and t.get("logicalType") == "date"
    elif b in ("time", "timestamp", "timestamp_ltz"):
        ok = t.get("type") == "long"
    elif b == "struct":
        ok = t.get("type") == "record" and bool(t.get("name"))
        if ok:
            avro_fields(t["fields"], col["fields"], where)
    elif b == "array":
        ok = t.get("type") == "array"
        if ok:
            avro_value(t["items"], col["element"], where + "[]", False)
    elif b == "map":
        ok = t.get("type") == "map"
        if ok:
            avro_value(t["values"], col["value"], where + "{}", False)
    else:
        ok = False
    if not ok:
        fail("avro: %s: %s is no %s" % (where, json.dumps(t)[:120],
                                         col["type"]))


def avro_value(t, col, where, nulls=True):
    """nulls: whether the Avro type says the nullability; datacontract-cli
    1.2.8 writes an array's items and a map's values without a null
    branch whatever ODCS says (a limit of its exporter, not of the
    export), so there only the type is checked."""
    nullable = isinstance(t, list) and "null" in t
    if nulls and nullable != (col.get("required") is not True):
        fail("avro: %s: %s: nullability is not the contract's"
             % (where, json.dumps(t)[:120]))
    if isinstance(t, list):
        rest = [x for x in t if x != "null"]
        if len(rest) != 1:
            fail("avro: %s: union %r" % (where, t))
            return
        t = rest[0]
    avro_type(t, col, where)


def avro_fields(fields, cols, where):
    if [f["name"] for f in fields] != [c["name"] for c in cols]:
        fail("avro: %s: fields %r" % (where or "record",
                                      [f["name"] for f in fields]))
        return
    for f, c in zip(fields, cols):
        avro_value(f["type"], c, (where + "." if where else "") + c["name"])
        same_doc("avro", (where + "." if where else "") + c["name"], f.get("doc"), c)


# --- dbt --------------------------------------------------------------------

def check_dbt(path, cols):
    doc = yaml.safe_load(open(path))
    got = doc["models"][0]["columns"]
    if [c["name"] for c in got] != [c["name"] for c in cols]:
        fail("dbt: columns %r" % [c["name"] for c in got])
        return
    for g, c in zip(got, cols):
        same_doc("dbt", c["name"], g.get("description"), c)
        nn = any(x.get("type") == "not_null" for x in g.get("constraints", []))
        if nn != (c.get("required") is True):
            fail("dbt: %s: not_null %r" % (c["name"], nn))
        dt = g.get("data_type", "")
        if "NOT NULL" in dt.upper().split("<")[0]:
            fail("dbt: %s: data_type %r carries nullability" % (c["name"], dt))
        if not re.match(SQL_KIND[base(c)], dt):
            fail("dbt: %s: data_type %r is no %s" % (c["name"], dt, c["type"]))


# --- JSON Schema ------------------------------------------------------------

JSON_KIND = {
    "string": "string", "boolean": "boolean", "int": "integer",
    "long": "integer", "float": "number", "double": "number",
    "decimal": "number", "date": "string", "time": "string",
    "timestamp": "string", "timestamp_ltz": "string", "binary": "string",
    "struct": "object", "array": "array", "map": "object",
}


def js_value(s, col, where):
    t = s.get("type")
    ts = t if isinstance(t, list) else [t]
    if ("null" in ts) != (col.get("required") is not True):
        fail("jsonschema: %s: type %r: nullability is not the contract's"
             % (where, t))
    rest = [x for x in ts if x != "null"]
    b = base(col)
    if rest != [JSON_KIND[b]]:
        fail("jsonschema: %s: type %r is no %s" % (where, t, col["type"]))
        return
    if b == "struct":
        js_object(s, col["fields"], where)
    elif b == "array":
        js_value(s.get("items", {}), col["element"], where + "[]")
        same_doc("jsonschema", where + "[]", s.get("items", {}).get("description"),
                 col["element"])
    elif b == "map":
        js_value(s.get("additionalProperties", {}), col["value"], where + "{}")


def js_object(s, cols, where):
    props = s.get("properties", {})
    if list(props) != [c["name"] for c in cols]:
        fail("jsonschema: %s: properties %r" % (where or "root", list(props)))
        return
    req = [c["name"] for c in cols if c.get("required") is True]
    if sorted(s.get("required", [])) != sorted(req):
        fail("jsonschema: %s: required %r" % (where or "root",
                                              s.get("required")))
    for c in cols:
        js_value(props[c["name"]], c, (where + "." if where else "") +
                 c["name"])
        same_doc("jsonschema", (where + "." if where else "") + c["name"],
                 props[c["name"]].get("description"), c)


def main():
    bundle, d = sys.argv[1:3]
    contract = yaml.safe_load(open(bundle))
    xs = contract.get("exposes", [])
    if len(xs) != 1:
        fail("want one expose, the contract has %d" % len(xs))
        return 1
    cols = xs[0]["contract"]["schema"]
    check_sql(d + "/sql.sql", cols,
              xs[0]["contract"].get("primaryKey") or [])
    avro_fields(json.load(open(d + "/avro.avsc"))["fields"], cols, "")
    check_dbt(d + "/dbt-models.yaml", cols)
    js_object(json.load(open(d + "/jsonschema.json")), cols, "")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
