# SPDX-License-Identifier: Apache-2.0
"""The live lane's desc check: a contract's column descriptions become the
Iceberg table's docs, both ways a table gets created.

  1. The runner (explain: --validate-only runs the setup DDL) creates the
     missing table from BUILD.table.json (IcebergSchema): every column's and
     struct field's description is its doc.
  2. The table dropped, the script's own CREATE CATALOG, CREATE DATABASE and
     CREATE TABLE run through Flink 1.20's TableEnvironment
     (harness DescDdl.java) and Iceberg 1.10's Flink catalog, as a SQL
     Gateway or another runner would: each column's COMMENT is its doc,
     including a U&'...' literal with a quote, a backslash and comment
     markers.  Flink 1.20's DDL drops a ROW field's description, so the
     struct fields have none that way; fluid-sqlgen does not write them, and
     this check fails if they ever appear, so that the documentation
     (fluid-sqlgen(1), fluid-check(1)) is brought up to date.

The expected docs come from the contract's YAML (PyYAML), never from
fluid's output.  An array's element has no doc in Iceberg: it must have none.

  desc_check.py docs --contract C --table NS.T --via runner|ddl
  desc_check.py ddl --script S.sql

prepare.py calls append_plan() to add the check to the harness's plan.
"""
import argparse
import os
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
LIVE = os.path.dirname(HERE)
sys.path.insert(0, HERE)

CONTRACT = os.path.join(LIVE, "contracts", "desc", "described.fluid.yaml")
TABLE = "live.described"


def append_plan(run, fluid):
    """Generate the contract and add the check to RUN/plan.txt."""
    out = os.path.join(run, "gen", "desc")
    os.makedirs(out, exist_ok=True)
    p = subprocess.run([fluid, "generate", "flink", CONTRACT, "--out", out],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"prepare: fluid refused {CONTRACT}: {p.stderr.strip()}")
    s = os.path.join(out, "land-described.sql")
    t = os.path.join(out, "land-described.table.json")
    me = f"{sys.executable} {os.path.abspath(__file__)}"
    lc = f"{sys.executable} {os.path.join(HERE, 'lanecheck.py')}"
    with open(os.path.join(run, "plan.txt"), "a") as fh:
        fh.write("check desc: column descriptions are the Iceberg table's docs, the table created "
                 "by the runner and by the script's own DDL through Flink's Iceberg catalog\n"
                 f"exec {lc} absent {TABLE}\n"
                 f"explain desc={s}={t}\n"
                 f"exec {me} docs --contract {CONTRACT} --table {TABLE} --via runner\n"
                 f"exec {lc} drop {TABLE}\n"
                 f"exec --timeout-s 300 {me} ddl --script {s}\n"
                 f"exec {me} docs --contract {CONTRACT} --table {TABLE} --via ddl\n"
                 f"exec {lc} drop {TABLE}\n\n")


def expected(contract):
    """{path: description or None} of every column, struct field and array
    element of the expose's schema, from the YAML."""
    with open(contract) as fh:
        c = yaml.safe_load(fh)
    out = {}

    def walk(cols, pre):
        for col in cols:
            path = pre + col["name"]
            out[path] = col.get("description")
            kid(col, path)

    def kid(col, path):
        if col["type"] == "struct":
            walk(col["fields"], path + ".")
        elif col["type"] == "array":
            out[path + "[]"] = col["element"].get("description")
            kid(col["element"], path + "[]")
    walk(c["exposes"][0]["contract"]["schema"], "")
    return out


def actual(ident):
    """{path: doc} of the Iceberg table, in the same form."""
    import livelib as L
    from pyiceberg.types import ListType, StructType
    t = L.catalog().load_table(ident)
    out = {}

    def walk(fields, pre):
        for f in fields:
            path = pre + f.name
            out[path] = f.doc
            kid(f.field_type, path)

    def kid(ft, path):
        if isinstance(ft, StructType):
            walk(ft.fields, path + ".")
        elif isinstance(ft, ListType):
            out[path + "[]"] = ft.element_field.doc
            kid(ft.element_type, path + "[]")
    walk(t.schema().fields, "")
    return out


def cmd_docs(a):
    want = expected(a.contract)
    got = actual(a.table)
    bad = []
    for path in sorted(set(want) | set(got)):
        w = want.get(path)
        top = "." not in path and "[]" not in path
        if path.endswith("[]"):
            w = None            # Iceberg has no doc for an element
        elif a.via == "ddl" and not top:
            w = None            # Flink 1.20's DDL drops ROW field descriptions
        if path not in got or path not in want:
            bad.append(f"{path}: in the {'contract' if path in want else 'table'} only")
        elif got[path] != w:
            bad.append(f"{path}: doc {got[path]!r}, expected {w!r}")
        else:
            print(f"desc: {a.via}: {path}: {got[path]!r}")
    if not any(v for p, v in want.items() if "." in p and not p.endswith("[]")):
        bad.append("the contract describes no struct field: the check would prove nothing of them")
    if bad:
        sys.exit("desc: " + a.via + ":\n  " + "\n  ".join(bad))
    n = sum(1 for v in got.values() if v)
    print(f"desc: {a.via}: {a.table}: {n} docs, each the contract's description")


def cmd_ddl(a):
    jar = os.path.join(LIVE, "harness", "target", "live-harness.jar")
    with open(os.path.join(LIVE, ".cache", "cp", "flink.classpath")) as fh:
        cp = jar + ":" + fh.read().strip()
    cmd = ["java", "--add-opens=java.base/java.lang=ALL-UNNAMED",
           "--add-opens=java.base/java.util=ALL-UNNAMED",
           "--add-opens=java.base/java.net=ALL-UNNAMED",
           "--add-opens=java.base/java.nio=ALL-UNNAMED",
           "-cp", cp, "fluid.live.DescDdl", a.script]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=280)
    print(p.stdout, end="")
    if p.returncode != 0:
        sys.exit(f"desc: DescDdl exited {p.returncode}:\n{p.stderr[-4000:]}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("docs")
    d.add_argument("--contract", required=True)
    d.add_argument("--table", required=True)
    d.add_argument("--via", choices=("runner", "ddl"), required=True)
    x = sub.add_parser("ddl")
    x.add_argument("--script", required=True)
    a = ap.parse_args()
    {"docs": cmd_docs, "ddl": cmd_ddl}[a.cmd](a)


if __name__ == "__main__":
    main()
