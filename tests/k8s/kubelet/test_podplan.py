#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the process kubelet's pure parts (podplan.py, the pure
functions of flink_launch.py): a Pod as the API server returns it becomes
processes, environment and mounts.  No root, cluster or Java needed.
The process kubelet is a stand-in for the kubelet and the container runtime.

    python3 tests/k8s/kubelet/test_podplan.py      # ends with "N passed, N failed"
"""

import base64
import os
import sys
import unittest

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flink_launch  # noqa: E402
import podplan  # noqa: E402
from podplan import PlanError  # noqa: E402

NS = "ns1"


def pod(containers, volumes=None, **spec):
    p = {"metadata": {"name": "web-0", "namespace": NS, "uid": "u-1",
                      "labels": {"app": "web", "component": "jobmanager"},
                      "annotations": {"note": "x"}},
         "spec": dict(containers=containers, nodeName="lane-node", serviceAccountName="flink", **spec)}
    if volumes is not None:
        p["spec"]["volumes"] = volumes
    return p


def cm(name, data):
    return {("ConfigMap", NS, name): {"metadata": {"name": name}, "data": data}}


def secret(name, data):
    return {("Secret", NS, name): {"metadata": {"name": name},
                                   "data": {k: base64.b64encode(v.encode()).decode() for k, v in data.items()}}}


def plan(p, objs=None, **kw):
    return podplan.plan_pod(p, objs or {}, "10.244.0.5", "10.244.0.1", **kw)


def first(p, objs=None, **kw):
    return plan(p, objs, **kw)["containers"][0]


SH = {"name": "c", "image": "flink:x", "command": ["sh", "-c", "echo hi"]}


class Env(unittest.TestCase):
    def test_value_and_expansion(self):
        c = dict(SH, env=[{"name": "A", "value": "one"}, {"name": "B", "value": "$(A)-two-$(NOPE)-$$(A)"}])
        env = first(pod([c]))["env"]
        self.assertEqual(env["A"], "one")
        self.assertEqual(env["B"], "one-two-$(NOPE)-$(A)")

    def test_image_env_present_and_overridable(self):
        env = first(pod([dict(SH, env=[{"name": "FLINK_HOME", "value": "/else"}])]))["env"]
        self.assertEqual(env["FLINK_HOME"], "/else")
        self.assertIn("/opt/flink/bin", env["PATH"])

    def test_field_refs(self):
        env = [{"name": n, "valueFrom": {"fieldRef": {"fieldPath": f}}} for n, f in (
            ("IP", "status.podIP"), ("NAME", "metadata.name"), ("NSV", "metadata.namespace"),
            ("APP", "metadata.labels['app']"), ("HOST", "status.hostIP"), ("NODE", "spec.nodeName"))]
        e = first(pod([dict(SH, env=env)]))["env"]
        self.assertEqual((e["IP"], e["NAME"], e["NSV"], e["APP"], e["HOST"], e["NODE"]),
                         ("10.244.0.5", "web-0", NS, "web", "10.244.0.1", "lane-node"))

    def test_unknown_field_ref_refused(self):
        c = dict(SH, env=[{"name": "X", "valueFrom": {"fieldRef": {"fieldPath": "spec.nope"}}}])
        with self.assertRaises(PlanError) as cx:
            plan(pod([c]))
        self.assertEqual(cx.exception.reason, "CreateContainerConfigError")

    def test_env_from_configmap_and_secret_with_prefix(self):
        c = dict(SH, envFrom=[{"configMapRef": {"name": "conf"}, "prefix": "P_"},
                              {"secretRef": {"name": "creds"}}],
                 env=[{"name": "P_a", "value": "env-wins"}])
        objs = {**cm("conf", {"a": "1", "b": "2", "bad key": "skipped"}), **secret("creds", {"PASS": "s3cret"})}
        e = first(pod([c]), objs)["env"]
        self.assertEqual(e["P_a"], "env-wins")
        self.assertEqual(e["P_b"], "2")
        self.assertEqual(e["PASS"], "s3cret")
        self.assertNotIn("P_bad key", e)

    def test_missing_secret_is_create_container_config_error(self):
        c = dict(SH, envFrom=[{"secretRef": {"name": "kafka-creds"}}])
        with self.assertRaises(PlanError) as cx:
            plan(pod([c]))
        self.assertEqual(cx.exception.reason, "CreateContainerConfigError")
        self.assertEqual(cx.exception.message, 'secret "kafka-creds" not found')

    def test_missing_configmap_key_ref(self):
        c = dict(SH, env=[{"name": "X", "valueFrom": {"configMapKeyRef": {"name": "conf", "key": "k"}}}])
        with self.assertRaises(PlanError) as cx:
            plan(pod([c]))
        self.assertEqual(cx.exception.message, 'configmap "conf" not found')
        with self.assertRaises(PlanError) as cx:
            plan(pod([c]), cm("conf", {"other": "1"}))
        self.assertIn("couldn't find key k", cx.exception.message)

    def test_optional_missing_secret_is_skipped(self):
        c = dict(SH, envFrom=[{"secretRef": {"name": "gone", "optional": True}}],
                 env=[{"name": "K", "valueFrom": {"secretKeyRef": {"name": "g", "key": "k", "optional": True}}}])
        e = first(pod([c]))["env"]
        self.assertNotIn("K", e)

    def test_secret_key_ref_decoded(self):
        c = dict(SH, env=[{"name": "K", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}])
        self.assertEqual(first(pod([c]), secret("s", {"k": "v a l"}))["env"]["K"], "v a l")

    def test_resource_field_ref(self):
        c = dict(SH, resources={"limits": {"memory": "1Gi", "cpu": "500m"}},
                 env=[{"name": "M", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory",
                                                                        "divisor": "1Mi"}}},
                      {"name": "C", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}}])
        e = first(pod([c]))["env"]
        self.assertEqual((e["M"], e["C"]), ("1024", "1"))

    def test_service_links_and_kubernetes_service(self):
        svcs = [("kubernetes", "10.244.0.1", [("https", 6443, "TCP")]),
                ("job-rest", "10.96.0.9", [("rest", 8081, "TCP")])]
        e = first(pod([SH]), services=svcs)["env"]
        self.assertEqual((e["KUBERNETES_SERVICE_HOST"], e["KUBERNETES_SERVICE_PORT"]), ("10.244.0.1", "6443"))
        self.assertEqual(e["JOB_REST_SERVICE_PORT_REST"], "8081")
        e = first(pod([SH], enableServiceLinks=False), services=svcs)["env"]
        self.assertIn("KUBERNETES_SERVICE_HOST", e)
        self.assertNotIn("JOB_REST_SERVICE_HOST", e)


JM_ARGS = ["bash", "-c", "kubernetes-jobmanager.sh kubernetes-application"]
TM_ARGS = ["bash", "-c", "kubernetes-taskmanager.sh -D taskmanager.resource-id=job-taskmanager-1-1 "
           "-D 'taskmanager.memory.network.min=134217730b' -Dinternal.x=y"]


class Entrypoint(unittest.TestCase):
    def argv(self, **c):
        return first(pod([dict({"name": "flink-main-container", "image": "flink"}, **c)]))["argv"]

    def test_jobmanager_translated(self):
        a = self.argv(command=["/docker-entrypoint.sh"], args=JM_ARGS)
        self.assertEqual(a, ["python3", podplan.LAUNCHER, "jobmanager", "kubernetes-application", "--"])

    def test_jobmanager_with_flink_home_path(self):
        a = self.argv(command=["/docker-entrypoint.sh"],
                      args=["bash", "-c", "$FLINK_HOME/bin/kubernetes-jobmanager.sh kubernetes-session"])
        self.assertEqual(a[2:4], ["jobmanager", "kubernetes-session"])

    def test_taskmanager_translated_with_dynamic_properties(self):
        a = self.argv(args=TM_ARGS)  # no command: the image's entrypoint
        self.assertEqual(a[:5], ["python3", podplan.LAUNCHER, "taskmanager", "kubernetes-taskmanager", "--"])
        self.assertEqual(a[5:], ["-D", "taskmanager.resource-id=job-taskmanager-1-1",
                                 "-D", "taskmanager.memory.network.min=134217730b", "-Dinternal.x=y"])

    def test_script_with_shell_operators_refused(self):
        for s in ("kubernetes-jobmanager.sh kubernetes-application; rm -rf /",
                  "kubernetes-taskmanager.sh -D x=$(id)", "kubernetes-taskmanager.sh `id`"):
            with self.assertRaises(PlanError) as cx:
                self.argv(command=["/docker-entrypoint.sh"], args=["bash", "-c", s])
            self.assertEqual(cx.exception.reason, "CreateContainerError")
            self.assertIn("does not interpret", cx.exception.message)

    def test_jobmanager_without_target_refused(self):
        with self.assertRaises(PlanError):
            self.argv(command=["/docker-entrypoint.sh"], args=["bash", "-c", "kubernetes-jobmanager.sh"])

    def test_image_default_help_refused(self):
        with self.assertRaises(PlanError) as cx:
            self.argv()
        self.assertIn("help", cx.exception.message)

    def test_standalone_mode_refused(self):
        with self.assertRaises(PlanError) as cx:
            self.argv(args=["jobmanager"])
        self.assertIn("standalone", cx.exception.message)

    def test_pass_through_and_plain_commands(self):
        self.assertEqual(self.argv(args=["sh", "-c", "echo a; exit 3"]), ["sh", "-c", "echo a; exit 3"])
        self.assertEqual(self.argv(command=["sh", "-c", "sleep 1"]), ["sh", "-c", "sleep 1"])
        self.assertEqual(self.argv(command=["echo"], args=["$(HOSTNAME_X)"],
                                   env=[{"name": "HOSTNAME_X", "value": "h"}]), ["echo", "h"])

    def test_workdir_default_is_the_images(self):
        self.assertEqual(first(pod([SH]))["workdir"], "/opt/flink")
        self.assertEqual(first(pod([dict(SH, workingDir="/tmp")]))["workdir"], "/tmp")


FLINK_VOLUMES = [
    {"name": "flink-config-volume", "configMap": {"name": "flink-config-job", "items": [
        {"key": "config.yaml", "path": "config.yaml"},
        {"key": "log4j-console.properties", "path": "log4j-console.properties"}]}},
    {"name": "pod-template-volume", "configMap": {"name": "pod-template-job", "items": [
        {"key": "taskmanager-pod-template.yaml", "path": "taskmanager-pod-template.yaml"}]}},
    {"name": "sql", "configMap": {"name": "job-sql", "defaultMode": 0o444}},
    {"name": "scratch", "emptyDir": {}},
    {"name": "creds", "secret": {"secretName": "kafka", "items": [{"key": "pw", "path": "a/pw", "mode": 0o400}]}},
    {"name": "kube-api-access-x", "projected": {"defaultMode": 0o644, "sources": [
        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
        {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
        {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"fieldPath": "metadata.namespace"}}]}}]}},
]
FLINK_MOUNTS = [
    {"name": "flink-config-volume", "mountPath": "/opt/flink/conf"},
    {"name": "pod-template-volume", "mountPath": "/opt/flink/pod-template"},
    {"name": "sql", "mountPath": "/opt/flink/usrlib/sql", "readOnly": True},
    {"name": "scratch", "mountPath": "/data/tmp"},
    {"name": "creds", "mountPath": "/etc-not/creds"},
    {"name": "kube-api-access-x", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": True},
]
FLINK_OBJS = {**cm("flink-config-job", {"config.yaml": "a: b\n", "log4j-console.properties": "x=y\n"}),
              **cm("pod-template-job", {"taskmanager-pod-template.yaml": "kind: Pod\n"}),
              **cm("job-sql", {"job.sql": "SELECT 1;", "job.table.json": "{}"}),
              **cm("kube-root-ca.crt", {"ca.crt": "CA"}), **secret("kafka", {"pw": "pw1"})}


class Volumes(unittest.TestCase):
    def full(self, volumes=FLINK_VOLUMES, mounts=FLINK_MOUNTS, objs=FLINK_OBJS):
        tokens = []

        def token_for(aud, secs):
            tokens.append((aud, secs))
            return "TOKEN"
        p = plan(pod([dict(SH, volumeMounts=mounts)], volumes), objs, token_for=token_for)
        return p, tokens

    def test_flink_pod_volumes_and_mounts(self):
        p, tokens = self.full()
        v = p["volumes"]
        self.assertEqual(v["flink-config-volume"], ("files", [("config.yaml", b"a: b\n", 0o644),
                                                              ("log4j-console.properties", b"x=y\n", 0o644)]))
        self.assertEqual(v["sql"], ("files", [("job.sql", b"SELECT 1;", 0o444), ("job.table.json", b"{}", 0o444)]))
        self.assertEqual(v["scratch"], ("dir", []))
        self.assertEqual(v["creds"], ("files", [("a/pw", b"pw1", 0o400)]))
        self.assertEqual(v["kube-api-access-x"], ("files", [("token", b"TOKEN", 0o644), ("ca.crt", b"CA", 0o644),
                                                            ("namespace", NS.encode(), 0o644)]))
        self.assertEqual(tokens, [("", 3607)])
        m = {x["path"]: x for x in p["containers"][0]["mounts"]}
        self.assertEqual(sorted(m), sorted(x["mountPath"] for x in FLINK_MOUNTS))
        self.assertTrue(m["/opt/flink/usrlib/sql"]["readOnly"])
        self.assertFalse(m["/opt/flink/conf"]["readOnly"])
        self.assertEqual(m["/opt/flink/conf"]["volume"], "flink-config-volume")

    def test_missing_configmap_volume(self):
        objs = dict(FLINK_OBJS)
        del objs[("ConfigMap", NS, "job-sql")]
        with self.assertRaises(PlanError) as cx:
            self.full(objs=objs)
        self.assertEqual((cx.exception.reason, cx.exception.message),
                         ("CreateContainerConfigError", 'configmap "job-sql" not found'))

    def test_unsafe_names_refused(self):
        for key in ("../escape", "/abs", "a/../../b"):
            with self.assertRaises(PlanError, msg=key):
                self.full(volumes=[{"name": "v", "configMap": {"name": "c"}}], mounts=[],
                          objs=cm("c", {key: "x"}))
        for path in ("relative/x", "/etc/passwd-dir", "/usr/x", "/opt/../etc", "/"):
            with self.assertRaises(PlanError, msg=path):
                self.full(volumes=[{"name": "v", "emptyDir": {}}], mounts=[{"name": "v", "mountPath": path}])

    def test_mount_of_unknown_volume_and_unsupported_volume(self):
        with self.assertRaises(PlanError):
            self.full(volumes=[], mounts=[{"name": "v", "mountPath": "/x"}])
        with self.assertRaises(PlanError) as cx:
            self.full(volumes=[{"name": "v", "hostPath": {"path": "/"}}], mounts=[])
        self.assertIn("hostPath", cx.exception.message)

    def test_referenced_objects(self):
        c = dict(SH, envFrom=[{"secretRef": {"name": "s1"}}],
                 env=[{"name": "X", "valueFrom": {"configMapKeyRef": {"name": "c1", "key": "k"}}}])
        refs = podplan.referenced_objects(pod([c], FLINK_VOLUMES))
        for r in (("Secret", "s1"), ("ConfigMap", "c1"), ("ConfigMap", "job-sql"), ("Secret", "kafka"),
                  ("ConfigMap", "kube-root-ca.crt")):
            self.assertIn(r, refs)


class Launcher(unittest.TestCase):
    OUT = ("INFO some log line\nBASH_JAVA_UTILS_EXEC_RESULT:-Xmx1073741824 -Xms1073741824 "
           "-XX:MaxMetaspaceSize=268435456\nBASH_JAVA_UTILS_EXEC_RESULT:-D jobmanager.memory.off-heap.size=134217728b "
           "-D jobmanager.memory.jvm-overhead.min=201326592b\n")

    def test_parse_bash_java_utils(self):
        jvm, dyn = flink_launch.parse_bju(self.OUT)
        self.assertEqual(jvm, ["-Xmx1073741824", "-Xms1073741824", "-XX:MaxMetaspaceSize=268435456"])
        self.assertEqual(dyn[:2], ["-D", "jobmanager.memory.off-heap.size=134217728b"])

    def test_parse_refuses_other_line_counts(self):
        with self.assertRaises(ValueError):
            flink_launch.parse_bju("BASH_JAVA_UTILS_EXEC_RESULT:-Xmx1\n")

    def test_jobmanager_java_argv(self):
        jvm, dyn = flink_launch.parse_bju(self.OUT)
        conf = flink_launch.read_flat_conf("env.java.opts.all: '-Da=1 -Db=2'\nenv.java.opts.jobmanager: -Dj=1\n"
                                           "nested:\n  key: v\n")
        a = flink_launch.java_argv("java", "jobmanager", "kubernetes-application", "/opt/flink/conf",
                                   "/opt/flink/lib/a.jar", jvm, dyn, ["-Dx=y"], conf, "job-abc")
        main = a.index("org.apache.flink.kubernetes.entrypoint.KubernetesApplicationClusterEntrypoint")
        self.assertEqual(a[main + 1:], dyn + ["-Dx=y"])
        self.assertEqual(a[1:4], jvm)
        for o in ("-Da=1", "-Db=2", "-Dj=1", "-classpath",
                  "-Dlog4j.configurationFile=file:/opt/flink/conf/log4j-console.properties"):
            self.assertIn(o, a)
        self.assertNotIn("-XX:+UseG1GC", a)

    def test_taskmanager_java_argv(self):
        a = flink_launch.java_argv("java", "taskmanager", "kubernetes-taskmanager", "/c", "cp", ["-Xmx5"],
                                   ["-D", "ignored=1"], ["-D", "k=v"], {}, "tm-1")
        main = a.index("org.apache.flink.kubernetes.taskmanager.KubernetesTaskExecutorRunner")
        self.assertEqual(a[main + 1:], ["--configDir", "/c", "-D", "k=v"])
        self.assertIn("-XX:+UseG1GC", a)
        self.assertNotIn("ignored=1", a)


class Lifecycle(unittest.TestCase):
    def test_backoff_schedule(self):
        self.assertEqual([podplan.backoff_s(n) for n in range(1, 9)], [0, 10, 20, 40, 80, 160, 300, 300])

    def test_restart_policy(self):
        self.assertTrue(podplan.should_restart("Always", 0))
        self.assertTrue(podplan.should_restart("OnFailure", 1))
        self.assertFalse(podplan.should_restart("OnFailure", 0))
        self.assertFalse(podplan.should_restart("Never", 1))

    def test_phase(self):
        self.assertEqual(podplan.pod_phase("Always", [("running", None, False)]), "Running")
        self.assertEqual(podplan.pod_phase("Always", [("waiting", None, True)]), "Running")
        self.assertEqual(podplan.pod_phase("Never", [("terminated", 0, False)]), "Succeeded")
        self.assertEqual(podplan.pod_phase("Never", [("terminated", 0, False), ("terminated", 2, False)]), "Failed")

    def test_probe_port_by_name(self):
        c = {"ports": [{"name": "rest", "containerPort": 8081}]}
        self.assertEqual(podplan.probe_port(c, "rest"), 8081)
        self.assertEqual(podplan.probe_port(c, 9), 9)
        with self.assertRaises(PlanError):
            podplan.probe_port(c, "nope")

    def test_ready_probe_order(self):
        c = {"readinessProbe": {"httpGet": {}}, "startupProbe": {"httpGet": {}}}
        self.assertEqual([k for k, _ in podplan.ready_probe(c)], ["startupProbe", "readinessProbe"])


class Network(unittest.TestCase):
    def test_addresses_skip_taken(self):
        g = podplan.pod_addresses("10.244.0.0/29", {"10.244.0.1", "10.244.0.3"})
        self.assertEqual(list(g), ["10.244.0.2", "10.244.0.4", "10.244.0.5", "10.244.0.6"])

    def test_hosts(self):
        t = podplan.hosts_lines([("ns1", "job-rest", ["10.244.0.7"]), ("ns2", "other", ["10.244.0.8"])],
                                own=("10.244.0.5", "job-tm-1"), namespace="ns1")
        self.assertIn("10.244.0.5\tjob-tm-1\n", t)
        self.assertIn("10.244.0.7\tjob-rest job-rest.ns1 job-rest.ns1.svc job-rest.ns1.svc.cluster.local\n", t)
        self.assertIn("10.244.0.8\tother.ns2 other.ns2.svc other.ns2.svc.cluster.local\n", t)
        self.assertIn("127.0.0.1\tlocalhost\n", t)


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed or result.testsRun == 0 else 0)
