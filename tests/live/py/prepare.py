# SPDX-License-Identifier: Apache-2.0
"""Prepares one run of the live lane: contracts, fluid-generated SQL and the
harness's plan.

  prepare.py --root REPO --fluid-bin DIR --run RUN_DIR

Writes under RUN_DIR:
  contracts/   the examples with the lane's endpoints, the lane's own
               contracts, the generated hard mappings and the variants
  gen/NAME/    fluid generate flink output (BUILD.sql, BUILD.table.json)
  gen.tsv      NAME, accepted|refused, fluid's first error line
  plan.txt     the harness's plan (see harness/src/main/java/fluid/live/Main.java)

The examples point at development placeholders; like a person deploying
them (examples/README.md, "Before deploying") the lane replaces the catalog
URI, the S3 endpoint and the Kafka servers with its own, and drops
catalogAuth: the lane's catalog is plain http on the loopback, where fluid
refuses credentials.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import cfk_check
import desc_check
import oracle
import verify_check

HERE = os.path.dirname(os.path.abspath(__file__))
LIVE = os.path.dirname(HERE)
PY = sys.executable

# Each example: its contract under examples/shapes, and the shape lanecheck verifies.
EXAMPLES = [("landed", "landed/orders-landed.fluid.yaml"),
            ("flattened", "flattened/orders-items.fluid.yaml"),
            ("reshaped", "reshaped/orders-reshaped.fluid.yaml"),
            ("inlined", "inlined/orders-landed.fluid.yaml")]
# Check 3: nested differences of an existing table (lanecheck.py mutate()).
DRIFTS = [("type", "type:customer.address.country"),
          ("order", "swap:customer.address.city"),
          ("nullability", "required:items[].quantity"),
          ("extra", "extra:customer.address.country"),
          ("decimal", "decimal:items[].price"),
          ("same", "same:event_id")]


def localise(text):
    text = text.replace("https://catalog.example.com/api/catalog", "http://127.0.0.1:8181")
    text = text.replace("https://s3.example.com", "http://127.0.0.1:9000")
    text = text.replace("bootstrapServers: kafka:9092", "bootstrapServers: 127.0.0.1:9092")
    return "".join(l for l in text.splitlines(keepends=True) if "catalogAuth:" not in l)


def generate(fluid, contract, out):
    os.makedirs(out, exist_ok=True)
    p = subprocess.run([fluid, "generate", "flink", contract, "--out", out],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        err = (p.stderr or p.stdout).strip().splitlines()
        return None, err[0] if err else f"exit {p.returncode}"
    sql = [f for f in os.listdir(out) if f.endswith(".sql")]
    if len(sql) != 1:
        return None, f"expected one .sql in {out}, found {sql}"
    s = os.path.join(out, sql[0])
    return (s, s[:-len(".sql")] + ".table.json"), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--fluid-bin", required=True)
    ap.add_argument("--run", required=True)
    a = ap.parse_args()
    fluid = os.path.join(a.fluid_bin, "fluid")
    run = a.run
    cdir = os.path.join(run, "contracts")
    gdir = os.path.join(run, "gen")
    os.makedirs(gdir, exist_ok=True)
    gen_tsv = []
    jobs = {}

    def gen(name, contract, group):
        r, err = generate(fluid, contract, os.path.join(gdir, name))
        gen_tsv.append(f"{name}\t{group}\t{'accepted' if r else 'refused'}\t{err or ''}\n")
        if r:
            jobs[name] = r
        else:
            print(f"prepare: fluid refused {name}: {err}")
        return r

    # The examples, with the lane's endpoints.
    ex = os.path.join(cdir, "examples")
    shutil.copytree(os.path.join(a.root, "examples", "shapes"), ex)
    for dirpath, _, files in os.walk(ex):
        for f in files:
            if f.endswith(".yaml"):
                p = os.path.join(dirpath, f)
                with open(p) as fh:
                    t = fh.read()
                with open(p, "w") as fh:
                    fh.write(localise(t))
    for name, rel in EXAMPLES:
        gen(f"example-{name}", os.path.join(ex, rel), "example")

    # Variants of the inlined example: the drift tables and the malformed topic.
    with open(os.path.join(ex, "inlined", "orders-landed.fluid.yaml")) as fh:
        inlined = fh.read()
    for name, _ in DRIFTS:
        t = inlined.replace("table: orders_landed", f"table: drift_{name}")
        p = os.path.join(ex, "inlined", f"drift-{name}.fluid.yaml")
        with open(p, "w") as fh:
            fh.write(t)
        r, err = generate(fluid, p, os.path.join(gdir, f"drift-{name}"))
        if not r:
            sys.exit(f"prepare: fluid refused the drift variant {name}: {err}")
    t = inlined.replace("table: orders_landed", "table: orders_bad").replace(
        "topic: orders", "topic: orders_bad").replace(
        "groupId: forge-commerce-orders-landed-v1", "groupId: live-orders-bad")
    p = os.path.join(ex, "inlined", "malformed.fluid.yaml")
    with open(p, "w") as fh:
        fh.write(t)
    r, err = generate(fluid, p, os.path.join(gdir, "malformed"))
    if not r:
        sys.exit(f"prepare: fluid refused the malformed variant: {err}")

    # The lane's own nested contract.
    shutil.copytree(os.path.join(LIVE, "contracts"), os.path.join(cdir, "live"))
    if not gen("nested", os.path.join(cdir, "live", "deep", "nested-landed.fluid.yaml"), "live"):
        sys.exit("prepare: fluid refused tests/live/contracts/deep/nested-landed.fluid.yaml")

    # The avro-confluent contract: generated, but not EXPLAINed first, so that
    # the runner creates its table (the "create the missing table" path).
    r, err = generate(fluid, os.path.join(cdir, "live", "avro", "avro-ltz.fluid.yaml"),
                      os.path.join(gdir, "avro-ltz"))
    if not r:
        sys.exit(f"prepare: fluid refused tests/live/contracts/avro/avro-ltz.fluid.yaml: {err}")

    # The hard mappings.
    hdir = os.path.join(cdir, "hard")
    subprocess.run([PY, os.path.join(HERE, "hardgen.py"), hdir], check=True, timeout=60)
    shutil.copy(os.path.join(LIVE, "contracts", "fluid.workspace.yaml"), hdir)
    for f in sorted(os.listdir(hdir)):
        if f.endswith(".fluid.yaml"):
            gen("hard-" + f[:-len(".fluid.yaml")], os.path.join(hdir, f), "hard")

    cdc_generate(gen, a.root, cdir)
    with open(os.path.join(run, "gen.tsv"), "w") as fh:
        fh.writelines(gen_tsv)
    write_plan(run, jobs, cdir, fluid=fluid)
    only = os.environ.get("LIVE_ONLY")
    if not only or "verify" in only.split(","):
        verify_check.append_plan(run, os.path.abspath(fluid))
    if not only or "desc" in only.split(","):
        desc_check.append_plan(run, os.path.abspath(fluid))
    sasl_plan(run, os.path.abspath(fluid), cdir)
    acc = sum(1 for l in gen_tsv if "\taccepted\t" in l)
    print(f"prepare: {len(gen_tsv)} contracts generated, fluid accepted {acc}")


def write_plan(run, jobs, cdir, fluid=None):
    vpy = PY
    lc = f"{vpy} {os.path.join(HERE, 'lanecheck.py')}"
    ka = f"{vpy} {os.path.join(HERE, 'kafka_admin.py')}"
    g = os.path.join(run, "gen")
    st = os.path.join(run, "state")

    def j(name):
        s, t = jobs[name] if name in jobs else _found(g, name)
        return s, t

    lines = ["# Generated by tests/live/py/prepare.py", ""]
    # 4. EXPLAIN everything fluid accepted (first: it warms the planner up cheaply).
    pairs = " ".join(f"{n}={s}={t}" for n, (s, t) in sorted(jobs.items()))
    lines += [
        "check explain: every example and hard mapping fluid accepts is EXPLAINed by Flink",
        f"explain --no-fail --report {run}/explain.tsv {pairs}",
        f"exec {vpy} {os.path.join(HERE, 'test_explain_report.py')}",
        f"exec {vpy} {os.path.join(HERE, 'explain_report.py')} --gen {run}/gen.tsv "
        f"--report {run}/explain.tsv --known {os.path.join(LIVE, 'known-findings.tsv')} "
        f"--refusals {os.path.join(LIVE, 'expected-refusals.tsv')}",
        # --validate-only runs the setup DDL, so the runner created the tables
        # above; drop those the row checks write, so that their jobs take the
        # runner's "create the missing table, then run" path.
        f"exec {lc} drop " + " ".join(sorted({oracle.load(c).ident for c in row_contracts(cdir)})),
        ""]
    # 3. An existing table whose nested schema differs is refused before any write.
    lines.append("check refused: an existing table with another nested schema is refused before any write")
    for name, mutation in DRIFTS:
        s, t = j(f"drift-{name}")
        # The tables are the contract's expose with one difference, built from
        # its YAML: "same" is then accepted only if fluid's table.json is it.
        dc = os.path.join(cdir, "examples", "inlined", f"drift-{name}.fluid.yaml")
        lines.append(f"exec {lc} drift-create --contract {dc} --table commerce.drift_{name} "
                     f"--mutation {mutation}")
        if name == "same":
            lines.append(f"explain drift-{name}={s}={t}")
        else:
            lines.append(f"run --script {s} --table {t} --expect-exit 3 --timeout-s 120")
            lines.append(f"exec {lc} untouched --contract {dc} --table commerce.drift_{name} "
                         f"--mutation {mutation}")
    lines.append("")
    # 2. Both shapes (and the landed one) from the shared stream fragment, key and header.
    exc = dict(zip(("landed", "flattened", "reshaped"), row_contracts(cdir)))
    lines += [
        "check examples: landed, flattened and reshaped from one shared stream, with key and header",
        f"exec {vpy} {os.path.join(HERE, 'test_oracle.py')}",
        f"exec {ka} create orders --partitions 2",
        f"exec {lc} produce --dataset orders --contract {exc['landed']} --key-col order_key "
        f"--id-col event_id --topic orders --count 200 --seed 7 --state {st}/orders.pkl "
        + " ".join(f"--expect {sh}={c}" for sh, c in exc.items()),
    ]
    for shape, key in (("landed", "event_id"), ("flattened", None), ("reshaped", "order.id")):
        s, t = j(f"example-{shape}")
        ident = oracle.load(exc[shape]).ident
        lines.append(f"exec {lc} absent {ident}")
        lines.append(f"run --script {s} --table {t} --expect-rows @{st}/orders.pkl.counts:{shape} --settle "
                     f"--timeout-s 300 --expect-error \"{created(s, ident)}\"")
        lines.append(f"exec {lc} verify --shape {shape} --state {st}/orders.pkl --contract {exc[shape]}"
                     + (f" --key {key}" if key else "")
                     + f" --name example-{shape} --known {os.path.join(LIVE, 'known-findings.tsv')}")
    lines.append("")
    # 1. 200 deeply nested records, a task manager killed midway.
    #    State on S3 where fluid-k8s renders it (BUILD.k8s.json); every state handle
    #    is a file (Cluster.java), so the fresh task manager reads its state from S3.
    #    The checkpoints are deleted when the job finishes (retained on
    #    cancellation only): the final savepoint is what stays on S3.
    ns, nt = j("nested")
    nc = row_contracts(cdir)[3]
    nk = nt[:-len(".table.json")] + ".k8s.json"
    nstate = "s3://flink-state/live-nested-landed"
    lines += [
        "check nested: 200 nested records, every value read back, task manager killed midway, "
        "restored from its checkpoint on S3",
        f"exec {ka} create nested --partitions 2",
        f"exec {lc} absent {oracle.load(nc).ident}",
        f"run --script {ns} --table {nt} --expect-rows 200 --kill-tm-after-rows 40 --timeout-s 400 "
        f"--state-conf {nk} --expect-restore-prefix {nstate}/checkpoints/ "
        f"--expect-error \"{created(ns, oracle.load(nc).ident)}\" "
        f"--during {lc} produce --dataset schema --contract {nc} --key-col rec_key --id-col id "
        f"--topic nested --count 200 --seed 11 --rate 12 --state {st}/nested.pkl",
        f"exec {vpy} {os.path.join(HERE, 'upgradecheck.py')} state --prefix {nstate}/savepoints --min-objects 2",
        f"exec {lc} verify --shape landed --state {st}/nested.pkl --contract {nc} --key id",
        ""]
    lines += upgrade_plan(run, cdir, fluid)
    # 6. avro-confluent through the lane's schema registry, the oracle from the YAML.
    avs, avt = j("avro-ltz")
    avc = os.path.join(cdir, "live", "avro", "avro-ltz.fluid.yaml")
    ac = f"{vpy} {os.path.join(HERE, 'avrocheck.py')}"
    lines += [
        "check avro: avro-confluent value and key through a real registry, timestamp_ltz, "
        "a FORWARD-evolved writer, rows from the contract's YAML",
        f"exec {ka} create live-avro-ltz --partitions 2",
        f"exec {ac} produce --contract {avc} --topic live-avro-ltz --count 60 --seed 5 "
        f"--state {st}/avro.pkl",
        f"exec {lc} absent {oracle.load(avc).ident}",
        f"run --script {avs} --table {avt} --expect-rows @{st}/avro.pkl.counts:avro --settle "
        f"--timeout-s 240 --expect-error \"{created(avs, oracle.load(avc).ident)}\"",
        f"exec {ac} verify --contract {avc} --state {st}/avro.pkl --name avro-null-key "
        f"--known {os.path.join(LIVE, 'known-findings.tsv')}",
        ""]
    # 5. A malformed JSON record fails the job.
    ms, mt = j("malformed")
    lines += [
        "check malformed: a malformed JSON record fails the job",
        f"exec {ka} create orders_bad --partitions 1",
        f"exec {lc} produce --dataset orders --table-json {mt} --key-col order_key --id-col event_id "
        f"--topic orders_bad --count 20 --seed 3 --malformed-at 10 --state {st}/bad.pkl",
        f"run --script {ms} --table {mt} --expect-failure --expect-error \"Failed to deserialize JSON\" "
        f"--set restart-strategy.fixed-delay.attempts=1 --timeout-s 240",
        ""]
    lines += cdc_plan_lines(j, run, vpy, ka)
    lines += gateway_plan(run, cdir, vpy, lc, ka, st)
    if fluid is not None:
        lines += cfk_check.plan(run, cdir, os.path.dirname(os.path.abspath(fluid)))
    only = os.environ.get("LIVE_ONLY")
    if only:
        # LIVE_ONLY=avro,nested: only those checks (by the first word of their name).
        keep, out = True, []
        for l in lines:
            if l.startswith("check "):
                keep = l[6:].split(":")[0] in only.split(",")
            if keep or not l.strip():
                out.append(l)
        lines = out
    with open(os.path.join(run, "plan.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


def row_contracts(cdir):
    """The contracts of the checks that commit rows from JSON records: the
    landed, flattened and reshaped examples and the nested one."""
    ex = os.path.join(cdir, "examples")
    return [os.path.join(ex, r) for _, r in EXAMPLES[:3]] + [
        os.path.join(cdir, "live", "deep", "nested-landed.fluid.yaml")]


def created(script, ident):
    """What the runner prints when it created the table (FlinkRunner: the
    catalog of the script's CREATE CATALOG, then the table)."""
    with open(script) as fh:
        cat = re.search(r"CREATE CATALOG `([^`]+)`", fh.read()).group(1)
    return f"fluid-flink-runner: created {cat}.{ident}"


def upgrade_plan(run, cdir, fluid):
    """The upgrade check (py/upgradecheck.py): version 1 of
    contracts/upgrade runs with its rendered S3 state while a producer goes on,
    is stopped with a savepoint once 30 rows are committed; version 2 (one
    optional stream field more, non-breaking for fluid diff) starts from that
    savepoint; every record produced before, during and after lands once.
    Generated here, not EXPLAINed first: the first job creates the table."""
    if fluid is None:
        return []
    vpy = PY
    uc = f"{vpy} {os.path.join(HERE, 'upgradecheck.py')}"
    lc = f"{vpy} {os.path.join(HERE, 'lanecheck.py')}"
    st = os.path.join(run, "state")
    udir = os.path.join(cdir, "live", "upgrade")
    gen = {}
    for v in (1, 2):
        r, err = generate(fluid, os.path.join(udir, f"orders-v{v}.fluid.yaml"),
                          os.path.join(run, "gen", f"upgrade-v{v}"))
        if not r:
            sys.exit(f"prepare: fluid refused tests/live/contracts/upgrade/orders-v{v}.fluid.yaml: {err}")
        gen[v] = (r[0], r[1], r[1][:-len(".table.json")] + ".k8s.json")
    (s1, t1, k1), (s2, t2, k2) = gen[1], gen[2]
    sp = "s3://flink-state/live-upgrade-orders/savepoints"
    return [
        "check upgrade: stopped with a savepoint on S3, a non-breaking change started from it, "
        "every record before, during and after landed once",
        f"exec {uc} diff --fluid {fluid} --baseline {udir}/orders-v1.fluid.yaml "
        f"--contract {udir}/orders-v2.fluid.yaml --out {run}/upgrade.diff.json",
        f"exec {uc} topic --topic live-upgrade --partitions 2",
        f"spawn upgrade-producer {lc} produce --dataset orders --contract {udir}/orders-v1.fluid.yaml "
        f"--key-col order_key "
        f"--id-col event_id --topic live-upgrade --count 400 --seed 13 --rate 4 --state {st}/upgrade.pkl",
        f"run --script {s1} --table {t1} --state-conf {k1} --stop-after-rows 30 "
        f"--while-running upgrade-producer --savepoint-out {st}/upgrade.savepoint "
        f"--events {st}/upgrade-1.events --timeout-s 300",
        f"exec {uc} state --prefix {sp} --savepoint-file {st}/upgrade.savepoint --min-objects 2",
        f"run --script {s2} --table {t2} --state-conf {k2} --from-savepoint @{st}/upgrade.savepoint "
        f"--expect-restore-prefix {sp}/ --expect-rows 400 --events {st}/upgrade-2.events --timeout-s 400",
        "join --timeout-s 180 upgrade-producer",
        f"exec {uc} verify --state {st}/upgrade.pkl --table live.upgrade_orders "
        f"--first-events {st}/upgrade-1.events --second-events {st}/upgrade-2.events",
        # The rows of both jobs against the oracle of the version running last
        # (the table is the same in both versions).
        f"exec {lc} verify --shape landed --state {st}/upgrade.pkl --contract {udir}/orders-v2.fluid.yaml "
        f"--key event_id",
        ""]


def sasl_plan(run, fluid, cdir):
    """The sasl check: the landed example over SASL_SSL (SCRAM-SHA-512, the
    lane's CA), its credentials from the environment; a wrong password fails
    the job; no password in the SQL, the plan's resources, the logs or the
    outputs.  The CA and the broker's keystore are made first, whatever
    LIVE_ONLY says: the broker's SASL_SSL listener needs them to start."""
    sc = os.path.join(HERE, "sasl_check.py")
    subprocess.run([PY, sc, "tls", "--run", run], check=True, timeout=180)
    only = os.environ.get("LIVE_ONLY")
    if only and "sasl" not in only.split(","):
        return
    ex = os.path.join(cdir, "examples")
    with open(os.path.join(LIVE, "contracts", "sasl", "security.yaml")) as fh:
        sec = "".join(l for l in fh if not l.startswith("#"))
    with open(os.path.join(ex, "fragments", "streams", "orders.yaml")) as fh:
        frag = fh.read()
    with open(os.path.join(ex, "fragments", "streams", "orders-sasl.yaml"), "w") as fh:
        fh.write(frag.replace("\ntopic: orders\n", "\ntopic: orders_sasl\n"))
    with open(os.path.join(ex, "landed", "orders-landed.fluid.yaml")) as fh:
        landed = fh.read()
    g = os.path.join(run, "gen")
    made = {}
    for name, pw in (("sasl", "LIVE_KAFKA_PASSWORD"), ("sasl-wrong", "LIVE_KAFKA_WRONG_PASSWORD")):
        ind = " " * 12
        block = "".join(ind + l + "\n" for l in sec.replace("@CA@", os.path.join(run, "tls", "ca.pem"))
                        .replace("@PASSWORD_ENV@", pw).strip("\n").split("\n"))
        t = (landed.replace("bootstrapServers: 127.0.0.1:9092", "bootstrapServers: 127.0.0.1:9094")
             .replace("../fragments/streams/orders.yaml", "../fragments/streams/orders-sasl.yaml")
             .replace("table: orders_landed", f"table: orders_{name.replace('-', '_')}")
             .replace("groupId: forge-commerce-orders-landed-v1\n",
                      f"groupId: live-orders-{name}\n" + block))
        if "protocol: SASL_SSL" not in t or "9094" not in t:
            sys.exit(f"prepare: the {name} contract did not take the edit")
        p = os.path.join(ex, "landed", f"orders-{name}.fluid.yaml")
        with open(p, "w") as fh:
            fh.write(t)
        r, err = generate(fluid, p, os.path.join(g, name))
        if not r:
            sys.exit(f"prepare: fluid refused the {name} contract: {err}")
        # The plan's resources (ConfigMap, FlinkDeployment), for the grep.
        plan = os.path.join(g, name, "plan.json")
        subprocess.run([fluid, "plan", "--mode", "dry-run", "--out", plan, p],
                       check=True, capture_output=True, timeout=60)
        made[name] = r + (p, env_allow(p, plan))
    (s, t, sc_p, allow), (ws, wt, _, wallow) = made["sasl"], made["sasl-wrong"]
    st = os.path.join(run, "state")
    ka = f"{PY} {os.path.join(HERE, 'kafka_admin.py')}"
    lc = f"{PY} {os.path.join(HERE, 'lanecheck.py')}"
    ca = os.path.join(run, "tls", "ca.pem")
    cred = "--user-env LIVE_KAFKA_USER --password-env LIVE_KAFKA_PASSWORD"
    lines = [
        "check sasl: the landed example reads Kafka over SASL_SSL (SCRAM-SHA-512, the lane's CA), "
        "credentials from the environment; a wrong password fails the job; no password anywhere",
        f"exec {PY} {sc} scram {cred}",
        f"exec {ka} create orders_sasl --partitions 2",
        f"exec {PY} {sc} produce {cred} --ca {ca} -- --dataset orders --contract {sc_p} "
        f"--expect landed={sc_p} --key-col order_key --id-col event_id --topic orders_sasl --count 60 "
        f"--seed 13 --state {st}/sasl.pkl",
        # The password's variable left out of --env-allow: refused before anything runs.
        f"run --script {s} --table {t} --env-allow LIVE_KAFKA_USER --expect-exit 4 --expect-error "
        f"\"references the variable LIVE_KAFKA_PASSWORD, which --env-allow LIVE_KAFKA_USER does not allow\" "
        f"--timeout-s 120",
        # ... nothing ran: not even the catalog's CREATE TABLE.
        f"exec {lc} absent {oracle.load(sc_p).ident}",
        f"run --script {s} --table {t} --env-allow {allow} --expect-rows @{st}/sasl.pkl.counts:landed "
        f"--settle --timeout-s 300",
        f"exec {lc} verify --shape landed --state {st}/sasl.pkl --contract {sc_p} --key event_id "
        f"--name sasl-landed --known {os.path.join(LIVE, 'known-findings.tsv')}",
        f"run --script {ws} --table {wt} --env-allow {wallow} --expect-failure --expect-error "
        f"\"Authentication failed\" --set restart-strategy.fixed-delay.attempts=1 --timeout-s 240",
        # Everything of the run: the SQL and the plans (gen/), the contracts,
        # every log so far, the results, the job's state, Kafka's data.
        f"exec {PY} {sc} nosecret --env LIVE_KAFKA_PASSWORD --env LIVE_KAFKA_WRONG_PASSWORD -- {run}",
        ""]
    with open(os.path.join(run, "plan.txt"), "a") as fh:
        fh.write("\n".join(lines) + "\n")


# The contract keys that name a variable the pod holds (fluid-check(1)).
ENV_KEYS = ("usernameEnv", "passwordEnv", "jaasConfigEnv", "keyPasswordEnv", "tokenEnv", "credentialEnv")


def env_allow(contract, plan):
    """The runner's --env-allow for a contract: every variable its YAML names
    (Kafka security, catalogAuth), read here, not from fluid's output.  When
    the plan's FlinkDeployment passes --env-allow in spec.job.args, it must
    name the same variables."""
    import yaml
    names = set()

    def walk(n):
        if isinstance(n, dict):
            for k, v in n.items():
                if k in ENV_KEYS and isinstance(v, str):
                    names.add(v)
                walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)
    with open(contract) as fh:
        walk(yaml.safe_load(fh))
    if not names:
        sys.exit(f"prepare: {contract} names no variable")
    with open(plan) as fh:
        text = fh.read()
    rendered = re.findall(r'"--env-allow",\s*"([^"]*)"', text)
    if rendered and any(set(r.split(",")) != names for r in rendered):
        sys.exit(f"prepare: the plan's FlinkDeployment passes --env-allow {rendered}, the contract names "
                 f"{sorted(names)}")
    print(f"prepare: {os.path.basename(contract)}: --env-allow {','.join(sorted(names))} (the contract's "
          f"variables; the plan's FlinkDeployment " + ("passes the same)" if rendered else
                                                        "passes no --env-allow)"))
    return ",".join(sorted(names))


