# SPDX-License-Identifier: Apache-2.0
"""The live lane's check of fluid verify: after the examples' tables are
committed (check "examples"), fluid verify reads the real Iceberg REST
catalog of the lane and

  - passes on the landed example (schema equal, a young snapshot);
  - fails, naming the nested field, on the drift table whose
    customer.address.country is another type (check "refused" made it,
    and the runner refused to write to it, so it has no snapshot either);
  - fails with "no snapshot is young enough" when the landed example's
    maxSnapshotAgeSeconds is 1 s and its last commit is older;
  - passes on the landed example with catalogAuth oauth2: the client
    credentials are exchanged at the REST catalog's own token route
    (/v1/oauth/tokens) and the token it returns reads the table, all over
    TLS (fluid sends a credential over https only): a TLS relay of this
    check, with a CA of its own (FLUID_CA_BUNDLE), in front of the lane's
    plain-http catalog.

No output, report or log of these runs may hold the lane's token value,
the client secret or the token the catalog returned.

  verify_check.py --fluid FLUID --run RUN_DIR         (run the check)

prepare.py calls append_plan() to add the check to the harness's plan.
The FlinkDeployment and checkpoint pieces need a Kubernetes API server,
which this lane has not (the context "development" is nowhere): they are
warnings here.  tests/k8s/checks/60-operator-stream.sh reads them for real.
"""
import argparse
import json
import os
import re
import secrets
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

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


def verify(fluid, contract, out, logs, name, extra_env=None):
    env = dict(os.environ, **ALLOW, **(extra_env or {}))
    p = subprocess.run([fluid, "verify", contract, "--streaming-timeout", "0", "--out", out],
                       capture_output=True, text=True, timeout=120, env=env)
    with open(os.path.join(logs, f"verify-{name}.log"), "w") as fh:
        fh.write(f"$ fluid verify {contract} --streaming-timeout 0 --out {out}\n"
                 f"exit {p.returncode}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr}")
    return p


def tls_relay(vdir, target_port):
    """A TLS relay on 127.0.0.1 (a free port) to the catalog's target_port,
    its certificate for IP:127.0.0.1 from a CA made here; (port, CA file)."""
    d = os.path.join(vdir, "tls")
    os.makedirs(d, exist_ok=True)
    run = lambda *a: subprocess.run(a, check=True, capture_output=True, timeout=60)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    run("openssl", "req", "-x509", *ec, "-days", "1", "-subj", "/CN=verify-check-ca",
        "-keyout", f"{d}/ca.key", "-out", f"{d}/ca.crt",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    run("openssl", "req", *ec, "-subj", "/CN=127.0.0.1", "-keyout", f"{d}/srv.key", "-out", f"{d}/srv.csr")
    with open(f"{d}/ext", "w") as fh:
        fh.write("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    run("openssl", "x509", "-req", "-in", f"{d}/srv.csr", "-CA", f"{d}/ca.crt", "-CAkey", f"{d}/ca.key",
        "-CAcreateserial", "-days", "1", "-extfile", f"{d}/ext", "-out", f"{d}/srv.crt")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(f"{d}/srv.crt", f"{d}/srv.key")
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)

    def pump(a, b):
        try:
            while True:
                buf = a.recv(65536)
                if not buf:
                    break
                b.sendall(buf)
        except OSError:
            pass
        finally:
            for s_ in (a, b):
                try:
                    s_.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def serve(c):
        try:
            c = ctx.wrap_socket(c, server_side=True)
            up = socket.create_connection(("127.0.0.1", target_port), timeout=10)
            up.settimeout(None)
        except OSError:
            c.close()
            return
        threading.Thread(target=pump, args=(c, up), daemon=True).start()
        pump(up, c)

    def accept():
        while True:
            c, _ = ls.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return ls.getsockname()[1], f"{d}/ca.crt"


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

    # 4. OAuth2 client credentials at the REST catalog's own token route,
    #    through TLS; the landed example passes with the token it returns.
    port, ca = tls_relay(vdir, 8181)
    base = f"https://127.0.0.1:{port}"
    secret = "verify-check-" + secrets.token_hex(12)
    with open(landed) as fh:
        text = fh.read()
    text = text.replace("uri: http://127.0.0.1:8181", f"uri: {base}")
    text = re.sub(r"^( *)catalogProperties:.*$", lambda m: m.group(0) + "\n" + m.group(1) +
                  "catalogAuth: {type: oauth2, credentialEnv: LIVE_CATALOG_CREDENTIAL, "
                  f'oauth2ServerUri: "{base}/v1/oauth/tokens", scope: catalog}}', text, flags=re.M)
    oauth = os.path.join(ex, "landed", "orders-landed-oauth2.fluid.yaml")
    with open(oauth, "w") as fh:
        fh.write(text)
    # What the token route gives this client: it must not be shown either.
    req = urllib.request.Request(f"{base}/v1/oauth/tokens", data=urllib.parse.urlencode({
        "grant_type": "client_credentials", "client_id": "live-client", "client_secret": secret,
        "scope": "catalog"}).encode())
    with urllib.request.urlopen(req, context=ssl.create_default_context(cafile=ca), timeout=30) as r:
        catalog_token = json.load(r)["access_token"]
    out = os.path.join(vdir, "oauth2.delivery.json")
    p = verify(a.fluid, oauth, out, logs, "oauth2", {
        "LIVE_CATALOG_CREDENTIAL": f"live-client:{secret}", "FLUID_CA_BUNDLE": ca})
    expect(p.returncode == 0 and "land-orders: catalog-schema: pass" in p.stdout and
           "land-orders: catalog-snapshot: pass" in p.stdout,
           "fluid verify with OAuth2 through TLS did not pass", p)
    ev = {e["evidence"]: e for e in json.load(open(out))["builds"][0]["evidence"]}
    expect(ev["catalog-schema"]["endpoint"].startswith(base + "/v1/"),
           "the table was not read through TLS: " + json.dumps(ev["catalog-schema"]), p)
    # A wrong CA: the certificate is refused, nothing is sent.
    p = verify(a.fluid, oauth, os.path.join(vdir, "oauth2-noca.delivery.json"), logs, "oauth2-noca", {
        "LIVE_CATALOG_CREDENTIAL": f"live-client:{secret}"})
    expect(p.returncode == 1 and "TLS" in p.stderr, "a certificate of an unknown CA was accepted", p)

    # 5. No token, client secret or returned token in any output, report
    #    or log of these runs (the lane's logs included).
    for value, what, every in ((os.environ.get("ICEBERG_TOKEN", ""), "the token", False),
                               (secret, "the client secret", True),
                               (catalog_token, "the catalog's token", True)):
        if not value:
            continue
        for dirpath in (vdir, logs):
            for f in os.listdir(dirpath):
                path = os.path.join(dirpath, f)
                # The lane's token is set in every process's environment:
                # only fluid's own outputs are read for it.
                if os.path.isfile(path) and (every or dirpath == vdir or f.startswith("verify-")):
                    with open(path, errors="replace") as fh:
                        expect(value not in fh.read(), f"{f} holds {what}", p)
    print("verify check: landed passes, with a bearer and with OAuth2 at the catalog's token route "
          "over TLS; another schema and an old snapshot fail with their reasons")
    return 0


if __name__ == "__main__":
    sys.exit(main())
