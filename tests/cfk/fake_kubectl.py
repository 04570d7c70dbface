#!/usr/bin/env python3
"""tests/cfk/fake_kubectl.py - a FAKE kubectl for the CFK target's apply
tests (tests/bats/fluid-cfk-apply.bats): no CFK operator, no CMF.

It keeps objects as JSON files in $FAKE_KUBE_DIR/<kind>/<ns>/<name>.json
and appends one line per call to $FAKE_KUBE_DIR/calls: "get KIND NAME",
"list KIND SELECTOR", "apply KIND NAME", "patch KIND NAME BODY",
"delete KIND NAME".  What it answers, and the status it writes in the
place of CFK (named as a stand-in: no status here is CFK's own):

  get    the object, or nothing (--ignore-not-found)
  get --selector   {"items": [...]} of the objects whose labels match
  apply  the object stored, generation bumped when its spec changed,
         status set: cmfSync.status $FAKE_SYNC (Created), errorMessage
         $FAKE_SYNC_MSG, phase $FAKE_DDL_PHASE (COMPLETED) for a
         statement whose role is source or sink, PENDING for the insert
         (CFK does not refresh a running statement's phase), and
         observedGeneration; a changed spec.statement of a stored
         FlinkStatement is refused as CFK's CEL rule refuses it
  patch  a merge patch of the stored object
  delete the object removed
"""
import json, os, sys

D = os.environ["FAKE_KUBE_DIR"]
args = [a for a in sys.argv[1:] if not a.startswith(("--context=", "--request-timeout="))]


def log(line):
    with open(os.path.join(D, "calls"), "a") as f:
        f.write(line + "\n")


def opt(name):
    for a in args:
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return None


def pos():
    return args[args.index("--") + 1:] if "--" in args else []


def path(kind, ns, name):
    return os.path.join(D, kind.lower(), ns, name + ".json")


def load(p):
    with open(p) as f:
        return json.load(f)


def store(p, o):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        json.dump(o, f)


def merge(a, b):
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            merge(a[k], v)
        elif v is None:
            a.pop(k, None)
        else:
            a[k] = v


verb = args[0]
ns = opt("--namespace")
if verb == "get" and opt("--selector") is not None:
    kind = pos()[0]
    sel = dict(kv.split("=", 1) for kv in opt("--selector").split(","))
    log("list %s %s" % (kind, opt("--selector")))
    items = []
    d = os.path.join(D, kind.lower(), ns)
    for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        o = load(os.path.join(d, n))
        labels = o.get("metadata", {}).get("labels", {})
        if all(labels.get(k) == v for k, v in sel.items()):
            items.append(o)
    print(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
elif verb == "get":
    kind, name = pos()
    log("get %s %s" % (kind, name))
    p = path(kind, ns, name)
    if os.path.exists(p):
        print(json.dumps(load(p)))
elif verb == "apply":
    o = json.load(sys.stdin)
    md = o["metadata"]
    kind = o["kind"].lower()
    log("apply %s %s" % (kind, md["name"]))
    p = path(kind, md["namespace"], md["name"])
    old = load(p) if os.path.exists(p) else None
    if kind == "flinkstatement" and old is not None and \
            old["spec"]["statement"] != o["spec"]["statement"]:
        sys.stderr.write('The FlinkStatement "%s" is invalid: spec: Invalid value: '
                         '"object": statement is immutable once running\n' % md["name"])
        sys.exit(1)
    gen = (old or {}).get("metadata", {}).get("generation", 0)
    if old is None or old.get("spec") != o.get("spec"):
        gen += 1
    md["generation"] = gen
    role = md.get("annotations", {}).get("fluid.dev/statement-role")
    st = {"cfkInternalState": "CREATED",
          "cmfSync": {"status": os.environ.get("FAKE_SYNC", "Created")},
          "observedGeneration": gen}
    if os.environ.get("FAKE_SYNC_MSG"):
        st["cmfSync"]["errorMessage"] = os.environ["FAKE_SYNC_MSG"]
    if kind == "flinkstatement":
        st["phase"] = os.environ.get("FAKE_DDL_PHASE", "COMPLETED") \
            if role in ("source", "sink") else "PENDING"
        if os.environ.get("FAKE_DETAIL"):
            st["detail"] = os.environ["FAKE_DETAIL"]
    o["status"] = st
    store(p, o)
    print(json.dumps(o))
elif verb == "patch":
    kind, name = pos()
    body = opt("--patch")
    log("patch %s %s %s" % (kind, name, body))
    p = path(kind, ns, name)
    o = load(p)
    merge(o, json.loads(body))
    o["metadata"]["generation"] = o["metadata"].get("generation", 0) + 1
    store(p, o)
    print(json.dumps(o))
elif verb == "delete":
    kind, name = pos()
    log("delete %s %s" % (kind, name))
    p = path(kind, ns, name)
    if os.path.exists(p):
        os.remove(p)
else:
    sys.stderr.write("fake kubectl: unexpected call %r\n" % args)
    sys.exit(3)
