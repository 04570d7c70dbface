# SPDX-License-Identifier: Apache-2.0
"""The live lane's check "cfk": one example rendered for the CFK target
(management: cfk) by fluid's own filters, its FlinkStatements run as CMF
runs them, on the lane's real Flink 1.20.1 (the SQL Gateway of
lib/gateway.sh and its session cluster), Kafka and Iceberg REST catalog.

  cfk_check.py render --fluid-bin DIR --contract C --dir D
      fluid-resolve C | fluid-check | fluid-sqlgen | fluid-k8s render
      --resources; the FlinkStatements in CMF's order (the DDL in the
      order rendered, then the INSERT, which must come last and carry
      execution.checkpointing.interval; none a statement set, a CREATE
      CATALOG or a CREATE TABLE AS) to D/statements.json.
  cfk_check.py run --dir D --contract C --state S
      one session; in it the lane's stand-in for CMF's environment catalog
      (_env_<flinkEnvironment>, database "default", CMF 2.4's environment
      catalog, which CMF creates, not a statement); then each statement in
      its own call, its spec.flinkConfiguration as the call's
      executionConfig.  The DDL must finish, the INSERT must start one new
      job, RUNNING with the rendered checkpoint interval (from the
      cluster's REST API), the session closed under it as CMF's calls end.
      Then waits until the table holds every produced row (the count of
      lanecheck.py produce), every snapshot committed by that job; waits
      for one more completed checkpoint and reads the count again (no row
      twice); cancels the job and reads it a third time.
  cfk_check.py nosecret --dir D --table NS.T
      no value of AWS_SECRET_ACCESS_KEY (the lane's S3 secret key, which
      the gateway's JVM has in its environment) in D, the check's log, the
      gateway's logs or the Iceberg table's properties (which Iceberg's
      connector makes of the sink's WITH options).

lanecheck.py verify then compares every row with the oracle (plan()).
Every request and answer goes to RUN/logs/cfk-gateway.log.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
LIVE = os.path.dirname(HERE)
sys.path.insert(0, HERE)

GATEWAY = os.environ.get("LIVE_GATEWAY_URL", "http://127.0.0.1:8083")
CLUSTER = os.environ.get("LIVE_GATEWAY_CLUSTER_URL", "http://127.0.0.1:8091")
TOPIC = "cfk_orders"
TABLE = "cfk_landed"


def fail(what):
    sys.exit(f"cfk check: {what}")


class Log:
    """RUN/logs/cfk-gateway.log: each request, its answer, in order."""

    def __init__(self, d):
        self.path = os.path.join(os.path.dirname(d), "logs", "cfk-gateway.log")

    def write(self, text):
        with open(self.path, "a") as fh:
            fh.write(text.rstrip("\n") + "\n")


def call(log, method, url, body=None, timeout=60):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            st, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        st, raw = e.code, e.read()
    try:
        ans = json.loads(raw or b"null")
    except ValueError:
        ans = raw.decode(errors="replace")
    if log is not None:
        log.write(f"{method} {url}" + (f"\n  body {json.dumps(body)}" if body is not None else "")
                  + f"\n  -> {st} {json.dumps(ans)[:4000]}")
    return st, ans


def reason(ans):
    """Flink's reason from an error answer: its exception lines, no frames."""
    errs = ans.get("errors", []) if isinstance(ans, dict) else [str(ans)]
    lines = [l for e in errs for l in str(e).splitlines()
             if re.match(r"^(Caused by: )?[\w.$]+(Exception|Error)\b", l)]
    return " | ".join(lines[-3:]) or " ".join(str(e) for e in errs)[:600]


# ---------------------------------------------------------------- render

