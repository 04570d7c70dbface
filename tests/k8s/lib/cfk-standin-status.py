#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/k8s/lib/cfk-standin-status.py - A STAND-IN FOR THE STATUS CFK WRITES.

No CFK operator and no CMF run in the Kubernetes lane: they exist only as
container images.  This stand-in writes, in one namespace, the status CFK
would write on the FlinkComputePools and FlinkStatements it finds, so that
fluid apply's waits and refusals meet a real API server.  It writes
nothing else: only the status subresource, by merge patch, as field
manager cfk-standin-status (the checks assert that this manager owns no
field outside status).  It never writes spec or metadata.

  cfk-standin-status.py NAMESPACE CONTROL-FILE -- KUBECTL-ARGV...

KUBECTL-ARGV is the lane's kubectl with its kubeconfig, context and request
timeout.  Every 0.25 s it lists both kinds; each object whose
status.observedGeneration is not its metadata.generation (a new object or
a changed spec) and that is not being deleted gets the status CFK
documents for it (../../shared/reference/cfk.md section 2.2; the CFK
tutorial, seed 004):

  cfkInternalState CREATED, cmfSync {status Created, errorMessage "",
  lastSyncTime}, observedGeneration = metadata.generation, and phase:
    FlinkComputePool  RUNNING
    FlinkStatement    STOPPED when spec.stopped is true; else COMPLETED for
                      DDL (the statement starts with CREATE), RUNNING for
                      an INSERT, PENDING otherwise

CONTROL-FILE (JSON, read on every round; missing = {}) turns the statuses
of FlinkStatements written from then on into CMF's failures:
  {"ddl_phase": "FAILED", "ddl_detail": TEXT}  DDL statements: that phase
                                               and status.detail
  {"sync_status": "Failed", "sync_error": TEXT}  every statement:
                                               cmfSync.status and
                                               errorMessage (phase PENDING,
                                               no cfkInternalState)
One line per status written goes to the standard output, each starting
"cfk stand-in:".  It ends when its parent process does (the check), or on
SIGTERM.
"""
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time

MANAGER = "cfk-standin-status"


def say(msg):
    print("cfk stand-in: " + msg, flush=True)


def kubectl(argv, *args):
    # Bounded: the argv carries --request-timeout; this bounds the process.
    return subprocess.run(argv + list(args), capture_output=True, text=True,
                          timeout=30)


def control(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        say("cannot read the control file %s: %s" % (path, e))
        return {}


def first_word(sql):
    # Leading blanks and "--" comment lines skipped.
    s = re.sub(r"^(\s|--[^\n]*\n)*", "", sql or "")
    m = re.match(r"[A-Za-z]+", s)
    return m.group(0).upper() if m else ""


def status_for(obj, ctl):
    kind = obj["kind"]
    spec = obj.get("spec") or {}
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    st = {"cfkInternalState": "CREATED",
          "cmfSync": {"status": "Created", "errorMessage": "", "lastSyncTime": now},
          "observedGeneration": obj["metadata"]["generation"]}
    if kind == "FlinkComputePool":
        st["phase"] = "RUNNING"
        return st
    word = first_word(spec.get("statement"))
    if spec.get("stopped") is True:
        st["phase"] = "STOPPED"
    elif word == "CREATE":
        st["phase"] = ctl.get("ddl_phase", "COMPLETED")
        if ctl.get("ddl_detail"):
            st["detail"] = ctl["ddl_detail"]
    elif word == "INSERT":
        st["phase"] = "RUNNING"
    else:
        st["phase"] = "PENDING"
    if ctl.get("sync_status"):
        st["cmfSync"]["status"] = ctl["sync_status"]
        st["cmfSync"]["errorMessage"] = ctl.get("sync_error", "")
        st["phase"] = "PENDING"
        del st["cfkInternalState"]
    return st


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.stderr.write("usage: cfk-standin-status.py NAMESPACE CONTROL-FILE -- KUBECTL-ARGV...\n")
        return 2
    ns, ctl_path, argv = sys.argv[1], sys.argv[2], sys.argv[4:]
    parent = os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    say("started in namespace %s (STANDS IN FOR CFK: no CFK or CMF runs here)" % ns)
    while os.getppid() == parent:
        ctl = control(ctl_path)
        r = kubectl(argv, "get", "--namespace=" + ns, "--output=json", "--",
                    "flinkcomputepools,flinkstatements")
        if r.returncode != 0:
            say("list failed: " + r.stderr.strip()[:300])
            time.sleep(1)
            continue
        for obj in json.loads(r.stdout).get("items", []):
            md = obj["metadata"]
            if md.get("deletionTimestamp"):
                continue
            if (obj.get("status") or {}).get("observedGeneration") == md.get("generation"):
                continue
            st = status_for(obj, ctl)
            w = kubectl(argv, "patch", "--namespace=" + ns, "--subresource=status",
                        "--type=merge", "--field-manager=" + MANAGER,
                        "--patch=" + json.dumps({"status": st}), "--",
                        obj["kind"].lower(), md["name"])
            line = "%s %s/%s generation %s: phase %s, cmfSync %s, spec.stopped %s" % (
                obj["kind"], ns, md["name"], md.get("generation"), st["phase"],
                st["cmfSync"]["status"], json.dumps((obj.get("spec") or {}).get("stopped", False)))
            if w.returncode == 0:
                say("wrote status of " + line)
            else:
                say("status of %s refused: %s" % (line, w.stderr.strip()[:300]))
        time.sleep(0.25)
    say("its parent ended; stopping")
    return 0


if __name__ == "__main__":
    sys.exit(main())
