"""Judges the explain check: every contract fluid accepted must be EXPLAINed by
Flink, except the known SQL-generator findings listed in known-findings.tsv
(each must still fail, with its recorded error, or it is reported as fixed).

  explain_report.py --gen RUN/gen.tsv --report RUN/explain.tsv --known FILE

Prints "N contracts: fluid accepted A, Flink accepted all A" (or which not).
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--known", required=True)
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
    for n, why in refused:
        print(f"explain: fluid refused {n}: {why}")
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
    sys.exit(1 if unexpected or fixed else 0)


if __name__ == "__main__":
    main()