def cmd_render(a):
    # fluid's own filters, one after another, each exit status checked.
    b = a.fluid_bin
    stages = [[f"{b}/fluid-resolve", a.contract], [f"{b}/fluid-check"], [f"{b}/fluid-sqlgen"],
              [f"{b}/fluid-k8s", "render", "--resources"]]
    os.makedirs(a.dir, exist_ok=True)
    text = None
    for cmd in stages:
        p = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            fail(f"{os.path.basename(cmd[0])} refused the CFK variant (exit {p.returncode}): "
                 f"{p.stderr.strip()}")
        text = p.stdout
    with open(os.path.join(a.dir, "resources.json"), "w") as fh:
        fh.write(text)
    items = json.loads(text)["items"]
    kinds = [i["kind"] for i in items]
    if "FlinkDeployment" in kinds:
        fail(f"the CFK build rendered a FlinkDeployment: {kinds}")
    stmts = [i for i in items if i["kind"] == "FlinkStatement"]
    # CMF's order (fluid-k8s(1): DDL applied and waited for COMPLETED, then
    # the INSERT), derived from the SQL itself, must be the rendered order.
    def is_insert(s):
        return s["spec"]["statement"].lstrip().upper().startswith("INSERT")
    ddl = [s for s in stmts if not is_insert(s)]
    ins = [s for s in stmts if is_insert(s)]
    if len(ins) != 1 or not ddl or stmts != ddl + ins:
        fail("the statements are not DDL first, then one INSERT: "
             + ", ".join(s["metadata"]["name"] for s in stmts))
    for s in stmts:
        sql, name = s["spec"]["statement"], s["metadata"]["name"]
        if re.search(r"\bCREATE\s+CATALOG\b|\bSTATEMENT\s+SET\b|\bBEGIN\b|\bAS\s+SELECT\b", sql, re.I) \
                and not is_insert(s):
            fail(f"{name} is not a statement CMF runs: {sql[:200]}")
        if sql.count(";") != 1 or not sql.rstrip().endswith(";"):
            fail(f"{name} is not one statement")
        if len(name) > 45:
            fail(f"{name} is longer than CMF's 45 characters")
        if s["spec"].get("properties"):
            fail(f"{name} has spec.properties, which this check does not pass on")
    envs = {s["spec"]["flinkEnvironment"] for s in stmts}
    if len(envs) != 1:
        fail(f"the statements name environments {sorted(envs)}")
    conf = ins[0]["spec"].get("flinkConfiguration") or {}
    if "execution.checkpointing.interval" not in conf:
        fail("the INSERT has no execution.checkpointing.interval (CMF refuses it)")
    out = [{"name": s["metadata"]["name"],
            "role": s["metadata"].get("annotations", {}).get("fluid.dev/statement-role"),
            "environment": s["spec"]["flinkEnvironment"],
            "statement": s["spec"]["statement"],
            "flinkConfiguration": s["spec"].get("flinkConfiguration") or {}} for s in stmts]
    with open(os.path.join(a.dir, "statements.json"), "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"cfk check: fluid rendered {', '.join(kinds)}; in CMF's order: "
          + ", ".join(f"{s['name']} ({s['role']})" for s in out)
          + f"; the INSERT's flinkConfiguration {json.dumps(conf)}")


# ---------------------------------------------------------------- run

def jobs(log=None):
    st, body = call(log, "GET", f"{CLUSTER}/jobs")
    if st != 200:
        fail(f"the cluster's GET /jobs answered {st}: {body}")
    return {j["id"]: j["status"] for j in body["jobs"]}


def submit(log, sid, sql, conf, timeout_s):
    """One statement, one call: submit, poll, read its first result page.
    Returns the result page; fails with Flink's reason."""
    st, ans = call(log, "POST", f"{GATEWAY}/v2/sessions/{sid}/statements",
                   {"statement": sql, "executionConfig": conf})
    if st != 200:
        fail(f"the gateway refused the statement ({st}): {reason(ans)}")
    op = ans["operationHandle"]
    deadline = time.monotonic() + timeout_s
    while True:
        st, ans = call(None, "GET", f"{GATEWAY}/v2/sessions/{sid}/operations/{op}/status")
        status = ans.get("status") if isinstance(ans, dict) else None
        if status in ("FINISHED", "ERROR", "CANCELED", "CLOSED", "TIMEOUT") or st != 200:
            break
        if time.monotonic() > deadline:
            fail(f"the statement is still {status} after {timeout_s} s")
        time.sleep(0.5)
    log.write(f"  status {status}")
    st, page = call(log, "GET", f"{GATEWAY}/v2/sessions/{sid}/operations/{op}/result/0?rowFormat=JSON")
    if status != "FINISHED" or st != 200:
        fail(f"Flink did not run the statement ({status}): {reason(page)}")
    return page


