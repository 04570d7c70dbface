# SPDX-License-Identifier: Apache-2.0
"""The live lane's upgrade check and its S3 state evidence.

  upgradecheck.py topic --topic T [--partitions N]
  upgradecheck.py diff --fluid FLUID --baseline OLD.yaml --contract NEW.yaml --out CHANGES.json
  upgradecheck.py verify --state PKL --table NS.NAME --first-events F --second-events F
  upgradecheck.py state --prefix s3://BUCKET/PATH [--savepoint-file F] [--min-objects N]

topic: the check's topic, with message.timestamp.type=LogAppendTime, so that
each record's Kafka timestamp (which the producer's delivery report returns
and lanecheck.py keeps in its state file) is the broker's clock when the
record arrived: that is what places a record before, during or after the
upgrade.

diff: fluid diff of the two versions must classify every change as
non-breaking, and find at least one (the upgrade is then a real change).

verify: every produced record (by its Kafka partition and offset) must be
in the table exactly once, whichever job wrote it.  Each data file is
attributed to the snapshot that added it, and that snapshot's flink.job-id
to the job before the upgrade or the one after it; the records are counted
in three phases by their append time against the harness's events (the
first job's savepoint completed; the second job running): produced before
the savepoint, while no job ran, and after the second job started.  Each
phase must hold records; none may be missing or duplicated.  Values are
compared by lanecheck.py verify, not here.

state: the objects under an s3:// prefix of the lane's moto server (the
checkpoint or savepoint location fluid rendered): they must include a
checkpoint's or savepoint's _metadata, and at least N objects (with
state.storage.fs.memory-threshold=0 the operators' state is in files of its
own, not inlined into _metadata).
"""
import argparse
import collections
import json
import os
import pickle
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def say(msg):
    print(f"upgradecheck: {msg}", flush=True)


def cmd_topic(a):
    from confluent_kafka.admin import AdminClient, NewTopic
    admin = AdminClient({"bootstrap.servers": a.bootstrap, "socket.timeout.ms": 3000})
    t = NewTopic(a.topic, num_partitions=a.partitions, replication_factor=1,
                 config={"message.timestamp.type": "LogAppendTime"})
    admin.create_topics([t], operation_timeout=30, request_timeout=30)[a.topic].result(timeout=60)
    say(f"topic {a.topic} ({a.partitions} partitions, LogAppendTime)")


def cmd_diff(a):
    p = subprocess.run([a.fluid, "diff", "--baseline", a.baseline, "--out", a.out, a.contract],
                       capture_output=True, text=True, timeout=60)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        sys.exit(f"upgradecheck: fluid diff exited {p.returncode}")
    with open(a.out) as f:
        d = json.load(f)
    changes = d.get("changes", [])
    for c in changes:
        new = c.get("new") or {}
        old = c.get("old") or {}
        say(f"fluid diff: {c.get('severity')} {c.get('change')} "
            f"{new.get('path') or old.get('path')}: {c.get('reason')}")
    bad = [c for c in changes if c.get("severity") != "non-breaking"]
    counts = d.get("counts", {})
    if not changes:
        sys.exit("upgradecheck: fluid diff finds no change: the upgrade would not change the job")
    if bad or counts.get("breaking", 0) != 0:
        sys.exit(f"upgradecheck: fluid diff classifies {len(bad)} change(s) as other than non-breaking")
    say(f"fluid diff: {len(changes)} change(s), every one non-breaking")


