# SPDX-License-Identifier: Apache-2.0
"""What datacontract-cli makes of an export (tests/odcs/run).

exports.py BUNDLE DIR

BUNDLE is the contract's `fluid bundle`; DIR holds datacontract-cli
1.2.8's exports of fluid's ODCS export, one file per format: sql.sql
(the snowflake dialect, its fallback for an Iceberg server),
trino.sql (--dialect trino), dbt-models.yaml, avro.avsc, iceberg.json,
jsonschema.json, spark.py and sqlalchemy.py (sqlalchemy.err when the
export failed).  Each is checked against the contract's own YAML, never
against fluid's export: every column of the expose's schema, by name,
in order, with its nullability, its primary key, the contract's
description where the format has a place for it, and the type each
consumer must see for the contract's type, spelt here from the YAML in
the consumer's own syntax (the Iceberg table's type, and what it is in
Snowflake, Trino, Spark, Avro, JSON Schema, SQLAlchemy), nested levels
included.  The SQL is parsed with sqlglot in the dialect exported; a
type is compared as sqlglot's parse tree.

Where datacontract-cli itself cannot say what the contract says, in
whatever the ODCS document holds, the output is checked for what the
tool writes instead and the check prints one line "# limit: FORMAT:
what" (tests/odcs/run passes it through): each is named in
fluid-odcs(1), BUGS.
Exit 0 all passed, 1 a check failed; each failure one line on stderr.
"""
import ast
import json
import re
import sys

import sqlglot
import yaml
from sqlglot import exp

failures = []
limits = []


def fail(msg):
    failures.append(msg)
    print("odcs: %s: %s" % (sys.argv[2], msg), file=sys.stderr)


def limit(fmt, msg):
    """A known limit of datacontract-cli 1.2.8, named once per format."""
    line = "%s: %s" % (fmt, msg)
    if line not in limits:
        limits.append(line)


def parse_type(col):
    """(base, params) of a contract column: decimal(18,2) -> ("decimal",
    [18, 2]), timestamp_ltz(3) -> ("timestamp_ltz", [3]); a timestamp
    without a precision has 6 (fluid-check's default)."""
    m = re.match(r"\s*([a-z_]+)\s*(?:\((.*)\))?\s*$", col["type"])
    base, args = m.group(1), m.group(2)
    params = [int(x) for x in args.split(",")] if args else []
    if base in ("timestamp", "timestamp_ltz") and not params:
        params = [6]
    return base, params


def kids(col):
    """The contract's nested levels of col, as (role, column)."""
    b, _ = parse_type(col)
    if b == "struct":
        return [("field", f) for f in col["fields"]]
    if b == "array":
        return [("element", col["element"])]
    if b == "map":
        return [("key", col["key"]), ("value", col["value"])]
    return []


def has(col, base):
    return parse_type(col)[0] == base or any(has(k, base)
                                             for _, k in kids(col))


def same_doc(fmt, where, got, col):
    if got != col.get("description"):
        fail("%s: %s: description %r, the contract's is %r"
             % (fmt, where, got, col.get("description")))


# --- SQL: snowflake (sql, dbt-models) and trino -----------------------------

def snowflake_type(col):
    """The Snowflake type of a contract type, as datacontract-cli can
    write it: a struct is an OBJECT, an array an ARRAY (semi-structured,
    without element types), an integer a NUMBER."""
    b, p = parse_type(col)
    simple = {"string": "STRING", "boolean": "BOOLEAN", "int": "NUMBER",
              "long": "NUMBER", "float": "FLOAT", "double": "FLOAT",
              "date": "DATE", "time": "TIME", "timestamp": "TIMESTAMP_NTZ",
              "timestamp_ltz": "TIMESTAMP_TZ", "binary": "BINARY",
              "struct": "OBJECT", "array": "ARRAY"}
    if b in simple:
        return simple[b]
    if b == "decimal":
        return "NUMBER(%d,%d)" % tuple(p)
    return "MAP(%s, %s)" % (snowflake_type(col["key"]),
                            snowflake_type(col["value"]))


