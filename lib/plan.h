/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * plan.h - a plan as apply reads it, offline (fluid-k8s(1), APPLYING).
 *
 * A plan crosses a trust boundary: a product team's CI writes it, the
 * platform's operator applies it with a kubeconfig that can do far
 * more.  Its digests are unkeyed, so anyone who can edit it can make
 * them match again.  Apply therefore trusts nothing the plan says of
 * itself: it makes the plan again from the plan's bundle (the contract
 * with every $ref inlined) with the very stage functions fluid plan
 * runs (check, sqlgen, k8s render, k8s_plan()), and refuses any
 * difference; every allowlist then runs on the resources that will be
 * written, and each resource's namespace, kind, images, service
 * accounts and Secrets are checked again on their own, whatever the
 * re-render said.  Nothing here contacts anything (kube_apply.h does).
 */
#ifndef FLUID_PLAN_H
#define FLUID_PLAN_H

#include <jansson.h>

#include "allow.h"
#include "diag.h"
#include "k8s.h"

/*
 * The API server's limits: a ConfigMap's data (keys and values) at most
 * 1 MiB; a whole object at most etcd's default request size, 1.5 MiB.
 */
#define PLAN_CONFIGMAP_DATA_MAX	(1024u * 1024u)
#define PLAN_OBJECT_MAX		(1536u * 1024u)

/*
 * The plan remade from plan's bundle, for mode (a new reference), when
 * plan is one fluid plan wrote for that mode and nothing in it was
 * changed since: the same bytes as plan, as a tree.  Otherwise NULL,
 * after errors in d placed at path (file name for messages): a plan
 * without a string mode, another mode, a digest that is not its
 * content's, a bundle that does not check, or any field that is not
 * what fluid renders from the bundle (named by its place in the plan).
 * A document that is no plan at all is a fatal error (usage).
 */
json_t	*plan_remake(const json_t *plan, enum k8s_mode mode,
	    const char *path, struct diags *d);

/*
 * Whether a bundle's document (the resolved contract) is within the
 * limits fluid validate holds a contract to (bounds.h: nodes, one
 * string's and one key's bytes, the bytes of every string and key):
 * NULL, or the first limit it passes, as a phrase (new).
 * plan_remake() measures the bundle with it before it renders it.
 */
char	*plan_bundle_unbounded(const json_t *document);

/*
 * plan_remake() in two steps, for a caller that meets one bundle
 * often (the fuzz target): the plan body (k8s_plan_body()) of bundle
 * for mode, a new reference, or NULL and *why (new) when the bundle
 * does not check; and plan_remake() with that body (stolen; NULL:
 * made here), whose result it is.
 */
json_t	*plan_bundle_body(const json_t *bundle, enum k8s_mode mode,
	    char **why);
json_t	*plan_remake_from(const json_t *plan, enum k8s_mode mode,
	    json_t *body, const char *path, struct diags *d);

/*
 * Every allowlist (allow.h, ALLOW_CMD_APPLY), for every build of plan
 * (one plan_remake() returned): the deployment targets read from every
 * resource (each resource's namespace and kind; every image of every
 * container, init container and pod template; every service account;
 * every Secret of envFrom, env, volumes and flinkConfiguration), the
 * hosts of the build's targets and of flinkConfiguration's endpoints,
 * the catalog credential's pairing and the own SQL.  Each refusal is an
 * error in d placed at path.
 */
void	plan_allow(const json_t *plan, const struct allow *al,
	    const char *path, struct diags *d);

/*
 * The checks of plan_allow() that a SQL Gateway apply needs, for the
 * checked build cb of product (ALLOW_CMD_GATEWAY: no Kubernetes
 * targets): hosts, the catalog credential's pairing, the Kafka
 * credentials' brokers and the own SQL.  Errors in d placed at path.
 */
void	plan_allow_build(const json_t *cb, const char *product,
	    const struct allow *al, const char *path, struct diags *d);

/*
 * The API server's limits, before the first write: each resource of
 * plan, and each build's last-applied record as record() makes it (the
 * caller passes kube_record_make(), kube_record.h), against
 * PLAN_CONFIGMAP_DATA_MAX and PLAN_OBJECT_MAX.  Each object over a
 * limit is an error in d naming its size and the limit, placed at path
 * (NULL: at nothing).
 */
void	plan_sizes(const json_t *plan, json_t *(*record)(const json_t *plan,
	    const json_t *cm, const json_t *fd), const char *path,
	    struct diags *d);

/* The plan's resource of kind named name (borrowed), or NULL. */
json_t	*plan_resource(const json_t *plan, const char *kind,
	    const char *name);

#endif