def job_of(page):
    j = page.get("jobID")
    if j:
        return j
    res = page.get("results") or {}
    cols, data = res.get("columns") or [], res.get("data") or []
    if cols and cols[0].get("name") == "job id" and data:
        return data[0]["fields"][0]
    return None


def interval_ms(text):
    m = re.fullmatch(r"(\d+)\s*(ms|s|min|m|h)?", text.strip())
    if not m:
        fail(f"cannot read the interval {text!r}")
    return int(m[1]) * {"ms": 1, None: 1, "s": 1000, "min": 60000, "m": 60000, "h": 3600000}[m[2]]


def completed_checkpoints(job):
    st, body = call(None, "GET", f"{CLUSTER}/jobs/{job}/checkpoints")
    return body["counts"]["completed"] if st == 200 else 0


def table_rows(L, ident):
    t = L.catalog().load_table(ident)
    snap = t.current_snapshot()
    return t, (int(snap.summary["total-records"]) if snap else 0)


def cmd_run(a):
    import livelib as L
    import oracle as O
    log = Log(a.dir)
    with open(os.path.join(a.dir, "statements.json")) as fh:
        stmts = json.load(fh)
    with open(a.state + ".counts") as fh:
        want = int(dict(l.strip().split("=") for l in fh if "=" in l)["landed"])
    # The table from the contract's YAML (the oracle), not from fluid's SQL.
    ident = O.load(a.contract).ident
    env = stmts[0]["environment"]
    before = jobs(log)
    st, ans = call(log, "POST", f"{GATEWAY}/v2/sessions", {"sessionName": "fluid-live-cfk"})
    if st != 200:
        fail(f"no session ({st}): {reason(ans)}")
    sid = ans["sessionHandle"]
    job = None
    try:
        # CMF's environment catalog (CMF >= 2.4: one per environment, named
        # _env_<env>, with the database "default"): CMF's, not a statement
        # of fluid's, so the lane makes it; in memory, hence one session.
        q = "`" + ("_env_" + env).replace("`", "``") + "`"
        submit(log, sid, f"CREATE CATALOG {q} WITH ('type' = 'generic_in_memory', "
                         "'default-database' = 'default')", {}, 120)
        print(f"cfk check: session {sid}: the lane's environment catalog _env_{env} (database default)")
        for s in stmts:
            log.write(f"# {s['name']} ({s['role']})")
            page = submit(log, sid, s["statement"], s["flinkConfiguration"], a.timeout_s)
            j = job_of(page)
            if s is stmts[-1]:
                if j is None:
                    fail(f"{s['name']}: the INSERT started no job: {json.dumps(page)[:400]}")
                job = j
            elif j is not None:
                fail(f"{s['name']}: a DDL statement started job {j}")
            print(f"cfk check: {s['name']} ({s['role']}): FINISHED"
                  + (f", job {j}" if j else "")
                  + (f", executionConfig {json.dumps(s['flinkConfiguration'])}" if s["flinkConfiguration"] else ""))
    finally:
        # CMF's calls end; a statement's job outlives them.
        call(log, "DELETE", f"{GATEWAY}/v2/sessions/{sid}")
        if job is None:
            for j, state in jobs(log).items():
                if j not in before and state not in ("CANCELED", "FINISHED", "FAILED"):
                    call(log, "PATCH", f"{CLUSTER}/jobs/{j}?mode=cancel")
    try:
        watch(a, log, L, ident, job, before, want, stmts[-1]["flinkConfiguration"])
    finally:
        call(log, "PATCH", f"{CLUSTER}/jobs/{job}?mode=cancel")
    deadline = time.monotonic() + 120
    while jobs(log).get(job) != "CANCELED":
        if time.monotonic() > deadline:
            fail(f"job {job} is {jobs().get(job)} 120 s after the cancel")
        time.sleep(1)
    _, n = table_rows(L, ident)
    if n != want:
        fail(f"after the cancel {ident} holds {n} rows, {want} expected")
    print(f"cfk check: job {job} CANCELED; {ident} still holds {n} rows")


