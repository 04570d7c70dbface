#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/bench/k8s-apply-contract.py - the landed example with N builds.

    python3 tests/bench/k8s-apply-contract.py LANDED N [CONTEXT NAMESPACE [FIRST]] >OUT

LANDED is examples/shapes/landed/orders-landed.fluid.yaml (or a copy
beside its fragments: the stream is a $ref relative to it); OUT goes in
the same directory.  Each build k (1..N) lands its own expose orders-k
into table orders_landed_k, with its own consumer group (forge-commerce-orders-landed-k-v1), deployment
commerce-orders-landed-k and state prefixes.  CONTEXT and NAMESPACE
replace the example's development and data-products; FIRST (default 1)
numbers the builds FIRST..FIRST+N-1, so that two contracts in one
namespace name other deployments.  Used by
tests/bats/fluid-apply-many.bats and tests/bench/k8s-apply.
"""
import re
import sys


def main():
    src, n = sys.argv[1], int(sys.argv[2])
    text = open(src).read()
    if len(sys.argv) > 4:
        text = re.sub(r"(?m)^(\s*)context: development$",
                      r"\1context: " + sys.argv[3], text)
        text = re.sub(r"(?m)^(\s*)namespace: data-products$",
                      r"\1namespace: " + sys.argv[4], text)
    head, rest = text.split("\nexposes:\n", 1)
    expose, builds = rest.split("\nbuilds:\n", 1)
    first = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    ks = range(first, first + n)
    out = [head, "\nexposes:\n"]
    for k in ks:
        e = expose.replace("exposeId: orders", "exposeId: orders-%d" % k)
        e = e.replace("table: orders_landed", "table: orders_landed_%d" % k)
        out.append(e.rstrip("\n") + "\n")
    out.append("\nbuilds:\n")
    for k in ks:
        b = builds.replace("id: land-orders", "id: land-orders-%d" % k)
        b = b.replace("outputs: [orders]", "outputs: [orders-%d]" % k)
        b = b.replace("commerce-orders-landed", "commerce-orders-landed-%d" % k)
        out.append(b.rstrip("\n") + "\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
