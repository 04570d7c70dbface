#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""stand_in_kubelet - the process kubelet: a STAND-IN FOR THE KUBELET AND THE
CONTAINER RUNTIME of the Kubernetes lane (never for the operator, which is
real).  No image can be pulled here, so it runs each Pod bound to its Node
as local processes in the Pod's own network, UTS and mount namespaces,
with "the image" a directory at /opt/flink.  See README.md in this
directory; start.sh is the interface the lane uses.

It talks to the API server over HTTPS with the kubeconfig's client
certificate (read with `kubectl config view --raw`), and polls (every
--tick seconds) rather than watches: the Pods bound to its Node, the
ConfigMaps and Secrets they read, the Endpoints of every Service.
"""

import argparse
import base64
import datetime
import hashlib
import http.client
import ipaddress
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, HERE)
import podplan  # noqa: E402

UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
WHO = "process kubelet (stands in for the kubelet and container runtime)"


def log(msg):
    print(f"{datetime.datetime.now().strftime('%H:%M:%S.%f')[:-3]} {WHO}: {msg}", flush=True)


def now_rfc3339():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body[:300]}")
        self.status = status


class Api:
    """The API server, as the kubeconfig's context names it."""

    def __init__(self, kubectl, kubeconfig, context, pki_dir):
        out = subprocess.run([kubectl, "--kubeconfig", kubeconfig, "--context", context, "config", "view",
                              "--raw", "--minify", "-o", "json"], check=True, stdout=subprocess.PIPE,
                             text=True, timeout=30).stdout
        cfg = json.loads(out)
        cluster = cfg["clusters"][0]["cluster"]
        user = cfg["users"][0]["user"]
        u = urllib.parse.urlsplit(cluster["server"])
        self.host, self.port = u.hostname, u.port or 443
        os.makedirs(pki_dir, mode=0o700, exist_ok=True)
        self.ctx = ssl.create_default_context()

        def material(data_key, file_key, name):
            if user.get(data_key) or cluster.get(data_key):
                path = os.path.join(pki_dir, name)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(base64.b64decode(user.get(data_key) or cluster.get(data_key)))
                return path
            return user.get(file_key) or cluster.get(file_key)

        self.ctx.load_verify_locations(material("certificate-authority-data", "certificate-authority", "ca.crt"))
        self.ctx.load_cert_chain(material("client-certificate-data", "client-certificate", "client.crt"),
                                 material("client-key-data", "client-key", "client.key"))

    def call(self, method, path, body=None, ctype="application/json", ok=(200, 201)):
        conn = http.client.HTTPSConnection(self.host, self.port, context=self.ctx, timeout=15)
        try:
            data = json.dumps(body).encode() if body is not None else None
            headers = {"Accept": "application/json"}
            if data is not None:
                headers["Content-Type"] = ctype
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
        finally:
            conn.close()
        if r.status not in ok:
            raise ApiError(r.status, text)
        return json.loads(text) if text else {}

    def get(self, path):
        return self.call("GET", path)

    def get_or_none(self, path):
        try:
            return self.get(path)
        except ApiError as e:
            if e.status == 404:
                return None
            raise

    def merge_patch(self, path, body):
        return self.call("PATCH", path, body, ctype="application/merge-patch+json")


def sh(*argv, check=True):
    r = subprocess.run(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30)
    if check and r.returncode != 0:
        raise OSError(f"{' '.join(argv)}: {r.stdout.strip()}")
    return r.stdout


