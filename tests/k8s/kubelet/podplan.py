# SPDX-License-Identifier: Apache-2.0
"""podplan - the pure part of the process kubelet (a STAND-IN for the kubelet
and the container runtime, never for the operator): a Pod as the API server
returns it, plus the ConfigMaps and Secrets it names, becomes a plan of
local processes.  No I/O here, so that tests/bats/k8s-kubelet.bats can test
it without root, a cluster or Java.

A plan holds, per container: the argv to run inside the Pod's namespaces
(Flink's native entrypoints translated to the in-pod launcher, see
flink_launch.py), the environment, the working directory, and the volume
mounts (source name, path inside the Pod, read-only, subPath).  Volumes are
described as files to write (configMap, secret, projected, downwardAPI) or
empty directories (emptyDir); the daemon writes them.

Anything refused raises PlanError(reason, message): reason is what a
kubelet reports as the container's waiting reason
(CreateContainerConfigError, CreateContainerError).
"""

import base64
import ipaddress
import posixpath
import re
import shlex

# What the Flink image (flink:1.20.1-scala_2.12-java17) sets: ENTRYPOINT,
# CMD, WORKDIR and the environment its Dockerfile declares.
IMAGE_ENTRYPOINT = ["/docker-entrypoint.sh"]
IMAGE_CMD = ["help"]
IMAGE_WORKDIR = "/opt/flink"
FLINK_HOME = "/opt/flink"
IMAGE_ENV = {
    "PATH": "/opt/flink/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "FLINK_HOME": FLINK_HOME,
    "HOME": FLINK_HOME,
    "LANG": "C.UTF-8",
}
# Where the daemon mounts this directory (flink_launch.py) inside each Pod.
LAUNCHER_DIR = "/run/process-kubelet"
LAUNCHER = LAUNCHER_DIR + "/flink_launch.py"

DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
ENV_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")
# A volume file or a mount path: absolute, no "..", no empty or odd bytes.
SAFE_REL = re.compile(r"^[A-Za-z0-9._-][A-Za-z0-9._/-]*$")


class PlanError(Exception):
    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason
        self.message = message


