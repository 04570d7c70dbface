#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The job image (tools/flink-runner/Dockerfile) carries exactly the jars the
# live lane runs with (tests/live: harness/pom.xml, deps/services/pom.xml),
# at the same versions, and pins its base images by digest.  Offline: it
# reads the recipe and the POMs, not a registry.
#
# What the image holds, from its recipe:
#   base      flink:V-scala_2.12-java17: Flink V's distribution (lib/, opt/)
#   lib/      target/image-lib/: tools/flink-runner/pom.xml, profile "image"
#   plugins/  s3-fs-hadoop/flink-s3-fs-hadoop-V.jar, copied from opt/
#   usrlib/   the runner jar (fluid:fluid-flink-runner)
# What the lane's Flink JVM holds: harness/pom.xml's dependencies (and their
# transitive ones, in .cache/cp/flink.classpath once the lane has been
# built), and the S3 plugin of deps/services/pom.xml.
# What the Kubernetes lane's process kubelet mounts as the image
# (tests/k8s/kubelet/image.sh, K8S_CACHE/image): the same lib/ jars, plus
# flink-kubernetes (which the base image has in flink-dist), the S3 plugin
# and the runner where the recipe puts them.

load helpers

setup() {
	fluid_setup
	# The checker reads a tree laid out like the repository's, so that the
	# tests below can hand it a copy with one thing changed.
	mkdir -p tree/tools/flink-runner tree/tests/live/harness tree/tests/live/deps/services
	cp "$TOP/tools/flink-runner/Dockerfile" "$TOP/tools/flink-runner/pom.xml" tree/tools/flink-runner/
	cp "$TOP/tests/live/harness/pom.xml" tree/tests/live/harness/
	cp "$TOP/tests/live/deps/services/pom.xml" tree/tests/live/deps/services/
}
teardown() { fluid_teardown; }

