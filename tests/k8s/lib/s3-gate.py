# SPDX-License-Identifier: Apache-2.0
"""s3-gate.py - an HTTP relay in front of the lane's moto S3 that can make
one key prefix unwritable, for the failed-savepoint check
(checks/60-operator-stream.sh).

  s3-gate.py LISTEN_HOST LISTEN_PORT UPSTREAM_URL DENY_FILE

Every request is relayed to UPSTREAM_URL as it came (path-style S3).
While DENY_FILE exists, holding a path prefix such as
/flink-state/NAME/savepoints/, a PUT or POST under that prefix is answered
403 AccessDenied (an S3 error document) and never reaches the upstream:
the location is unwritable, the rest of the bucket works.
"""
import http.client
import http.server
import os
import sys
import urllib.parse

HOST, PORT, UP, DENY = sys.argv[1], int(sys.argv[2]), urllib.parse.urlsplit(sys.argv[3]), sys.argv[4]
HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"}


def denied(method, path):
    if method not in ("PUT", "POST"):
        return False
    try:
        prefix = open(DENY).read().strip()
    except OSError:
        return False
    return bool(prefix) and urllib.parse.unquote(path).startswith(prefix)


class Relay(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def relay(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else None
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            body = b"".join(chunks)
        if denied(self.command, self.path):
            msg = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code>'
                   b"<Message>Access Denied (the lane made this location unwritable)</Message></Error>")
            print(f"s3-gate: denied {self.command} {self.path}", flush=True)
            self.send_response(403)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(msg)))
            self.end_headers()
            self.wfile.write(msg)
            return
        c = http.client.HTTPConnection(UP.hostname, UP.port, timeout=120)
        hdrs = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        if body is not None:
            hdrs["Content-Length"] = str(len(body))
        c.request(self.command, self.path, body=body, headers=hdrs)
        r = c.getresponse()
        data = r.read()
        self.send_response(r.status, r.reason)
        for k, v in r.getheaders():
            if k.lower() not in HOP and (k.lower() != "content-length" or self.command == "HEAD"):
                self.send_header(k, v)
        if self.command != "HEAD":
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        c.close()

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = relay


http.server.ThreadingHTTPServer((HOST, PORT), Relay).serve_forever()
