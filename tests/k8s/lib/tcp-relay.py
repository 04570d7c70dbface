# SPDX-License-Identifier: Apache-2.0
"""tests/k8s/lib/tcp-relay.py - a TLS-terminating TCP relay for the
lifecycle check (checks/60-operator-stream.sh): bytes copied both ways,
nothing read or changed.

  tcp-relay.py LISTEN_HOST LISTEN_PORT TARGET_HOST TARGET_PORT [CERT KEY]

With CERT and KEY it terminates TLS in front of the Iceberg REST catalog
(plain http in the lane), so that fluid verify can send a credential,
which it sends over https only; without them it relays plain TCP.

Prints "relay: listening" once it accepts connections.
"""
import socket
import ssl
import sys
import threading


def pump(src, dst):
    try:
        while True:
            b = src.recv(65536)
            if not b:
                break
            dst.sendall(b)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(conn, target, ctx):
    try:
        if ctx is not None:
            conn = ctx.wrap_socket(conn, server_side=True)
        up = socket.create_connection(target, timeout=10)
        up.settimeout(None)
    except OSError:
        conn.close()
        return
    threading.Thread(target=pump, args=(conn, up), daemon=True).start()
    pump(up, conn)


def main():
    host, port, thost, tport = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    ctx = None
    if len(sys.argv) == 7:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(sys.argv[5], sys.argv[6])
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((host, port))
    ls.listen(64)
    print(f"relay: listening on {host}:{port} for {thost}:{tport}" + (" (TLS)" if ctx else ""), flush=True)
    while True:
        c, _ = ls.accept()
        threading.Thread(target=serve, args=(c, (thost, tport), ctx), daemon=True).start()


if __name__ == "__main__":
    main()