# --- $(VAR) expansion, as the kubelet does for env values, command, args ----
def expand(s, env):
    """$(NAME) becomes env[NAME] when defined, else stays as written;
    $$ is a literal $ (so $$(NAME) stays $(NAME))."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "$" and i + 1 < len(s):
            n = s[i + 1]
            if n == "$":
                out.append("$")
                i += 2
                continue
            if n == "(":
                j = s.find(")", i + 2)
                if j != -1:
                    name = s[i + 2:j]
                    if name in env:
                        out.append(env[name])
                    else:
                        out.append(s[i:j + 1])
                    i = j + 1
                    continue
        out.append(c)
        i += 1
    return "".join(out)


# --- resources (resourceFieldRef) -----------------------------------------------
_SUFFIX = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15,
           "E": 10**18, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40,
           "Pi": 2**50, "Ei": 2**60, "m": None}


def quantity(q):
    """A Kubernetes quantity as a float (cpu "500m" is 0.5, "1Gi" 2**30)."""
    m = re.fullmatch(r"([0-9.]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?", str(q).strip())
    if not m:
        raise PlanError("CreateContainerConfigError", f"bad quantity {q!r}")
    n = float(m.group(1))
    suf = m.group(2) or ""
    return n / 1000 if suf == "m" else n * _SUFFIX[suf]


def resource_value(container, ref, node_alloc):
    res = ref.get("resource", "")
    kind, _, what = res.partition(".")
    if kind not in ("limits", "requests") or what not in ("cpu", "memory", "ephemeral-storage"):
        raise PlanError("CreateContainerConfigError", f"unsupported resourceFieldRef {res!r}")
    r = (container.get("resources") or {})
    v = (r.get(kind) or {}).get(what)
    if v is None and kind == "limits":
        v = node_alloc.get(what)  # no limit: the node's allocatable, as a kubelet does
    if v is None:
        v = "0"
    div = quantity(ref.get("divisor") or "1")
    if div == 0:
        raise PlanError("CreateContainerConfigError", "resourceFieldRef divisor 0")
    val = quantity(v) / div
    # Rounded up, as the kubelet's ExtractContainerResourceValue does.
    iv = int(val)
    return str(iv if iv == val else iv + 1)


# --- fieldRef ---------------------------------------------------------------------
def field_value(pod, path, pod_ip, host_ip):
    md = pod.get("metadata") or {}
    m = re.fullmatch(r"metadata\.(labels|annotations)\['([^']*)'\]", path)
    if m:
        return str((md.get(m.group(1)) or {}).get(m.group(2), ""))
    simple = {
        "metadata.name": md.get("name", ""),
        "metadata.namespace": md.get("namespace", ""),
        "metadata.uid": md.get("uid", ""),
        "spec.nodeName": (pod.get("spec") or {}).get("nodeName", ""),
        "spec.serviceAccountName": (pod.get("spec") or {}).get("serviceAccountName", ""),
        "status.podIP": pod_ip,
        "status.podIPs": pod_ip,
        "status.hostIP": host_ip,
        "status.hostIPs": host_ip,
    }
    if path not in simple:
        raise PlanError("CreateContainerConfigError", f"unsupported fieldRef {path!r}")
    return str(simple[path])


def _lookup(kind, objs, ns, name):
    return objs.get((kind, ns, name))


def _data(kind, obj):
    """A ConfigMap's or Secret's data as text (Secret data is base64)."""
    out = {}
    if kind == "Secret":
        for k, v in (obj.get("data") or {}).items():
            out[k] = base64.b64decode(v).decode("utf-8", "replace")
        for k, v in (obj.get("stringData") or {}).items():
            out[k] = v
    else:
        out.update(obj.get("data") or {})
    return out


def _data_bytes(kind, obj):
    out = {}
    if kind == "Secret":
        for k, v in (obj.get("data") or {}).items():
            out[k] = base64.b64decode(v)
    else:
        for k, v in (obj.get("data") or {}).items():
            out[k] = v.encode()
        for k, v in (obj.get("binaryData") or {}).items():
            out[k] = base64.b64decode(v)
    return out


def _not_found(kind, name):
    # The kubelet's own words: `secret "x" not found`, `configmap "x" not found`.
    return PlanError("CreateContainerConfigError", f'{kind.lower()} "{name}" not found')


def container_env(pod, container, objs, pod_ip, host_ip, service_env, node_alloc):
    """The container's environment: the image's, then the service
    variables, then envFrom in order, then env in order (later wins), each
    env value $(VAR)-expanded against what is defined before it."""
    ns = pod["metadata"]["namespace"]
    env = dict(IMAGE_ENV)
    env.update(service_env)
    for src in container.get("envFrom") or []:
        prefix = src.get("prefix", "")
        for kind, key in (("ConfigMap", "configMapRef"), ("Secret", "secretRef")):
            ref = src.get(key)
            if ref is None:
                continue
            obj = _lookup(kind, objs, ns, ref.get("name", ""))
            if obj is None:
                if ref.get("optional"):
                    continue
                raise _not_found(kind, ref.get("name", ""))
            for k, v in sorted(_data(kind, obj).items()):
                if ENV_NAME.match(prefix + k):  # invalid names are skipped, as by a kubelet
                    env[prefix + k] = v
    for e in container.get("env") or []:
        name = e.get("name", "")
        if not ENV_NAME.match(name):
            raise PlanError("CreateContainerConfigError", f"invalid env name {name!r}")
        if "valueFrom" not in e:
            env[name] = expand(e.get("value", ""), env)
            continue
        vf = e["valueFrom"]
        if "fieldRef" in vf:
            env[name] = field_value(pod, vf["fieldRef"].get("fieldPath", ""), pod_ip, host_ip)
        elif "resourceFieldRef" in vf:
            env[name] = resource_value(container, vf["resourceFieldRef"], node_alloc)
        elif "configMapKeyRef" in vf or "secretKeyRef" in vf:
            kind, ref = (("ConfigMap", vf["configMapKeyRef"]) if "configMapKeyRef" in vf
                         else ("Secret", vf["secretKeyRef"]))
            obj = _lookup(kind, objs, ns, ref.get("name", ""))
            if obj is None:
                if ref.get("optional"):
                    continue
                raise _not_found(kind, ref.get("name", ""))
            data = _data(kind, obj)
            if ref.get("key") not in data:
                if ref.get("optional"):
                    continue
                raise PlanError("CreateContainerConfigError",
                                f"couldn't find key {ref.get('key')} in {kind} {ns}/{ref.get('name')}")
            env[name] = data[ref["key"]]
        else:
            raise PlanError("CreateContainerConfigError", f"unsupported valueFrom in env {name}")
    return env


def service_env(services):
    """The Docker-links-style variables a kubelet gives every container
    (enableServiceLinks) for the Services of the Pod's namespace and the
    kubernetes Service: NAME_SERVICE_HOST, NAME_SERVICE_PORT, ... .
    services: [(name, host, [(port_name, port, protocol)])]."""
    env = {}
    for name, host, ports in services:
        if not host:
            continue
        n = name.upper().replace("-", "_")
        env[f"{n}_SERVICE_HOST"] = host
        if not ports:
            continue
        env[f"{n}_SERVICE_PORT"] = str(ports[0][1])
        for pname, port, proto in ports:
            if pname:
                env[f"{n}_SERVICE_PORT_{pname.upper().replace('-', '_')}"] = str(port)
        p0 = ports[0]
        env[f"{n}_PORT"] = f"{p0[2].lower()}://{host}:{p0[1]}"
        for pname, port, proto in ports:
            pre = f"{n}_PORT_{port}_{proto.upper()}"
            env[pre] = f"{proto.lower()}://{host}:{port}"
            env[pre + "_PROTO"] = proto.lower()
            env[pre + "_PORT"] = str(port)
            env[pre + "_ADDR"] = host
    return env


# --- the command: Flink's native entrypoints ----------------------------------------
JM_SCRIPT = "kubernetes-jobmanager.sh"
TM_SCRIPT = "kubernetes-taskmanager.sh"
SHELL_OPERATORS = set(";&|<>()`$\n")


def _script_words(s):
    """A `bash -c` string as words, refusing anything but plain words
    (no expansion, operator or substitution the stand-in would not do)."""
    s = s.replace("$FLINK_HOME/", FLINK_HOME + "/").replace("${FLINK_HOME}/", FLINK_HOME + "/")
    try:
        lex = shlex.shlex(s, posix=True, punctuation_chars=";&|<>()")
        lex.whitespace_split = True
        words = list(lex)
    except ValueError as e:
        raise PlanError("CreateContainerError", f"cannot parse the entrypoint's script: {e}")
    for w in words:
        if set(w) <= set(";&|<>()") or "$" in w or "`" in w:
            raise PlanError("CreateContainerError",
                            f"the entrypoint's script uses {w!r}, which the process kubelet "
                            "(standing in for the container runtime) does not interpret")
    return words


def translate_command(argv):
    """The argv a container runs in the Flink image, as the process kubelet
    runs it.  /docker-entrypoint.sh with Flink's native scripts becomes the
    in-pod launcher (flink_launch.py: BashJavaUtils' memory flags, then the
    Java main class); with another command it passes through, as the
    image's entrypoint does; anything else runs as given."""
    if not argv:
        raise PlanError("CreateContainerError", "no command")
    if argv[0] != "/docker-entrypoint.sh":
        return list(argv)
    rest = argv[1:]
    if not rest or rest == ["help"]:
        raise PlanError("CreateContainerError",
                        "/docker-entrypoint.sh without a command (the image's help) is not run")
    if len(rest) == 3 and posixpath.basename(rest[0]) in ("bash", "sh") and rest[1] == "-c":
        first = rest[2].split()[0] if rest[2].split() else ""
        if posixpath.basename(first) not in (JM_SCRIPT, TM_SCRIPT):
            return list(rest)  # another script: the entrypoint's pass-through mode
        words = _script_words(rest[2])
    elif posixpath.basename(rest[0]) in (JM_SCRIPT, TM_SCRIPT):
        words = list(rest)
    elif rest[0] in ("jobmanager", "taskmanager", "standalone-job", "history-server"):
        raise PlanError("CreateContainerError",
                        f"/docker-entrypoint.sh {rest[0]} (standalone mode) is not translated; "
                        "only Flink's native Kubernetes entrypoints are")
    else:
        return list(rest)  # the entrypoint's pass-through mode
    if not words:
        raise PlanError("CreateContainerError", "empty entrypoint script")
    script = posixpath.basename(words[0])
    if posixpath.dirname(words[0]) not in ("", FLINK_HOME + "/bin"):
        return list(rest)
    if script == JM_SCRIPT:
        if len(words) < 2 or words[1] not in ("kubernetes-application", "kubernetes-session"):
            raise PlanError("CreateContainerError",
                            f"{JM_SCRIPT} needs kubernetes-application or kubernetes-session")
        return ["python3", LAUNCHER, "jobmanager", words[1], "--"] + words[2:]
    if script == TM_SCRIPT:
        return ["python3", LAUNCHER, "taskmanager", "kubernetes-taskmanager", "--"] + words[1:]
    return list(rest)