# image_check TREE [CLASSPATH [IMAGE_DIR]]: prints the image's jars; exits 1
# naming each difference from the lane.  IMAGE_DIR: the Kubernetes lane's
# image directory (tests/k8s/kubelet/image.sh), which must hold what the
# recipe does: lib/ the image profile's jars and flink-kubernetes (in the
# base image's flink-dist) at the recipe's versions, no other Flink, the
# S3 plugin where the Dockerfile puts it, the runner in usrlib/ only.
image_check() {
	python3 - "$@" <<'PY'
import re, sys, xml.etree.ElementTree as ET

root = sys.argv[1]
cp = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
img = sys.argv[3] if len(sys.argv) > 3 else None
NS = "{http://maven.apache.org/POM/4.0.0}"
bad = []

def pom(path):
    t = ET.parse(f"{root}/{path}").getroot()
    props = {p.tag[len(NS):]: p.text.strip() for p in t.find(NS + "properties") or []}
    props["project.version"] = t.findtext(NS + "version")
    def val(e, tag):
        v = e.findtext(NS + tag)
        return re.sub(r"\$\{([^}]+)\}", lambda m: props[m.group(1)], v.strip()) if v else None
    def gav(e):
        return (val(e, "groupId"), val(e, "artifactId"), val(e, "version"))
    return t, props, gav

# The image: base tag and digests, lib/ (the image profile), plugins/, usrlib/.
docker = open(f"{root}/tools/flink-runner/Dockerfile").read()
froms = re.findall(r"^FROM\s+(\S+)", docker, re.M)
for f in froms:
    if not re.fullmatch(r"[a-z0-9./-]+:[\w.-]+@sha256:[0-9a-f]{64}", f):
        bad.append(f"base image not pinned by digest: {f}")
base = [re.match(r"flink:(\d+\.\d+\.\d+)-scala_2\.12-java17(@|$)", f) for f in froms]
base = [m.group(1) for m in base if m]
if len(base) != 1:
    bad.append(f"expected one flink:V-scala_2.12-java17 base, found {froms}")
flink_v = base[0] if base else "?"

rt, rprops, rgav = pom("tools/flink-runner/pom.xml")
runner = rgav(rt)
image_lib = set()
for prof in rt.iter(NS + "profile"):
    if prof.findtext(NS + "id") == "image":
        image_lib = {rgav(a) for a in prof.iter(NS + "artifactItem")}
if not image_lib:
    bad.append("tools/flink-runner/pom.xml has no image profile artifactItems")
if "/src/target/image-lib/ /opt/flink/lib/" not in docker:
    bad.append("the Dockerfile does not copy target/image-lib/ into /opt/flink/lib/")
if not re.search(r"/src/target/fluid-flink-runner\.jar /opt/flink/usrlib/", docker):
    bad.append("the Dockerfile does not copy the runner jar into /opt/flink/usrlib/")
plug = re.findall(r"opt/flink-s3-fs-hadoop-([\w.-]+)\.jar\s+/opt/flink/plugins/s3-fs-hadoop/", docker)
image_plugins = {("org.apache.flink", "flink-s3-fs-hadoop", v) for v in plug}
if not image_plugins:
    bad.append("the Dockerfile puts no flink-s3-fs-hadoop jar in /opt/flink/plugins/s3-fs-hadoop/")

# The lane: the harness's dependencies, the S3 plugin of deps/services.
ht, hprops, hgav = pom("tests/live/harness/pom.xml")
lane = {hgav(d) for d in ht.find(NS + "dependencies")}
st, sprops, sgav = pom("tests/live/deps/services/pom.xml")
lane_plugins = {sgav(a) for a in st.iter(NS + "artifactItem") if sgav(a)[1] == "flink-s3-fs-hadoop"}

for where, props in (("tools/flink-runner/pom.xml", rprops), ("tests/live/harness/pom.xml", hprops)):
    if props.get("flink.version") != flink_v:
        bad.append(f"{where} has flink.version {props.get('flink.version')}, the base image Flink {flink_v}")
# Flink itself (every org.apache.flink module at flink.version) comes with
# the base image's distribution; log4j is the lane's own logging (the image
# has the distribution's); the runner is usrlib/.  Everything else must be
# in lib/, at the same version, and lib/ must hold nothing else but what
# those bring in transitively (named here, and checked in the resolved
# classpath when there is one).
TRANSITIVE = {("org.apache.kafka", "kafka-clients"): "flink-connector-kafka",
              ("commons-logging", "commons-logging"): "hadoop-client-runtime"}
rest = set()
for g, a, v in lane:
    if g == "org.apache.flink" and v == flink_v:
        continue
    if g == "org.apache.logging.log4j":
        continue
    if (g, a, v) == runner:
        continue
    if (g, a) == runner[:2]:
        bad.append(f"the lane runs {g}:{a}:{v}, the image's runner is {runner[2]}")
        continue
    rest.add((g, a, v))
if runner not in lane:
    bad.append(f"the lane does not run the image's runner {':'.join(runner)}")
for x in sorted(rest - image_lib):
    bad.append(f"the lane has {':'.join(x)}, the image's lib/ does not")
for x in sorted(image_lib - rest):
    via = TRANSITIVE.get(x[:2])
    if via is None:
        bad.append(f"the image's lib/ has {':'.join(x)}, the lane does not")
    elif not any(a == via for _, a, _ in rest & image_lib):
        bad.append(f"the image's lib/ has {':'.join(x)} for {via}, which neither has")
if image_plugins != lane_plugins:
    bad.append(f"plugins: the image has {sorted(image_plugins)}, the lane {sorted(lane_plugins)}")
if any(v != flink_v for _, _, v in image_plugins):
    bad.append(f"the S3 plugin {sorted(image_plugins)} is not the base image's Flink {flink_v}")
if cp:
    # The lane's resolved classpath: every lib/ jar at the image's version.
    have = {}
    for p in open(cp).read().strip().split(":"):
        parts = p.split("/")
        if len(parts) > 3:
            have.setdefault(parts[-3], set()).add(parts[-2])
    for g, a, v in sorted(image_lib):
        if have.get(a) != {v}:
            bad.append(f"the lane's classpath has {a} {sorted(have.get(a, []))}, the image {v}")
if img:
    # The process kubelet's image directory (tests/k8s/kubelet/image.sh):
    # its MANIFEST.txt ("PATH ARTIFACT VERSION"), each file present.
    import os
    try:
        rows = [ln.split() for ln in open(f"{img}/MANIFEST.txt").read().splitlines() if ln.strip()]
    except OSError as e:
        rows = []
        bad.append(f"the image directory has no MANIFEST.txt: {e}")
    where = {}
    for r in rows:
        if len(r) != 3:
            bad.append(f"the image directory's MANIFEST.txt has a bad line: {' '.join(r)}")
            continue
        path, a, v = r
        if not os.path.isfile(f"{img}/{path}"):
            bad.append(f"the image directory lists {path}, which is missing")
        where.setdefault(path.split("/")[0], {}).setdefault(a, set()).add((v, path))
    lib = where.get("lib", {})
    want = {(a, v) for _, a, v in image_lib} | {("flink-kubernetes", flink_v)}
    for a, v in sorted(want):
        if {x for x, _ in lib.get(a, set())} != {v}:
            bad.append(f"the image directory's lib/ has {a} {sorted(x for x, _ in lib.get(a, set()))}, "
                       f"the recipe {v}")
    for a, vs in sorted(lib.items()):
        for v, path in sorted(vs):
            if a == runner[1]:
                bad.append(f"the image directory has the runner in lib/ ({path}); it belongs in usrlib/")
            elif a.startswith("flink-") and re.fullmatch(r"\d+\.\d+\.\d+", v) and v != flink_v \
                    and (a, v) not in want:
                bad.append(f"the image directory's lib/ has {a} {v}, not the image's Flink {flink_v}")
    plug = {(a, v, p) for a, vs in where.get("plugins", {}).items() for v, p in vs}
    want_plug = {(a, v, f"plugins/s3-fs-hadoop/{a}-{v}.jar") for _, a, v in image_plugins}
    if plug != want_plug:
        bad.append(f"the image directory's plugins are {sorted(plug)}, the recipe's {sorted(want_plug)}")
    usr = {(a, v, p) for a, vs in where.get("usrlib", {}).items() for v, p in vs}
    if usr != {(runner[1], runner[2], f"usrlib/{runner[1]}.jar")}:
        bad.append(f"the image directory's usrlib/ is {sorted(usr)}, the recipe's the runner {runner[2]}")
    for path in sorted(p for d in where.values() for vs in d.values() for _, p in vs):
        print("image-dir:", path)
for x in sorted(image_lib | image_plugins):
    print("image:", ":".join(x))
for b in bad:
    print("DIFFERENT:", b)
sys.exit(1 if bad else 0)
PY
}

