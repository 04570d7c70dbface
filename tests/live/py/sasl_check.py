# SPDX-License-Identifier: Apache-2.0
"""The live lane's sasl check: Kafka over SASL_SSL (SCRAM-SHA-512, the lane's
own CA), the credentials from the environment, none of them anywhere else.

  sasl_check.py tls --run RUN_DIR
  sasl_check.py scram --user-env U --password-env P [--bootstrap B]
  sasl_check.py produce --user-env U --password-env P --ca FILE
                        [--sasl-bootstrap B] -- LANECHECK_PRODUCE_ARGS...
  sasl_check.py nosecret --env NAME... -- PATH...

tls (run by prepare.py, before the lane starts: the broker opens its keystore
when it starts) makes RUN_DIR/tls with tests/live/lib/tls.sh; the broker's
store password is read from conf/kafka.properties, where the broker reads it.

scram creates the SCRAM-SHA-512 user whose name and password are the values
of the variables U and P, through the PLAINTEXT listener (the broker has no
authorizer), and checks it is listed.  The values never go on a command line.

produce is lanecheck.py produce, unchanged, with its producer speaking
SASL_SSL to the secure listener: the records of the check are written over
the listener the job reads.

nosecret fails if the value of any variable NAME appears in any file under
the PATHs (the generated SQL, the plan's resources, the logs, the results,
the jobs' checkpoints and savepoints): the credentials must stay in the
environment, resolved by the Kafka client (fluid-sqlgen(1), ENVIRONMENT
REFERENCES).  It prints what it searched, never a value.  The serialized
JobGraph is not a file here (a MiniCluster keeps it in memory; HA writes it
in a deployment): tools/flink-runner's KafkaProvidersJobTest greps it.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LIVE = os.path.dirname(HERE)


def _env(name):
    v = os.environ.get(name)
    if not v:
        sys.exit(f"sasl_check: the environment variable {name} is not set")
    return v


def broker_store_password():
    """The broker's keystore password, as conf/kafka.properties gives it."""
    key = "listener.name.sasl_ssl.ssl.keystore.password="
    with open(os.path.join(LIVE, "conf", "kafka.properties")) as fh:
        for line in fh:
            if line.startswith(key):
                return line[len(key):].strip()
    sys.exit("sasl_check: conf/kafka.properties sets no " + key.rstrip("="))


def cmd_tls(a):
    env = dict(os.environ, LIVE_TLS_BROKER_PASSWORD=broker_store_password(),
               LIVE_TLS_TRUSTSTORE_PASSWORD_ENV="LIVE_TLS_BROKER_PASSWORD")
    subprocess.run(["bash", os.path.join(LIVE, "lib", "tls.sh"), os.path.join(a.run, "tls")],
                   env=env, check=True, timeout=120)


def cmd_scram(a):
    from confluent_kafka.admin import (AdminClient, ScramCredentialInfo, ScramMechanism,
                                       UserScramCredentialUpsertion)
    user, password = _env(a.user_env), _env(a.password_env)
    admin = AdminClient({"bootstrap.servers": a.bootstrap, "socket.timeout.ms": 5000})
    up = UserScramCredentialUpsertion(user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
                                      password.encode())
    for f in admin.alter_user_scram_credentials([up], request_timeout=30).values():
        f.result(timeout=60)
    deadline = time.monotonic() + 60
    while True:
        try:
            got = admin.describe_user_scram_credentials([user], request_timeout=10)
            desc = got.result(timeout=20) if hasattr(got, "result") else {
                u: f.result(timeout=20) for u, f in got.items()}
            mechs = [i.mechanism for i in desc[user].scram_credential_infos]
            if ScramMechanism.SCRAM_SHA_512 in mechs:
                break
        except Exception as e:  # noqa: BLE001 - not yet propagated
            if time.monotonic() > deadline:
                sys.exit(f"sasl_check: the SCRAM user from {a.user_env} is not listed: {e}")
        if time.monotonic() > deadline:
            sys.exit(f"sasl_check: the SCRAM user from {a.user_env} is not listed")
        time.sleep(0.5)
    print(f"sasl_check: SCRAM-SHA-512 user from {a.user_env}, password from {a.password_env}")


def cmd_produce(a, rest):
    import confluent_kafka

    import lanecheck

    secure = {"bootstrap.servers": a.sasl_bootstrap, "security.protocol": "SASL_SSL",
              "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": _env(a.user_env),
              "sasl.password": _env(a.password_env), "ssl.ca.location": a.ca,
              "ssl.endpoint.identification.algorithm": "https"}
    plain = confluent_kafka.Producer

    def producer(conf, **kw):
        c = dict(conf)
        c.update(secure)
        return plain(c, **kw)

    # lanecheck.py imports Producer when it produces: it gets this one.
    confluent_kafka.Producer = producer
    sys.argv = ["lanecheck.py", "produce"] + rest
    lanecheck.main()
    print(f"sasl_check: produced over SASL_SSL to {a.sasl_bootstrap}")


def cmd_nosecret(a, paths):
    values = [(n, _env(n)) for n in a.env]
    files = 0
    state = 0
    found = []
    for top in paths:
        for dirpath, _, names in os.walk(top) if os.path.isdir(top) else [(os.path.dirname(top), None,
                                                                            [os.path.basename(top)])]:
            for f in names:
                p = os.path.join(dirpath, f)
                try:
                    with open(p, "rb") as fh:
                        data = fh.read()
                except OSError:
                    continue
                files += 1
                # The jobs' checkpoints and savepoints (the harness's
                # state.*.dir under the run): the operators' state, and with
                # it the KafkaSource's splits, as a restore would read them.
                if os.sep + "checkpoints" + os.sep in p or os.sep + "savepoints" + os.sep in p:
                    state += 1
                for n, v in values:
                    if v.encode() in data:
                        found.append((n, p))
    for n, p in found:
        print(f"sasl_check: the value of {n} is in {p}")
    if found:
        sys.exit(1)
    print(f"sasl_check: no value of {', '.join(a.env)} in {files} files under {len(paths)} paths "
          f"({state} of them checkpoint or savepoint files)")


def main():
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tls")
    t.add_argument("--run", required=True)
    s = sub.add_parser("scram")
    s.add_argument("--bootstrap", default="127.0.0.1:9092")
    s.add_argument("--user-env", required=True)
    s.add_argument("--password-env", required=True)
    p = sub.add_parser("produce")
    p.add_argument("--sasl-bootstrap", default="127.0.0.1:9094")
    p.add_argument("--user-env", required=True)
    p.add_argument("--password-env", required=True)
    p.add_argument("--ca", required=True)
    n = sub.add_parser("nosecret")
    n.add_argument("--env", action="append", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "tls":
        cmd_tls(a)
    elif a.cmd == "scram":
        cmd_scram(a)
    elif a.cmd == "produce":
        cmd_produce(a, rest)
    else:
        cmd_nosecret(a, rest)


if __name__ == "__main__":
    main()
