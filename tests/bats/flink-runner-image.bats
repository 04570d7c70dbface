#!/usr/bin/env bats
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

# image_check TREE [CLASSPATH]: prints the image's jars; exits 1 naming each
# difference from the lane.
image_check() {
	python3 - "$@" <<'PY'
import re, sys, xml.etree.ElementTree as ET

root = sys.argv[1]
cp = sys.argv[2] if len(sys.argv) > 2 else None
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