@test "flink-runner image: base images pinned by digest, jars and versions exactly the live lane's" {
	run image_check tree
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# What it compared (so that an empty comparison cannot pass).
	[[ "$output" == *"image: org.apache.iceberg:iceberg-flink-runtime-1.20:1.10.0"* ]]
	[[ "$output" == *"image: org.apache.flink:flink-s3-fs-hadoop:1.20.1"* ]]
	[[ "$output" == *"image: org.apache.flink:flink-connector-kafka:3.4.0-1.20"* ]]
	# >= 3.5: EnvVarConfigProvider resolves the Kafka credentials in the pod
	# (fluid-sqlgen(1), ENVIRONMENT REFERENCES).
	[[ "$output" == *"image: org.apache.kafka:kafka-clients:3.9.1"* ]]
	[ "$(grep -c '^image: ' <<<"$output")" -eq 9 ]
}

@test "flink-runner image: the lane's resolved classpath, when built, has every lib/ jar at the image's version" {
	cp=$TOP/tests/live/.cache/cp/flink.classpath
	[ -f "$cp" ] || skip "tests/live/.cache/cp/flink.classpath: the live lane has not been built here"
	# Written by the lane's last build: older than a pom means it is stale,
	# not wrong (make live writes it again).
	for pom in "$TOP/tests/live/harness/pom.xml" "$TOP/tools/flink-runner/pom.xml" \
		"$TOP/tests/live/pom.xml"; do
		[ "$cp" -nt "$pom" ] || skip "tests/live/.cache/cp/flink.classpath is older than ${pom#"$TOP"/}: run make live"
	done
	run image_check tree "$cp"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "flink-runner image: another Iceberg in the image than in the lane is a difference" {
	sed -i 's|<iceberg.version>1.10.0</iceberg.version>|<iceberg.version>1.9.2</iceberg.version>|' \
		tree/tools/flink-runner/pom.xml
	run image_check tree
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: the lane has org.apache.iceberg:iceberg-aws-bundle:1.10.0, the image's lib/ does not"* ]]
	[[ "$output" == *"DIFFERENT: the image's lib/ has org.apache.iceberg:iceberg-flink-runtime-1.20:1.9.2, the lane does not"* ]]
}

@test "flink-runner image: a connector the lane runs but the image lacks is a difference" {
	sed -i '/<artifactId>hadoop-client-runtime<\/artifactId>/d' tree/tools/flink-runner/pom.xml
	run image_check tree
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: the lane has org.apache.hadoop:hadoop-client-runtime:3.4.1, the image's lib/ does not"* ]]
	[[ "$output" == *"commons-logging:commons-logging:1.2 for hadoop-client-runtime, which neither has"* ]]
}

@test "flink-runner image: a jar in the image the lane does not run is a difference" {
	sed -i 's|</artifactItems>|<artifactItem><groupId>org.apache.flink</groupId><artifactId>flink-parquet</artifactId><version>1.20.1</version></artifactItem></artifactItems>|' \
		tree/tools/flink-runner/pom.xml
	run image_check tree
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: the image's lib/ has org.apache.flink:flink-parquet:1.20.1, the lane does not"* ]]
}

@test "flink-runner image: a base image by tag only, another Flink or another S3 plugin is a difference" {
	sed -i 's|^FROM maven:3.9.9-eclipse-temurin-17@sha256:[0-9a-f]*|FROM maven:3.9.9-eclipse-temurin-17|' \
		tree/tools/flink-runner/Dockerfile
	run image_check tree
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: base image not pinned by digest: maven:3.9.9-eclipse-temurin-17"* ]]

	cp "$TOP/tools/flink-runner/Dockerfile" tree/tools/flink-runner/
	sed -i 's|flink-s3-fs-hadoop-1.20.1.jar /opt|flink-s3-fs-hadoop-1.19.2.jar /opt|' tree/tools/flink-runner/Dockerfile
	run image_check tree
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: plugins: the image has"*"1.19.2"* ]]

	cp "$TOP/tools/flink-runner/Dockerfile" tree/tools/flink-runner/
	sed -i 's|^FROM flink:1.20.1-|FROM flink:1.20.2-|' tree/tools/flink-runner/Dockerfile
	run image_check tree
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: tools/flink-runner/pom.xml has flink.version 1.20.1, the base image Flink 1.20.2"* ]]
}

# fake_image_dir DIR: an image directory as image.sh lays it out, from the
# recipe (tools/flink-runner/pom.xml's image profile) with empty jars.
fake_image_dir() {
	local d=$1 a v
	mkdir -p "$d/lib" "$d/plugins/s3-fs-hadoop" "$d/usrlib"
	: >"$d/MANIFEST.txt"
	while read -r a v; do
		: >"$d/lib/$a-$v.jar"
		echo "lib/$a-$v.jar $a $v" >>"$d/MANIFEST.txt"
	done <<-EOF
		flink-connector-kafka 3.4.0-1.20
		kafka-clients 3.9.1
		flink-sql-avro-confluent-registry 1.20.0
		iceberg-flink-runtime-1.20 1.10.0
		iceberg-aws-bundle 1.10.0
		hadoop-client-api 3.4.1
		hadoop-client-runtime 3.4.1
		commons-logging 1.2
		flink-kubernetes 1.20.1
		flink-runtime 1.20.1
		flink-table-planner-loader 1.20.1
	EOF
	: >"$d/plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.20.1.jar"
	echo "plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.20.1.jar flink-s3-fs-hadoop 1.20.1" >>"$d/MANIFEST.txt"
	: >"$d/usrlib/fluid-flink-runner.jar"
	echo "usrlib/fluid-flink-runner.jar fluid-flink-runner 0.1.0" >>"$d/MANIFEST.txt"
}

@test "flink-runner image: the k8s lane's image directory laid out as the recipe is accepted" {
	fake_image_dir img
	run image_check tree "" img
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"image-dir: plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.20.1.jar"* ]]
	[[ "$output" == *"image-dir: lib/flink-kubernetes-1.20.1.jar"* ]]
	[[ "$output" == *"image-dir: usrlib/fluid-flink-runner.jar"* ]]
	[ "$(grep -c '^image-dir: ' <<<"$output")" -eq 13 ]
}