def trino_type(col):
    """The Trino type of the Iceberg table's column (Trino's Iceberg
    connector): a struct is a row, an array an array, a timestamp has
    microseconds."""
    b, p = parse_type(col)
    simple = {"string": "varchar", "boolean": "boolean", "int": "integer",
              "long": "bigint", "float": "real", "double": "double",
              "date": "date", "time": "time(6)", "timestamp": "timestamp(6)",
              "timestamp_ltz": "timestamp(6) with time zone",
              "binary": "varbinary"}
    if b in simple:
        return simple[b]
    if b == "decimal":
        return "decimal(%d,%d)" % tuple(p)
    if b == "struct":
        return "row(%s)" % ", ".join('"%s" %s' % (f["name"], trino_type(f))
                                     for f in col["fields"])
    if b == "array":
        return "array(%s)" % trino_type(col["element"])
    return "map(%s, %s)" % (trino_type(col["key"]), trino_type(col["value"]))


def same_type(dialect, got, want):
    """got (a sqlglot DataType) is the type spelt want in dialect."""
    try:
        w = exp.DataType.build(want, dialect=dialect)
    except Exception as e:
        fail("test: %r does not parse in %s: %s" % (want, dialect, e))
        return False
    return got == w


# The reserved words of each engine's documentation ("Reserved keywords"
# in Trino's SQL language reference, "Reserved & limited keywords" in
# Snowflake's), which sqlglot's lenient parser may let through.
RESERVED = {
    "trino": """alter and as between by case cast constraint create cross
        cube current_catalog current_date current_path current_role
        current_schema current_time current_timestamp current_user
        deallocate delete describe distinct drop else end escape except
        execute exists extract false for from full group grouping having
        in inner insert intersect into is join json_array json_exists
        json_object json_query json_table json_value left like listagg
        localtime localtimestamp natural normalize not null on or order
        outer prepare recursive right rollup select skip table then trim
        true uescape union unnest using values when where with""".split(),
    "snowflake": """account all alter and any as between by case cast check
        column connect connection constraint create cross current
        current_date current_time current_timestamp current_user database
        delete distinct drop else exists false following for from full
        grant group gscluster having ilike in increment inner insert
        intersect into is issue join lateral left like localtime
        localtimestamp minus natural not null of on or order organization
        qualify regexp revoke right rlike row rows sample schema select
        set some start table tablesample then to trigger true try_cast
        union unique update using values view when whenever where
        with""".split(),
}


def reserved(dialect, name):
    """Whether a bare column name is reserved in dialect, or does not
    parse there."""
    if name.lower() in RESERVED[dialect]:
        return True
    try:
        sqlglot.parse_one("CREATE TABLE t (%s INT)" % name, read=dialect)
        return False
    except sqlglot.errors.ParseError:
        return True


