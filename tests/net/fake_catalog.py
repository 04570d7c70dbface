#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fake_catalog.py - a FAKE Iceberg REST catalog over TLS, for the tests of
fluid verify's HTTP client (tests/bats/fluid-verify.bats).  It is not the
Iceberg reference server (the live lane runs that, tests/live): it answers
the two reads fluid verify makes, GET /v1/config and GET
/v1/{prefix}/namespaces/{ns}/tables/{table}, plus an OAuth2 token route,
and misbehaves on request so that the error paths can be seen.

  fake_catalog.py --dir DIR [--mode MODE] [--drift WHAT] [--age S]
                  [--token T] [--client ID:SECRET] [--no-auth]

DIR holds cert.pem and key.pem (made by the test with openssl); the fake
writes DIR/port when it listens (127.0.0.1, a free port) and appends one
line per request to DIR/requests.log: "METHOD PATH auth=yes|no
token-ok=yes|no" (never the header's value).  --no-auth: a catalog that
asks for no credential (a CFK build has none), every read answered.

MODE: ok (default); 401 (every request); 500-once, 503-once (the first
table read fails with that status, later ones succeed); slow (the table
read answers after 5 s); huge (the table read sends 17 MiB).
--drift type: customer.address.country is an int in the table;
--drift order: customer.address's two fields are swapped.
--age S: the current snapshot was committed S seconds ago; -1: no
snapshot at all.
"""
import argparse
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def opt(i, name, t):
    return {"id": i, "name": name, "required": False, "type": t}


def req(i, name, t):
    return {"id": i, "name": name, "required": True, "type": t}


def schema(drift):
    """examples/shapes/landed's table, written the way Iceberg writes it."""
    address = [opt(10, "city", "string"), opt(11, "country", "string")]
    if drift == "type":
        address[1] = opt(11, "country", "int")
    if drift == "order":
        address.reverse()
    fields = [
        opt(1, "order_key", "string"),
        req(2, "event_id", "string"),
        opt(3, "customer", {"type": "struct", "fields": [
            opt(8, "id", "string"),
            opt(9, "address", {"type": "struct", "fields": address})]}),
        opt(4, "items", {"type": "list", "element-id": 12, "element-required": False,
                         "element": {"type": "struct", "fields": [
                             opt(13, "sku", "string"), opt(14, "quantity", "int"),
                             opt(15, "price", "decimal(18, 2)")]}}),
        opt(5, "attributes", {"type": "map", "key-id": 16, "key": "string",
                              "value-id": 17, "value-required": False, "value": "string"}),
        opt(6, "event_time", "timestamptz"),
        req(7, "kafka_partition", "int"),
        req(18, "kafka_offset", "long"),
        req(19, "kafka_timestamp", "timestamptz"),
    ]
    return {"type": "struct", "schema-id": 0, "fields": fields}


class Fake(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def record(self):
        a = self.server.args
        auth = self.headers.get("Authorization")
        ok = auth == "Bearer " + a.token or (a.no_auth and auth is None)
        with open(os.path.join(a.dir, "requests.log"), "a") as f:
            f.write(f"{self.command} {self.path} auth={'yes' if auth else 'no'} "
                    f"token-ok={'yes' if ok else 'no'}\n")
        return ok

    def do_POST(self):
        a = self.server.args
        self.record()
        n = int(self.headers.get("Content-Length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(n).decode())
        if not self.path.endswith("/v1/oauth/tokens"):
            return self.send_json(404, {"error": {"message": "no such route"}})
        cid, _, secret = a.client.partition(":")
        if (form.get("grant_type") != ["client_credentials"] or
                form.get("client_id") != [cid] or form.get("client_secret") != [secret]):
            # Echoes what it was sent: fluid must scrub it from its message.
            return self.send_json(401, {"error": "invalid_client",
                                        "error_description": "bad client " +
                                        ",".join(form.get("client_secret", []))})
        self.send_json(200, {"access_token": a.token, "token_type": "bearer",
                             "expires_in": 3600, "issued_token_type":
                             "urn:ietf:params:oauth:token-type:access_token"})

    def do_GET(self):
        a = self.server.args
        ok = self.record()
        path = urllib.parse.urlparse(self.path).path
        if a.mode == "401" or not ok:
            # Echoes the header: fluid must not print what a server says back.
            return self.send_json(401, {"error": {"message": "Not authorized: " +
                                                  (self.headers.get("Authorization") or ""),
                                                  "type": "NotAuthorizedException", "code": 401}})
        if path.endswith("/v1/config"):
            return self.send_json(200, {"defaults": {}, "overrides": {"prefix": "wh1"},
                                        "endpoints": []})
        if path != "/api/catalog/v1/wh1/namespaces/commerce/tables/orders_landed":
            return self.send_json(404, {"error": {"message": "Table does not exist: " + path,
                                                  "type": "NoSuchTableException", "code": 404}})
        with self.server.lock:
            self.server.table_reads += 1
            first = self.server.table_reads == 1
        if a.mode in ("500-once", "503-once") and first:
            return self.send_json(int(a.mode[:3]), {"error": {"message": "try later",
                                                             "type": "ServerError", "code": 500}})
        if a.mode == "slow":
            time.sleep(5)
        if a.mode == "huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b" " * 65536
            try:
                for _ in range(17 * 16):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        now = int(time.time() * 1000)
        snaps = []
        cur = -1
        if a.age >= 0:
            cur = 7001
            snaps = [{"snapshot-id": 7000, "timestamp-ms": now - a.age * 1000 - 60000,
                      "summary": {"operation": "append"}, "schema-id": 0},
                     {"snapshot-id": 7001, "parent-snapshot-id": 7000,
                      "timestamp-ms": now - a.age * 1000,
                      "summary": {"operation": "append"}, "schema-id": 0}]
        md = {"format-version": 2, "table-uuid": "00000000-0000-0000-0000-000000000001",
              "location": "s3://lake/warehouse/commerce/orders_landed",
              "current-schema-id": 0, "schemas": [schema(a.drift)],
              "current-snapshot-id": cur, "snapshots": snaps}
        self.send_json(200, {"metadata-location": "s3://x/metadata/1.json",
                             "metadata": md, "config": {}})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--mode", default="ok")
    ap.add_argument("--drift", default="")
    ap.add_argument("--age", type=int, default=10)
    ap.add_argument("--token", default="fake-token-Zq81")
    ap.add_argument("--client", default="fluid-client:fake-secret-Wx92")
    ap.add_argument("--no-auth", action="store_true")
    a = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Fake)
    srv.daemon_threads = True
    srv.args = a
    srv.lock = threading.Lock()
    srv.table_reads = 0
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(a.dir, "cert.pem"), os.path.join(a.dir, "key.pem"))
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    tmp = os.path.join(a.dir, "port.tmp")
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, os.path.join(a.dir, "port"))
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
