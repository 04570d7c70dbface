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

    with open(os.path.join(run, "gen.tsv"), "w") as fh:
        fh.writelines(gen_tsv)
    write_plan(run, jobs, cdir)
    # LIVE_ONLY applies to this check too (it needs check "examples").
    if not os.environ.get("LIVE_ONLY") or "verify" in os.environ["LIVE_ONLY"].split(","):
        verify_check.append_plan(run, os.path.abspath(fluid))
    acc = sum(1 for l in gen_tsv if "\taccepted\t" in l)
    print(f"prepare: {len(gen_tsv)} contracts generated, fluid accepted {acc}")


def write_plan(run, jobs, cdir):
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
        f"exec {vpy} {os.path.join(HERE, 'explain_report.py')} --gen {run}/gen.tsv "
        f"--report {run}/explain.tsv --known {os.path.join(LIVE, 'known-findings.tsv')}",
        ""]
    # 3. An existing table whose nested schema differs is refused before any write.
    lines.append("check refused: an existing table with another nested schema is refused before any write")
    for name, mutation in DRIFTS:
        s, t = j(f"drift-{name}")
        lines.append(f"exec {lc} drift-create --table-json {t} --table commerce.drift_{name} "
                     f"--mutation {mutation}")
        if name == "same":
            lines.append(f"explain drift-{name}={s}={t}")
        else:
            lines.append(f"run --script {s} --table {t} --expect-exit 3 --timeout-s 120")
            lines.append(f"exec {lc} untouched --table-json {t} --table commerce.drift_{name} "
                         f"--mutation {mutation}")
    lines.append("")
    # 2. Both shapes (and the landed one) from the shared stream fragment, key and header.
    ls, lt = j("example-landed")
    lines += [
        "check examples: landed, flattened and reshaped from one shared stream, with key and header",
        f"exec {ka} create orders --partitions 2",
        f"exec {lc} produce --dataset orders --table-json {lt} --key-col order_key --id-col event_id "
        f"--topic orders --count 200 --seed 7 --state {st}/orders.pkl",
    ]
    for shape, key in (("landed", "event_id"), ("flattened", None), ("reshaped", "order.id")):
        s, t = j(f"example-{shape}")
        lines.append(f"run --script {s} --table {t} --expect-rows @{st}/orders.pkl.counts:{shape} --settle "
                     f"--timeout-s 300")
        lines.append(f"exec {lc} verify --shape {shape} --state {st}/orders.pkl --table-json {t}"
                     + (f" --key {key}" if key else "")
                     + f" --name example-{shape} --known {os.path.join(LIVE, 'known-findings.tsv')}")
    lines.append("")
    # 1. 200 deeply nested records, a task manager killed midway.
    ns, nt = j("nested")
    lines += [
        "check nested: 200 nested records, every value read back, task manager killed midway",
        f"exec {ka} create nested --partitions 2",
        f"run --script {ns} --table {nt} --expect-rows 200 --kill-tm-after-rows 40 --timeout-s 400 "
        f"--during {lc} produce --dataset schema --table-json {nt} --key-col rec_key --id-col id "
        f"--topic nested --count 200 --seed 11 --rate 12 --state {st}/nested.pkl",
        f"exec {lc} verify --shape landed --state {st}/nested.pkl --table-json {nt} --key id",
        ""]
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
        f"run --script {avs} --table {avt} --expect-rows @{st}/avro.pkl.counts:avro --settle "
        f"--timeout-s 240",
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
    lines += gateway_plan(run, cdir, vpy, lc, ka, st)
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
        f"exec {lc} produce --dataset orders --table-json {r[1]} --key-col order_key "
        f"--id-col event_id --topic gateway_orders --count 60 --seed 17 --state {st}/gateway.pkl",
        f"exec --timeout-s 600 {gc} apply --table-json {r[1]} --state {st}/gateway.pkl",
        f"exec {lc} verify --shape landed --state {st}/gateway.pkl --table-json {r[1]} --key event_id "
        f"--name gateway-landed --known {os.path.join(LIVE, 'known-findings.tsv')}",
        f"exec --timeout-s 400 {gc} errors",
        ""]


def _found(gdir, name):
    d = os.path.join(gdir, name)
    s = next(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".sql"))
    return s, s[:-len(".sql")] + ".table.json"


if __name__ == "__main__":
    main()