def check_sql(fmt, dialect, path, cols, keys, want, tool=None):
    text = open(path).read()
    # datacontract-cli quotes no column name: a reserved one makes the
    # DDL unparseable.  Quoted here, so that the rest is still checked.
    for c in cols:
        if reserved(dialect, c["name"]):
            limit(fmt, "the reserved word %s is not quoted" % c["name"])
            text = re.sub(r"(?m)^(\s+)%s " % re.escape(c["name"]),
                          r'\1"%s" ' % c["name"], text)
    try:
        tree = sqlglot.parse_one(text, read=dialect)
    except sqlglot.errors.ParseError as e:
        fail("%s: does not parse as %s: %s" % (fmt, dialect,
                                               str(e).split("\n")[0]))
        return
    if not isinstance(tree, exp.Create):
        fail("%s: no CREATE TABLE" % fmt)
        return
    defs = [d for d in tree.this.expressions if isinstance(d, exp.ColumnDef)]
    if [d.name for d in defs] != [c["name"] for c in cols]:
        fail("%s: columns %r" % (fmt, [d.name for d in defs]))
        return
    table_keys = [i.name for e in tree.this.find_all(exp.PrimaryKey)
                  for i in e.expressions]
    for d, c in zip(defs, cols):
        kinds = {type(k.kind): k.kind for k in d.constraints}
        nn = exp.NotNullColumnConstraint in kinds and \
            not kinds[exp.NotNullColumnConstraint].args.get("allow_null")
        if nn != (c.get("required") is True):
            fail("%s: %s: NOT NULL %r, the contract's required is %r"
                 % (fmt, c["name"], nn, c.get("required")))
        if (exp.PrimaryKeyColumnConstraint in kinds or
                c["name"] in table_keys) != (c["name"] in keys):
            fail("%s: %s: the primary key is not the contract's"
                 % (fmt, c["name"]))
        if dialect == "snowflake":
            doc = kinds.get(exp.CommentColumnConstraint)
            same_doc(fmt, c["name"], doc.this.this if doc else None, c)
        t = want(c)
        if not same_type(dialect, d.kind, t) and not (
                tool and same_type(dialect, d.kind, tool(c))):
            fail("%s: %s: type %s, want %s for %s" % (
                fmt, c["name"], d.kind.sql(dialect), t, c["type"]))


# --- dbt --------------------------------------------------------------------

def check_dbt(path, cols, keys):
    doc = yaml.safe_load(open(path))
    got = doc["models"][0]["columns"]
    if [c["name"] for c in got] != [c["name"] for c in cols]:
        fail("dbt: columns %r" % [c["name"] for c in got])
        return
    for g, c in zip(got, cols):
        same_doc("dbt", c["name"], g.get("description"), c)
        nn = any(x.get("type") == "not_null"
                 for x in g.get("constraints", []))
        if nn != (c.get("required") is True):
            fail("dbt: %s: not_null %r" % (c["name"], nn))
        # A one-column key is its unique constraint (with not_null).
        pk = any(x.get("type") in ("primary_key", "unique")
                 for x in g.get("constraints", []))
        if len(keys) == 1 and pk != (c["name"] in keys):
            fail("dbt: %s: primary_key %r" % (c["name"], pk))
        dt = g.get("data_type", "")
        try:
            t = exp.DataType.build(dt, dialect="snowflake")
        except Exception:
            fail("dbt: %s: data_type %r is no Snowflake type"
                 % (c["name"], dt))
            continue
        if not same_type("snowflake", t, snowflake_type(c)):
            fail("dbt: %s: data_type %r, want %s for %s"
                 % (c["name"], dt, snowflake_type(c), c["type"]))


# --- Avro -------------------------------------------------------------------

def avro_type(t, col, where):
    """t, an Avro type without the null branch, against col."""
    b, p = parse_type(col)
    prim = {"string": "string", "boolean": "boolean", "int": "int",
            "long": "long", "float": "float", "double": "double"}
    if b in prim:
        ok = t == prim[b]
    elif b == "binary":
        # ODCS has no binary logical type (a string of format binary,
        # which datacontract-cli writes as an Avro string): the export
        # carries avroType bytes.
        ok = t == "bytes"
    elif b == "time":
        # Iceberg's time is in microseconds.
        ok = (isinstance(t, dict) and t.get("type") == "long"
              and t.get("logicalType") == "time-micros")
    elif not isinstance(t, dict):
        ok = False
    elif b == "decimal":
        ok = (t.get("type") == "bytes" and t.get("logicalType") == "decimal"
              and t.get("precision") == p[0] and t.get("scale", 0) == p[1])
    elif b == "date":
        ok = t.get("type") == "int" and t.get("logicalType") == "date"
    elif b in ("timestamp", "timestamp_ltz"):
        # Iceberg stores a timestamp in microseconds whatever the
        # contract's precision; one without a zone is a local one.
        lt = ("local-" if b == "timestamp" else "") + "timestamp-micros"
        ok = t.get("type") == "long" and t.get("logicalType") == lt
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
        fail("avro: %s: %s is no %s" % (where, json.dumps(t)[:160],
                                         col["type"]))