@test "flink-runner image: an image directory without the S3 plugin or flink-kubernetes is a difference" {
	fake_image_dir img
	rm img/plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.20.1.jar
	sed -i '/flink-s3-fs-hadoop/d; /flink-kubernetes/d' img/MANIFEST.txt
	run image_check tree "" img
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: the image directory's plugins are [], the recipe's [('flink-s3-fs-hadoop', '1.20.1', 'plugins/s3-fs-hadoop/flink-s3-fs-hadoop-1.20.1.jar')]"* ]]
	[[ "$output" == *"DIFFERENT: the image directory's lib/ has flink-kubernetes [], the recipe 1.20.1"* ]]
}

@test "flink-runner image: an image directory with another Iceberg, another Flink or the runner in lib/ is a difference" {
	fake_image_dir img
	sed -i 's|^lib/iceberg-flink-runtime-1.20-1.10.0.jar iceberg-flink-runtime-1.20 1.10.0$|lib/iceberg-flink-runtime-1.20-1.9.2.jar iceberg-flink-runtime-1.20 1.9.2|' img/MANIFEST.txt
	: >img/lib/iceberg-flink-runtime-1.20-1.9.2.jar
	echo "lib/flink-core-1.19.2.jar flink-core 1.19.2" >>img/MANIFEST.txt
	: >img/lib/flink-core-1.19.2.jar
	echo "lib/fluid-flink-runner.jar fluid-flink-runner 0.1.0" >>img/MANIFEST.txt
	: >img/lib/fluid-flink-runner.jar
	echo "lib/gone.jar gone 1" >>img/MANIFEST.txt
	run image_check tree "" img
	[ "$status" -eq 1 ]
	[[ "$output" == *"DIFFERENT: the image directory's lib/ has iceberg-flink-runtime-1.20 ['1.9.2'], the recipe 1.10.0"* ]]
	[[ "$output" == *"DIFFERENT: the image directory's lib/ has flink-core 1.19.2, not the image's Flink 1.20.1"* ]]
	[[ "$output" == *"DIFFERENT: the image directory has the runner in lib/ (lib/fluid-flink-runner.jar)"* ]]
	[[ "$output" == *"DIFFERENT: the image directory lists lib/gone.jar, which is missing"* ]]
}

@test "flink-runner image: the k8s lane's image directory, when built, holds what the recipe does" {
	img=${K8S_CACHE:-$TOP/tests/k8s/.cache}/image
	[ -f "$img/MANIFEST.txt" ] || skip "$img: the Kubernetes lane's image directory has not been built here"
	run image_check tree "" "$img"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}
