# tests/k8s/versions.sh - the Kubernetes lane's pinned versions, in one place.
# Sourced by tests/k8s/build and tests/k8s/run.  The etcd version is not
# here: build reads it from k8s.io/kubernetes's own go.mod (the etcd that
# this Kubernetes release requires), and records it with the binaries.

# kube-apiserver and kubectl: k8s.io/kubernetes from the Go module proxy.
K8S_VERSION=v1.34.4

# The FlinkDeployment CRD: the operator's API jar on Maven Central, and the
# SHA-256 of that jar (checked on every download; Maven's .sha1 too).
FLINK_OPERATOR_API_VERSION=1.10.0
FLINK_OPERATOR_API_SHA256=b1f44814e17514fa8395c61b329a3ee9087123a5bda5b21fe1a495d5182c30b6