def avro_value(t, col, where, nulls=True):
    """nulls: whether the Avro type says the nullability; datacontract-cli
    1.2.8 writes an array's items and a map's values without a null
    branch whatever ODCS says, so there only the type is checked."""
    nullable = isinstance(t, list) and "null" in t
    if nulls and nullable != (col.get("required") is not True):
        fail("avro: %s: %s: nullability is not the contract's"
             % (where, json.dumps(t)[:120]))
    if not nulls and not nullable and col.get("required") is not True:
        limit("avro", "an array's items and a map's values are never "
              "nullable")
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
        w = (where + "." if where else "") + c["name"]
        avro_value(f["type"], c, w)
        same_doc("avro", w, f.get("doc"), c)


# --- Iceberg ----------------------------------------------------------------

ICEBERG = {"string": "string", "boolean": "boolean", "int": "int",
           "long": "long", "float": "float", "double": "double",
           "date": "date", "time": "time", "timestamp": "timestamp",
           "timestamp_ltz": "timestamptz", "binary": "binary"}


def iceberg_type(t, col, where):
    """t, an Iceberg JSON type (spec, Appendix C), against col."""
    b, p = parse_type(col)
    if b == "time" and t == "binary":
        limit("iceberg", "a time is binary: its Iceberg exporter has no "
              "time type")
        return
    if b in ICEBERG:
        ok = t == ICEBERG[b]
    elif b == "decimal":
        ok = t == "decimal(%d, %d)" % tuple(p)
    elif not isinstance(t, dict):
        ok = False
    elif b == "struct":
        ok = t.get("type") == "struct"
        if ok:
            iceberg_fields(t["fields"], col["fields"], where)
    elif b == "array":
        ok = t.get("type") == "list"
        if ok:
            iceberg_type(t["element"], col["element"], where + "[]")
            if t.get("element-required") != (
                    col["element"].get("required") is True):
                fail("iceberg: %s[]: element-required %r"
                     % (where, t.get("element-required")))
    elif b == "map":
        ok = t.get("type") == "map"
        if ok:
            iceberg_type(t["key"], col["key"], where + "{key}")
            iceberg_type(t["value"], col["value"], where + "{}")
            if t.get("value-required") != (
                    col["value"].get("required") is True):
                fail("iceberg: %s{}: value-required %r"
                     % (where, t.get("value-required")))
    else:
        ok = False
    if not ok:
        fail("iceberg: %s: %s is no %s" % (where, json.dumps(t)[:160],
                                            col["type"]))


def iceberg_fields(fields, cols, where):
    if [f["name"] for f in fields] != [c["name"] for c in cols]:
        fail("iceberg: %s: fields %r" % (where or "schema",
                                         [f["name"] for f in fields]))
        return
    for f, c in zip(fields, cols):
        w = (where + "." if where else "") + c["name"]
        if f.get("required") != (c.get("required") is True):
            fail("iceberg: %s: required %r" % (w, f.get("required")))
        iceberg_type(f["type"], c, w)


def check_iceberg(path, cols, keys):
    s = json.load(open(path))
    iceberg_fields(s["fields"], cols, "")
    ids = {f["id"]: f["name"] for f in s["fields"]}
    got = sorted(ids[i] for i in s.get("identifier-field-ids", []))
    if got != sorted(keys):
        fail("iceberg: identifier fields %r, the primary key is %r"
             % (got, keys))


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
    b, _ = parse_type(col)
    if rest != [JSON_KIND[b]]:
        fail("jsonschema: %s: type %r is no %s" % (where, t, col["type"]))
        return
    if b == "struct":
        js_object(s, col["fields"], where)
    elif b == "array":
        js_value(s.get("items", {}), col["element"], where + "[]")
        same_doc("jsonschema", where + "[]",
                 s.get("items", {}).get("description"), col["element"])
    elif b == "map":
        js_value(s.get("additionalProperties", {}), col["value"],
                 where + "{}")


