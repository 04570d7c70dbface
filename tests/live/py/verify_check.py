"""The live lane's check of fluid verify: after the examples' tables are
committed (check "examples"), fluid verify reads the real Iceberg REST
catalog of the lane and

  - passes on the landed example (schema equal, a young snapshot);
  - fails, naming the nested field, on the drift table whose
    customer.address.country is another type (check "refused" made it,
    and the runner refused to write to it, so it has no snapshot either);
  - fails with "no snapshot is young enough" when the landed example's
    maxSnapshotAgeSeconds is 1 s and its last commit is older.

No output, report or log of these runs may hold the lane's token value.

  verify_check.py --fluid FLUID --run RUN_DIR         (run the check)

prepare.py calls append_plan() to add the check to the harness's plan.
The FlinkDeployment and checkpoint pieces are not read by this version
of fluid verify (no Kubernetes client yet): they are warnings here.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

ALLOW = {
    "FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST": "development",
    "FLUID_FLINK_NAMESPACE_ALLOWLIST": "data-products",
    "FLUID_FLINK_IMAGE_ALLOWLIST": "registry.example.com/forge-flink",
    "FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST": "flink",
    "FLUID_FLINK_SECRET_ALLOWLIST": "flink-storage",
}


def append_plan(run, fluid):
    """Add the check to RUN/plan.txt (after every other check)."""
    with open(os.path.join(run, "plan.txt"), "a") as fh:
        fh.write("check verify: fluid verify reads the examples' schema and snapshot from the "
                 "REST catalog, and fails on another schema or an old snapshot\n"
                 f"exec {sys.executable} {os.path.abspath(__file__)} --fluid {fluid} --run {run}\n\n")


def verify(fluid, contract, out, logs, name):
    env = dict(os.environ, **ALLOW)
    p = subprocess.run([fluid, "verify", contract, "--streaming-timeout", "0", "--out", out],
                       capture_output=True, text=True, timeout=120, env=env)
    with open(os.path.join(logs, f"verify-{name}.log"), "w") as fh:
        fh.write(f"$ fluid verify {contract} --streaming-timeout 0 --out {out}\n"
                 f"exit {p.returncode}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr}")
    return p


def expect(cond, what, p):
    if not cond:
        sys.exit(f"verify check: {what}\nexit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fluid", required=True)
    ap.add_argument("--run", required=True)
    a = ap.parse_args()
    ex = os.path.join(a.run, "contracts", "examples")
    vdir = os.path.join(a.run, "verify")
    logs = os.path.join(a.run, "logs")
    os.makedirs(vdir, exist_ok=True)
    landed = os.path.join(ex, "landed", "orders-landed.fluid.yaml")

    # 1. The landed example, as committed by check "examples".
    out = os.path.join(vdir, "landed.delivery.json")
    p = verify(a.fluid, landed, out, logs, "landed")
    expect(p.returncode == 0, "fluid verify did not pass on the landed example", p)
    expect("land-orders: catalog-schema: pass" in p.stdout and
           "land-orders: catalog-snapshot: pass" in p.stdout, "a catalog piece did not pass", p)
    d = json.load(open(out))
    ev = {e["evidence"]: e for e in d["builds"][0]["evidence"]}
    expect(d["outcome"] == "pass" and "not per-record delivery" in d["notice"] and
           ev["catalog-schema"]["endpoint"].startswith("http://127.0.0.1:8181/v1/") and
           ev["catalog-schema"]["endpoint"].endswith("/namespaces/commerce/tables/orders_landed"),
           "delivery.json is not as expected: " + json.dumps(ev["catalog-schema"]), p)

    # 2. The drift table of check "refused": another type, no snapshot.
    drift = os.path.join(ex, "inlined", "drift-type.fluid.yaml")
    p = verify(a.fluid, drift, os.path.join(vdir, "drift-type.delivery.json"), logs, "drift-type")
    expect(p.returncode == 1, "fluid verify passed on a table of another schema", p)
    expect(re.search(r"error: Flink build \S+: catalog-schema: the table's schema differs from the "
                     r"contract: customer\.address\.country: string in the contract", p.stderr),
           "no schema difference at customer.address.country", p)
    expect("catalog-snapshot: the table has no committed snapshot" in p.stderr,
           "the refused table's missing snapshot was not reported", p)

    # 3. The landed example with a budget its last commit is older than.
    with open(landed) as fh:
        text = fh.read()
    old = os.path.join(ex, "landed", "orders-landed-1s.fluid.yaml")
    with open(old, "w") as fh:
        fh.write(text.replace("maxSnapshotAgeSeconds: 900", "maxSnapshotAgeSeconds: 1"))
    time.sleep(2.5)
    p = verify(a.fluid, old, os.path.join(vdir, "old.delivery.json"), logs, "old")
    expect(p.returncode == 1, "fluid verify passed with a 1 s snapshot budget", p)
    expect("catalog-snapshot: no snapshot is young enough" in p.stderr and
           "maxSnapshotAgeSeconds is 1" in p.stderr, "no age failure", p)

    # 4. No token value in any output, report or log of these runs.
    token = os.environ.get("ICEBERG_TOKEN", "")
    if token:
        for dirpath in (vdir, logs):
            for f in os.listdir(dirpath):
                if f.startswith("verify-") or dirpath == vdir:
                    with open(os.path.join(dirpath, f), errors="replace") as fh:
                        expect(token not in fh.read(), f"{f} holds the token", p)
    print("verify check: landed passes; another schema and an old snapshot fail with their reasons")
    return 0


if __name__ == "__main__":
    sys.exit(main())