# The change-stream checks (issue 22; tests/live/py/cdccheck.py): the example
# (Debezium, upsert), the same topic landed as append-with-op, and Canal.
CDC = [("cdc-upsert", os.path.join("examples", "changes", "customers-cdc.fluid.yaml")),
       ("cdc-ops", os.path.join("tests", "live", "contracts", "cdc", "customers-ops.fluid.yaml")),
       ("cdc-canal", os.path.join("tests", "live", "contracts", "cdc", "customers-canal.fluid.yaml"))]


def cdc_generate(gen, root, cdir):
    d = os.path.join(cdir, "cdc")
    os.makedirs(d, exist_ok=True)
    for name, rel in CDC:
        with open(os.path.join(root, rel)) as fh:
            t = localise(fh.read())
        p = os.path.join(d, name + ".fluid.yaml")
        with open(p, "w") as fh:
            fh.write(t)
        if not gen(name, p, "cdc"):
            sys.exit(f"prepare: fluid refused {rel}")


def cdc_plan_lines(j, run, vpy, ka):
    cc = f"{vpy} {os.path.join(HERE, 'cdccheck.py')}"
    st = os.path.join(run, "state")
    us, ut = j("cdc-upsert")
    os_, ot = j("cdc-ops")
    cs, ct = j("cdc-canal")
    dbz = "dbserver1.crm.customers"
    return [
        "check cdc: Debezium creates, updates, deletes and tombstones upserted into Iceberg v2, "
        "the keyed final state read back, task manager killed midway",
        f"exec {ka} create {dbz} --partitions 2",
        f"exec {cc} plan --format debezium --keys 60 --seed 13 --state {st}/cdc.pkl",
        f"run --script {us} --table {ut} --expect-rows @{st}/cdc.pkl.counts:upsert "
        f"--kill-tm-after-rows 30 --timeout-s 900 "
        f"--during {cc} produce --state {st}/cdc.pkl --topic {dbz} --rate 6",
        f"exec {cc} verify --mode upsert --state {st}/cdc.pkl --table crm.customers",
        "",
        "check cdcops: the same Debezium records through append-with-op, one row per change "
        "with its operation",
        f"run --script {os_} --table {ot} --expect-rows @{st}/cdc.pkl.counts:ops --settle "
        f"--timeout-s 600",
        f"exec {cc} verify --mode ops --state {st}/cdc.pkl --table crm.customer_changes",
        "",
        "check cdccanal: Canal JSON upserted into Iceberg v2, the keyed final state read back",
        f"exec {ka} create canal.crm.customers --partitions 1",
        f"exec {cc} plan --format canal --keys 25 --seed 17 --state {st}/canal.pkl",
        f"exec {cc} produce --state {st}/canal.pkl --topic canal.crm.customers",
        f"run --script {cs} --table {ct} --expect-rows @{st}/canal.pkl.counts:upsert --settle "
        f"--timeout-s 600",
        f"exec {cc} verify --mode upsert --state {st}/canal.pkl --table crm.customers_canal",
        ""]


