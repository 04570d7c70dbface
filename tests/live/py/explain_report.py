# SPDX-License-Identifier: Apache-2.0
"""Judges the explain check, both ways:
  - every contract fluid accepted must be EXPLAINed by Flink, except the known
    SQL-generator findings listed in known-findings.tsv (each must still
    fail, with its recorded error, or it is reported as fixed);
  - every contract fluid refused must be listed in expected-refusals.tsv,
    refused with the error text recorded there; a listed contract that fluid
    now accepts, or that the lane no longer generates, fails too.

  explain_report.py --gen RUN/gen.tsv --report RUN/explain.tsv --known FILE
                    [--refusals FILE]   (default: tests/live/expected-refusals.tsv)

Prints "N contracts: fluid accepted A, Flink accepted all A" (or which not),
and "fluid refused R, as expected" (or which not).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_tsv(path):
    """NAME -> the line's other fields, '#' lines and blank lines skipped."""
    out = {}
    for l in open(path):
        if l.strip() and not l.startswith("#"):
            f = l.rstrip("\n").split("\t")
            if len(f) < 3 or not f[1]:
                sys.exit(f"explain: {path}: a line needs NAME, the error text and why: {l.rstrip()}")
            out[f[0]] = f[1:]
    return out


def judge_refusals(gen, expected):
    """Problems with fluid's refusals; gen: (name, group, status, error) rows."""
    status = {g[0]: (g[2], g[3] if len(g) > 3 else "") for g in gen}
    problems, ok = [], []
    for name, (st, err) in status.items():
        if st == "accepted":
            continue
        if name not in expected:
            problems.append(f"fluid refused {name}, which is expected to pass: {err}")
        elif expected[name][0] not in err:
            problems.append(f"fluid refused {name} for another reason than the expected "
                            f"'{expected[name][0]}': {err}")
        else:
            ok.append(name)
    for name, (text, *why) in expected.items():
        if name not in status:
            problems.append(f"{name} is listed in expected-refusals.tsv but the lane does not "
                            "generate it: remove the line")
        elif status[name][0] == "accepted":
            problems.append(f"{name} is listed in expected-refusals.tsv ('{text}') but fluid "
                            "accepts it now")
    return problems, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--known", required=True)
    ap.add_argument("--refusals", default=os.path.join(os.path.dirname(HERE), "expected-refusals.tsv"))
    a = ap.parse_args()
    gen = [l.rstrip("\n").split("\t") for l in open(a.gen) if l.strip()]
    rep = {}
    for l in open(a.report):
        f = l.rstrip("\n").split("\t")
        if len(f) >= 2:
            rep[f[0]] = f
    known = {}
    for l in open(a.known):
        if l.strip() and not l.startswith("#"):
            f = l.rstrip("\n").split("\t")
            if f[0] == "explain":
                known[f[1]] = f[1:]
    groups = {}
    for name, group, status, *_ in gen:
        groups.setdefault(group, [0, 0])
        groups[group][0] += 1
        groups[group][1] += status == "accepted"
    total = len(gen)
    accepted = [g[0] for g in gen if g[2] == "accepted"]
    refused = [(g[0], g[3]) for g in gen if g[2] != "accepted"]
    ok = [n for n in accepted if rep.get(n, [n, "missing"])[1] == "ok"]
    bad = [n for n in accepted if n not in ok]
    expected_refusals = read_tsv(a.refusals)
    refusal_problems, refused_ok = judge_refusals(gen, expected_refusals)
    for n in refused_ok:
        print(f"explain: fluid refused {n}, as expected-refusals.tsv says: "
              f"{expected_refusals[n][1] if len(expected_refusals[n]) > 1 else expected_refusals[n][0]}")
    for p in refusal_problems:
        print(f"explain: {p}")
    unexpected, still_known, fixed = [], [], []
    for n in bad:
        err = rep[n][3] if n in rep and len(rep[n]) > 3 else "no report line"
        k = known.get(n)
        if k and k[1] in err:
            still_known.append((n, k))
        else:
            unexpected.append((n, err))
    for n, k in known.items():
        if n in ok:
            fixed.append(n)
    for n, k in still_known:
        print(f"explain: KNOWN generator finding {n}: {k[2] if len(k) > 2 else k[1]}")
    for n, err in unexpected:
        print(f"explain: Flink refused {n}: {err[:600]}")
    for n in fixed:
        print(f"explain: {n} is listed in known-findings.tsv but Flink accepts it now: remove the line")
    parts = ", ".join(f"{g} {v[1]}/{v[0]}" for g, v in sorted(groups.items()))
    if not bad:
        print(f"explain: {total} contracts: fluid accepted {len(accepted)}, "
              f"Flink accepted all {len(accepted)} ({parts})")
    else:
        print(f"explain: {total} contracts: fluid accepted {len(accepted)}, Flink accepted "
              f"{len(ok)} of {len(accepted)} ({parts}); {len(still_known)} known generator findings, "
              f"{len(unexpected)} unexpected")
    print(f"explain: fluid refused {len(refused)}: " + (
        f"all {len(refused)} as expected-refusals.tsv lists them" if not refusal_problems
        else f"{len(refused_ok)} as expected, {len(refusal_problems)} problems with the list"))
    sys.exit(1 if unexpected or fixed or refusal_problems else 0)


if __name__ == "__main__":
    main()
