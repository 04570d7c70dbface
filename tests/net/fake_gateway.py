#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fake_gateway.py - a FAKE Flink SQL Gateway (REST API v2), for the tests
of fluid-gateway's client (tests/bats/fluid-gateway.bats).  It is not
Flink's gateway (the live lane runs that, tests/live): it answers the
requests fluid-gateway makes, the way Flink 1.20.1's gateway shapes them,
runs nothing, and misbehaves on request so that the error paths can be
seen.

  fake_gateway.py --dir DIR [--reject TEXT] [--hang TEXT] [--polls N]
                  [--job-late] [--no-job] [--open-status N]
                  [--slow-pages S] [--session-handle TEXT] [--job-id TEXT]

It listens on 127.0.0.1 (a free port) and writes DIR/port when it does;
it appends one JSON line per request to DIR/requests.log:
{"method", "path", "statement"} (statement: the posted SQL, if any).

--reject TEXT: a statement containing TEXT ends in ERROR, and its result
is a 500 whose errors carry a Java exception chain with stack frames,
as Flink's do (the message names the TEXT).
--hang TEXT: a statement containing TEXT stays RUNNING for ever.
--polls N: every other statement is RUNNING for N status reads (default 2).
--job-late: an INSERT's first result page is NOT_READY, the job id on the
next (fluid must follow nextResultUri).
--no-job: an INSERT's result carries no job id.
--open-status N: POST /v2/sessions answers status N.
--slow-pages S: a slow pager: every result page of an INSERT takes S
seconds and is NOT_READY with a nextResultUri, for ever (no job id).
--session-handle TEXT: the session's handle is TEXT (a hostile gateway).
--job-id TEXT: an INSERT's job id is TEXT (control characters, escapes).
GET /v2/sessions/S answers 200 while S is open, and Flink's 500 after it
is closed, so that a test can see the session is gone.
"""
import argparse
import json
import os
import re
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
SESSIONS = {}      # handle -> "open" | "closed"
OPS = {}           # (session, op) -> {"statement", "polls"}


def trace(msg):
    """A 1.20-style exception chain: wrappers, frames, the cause."""
    return (
        "org.apache.flink.table.gateway.api.utils.SqlGatewayException: "
        "org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n"
        "\tat org.apache.flink.table.gateway.rest.handler.statement.FetchResultsHandler.handleRequest(FetchResultsHandler.java:91)\n"
        "\tat org.apache.flink.runtime.rest.handler.AbstractHandler.respondAsLeader(AbstractHandler.java:196)\n"
        "Caused by: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n"
        "\tat org.apache.flink.table.gateway.service.SqlGatewayServiceImpl.fetchResults(SqlGatewayServiceImpl.java:231)\n"
        "\t... 48 more\n"
        "Caused by: org.apache.flink.table.gateway.service.utils.SqlExecutionException: "
        "Failed to execute the operation 0c4e3f7e-5b1c-4a0e-9d42-1f8a6f4b2c11.\n"
        "\tat org.apache.flink.table.gateway.service.operation.OperationManager$Operation.processThrowable(OperationManager.java:414)\n"
        "\t... 7 more\n"
        "Caused by: org.apache.flink.table.api.ValidationException: " + msg + "\n"
        "\tat org.apache.flink.table.planner.operations.SqlNodeConvertUtils.validateAlterTable(SqlNodeConvertUtils.java:52)\n"
        "\tat java.base/java.lang.Thread.run(Thread.java:840)\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def record(self, statement=None):
        line = {"method": self.command, "path": self.path}
        if statement is not None:
            line["statement"] = statement
        with LOCK, open(os.path.join(A.dir, "requests.log"), "a") as fh:
            fh.write(json.dumps(line) + "\n")

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def gone(self, s):
        self.send(404, {"errors": [f"Session '{s}' does not exist."]})

    def do_GET(self):
        self.record()
        p = self.path.split("?")[0]
        if p == "/v2/info":
            return self.send(200, {"productName": "Apache Flink", "version": "1.20.1"})
        m = re.fullmatch(r"/v2/sessions/([^/]+)", p)
        if m:
            if SESSIONS.get(m[1]) == "open":
                return self.send(200, {"properties": {"execution.target": "remote"}})
            return self.send(500, {"errors": ["Internal server error.",
                             f"org.apache.flink.table.gateway.api.utils.SqlGatewayException: "
                             f"Session '{m[1]}' does not exist.\n\tat x.y.Z.f(Z.java:1)"]})
        m = re.fullmatch(r"/v2/sessions/([^/]+)/operations/([^/]+)/(status|result/(\d+))", p)
        if not m:
            return self.send(404, {"errors": ["Not found: " + p]})
        s, o = m[1], m[2]
        if SESSIONS.get(s) != "open":
            return self.gone(s)
        op = OPS.get((s, o))
        if op is None:
            return self.send(404, {"errors": [f"Can not find the submitted operation {o}."]})
        st = op["statement"]
        if m[3] == "status":
            if A.hang and A.hang in st:
                return self.send(200, {"status": "RUNNING"})
            if op["polls"] < A.polls:
                op["polls"] += 1
                return self.send(200, {"status": "RUNNING"})
            return self.send(200, {"status": "ERROR" if A.reject and A.reject in st else "FINISHED"})
        token = int(m[4])
        if A.reject and A.reject in st:
            # As Flink 1.20.1's REST handler sends it: the chain framed.
            return self.send(500, {"errors": ["Internal server error.",
                                              "<Exception on server side:\n" +
                                              trace(f"Object '{A.reject}' not found") +
                                              "\nEnd of exception on server side>"]})
        job = re.match(r"\s*(INSERT|EXECUTE)\b", st, re.I) is not None
        nxt = f"/v2/sessions/{s}/operations/{o}/result/{token + 1}?rowFormat=JSON"
        if job and A.slow_pages is not None:
            time.sleep(A.slow_pages)
            return self.send(200, {"resultType": "NOT_READY", "nextResultUri": nxt})
        if token >= 2 or (token == 1 and not (job and A.job_late)):
            return self.send(200, {"resultType": "EOS", "isQueryResult": False,
                                   "resultKind": "SUCCESS", "results": {"columns": [], "data": []}})
        if job and A.job_late and token == 0:
            return self.send(200, {"resultType": "NOT_READY", "nextResultUri": nxt})
        if job:
            jid = A.job_id if A.job_id is not None else uuid.uuid5(uuid.NAMESPACE_URL, o).hex
            res = {"resultType": "PAYLOAD", "isQueryResult": False,
                   "resultKind": "SUCCESS_WITH_CONTENT",
                   "results": {"columns": [{"name": "job id", "logicalType": {
                       "type": "VARCHAR", "nullable": True, "length": 2147483647}}],
                       "rowFormat": "JSON", "data": [{"kind": "INSERT", "fields": [jid]}]},
                   "nextResultUri": nxt}
            if A.no_job:
                res["results"] = {"columns": [], "data": []}
            else:
                res["jobID"] = jid
            return self.send(200, res)
        return self.send(200, {"resultType": "PAYLOAD", "isQueryResult": False,
                               "resultKind": "SUCCESS",
                               "results": {"columns": [{"name": "result"}], "rowFormat": "JSON",
                                           "data": [{"kind": "INSERT", "fields": ["OK"]}]},
                               "nextResultUri": nxt})

    def do_POST(self):
        raw = self.body()
        p = self.path.split("?")[0]
        if p == "/v2/sessions":
            self.record()
            if A.open_status != 200:
                return self.send(A.open_status, {"errors": ["Internal server error."]})
            h = A.session_handle if A.session_handle is not None else str(uuid.uuid4())
            SESSIONS[h] = "open"
            return self.send(200, {"sessionHandle": h})
        m = re.fullmatch(r"/v2/sessions/([^/]+)/statements", p)
        if not m:
            self.record()
            return self.send(404, {"errors": ["Not found: " + p]})
        try:
            st = json.loads(raw)["statement"]
        except (ValueError, KeyError, TypeError):
            self.record()
            return self.send(400, {"errors": ["Bad request: no statement"]})
        self.record(st)
        if SESSIONS.get(m[1]) != "open":
            return self.gone(m[1])
        o = str(uuid.uuid4())
        OPS[(m[1], o)] = {"statement": st, "polls": 0}
        return self.send(200, {"operationHandle": o})

    def do_DELETE(self):
        self.record()
        m = re.fullmatch(r"/v2/sessions/([^/]+)", self.path)
        if not m or SESSIONS.get(m[1]) != "open":
            return self.gone(m[1] if m else "?")
        SESSIONS[m[1]] = "closed"
        return self.send(200, {"status": "CLOSED"})


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--reject")
    ap.add_argument("--hang")
    ap.add_argument("--polls", type=int, default=2)
    ap.add_argument("--job-late", action="store_true")
    ap.add_argument("--no-job", action="store_true")
    ap.add_argument("--open-status", type=int, default=200)
    ap.add_argument("--slow-pages", type=float)
    ap.add_argument("--session-handle")
    ap.add_argument("--job-id")
    A = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    tmp = os.path.join(A.dir, "port.tmp")
    with open(tmp, "w") as fh:
        fh.write(str(srv.server_address[1]))
    os.rename(tmp, os.path.join(A.dir, "port"))
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