def write_in_place(path, text):
    """Rewrite a file keeping its inode: it is bind-mounted (a Pod's
    /etc/hosts, the lane's), and a rename would leave the mounts on the
    old file."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    with os.fdopen(fd, "w") as f:
        f.write(text)


class Container:
    def __init__(self, spec, plan):
        self.spec = spec
        self.plan = plan
        self.name = spec["name"]
        self.proc = None
        self.restarts = 0          # restartCount, as reported
        self.failures = 0          # for the back-off schedule
        self.started_at = None
        self.last_term = None
        self.term = None           # terminated for good (no restart)
        self.backoff_until = 0.0
        self.ready = False
        self.started = False       # the startup probe passed (or none)
        self.probe_next = 0.0
        self.probe_fails = 0
        self.t_start = 0.0


class PodRT:
    """One Pod as the stand-in runs it: sandbox, address, containers."""

    def __init__(self, pod):
        md = pod["metadata"]
        self.uid, self.ns, self.name = md["uid"], md["namespace"], md["name"]
        self.pod = pod
        self.ip = None
        self.sandbox = None
        self.containers = []
        self.init = []
        self.init_index = 0
        self.waiting = ("ContainerCreating", "")
        self.stopping_until = None
        self.done = False
        self.sent = None
        self.conds = {}
        self.started_at = now_rfc3339()
        self.plan_next = 0.0


class Kubelet:
    def __init__(self, a):
        self.a = a
        self.state = a.state_dir
        os.makedirs(self.state, exist_ok=True)
        os.makedirs(a.log_dir, exist_ok=True)
        self.api = Api(a.kubectl, a.kubeconfig, a.context, os.path.join(self.state, "pki"))
        self.pods = {}
        self.taken = set()
        self.net = ipaddress.ip_network(a.pod_cidr, strict=True)
        self.bridge_ip = self.read_bridge_ip()
        self.taken.add(self.bridge_ip)
        api_port = self.api.port
        self.api_addr = a.api_addr or f"{self.bridge_ip}:{api_port}"
        self.hosts_text = None
        self.endpoints = []
        self.next_heartbeat = 0.0
        self.next_hosts = 0.0
        self.stop = False
        cpu = a.cpu
        self.alloc = {"cpu": cpu, "memory": a.memory, "pods": "110", "ephemeral-storage": "100Gi"}

    # --- the node -----------------------------------------------------------------------
    def read_bridge_ip(self):
        info = json.loads(sh("ip", "-j", "-4", "addr", "show", "dev", self.a.bridge))
        for link in info:
            for ai in link.get("addr_info", []):
                ip = ipaddress.ip_address(ai["local"])
                if ip in self.net:
                    return str(ip)
        raise SystemExit(f"{WHO}: the bridge {self.a.bridge} has no address in {self.a.pod_cidr}")

    def node_status(self, ready=True, why="the process kubelet is running Pods"):
        t = now_rfc3339()
        cond = [{"type": k, "status": "False", "reason": f"KubeletHasSufficient{k[:-8]}" if k != "PIDPressure"
                 else "KubeletHasSufficientPID", "message": "not measured by the stand-in",
                 "lastHeartbeatTime": t, "lastTransitionTime": self.started}
                for k in ("MemoryPressure", "DiskPressure", "PIDPressure")]
        cond.append({"type": "Ready", "status": "True" if ready else "False",
                     "reason": "KubeletReady" if ready else "KubeletNotReady",
                     "message": f"{WHO}: {why}", "lastHeartbeatTime": t, "lastTransitionTime": t
                     if not ready else self.started})
        un = os.uname()
        return {"status": {
            "conditions": cond,
            "addresses": [{"type": "InternalIP", "address": self.bridge_ip},
                          {"type": "Hostname", "address": self.a.node}],
            "capacity": self.alloc, "allocatable": self.alloc,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 0}},
            "nodeInfo": {"machineID": "process-kubelet", "systemUUID": "process-kubelet",
                         "bootID": "process-kubelet", "kernelVersion": un.release,
                         "osImage": "the machine's (process kubelet: no container images)",
                         "containerRuntimeVersion": "process-kubelet://stand-in",
                         "kubeletVersion": "v1.34.4-process-kubelet-stand-in", "kubeProxyVersion": "",
                         "operatingSystem": "linux", "architecture": "amd64"}}}

    def register(self):
        self.started = now_rfc3339()
        node = {"apiVersion": "v1", "kind": "Node", "metadata": {
            "name": self.a.node,
            "labels": {"kubernetes.io/hostname": self.a.node, "kubernetes.io/os": "linux",
                       "kubernetes.io/arch": "amd64",
                       "fluid.lane/stand-in": "kubelet-and-container-runtime"},
            "annotations": {"fluid.lane/stand-in": WHO}},
            "spec": {"podCIDR": self.a.pod_cidr, "podCIDRs": [self.a.pod_cidr]}}
        try:
            self.api.call("POST", "/api/v1/nodes", node)
            log(f"registered Node {self.a.node} (pod range {self.a.pod_cidr}, address {self.bridge_ip})")
        except ApiError as e:
            if e.status != 409:
                raise
            log(f"Node {self.a.node} exists; taking it over")
        self.api.merge_patch(f"/api/v1/nodes/{self.a.node}/status", self.node_status())
        # Admission gives a new Node the not-ready taint; the node-lifecycle
        # controller (not run in the lane) would lift it once Ready.
        cur = self.api.get(f"/api/v1/nodes/{self.a.node}")
        taints = (cur.get("spec") or {}).get("taints") or []
        keep = [t for t in taints if t.get("key") not in
                ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")]
        if keep != taints:
            self.api.merge_patch(f"/api/v1/nodes/{self.a.node}", {"spec": {"taints": keep or None}})
            log("lifted the node.kubernetes.io/not-ready taint")
        self.next_heartbeat = time.time() + 20

    # --- hosts ----------------------------------------------------------------------------
    def refresh_hosts(self):
        eps = self.api.get("/api/v1/endpoints")
        out = []
        for e in eps.get("items", []):
            ips = []
            for s in e.get("subsets") or []:
                ips += [a["ip"] for a in s.get("addresses") or [] if a.get("ip")]
            if ips:
                out.append((e["metadata"]["namespace"], e["metadata"]["name"], sorted(set(ips))))
        self.endpoints = out
        text = podplan.hosts_lines(out)
        if text != self.hosts_text:
            write_in_place(os.path.join(self.state, "hosts"), text)
            self.hosts_text = text
        for rt in self.pods.values():
            if rt.ip and rt.sandbox:
                self.write_pod_hosts(rt)

    def write_pod_hosts(self, rt):
        write_in_place(os.path.join(self.pod_dir(rt), "hosts"),
                       podplan.hosts_lines(self.endpoints, own=(rt.ip, rt.name), namespace=rt.ns))

    # --- pods -----------------------------------------------------------------------------
    def pod_dir(self, rt):
        return os.path.join(self.state, "pods", rt.uid)

    def objects(self, pod):
        ns = pod["metadata"]["namespace"]
        objs = {}
        for kind, name in podplan.referenced_objects(pod):
            if not name:
                continue
            res = "configmaps" if kind == "ConfigMap" else "secrets"
            o = self.api.get_or_none(f"/api/v1/namespaces/{ns}/{res}/{name}")
            if o is not None:
                objs[(kind, ns, name)] = o
        return objs

    def services(self, ns):
        out = []
        host, port = self.api_addr.rsplit(":", 1)
        out.append(("kubernetes", host, [("https", int(port), "TCP")]))
        for s in self.api.get(f"/api/v1/namespaces/{ns}/services").get("items", []):
            ip = (s.get("spec") or {}).get("clusterIP")
            if ip and ip != "None" and s["metadata"]["name"] != "kubernetes":
                out.append((s["metadata"]["name"], ip,
                            [(p.get("name", ""), p["port"], p.get("protocol", "TCP"))
                             for p in s["spec"].get("ports") or []]))
        return out

    def token_for(self, rt):
        def get(aud, secs):
            sa = (rt.pod.get("spec") or {}).get("serviceAccountName") or "default"
            req = {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
                   "spec": {"audiences": [aud] if aud else None, "expirationSeconds": int(secs),
                            "boundObjectRef": {"apiVersion": "v1", "kind": "Pod", "name": rt.name,
                                               "uid": rt.uid}}}
            try:
                r = self.api.call("POST", f"/api/v1/namespaces/{rt.ns}/serviceaccounts/{sa}/token", req)
            except ApiError as e:
                raise podplan.PlanError("CreateContainerConfigError",
                                        f"service account token for {sa}: {e}")
            return r["status"]["token"]
        return get

    def alloc_ip(self):
        for ip in podplan.pod_addresses(self.a.pod_cidr, self.taken):
            self.taken.add(ip)
            return ip
        raise podplan.PlanError("CreateContainerError", f"the pod range {self.a.pod_cidr} is full")

    def write_volumes(self, rt, volumes):
        base = os.path.join(self.pod_dir(rt), "volumes")
        for name, (kind, files) in volumes.items():
            d = os.path.join(base, name)
            os.makedirs(d, exist_ok=True)
            for rel, data, mode in files:
                p = os.path.join(d, rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.chmod(p, mode & 0o777)
        return base

    def prepare(self, rt):
        """Plan the Pod (may refuse: CreateContainerConfigError), then its
        sandbox, network and volumes."""
        pod = rt.pod
        if rt.ip is None:
            rt.ip = self.alloc_ip()
        plan = podplan.plan_pod(pod, self.objects(pod), rt.ip, self.bridge_ip, self.services(rt.ns),
                                self.token_for(rt), self.alloc)
        d = self.pod_dir(rt)
        for sub in ("root", "upper", "work", "tmp"):
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        vbase = self.write_volumes(rt, plan["volumes"])
        mounts, seen, workdirs = [], {}, []
        for c in plan["initContainers"] + plan["containers"]:
            for m in c["mounts"]:
                src = os.path.join(vbase, m["volume"], m["subPath"]) if m["subPath"] else \
                    os.path.join(vbase, m["volume"])
                if m["subPath"] and not os.path.exists(src):
                    os.makedirs(src, exist_ok=True)
                key = m["path"]
                if key in seen and seen[key] != src:
                    raise podplan.PlanError("CreateContainerConfigError",
                                            f"{key} is mounted from two volumes; the process kubelet "
                                            "gives a Pod's containers one mount namespace")
                if key not in seen:
                    seen[key] = src
                    mounts.append({"src": src, "path": key, "ro": m["readOnly"]})
            if c["workdir"] != podplan.IMAGE_WORKDIR:
                podplan.check_mount_path(c["workdir"])
                workdirs.append(c["workdir"])
        write_in_place(os.path.join(d, "hostname"), rt.name + "\n")
        self.write_pod_hosts(rt)
        spec = {"root": os.path.join(d, "root"), "image": self.a.image_dir, "upper": os.path.join(d, "upper"),
                "work": os.path.join(d, "work"), "tmp": os.path.join(d, "tmp"), "hostname": rt.name,
                "hosts": os.path.join(d, "hosts"), "hostname_file": os.path.join(d, "hostname"),
                "launcher": HERE, "mounts": mounts, "dirs": workdirs}
        with open(os.path.join(d, "sandbox.json"), "w") as f:
            json.dump(spec, f)
        try:
            self.sandbox_up(rt, d)
        except OSError as e:
            self.teardown(rt)
            raise podplan.PlanError("CreateContainerError", f"sandbox: {e}")
        rt.init = [Container(s, p) for s, p in zip(pod["spec"].get("initContainers") or [],
                                                    plan["initContainers"])]
        rt.containers = [Container(s, p) for s, p in zip(pod["spec"]["containers"], plan["containers"])]
        log(f"pod {rt.ns}/{rt.name}: sandbox pid {rt.sandbox.pid}, address {rt.ip}, "
            f"{len(rt.containers)} container(s)")

    def sandbox_up(self, rt, d):
        sb = subprocess.Popen(["unshare", "--net", "--uts", "--mount", "--propagation", "private", "--",
                               sys.executable, os.path.join(HERE, "sandbox.py"), os.path.join(d, "sandbox.json")],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
        line = sb.stdout.readline().strip()
        if line != "ready":
            sb.kill()
            sb.wait()
            raise OSError(line or "exited")
        rt.sandbox = sb
        self.network(rt)

    def network(self, rt):
        h = hashlib.sha256(rt.uid.encode()).hexdigest()[:8]
        host, peer, pid = f"pk{h}", f"pp{h}", str(rt.sandbox.pid)
        rt.veth = host
        sh("ip", "link", "add", host, "type", "veth", "peer", "name", peer)
        sh("ip", "link", "set", peer, "netns", pid)
        sh("ip", "link", "set", host, "master", self.a.bridge, "up")
        n = ["nsenter", "-t", pid, "-n", "ip"]
        sh(*n, "link", "set", "lo", "up")
        sh(*n, "link", "set", peer, "name", "eth0")
        sh(*n, "addr", "add", f"{rt.ip}/{self.net.prefixlen}", "dev", "eth0")
        sh(*n, "link", "set", "eth0", "up")
        sh(*n, "route", "add", "default", "via", self.bridge_ip)

    def start_container(self, rt, c):
        p = c.plan
        logf = os.path.join(self.a.log_dir, f"pod-{rt.ns}-{rt.name}-{c.name}.log")
        with open(logf, "a") as f:
            f.write(f"----- {WHO}: start {c.restarts + 1} of container {c.name} "
                    f"of pod {rt.ns}/{rt.name}: {' '.join(p['argv'][:4])} -----\n")
            argv = ["nsenter", "-t", str(rt.sandbox.pid), "-n", "-u", "-m", "-r", "-w", "--",
                    "/usr/bin/env", "-C", p["workdir"], "--"] + p["argv"]
            c.proc = subprocess.Popen(argv, env=p["env"], stdin=subprocess.DEVNULL, stdout=f,
                                      stderr=subprocess.STDOUT, start_new_session=True)
        c.started_at = now_rfc3339()
        c.t_start = time.time()
        c.ready = False
        c.started = not any(k == "startupProbe" for k, _ in p["probe"])
        c.probe_next = 0.0
        c.probe_fails = 0
        log(f"pod {rt.ns}/{rt.name}: container {c.name} started (pid {c.proc.pid})")

    def probe(self, rt, c):
        """Run the container's probe if one is due, and update ready/started."""
        kinds = dict(c.plan["probe"])
        kind = "startupProbe" if not c.started else ("readinessProbe" if "readinessProbe" in kinds else None)
        if kind is None:
            c.ready = True
            return
        p = kinds[kind]
        now = time.time()
        period = max(1, p.get("periodSeconds", 10))
        if now < c.probe_next or now < c.t_start + p.get("initialDelaySeconds", 0):
            return
        # The startup probe is tried every 2 s at most (a Pod is Ready
        # sooner), but fails on the time a kubelet would give it:
        # initialDelaySeconds + periodSeconds * failureThreshold.
        c.probe_next = now + (min(period, 2) if kind == "startupProbe" else period)
        ok = self.run_probe(rt, c, p)
        if ok:
            c.probe_fails = 0
            if kind == "startupProbe":
                c.started = True
                c.probe_next = 0.0
                if "readinessProbe" not in kinds:
                    c.ready = True
                log(f"pod {rt.ns}/{rt.name}: container {c.name} passed its startup probe")
            else:
                c.ready = True
            return
        c.probe_fails += 1
        threshold = p.get("failureThreshold", 3)
        if kind == "readinessProbe" and c.probe_fails >= threshold:
            c.ready = False
        elif kind == "startupProbe" and \
                now >= c.t_start + p.get("initialDelaySeconds", 0) + period * threshold:
            log(f"pod {rt.ns}/{rt.name}: container {c.name} failed its startup probe; killing it")
            self.kill(c, signal.SIGKILL)

    def run_probe(self, rt, c, p):
        t = max(1, p.get("timeoutSeconds", 1))
        try:
            if "httpGet" in p:
                g = p["httpGet"]
                port = podplan.probe_port(c.spec, g.get("port"))
                conn = http.client.HTTPConnection(rt.ip, port, timeout=t)
                try:
                    conn.request("GET", g.get("path", "/"))
                    return 200 <= conn.getresponse().status < 400
                finally:
                    conn.close()
            if "tcpSocket" in p:
                import socket
                port = podplan.probe_port(c.spec, p["tcpSocket"].get("port"))
                with socket.create_connection((rt.ip, port), timeout=t):
                    return True
            if "exec" in p:
                r = subprocess.run(["nsenter", "-t", str(rt.sandbox.pid), "-n", "-u", "-m", "-r", "-w", "--"]
                                   + p["exec"].get("command", []), env=c.plan["env"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=t)
                return r.returncode == 0
        except (OSError, podplan.PlanError, subprocess.TimeoutExpired, http.client.HTTPException):
            return False
        return False

    def kill(self, c, sig):
        if c.proc is not None and c.proc.poll() is None:
            try:
                os.killpg(c.proc.pid, sig)
            except ProcessLookupError:
                pass

    def step_containers(self, rt):
        policy = rt.pod["spec"].get("restartPolicy", "Always")
        # Init containers, one at a time, each to success.
        while rt.init_index < len(rt.init):
            c = rt.init[rt.init_index]
            if c.proc is None:
                if time.time() >= c.backoff_until:
                    self.start_container(rt, c)
                return
            code = c.proc.poll()
            if code is None:
                return
            c.last_term = {"exitCode": code, "reason": "Completed" if code == 0 else "Error",
                           "startedAt": c.started_at, "finishedAt": now_rfc3339()}
            c.proc = None
            if code == 0:
                c.term = c.last_term
                rt.init_index += 1
                continue
            if policy == "Never":
                c.term = c.last_term
                rt.done = True
                return
            c.restarts += 1
            c.failures += 1
            c.backoff_until = time.time() + podplan.backoff_s(c.failures)
            return
        for c in rt.containers:
            if c.term is not None:
                continue
            if c.proc is not None:
                code = c.proc.poll()
                if code is None:
                    self.probe(rt, c)
                    continue
                self.exited(rt, c, code, policy)
                if c.term is not None:
                    continue
            if time.time() >= c.backoff_until:
                if c.last_term is not None:
                    c.restarts += 1
                self.start_container(rt, c)
        if rt.containers and all(c.term is not None for c in rt.containers):
            rt.done = True

    def exited(self, rt, c, code, policy):
        ran = time.time() - c.t_start
        term = {"exitCode": code if code >= 0 else 128 - code,
                "reason": "Completed" if code == 0 else "Error",
                "startedAt": c.started_at, "finishedAt": now_rfc3339(),
                "containerID": f"process-kubelet://{c.proc.pid}"}
        log(f"pod {rt.ns}/{rt.name}: container {c.name} exited with {term['exitCode']} after {ran:.1f} s")
        try:
            # What it left running goes with it, as with a container's PID namespace.
            os.killpg(c.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        c.proc = None
        c.ready = False
        c.last_term = term
        if podplan.should_restart(policy, term["exitCode"]):
            if ran > 2 * podplan.BACKOFF_MAX_S:
                c.failures = 0  # ran long enough: the back-off starts again, as a kubelet's
            c.failures += 1
            c.backoff_until = time.time() + podplan.backoff_s(c.failures)
        else:
            c.term = term

    def container_status(self, rt, c, image):
        st = {"name": c.name, "image": image or "", "imageID": f"process-kubelet://{self.a.image_dir}",
              "restartCount": c.restarts, "ready": bool(c.ready and c.proc is not None),
              "started": bool(c.proc is not None and c.started)}
        if c.proc is not None:
            st["state"] = {"running": {"startedAt": c.started_at}}
            st["containerID"] = f"process-kubelet://{c.proc.pid}"
        elif c.term is not None:
            st["state"] = {"terminated": c.term}
            st["containerID"] = c.term.get("containerID", "")
        elif c.last_term is not None:
            wait = max(0, int(c.backoff_until - time.time()))
            st["state"] = {"waiting": {
                "reason": "CrashLoopBackOff",
                "message": f"back-off {podplan.backoff_s(c.failures)}s restarting failed "
                           f"container={c.name} pod={rt.name}_{rt.ns}({rt.uid}) "
                           f"({WHO}; next start in {wait} s)"}}
        else:
            st["state"] = {"waiting": {"reason": "ContainerCreating"}}
        if c.last_term is not None and c.term is None:
            st["lastState"] = {"terminated": c.last_term}
        return st

    def cond(self, rt, typ, ok, reason=None):
        status = "True" if ok else "False"
        prev = rt.conds.get(typ)
        if prev is None or prev[0] != status:
            rt.conds[typ] = (status, now_rfc3339())
        c = {"type": typ, "status": status, "lastProbeTime": None, "lastTransitionTime": rt.conds[typ][1]}
        if reason and not ok:
            c["reason"] = reason
        return c

    def write_status(self, rt):
        spec = rt.pod["spec"]
        images = {c["name"]: c.get("image") for c in (spec.get("initContainers") or []) + spec["containers"]}
        status = {"hostIP": self.bridge_ip, "hostIPs": [{"ip": self.bridge_ip}], "startTime": rt.started_at,
                  "qosClass": (rt.pod.get("status") or {}).get("qosClass", "BestEffort")}
        if rt.ip and rt.sandbox:
            status["podIP"] = rt.ip
            status["podIPs"] = [{"ip": rt.ip}]
        if rt.containers:
            policy = spec.get("restartPolicy", "Always")
            states = []
            for c in rt.containers:
                if c.proc is not None:
                    states.append(("running", None, False))
                elif c.term is not None:
                    states.append(("terminated", c.term["exitCode"], False))
                else:
                    states.append(("waiting", None, True))
            if rt.init_index < len(rt.init):
                phase = "Failed" if rt.done else "Pending"
            else:
                phase = podplan.pod_phase(policy, states)
            cs = [self.container_status(rt, c, images.get(c.name)) for c in rt.containers]
            ics = [self.container_status(rt, c, images.get(c.name)) for c in rt.init]
            all_ready = all(s["ready"] for s in cs)
            status.update(phase=phase, containerStatuses=cs, initContainerStatuses=ics)
            inited = rt.init_index >= len(rt.init)
        else:
            reason, msg = rt.waiting
            status["phase"] = "Pending"
            status["containerStatuses"] = [{
                "name": c["name"], "image": c.get("image", ""), "imageID": "", "restartCount": 0,
                "ready": False, "started": False,
                "state": {"waiting": {"reason": reason, "message": msg} if msg else {"reason": reason}}}
                for c in spec["containers"]]
            all_ready, inited = False, False
        status["conditions"] = [
            self.cond(rt, "PodReadyToStartContainers", rt.sandbox is not None),
            self.cond(rt, "Initialized", inited, "ContainersNotInitialized"),
            self.cond(rt, "Ready", all_ready, "ContainersNotReady"),
            self.cond(rt, "ContainersReady", all_ready, "ContainersNotReady"),
            self.cond(rt, "PodScheduled", True)]
        key = json.dumps(status, sort_keys=True)
        if key == rt.sent:
            return
        try:
            self.api.merge_patch(f"/api/v1/namespaces/{rt.ns}/pods/{rt.name}/status", {"status": status})
            rt.sent = key
        except ApiError as e:
            if e.status != 404:
                log(f"pod {rt.ns}/{rt.name}: status not written: {e}")

    def teardown(self, rt):
        for c in rt.init + rt.containers:
            self.kill(c, signal.SIGKILL)
            if c.proc is not None:
                c.proc.wait()
                c.proc = None
        if rt.sandbox is not None:
            rt.sandbox.terminate()
            try:
                rt.sandbox.wait(10)
            except subprocess.TimeoutExpired:
                rt.sandbox.kill()
                rt.sandbox.wait()
            rt.sandbox = None
            sh("ip", "link", "del", getattr(rt, "veth", "none"), check=False)
        if rt.ip:
            self.taken.discard(rt.ip)
            rt.ip = None

    def sync(self, pod):
        uid = pod["metadata"]["uid"]
        if not UID.fullmatch(uid):
            raise ValueError(f"a Pod's uid {uid!r} is not a UUID; not used as a path")
        rt = self.pods.get(uid)
        if rt is None:
            rt = self.pods[uid] = PodRT(pod)
            log(f"pod {rt.ns}/{rt.name}: bound to this node")
        rt.pod = pod
        if pod["metadata"].get("deletionTimestamp"):
            self.delete(rt)
            return
        if rt.done:
            if rt.sandbox is not None:
                self.teardown(rt)
                log(f"pod {rt.ns}/{rt.name}: finished; sandbox removed")
            self.write_status(rt)
            return
        if rt.sandbox is None:
            if time.time() < rt.plan_next:
                return
            try:
                self.prepare(rt)
            except podplan.PlanError as e:
                if rt.waiting != (e.reason, e.message):
                    log(f"pod {rt.ns}/{rt.name}: {e.reason}: {e.message}")
                rt.waiting = (e.reason, e.message)
                rt.plan_next = time.time() + 2
                self.teardown(rt)
                self.write_status(rt)
                return
        self.step_containers(rt)
        self.write_status(rt)

    def delete(self, rt):
        if rt.stopping_until is None:
            grace = rt.pod["metadata"].get("deletionGracePeriodSeconds", 30)
            rt.stopping_until = time.time() + min(max(grace, 0), 30)
            log(f"pod {rt.ns}/{rt.name}: deleted; stopping its containers (grace {min(grace, 30)} s)")
            for c in rt.init + rt.containers:
                self.kill(c, signal.SIGTERM)
        alive = [c for c in rt.init + rt.containers if c.proc is not None and c.proc.poll() is None]
        if alive and time.time() < rt.stopping_until:
            return
        self.teardown(rt)
        try:
            self.api.call("DELETE", f"/api/v1/namespaces/{rt.ns}/pods/{rt.name}",
                          {"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": 0,
                           "preconditions": {"uid": rt.uid}}, ok=(200, 202, 404, 409))
        except ApiError as e:
            log(f"pod {rt.ns}/{rt.name}: delete: {e}")
            return
        log(f"pod {rt.ns}/{rt.name}: stopped and removed")
        self.pods.pop(rt.uid, None)

    # --- the loop -------------------------------------------------------------------------
    def tick(self):
        sel = urllib.parse.quote(f"spec.nodeName={self.a.node}")
        pods = self.api.get(f"/api/v1/pods?fieldSelector={sel}").get("items", [])
        seen = set()
        for pod in pods:
            seen.add(pod["metadata"]["uid"])
            try:
                self.sync(pod)
            except (OSError, ApiError, subprocess.SubprocessError) as e:
                log(f"pod {pod['metadata']['namespace']}/{pod['metadata']['name']}: {e}")
        for uid in list(self.pods):
            if uid not in seen:
                rt = self.pods.pop(uid)
                log(f"pod {rt.ns}/{rt.name}: gone from the API server; stopping it")
                self.teardown(rt)
        if time.time() >= self.next_hosts:
            self.refresh_hosts()
            self.next_hosts = time.time() + 2
        if time.time() >= self.next_heartbeat:
            self.api.merge_patch(f"/api/v1/nodes/{self.a.node}/status", self.node_status())
            self.next_heartbeat = time.time() + 20

    def run(self):
        self.register()
        self.refresh_hosts()
        if self.a.bind_etc_hosts is not None:
            sh("mount", "--bind", os.path.join(self.state, "hosts"), "/etc/hosts")
            log("the lane's /etc/hosts is the process kubelet's hosts file (lane mount namespace only)")
        with open(os.path.join(self.state, "ready"), "w") as f:
            f.write(f"{os.getpid()}\n")
        while not self.stop:
            t = time.time()
            try:
                self.tick()
            except (OSError, ApiError, ValueError) as e:
                log(f"tick: {e}")
            time.sleep(max(0.05, self.a.tick - (time.time() - t)))
        self.shutdown()

    def shutdown(self):
        log(f"stopping {len(self.pods)} pod(s)")
        for rt in self.pods.values():
            for c in rt.init + rt.containers:
                self.kill(c, signal.SIGTERM)
        deadline = time.time() + 10
        while time.time() < deadline and any(c.proc is not None and c.proc.poll() is None
                                             for rt in self.pods.values() for c in rt.init + rt.containers):
            time.sleep(0.2)
        for rt in list(self.pods.values()):
            self.teardown(rt)
        if self.a.bind_etc_hosts is not None:
            sh("umount", "/etc/hosts", check=False)
        try:
            self.api.merge_patch(f"/api/v1/nodes/{self.a.node}/status",
                                 self.node_status(False, "the process kubelet stopped"))
        except (OSError, ApiError):
            pass
        log("stopped")


def main(argv):
    p = argparse.ArgumentParser(prog="stand_in_kubelet.py",
                                description=f"The {WHO} of the fluid Kubernetes lane.")
    p.add_argument("--kubeconfig", required=True)
    p.add_argument("--context", required=True)
    p.add_argument("--kubectl", required=True)
    p.add_argument("--node", required=True)
    p.add_argument("--pod-cidr", required=True)
    p.add_argument("--bridge", required=True)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--log-dir", required=True)
    p.add_argument("--state-dir", required=True)
    p.add_argument("--api-addr", default="")
    p.add_argument("--cpu", default="16")
    p.add_argument("--memory", default="64Gi")
    p.add_argument("--tick", type=float, default=1.0)
    p.add_argument("--bind-etc-hosts", type=int, default=None, metavar="MACHINE_MNTNS_INODE")
    a = p.parse_args(argv)
    if not os.path.isdir(a.image_dir):
        print(f"{WHO}: no image directory {a.image_dir}", file=sys.stderr)
        return 2
    a.image_dir = os.path.abspath(a.image_dir)
    # The machine's /etc/hosts is never touched: binding over /etc/hosts is
    # done only in a mount namespace other than the one the caller names
    # as the machine's.
    if a.bind_etc_hosts is not None and os.stat("/proc/self/ns/mnt").st_ino == a.bind_etc_hosts:
        print(f"{WHO}: refusing to bind over /etc/hosts: this is the machine's mount namespace "
              f"(inode {a.bind_etc_hosts}); run it in the lane's", file=sys.stderr)
        return 2
    k = Kubelet(a)

    def stop(*_):
        k.stop = True
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    k.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