def js_object(s, cols, where):
    props = s.get("properties", {})
    if list(props) != [c["name"] for c in cols]:
        fail("jsonschema: %s: properties %r" % (where or "root",
                                                list(props)))
        return
    req = [c["name"] for c in cols if c.get("required") is True]
    if sorted(s.get("required", [])) != sorted(req):
        fail("jsonschema: %s: required %r" % (where or "root",
                                              s.get("required")))
    for c in cols:
        w = (where + "." if where else "") + c["name"]
        js_value(props[c["name"]], c, w)
        same_doc("jsonschema", w, props[c["name"]].get("description"), c)


# --- Spark ------------------------------------------------------------------

def spark_value(node):
    """A pyspark type expression of the export, read with ast (nothing
    of it runs): ("StructType", [fields]) and so on; a StructField as
    ("StructField", name, type, nullable)."""
    if isinstance(node, ast.Call):
        return (node.func.id,) + tuple(spark_value(a) for a in node.args)
    if isinstance(node, ast.List):
        return [spark_value(e) for e in node.elts]
    return ast.literal_eval(node)


SPARK = {"string": "StringType", "boolean": "BooleanType",
         "int": "IntegerType", "long": "LongType", "float": "FloatType",
         "double": "DoubleType", "date": "DateType",
         "timestamp": "TimestampNTZType", "timestamp_ltz": "TimestampType",
         "binary": "BinaryType"}


def spark_type(t, col, where):
    b, p = parse_type(col)
    if b == "time":
        # Spark has no time type: a string is what it can hold.
        ok = t == ("StringType",)
    elif b in SPARK:
        ok = t == (SPARK[b],)
    elif b == "decimal":
        ok = t == ("DecimalType", p[0], p[1])
    elif b == "struct":
        ok = t[0] == "StructType"
        if ok:
            spark_fields(t[1], col["fields"], where)
    elif b == "array":
        ok = t[0] == "ArrayType"
        if ok:
            spark_type(t[1], col["element"], where + "[]")
    elif b == "map":
        ok = t[0] == "MapType"
        if ok:
            spark_type(t[1], col["key"], where + "{key}")
            spark_type(t[2], col["value"], where + "{}")
    else:
        ok = False
    if not ok:
        fail("spark: %s: %r is no %s" % (where, t, col["type"]))


def spark_fields(fields, cols, where):
    if [f[1] for f in fields] != [c["name"] for c in cols]:
        fail("spark: %s: fields %r" % (where or "schema",
                                       [f[1] for f in fields]))
        return
    for f, c in zip(fields, cols):
        w = (where + "." if where else "") + c["name"]
        if f[3] != (c.get("required") is not True):
            fail("spark: %s: nullable %r" % (w, f[3]))
        spark_type(f[2], c, w)


def check_spark(path, cols):
    tree = ast.parse(open(path).read())
    assign = [n for n in tree.body if isinstance(n, ast.Assign)]
    if len(assign) != 1:
        fail("spark: %d schemas" % len(assign))
        return
    t = spark_value(assign[0].value)
    spark_fields(t[1], cols, "")


# --- SQLAlchemy -------------------------------------------------------------

def sqlalchemy_type(node):
    if isinstance(node, ast.Name):
        return node.id
    return "%s(%s)" % (node.func.id, ", ".join(
        sqlalchemy_type(a) if isinstance(a, (ast.Name, ast.Call))
        else repr(ast.literal_eval(a)) for a in node.args))


