# SPDX-License-Identifier: Apache-2.0
"""The demo's rows: wait until the job applied through the SQL Gateway has
committed every expected row to the Iceberg table, then print some of them.

  rows.py --table NS.NAME --expect N [--timeout S] [--show K]

Waits (a deadline, polled each second) while every job of the gateway's
session cluster (GET /jobs on LIVE_GATEWAY_CLUSTER_URL) is RUNNING and the
table's current snapshot holds fewer than N rows; a job that FAILED or
ended, more rows than N, or the deadline is status 1.  Then prints the
first K rows (one line each, as JSON, cut to the terminal's width) and the
count.  The catalog and S3 are the demo's (tests/live/py/livelib.py's
catalog(): LIVE_REST_URL, LIVE_S3_URL and the AWS_* keys of
tests/live/lib/services.sh).
"""
import argparse
import json
import os
import shutil
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tests", "live", "py"))
import livelib as L  # noqa: E402

CLUSTER = os.environ.get("LIVE_GATEWAY_CLUSTER_URL", "http://127.0.0.1:8091")


def jobs():
    with urllib.request.urlopen(f"{CLUSTER}/jobs", timeout=10) as r:
        return {j["id"]: j["status"] for j in json.load(r)["jobs"]}


def committed(ident):
    """Rows in the table's current snapshot; -1 while there is no table."""
    try:
        snap = L.catalog().load_table(ident).current_snapshot()
    except Exception:  # not visible in the catalog yet
        return -1
    return int(snap.summary["total-records"]) if snap else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", required=True)
    ap.add_argument("--expect", type=int, required=True)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--show", type=int, default=5)
    a = ap.parse_args()
    deadline = time.monotonic() + a.timeout
    rows = -1
    while True:
        bad = {j: s for j, s in jobs().items() if s != "RUNNING"}
        if bad:
            sys.exit(f"demo: the job is {', '.join(bad.values())}, not RUNNING "
                     "(tests/live/.cache/demo/logs/gateway-flink.log)")
        rows = committed(a.table)
        if rows >= a.expect:
            break
        if time.monotonic() > deadline:
            sys.exit(f"demo: {a.table} holds {max(rows, 0)} of {a.expect} rows after "
                     f"{a.timeout:.0f} s")
        time.sleep(1)
    if rows > a.expect:
        sys.exit(f"demo: {a.table} holds {rows} rows, {a.expect} expected")
    t = L.catalog().load_table(a.table)
    data = t.scan(limit=a.show).to_arrow().to_pylist()
    width = max(40, shutil.get_terminal_size((120, 24)).columns)
    for r in data:
        line = json.dumps(r, default=str, ensure_ascii=False)
        print(line if len(line) <= width else line[:width - 3] + "...")
    print(f"demo: {a.table} holds {rows} rows (the first {len(data)} above), "
          f"snapshot {t.current_snapshot().snapshot_id}")


if __name__ == "__main__":
    main()