def events(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, _, rest = line.partition("=")
            out.setdefault(k, int(rest.split("\t")[0]))
    return out


def s3fs():
    import pyarrow.fs as pafs
    ep = os.environ.get("LIVE_S3_URL", "http://127.0.0.1:9000")
    scheme, _, host = ep.partition("://")
    return pafs.S3FileSystem(endpoint_override=host, scheme=scheme,
                             access_key=os.environ["AWS_ACCESS_KEY_ID"],
                             secret_key=os.environ["AWS_SECRET_ACCESS_KEY"], region="us-east-1")


def cmd_verify(a):
    import pyarrow.parquet as pq
    import livelib as L

    with open(a.state, "rb") as f:
        recs = pickle.load(f)["records"]
    ev1, ev2 = events(a.first_events), events(a.second_events)
    stopped, started = ev1["stopped"], ev2["running"]
    t = L.catalog().load_table(a.table)
    snaps = {s.snapshot_id: s for s in t.snapshots()}
    jobs = []          # flink.job-id in commit order
    for s in sorted(snaps.values(), key=lambda s: s.sequence_number):
        j = (s.summary.additional_properties if s.summary else {}).get("flink.job-id")
        if j and j not in jobs:
            jobs.append(j)
    if len(jobs) != 2:
        sys.exit(f"upgradecheck: expected commits by two jobs (before and after the upgrade), found {jobs}")
    seq = {j: [s.sequence_number for s in snaps.values()
               if (s.summary.additional_properties.get("flink.job-id") == j)] for j in jobs}
    if max(seq[jobs[0]]) >= min(seq[jobs[1]]):
        sys.exit("upgradecheck: the first job committed after the second started committing")

    fs = s3fs()
    entries = t.inspect.entries().to_pylist()
    landed = collections.Counter()     # (partition, offset) -> times in the table
    by_job = {}
    files = 0
    for e in entries:
        if e["status"] == 2:           # DELETED
            continue
        df = e["data_file"]
        path = df["file_path"]
        if df.get("content", 0) != 0:
            sys.exit(f"upgradecheck: unexpected delete file {path}")
        if not path.startswith("s3://"):
            sys.exit(f"upgradecheck: data file not on S3: {path}")
        snap = snaps.get(e["snapshot_id"])
        job = snap.summary.additional_properties.get("flink.job-id") if snap else None
        files += 1
        for r in pq.read_table(path[5:], filesystem=fs,
                               columns=["kafka_partition", "kafka_offset"]).to_pylist():
            k = (r["kafka_partition"], r["kafka_offset"])
            landed[k] += 1
            by_job[k] = job
    produced = {(r["partition"], r["offset"]): r for r in recs}
    if len(produced) != len(recs):
        sys.exit("upgradecheck: the producer's state has two records at one offset")
    phases = collections.OrderedDict(
        [("before the savepoint", []), ("while no job ran", []), ("after the new job started", [])])
    for k, r in produced.items():
        ts = r["ts"]
        ph = ("before the savepoint" if ts <= stopped else
              "while no job ran" if ts < started else "after the new job started")
        phases[ph].append(k)
    say(f"{a.table}: {sum(landed.values())} rows in {files} data files on S3, {len(recs)} records produced; "
        f"first job {jobs[0]} ({len(seq[jobs[0]])} commits), second job {jobs[1]} ({len(seq[jobs[1]])} commits); "
        f"savepoint completed at {stopped}, second job running at {started} "
        f"({(started - stopped) / 1000:.1f} s without a job)")
    bad = False
    for ph, keys in phases.items():
        miss = sum(1 for k in keys if landed[k] == 0)
        dup = sum(1 for k in keys if landed[k] > 1)
        n1 = sum(1 for k in keys if landed[k] and by_job[k] == jobs[0])
        n2 = sum(1 for k in keys if landed[k] and by_job[k] == jobs[1])
        say(f"  produced {ph}: {len(keys)}; landed once {sum(1 for k in keys if landed[k] == 1)}, "
            f"missing {miss}, duplicated {dup}; written by the first job {n1}, by the second {n2}")
        if not keys:
            say(f"  no record was produced {ph}: the check proves nothing about that phase")
            bad = True
        if miss or dup:
            bad = True
        if ph != "before the savepoint" and n1:
            say(f"  {n1} records produced {ph} were written by the first job, which had stopped")
            bad = True
    extra = [k for k in landed if k not in produced]
    if extra:
        say(f"  {len(extra)} rows in the table were never produced, e.g. {extra[:3]}")
        bad = True
    if not any(by_job[k] == jobs[0] for k in landed) or not any(by_job[k] == jobs[1] for k in landed):
        say("  one of the two jobs wrote no row")
        bad = True
    if bad:
        sys.exit(1)
    say(f"{a.table}: every record produced before, during and after the upgrade landed exactly once")


def cmd_state(a):
    import pyarrow.fs as pafs
    if not a.prefix.startswith("s3://"):
        sys.exit(f"upgradecheck: {a.prefix} is not an s3:// location")
    fs = s3fs()
    infos = [i for i in fs.get_file_info(pafs.FileSelector(a.prefix[5:], recursive=True))
             if i.type == pafs.FileType.File]
    metas = sorted(i.path for i in infos if i.path.endswith("/_metadata"))
    size = sum(i.size for i in infos)
    say(f"{a.prefix}: {len(infos)} objects, {size} bytes, {len(metas)} _metadata files"
        + (f", e.g. s3://{metas[-1]}" if metas else ""))
    if not metas:
        sys.exit(f"upgradecheck: no checkpoint or savepoint _metadata under {a.prefix}")
    if len(infos) < a.min_objects:
        sys.exit(f"upgradecheck: {len(infos)} objects under {a.prefix}, expected at least {a.min_objects}")
    if a.savepoint_file:
        with open(a.savepoint_file) as f:
            sp = f.read().strip()
        here = sp[5:].rstrip('/') + "/"
        if f"{here}_metadata" not in metas:
            sys.exit(f"upgradecheck: savepoint {sp} has no _metadata under {a.prefix}")
        mine = [i for i in infos if i.path.startswith(here)]
        say(f"savepoint {sp}: {len(mine)} objects on S3, {sum(i.size for i in mine)} bytes, _metadata included")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", default="127.0.0.1:9092")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("topic")
    p.add_argument("--topic", required=True)
    p.add_argument("--partitions", type=int, default=1)
    p = sub.add_parser("diff")
    p.add_argument("--fluid", required=True)
    p.add_argument("--baseline", required=True)
    p.add_argument("--contract", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("verify")
    p.add_argument("--state", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--first-events", required=True)
    p.add_argument("--second-events", required=True)
    p = sub.add_parser("state")
    p.add_argument("--prefix", required=True)
    p.add_argument("--savepoint-file")
    p.add_argument("--min-objects", type=int, default=1)
    a = ap.parse_args()
    {"topic": cmd_topic, "diff": cmd_diff, "verify": cmd_verify, "state": cmd_state}[a.cmd](a)


if __name__ == "__main__":
    main()
