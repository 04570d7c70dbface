/*
 * kube_record.h - the last-applied record of a build: what fluid apply
 * writes after its resources, and fluid plan --last-applied and fluid
 * diff read (fluid-k8s(1), LAST-APPLIED RECORD).  Only the record's
 * shape is here; kube_apply.c writes it through kubectl.
 */
#ifndef FLUID_KUBE_RECORD_H
#define FLUID_KUBE_RECORD_H

#include <jansson.h>

/*
 * The record ConfigMap of a build (a new reference): a mutable
 * ConfigMap <deployment>-fluid-last-applied in the FlinkDeployment's
 * namespace with its labels, whose resources.json is a kubectl List of
 * cm and fd (as applied), beside the plan's digest, bundle digest and
 * mode.
 */
json_t	*kube_record_make(const json_t *plan, const json_t *cm,
	    const json_t *fd);

#endif