def container_argv(container):
    cmd = container.get("command")
    args = container.get("args")
    if cmd:
        argv = list(cmd) + list(args or [])
    else:
        argv = IMAGE_ENTRYPOINT + list(args if args else IMAGE_CMD)
    return argv


# --- volumes ----------------------------------------------------------------------------
def _check_rel(p, what):
    if not SAFE_REL.match(p) or ".." in p.split("/") or p.endswith("/"):
        raise PlanError("CreateContainerConfigError", f"unsafe {what} {p!r}")
    return p


def check_mount_path(p):
    """A mount path inside the Pod: absolute, normalised, not in the
    machine's directories the Pod's root binds from the machine."""
    if not p.startswith("/") or posixpath.normpath(p) != p or p == "/":
        raise PlanError("CreateContainerConfigError", f"mount path {p!r} is not a normal absolute path")
    _check_rel(p[1:], "mount path")
    top = p.split("/")[1]
    if top in ("usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "proc", "sys", "dev"):
        raise PlanError("CreateContainerConfigError",
                        f"mount path {p} is under /{top}, which the process kubelet binds from the machine")
    return p


def _items(kind, obj, items, default_mode, name):
    data = _data_bytes(kind, obj)
    files = []
    if items:
        for it in items:
            key = it.get("key")
            if key not in data:
                raise PlanError("CreateContainerConfigError",
                                f"configmap/secret {name}: key {key} not found")
            files.append((_check_rel(it.get("path", key), "volume file"), data[key],
                          it.get("mode", default_mode)))
    else:
        for key in sorted(data):
            files.append((_check_rel(key, "volume file"), data[key], default_mode))
    return files


def volume_plan(pod, objs, token_for):
    """Each volume as ("dir", []) for emptyDir or ("files", [(rel, bytes,
    mode)]).  token_for(audience, seconds) returns a service-account token
    (the daemon asks the API server's TokenRequest)."""
    ns = pod["metadata"]["namespace"]
    out = {}
    for v in (pod.get("spec") or {}).get("volumes") or []:
        name = v.get("name", "")
        if not DNS_LABEL.match(name):
            raise PlanError("CreateContainerConfigError", f"volume name {name!r} is not a DNS label")
        if "emptyDir" in v:
            out[name] = ("dir", [])
        elif "configMap" in v or "secret" in v:
            kind = "ConfigMap" if "configMap" in v else "Secret"
            src = v["configMap"] if kind == "ConfigMap" else v["secret"]
            oname = src.get("name") if kind == "ConfigMap" else src.get("secretName")
            obj = _lookup(kind, objs, ns, oname or "")
            if obj is None:
                if src.get("optional"):
                    out[name] = ("files", [])
                    continue
                raise _not_found(kind, oname or "")
            out[name] = ("files", _items(kind, obj, src.get("items"), src.get("defaultMode", 0o644), oname))
        elif "projected" in v:
            pr = v["projected"]
            mode = pr.get("defaultMode", 0o644)
            files = []
            for s in pr.get("sources") or []:
                if "serviceAccountToken" in s:
                    t = s["serviceAccountToken"]
                    tok = token_for(t.get("audience", ""), t.get("expirationSeconds", 3600))
                    files.append((_check_rel(t.get("path", "token"), "volume file"), tok.encode(), mode))
                elif "configMap" in s or "secret" in s:
                    kind = "ConfigMap" if "configMap" in s else "Secret"
                    src = s["configMap"] if kind == "ConfigMap" else s["secret"]
                    obj = _lookup(kind, objs, ns, src.get("name", ""))
                    if obj is None:
                        if src.get("optional"):
                            continue
                        raise _not_found(kind, src.get("name", ""))
                    files += _items(kind, obj, src.get("items"), mode, src.get("name"))
                elif "downwardAPI" in s:
                    files += _downward(pod, s["downwardAPI"].get("items") or [], mode)
                else:
                    raise PlanError("CreateContainerConfigError",
                                    f"volume {name}: unsupported projected source {sorted(s)}")
            out[name] = ("files", files)
        elif "downwardAPI" in v:
            d = v["downwardAPI"]
            out[name] = ("files", _downward(pod, d.get("items") or [], d.get("defaultMode", 0o644)))
        else:
            kinds = sorted(k for k in v if k != "name")
            raise PlanError("CreateContainerConfigError",
                            f"volume {name}: {kinds} is not supported by the process kubelet")
    return out


def _downward(pod, items, mode):
    files = []
    for it in items:
        if "fieldRef" not in it:
            raise PlanError("CreateContainerConfigError", "downwardAPI: only fieldRef items are supported")
        path = it["fieldRef"].get("fieldPath", "")
        md = pod.get("metadata") or {}
        if path in ("metadata.labels", "metadata.annotations"):
            kv = md.get(path.split(".")[1]) or {}
            val = "\n".join(f'{k}="{kv[k]}"' for k in sorted(kv))
        else:
            val = field_value(pod, path, "", "")
        files.append((_check_rel(it.get("path", ""), "volume file"), val.encode(), it.get("mode", mode)))
    return files


def container_mounts(container, volumes):
    mounts = []
    for m in container.get("volumeMounts") or []:
        vname = m.get("name", "")
        if vname not in volumes:
            raise PlanError("CreateContainerConfigError", f"volumeMount {vname}: no such volume")
        sub = m.get("subPath") or ""
        if sub:
            _check_rel(sub, "subPath")
        mounts.append({"volume": vname, "path": check_mount_path(m.get("mountPath", "")),
                       "readOnly": bool(m.get("readOnly")), "subPath": sub})
    return mounts


# --- the whole Pod ----------------------------------------------------------------------
def plan_pod(pod, objs, pod_ip, host_ip, services=(), token_for=None, node_alloc=None):
    """The Pod as processes: {"volumes": ..., "containers": [{name, argv,
    env, workdir, mounts}], "initContainers": [...]}.  objs maps (kind,
    namespace, name) to the ConfigMaps and Secrets the daemon read."""
    spec = pod.get("spec") or {}
    node_alloc = node_alloc or {}
    if token_for is None:
        def token_for(aud, secs):
            raise PlanError("CreateContainerConfigError", "no service-account token source")
    volumes = volume_plan(pod, objs, token_for)
    senv = service_env(services) if spec.get("enableServiceLinks", True) else \
        service_env([s for s in services if s[0] == "kubernetes"])
    out = {"volumes": volumes}
    for key in ("initContainers", "containers"):
        lst = []
        for c in spec.get(key) or []:
            env = container_env(pod, c, objs, pod_ip, host_ip, senv, node_alloc)
            argv = [expand(a, env) for a in container_argv(c)]
            lst.append({"name": c.get("name", ""), "argv": translate_command(argv), "env": env,
                        "workdir": c.get("workingDir") or IMAGE_WORKDIR,
                        "mounts": container_mounts(c, volumes),
                        "probe": ready_probe(c)})
        out[key] = lst
    return out


def referenced_objects(pod):
    """The (kind, name) of every ConfigMap and Secret the Pod reads."""
    refs = set()
    spec = pod.get("spec") or {}
    for c in (spec.get("initContainers") or []) + (spec.get("containers") or []):
        for src in c.get("envFrom") or []:
            if "configMapRef" in src:
                refs.add(("ConfigMap", src["configMapRef"].get("name", "")))
            if "secretRef" in src:
                refs.add(("Secret", src["secretRef"].get("name", "")))
        for e in c.get("env") or []:
            vf = e.get("valueFrom") or {}
            if "configMapKeyRef" in vf:
                refs.add(("ConfigMap", vf["configMapKeyRef"].get("name", "")))
            if "secretKeyRef" in vf:
                refs.add(("Secret", vf["secretKeyRef"].get("name", "")))
    for v in spec.get("volumes") or []:
        if "configMap" in v:
            refs.add(("ConfigMap", v["configMap"].get("name", "")))
        if "secret" in v:
            refs.add(("Secret", v["secret"].get("secretName", "")))
        for s in (v.get("projected") or {}).get("sources") or []:
            if "configMap" in s:
                refs.add(("ConfigMap", s["configMap"].get("name", "")))
            if "secret" in s:
                refs.add(("Secret", s["secret"].get("name", "")))
    return sorted(refs)


def ready_probe(c):
    """The probe that decides readiness: the startup probe while it has
    not passed, then the readiness probe; httpGet, tcpSocket or exec.
    Returns [(kind, probe)] in that order, or [] (ready once running)."""
    out = []
    for kind in ("startupProbe", "readinessProbe"):
        p = c.get(kind)
        if p:
            out.append((kind, p))
    return out


def probe_port(container, port):
    """A probe's port: a number, or the name of one of the container's ports."""
    if isinstance(port, int):
        return port
    if isinstance(port, str) and port.isdigit():
        return int(port)
    for p in container.get("ports") or []:
        if p.get("name") == port:
            return int(p["containerPort"])
    raise PlanError("CreateContainerError", f"probe port {port!r} names no container port")


# --- restarts -----------------------------------------------------------------------------
BACKOFF_START_S = 10
BACKOFF_MAX_S = 300


def should_restart(policy, exit_code):
    if policy == "Never":
        return False
    if policy == "OnFailure":
        return exit_code != 0
    return True  # Always (the default)


def backoff_s(restarts):
    """The wait before restart number `restarts` (1 for the first): the
    first at once, then 10 s doubling up to 300 s, the kubelet's
    CrashLoopBackOff schedule (it backs off from the second failure on)."""
    if restarts <= 1:
        return 0
    return min(BACKOFF_MAX_S, BACKOFF_START_S * 2 ** (restarts - 2))


def pod_phase(policy, states):
    """The phase from the containers' states: states is a list of
    ("running"|"waiting"|"terminated", exit_code_or_None, will_restart)."""
    if any(s == "running" for s, _, _ in states):
        return "Running"
    if states and all(s == "terminated" and not again for s, _, again in states):
        return "Succeeded" if all(c == 0 for _, c, _ in states) else "Failed"
    if any(s == "terminated" or (s == "waiting" and again) for s, _, again in states):
        return "Running"  # restarting: a kubelet keeps the Pod Running
    return "Pending"


# --- addresses ------------------------------------------------------------------------------
def pod_addresses(cidr, taken):
    """The addresses of the pod range the daemon may give, in order:
    neither the network nor the broadcast address, nor any in taken."""
    net = ipaddress.ip_network(cidr, strict=True)
    for a in net.hosts():
        if str(a) not in taken:
            yield str(a)


# --- the hosts file ------------------------------------------------------------------------------
def hosts_lines(endpoints, own=None, namespace=None):
    """/etc/hosts lines: each Service with ready addresses under NAME.NS,
    NAME.NS.svc and NAME.NS.svc.cluster.local (and NAME alone for the
    Pod's own namespace), then the Pod's own hostname.  endpoints:
    [(ns, service, [ip, ...])]."""
    lines = ["127.0.0.1\tlocalhost", "::1\tlocalhost ip6-localhost ip6-loopback"]
    if own:
        ip, hostname = own
        lines.append(f"{ip}\t{hostname}")
    for ns, svc, ips in sorted(endpoints):
        names = [f"{svc}.{ns}", f"{svc}.{ns}.svc", f"{svc}.{ns}.svc.cluster.local"]
        if namespace == ns:
            names.insert(0, svc)
        for ip in ips:
            lines.append(f"{ip}\t{' '.join(names)}")
    return "# written by the process kubelet (stands in for the kubelet): Service names to ready endpoints\n" + \
        "\n".join(lines) + "\n"
