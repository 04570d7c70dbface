# SPDX-License-Identifier: Apache-2.0
"""The live lane's check "gateway": fluid-gateway against a real Flink SQL
Gateway (flink-sql-gateway 1.20.1, lib/gateway.sh) and the session
cluster it submits to.

  gateway_check.py --fluid-bin DIR --dir GW apply --contract C --state S
      fluid-gateway apply GW/gateway.fluid.yaml (target "lane" of
      GW/fluid.targets.yaml): exit 0, one ok: line per statement in order,
      the INSERT's job id; the job RUNNING on the cluster; then waits until
      the table's current snapshot holds every expected row (the count of
      lanecheck.py produce), so that lanecheck.py verify compares them next.
  gateway_check.py --fluid-bin DIR --dir GW errors
      a broken statement: exit 1, the statement and Flink's reason, no stack
      trace, nothing after it sent, no job started, the session gone; a
      closed port: exit 2; SIGINT during a run: exit 2, the session gone
      from the gateway (GET /v2/sessions/H, the REST API has no list of
      sessions).  Then cancels the job of "apply".

Every run's command, status and output go to RUN/logs/gateway-*.log.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

GATEWAY = os.environ.get("LIVE_GATEWAY_URL", "http://127.0.0.1:8083")
CLUSTER = os.environ.get("LIVE_GATEWAY_CLUSTER_URL", "http://127.0.0.1:8091")
FRAME = re.compile(r"^\s+at [\w.$]+\(|^\s*\.\.\. \d+ more|Caused by:|Exception on server side")


def http(method, url):
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            return e.code, json.loads(body)
        except ValueError:
            return e.code, body.decode(errors="replace")


def fail(what, p=None):
    extra = ""
    if p is not None:
        extra = f"\nexit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    sys.exit(f"gateway check: {what}{extra}")


def run_gw(a, name, *args, timeout=600):
    cmd = [os.path.join(a.fluid_bin, "fluid-gateway"), "apply", *args]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=a.dir)
    log(a, name, cmd, p.returncode, p.stdout, p.stderr)
    return p


def log(a, name, cmd, rc, out, err):
    logs = os.path.join(os.path.dirname(a.dir), "logs")
    with open(os.path.join(logs, f"gateway-{name}.log"), "w") as fh:
        fh.write(f"$ {' '.join(cmd)}\nexit {rc}\n--- stdout\n{out}--- stderr\n{err}")


def session_of(out):
    m = re.search(r"^session (\S+)$", out, re.M)
    return m[1] if m else None


def session_alive(h):
    st, _ = http("GET", f"{GATEWAY}/v2/sessions/{h}")
    return st == 200


def jobs():
    st, body = http("GET", f"{CLUSTER}/jobs")
    if st != 200:
        fail(f"the cluster's GET /jobs answered {st}: {body}")
    return {j["id"]: j["status"] for j in body["jobs"]}


def cmd_apply(a):
    import livelib as L
    import oracle as O
    with open(a.state + ".counts") as fh:
        want = int(dict(l.strip().split("=") for l in fh if "=" in l)["landed"])
    # The table from the contract's YAML (the oracle), not fluid's table.json.
    ident = O.load(a.contract).ident
    ns, name = ident.split(".", 1)
    before = jobs()
    p = run_gw(a, "apply", "--target", "lane", "gateway.fluid.yaml")
    if p.returncode != 0:
        fail("fluid-gateway apply did not succeed", p)
    oks = [l for l in p.stdout.splitlines() if l.startswith("ok: ")]
    labels = [re.sub(r" -> job [0-9a-f]{32}$", "", l) for l in oks]
    expect = ["ok: set pipeline.name", "ok: catalog fluid_iceberg",
              f"ok: database fluid_iceberg.{ns}",
              f"ok: table fluid_iceberg.{ident}",
              "ok: source source_events",
              f"ok: insert fluid_iceberg.{ident}",
              "ok: applied: every statement submitted; delivery is not checked here "
              "(fluid verify reads it)"]
    if labels != expect:
        fail(f"the ok: lines are not one per statement in order: {oks}", p)
    job = re.search(r"-> job ([0-9a-f]{32})$", oks[5])[1]
    if job in before:
        fail(f"job {job} existed before the apply", p)
    sid = session_of(p.stdout)
    if sid is None or session_alive(sid):
        fail(f"the session {sid} was not closed after the apply", p)
    with open(os.path.join(a.dir, "job.txt"), "w") as fh:
        fh.write(job + "\n")
    print(f"gateway check: applied through {GATEWAY}: {len(oks) - 1} statements, job {job}, "
          f"session {sid} closed")
    # The job runs on the cluster, and its rows land in the table.
    t0 = time.monotonic()
    deadline = t0 + a.timeout_s
    state, rows, why = None, -1, ""
    while time.monotonic() < deadline:
        state = jobs().get(job)
        if state in ("FAILED", "CANCELED", "FINISHED"):
            fail(f"job {job} is {state} (logs/gateway-flink.log)")
        if state == "RUNNING":
            try:
                snap = L.catalog().load_table(ident).current_snapshot()
                rows = int(snap.summary["total-records"]) if snap else 0
            except Exception as e:  # the table may not exist yet
                rows = -1
                why = str(e)
            if rows == want:
                break
            if rows > want:
                fail(f"{ident} holds {rows} rows, {want} expected")
        time.sleep(1)
    else:
        fail(f"after {a.timeout_s} s job {job} is {state} and {ident} holds {rows} of {want} rows"
             + (f" ({why})" if rows == -1 and why else ""))
    print(f"gateway check: job {job} RUNNING, {ident} holds all {want} rows after "
          f"{time.monotonic() - t0:.0f} s")


def cmd_errors(a):
    # 1. A statement Flink refuses: the second of three; the INSERT after it
    #    would start a job.
    with open(os.path.join(a.dir, "broken.sql"), "w") as fh:
        fh.write("SET 'pipeline.name' = 'gateway-broken';\n"
                 "CREATE TEMPORARY TABLE `sink` (`x` INT) WITH ('connector' = 'blackhole');\n"
                 "INSERT INTO `sink` SELECT `x` FROM `no_such_table`;\n"
                 "INSERT INTO `sink` SELECT 1;\n")
    before = jobs()
    p = run_gw(a, "broken", "broken.sql")
    if p.returncode != 1:
        fail("a refused statement did not exit 1", p)
    err = p.stderr.strip()
    if not re.fullmatch(r"broken\.sql:3:1: error: statement 3 \(insert sink\): Flink refused "
                        r"it: .*Object 'no_such_table' not found.*", err):
        fail("the refusal does not name the statement and Flink's reason on one line", p)
    if any(FRAME.search(l) for l in (p.stdout + p.stderr).splitlines()) or "Exception:" in err:
        fail("the output holds a stack trace or an exception chain", p)
    if "ok: insert" in p.stdout or "ok: applied" in p.stdout:
        fail("a statement after the refused one was run", p)
    after = jobs()
    if set(after) != set(before):
        fail(f"a job was started: {sorted(set(after) - set(before))}", p)
    sid = session_of(p.stdout)
    if sid is None or session_alive(sid):
        fail(f"the session {sid} was not closed after the refusal", p)
    print(f"gateway check: refused statement: exit 1, {err}")

    # 2. A closed port.
    with open(os.path.join(a.dir, "closed.targets.yaml"), "w") as fh:
        fh.write("targets:\n  closed: {backend: flink, flink: {gateway: \"http://127.0.0.1:1\"}}\n")
    p = run_gw(a, "closed", "--targets", "closed.targets.yaml", "gateway.fluid.yaml")
    if p.returncode != 2 or "the SQL Gateway is not reachable" not in p.stderr:
        fail("a closed port did not exit 2 as unreachable", p)
    print("gateway check: closed port: exit 2, " + p.stderr.strip())

    # 3. SIGINT during a run: 400 statements, the signal after the fifth.
    with open(os.path.join(a.dir, "slow.sql"), "w") as fh:
        for i in range(400):
            fh.write(f"SET 'fluid.live.gateway.n{i}' = '{i}';\n")
    cmd = [os.path.join(a.fluid_bin, "fluid-gateway"), "apply", "slow.sql"]
    pr = subprocess.Popen(cmd, cwd=a.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, n, sid, alive = [], 0, None, None
    t0 = time.monotonic()
    for line in pr.stdout:
        out.append(line)
        if line.startswith("session "):
            sid = line.split()[1]
        if line.startswith("ok: set"):
            n += 1
        if n == 5:
            alive = session_alive(sid)
            pr.send_signal(signal.SIGINT)
            t1 = time.monotonic()
            break
        if time.monotonic() - t0 > 300:
            break
    try:
        rest, err = pr.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        pr.kill()
        rest, err = pr.communicate()
        fail("fluid-gateway did not stop within 60 s of SIGINT")
    stdout = "".join(out) + rest
    log(a, "sigint", cmd, pr.returncode, stdout, err)
    p = subprocess.CompletedProcess(cmd, pr.returncode, stdout, err)
    if n < 5:
        fail("the slow script did not get to its fifth statement", p)
    if not alive:
        fail(f"the session {sid} was not open during the run", p)
    if pr.returncode != 2 or "interrupted by a signal; the session is closed" not in err:
        fail("SIGINT did not stop the run with exit 2", p)
    if stdout.count("ok: set") >= 400:
        fail("the run went on to its end", p)
    st, body = http("GET", f"{GATEWAY}/v2/sessions/{sid}")
    if st == 200:
        fail(f"the session {sid} is still open after SIGINT", p)
    print(f"gateway check: SIGINT after {stdout.count('ok: set')} of 400 statements: exit 2 in "
          f"{time.monotonic() - t1:.1f} s; GET /v2/sessions/{sid}: {st} "
          f"{json.dumps(body)[:160]}")

    # The job of "apply" is not needed any more.
    job_file = os.path.join(a.dir, "job.txt")
    if os.path.exists(job_file):
        job = open(job_file).read().strip()
        http("PATCH", f"{CLUSTER}/jobs/{job}?mode=cancel")
        print(f"gateway check: job {job} cancelled")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fluid-bin", required=True)
    ap.add_argument("--dir", required=True)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("apply")
    s.add_argument("--contract", required=True, help="the applied contract (the oracle reads its table)")
    s.add_argument("--state", required=True)
    s.add_argument("--timeout-s", type=int, default=480)
    sub.add_parser("errors")
    a = ap.parse_args()
    return cmd_apply(a) if a.cmd == "apply" else cmd_errors(a)


if __name__ == "__main__":
    sys.exit(main())