def sqlalchemy_want(col):
    """(the SQLAlchemy type, what datacontract-cli writes instead or
    None, why)."""
    b, p = parse_type(col)
    simple = {"string": "String(None)", "boolean": "Boolean",
              "int": "Integer", "float": "Float", "double": "Double",
              "date": "Date", "timestamp": "TIMESTAMP", "map": "JSON"}
    if b in simple:
        return simple[b], None, None
    if b == "long":
        return "BigInteger", "Integer", "a long is Integer (it reads " \
            "logicalType integer, not its format i64)"
    if b == "decimal":
        return "Numeric(%d, %d)" % tuple(p), "Numeric(None, None)", \
            "a decimal has no precision or scale (it reads them from " \
            "logicalTypeOptions, where ODCS v3.2.0 allows neither)"
    if b == "timestamp_ltz":
        return "TIMESTAMP(True)", "TIMESTAMP", "a timestamp with a zone " \
            "is TIMESTAMP without one (it reads logicalType, not timezone)"
    if b == "binary":
        return "LargeBinary(None)", "String(None)", "binary is String " \
            "(ODCS has only a string of format binary)"
    if b == "array":
        w, t, why = sqlalchemy_want(col["element"])
        return "ARRAY(%s)" % w, t and "ARRAY(%s)" % t, why
    return None, None, None


def check_sqlalchemy(d, cols, keys):
    unable = [c["name"] for c in cols if has(c, "struct") or has(c, "time")]
    try:
        text = open(d + "/sqlalchemy.py").read()
    except FileNotFoundError:
        text = None
    if unable:
        # Its exporter has no struct, nor a time: it refuses the export.
        if text is not None:
            fail("sqlalchemy: exported with a struct or a time (%s)"
                 % ", ".join(unable))
        else:
            limit("sqlalchemy", "no struct and no time: the export "
                  "refuses the contract")
        return
    if text is None:
        fail("sqlalchemy: not exported")
        return
    cls = [n for n in ast.parse(text).body if isinstance(n, ast.ClassDef)
           and n.name != "Base"]
    if len(cls) != 1:
        fail("sqlalchemy: %d models" % len(cls))
        return
    got = [n for n in cls[0].body if isinstance(n, ast.Assign) and
           isinstance(n.value, ast.Call) and
           getattr(n.value.func, "id", "") == "Column"]
    if [n.targets[0].id for n in got] != [c["name"] for c in cols]:
        fail("sqlalchemy: columns %r" % [n.targets[0].id for n in got])
        return
    for n, c in zip(got, cols):
        kw = {k.arg: ast.literal_eval(k.value) for k in n.value.keywords}
        if kw.get("nullable") != (c.get("required") is not True):
            fail("sqlalchemy: %s: nullable %r" % (c["name"],
                                                  kw.get("nullable")))
        if bool(kw.get("primary_key")) != (c["name"] in keys):
            fail("sqlalchemy: %s: primary_key %r" % (c["name"],
                                                     kw.get("primary_key")))
        same_doc("sqlalchemy", c["name"], kw.get("comment"), c)
        t = sqlalchemy_type(n.value.args[0])
        want, tool, why = sqlalchemy_want(c)
        if t == tool:
            limit("sqlalchemy", why)
        elif t != want:
            fail("sqlalchemy: %s: %s, want %s for %s"
                 % (c["name"], t, want, c["type"]))


def main():
    bundle, d = sys.argv[1:3]
    contract = yaml.safe_load(open(bundle))
    xs = contract.get("exposes", [])
    if len(xs) != 1:
        fail("want one expose, the contract has %d" % len(xs))
        return 1
    cols = xs[0]["contract"]["schema"]
    keys = xs[0]["contract"].get("primaryKey") or []
    check_sql("sql", "snowflake", d + "/sql.sql", cols, keys, snowflake_type)
    check_sql("sql --dialect trino", "trino", d + "/trino.sql", cols, keys,
              trino_type)
    check_dbt(d + "/dbt-models.yaml", cols, keys)
    avro_fields(json.load(open(d + "/avro.avsc"))["fields"], cols, "")
    check_iceberg(d + "/iceberg.json", cols, keys)
    js_object(json.load(open(d + "/jsonschema.json")), cols, "")
    check_spark(d + "/spark.py", cols)
    check_sqlalchemy(d, cols, keys)
    for line in limits:
        print("# limit: %s" % line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