def watch(a, log, L, ident, job, before, want, conf):
    if job in before:
        fail(f"job {job} existed before the INSERT")
    t0 = time.monotonic()
    deadline = t0 + a.timeout_s
    state = None
    while state != "RUNNING":
        state = jobs().get(job)
        if state in ("FAILED", "CANCELED", "FINISHED"):
            fail(f"job {job} is {state} (logs/gateway-flink.log)")
        if time.monotonic() > deadline:
            fail(f"job {job} is {state} after {a.timeout_s} s")
        time.sleep(0.5)
    st, cc = call(log, "GET", f"{CLUSTER}/jobs/{job}/checkpoints/config")
    rendered = interval_ms(conf["execution.checkpointing.interval"])
    if st != 200 or cc.get("interval") != rendered:
        fail(f"job {job} checkpoints every {cc.get('interval') if st == 200 else '?'} ms; "
             f"the INSERT's flinkConfiguration says {rendered} ms")
    print(f"cfk check: job {job} RUNNING, checkpoint interval {rendered} ms (the INSERT's "
          f"flinkConfiguration, not the cluster's)")
    rows, why = -1, ""
    while True:
        state = jobs().get(job)
        if state != "RUNNING":
            fail(f"job {job} is {state} (logs/gateway-flink.log)")
        try:
            t, rows = table_rows(L, ident)
        except Exception as e:  # created when the INSERT is planned; read again
            rows, why = -1, str(e)
        if rows == want:
            break
        if rows > want:
            fail(f"{ident} holds {rows} rows, {want} expected")
        if time.monotonic() > deadline:
            fail(f"after {a.timeout_s} s job {job} is {state} and {ident} holds {rows} of {want} rows"
                 + (f" ({why})" if rows == -1 and why else ""))
        time.sleep(1)
    print(f"cfk check: {ident} holds all {want} rows after {time.monotonic() - t0:.0f} s")
    # Exactly once: one more checkpoint completes (and would commit anything
    # read again), the count stays; every snapshot is this job's.
    done = completed_checkpoints(job)
    while completed_checkpoints(job) <= done:
        if jobs().get(job) != "RUNNING":
            fail(f"job {job} stopped while waiting for a checkpoint")
        if time.monotonic() > deadline + rendered / 1000:
            fail(f"no checkpoint of job {job} completed after the rows landed")
        time.sleep(1)
    t, n = table_rows(L, ident)
    if n != want:
        fail(f"a checkpoint later {ident} holds {n} rows, {want} expected")
    owners = {s.summary["flink.job-id"] for s in t.snapshots()}
    if owners != {job}:
        fail(f"{ident}'s snapshots were committed by {sorted(map(str, owners))}, not job {job} alone")
    if jobs().get(job) != "RUNNING":
        fail(f"job {job} is not RUNNING")
    print(f"cfk check: one more checkpoint: still {n} rows, {len(t.snapshots())} snapshots, all "
          f"committed by job {job}, which is RUNNING")


# ---------------------------------------------------------------- nosecret

def cmd_nosecret(a):
    import livelib as L
    logs = os.path.join(os.path.dirname(a.dir), "logs")
    paths = [a.dir, os.path.join(logs, "cfk-gateway.log"), os.path.join(logs, "gateway-flink.log"),
             os.path.join(logs, "gateway.log")]
    # The key id is not a secret (and "fluid-live" is in every path here).
    secret = os.environ.get("AWS_SECRET_ACCESS_KEY", "")
    if len(secret) < 8:
        fail("the lane's S3 secret key is not in the environment")
    found, files = [], 0
    for top in paths:
        walk = os.walk(top) if os.path.isdir(top) else [(os.path.dirname(top), None, [os.path.basename(top)])]
        for dirpath, _, names in walk:
            for f in names:
                try:
                    with open(os.path.join(dirpath, f), "rb") as fh:
                        data = fh.read()
                except OSError:
                    continue
                files += 1
                if secret.encode() in data:
                    found.append(os.path.join(dirpath, f))
    # The sink's WITH options become the Iceberg table's properties.
    props = L.catalog().load_table(a.table).properties
    if any(secret in k or secret in v for k, v in props.items()):
        found.append(f"the properties of {a.table}")
    for p in found:
        print(f"cfk check: the value of AWS_SECRET_ACCESS_KEY is in {p}")
    if found or files < 4:
        fail("the S3 secret key written out" if found else f"only {files} files read")
    print(f"cfk check: no value of AWS_SECRET_ACCESS_KEY in {files} files (the statements, the "
          f"resources, the requests and answers, the gateway's logs) or in the {len(props)} "
          f"properties of {a.table}")


