/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_record.h - fluid apply's last-applied record: its format, written
 * and read here only.
 *
 * Per build, after its FlinkDeployment, fluid apply writes a mutable
 * ConfigMap <deployment>-fluid-last-applied in the deployment's
 * namespace, with the deployment's labels, whose data are
 *
 *	resources.json	a kubectl List, keys sorted, two-space indented:
 *			the script's ConfigMap as applied without its data
 *			(apiVersion, kind, metadata, immutable) plus
 *			"dataDigest", the digest (digest_json()) of the data
 *			it applied; then the FlinkDeployment as applied
 *	plan-digest, bundle-digest, mode
 *			the plan's
 *
 * The script is not repeated: the ConfigMap that holds it is immutable
 * and named by its digest, and a ConfigMap holds at most 1 MiB, so a
 * record that copied a large script would be refused after the job
 * started.
 *
 * The record is read back from the cluster, where anyone who may write
 * a ConfigMap in the namespace may edit it: what kube_record_read()
 * returns is checked to be this deployment's own (its namespace, the
 * names fluid renders, DNS-1123 names), so that nothing read from it
 * can name another namespace, another object, or a kubectl flag.
 *
 * Pure JSON: nothing here runs kubectl.  Named kube_ because only the
 * modules that talk to a cluster use it (lib/fluid.h).
 */
#ifndef FLUID_KUBE_RECORD_H
#define FLUID_KUBE_RECORD_H

#include <jansson.h>

#include "digest.h"
#include "k8s.h"

#define KUBE_RECORD_SUFFIX	"-fluid-last-applied"

/*
 * The record of one build (a new reference): the ConfigMap above, for
 * cm and fd as the plan holds them (borrowed).
 */
json_t	*kube_record_make(const json_t *plan, const json_t *cm,
	    const json_t *fd);

/* The record's name for deployment (a new string). */
char	*kube_record_name(const char *deployment);

/* A record as read from the cluster, checked. */
struct kube_record {
	json_t		*cm;	/* the ConfigMap applied, without data */
	json_t		*fd;	/* the FlinkDeployment applied */
	char		 data_digest[DIGEST_STRLEN];	/* of cm's data */
	enum k8s_mode	 mode;
};

/*
 * Read rec, the ConfigMap kubectl returned for the record of deployment
 * in ns.  Returns 0 and fills r (release it with kube_record_release());
 * or -1 and *why (a new string, one line) says what is not this
 * deployment's record.  A record written before the data digest (its
 * ConfigMap item with its data) is read too.
 */
int	 kube_record_read(const json_t *rec, const char *ns,
	    const char *deployment, struct kube_record *r, char **why);
void	 kube_record_release(struct kube_record *);

/*
 * The resources applied, as a kubectl List (a new reference): r's
 * ConfigMap with its data back when rendered (the ConfigMap the
 * contract renders now, or NULL) has the same name and data of the
 * recorded digest, else without data; then the FlinkDeployment.
 */
json_t	*kube_record_applied(const struct kube_record *r,
	    const json_t *rendered);

/* The digest of a ConfigMap's data, as the record holds it. */
void	 kube_record_data_digest(const json_t *cm, char out[DIGEST_STRLEN]);

#endif
