# SPDX-License-Identifier: Apache-2.0
# tests/k8s/versions.sh - the Kubernetes lane's pinned versions, in one place.
# Sourced by tests/k8s/build and tests/k8s/run.  The etcd version is not
# here: build reads it from k8s.io/kubernetes's own go.mod (the etcd that
# this Kubernetes release requires), and records it with the binaries.

# kube-apiserver and kubectl: k8s.io/kubernetes from the Go module proxy.
K8S_VERSION=v1.34.4

# The Flink Kubernetes operator, built from its source (tests/k8s/build-operator):
# tag release-1.13.0 (commit b40c5539) of apache/flink-kubernetes-operator,
# the subset of Apache's source release that the build needs, at
# ../shared/operator relative to the clone (K8S_OPERATOR_SRC overrides it).
FLINK_OPERATOR_VERSION=1.13.0
FLINK_OPERATOR_SRC_SHA256=53743d2e43494e84c8faf793e4517db10ea91b3437baa569dee5aee0ad7d6196
