#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/k8s/kubelet/image.sh - the image directory that the process kubelet
# (the lane's stand-in for the kubelet and the container runtime) mounts at
# /opt/flink in every Pod: what the job image tools/flink-runner/Dockerfile
# holds, assembled from Maven Central jars instead of the flink base image.
#
#   image.sh OUT_DIR
#
#   lib/        every jar of the live lane's Flink classpath
#               (tests/live/.cache/cp/flink.classpath, resolved by
#               tests/live/harness/pom.xml: Flink FLINK_V's modules, and the
#               image profile's connector jars at the same versions) but the
#               runner, and org.apache.flink:flink-kubernetes:FLINK_V (in
#               flink-dist in the real image)
#   plugins/s3-fs-hadoop/flink-s3-fs-hadoop-FLINK_V.jar
#   usrlib/fluid-flink-runner.jar   tools/flink-runner/target/
#   conf/ log/  empty (conf is the operator's ConfigMap in a Pod)
#   MANIFEST.txt  "PATH ARTIFACT VERSION" of every jar
#
# FLINK_V is tools/flink-runner/pom.xml's flink.version.  The two jars not
# on that classpath come from Maven Central (MAVEN_CENTRAL), SHA-1 checked
# against Central's, cached in K8S_CACHE/maven (default tests/k8s/.cache).
# The live lane's jars must be built first (tests/k8s/run does: mvn package
# of tests/live).  Rebuilt only when its inputs changed (a stamp); written
# to OUT_DIR.new, then moved.  Exits 2 with a message when something is
# missing or a download fails.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
CACHE=${K8S_CACHE:-$ROOT/tests/k8s/.cache}
die() { echo "image.sh (process kubelet's image directory): $*" >&2; exit 2; }
[ $# -eq 1 ] || { echo "usage: image.sh OUT_DIR" >&2; exit 2; }
OUT=$1

CP=$ROOT/tests/live/.cache/cp/flink.classpath
RUNNER=$ROOT/tools/flink-runner/target/fluid-flink-runner.jar
[ -s "$CP" ] || die "$CP is missing: build the live lane's jars first (mvn package of tests/live)"
[ -s "$RUNNER" ] || die "$RUNNER is missing: build the runner first (mvn package of tests/live)"
FLINK_V=$(sed -n 's|.*<flink.version>\(.*\)</flink.version>.*|\1|p' "$ROOT/tools/flink-runner/pom.xml" | head -n 1)
[ -n "$FLINK_V" ] || die "no flink.version in tools/flink-runner/pom.xml"

# central GROUP_PATH ARTIFACT VERSION: the jar's path in the cache.
central() {
	local g=$1 a=$2 v=$3 url jar sha1 got
	local dir=$CACHE/maven/$g/$a/$v
	jar=$dir/$a-$v.jar
	if [ ! -s "$jar" ]; then
		mkdir -p "$dir"
		url=${MAVEN_CENTRAL:-https://repo1.maven.org/maven2}/$g/$a/$v/$a-$v.jar
		curl -fsSL --retry 3 --max-time 300 -o "$jar.part" "$url" || die "download failed: $url"
		sha1=$(curl -fsSL --retry 3 --max-time 30 "$url.sha1" | cut -c1-40) || die "download failed: $url.sha1"
		got=$(sha1sum "$jar.part" | cut -c1-40)
		[ "$got" = "$sha1" ] || { rm -f "$jar.part"; die "$a-$v.jar: SHA-1 $got, Maven Central says $sha1"; }
		mv "$jar.part" "$jar"
	fi
	echo "$jar"
}

K8S_JAR=$(central org/apache/flink flink-kubernetes "$FLINK_V")
S3_JAR=$(central org/apache/flink flink-s3-fs-hadoop "$FLINK_V")

stamp=$( { cat "$CP"; echo; sha256sum "$RUNNER" "$K8S_JAR" "$S3_JAR" "$0"; } | sha256sum | cut -c1-32)
if [ "$(cat "$OUT/.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "image.sh: $OUT is up to date"
	exit 0
fi

rm -rf "$OUT.new"
mkdir -p "$OUT.new/lib" "$OUT.new/usrlib" "$OUT.new/plugins/s3-fs-hadoop" "$OUT.new/conf" "$OUT.new/log"
# put SRC DEST: a hard link where the file system allows, else a copy.
put() { ln -f "$1" "$2" 2>/dev/null || cp -f "$1" "$2"; }
manifest=$OUT.new/MANIFEST.txt
: >"$manifest"
IFS=: read -r -a jars <"$CP" || true  # no final newline is fine
for j in "${jars[@]}"; do
	[ -n "$j" ] || continue
	case $j in */tools/flink-runner/target/*) continue ;; esac  # the runner: usrlib/
	[ -f "$j" ] || die "the classpath names $j, which is missing (build the live lane again)"
	v=$(basename "$(dirname "$j")")
	a=$(basename "$(dirname "$(dirname "$j")")")
	put "$j" "$OUT.new/lib/$(basename "$j")"
	echo "lib/$(basename "$j") $a $v" >>"$manifest"
done
put "$K8S_JAR" "$OUT.new/lib/flink-kubernetes-$FLINK_V.jar"
echo "lib/flink-kubernetes-$FLINK_V.jar flink-kubernetes $FLINK_V" >>"$manifest"
put "$S3_JAR" "$OUT.new/plugins/s3-fs-hadoop/flink-s3-fs-hadoop-$FLINK_V.jar"
echo "plugins/s3-fs-hadoop/flink-s3-fs-hadoop-$FLINK_V.jar flink-s3-fs-hadoop $FLINK_V" >>"$manifest"
cp -f "$RUNNER" "$OUT.new/usrlib/fluid-flink-runner.jar"
echo "usrlib/fluid-flink-runner.jar fluid-flink-runner $(sed -n '0,/<version>/s|.*<version>\(.*\)</version>.*|\1|p' "$ROOT/tools/flink-runner/pom.xml")" >>"$manifest"
echo "$stamp" >"$OUT.new/.stamp"
rm -rf "$OUT"
mv "$OUT.new" "$OUT"
echo "image.sh: $OUT: $(grep -c . "$OUT/MANIFEST.txt") jars, $(du -sh "$OUT" | cut -f1)"