# ---------------------------------------------------------------- plan

def plan(run, cdir, fluid_bin):
    """The check's lines of the harness's plan, and its contract: the
    inlined example (localised by prepare.py) with its own topic, group
    and table, made a CFK build by tests/cfk/variant."""
    d = os.path.join(run, "cfk")
    os.makedirs(d, exist_ok=True)
    inl = os.path.join(cdir, "examples", "inlined")
    with open(os.path.join(inl, "orders-landed.fluid.yaml")) as fh:
        t = fh.read()
    t2 = t.replace("table: orders_landed", f"table: {TABLE}").replace(
        "topic: orders", f"topic: {TOPIC}").replace(
        "groupId: forge-commerce-orders-landed-v1", "groupId: live-cfk")
    if t2.count(TABLE) != 1 or t2.count(TOPIC) != 1 or "live-cfk" not in t2:
        sys.exit("prepare: the cfk contract did not take the edit")
    base = os.path.join(d, "base.fluid.yaml")
    with open(base, "w") as fh:
        fh.write(t2)
    contract = os.path.join(inl, "cfk-landed.fluid.yaml")
    root = os.path.dirname(os.path.dirname(LIVE))
    with open(contract, "w") as fh:
        subprocess.run([os.path.join(root, "tests", "cfk", "variant"), base], stdout=fh, check=True,
                       timeout=60)
    py = sys.executable
    me = f"{py} {os.path.abspath(__file__)}"
    lc = f"{py} {os.path.join(HERE, 'lanecheck.py')}"
    ka = f"{py} {os.path.join(HERE, 'kafka_admin.py')}"
    st = os.path.join(run, "state")
    import oracle
    ident = oracle.load(contract).ident
    return [
        "check cfk: the landed example rendered for the CFK target, its FlinkStatements run in CMF's "
        "order, one per call, through the SQL Gateway; every row compared, exactly once",
        f"exec {me} render --fluid-bin {fluid_bin} --contract {contract} --dir {d}",
        f"exec {ka} create {TOPIC} --partitions 2",
        f"exec {lc} produce --dataset orders --contract {contract} --expect landed={contract} "
        f"--key-col order_key --id-col event_id --topic {TOPIC} --count 60 --seed 23 "
        f"--state {st}/cfk.pkl",
        f"exec {lc} absent {ident}",
        f"exec --timeout-s 900 {me} run --dir {d} --contract {contract} --state {st}/cfk.pkl",
        f"exec {lc} verify --shape landed --state {st}/cfk.pkl --contract {contract} --key event_id "
        f"--name cfk-landed --known {os.path.join(LIVE, 'known-findings.tsv')}",
        f"exec {me} nosecret --dir {d} --table {ident}",
        ""]


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("render")
    r.add_argument("--fluid-bin", required=True)
    r.add_argument("--contract", required=True)
    r.add_argument("--dir", required=True)
    s = sub.add_parser("run")
    s.add_argument("--dir", required=True)
    s.add_argument("--contract", required=True, help="the rendered contract (the oracle reads its table)")
    s.add_argument("--state", required=True)
    s.add_argument("--timeout-s", type=int, default=600)
    n = sub.add_parser("nosecret")
    n.add_argument("--dir", required=True)
    n.add_argument("--table", required=True)
    a = ap.parse_args()
    return {"render": cmd_render, "run": cmd_run, "nosecret": cmd_nosecret}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
