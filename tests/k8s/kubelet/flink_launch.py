#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""flink_launch - what Flink's native entrypoints do, run by the process
kubelet (a STAND-IN for the kubelet and the container runtime) inside a
Pod in place of the image's /docker-entrypoint.sh with
kubernetes-jobmanager.sh / kubernetes-taskmanager.sh: those scripts come
with flink-dist, which is not on Maven Central; their Java classes are.

    python3 flink_launch.py jobmanager kubernetes-application|kubernetes-session -- ARGS...
    python3 flink_launch.py taskmanager kubernetes-taskmanager -- ARGS...

As flink-dist's config.sh and flink-console.sh do: the classpath is every
jar of $FLINK_HOME/lib, sorted; BashJavaUtils GET_JM_RESOURCE_PARAMS or
GET_TM_RESOURCE_PARAMS prints two result lines, the JVM memory flags and
the dynamic configuration (the JobManager puts the latter before its
arguments; the TaskManager's come already in its arguments); the JVM
options of the configuration (env.java.opts.*) follow; then the main
class with --configDir.  Not done: the image entrypoint's FLINK_PROPERTIES,
ENABLE_BUILT_IN_PLUGINS and jemalloc, and dropping to the flink user.
"""

import os
import subprocess
import sys

MAIN = {
    "kubernetes-application": "org.apache.flink.kubernetes.entrypoint.KubernetesApplicationClusterEntrypoint",
    "kubernetes-session": "org.apache.flink.kubernetes.entrypoint.KubernetesSessionClusterEntrypoint",
    "kubernetes-taskmanager": "org.apache.flink.kubernetes.taskmanager.KubernetesTaskExecutorRunner",
}
BJU = "org.apache.flink.runtime.util.bash.BashJavaUtils"
PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:"


def parse_bju(output):
    """BashJavaUtils' output: exactly two result lines, (jvm_flags, dynamic)."""
    res = [ln[len(PREFIX):] for ln in output.splitlines() if ln.startswith(PREFIX)]
    if len(res) != 2:
        raise ValueError(f"BashJavaUtils printed {len(res)} result lines, expected 2:\n{output[-2000:]}")
    return res[0].split(), res[1].split()


def read_flat_conf(text):
    """Top-level `key: value` lines of config.yaml / flink-conf.yaml (what
    the operator's flink-config ConfigMap holds), quotes removed."""
    conf = {}
    for line in text.splitlines():
        if not line or line[0] in " \t#-":
            continue
        k, sep, v = line.partition(":")
        if not sep:
            continue
        v = v.strip()
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
            v = v[1:-1]
        conf[k.strip()] = v
    return conf


def java_opts(conf, role):
    """FLINK_ENV_JAVA_OPTS as config.sh builds it, plus the role's own."""
    opts = ["-XX:+IgnoreUnrecognizedVMOptions"]
    opts += conf.get("env.java.default-opts.all", "").split()
    opts += (conf.get("env.java.opts.all") or conf.get("env.java.opts", "")).split()
    opts += conf.get(f"env.java.opts.{role}", "").split()
    return opts


def java_argv(java, role, entry, conf_dir, classpath, jvm_flags, dynamic, args, conf, hostname):
    main = MAIN[entry]
    jvm = list(jvm_flags)
    own = java_opts(conf, role)
    if role == "taskmanager" and len(own) == 1:
        jvm.append("-XX:+UseG1GC")  # kubernetes-taskmanager.sh: no JVM options set, G1
    log = [f"-Dlog.file=/opt/flink/log/flink--{entry}-{hostname}.log",
           f"-Dlog4j.configuration=file:{conf_dir}/log4j-console.properties",
           f"-Dlog4j.configurationFile=file:{conf_dir}/log4j-console.properties",
           f"-Dlogback.configurationFile=file:{conf_dir}/logback-console.xml"]
    if role == "jobmanager":
        rest = list(dynamic) + list(args)
    else:
        rest = ["--configDir", conf_dir] + list(args)
    return [java] + jvm + own + log + ["-classpath", classpath, main] + rest


def classpath(lib):
    jars = sorted(f for f in os.listdir(lib) if f.endswith(".jar"))
    return ":".join(os.path.join(lib, j) for j in jars)


def main(argv):
    if len(argv) < 3 or argv[0] not in ("jobmanager", "taskmanager") or argv[1] not in MAIN or \
            (len(argv) > 2 and argv[2] != "--"):
        print("flink_launch (process kubelet, standing in for the container runtime): "
              "usage: flink_launch.py jobmanager|taskmanager ENTRY -- ARGS...", file=sys.stderr)
        return 2
    role, entry, args = argv[0], argv[1], argv[3:]
    home = os.environ.get("FLINK_HOME", "/opt/flink")
    conf_dir = os.environ.get("FLINK_CONF_DIR", home + "/conf")
    lib = home + "/lib"
    for k, v in (("FLINK_HOME", home), ("FLINK_CONF_DIR", conf_dir), ("FLINK_LIB_DIR", lib),
                 ("FLINK_BIN_DIR", home + "/bin"), ("FLINK_OPT_DIR", home + "/opt"),
                 ("FLINK_PLUGINS_DIR", home + "/plugins"), ("FLINK_LOG_DIR", home + "/log")):
        os.environ[k] = v
    os.makedirs(home + "/log", exist_ok=True)
    java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else "java"
    cp = classpath(lib)
    cmd = "GET_JM_RESOURCE_PARAMS" if role == "jobmanager" else "GET_TM_RESOURCE_PARAMS"
    out = subprocess.run([java, "-classpath", cp, BJU, cmd, "--configDir", conf_dir] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        jvm_flags, dynamic = parse_bju(out.stdout)
    except ValueError as e:
        print(f"flink_launch (process kubelet): {e}", file=sys.stderr)
        return 1
    conf = {}
    for name in ("config.yaml", "flink-conf.yaml"):
        p = os.path.join(conf_dir, name)
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                conf = read_flat_conf(f.read())
            break
    full = java_argv(java, role, entry, conf_dir, cp, jvm_flags, dynamic, args, conf,
                     os.uname().nodename)
    print(f"flink_launch (process kubelet, standing in for the {role}'s entrypoint script): "
          f"{full[0]} {' '.join(jvm_flags)} ... {MAIN[entry]}", file=sys.stderr, flush=True)
    os.execv(full[0] if os.path.isabs(full[0]) else _which(full[0]), full)
    return 127


def _which(prog):
    for d in os.environ.get("PATH", "").split(":"):
        p = os.path.join(d, prog)
        if os.access(p, os.X_OK):
            return p
    return prog


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