def gateway_plan(run, cdir, vpy, lc, ka, st):
    """Check "gateway" (gateway_check.py): the inlined example with a topic,
    group and table of its own, applied by fluid-gateway through the lane's
    SQL Gateway (lib/gateway.sh, fixed port 8083); its target file, and the
    scripts of the error paths.  Returns the plan's lines."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--fluid-bin", required=True)
    fluid_bin = os.path.abspath(ap.parse_known_args()[0].fluid_bin)
    d = os.path.join(run, "gateway")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(cdir, "examples", "inlined", "orders-landed.fluid.yaml")) as fh:
        t = fh.read()
    t = t.replace("table: orders_landed", "table: gateway_landed").replace(
        "topic: orders", "topic: gateway_orders").replace(
        "groupId: forge-commerce-orders-landed-v1", "groupId: live-gateway")
    contract = os.path.join(d, "gateway.fluid.yaml")
    with open(contract, "w") as fh:
        fh.write(t)
    r, err = generate(os.path.join(fluid_bin, "fluid"), contract, os.path.join(run, "gen", "gateway"))
    if not r:
        sys.exit(f"prepare: fluid refused the gateway variant: {err}")
    with open(os.path.join(d, "fluid.targets.yaml"), "w") as fh:
        fh.write("targets:\n  lane:\n    backend: flink\n"
                 "    flink: {gateway: \"http://127.0.0.1:8083\"}\n")
    gc = f"{vpy} {os.path.join(HERE, 'gateway_check.py')} --fluid-bin {fluid_bin} --dir {d}"
    return [
        "check gateway: fluid-gateway applies an example through a real Flink SQL Gateway, "
        "its rows land in Iceberg; a refused statement, a closed port, SIGINT",
        f"exec {ka} create gateway_orders --partitions 2",
        f"exec {lc} produce --dataset orders --contract {contract} --expect landed={contract} "
        f"--key-col order_key --id-col event_id --topic gateway_orders --count 60 --seed 17 "
        f"--state {st}/gateway.pkl",
        f"exec --timeout-s 600 {gc} apply --contract {contract} --state {st}/gateway.pkl",
        f"exec {lc} verify --shape landed --state {st}/gateway.pkl --contract {contract} --key event_id "
        f"--name gateway-landed --known {os.path.join(LIVE, 'known-findings.tsv')}",
        f"exec --timeout-s 400 {gc} errors",
        ""]


def _found(gdir, name):
    d = os.path.join(gdir, name)
    s = next(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".sql"))
    return s, s[:-len(".sql")] + ".table.json"


if __name__ == "__main__":
    main()
