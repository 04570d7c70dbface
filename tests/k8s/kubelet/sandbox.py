#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""sandbox - a Pod's sandbox for the process kubelet (a STAND-IN for the
kubelet and the container runtime).  The daemon runs it as

    unshare --net --uts --mount --propagation private -- python3 sandbox.py SPEC.json

so it starts in the Pod's own network, UTS and mount namespaces.  It sets
the hostname (the Pod's name), builds the Pod's root in its own mount
namespace and chroots there, prints "ready", and then only holds the
namespaces (a pause process) until it is signalled.  The containers enter
its namespaces and root with nsenter.

The root (a tmpfs, so nothing is created on the machine's filesystems):
/usr /etc /bin /sbin /lib* bound read-only from the machine (symlinks kept
as symlinks), /dev /proc /sys bound, /tmp and /root the Pod's own, the
image directory at /opt/flink through an overlay (the Pod's writes, mount
points included, go to its own upper directory), /etc/hosts the Pod's
hosts file (rewritten in place by the daemon), the launcher at
/run/process-kubelet, then each volume mount at its path.
"""

import json
import os
import signal
import socket
import subprocess
import sys

MACHINE_DIRS = ["usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32"]


def mount(*args):
    r = subprocess.run(["mount"] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise OSError(f"mount {' '.join(args)}: {r.stdout.strip()}")


def bind(src, dst, ro=False, recursive=False):
    mount("--rbind" if recursive else "--bind", src, dst)
    if ro:
        mount("-o", "remount,bind,ro", dst)


def target(root, path, is_file):
    """Make the mount point root+path (a directory, or an empty file)."""
    full = root + path
    if is_file:
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if not os.path.exists(full):
            open(full, "w").close()
    else:
        os.makedirs(full, exist_ok=True)
    return full


def build(spec):
    root = spec["root"]
    mount("-t", "tmpfs", "-o", "mode=0755", "pod-root", root)
    for d in MACHINE_DIRS:
        src = "/" + d
        if os.path.islink(src):
            os.symlink(os.readlink(src), os.path.join(root, d))
        elif os.path.isdir(src):
            os.mkdir(os.path.join(root, d))
            bind(src, os.path.join(root, d), ro=True, recursive=True)
    for d in ("dev", "proc", "sys"):
        os.mkdir(os.path.join(root, d))
        bind("/" + d, os.path.join(root, d), recursive=True)
    for d in ("tmp", "root", "run", "var/run", "var/tmp", "opt/flink", "run/process-kubelet"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    os.chmod(os.path.join(root, "tmp"), 0o1777)
    bind(spec["tmp"], os.path.join(root, "tmp"))
    mount("-t", "overlay", "-o",
          f"lowerdir={spec['image']},upperdir={spec['upper']},workdir={spec['work']}",
          "pod-image", os.path.join(root, "opt/flink"))
    bind(spec["hosts"], os.path.join(root, "etc/hosts"))
    if os.path.exists("/etc/hostname"):
        bind(spec["hostname_file"], os.path.join(root, "etc/hostname"))
    bind(spec["launcher"], os.path.join(root, "run/process-kubelet"), ro=True)
    for d in spec.get("dirs", []):
        target(root, d, False)
    for m in spec["mounts"]:
        is_file = os.path.isfile(m["src"])
        bind(m["src"], target(root, m["path"], is_file), ro=m["ro"])


def main(argv):
    with open(argv[0], encoding="utf-8") as f:
        spec = json.load(f)
    try:
        socket.sethostname(spec["hostname"])
        build(spec)
        os.chroot(spec["root"])
        os.chdir("/")
    except OSError as e:
        print(f"sandbox (process kubelet, standing in for the container runtime): {e}", flush=True)
        return 1
    print("ready", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        signal.pause()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
